"""What directors expect, through the Flask test client: scoring, tie-break,
late-arrival and pairing choices on the new-event form; penalties and bonuses; swapping
entrants or unseating a round before play; the standings' columns, marks and CSV; a 16-team
Rook Swiss over three rounds."""
from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest
from test_web_events import (PLAYERS, create_event, event_rows, play_table, seat_player,
                             seat_round, seatings)
from helpers import select, select_one, text_of
from web_helpers import Phone, count, db_rows, snapshot, standings

from companion import events
from companion.tables.tokens import phone_hash
from companion.web.events.pages import TIEBREAK_WORDS

@pytest.fixture
def director(new_phone):
    return new_phone("Director")


def standings_of(phone, event_id: str) -> list[tuple[str, str]]:
    """(entrant, points) in the standings page's order."""
    page = phone.get(f"/e/{event_id}/standings").get_data(as_text=True)
    return standings(page)


def config_of(db_path: str, event_id: str) -> dict:
    return json.loads(db_rows(db_path, "SELECT config FROM events WHERE id = ?",
                              [event_id])[0][0])


def correct(director, event_id: str, rnd: int, table: int, places, scores=None, why="slip"):
    data = {"round": str(rnd), "table": str(table), "why": why}
    data.update({f"place_{i}": str(p) for i, p in enumerate(places)})
    data.update({f"score_{i}": str(s) for i, s in enumerate(scores or ())})
    r = director.post(f"/e/{event_id}/correct", data)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]


def lock(director, event_id: str, rnd: int) -> None:
    r = director.post(f"/e/{event_id}/lock", {"round": str(rnd)})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]


def seat_names(db_path: str, table_id: str) -> list[str]:
    return [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? "
                                  "ORDER BY pos", [table_id])]


def byes_of(db_path: str, event_id: str, rnd: int) -> list[str]:
    return json.loads(db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ? AND "
                              "round = ?", [event_id, rnd])[0][0])


def audit_rows(db_path: str, event_id: str, kind: str) -> list[tuple]:
    return db_rows(db_path, "SELECT round, table_no, who, why, old, new FROM event_audit "
                   "WHERE event_id = ? AND kind = ? ORDER BY id", [event_id, kind])


def refused(response, words: str) -> str:
    assert response.status_code == 422, response.status_code
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page), text_of(page)[:1500]
    return page


# ---------------------------------------------------------------- the new-event form

def test_the_form_offers_the_choices_folded_with_the_games_defaults(director):
    page = director.get("/events/new/scorepad").get_data(as_text=True)
    block = page[page.index('id="scoring-choices"') - 60:page.index("</details>")]
    assert "<details" in block and " open" not in block.split(">", 1)[0]
    assert 'name="points_places" value="4, 2, 1, 0"' in block
    assert 'name="odd_tables"' in block and 'name="pairing"' not in block
    assert 'name="tiebreak_3"' in block and 'name="tiebreak_4"' not in block
    assert "Sonneborn-Berger" not in block
    rook = director.get("/events/new/rook").get_data(as_text=True)
    for field in ('name="points_win" value="2"', 'name="points_draw" value="1"',
                  'name="points_loss" value="0"', 'name="pairing"', 'name="tiebreak_4"',
                  'value="sonneborn_berger"'):
        assert field in rook, field
    assert 'name="odd_tables"' not in rook and 'name="points_places"' not in rook


def test_tiebreak_words_are_the_librarys_names():
    assert TIEBREAK_WORDS == events.TIEBREAK_NAMES


def test_custom_place_points_bye_and_odd_tables_are_stored_and_used(app, director, db_path):
    event_id = create_event(director, PLAYERS[:7], points_places="5, 3, 1", points_bye="2",
                            odd_tables="larger", late_points="bye")
    assert config_of(db_path, event_id) == {
        "points": [5, 3, 1], "odd_tables": "larger", "bye": 2, "late": "bye"}
    seat_round(director, event_id)
    # 7 players, 4 to a table, "some larger tables": one table of 7 rather than 4 + 3.
    (_n, table_id, ids), = seatings(db_path, event_id, 1)
    assert len(ids) == 7
    play_table(app, db_path, table_id, [70, 60, 50, 40, 30, 20, 10])
    shown = dict(standings_of(director, event_id))
    # 5 / 3 / 1 by place; places past the list score 0.
    assert [shown[e] for e in ids] == ["5", "3", "1", "0", "0", "0", "0"]


