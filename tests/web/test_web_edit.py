"""Changing an earlier hand or round in place, through the test client: History's "Edit",
the game's own form pre-filled, the sheet keeping its order, the audit line and its undo,
and refusals that change nothing (tables.service.edit; web/table.py `edit`)."""
from __future__ import annotations

import re

import pytest

from helpers import select, select_one, text_of
from web_helpers import create_game_table, snapshot

NAMES = ["Mom", "Leo", "Ann", "Cid"]     # teams: Mom & Ann (A), Leo & Cid (B)


def form_of(page: str) -> dict[str, str]:
    """What the edit form would send as drawn: its text boxes and hidden fields, the
    checked radios and boxes (also those outside it that belong to it, form="entry-form")."""
    data: dict[str, str] = {}
    for node in select(page, "#entry-form input[name], input[form=entry-form][name]"):
        kind = node.get("type", "text")
        if kind in ("radio", "checkbox") and "checked" not in node.attrs:
            continue
        data.setdefault(node["name"], node.get("value", ""))
    return data


def save(phone, table_id: str, fields: dict):
    """Post an entry the way the table page's form does (its sid and version)."""
    form = phone.entry_form(table_id)
    data = {"sid": form["sid"], "version": form["version"]}
    data.update({k: str(v) for k, v in fields.items()})
    r = phone.post(f"/t/{table_id}/actions", data, hx=True)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:600]
    return r


def edit(phone, table_id: str, seq: int, **changes):
    """Open entry `seq`'s edit page, change some boxes and save it."""
    page = phone.get(f"/t/{table_id}/entries/{seq}/edit")
    assert page.status_code == 200, text_of(page.get_data(as_text=True))[:600]
    data = form_of(page.get_data(as_text=True))
    data.update({k: str(v) for k, v in changes.items() if v is not None})
    for key in [k for k, v in changes.items() if v is None]:
        data.pop(key, None)
    return phone.post(f"/t/{table_id}/entries/{seq}/edit", data)


def history(phone, table_id: str) -> str:
    return phone.get(f"/t/{table_id}/history").get_data(as_text=True)


def hand(bidder: str, bid: int, points_a: int) -> dict:
    return {"bidder": bidder, "bid": bid, "points_A": points_a}


@pytest.fixture
def mom(new_phone):
    return new_phone("Mom")


@pytest.fixture
def rook(mom):
    """Five entries: hand 1, a redeal on Leo's deal, hands 2, 3 and 4."""
    table_id = create_game_table(mom, "rook", NAMES)
    save(mom, table_id, hand("Mom", 150, 100))
    save(mom, table_id, {"kind": "redeal"})
    save(mom, table_id, hand("Leo", 150, 40))
    save(mom, table_id, hand("Ann", 150, 160))
    save(mom, table_id, hand("Cid", 160, 120))
    return table_id


def rook_rows(page: str) -> list[str]:
    """The hands' table as shown, oldest first: '1 Mom 150 …' or the redeal's line."""
    return [text_of(row) for row in select(page, "#rook-hands tbody tr")][::-1]


def test_rook_hand_is_changed_where_it_stands(mom, rook):
    before = mom.page(rook)
    page = mom.get(f"/t/{rook}/entries/3/edit").get_data(as_text=True)
    # The game's own form, with the hand's values: Leo's bid of 150, 40 for Mom & Ann.
    assert select_one(page, "h1").text == "Change hand 2"
    assert "Leo bid 150; points Mom & Ann 40, Leo & Cid 210" in text_of(page, "#edit-was")
    filled = form_of(page)
    assert (filled["bidder"], filled["bid"], filled["points_A"]) == ("Leo", "150", "40")
    assert select_one(page, "#save-hand").text == "Save the change"
    r = edit(mom, rook, 3, points_A=30, points_B=None)
    assert r.status_code == 303 and r.headers["Location"].endswith("/history#action-6")
    after = mom.page(rook)
    rows = rook_rows(after)
    # Same order and numbers; the redeal still names Leo's deal; later totals follow.
    assert [row.split()[0] for row in rows] == ["1", "↻", "2", "3", "4"]
    assert "Everyone passed on Leo’s deal; Ann deals next." in rows[1]
    assert rows[2].startswith("2 Leo 150") and "+220" in rows[2]
    assert text_of(after, ".dealer-line") == text_of(before, ".dealer-line")
    assert "dealer: Leo" in text_of(after, ".dealer-line")          # deal 6 of 4 seats
    totals = {n["data-team"]: int(n.text) for n in select(after, "b.num[data-team]")}
    old = {n["data-team"]: int(n.text) for n in select(before, "b.num[data-team]")}
    assert totals == {"A": old["A"] - 10, "B": old["B"] + 10}
    line = text_of(history(mom, rook), "#action-6")
    assert ("Mom changed hand 2 (entry #3): Leo bid 150; points Mom & Ann 40, Leo & Cid 210 → "
            "Leo bid 150; points Mom & Ann 30, Leo & Cid 220") in line
    assert "changed by #6" in text_of(history(mom, rook), "#action-3")
    # Undone like any entry (History's "Undo change"): the old values are back.
    r = mom.undo(rook, 6, sid="undo-edit", from_history=True)
    assert r.status_code == 200
    assert {n["data-team"]: int(n.text) for n in select(mom.page(rook), "b.num[data-team]")} == old


