"""Claims that prove who you are: one phone per player, claim codes (on by default), second
claims refused, "Not me", the director's release and reassign, printable slips, the table
card's QR seating a claimed player's own phone only, and seat entries that name the claim.

Every phone is its own Flask test client (its own cookie jar). The attacker holds what
anyone in the room holds: the public players', pairings' and standings' pages and a table
card's QR.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest
from test_web_events import PLAYERS, create_event, seat_round, seatings
from helpers import attr, select, text_of
from web_helpers import Phone, claim_code, count, db_rows, make_app

CLAIM_TABLES = ("event_passes", "event_players", "event_audit")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def one_table_event(director: Phone, db_path: str, players=PLAYERS[:4], **fields):
    """A one-table score pad event, round 1 seated: (event id, table id, seat names)."""
    event_id = create_event(director, list(players), **fields)
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    return event_id, table_id, seat_names(db_path, table_id)


def seat_names(db_path: str, table_id: str) -> list[str]:
    return [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ?"
                                  " ORDER BY pos", [table_id])]


def seated(db_path: str, table_id: str) -> list[int]:
    return [r[0] for r in db_rows(db_path, "SELECT seat FROM phones WHERE table_id = ? AND"
                                  " seat IS NOT NULL ORDER BY seat", [table_id])]


def holders(db_path: str, event_id: str) -> dict[str, str]:
    """player -> the holding phone's pass hash."""
    return {(m or e): h for e, m, h in db_rows(
        db_path, "SELECT entrant, member, secret_hash FROM event_passes WHERE event_id = ?",
        [event_id])}


def claim_rows(db_path: str) -> dict:
    return {t: sorted(db_rows(db_path, f"SELECT * FROM {t}"), key=repr) for t in CLAIM_TABLES}


def page_text(response) -> str:
    return text_of(response.get_data(as_text=True))


def claims_list(director: Phone, event_id: str) -> dict[str, str]:
    """player -> the text of their row in the dashboard's claims list."""
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    return {li.get("data-player"): li.text for li in select(page, "#claims li")}


def card(phone: Phone, event_id: str, table_no: int = 1):
    """The table card's QR: the players' phones sit down, anyone else watches."""
    return phone.get(f"/e/{event_id}/t/{table_no}")


def wrong(code: str) -> str:
    """A well-formed code that isn't `code`."""
    return "".join("B" if ch != "B" else "C" for ch in code)


# ---------------------------------------------------------------- the attacker

def test_a_stranger_with_public_pages_and_a_table_card_claims_nobody(app, director, db_path,
                                                                    new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    stranger = new_phone("stranger")
    for path in (f"/e/{event_id}/players", f"/e/{event_id}/pairings",
                 f"/e/{event_id}/standings", f"/e/{event_id}/players?name={names[0]}"):
        page = stranger.get(path).get_data(as_text=True)
        for name in names:                       # no public page shows a claim code
            assert claim_code(db_path, event_id, name) not in page, path
    before = claim_rows(db_path)
    for name in names:
        # A tap without a code opens the player's page, which asks for it: nothing held.
        r = stranger.pick(event_id, name, code="")
        assert r.status_code == 303 and r.headers["Location"].endswith(f"players?name={name}")
        page = stranger.get(r.headers["Location"]).get_data(as_text=True)
        assert attr(page, "#claim-code", "name") == "code"
        r = stranger.pick(event_id, name, code=wrong(claim_code(db_path, event_id, name)))
        assert r.status_code == 403
        assert f"That isn't {name}'s claim code." in page_text(r)
    assert claim_rows(db_path) == before and holders(db_path, event_id) == {}
    # The table card lets the stranger watch, never sit, and never enter a result.
    r = card(stranger, event_id)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}/seats")
    for pos in range(len(names)):
        assert stranger.claim(table_id, pos).status_code == 403
    r = stranger.post(f"/t/{table_id}/actions", {"sid": "s1", "version": "1", "score_0": "500",
                                                 "score_1": "0", "score_2": "0",
                                                 "score_3": "0"}, hx=True)
    assert r.status_code == 403
    assert seated(db_path, table_id) == []
    assert count(db_path, "actions", "table_id = ?", [table_id]) == 0
    # The real player, with the code from the director's slip, sits in their own seat.
    ann = new_phone(names[0])
    assert ann.pick(event_id, names[0]).status_code == 303
    r = card(ann, event_id)
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [0]