def test_late_arrivals_start_with_bye_points_for_the_rounds_they_missed(director, db_path):
    event_id = create_event(director, PLAYERS[:4], rounds=3, points_bye="3",
                            late_points="bye")
    r = director.post(f"/e/{event_id}/entrants", {"action": "add", "name": "Early"})
    assert r.status_code == 303
    seat_round(director, event_id)
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "add", "name": "Zed"}).status_code == 303
    late = dict(db_rows(db_path, "SELECT name, late_from FROM event_entrants WHERE "
                        "event_id = ?", [event_id]))
    assert late["Early"] is None and late["Zed"] == 2 and late[PLAYERS[0]] is None
    shown = dict(standings_of(director, event_id))
    assert shown["Zed"] == "3" and shown["Early"] == "0"
    # A player registering after round 1 is late too (the same path).
    assert director.post(f"/e/{event_id}/registration", {"action": "open"}).status_code == 303
    r = director.post(f"/e/{event_id}/register", {"member_0": "Reg"})
    assert r.status_code == 303
    assert db_rows(db_path, "SELECT late_from FROM event_entrants WHERE name = 'Reg'")[0][0] == 2
    for n, _t, ids in seatings(db_path, event_id, 1):
        correct(director, event_id, 1, n, range(1, len(ids) + 1))
    lock(director, event_id, 1)
    seat_round(director, event_id)
    seated = {e for _n, _t, ids in seatings(db_path, event_id, 2) for e in ids}
    assert {"Zed", "Reg"} <= seated | set(byes_of(db_path, event_id, 2))


def test_late_arrivals_start_with_nothing_by_default(director, db_path):
    event_id = create_event(director, PLAYERS[:4], rounds=3)
    assert config_of(db_path, event_id)["late"] == "zero"
    seat_round(director, event_id)
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "add", "name": "Zed"}).status_code == 303
    assert dict(standings_of(director, event_id))["Zed"] == "0"


@pytest.mark.parametrize("order, first", [(("buchholz", "game", ""), "Y"),
                                          (("game", "buchholz", ""), "X")])
def test_the_tiebreak_order_is_shown_and_used(director, db_path, order, first):
    event_id = create_event(director, PLAYERS[:7], **{f"tiebreak_{i + 1}": v
                                                      for i, v in enumerate(order)})
    assert config_of(db_path, event_id)["tiebreaks"] == [o for o in order if o]
    seat_round(director, event_id)
    four, three = sorted(seatings(db_path, event_id, 1), key=lambda t: -len(t[2]))
    # Both second (2 points). X (table of 4) has the better game score, Y (table of 3) the
    # better Buchholz: (4 + 1) / 2 against (4 + 1 + 0) / 3.
    correct(director, event_id, 1, four[0], [1, 2, 3, 4], [300, 100, 50, 0])
    correct(director, event_id, 1, three[0], [1, 2, 3], [300, 50, 0])
    x, y = four[2][1], three[2][1]
    ranking = [name for name, _p in standings_of(director, event_id)]
    assert ranking.index(x if first == "X" else y) < ranking.index(y if first == "X" else x)
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    heads = [(th.get("class").removeprefix("tb-"), th.text)
             for th in select(page, 'th[scope="col"][class^="tb-"]')]
    assert heads == [(o, events.TIEBREAK_NAMES[o]) for o in order if o]
    names = ", ".join(events.TIEBREAK_NAMES[o] for o in order if o)
    assert f"Ties are broken by: {names}" in text_of(page)
    # The game score column is each one's own score.
    row = select_one(page, f'tr[data-entrant="{x}"]')
    assert [td.text for td in row.select('td[class="tb-game"]')] == ["100"]


