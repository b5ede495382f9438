"""Where the other team confirms each hand (the table option "confirm", Rook): a confirmed
hand changes only with the other team's consent. Striking or restoring it is a request that
waits like an entry; the other team confirms it (then the sheet changes) or either team
cancels it; the other phones see it live and in the history."""
from __future__ import annotations

import re

import pytest

from companion.tables import service as tables
from helpers import attr, form_block, inputs, select, text_of
from test_web_rook import create_rook, hand
from web_helpers import db_rows, snapshot


@pytest.fixture
def seats(new_phone):
    """A Rook table with confirm on: Ann (team A, host) and Bob (team B) have phones;
    Ann's hand #seq (180 to 70) is confirmed by Bob."""
    ann, bob = new_phone("Ann"), new_phone("Bob")
    table_id = create_rook(ann, confirm="on")
    bob.join(ann.join_path(table_id))
    assert bob.claim(table_id, 1).status_code == 303
    page = hand(ann, table_id, bidder="Ann", bid=175, points_A=180).get_data(as_text=True)
    seq = int(re.search(r"entry #(\d+) by Ann", text_of(page)).group(1))
    confirm(bob, table_id, seq)
    assert score(ann.page(table_id)) == (180, 70)
    return ann, bob, table_id, seq


def score(page: str) -> tuple[int, int]:
    """Team A's and team B's totals on the sheet."""
    return tuple(int(re.search(rf'data-team="{t}">(-?\d+)<', page).group(1)) for t in "AB")


def confirm(phone, table_id: str, target: int, status: int = 200):
    form = inputs(form_block(phone.page(table_id), "/confirm"))
    r = phone.post(f"/t/{table_id}/confirm", {"sid": form["sid"], "target": str(target)},
                   hx=True)
    assert r.status_code == status, text_of(r.get_data(as_text=True))[:800]
    return r


def strike(phone, table_id: str, target: int, sid: str, status: int = 200):
    r = phone.undo(table_id, target, sid=sid, from_history=True)
    assert r.status_code == status, text_of(r.get_data(as_text=True))[:800]
    return r


def request_of(page: str) -> int:
    return int(re.search(r"request #(\d+) by", text_of(page, "#waiting")).group(1))


def version_of(page: str) -> str:
    return attr(page, "[data-version]", "data-version")


def history(phone, table_id: str) -> str:
    return phone.get(f"/t/{table_id}/history").get_data(as_text=True)


@pytest.mark.parametrize("who", ["maker", "confirmer"])
def test_striking_a_confirmed_hand_waits_for_the_other_teams_consent(seats, who):
    ann, bob, table_id, seq = seats
    asker, other = (ann, bob) if who == "maker" else (bob, ann)
    before = version_of(other.page(table_id))
    r = strike(asker, table_id, seq, sid=f"{who}-strike")
    assert f"Asked the other team to agree to strike entry #{seq}." in \
        text_of(r.get_data(as_text=True))
    # Nothing changed on the sheet yet; both phones see the request.
    for phone in (ann, bob):
        page = phone.page(table_id)
        assert score(page) == (180, 70)
        assert f"strike entry #{seq} from the sheet" in text_of(page, "#waiting")
        assert 'id="undo-last"' not in page and 'id="entry-form"' not in page
    # The other phones' live refresh fetches the change (204 only while nothing changed).
    assert other.get(f"/t/{table_id}/play?since={before}", hx=True).status_code == 200
    request = request_of(ann.page(table_id))
    assert 'id="confirm-entry"' in other.page(table_id)
    assert 'id="confirm-entry"' not in asker.page(table_id)
    # The asking team can't agree with itself, nor enter a hand meanwhile.
    r = asker.post(f"/t/{table_id}/confirm", {"sid": "self", "target": str(request)}, hx=True)
    assert r.status_code == 403
    r = hand(asker, table_id, bidder="Ann", bid=150, points_A=100)
    assert r.status_code == 409 and f"Entry #{request} is waiting" in \
        text_of(r.get_data(as_text=True))

    r = confirm(other, table_id, request)
    assert f"Entry #{seq} was struck: both teams agreed." in text_of(r.get_data(as_text=True))
    for phone in (ann, bob):
        page = phone.page(table_id)
        assert score(page) == (0, 0) and 'id="waiting"' not in page
    lines = text_of(history(ann, table_id))
    assert f"Asked to strike entry #{seq}" in lines
    assert f"Agreed to strike entry #{seq} (request #{request})" in lines
    assert f"struck by #{request}" in lines and "agreed by #" in lines


