"""Round robin and a top cut after Swiss, through the Flask test client: a round robin of
six teams meets everyone once in five rounds; its entries close at round 1 and a dropped
team's later opponents get a bye; a table game's round robin is played two to a table and
a game that can't seat two refuses it; a top 4 cut seeds 1 v 4 and 2 v 3 from the
standings, pairs the winners and names the event's winner, with the standings left as the
Swiss rounds made them."""
from __future__ import annotations

import itertools
import json

import pytest
from test_web_events import create_event, seat_round, seatings
from test_web_event_cards_e30cards import finish_round
from helpers import select, text_of
from web_helpers import Phone, db_rows

TEAMS = ["Ann, Bob", "Cid, Dot", "Eve, Fay", "Gus, Hal", "Ivy, Jon", "Kim, Lou"]


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def rounds_of(db_path: str, event_id: str) -> int:
    return db_rows(db_path, "SELECT rounds FROM events WHERE id = ?", [event_id])[0][0]


def test_a_round_robin_of_six_teams_meets_everyone_once(director, db_path):
    event_id = create_event(director, players=TEAMS, rounds=3, slug="rook", plan="round_robin")
    assert rounds_of(db_path, event_id) == 5        # from the entrants, not the form's 3
    met = []
    for number in range(1, 6):
        seat_round(director, event_id)
        tables = seatings(db_path, event_id, number)
        assert len(tables) == 3
        met += [frozenset(ids) for _n, _t, ids in tables]
        if number == 1:
            dash = director.get(f"/e/{event_id}").get_data(as_text=True)
            assert not select(dash, "#swap-form") and not select(dash, "#cut-form")
            # The schedule is fixed: no swaps, no pairing again.
            _n, _t, one = tables[0]
            _n, _t, two = tables[1]
            r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": one[0],
                                                      "entrant_b": two[0]})
            assert r.status_code == 422
            assert "A round robin follows its schedule" in text_of(r.get_data(as_text=True))
            # Entries closed at round 1.
            r = director.post(f"/e/{event_id}/entrants", {"action": "add", "name": "Max, Ned"})
            assert "entries closed when round 1 was seated" in text_of(r.get_data(as_text=True))
        finish_round(director, db_path, event_id, number)
    names = {name for pair in met for name in pair}
    assert len(names) == 6
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(names, 2)}
    assert len(met) == 15
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert select(dash, "#event-over") and not select(dash, "#seat-round")


def test_a_dropped_entrants_later_opponents_get_a_bye(director, db_path):
    players = ["Ann", "Bob", "Cid", "Dot", "Eve"]
    event_id = create_event(director, players=players, rounds=2, plan="round_robin")
    assert rounds_of(db_path, event_id) == 5        # odd: everyone sits out once
    seat_round(director, event_id)
    byes, = db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ?", [event_id])[0]
    assert len(seatings(db_path, event_id, 1)) == 2 and len(json.loads(byes)) == 1
    finish_round(director, db_path, event_id, 1)
    order = [ids for _n, _t, ids in seatings(db_path, event_id, 1)]
    gone = order[0][0]
    assert director.post(f"/e/{event_id}/entrants", {"action": "drop", "name": gone}
                         ).status_code == 303
    seat_round(director, event_id)
    seated = [e for _n, _t, ids in seatings(db_path, event_id, 2) for e in ids]
    assert gone not in seated
    byes, = db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ? AND round = 2",
                    [event_id])[0]
    assert gone not in json.loads(byes) and len(seated) + len(json.loads(byes)) == 4


def test_a_table_games_round_robin_is_two_to_a_table(director, new_phone, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cid", "Dot"], rounds=1,
                            plan="round_robin")
    assert rounds_of(db_path, event_id) == 3
    seat_round(director, event_id)
    assert [len(ids) for _n, _t, ids in seatings(db_path, event_id, 1)] == [2, 2]
    # Zock'n'Roll seats at least three: a round robin is refused in one plain sentence.
    form = director.get("/events/new/zocknroll").get_data(as_text=True)
    assert select(form, "#ev-plan-hint") and not select(form, "#ev-plan")
    r = director.post("/events/new/zocknroll", {"event_name": "Dice", "event_rounds": "2",
                                                 "entrants": "A\nB\nC\nD", "plan": "round_robin"})
    assert r.status_code == 422
    assert "A round robin is played two to a table" in text_of(r.get_data(as_text=True))
    r = director.post("/events/new/scorepad", {
        "event_name": "X", "event_rounds": "2", "plan": "round_robin", "rounds": "1",
        "entrants": "\n".join(f"P{i}" for i in range(21))})
    assert r.status_code == 422
    assert "A round robin has at most 20 entrants." in text_of(r.get_data(as_text=True))
    r = director.post("/events/new/rook", {"event_name": "X", "event_rounds": "2",
                                           "entrants": "\n".join(TEAMS), "plan": "knockout"})
    assert r.status_code == 422 and "Pick Swiss or a round robin." in text_of(
        r.get_data(as_text=True))