def test_team_choices_win_draw_loss_bye_and_pairing_are_stored_and_used(director, db_path):
    teams = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal", "Ivy, Jo"]
    event_id = create_event(director, teams, rounds=2, slug="rook", variant="family",
                            points_win="3", points_draw="1", points_loss="0", points_bye="1",
                            pairing="adjacent", tiebreak_1="sonneborn_berger",
                            tiebreak_2="buchholz", tiebreak_3="", tiebreak_4="")
    assert config_of(db_path, event_id) == {
        "win": 3, "draw": 1, "loss": 0, "pairing": "adjacent", "bye": 1, "late": "zero",
        "tiebreaks": ["sonneborn_berger", "buchholz"]}
    seat_round(director, event_id)
    (bye,) = byes_of(db_path, event_id, 1)
    tables = seatings(db_path, event_id, 1)
    correct(director, event_id, 1, tables[0][0], [1, 2])
    correct(director, event_id, 1, tables[1][0], [1, 1])
    shown = dict(standings_of(director, event_id))
    assert shown[bye] == "1"
    assert shown[tables[0][2][0]] == "3" and shown[tables[0][2][1]] == "0"
    assert shown[tables[1][2][0]] == shown[tables[1][2][1]] == "1"
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert [th.get("class").removeprefix("tb-") for th in select(page, 'th[class^="tb-"]')] == \
        ["sonneborn_berger", "buchholz"]
    lock(director, event_id, 1)
    seat_round(director, event_id)   # adjacent pairing by the library: no error, no rematch
    met = {frozenset(ids) for rnd in (1, 2) for _n, _t, ids in seatings(db_path, event_id, rnd)}
    assert len(met) == 4


@pytest.mark.parametrize("slug, fields, words", [
    ("scorepad", {"points_places": "4, x, 1"}, "not a number"),
    ("scorepad", {"points_places": "1, 2, 4"}, "go down from first place"),
    ("scorepad", {"points_places": ", ".join(["1"] * 13)}, "at most 12"),
    ("scorepad", {"points_bye": "lots"}, "Points for a bye"),
    ("scorepad", {"odd_tables": "weird"}, "don't divide evenly"),
    ("scorepad", {"late_points": "maybe"}, "late arrivals"),
    ("scorepad", {"tiebreak_1": "buchholz", "tiebreak_2": "buchholz"}, "chosen twice"),
    ("scorepad", {"tiebreak_1": "sonneborn_berger"}, "Sonneborn-Berger"),
    ("scorepad", {"tiebreak_1": "coin toss"}, "not a tie-break"),
    ("rook", {"points_win": "a"}, "Points for a win"),
    ("rook", {"points_win": "0", "points_loss": "2"}, "A win scores more than a loss"),
    ("rook", {"points_draw": "5"}, "A win scores more than a loss"),
    ("rook", {"pairing": "zigzag"}, "Pick a pairing"),
])
def test_bad_choices_are_refused_and_nothing_is_stored(director, db_path, slug, fields, words):
    entrants = "Ann, Bob\nCy, Dee" if slug == "rook" else "\n".join(PLAYERS)
    data = {"event_name": "Cup", "event_rounds": "2", "entrants": entrants,
            "variant": "family", **fields}
    before = event_rows(db_path)
    page = refused(director.post(f"/events/new/{slug}", data), words)
    assert event_rows(db_path) == before
    # What was typed comes back, in the unfolded choices (a select offers only its options).
    assert 'id="scoring-choices" open' in page
    for name, value in fields.items():
        if name.startswith("points_"):
            assert f'name="{name}" value="{html.escape(value)}"' in page


# ---------------------------------------------------------------- penalties and bonuses