def test_wrong_codes_are_limited_per_address_across_workers(tmp_path):
    """Two app instances on one database stand for gunicorn's two workers."""
    workers = [make_app(tmp_path), make_app(tmp_path)]
    db_path = workers[0].config["DATABASE"]
    director = Phone(workers[0], "Director")
    event_id = create_event(director, PLAYERS)
    here, there = {"REMOTE_ADDR": "10.7.7.7"}, {"REMOTE_ADDR": "10.7.7.8"}
    guesser = [Phone(workers[i % 2], f"guesser {i}") for i in range(2)]
    answers = []
    for i in range(12):
        code = wrong(claim_code(db_path, event_id, "Ann"))
        r = guesser[i % 2].post(f"/e/{event_id}/pick", {"name": "Ann", "code": code},
                                environ_base=here)
        answers.append(r.status_code)
    assert answers == [403] * 10 + [429] * 2
    # Over the limit even the right code waits: guessing gains nothing.
    r = guesser[0].post(f"/e/{event_id}/pick", {"name": "Ann",
                                                "code": claim_code(db_path, event_id, "Ann")},
                        environ_base=here)
    assert r.status_code == 429 and "at most 10 a minute" in page_text(r)
    assert holders(db_path, event_id) == {}
    # Right codes never count: a whole club on one network claims its names.
    for i, name in enumerate(PLAYERS[1:]):
        phone = Phone(workers[i % 2], name)
        r = phone.post(f"/e/{event_id}/pick", {"name": name,
                                              "code": claim_code(db_path, event_id, name)},
                       environ_base=there)
        assert r.status_code == 303, name
    assert sorted(holders(db_path, event_id)) == sorted(PLAYERS[1:])


@pytest.mark.parametrize("typed", ["{code}", "{lower}", " {spaced} "])
def test_a_code_is_read_the_way_people_type_it(director, db_path, new_phone, typed):
    event_id = create_event(director, PLAYERS[:4])
    code = claim_code(db_path, event_id, "Cy")
    text = typed.format(code=code, lower=code.lower(), spaced=f"{code[:3]}-{code[3:]}")
    assert new_phone("Cy").pick(event_id, "cy", code=text).status_code == 303
    assert list(holders(db_path, event_id)) == ["Cy"]


# ---------------------------------------------------------------- one phone per player

