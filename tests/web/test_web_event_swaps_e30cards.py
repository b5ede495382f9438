"""Swaps and pairing again while other tables of the round play, through the Flask test
client: a swap between two tables that haven't started goes through after another table
began; a swap touching a started table is refused (409) and changes nothing; pairing again
re-seats only the tables that haven't started, among their own entrants, audited."""
from __future__ import annotations

import json

import pytest
from test_web_events import create_event, event_rows, seat_player, seat_round, seatings
from test_web_event_cards_e30cards import finish_round
from helpers import select, text_of
from web_helpers import Phone, db_rows, snapshot


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def names_at(db_path: str, table_id: str) -> list[str]:
    return [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? "
                                  "ORDER BY pos", [table_id])]


def test_a_swap_after_another_table_started(app, director, db_path):
    players = [f"P{i:02d}" for i in range(1, 13)]           # 3 tables of 4
    event_id = create_event(director, players=players)
    seat_round(director, event_id)
    (n1, t1, ids1), (n2, t2, ids2), (n3, t3, ids3) = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, t1)
    assert player.enter(t1, {0: 5, 1: 3, 2: 2, 3: 1}).status_code == 200
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Table 1 has started: its entrants stay." in text_of(select(dash, "#started-tables")[0])
    offered = [o.get("value") for o in select(dash, "#swap-a option") if o.get("value")]
    assert sorted(offered) == sorted(ids2 + ids3)
    assert select(dash, "#pair-again-form") and not select(dash, "#unseat-form")
    # Table 1 started: its entrants stay (409, one plain sentence), nothing changes.
    before, tables_before = event_rows(db_path), snapshot(db_path)
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": ids1[1],
                                              "entrant_b": ids2[0]})
    assert r.status_code == 409
    assert (f"Table {n1} has started (an entry or a result), so {ids1[1]} stays there."
            in text_of(r.get_data(as_text=True)))
    assert event_rows(db_path) == before and snapshot(db_path) == tables_before
    # Tables 2 and 3 haven't started: their entrants swap.
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": ids2[0],
                                              "entrant_b": ids3[2]})
    assert r.status_code == 303
    assert names_at(db_path, t2) == [ids3[2], *ids2[1:]]
    assert names_at(db_path, t3) == [*ids3[:2], ids2[0], ids3[3]]
    assert names_at(db_path, t1) == ids1
    (kind,), = db_rows(db_path, "SELECT kind FROM event_audit WHERE event_id = ?", [event_id])
    assert kind == "swap"


def test_pairing_again_moves_only_the_tables_that_havent_started(app, director, db_path):
    players = [f"P{i:02d}" for i in range(1, 17)]           # 4 tables of 4
    event_id = create_event(director, players=players, rounds=2)
    seat_round(director, event_id)
    finish_round(director, db_path, event_id, 1)
    seat_round(director, event_id)
    first, *rest = seatings(db_path, event_id, 2)
    # Table 1 of round 2 gets a result from the director: it has started.
    places = {f"place_{i}": str(i + 1) for i in range(4)}
    assert director.post(f"/e/{event_id}/correct", {"round": "2", "table": "1",
                                                    "why": "paper", **places}
                         ).status_code == 303
    # The three open tables swap two of theirs first, so pairing again has work to do.
    assert director.post(f"/e/{event_id}/swap", {"round": "2", "entrant_a": rest[0][2][0],
                                                 "entrant_b": rest[2][2][3]}
                         ).status_code == 303
    moved = seatings(db_path, event_id, 2)
    r = director.post(f"/e/{event_id}/pair-again", {"round": "2", "who": "Jo"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    after = seatings(db_path, event_id, 2)
    assert after[0] == first
    assert sorted(e for _n, _t, ids in after[1:] for e in ids) == \
        sorted(e for _n, _t, ids in moved[1:] for e in ids)
    assert [len(ids) for _n, _t, ids in after] == [4, 4, 4, 4]
    for _n, table_id, ids in after:
        assert names_at(db_path, table_id) == ids
    (who, old, new), = db_rows(db_path, "SELECT who, old, new FROM event_audit WHERE "
                               "event_id = ? AND kind = 'pair_again'", [event_id])
    assert who == "Jo" and [t["table"] for t in json.loads(new)["tables"]] == [2, 3, 4]
    assert json.loads(old)["tables"][0]["entrants"] == moved[1][2]
    dash = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "Round 2: paired tables 2, 3, 4 again" in dash
    # Two more tables start: one table left open, nothing to pair.
    for n in (2, 3):
        assert director.post(f"/e/{event_id}/correct", {"round": "2", "table": str(n),
                                                        "why": "paper", **places}
                             ).status_code == 303
    before = event_rows(db_path)
    r = director.post(f"/e/{event_id}/pair-again", {"round": "2"})
    assert r.status_code == 422 and "Fewer than two tables" in text_of(r.get_data(as_text=True))
    assert director.post(f"/e/{event_id}/pair-again", {"round": "1"}).status_code == 422
    assert director.post(f"/e/{event_id}/pair-again", {"round": "x"}).status_code == 400
    assert event_rows(db_path) == before


def test_pairing_again_a_team_game_keeps_pairs_and_refuses_strangers(
        app, director, db_path, new_phone):
    teams = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal", "Ivy, Jo", "Kim, Lu"]
    event_id = create_event(director, teams, slug="rook", variant="family")
    seat_round(director, event_id)
    assert new_phone().post(f"/e/{event_id}/pair-again", {"round": "1"}).status_code == 403
    before = seatings(db_path, event_id, 1)
    r = director.post(f"/e/{event_id}/pair-again", {"round": "1"})
    assert r.status_code == 303
    after = seatings(db_path, event_id, 1)
    assert [len(ids) for _n, _t, ids in after] == [2, 2, 2]
    assert sorted(e for _n, _t, ids in after for e in ids) == \
        sorted(e for _n, _t, ids in before for e in ids)
    for _n, table_id, (a, b) in after:
        assert names_at(db_path, table_id) == [x for pair in zip(a.split(" & "),
                                                                  b.split(" & ")) for x in pair]