def test_penalties_change_points_are_audited_and_can_be_taken_back(app, director, db_path,
                                                                   new_phone):
    event_id = create_event(director, PLAYERS[:4])
    seat_round(director, event_id)
    (n, _t, ids), = seatings(db_path, event_id, 1)
    correct(director, event_id, 1, n, [1, 2, 3, 4])
    before = event_rows(db_path)
    for data, words in (({"entrant": ids[0], "points": "-2", "reason": ""}, "Say why"),
                        ({"entrant": ids[0], "points": "0", "reason": "x"}, "take away"),
                        ({"entrant": ids[0], "points": "lots", "reason": "x"}, "one number"),
                        ({"entrant": "Nobody", "points": "-2", "reason": "x"}, "from the list"),
                        ({"entrant": ids[0], "points": "-2", "reason": "x", "round": "9"},
                         "from 1 to 2")):
        refused(director.post(f"/e/{event_id}/adjustments", {"action": "add", **data}), words)
    assert new_phone().post(f"/e/{event_id}/adjustments",
                            {"action": "add", "entrant": ids[0], "points": "-2",
                             "reason": "x"}).status_code == 403
    assert event_rows(db_path) == before and count(db_path, "event_adjustments") == 0

    r = director.post(f"/e/{event_id}/adjustments",
                      {"action": "add", "entrant": ids[0], "points": "-2",
                       "reason": "Slow play", "round": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#director-tools")
    r = director.post(f"/e/{event_id}/adjustments",
                      {"action": "add", "entrant": ids[3], "points": "1.5",
                       "reason": "Fair play prize"})
    assert r.status_code == 303
    shown = dict(standings_of(director, event_id))
    assert shown[ids[0]] == "2" and shown[ids[3]] == "1.5" and shown[ids[1]] == "2"
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert "-2 · Slow play" in text_of(page) and "+1.5 · Fair play prize" in text_of(page)
    (rnd, table, who, why, old, new), _bonus = audit_rows(db_path, event_id, "penalty")
    assert (rnd, table, who, why, old) == (1, 0, "Director", "Slow play", None)
    assert json.loads(new) == {"id": 1, "entrant": ids[0], "points": -2,
                               "reason": "Slow play", "round": 1}
    dash = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert f"{ids[0]}: -2 points (round 1). Slow play" in dash
    # Taken back: the standings forget it, the log keeps it; nothing is deleted.
    r = director.post(f"/e/{event_id}/adjustments", {"action": "withdraw", "id": "1"})
    assert r.status_code == 303
    assert dict(standings_of(director, event_id))[ids[0]] == "4"
    assert count(db_path, "event_adjustments") == 2
    *_, (_r, _t, _w, _y, old, new) = audit_rows(db_path, event_id, "penalty")
    assert json.loads(old)["points"] == -2 and json.loads(new) is None
    dash = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert f"Took back -2 points of {ids[0]}" in dash
    refused(director.post(f"/e/{event_id}/adjustments", {"action": "withdraw", "id": "1"}),
            "already taken back")
    assert director.post(f"/e/{event_id}/adjustments",
                         {"action": "withdraw", "id": "x"}).status_code == 400
    assert director.post(f"/e/{event_id}/adjustments", {"action": "x"}).status_code == 400


def test_a_penalty_moves_an_entrant_down_the_next_rounds_pairing(director, db_path):
    teams = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal"]
    event_id = create_event(director, teams, rounds=2, slug="rook", variant="family")
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    for n, _t, _ids in tables:
        correct(director, event_id, 1, n, [1, 2])
    winners = [ids[0] for _n, _t, ids in tables]
    losers = [ids[1] for _n, _t, ids in tables]
    # One winner loses their 2 points: three score groups (2 / 0 / 0 -> 2, 0, 0, 0).
    assert director.post(f"/e/{event_id}/adjustments",
                         {"action": "add", "entrant": winners[0], "points": "-2",
                          "reason": "Wrong deck"}).status_code == 303
    lock(director, event_id, 1)
    seat_round(director, event_id)
    pairs = [set(ids) for _n, _t, ids in seatings(db_path, event_id, 2)]
    # The top group (one team) floats down and meets a team it hasn't met.
    top = next(p for p in pairs if winners[1] in p)
    assert top - {winners[1]} <= set(losers) | {winners[0]}


# ---------------------------------------------------------------- editing a round before play

def test_swap_two_players_between_tables_renames_the_seats(app, director, db_path, new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    (n1, t1, ids1), (n2, t2, ids2) = seatings(db_path, event_id, 1)
    x, y = ids1[1], ids2[2]
    # X sat down early: the swap sends that phone back to watching.
    seat_player(app, db_path, t1, 1)
    assert count(db_path, "phones", "table_id = ? AND seat = 1", [t1]) == 1
    before = event_rows(db_path)
    refused(director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": ids1[0],
                                                  "entrant_b": ids1[2]}), "same table")
    refused(director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": x,
                                                  "entrant_b": x}), "two different")
    refused(director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": x,
                                                  "entrant_b": "Nobody"}), "from the list")
    refused(director.post(f"/e/{event_id}/swap", {"round": "2", "entrant_a": x,
                                                  "entrant_b": y}), "isn't the current round")
    assert new_phone().post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": x,
                                                    "entrant_b": y}).status_code == 403
    assert director.post(f"/e/{event_id}/swap", {"round": "x"}).status_code == 400
    assert event_rows(db_path) == before

    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": x, "entrant_b": y})
    assert r.status_code == 303
    (_a, _t1, new1), (_b, _t2, new2) = seatings(db_path, event_id, 1)
    assert new1 == [ids1[0], y, ids1[2], ids1[3]] and new2 == [ids2[0], ids2[1], x, ids2[3]]
    assert seat_names(db_path, t1) == new1 and seat_names(db_path, t2) == new2
    assert count(db_path, "phones", "table_id = ? AND seat IS NOT NULL", [t1]) == 0
    renames = db_rows(db_path, "SELECT payload FROM actions WHERE table_id = ? AND kind = "
                      "'seat' ORDER BY seq DESC LIMIT 1", [t1])
    assert json.loads(renames[0][0]) == {"change": "rename", "seat": 1, "name": y}
    (rnd, table, who, _why, old, new), = audit_rows(db_path, event_id, "swap")
    assert (rnd, table, who) == (1, n1, "Director")
    assert json.loads(old)["entrants"] == [{"entrant": x, "table": n1},
                                           {"entrant": y, "table": n2}]
    assert json.loads(new)["entrants"] == [{"entrant": x, "table": n2},
                                           {"entrant": y, "table": n1}]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert f"Round 1: swapped {x} (table {n1}) and {y} (table {n2})" in text_of(dash)
    assert any(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t.get("datetime", ""))
               and re.fullmatch(r"\d\d:\d\d UTC", t.text)
               for t in select(dash, 'time[class="local-time"]'))
    # The moved player's pass now opens their new table, in their new seat.
    phone = new_phone("y")
    assert phone.pick(event_id, y).status_code == 303
    r = phone.post(f"/e/{event_id}/my-table")
    assert r.status_code == 303
    assert db_rows(db_path, "SELECT seat FROM phones WHERE table_id = ? AND secret_hash = ?",
                   [t1, phone_hash(phone.secret(), t1)]) == [(1,)]