@pytest.mark.parametrize("who", ["asker", "other team"])
def test_a_request_cancelled_by_either_team_changes_nothing(seats, who):
    ann, bob, table_id, seq = seats
    strike(ann, table_id, seq, sid="ask")
    request = request_of(ann.page(table_id))
    canceller, button = (ann, "cancel-request") if who == "asker" else (bob, "reject-entry")
    page = canceller.page(table_id)
    assert f'id="{button}"' in page                   # the waiting box offers it
    form = inputs(form_block(page, "/undo"))          # the box's form comes first
    assert form["target"] == str(request)
    r = strike(canceller, table_id, request, sid=form["sid"])
    assert f"Request #{request} was cancelled" in text_of(r.get_data(as_text=True))
    page = ann.page(table_id)
    assert score(page) == (180, 70) and 'id="waiting"' not in page
    lines = history(bob, table_id)
    assert f"Cancelled request #{request}" in text_of(lines)
    assert "cancelled by #" in text_of(lines)
    # The cancelled request offers no button; the hand can be entered on.
    assert not select(lines, f"#restore-{seq}")
    assert hand(ann, table_id, bidder="Ann", bid=150, points_A=100).status_code == 200


def test_restoring_a_struck_confirmed_hand_also_needs_consent(seats):
    ann, bob, table_id, seq = seats
    strike(ann, table_id, seq, sid="ask")
    confirm(bob, table_id, request_of(ann.page(table_id)))
    assert score(ann.page(table_id)) == (0, 0)
    # Bob takes the strike back from the history page: a request too.
    strike_seq = int(re.search(rf"#(\d+) · [^#]*Asked to strike entry #{seq}",
                               text_of(history(bob, table_id))).group(1))
    r = strike(bob, table_id, strike_seq, sid="restore")
    assert f"Asked the other team to agree to bring entry #{seq} back." in \
        text_of(r.get_data(as_text=True))
    page = bob.page(table_id)
    assert score(page) == (0, 0)
    assert f"bring entry #{seq} back on the sheet" in text_of(page, "#waiting")
    r = confirm(ann, table_id, request_of(page))
    assert f"Entry #{seq} is back on the sheet." in text_of(r.get_data(as_text=True))
    assert score(bob.page(table_id)) == (180, 70)
    assert f"Agreed to bring entry #{seq} back" in text_of(history(ann, table_id))


def test_a_waiting_hand_is_still_withdrawn_or_rejected_at_once(seats):
    ann, bob, table_id, _seq = seats
    page = hand(ann, table_id, bidder="Bob", bid=150, points_A=100).get_data(as_text=True)
    waiting = int(re.search(r"entry #(\d+) by Ann", text_of(page)).group(1))
    r = strike(bob, table_id, waiting, sid="reject")
    assert f"Entry #{waiting} was struck." in text_of(r.get_data(as_text=True))
    page = ann.page(table_id)
    assert 'id="waiting"' not in page and score(page) == (180, 70)


def test_a_request_while_a_hand_waits_is_refused_and_changes_nothing(seats, db_path):
    ann, bob, table_id, seq = seats
    page = hand(ann, table_id, bidder="Ann", bid=150, points_A=100).get_data(as_text=True)
    waiting = int(re.search(r"entry #(\d+) by Ann", text_of(page)).group(1))
    before = snapshot(db_path)
    r = strike(bob, table_id, seq, sid="too-soon", status=409)
    assert f"Entry #{waiting} is waiting" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