def test_a_second_claim_is_refused_and_shown_to_the_director(app, director, db_path,
                                                            new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    ann, other = new_phone("Ann"), new_phone("Cid's browser")
    assert ann.pick(event_id, "Ann").status_code == 303
    held = holders(db_path, event_id)
    # The same phone picking again is fine (no code needed once it holds the player).
    assert ann.pick(event_id, "Ann", code="").status_code == 303
    for _attempt in range(2):                    # the right code, read over a shoulder
        r = other.pick(event_id, "Ann")
        assert r.status_code == 409
        assert "Ann is already claimed on another phone — ask the director." in page_text(r)
    # Sent by htmx too, the refusal is the whole page with its notice, never the bare view.
    r = other.post(f"/e/{event_id}/pick", {"name": "Ann",
                                           "code": claim_code(db_path, event_id, "Ann")}, hx=True)
    assert r.status_code == 409 and "already claimed" in text_of(r.get_data(as_text=True),
                                                                  '[role="alert"]')
    assert holders(db_path, event_id) == held
    assert card(other, event_id).headers["Location"].endswith("/seats")
    assert other.claim(table_id, names.index("Ann")).status_code == 403
    row = claims_list(director, event_id)["Ann"]
    label = held["Ann"][:6]
    assert f"phone {label}" in row and "3 second claims refused" in row
    assert "not claimed" in claims_list(director, event_id)["Bob"]


def test_phones_racing_for_one_player_leave_one_claim(tmp_path):
    """Eight phones on two workers send Ann's right code at once: one holds Ann."""
    workers = [make_app(tmp_path), make_app(tmp_path)]
    db_path = workers[0].config["DATABASE"]
    event_id = create_event(Phone(workers[0], "Director"), PLAYERS[:4])
    code = claim_code(db_path, event_id, "Ann")
    phones = [Phone(workers[i % 2], f"phone {i}") for i in range(8)]
    for phone in phones:
        phone.csrf()                           # their pages are open before the race
    barrier = threading.Barrier(len(phones))
    answers: list[int | None] = [None] * len(phones)

    def claim(i: int) -> None:
        barrier.wait()
        answers[i] = phones[i].post(f"/e/{event_id}/pick", {"name": "Ann", "code": code}
                                    ).status_code

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [303] + [409] * 7
    assert list(holders(db_path, event_id)) == ["Ann"]
    assert db_rows(db_path, "SELECT refused FROM event_passes")[0][0] == 7


def test_a_released_claim_lets_the_real_player_in(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    seat = names.index("Ann")
    thief, ann = new_phone("thief"), new_phone("Ann")
    assert thief.pick(event_id, "Ann").status_code == 303     # the code, seen on a slip
    assert card(thief, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [seat]
    label = holders(db_path, event_id)["Ann"][:6]
    assert ann.pick(event_id, "Ann").status_code == 409
    # Only the director releases another phone's claim.
    assert ann.post(f"/e/{event_id}/claims", {"action": "release",
                                              "player": "Ann"}).status_code == 403
    r = director.post(f"/e/{event_id}/claims", {"action": "release", "player": "Ann"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#claims")
    assert holders(db_path, event_id) == {} and seated(db_path, table_id) == []
    leave = db_rows(db_path, "SELECT payload FROM actions WHERE table_id = ? ORDER BY seq DESC"
                    " LIMIT 1", [table_id])[0][0]
    assert json.loads(leave) == {"change": "leave", "seat": seat}
    (kind, old, new), = db_rows(db_path, "SELECT kind, old, new FROM event_audit WHERE"
                                " event_id = ?", [event_id])
    assert kind == "claim" and json.loads(old) == {"player": "Ann", "phone": label,
                                                   "refused": 1}
    assert json.loads(new) == {"player": "Ann", "released": True, "new_code": False}
    dash = page_text(director.get(f"/e/{event_id}"))
    assert f"Released Ann’s claim (phone {label})." in dash
    # The real Ann claims and sits down; the released phone is back to watching.
    assert ann.pick(event_id, "Ann").status_code == 303
    assert card(ann, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert card(thief, event_id).headers["Location"].endswith("/seats")
    assert seated(db_path, table_id) == [seat]
    # Releasing a name nobody holds is refused in plain words, nothing changes.
    assert director.post(f"/e/{event_id}/claims", {"action": "release",
                                                   "player": "Bob"}).status_code == 422
    assert director.post(f"/e/{event_id}/claims", {"action": "release",
                                                   "player": "Nobody"}).status_code == 404


def test_reassign_makes_the_old_code_fail(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    old_code = claim_code(db_path, event_id, "Bob")
    wrong_phone = new_phone("wrong phone")
    assert wrong_phone.pick(event_id, "Bob", code=old_code).status_code == 303
    assert card(wrong_phone, event_id).headers["Location"].endswith(f"/t/{table_id}")
    r = director.post(f"/e/{event_id}/claims", {"action": "reassign", "player": "Bob"})
    assert r.status_code == 303
    new_code = claim_code(db_path, event_id, "Bob")
    assert new_code != old_code and len(new_code) == 6
    assert holders(db_path, event_id) == {} and seated(db_path, table_id) == []
    assert wrong_phone.pick(event_id, "Bob", code=old_code).status_code == 403
    assert new_code in claims_list(director, event_id)["Bob"]
    bob = new_phone("Bob")
    assert bob.pick(event_id, "Bob", code=new_code).status_code == 303
    assert "Gave Bob a new claim code." in page_text(director.get(f"/e/{event_id}"))


def test_the_director_alone_sees_codes_and_slips(app, director, db_path, new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family")
    stranger = new_phone("stranger")
    assert stranger.get(f"/e/{event_id}/slips").status_code == 403
    assert "Claims" not in page_text(stranger.get(f"/e/{event_id}/players"))
    page = director.get(f"/e/{event_id}/slips").get_data(as_text=True)
    slips = select(page, "article.claim-slip")
    assert [s.get("data-player") for s in slips] == ["Ann", "Bob", "Cy", "Dee"]
    for slip in slips:
        player = slip.get("data-player")
        assert claim_code(db_path, event_id, player) in slip.text
        assert f"/e/{event_id}/players" in slip.text
    # One QR code drawn for the page, shown by every slip.
    assert page.count("<path ") == 1 and page.count('<use href="#players-qr"/>') == 4
    row = claims_list(director, event_id)["Bob"]
    assert claim_code(db_path, event_id, "Bob") in row and "(Ann & Bob)" in row


def test_a_late_arrival_gets_a_code_too(app, director, db_path, new_phone):
    event_id, _table_id, _names = one_table_event(director, db_path)
    r = director.post(f"/e/{event_id}/entrants", {"action": "add", "name": "Zed"})
    assert r.status_code == 303
    code = claim_code(db_path, event_id, "Zed")
    assert code and code in claims_list(director, event_id)["Zed"]
    zed = new_phone("Zed")
    assert zed.pick(event_id, "Zed", code=wrong(code)).status_code == 403
    assert zed.pick(event_id, "Zed", code=code).status_code == 303
    assert list(holders(db_path, event_id)) == ["Zed"]


# ---------------------------------------------------------------- registering, codes off

def test_a_self_registered_phone_holds_its_claim(app, director, db_path, new_phone):
    event_id = create_event(director, [], slug="zocknroll", registration="on")
    zoe = new_phone("Zoe")
    assert zoe.post(f"/e/{event_id}/register", {"member_0": "Zoe"}).status_code == 303
    assert "You are Zoe" in page_text(zoe.get(f"/e/{event_id}/players"))
    assert list(holders(db_path, event_id)) == ["Zoe"]
    assert new_phone("other").pick(event_id, "Zoe").status_code == 409
    via, = db_rows(db_path, "SELECT via FROM event_passes WHERE event_id = ?", [event_id])[0]
    assert via == "register"
    assert "registered" in claims_list(director, event_id)["Zoe"]


def test_a_team_registration_shows_the_partners_code(app, director, db_path, new_phone):
    event_id = create_event(director, [], slug="rook", registration="on", variant="family")
    ann, bob = new_phone("Ann"), new_phone("Bob")
    assert ann.post(f"/e/{event_id}/register", {"member_0": "Ann",
                                                "member_1": "Bob"}).status_code == 303
    cy = new_phone("Cy")
    r = cy.post(f"/e/{event_id}/register", {"member_0": "Cy", "member_1": "Dee"})
    assert r.status_code == 303
    page = ann.get(f"/e/{event_id}/players").get_data(as_text=True)
    bobs = claim_code(db_path, event_id, "Bob")
    assert "You are Ann (Ann & Bob)" in text_of(page)
    assert text_of(page, "#partner-codes li") == f"Bob {bobs}"
    assert holders(db_path, event_id).keys() == {"Ann", "Cy"}
    # Bob claims with the code Ann passed on; then nobody is shown it any more.
    assert bob.pick(event_id, "Bob", code=bobs).status_code == 303
    assert 'id="partner-codes"' not in ann.get(f"/e/{event_id}/players").get_data(as_text=True)
    seat_round(director, event_id)
    (_n, table_id, _ids), = [s for s in seatings(db_path, event_id, 1)
                             if "Ann & Bob" in s[2]]
    names = seat_names(db_path, table_id)
    for phone in (ann, bob):
        r = phone.post(f"/e/{event_id}/my-table")
        assert r.headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == sorted([names.index("Ann"), names.index("Bob")])
    # Cy's phone is shown Dee's code; no other phone is, nor any public page.
    dees = claim_code(db_path, event_id, "Dee")
    assert text_of(cy.get(f"/e/{event_id}/players").get_data(as_text=True),
                   "#partner-codes li") == f"Dee {dees}"
    for path in ("players", "players?name=Dee", "pairings", "standings"):
        assert dees not in new_phone("x").get(f"/e/{event_id}/{path}").get_data(as_text=True)


def test_codes_off_the_first_claim_holds(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path, claim_codes_shown="1")
    assert json.loads(db_rows(db_path, "SELECT config FROM events WHERE id = ?",
                              [event_id])[0][0])["claim_codes"] is False
    first, second = new_phone("first"), new_phone("second")
    page = first.get(f"/e/{event_id}/players?name=Cy").get_data(as_text=True)
    assert 'id="claim-code"' not in page                       # no code box
    assert first.pick(event_id, "Cy", code="").status_code == 303
    r = second.pick(event_id, "Cy", code="")
    assert r.status_code == 409 and "Cy is already claimed on another phone" in page_text(r)
    assert card(first, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert card(second, event_id).headers["Location"].endswith("/seats")
    assert seated(db_path, table_id) == [names.index("Cy")]
    # The director switches codes on: claims held stay held, new ones need the code.
    r = director.post(f"/e/{event_id}/claims", {"action": "codes_on"})
    assert r.status_code == 303
    assert "claim_codes" not in json.loads(db_rows(
        db_path, "SELECT config FROM events WHERE id = ?", [event_id])[0][0])
    assert list(holders(db_path, event_id)) == ["Cy"]
    assert second.pick(event_id, "Dee", code="").headers["Location"].endswith("name=Dee")
    assert second.pick(event_id, "Dee").status_code == 303
    dash = page_text(director.get(f"/e/{event_id}"))
    assert "Switched the claim codes on." in dash and "Claim codes are on" in dash


def test_the_new_event_form_has_codes_on_by_default(director, db_path):
    page = director.get("/events/new/scorepad").get_data(as_text=True)
    assert attr(page, "#ev-claim-codes", "checked") is not None
    event_id = create_event(director, PLAYERS[:4], claim_codes_shown="1", claim_codes="on")
    config = json.loads(db_rows(db_path, "SELECT config FROM events WHERE id = ?",
                                [event_id])[0][0])
    assert "claim_codes" not in config
    assert len({claim_code(db_path, event_id, p) for p in PLAYERS[:4]}) == 4


# ---------------------------------------------------------------- "not me" and picking again

def test_not_me_gives_the_claim_back_and_frees_the_seat(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    phone = new_phone("Em's phone")
    assert phone.pick(event_id, "Bob").status_code == 303          # the wrong name
    assert card(phone, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [names.index("Bob")]
    page = phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert attr(page, "#not-me-form", "action") == f"/e/{event_id}/not-me"
    r = phone.post(f"/e/{event_id}/not-me")
    assert r.status_code == 303 and r.headers["Location"].endswith("players?pick=1")
    assert holders(db_path, event_id) == {} and seated(db_path, table_id) == []
    payload = db_rows(db_path, "SELECT payload FROM actions WHERE table_id = ? ORDER BY seq"
                      " DESC LIMIT 1", [table_id])[0][0]
    assert json.loads(payload) == {"change": "leave", "seat": names.index("Bob")}
    bob = new_phone("Bob")
    assert bob.pick(event_id, "Bob").status_code == 303
    assert card(bob, event_id).headers["Location"].endswith(f"/t/{table_id}")
    # "Not me" with no claim changes nothing.
    before = claim_rows(db_path)
    assert new_phone("nobody").post(f"/e/{event_id}/not-me").status_code == 303
    assert claim_rows(db_path) == before


def test_picking_another_name_gives_back_the_first_and_its_seat(app, director, db_path,
                                                                new_phone):
    """One wrong tap doesn't keep someone else's seat: Em's phone lands in Fil's seat,
    then picks Em."""
    event_id, table_id, names = one_table_event(director, db_path,
                                                players=["Em", "Fil", "Gus", "Hal"])
    em = new_phone("Em")
    assert em.pick(event_id, "Fil").status_code == 303
    assert em.post(f"/e/{event_id}/my-table").headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [names.index("Fil")]
    assert em.pick(event_id, "Em").status_code == 303
    assert list(holders(db_path, event_id)) == ["Em"] and seated(db_path, table_id) == []
    assert em.post(f"/e/{event_id}/my-table").headers["Location"].endswith(f"/t/{table_id}")
    fil = new_phone("Fil")
    assert fil.pick(event_id, "Fil").status_code == 303
    assert card(fil, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == sorted([names.index("Em"), names.index("Fil")])


# ---------------------------------------------------------------- teams

def test_team_members_are_claimed_one_by_one(app, director, db_path, new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family")
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    names = seat_names(db_path, table_id)
    ann, bob = new_phone("Ann"), new_phone("Bob")
    # The team's name with a member's code claims that member.
    assert ann.pick(event_id, "Ann & Bob", code=claim_code(db_path, event_id, "Ann")
                    ).status_code == 303
    page = bob.get(f"/e/{event_id}/players?name=Ann %26 Bob").get_data(as_text=True)
    assert [b.get("value") for b in select(page, "#claim-form button")] == ["Ann", "Bob"]
    r = bob.pick(event_id, "Ann")                                   # Ann's own code
    assert r.status_code == 409 and "Ann is already claimed" in page_text(r)
    r = bob.pick(event_id, "Bob", code=claim_code(db_path, event_id, "Ann"))
    assert r.status_code == 403                                    # Ann's code isn't Bob's
    assert bob.pick(event_id, "Bob").status_code == 303
    assert holders(db_path, event_id).keys() == {"Ann", "Bob"}
    for phone in (ann, bob):
        assert card(phone, event_id).headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == sorted([names.index("Ann"), names.index("Bob")])
    assert ann.claim(table_id, names.index("Cy")).status_code == 403
    rows = claims_list(director, event_id)
    assert "phone" in rows["Ann"] and "phone" in rows["Bob"] and "not claimed" in rows["Dee"]


def test_a_team_name_without_codes_asks_for_your_own_name(app, director, db_path, new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family",
                            claim_codes_shown="1")
    phone = new_phone("Cy")
    r = phone.pick(event_id, "Cy & Dee", code="")
    assert r.status_code == 303 and r.headers["Location"].endswith("name=Cy+%26+Dee")
    page = phone.get(r.headers["Location"]).get_data(as_text=True)
    assert [b.get("value") for b in select(page, "#claim-form button")] == ["Cy", "Dee"]
    assert 'id="claim-code"' not in page
    # With codes off a code can't say which member: the page asks in plain words.
    r = phone.pick(event_id, "Cy & Dee", code="ABCDEF")
    assert r.status_code == 422 and "Tap your own name: Cy / Dee." in page_text(r)
    assert holders(db_path, event_id) == {}
    assert phone.pick(event_id, "Dee", code="").status_code == 303
    assert "You are Dee (Cy & Dee)" in page_text(phone.get(f"/e/{event_id}/players"))


# ---------------------------------------------------------------- the table's log

def test_an_entry_traces_back_to_the_claim_it_was_made_under(app, director, db_path,
                                                             new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    ann = new_phone("Ann")
    assert ann.pick(event_id, "Ann").status_code == 303
    assert card(ann, event_id).headers["Location"].endswith(f"/t/{table_id}")
    r = ann.enter(table_id, {0: 40, 1: 30, 2: 20, 3: 10})
    assert r.status_code == 200
    label = holders(db_path, event_id)["Ann"][:6]
    rows = db_rows(db_path, "SELECT seat, kind, payload FROM actions WHERE table_id = ?"
                   " ORDER BY seq", [table_id])
    (seat, kind, payload), entry = rows[0], rows[-1]
    assert kind == "seat" and json.loads(payload) == {
        "change": "claim", "seat": names.index("Ann"),
        "claim": {"player": "Ann", "phone": label}}
    assert entry[0] == seat and entry[1] == "game"
    history = page_text(ann.get(f"/t/{table_id}/history"))
    assert f"Took the seat Ann through the claim of phone {label}" in history
    assert f"phone {label}" in claims_list(director, event_id)["Ann"]


# ---------------------------------------------------------------- existing databases

def test_the_migration_keeps_old_passes_as_claims(tmp_path):
    """A database from before claims: its entrants get codes, its passes stay claims (the
    oldest of two on one player wins, a team's pass goes to a player)."""
    from companion.storage.db import connect
    from companion.storage.migrations import migrate, migrations
    path = tmp_path / "old.db"
    db = connect(path)
    migrations.apply(db, stop_before="m010_entrant_claims")
    db.execute("INSERT INTO events (id, name, game, settings, rounds, secret_hash, created_at)"
               " VALUES ('ev1', 'Old', 'scorepad', '{}', 2, 'x', '2026-01-01')")
    db.execute("INSERT INTO events (id, name, game, settings, rounds, secret_hash, created_at)"
               " VALUES ('ev2', 'Old teams', 'rook', '{}', 2, 'x', '2026-01-01')")
    for pos, name in enumerate(["Ann", "Bob"]):
        db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES"
                   " ('ev1', ?, ?, ?)", [pos, name, json.dumps([name])])
    db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES"
               " ('ev2', 0, 'Cy & Dee', ?)", [json.dumps(["Cy", "Dee"])])
    passes = [("h-old", "ev1", "Ann", None, "2026-01-01T10:00"),
              ("h-new", "ev1", "Ann", None, "2026-01-01T11:00"),
              ("h-bob", "ev1", "Bob", None, "2026-01-01T12:00"),
              ("h-team", "ev2", "Cy & Dee", None, "2026-01-01T10:00"),
              ("h-dee", "ev2", "Cy & Dee", "Dee", "2026-01-01T09:00")]
    for row in passes:
        db.execute("INSERT INTO event_passes (secret_hash, event_id, entrant, member,"
                   " created_at) VALUES (?, ?, ?, ?, ?)", row)
    db.conn.commit()
    db.conn.close()
    migrate(path)
    conn = sqlite3.connect(path)
    try:
        kept = sorted(conn.execute("SELECT secret_hash, entrant, member, via FROM"
                                   " event_passes").fetchall())
        codes = conn.execute("SELECT event_id, player, entrant, code FROM event_players"
                             " ORDER BY event_id, player").fetchall()
        with pytest.raises(sqlite3.IntegrityError):   # one phone per player from now on
            conn.execute("INSERT INTO event_passes (secret_hash, event_id, entrant, member,"
                         " created_at) VALUES ('h-x', 'ev1', 'Bob', NULL, 'now')")
    finally:
        conn.close()
    assert kept == [("h-bob", "Bob", None, "kept"), ("h-dee", "Cy & Dee", "Dee", "kept"),
                    ("h-old", "Ann", None, "kept"), ("h-team", "Cy & Dee", "Cy", "kept")]
    assert [c[:3] for c in codes] == [("ev1", "Ann", "Ann"), ("ev1", "Bob", "Bob"),
                                      ("ev2", "Cy", "Cy & Dee"), ("ev2", "Dee", "Cy & Dee")]
    assert all(len(c[3]) == 6 and c[3].isalpha() and c[3].isupper() for c in codes)


def test_the_docs_state_the_claim_numbers():
    """docs/SECURITY.md and docs/TOURNAMENTS.md state the guess limit and the code size."""
    from companion.tables import tokens
    from companion.web.events.entrants import CLAIM_GUESS_LIMIT
    assert CLAIM_GUESS_LIMIT == (10, 60.0)
    assert (len(tokens.CODE_ALPHABET), tokens.CODE_LENGTH) == (23, 6)
    security = (ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    tournaments = (ROOT / "docs" / "TOURNAMENTS.md").read_text(encoding="utf-8")
    for fact in ("10 a minute per address", f"{23 ** 6:,}", "7.4 million minutes"):
        assert fact in security, fact
    for fact in ("10 a minute per address", "6-letter claim code", "m010_entrant_claims"):
        assert fact in tournaments, fact
    assert round(23 ** 6 / 2 / 10 / 1e6, 1) == 7.4