def test_rook_refused_edit_names_its_rule_and_changes_nothing(mom, rook, db_path):
    kept = snapshot(db_path)
    r = edit(mom, rook, 3, bid=None, bid_typed=95)
    body = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "95 is too low: bids start at 150. RK-4" in text_of(body, "[role=alert]")
    assert form_of(body)["bid_typed"] == "95"                  # what was typed comes back
    assert snapshot(db_path) == kept


def test_rook_a_hand_and_a_redeal_change_places(mom, rook):
    # Hand 1 was a deal everyone passed: the redeal button of the edit form says so.
    r = edit(mom, rook, 1, kind="redeal")
    assert r.status_code == 303
    rows = rook_rows(mom.page(rook))
    assert [row.split()[0] for row in rows] == ["↻", "↻", "1", "2", "3"]
    assert "Everyone passed on Mom’s deal; Leo deals next." in rows[0]
    assert "Everyone passed on Leo’s deal; Ann deals next." in rows[1]
    assert "Mom changed hand 1 (entry #1): Mom bid 150; points Mom & Ann 100, Leo & Cid 150 → everyone " \
           "passed (redeal)" in text_of(history(mom, rook), "#action-6")
    # ...and the redeal on Leo's deal was a hand after all.
    page = mom.get(f"/t/{rook}/entries/2/edit").get_data(as_text=True)
    assert select_one(page, "h1").text == "Change the redeal"
    r = edit(mom, rook, 2, **hand("Leo", 150, 40))
    assert r.status_code == 303
    rows = rook_rows(mom.page(rook))
    assert [row.split()[0] for row in rows] == ["↻", "1", "2", "3", "4"]
    assert "Everyone passed on Mom’s deal; Leo deals next." in rows[0]


def test_who_may_edit_what(mom, rook, new_phone):
    assert mom.get(f"/t/{rook}/entries/99/edit").status_code == 404
    assert mom.get(f"/t/{rook}/entries/{2**63}/edit").status_code == 404
    # The history offers Edit beside Strike for every hand and redeal.
    page = history(mom, rook)
    assert [a["id"] for a in select(page, "a.h-edit")] == [f"edit-{n}" for n in (5, 4, 3, 2, 1)]
    assert all(a.parent.select_one(f"#strike-{a['id'][5:]}") for a in select(page, "a.h-edit"))
    # A struck hand is restored first.
    mom.undo(rook, 5, sid="strike-5", from_history=True)
    r = mom.get(f"/t/{rook}/entries/5/edit")
    assert r.status_code == 409 and "restore it in the history first" in text_of(
        r.get_data(as_text=True))
    # A phone that only watches can't.
    stranger = new_phone("Eve")
    stranger.join(stranger_link := mom.join_path(rook))
    assert stranger_link
    assert stranger.get(f"/t/{rook}/entries/3/edit").status_code == 403


