"""Check-in, keep-apart groups and fixed tables through the Flask test client: round 1 leaves
out whoever isn't checked in (a no-show, shown so, checked in late from the next round);
a player checks in from their own phone; keep-apart teams never meet over the rounds, and
the director is told plainly of a pair that had to; a fixed entrant keeps their table."""
from __future__ import annotations

import json

import pytest
from test_web_events import create_event, seat_round, seatings
from test_web_event_cards_e30cards import finish_round
from helpers import select, text_of
from web_helpers import Phone, db_rows


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


PLAYERS = [f"P{i:02d}" for i in range(1, 9)]


def entrant_row(db_path, event_id, name):
    return db_rows(db_path, "SELECT dropped, no_show, checked_in, late_from FROM event_entrants"
                   " WHERE event_id = ? AND name = ?", [event_id, name])[0]


def seated(db_path, event_id, rnd):
    return {e for _n, _t, ids in seatings(db_path, event_id, rnd) for e in ids}


def test_check_in_leaves_a_no_show_out_who_joins_late(app, director, db_path):
    event_id = create_event(director, players=PLAYERS, rounds=3)
    post = lambda data: director.post(f"/e/{event_id}/entrants", data)   # noqa: E731
    # Check-in is refused while it is off.
    r = post({"action": "checkin", "name": "P01"})
    assert r.status_code == 422 and "Check-in is off" in text_of(r.get_data(as_text=True))
    assert post({"action": "checkin_on"}).status_code == 303
    for name in PLAYERS[:6]:
        assert post({"action": "checkin", "name": name}).status_code == 303
    assert post({"action": "uncheck", "name": "P06"}).status_code == 303
    # P07 checks in from their own phone.
    phone = Phone(app, "P07")
    assert phone.pick(event_id, "P07").status_code == 303
    page = phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert select(page, "#check-in-button")
    assert phone.post(f"/e/{event_id}/check-in").status_code == 303
    page = phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert "You’re checked in." in text_of(select(page, "#check-in")[0])
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "6 of 8 checked in" in text_of(select(dash, "#check-in-count")[0])
    # Added at the desk by the director: checked in at once.
    assert post({"action": "add", "name": "P09"}).status_code == 303
    assert entrant_row(db_path, event_id, "P09")[2] == 1
    seat_round(director, event_id)
    assert seated(db_path, event_id, 1) == set(PLAYERS[:5] + ["P07", "P09"])
    for name in ("P06", "P08"):
        assert entrant_row(db_path, event_id, name)[:2] == (1, 1)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    row = select(dash, '#entrants li[data-entrant="P08"]')[0]
    assert "(no-show)" in text_of(row)
    standings = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert "no-show" in text_of(select(standings, 'tr[data-entrant="P08"]')[0])
    # The no-show's phone says why, and can't check in by itself now.
    p08 = Phone(app, "P08")
    assert p08.pick(event_id, "P08").status_code == 303
    page = p08.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert "You weren’t checked in when round 1 was seated" in text_of(
        select(page, "#no-table")[0])
    r = p08.post(f"/e/{event_id}/check-in")
    assert r.status_code == 422 and "Ask the director to check you in" in text_of(
        r.get_data(as_text=True))
    # The director checks P08 in late: P08 plays from round 2, P06 stays out.
    assert post({"action": "checkin", "name": "P08"}).status_code == 303
    assert entrant_row(db_path, event_id, "P08") == (0, 0, 1, 2)
    r = post({"action": "checkin", "name": "P01"})
    assert r.status_code == 422 and "only a no-show" in text_of(r.get_data(as_text=True))
    finish_round(director, db_path, event_id, 1)
    seat_round(director, event_id)
    assert seated(db_path, event_id, 2) == set(PLAYERS[:5] + ["P07", "P08", "P09"])


def test_unseating_round_one_brings_the_no_shows_back(app, director, db_path):
    event_id = create_event(director, players=PLAYERS)
    director.post(f"/e/{event_id}/entrants", {"action": "checkin_on"})
    for name in PLAYERS[:2]:
        director.post(f"/e/{event_id}/entrants", {"action": "checkin", "name": name})
    # One checked in is too few for a round.
    director.post(f"/e/{event_id}/entrants", {"action": "uncheck", "name": "P02"})
    r = director.post(f"/e/{event_id}/seat")
    assert r.status_code == 422
    assert "of the list are checked in" in text_of(r.get_data(as_text=True))
    director.post(f"/e/{event_id}/entrants", {"action": "checkin", "name": "P02"})
    director.post(f"/e/{event_id}/entrants", {"action": "checkin", "name": "P03"})
    seat_round(director, event_id)
    assert seated(db_path, event_id, 1) == {"P01", "P02", "P03"}
    assert director.post(f"/e/{event_id}/unseat", {"round": "1"}).status_code == 303
    assert entrant_row(db_path, event_id, "P08")[:2] == (0, 0)
    r = director.post(f"/e/{event_id}/entrants", {"action": "checkin_off"})
    assert r.status_code == 303
    seat_round(director, event_id)
    assert seated(db_path, event_id, 1) == set(PLAYERS)


TEAMS = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal", "Ivy, Jo", "Kim, Lu"]