def test_a_hand_confirmed_while_the_strike_was_on_its_way_is_not_struck(seats, db_path,
                                                                        monkeypatch):
    """The consent check runs again inside the strike's own write: a hand confirmed after
    the request was looked at (simulated by skipping that look) is refused, not struck."""
    ann, bob, table_id, seq = seats
    monkeypatch.setattr(tables, "_ask_consent", lambda *a, **k: None)
    before = snapshot(db_path)
    r = strike(ann, table_id, seq, sid="raced", status=409)
    assert "was confirmed meanwhile" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    assert score(ann.page(table_id)) == (180, 70)


def test_without_the_confirm_option_a_strike_is_immediate(new_phone):
    ann = new_phone("Ann")
    table_id = create_rook(ann)
    page = hand(ann, table_id, bidder="Ann", bid=175, points_A=180).get_data(as_text=True)
    seq = int(re.search(r"Saved as entry #(\d+)", text_of(page)).group(1))
    r = strike(ann, table_id, seq, sid="plain")
    assert f"Entry #{seq} was struck." in text_of(r.get_data(as_text=True))
    assert score(ann.page(table_id)) == (0, 0)


def test_confirm_and_strike_at_the_same_instant_never_strike_a_confirmed_hand(seats,
                                                                               db_path):
    """Real threads: Bob confirms Ann's waiting hand while Ann strikes it, 8 times. Either
    the strike comes first (the hand is withdrawn before it counted) or the confirmation
    does (the strike then waits for Bob's consent, or is refused); a confirmed hand is
    never struck without a confirmed request."""
    import threading

    ann, bob, table_id, _seq = seats
    outcomes = set()
    for n in range(8):
        page = hand(ann, table_id, bidder="Ann", bid=150, points_A=100).get_data(as_text=True)
        entry = int(re.search(r"entry #(\d+) by Ann", text_of(page)).group(1))
        barrier, answers, texts = threading.Barrier(2), {}, {}

        def post(name, phone, path):
            barrier.wait(timeout=10)
            r = phone.post(f"/t/{table_id}/{path}",
                           {"sid": f"{name}-{n}", "target": str(entry)}, hx=True)
            answers[name] = r.status_code
            texts[name] = text_of(r.get_data(as_text=True))[:300]

        threads = [threading.Thread(target=post, args=("confirm", bob, "confirm")),
                   threading.Thread(target=post, args=("strike", ann, "undo"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert set(answers) == {"confirm", "strike"}
        confirmed_by, undone_by = db_rows(db_path, "SELECT confirmed_by, undone_by FROM actions "
                                          "WHERE table_id = ? AND seq = ?",
                                          [table_id, entry])[0]
        if confirmed_by is not None:
            # Confirmed first: not struck; Ann's strike is a waiting request or refused.
            assert undone_by is None and answers["confirm"] == 200, (answers, texts)
            request = db_rows(db_path, "SELECT seq FROM actions WHERE table_id = ? AND "
                              "kind = 'undo' AND pending = 1 AND confirmed_by IS NULL AND "
                              "undone_by IS NULL", [table_id])
            assert (answers["strike"], bool(request)) in ((200, True), (409, False))
            if not request:     # refused: ask again
                strike(ann, table_id, entry, sid=f"again-{n}")
            # Bob agrees, so the sheet is back where it was (and the game never ends).
            confirm(bob, table_id, request_of(ann.page(table_id)))
            outcomes.add("confirmed")
        else:
            # Struck first: withdrawn before it counted; the confirmation came too late.
            assert undone_by is not None and answers == {"confirm": 409, "strike": 200}
            outcomes.add("withdrawn")
        page = ann.page(table_id)
        assert 'id="waiting"' not in page and score(page) == (180, 70)
    assert outcomes