def test_score_pad_round_is_changed_in_place(mom, db_path):
    table_id = mom.create_table(["Mom", "Leo", "Ann"], target=50)
    for scores in ({0: 5, 1: 3, 2: 0}, {0: 7, 1: 2, 2: 4}, {0: 1, 1: 1, 2: 1}):
        assert mom.enter(table_id, scores).status_code == 200
    page = mom.get(f"/t/{table_id}/entries/2/edit").get_data(as_text=True)
    assert select_one(page, "h1").text == "Change round 2"
    assert [form_of(page)[f"score_{i}"] for i in range(3)] == ["7", "2", "4"]
    assert edit(mom, table_id, 2, score_0=17).status_code == 303
    sheet = mom.page(table_id)
    assert [int(n.text) for n in select(sheet, "#sheet tfoot td[data-player]")][:3] == \
        [23, 6, 5]
    assert "Mom changed round 2 (entry #2): Mom +7, Leo +2, Ann +4 → Mom +17, Leo +2, " \
           "Ann +4" in text_of(history(mom, table_id))
    # A typo is refused like on the table (its words, nothing saved); so is a round 1 that
    # would end the game (target 50) before rounds 2 and 3 were played.
    kept = snapshot(db_path)
    r = edit(mom, table_id, 2, score_1="2x")
    assert r.status_code == 422 and "Leo's score must be a whole number" in text_of(
        r.get_data(as_text=True))
    r = edit(mom, table_id, 1, score_0=60)
    body = text_of(r.get_data(as_text=True))
    assert r.status_code == 422 and "entry #2 after it would no longer be legal" in body
    assert "SP-" in text_of(r.get_data(as_text=True), "[role=alert]")
    assert snapshot(db_path) == kept
    # A round saved on another phone while the form was open: nothing of it is lost, the
    # form comes back with what was typed and the fresh version, and saves on a second tap.
    page = mom.get(f"/t/{table_id}/entries/3/edit").get_data(as_text=True)
    assert mom.enter(table_id, {0: 1, 1: 1, 2: 1}).status_code == 200
    r = mom.post(f"/t/{table_id}/entries/3/edit", {**form_of(page), "score_2": "9"})
    again = r.get_data(as_text=True)
    assert r.status_code == 409 and "just before you" in text_of(again, ".notice.stale")
    assert form_of(again)["score_2"] == "9"
    assert form_of(again)["version"] != form_of(page)["version"]
    assert mom.post(f"/t/{table_id}/entries/3/edit", form_of(again)).status_code == 303


def test_rainbow_rummy_hand_is_changed_in_place(mom):
    table_id = create_game_table(mom, "rainbow_rummy", NAMES)
    quick = {"kind": "hand", "went_out": "0", "down_pts_0": 0, "hand_pts_1": 10,
             "down_pts_1": 0, "hand_pts_2": 5, "down_pts_2": 0, "hand_pts_3": 20,
             "down_pts_3": 0}
    save(mom, table_id, quick)
    save(mom, table_id, quick)
    totals = {n["data-team-total"]: int(n.text) for n in select(mom.page(table_id),
                                                                 "[data-team-total]")}
    page = mom.get(f"/t/{table_id}/entries/1/edit").get_data(as_text=True)
    assert select_one(page, "h1").text == "Change hand 1"
    assert form_of(page)["hand_pts_3"] == "20" and not select(page, "#rr-cut")
    assert edit(mom, table_id, 1, hand_pts_3=30, kind="hand").status_code == 303
    after = {n["data-team-total"]: int(n.text) for n in select(mom.page(table_id),
                                                                "[data-team-total]")}
    assert after["A"] == totals["A"] + 20 and after["B"] == totals["B"]   # in hand: twice
    assert re.search(r"Mom changed hand 1 \(entry #1\): Hand: Mom went out; .*Cid hand 20, "
                     r"down 0 → Hand: Mom went out; .*Cid hand 30", text_of(
                         history(mom, table_id)))


def test_where_the_other_team_confirms_a_change_waits_for_them(new_phone):
    from test_web_confirm_consent import confirm, score
    ann, bob = new_phone("Ann"), new_phone("Bob")
    table_id = create_game_table(ann, "rook", ["Ann", "Bob", "Cid", "Dee"], confirm="on")
    bob.join(ann.join_path(table_id))
    assert bob.claim(table_id, 1).status_code == 303
    save(ann, table_id, hand("Ann", 175, 180))
    seq = int(re.search(r"entry #(\d+) by Ann", text_of(ann.page(table_id))).group(1))
    confirm(bob, table_id, seq)
    assert edit(ann, table_id, seq, points_A=190, points_B=None).status_code == 303
    waiting = text_of(bob.page(table_id), "#waiting")
    assert re.search(r"Waiting for Bob & Dee to confirm change #\d+ by Ann: hand 1 \(entry "
                     rf"#{seq}\): Ann bid 175; points Ann & Cid 180, Bob & Dee 70 → Ann bid 175; "
                     r"points Ann & Cid 190, Bob & Dee 60", waiting), waiting
    assert score(ann.page(table_id)) == (180, 70)              # nothing counts yet
    change = int(re.search(r"change #(\d+)", waiting).group(1))
    confirm(bob, table_id, change)
    assert score(ann.page(table_id)) == (190, 60)