def test_a_top_4_cut_after_swiss(director, new_phone, db_path):
    event_id = create_event(director, players=TEAMS, rounds=2, slug="rook")
    r = director.post(f"/e/{event_id}/cut", {"size": "4"})
    assert r.status_code == 422
    assert "Play and lock every Swiss round first." in text_of(r.get_data(as_text=True))
    for number in (1, 2):
        seat_round(director, event_id)
        finish_round(director, db_path, event_id, number)
    standings = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert select(dash, "#cut-4") and not select(dash, "#cut-8")     # 6 teams: no top 8
    assert director.post(f"/e/{event_id}/cut", {"size": "5"}).status_code == 422
    assert director.post(f"/e/{event_id}/cut", {"size": "8"}).status_code == 422  # 6 teams
    r = director.post(f"/e/{event_id}/cut", {"size": "4"})
    assert r.status_code == 303
    seeds = [tr.get("data-entrant") for tr in select(standings, "tr[data-entrant]")][:4]
    seat_round(director, event_id)
    # A team left out of the cut is told so on its players' page.
    fifth = [tr.get("data-entrant") for tr in select(standings, "tr[data-entrant]")][4]
    out = new_phone("Out")
    assert out.pick(event_id, fifth.split(" & ")[0]).status_code == 303
    words = text_of(select(out.get(f"/e/{event_id}/players").get_data(as_text=True),
                           "#no-table")[0])
    assert words.startswith("The top cut is being played, and you aren’t in it (any more).")
    semis = seatings(db_path, event_id, 3)
    assert len(semis) == 2
    r = director.post(f"/e/{event_id}/swap", {"round": "3", "entrant_a": semis[0][2][0],
                                              "entrant_b": semis[1][2][0]})
    assert r.status_code == 422
    assert "A knockout round is paired by the bracket" in text_of(r.get_data(as_text=True))
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert not select(dash, "#cut-form")
    bracket = text_of(select(dash, "#bracket")[0])
    assert "Semi-finals" in bracket and "(1)" in bracket and "(4)" in bracket
    (s1, s4), (s2, s3) = semis[0][2], semis[1][2]
    assert [s1, s4, s2, s3] == [seeds[0], seeds[3], seeds[1], seeds[2]]
    # Table 1: the lower seed wins; table 2: a shared place, so the higher seed goes on.
    for table, places in ((1, ("2", "1")), (2, ("1", "1"))):
        r = director.post(f"/e/{event_id}/correct", {"round": "3", "table": str(table),
                                                     "why": "paper", "place_0": places[0],
                                                     "place_1": places[1]})
        assert r.status_code == 303
    assert director.post(f"/e/{event_id}/lock", {"round": "3"}).status_code == 303
    seat_round(director, event_id)
    (_n, _t, final), = seatings(db_path, event_id, 4)
    assert final == [s2, s4]            # seed 2 goes first: the higher seed
    finish_round(director, db_path, event_id, 4)      # seat order is the place: s2 wins
    page = new_phone().get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert text_of(select(page, "#event-winner")[0]) == f"Winner: {s2}"
    assert "Final standings" in text_of(select(page, "#standings-caption")[0])
    assert text_of(select(page, "#standings-caption")[0]) == text_of(
        select(standings, "#standings-caption")[0])
    # The knockout results leave the Swiss standings as they were.
    assert [text_of(r) for r in select(page, "table tbody tr")] == \
        [text_of(r) for r in select(standings, "table tbody tr")]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert select(dash, "#event-over") and not select(dash, "#seat-round")
    projector = new_phone().get(f"/e/{event_id}/projector").get_data(as_text=True)
    assert f"Winner: {s2}" in text_of(projector)
    (kind,), = db_rows(db_path, "SELECT kind FROM event_audit WHERE event_id = ? AND "
                       "kind = 'cut'", [event_id])
    assert kind == "cut"
    assert f"Started a top 4 cut: {', '.join(seeds)}." in text_of(select(dash, "#audit")[0])