def test_keep_apart_teams_never_meet_and_a_forced_pair_is_named(app, director, db_path):
    event_id = create_event(director, TEAMS, slug="rook", variant="family", rounds=3)
    rules = lambda data: director.post(f"/e/{event_id}/pairing-rules", data)  # noqa: E731
    r = rules({"action": "apart_add", "group": "Riverside", "members": "Ann & Bob, nobody"})
    assert r.status_code == 422 and "“nobody” isn't on this event's list." in text_of(
        r.get_data(as_text=True))
    r = rules({"action": "apart_add", "group": "Riverside", "members": "Ann\nCy, Eve"})
    assert r.status_code == 303
    group = {"Ann & Bob", "Cy & Dee", "Eve & Fay"}
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Riverside : Ann & Bob, Cy & Dee, Eve & Fay" in text_of(select(dash, "#apart-groups")[0])
    for rnd in (1, 2, 3):
        seat_round(director, event_id)
        for _n, _t, ids in seatings(db_path, event_id, rnd):
            assert len(group & set(ids)) < 2, (rnd, ids)
        assert not select(director.get(f"/e/{event_id}").get_data(as_text=True),
                          "#pairing-notes")
        finish_round(director, db_path, event_id, rnd)
    kinds = [k for (k,) in db_rows(db_path, "SELECT kind FROM event_audit WHERE event_id = ?",
                                   [event_id])]
    assert "apart" in kinds


def test_a_pair_that_cant_be_kept_apart_is_told(app, director, db_path):
    event_id = create_event(director, TEAMS[:4], slug="rook", variant="family", rounds=1)
    r = director.post(f"/e/{event_id}/pairing-rules", {
        "action": "apart_add", "group": "Family", "members": "Ann, Cy, Eve"})
    assert r.status_code == 303
    seat_round(director, event_id)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    notes = text_of(select(dash, "#pairing-notes")[0])
    assert "(“Family”) meet at table" in notes and "no pairing of this round kept them apart" \
        in notes
    r = director.post(f"/e/{event_id}/pairing-rules", {"action": "apart_remove",
                                                       "group": "Family"})
    assert r.status_code == 303
    assert not select(director.get(f"/e/{event_id}").get_data(as_text=True), "#apart-groups")
    r = director.post(f"/e/{event_id}/pairing-rules", {"action": "apart_remove",
                                                       "group": "Family"})
    assert r.status_code == 404


def test_a_fixed_entrant_keeps_their_table(app, director, db_path):
    players = [f"P{i:02d}" for i in range(1, 13)]       # 3 tables of 4
    event_id = create_event(director, players=players, rounds=3)
    rules = lambda data: director.post(f"/e/{event_id}/pairing-rules", data)  # noqa: E731
    assert rules({"action": "fix", "name": "P12", "table": "x"}).status_code == 422
    assert rules({"action": "fix", "name": "P12", "table": "1"}).status_code == 303
    assert rules({"action": "fix", "name": "P11", "table": "3"}).status_code == 303
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "P12: table 1" in text_of(select(dash, "#fixed-tables")[0])
    for rnd in (1, 2):
        seat_round(director, event_id)
        at = {e: n for n, _t, ids in seatings(db_path, event_id, rnd) for e in ids}
        if at["P11"] == at["P12"]:      # at one table: the higher table's fix holds
            assert at["P12"] in (1, 3)
        else:
            assert (at["P12"], at["P11"]) == (1, 3)
        finish_round(director, db_path, event_id, rnd)
    # A second entrant fixed to table 1 who doesn't meet P12: the director is told.
    assert rules({"action": "unfix", "name": "P11"}).status_code == 303
    assert rules({"action": "fix", "name": "P01", "table": "1"}).status_code == 303
    seat_round(director, event_id)
    at = {e: n for n, _t, ids in seatings(db_path, event_id, 3) for e in ids}
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    if at["P01"] != at["P12"]:
        notes = text_of(select(dash, "#pairing-notes")[0])
        assert "both keep table 1 but don’t play each other" in notes
    assert rules({"action": "unfix", "name": "P01"}).status_code == 303
    assert json.loads(db_rows(db_path, "SELECT new FROM event_audit WHERE event_id = ? AND"
                              " kind = 'fixed_table' ORDER BY id DESC LIMIT 1",
                              [event_id])[0][0]) == {"table": None}
    assert rules({"action": "bogus"}).status_code == 400


def test_pairing_again_keeps_groups_apart_and_fixed_tables(app, director, db_path):
    event_id = create_event(director, TEAMS, slug="rook", variant="family", rounds=2)
    seat_round(director, event_id)
    # Set after round 1 was seated: pairing its tables again applies them.
    rules = lambda data: director.post(f"/e/{event_id}/pairing-rules", data)  # noqa: E731
    assert rules({"action": "apart_add", "group": "Family",
                  "members": "Ann, Cy, Eve"}).status_code == 303
    assert rules({"action": "fix", "name": "Kim & Lu", "table": "2"}).status_code == 303
    group = {"Ann & Bob", "Cy & Dee", "Eve & Fay"}
    for _ in range(3):
        r = director.post(f"/e/{event_id}/pair-again", {"round": "1"})
        assert r.status_code == 303, text_of(r.get_data(as_text=True))[:600]
        tables = seatings(db_path, event_id, 1)
        assert all(len(group & set(ids)) < 2 for _n, _t, ids in tables)
        assert "Kim & Lu" in next(ids for n, _t, ids in tables if n == 2)
    assert not select(director.get(f"/e/{event_id}").get_data(as_text=True), "#pairing-notes")