def test_swap_a_bye_and_whole_teams(app, director, db_path):
    teams = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal", "Ivy, Jo"]
    event_id = create_event(director, teams, slug="rook", variant="family")
    seat_round(director, event_id)
    (bye,) = byes_of(db_path, event_id, 1)
    (n1, t1, (a1, b1)), (n2, t2, (a2, b2)) = seatings(db_path, event_id, 1)
    # A team sitting out takes team B's place at table 1; team B sits out instead.
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": bye, "entrant_b": b1})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    assert byes_of(db_path, event_id, 1) == [b1]
    assert seatings(db_path, event_id, 1)[0][2] == [a1, bye]
    assert seat_names(db_path, t1) == events.team_seats(a1.split(" & "), bye.split(" & "))
    (_r, table, _w, _y, old, new), = audit_rows(db_path, event_id, "swap")
    assert table == n1 and json.loads(old)["entrants"][0] == {"entrant": bye, "table": None}
    assert "(a bye)" in text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    # Two teams at two tables: team A of table 2 becomes team A of table 1, seats 0 and 2.
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": a1, "entrant_b": a2})
    assert r.status_code == 303
    assert seat_names(db_path, t1) == events.team_seats(a2.split(" & "), bye.split(" & "))
    assert seat_names(db_path, t2) == events.team_seats(a1.split(" & "), b2.split(" & "))
    refused(director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": b1,
                                                  "entrant_b": b1}), "two different")


@pytest.mark.parametrize("how", ["entry", "director", "lock"])
def test_swap_and_unseat_are_refused_once_play_begins(app, director, db_path, how):
    event_id = create_event(director)
    seat_round(director, event_id)
    (n1, t1, ids1), (n2, t2, ids2) = seatings(db_path, event_id, 1)
    if how == "entry":
        player = seat_player(app, db_path, t2)
        assert player.enter(t2, {0: 5, 1: 3, 2: 2, 3: 1}).status_code == 200
    elif how == "director":
        correct(director, event_id, 1, n2, [1, 2, 3, 4])
    else:
        for n in (n1, n2):
            correct(director, event_id, 1, n, [1, 2, 3, 4])
        lock(director, event_id, 1)
    before, tables_before = event_rows(db_path), snapshot(db_path)
    words = "locked" if how == "lock" else f"Play has begun in round 1 (table {n2})"
    # A swap is refused for the table that started (409), not for the whole round: the
    # swaps among tables that haven't started are tested in test_web_event_swaps_e30cards.
    swap = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": ids1[0],
                                                 "entrant_b": ids2[0]})
    if how == "lock":
        refused(swap, words)
    else:
        assert swap.status_code == 409
        assert f"Table {n2} has started" in text_of(swap.get_data(as_text=True))
    refused(director.post(f"/e/{event_id}/unseat", {"round": "1"}), words)
    assert event_rows(db_path) == before and snapshot(db_path) == tables_before
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert 'id="swap-form"' not in dash and 'id="unseat-form"' not in dash
    if how != "lock":
        assert words in text_of(dash)


def test_unseat_a_round_and_pair_again(app, director, db_path):
    event_id = create_event(director, rounds=2)
    seat_round(director, event_id)
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "add", "name": "Zed"}).status_code == 303
    assert db_rows(db_path, "SELECT late_from FROM event_entrants WHERE name = 'Zed'")[0][0] == 2
    old = seatings(db_path, event_id, 1)
    tables_before = count(db_path, "tables")
    r = director.post(f"/e/{event_id}/unseat", {"round": "1"})
    assert r.status_code == 303
    assert count(db_path, "event_rounds", "event_id = ?", [event_id]) == 0
    assert count(db_path, "event_seatings", "event_id = ?", [event_id]) == 0
    # No phone ever opened them: the round's tables are gone with their seats.
    assert tables_before == 2 and count(db_path, "tables") == 0
    assert count(db_path, "seats", "table_id IN (?, ?)", [t for _n, t, _i in old]) == 0
    # Zed arrived before the round was played after all: not late any more.
    assert db_rows(db_path, "SELECT late_from FROM event_entrants WHERE name = 'Zed'")[0][0] \
        is None
    (rnd, table, _w, _y, stored, new), = audit_rows(db_path, event_id, "unseat")
    assert (rnd, table, json.loads(new)) == (1, 0, None)
    assert json.loads(stored)["tables"] == [{"table": n, "entrants": ids} for n, _t, ids in old]
    dash = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "Round 1 unseated to be seated again (2 tables taken back)." in dash
    assert "Seat round 1" in dash
    # Nobody sits down at the old tables: they belong to no seating now.
    phone = Phone(app, "late")
    assert phone.pick(event_id, old[0][2][0]).status_code == 303
    for _n, table_id, _ids in old:
        assert phone.post(f"/e/{event_id}/my-table").status_code == 303
        assert not db_rows(db_path, "SELECT 1 FROM phones WHERE table_id = ? AND secret_hash = ?",
                           [table_id, phone_hash(phone.secret(), table_id)])
    seat_round(director, event_id)
    seated = sorted(e for _n, _t, ids in seatings(db_path, event_id, 1) for e in ids)
    assert seated == sorted(PLAYERS + ["Zed"])
    refused(director.post(f"/e/{event_id}/unseat", {"round": "2"}), "isn't the current round")


# ---------------------------------------------------------------- the standings' output

def test_standings_csv_final_standings_and_dropped(app, director, db_path, new_phone):
    event_id = create_event(director, PLAYERS[:4], rounds=2)
    seat_round(director, event_id)
    (n, _t, ids), = seatings(db_path, event_id, 1)
    correct(director, event_id, 1, n, [1, 2, 3, 4], [-5, 30, 20, 10])
    assert director.post(f"/e/{event_id}/adjustments",
                         {"action": "add", "entrant": ids[1], "points": "-1",
                          "reason": "late"}).status_code == 303
    lock(director, event_id, 1)
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "drop", "name": ids[3]}).status_code == 303
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert "Final standings" not in page and "Standings after 1 of 2 rounds" in text_of(page)
    assert "dropped" in text_of(page, f'tr[data-entrant="{ids[3]}"]')
    assert "dropped" not in text_of(page, f'tr[data-entrant="{ids[0]}"]')

    r = director.get(f"/e/{event_id}/standings.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0] == ["place", "entrant", "members", "points", "played", "wins", "draws",
                       "losses", "byes", "adjustment", "Game score", "Buchholz",
                       "Median-Buchholz", "dropped"]
    by_name = {row[1]: row for row in rows[1:]}
    assert by_name[ids[0]][:4] == ["1", ids[0], "", "4"]
    assert by_name[ids[0]][10] == "-5"           # the entrant's own score, as entered
    assert by_name[ids[1]][3] == "1" and by_name[ids[1]][9] == "-1"
    assert by_name[ids[3]][-1] == "yes" and by_name[ids[0]][-1] == ""
    assert new_phone().get(f"/e/{event_id}/standings.csv").status_code == 403

    seat_round(director, event_id)
    (n, _t, ids2), = seatings(db_path, event_id, 2)
    correct(director, event_id, 2, n, list(range(1, len(ids2) + 1)))
    assert "Final standings" not in director.get(f"/e/{event_id}/standings").get_data(
        as_text=True)
    lock(director, event_id, 2)
    for path in ("standings", "projector"):
        page = new_phone().get(f"/e/{event_id}/{path}").get_data(as_text=True)
        assert "Final standings" in page, path


def test_team_standings_csv_lists_members_and_sonneborn_berger(director, db_path):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "=Eve, Fay"], slug="rook",
                            variant="family")
    seat_round(director, event_id)
    rows = list(csv.reader(io.StringIO(director.get(f"/e/{event_id}/standings.csv")
                                       .get_data(as_text=True))))
    assert rows[0][10:] == ["Game score", "Buchholz", "Median-Buchholz", "Sonneborn-Berger",
                            "dropped"]
    members = {row[1]: row[2] for row in rows[1:]}
    assert members["Ann & Bob"] == "Ann & Bob" and members["'=Eve & Fay"] == "'=Eve & Fay"


# ---------------------------------------------------------------- a 16-team Rook Swiss

def test_sixteen_team_rook_swiss_pairs_score_groups_top_half_against_bottom_half(
        director, db_path):
    teams = [f"P{2 * i + 1}, P{2 * i + 2}" for i in range(16)]
    event_id = create_event(director, teams, rounds=3, slug="rook", variant="family")
    first: dict[str, int] = {}
    last_first: dict[str, bool] = {}
    met: set[frozenset] = set()
    for rnd in (1, 2, 3):
        seat_round(director, event_id)
        tables = seatings(db_path, event_id, rnd)
        assert len(tables) == 8 and not byes_of(db_path, event_id, rnd)
        for _n, table_id, (a, b) in tables:
            pair = frozenset((a, b))
            assert pair not in met, f"round {rnd}: {a} and {b} meet again"
            met.add(pair)
            # Team A (entrants[0]) sits in seats 0, 2 and deals first; it is the team that
            # went first less often, or on a tie, didn't go first last time.
            assert seat_names(db_path, table_id) == events.team_seats(a.split(" & "),
                                                                         b.split(" & "))
            key_a = (first.get(a, 0), last_first.get(a, False))
            key_b = (first.get(b, 0), last_first.get(b, False))
            assert key_a <= key_b, (rnd, a, b, key_a, key_b)
            first[a] = first.get(a, 0) + 1
            last_first[a], last_first[b] = True, False
        if rnd == 2:
            # Round 2 pairs each score group (8 winners, 8 losers) top half against bottom
            # half: the group's 1st meets its 5th, 2nd the 6th...
            for group in groups:
                half = len(group) // 2
                expected = {frozenset((group[i], group[i + half])) for i in range(half)}
                assert expected <= {frozenset(ids) for _n, _t, ids in tables}
        # Results by the director's correction: team A wins at odd tables, team B at even.
        for n, _t, _ids in tables:
            correct(director, event_id, rnd, n, [1, 2] if n % 2 else [2, 1])
        lock(director, event_id, rnd)
        if rnd == 1:
            order = standings_of(director, event_id)
            groups = [[name for name, pts in order if pts == "2"],
                      [name for name, pts in order if pts == "0"]]
            assert [len(g) for g in groups] == [8, 8]
    # After three rounds everyone went first once or twice.
    assert set(first.values()) <= {1, 2} and len(first) == 16
