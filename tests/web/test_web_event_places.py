"""Places and points at an event's tables through the Flask test client: a Rocca table
places every player by cards left, the same place earns the same points at a table of 3
and of 4, and a bye's tie-break value is the documented one (shown under the standings)."""
from __future__ import annotations

import json

import pytest
from test_web_events import (create_event, event_rows, play_table, seat_player, seat_round,
                             seatings)
from helpers import form_block, inputs, select, text_of
from web_helpers import db_rows, standings

from companion.events.event import Event
from companion.events.rounds import result_from_summary


@pytest.fixture
def director(new_phone):
    return new_phone("Director")


def act(phone, table_id: str, form_id: str = "entry-form", **fields) -> None:
    """Press a Rocca button as the form stands now (its sid, version and player)."""
    form = inputs(form_block(phone.page(table_id), f'id="{form_id}"'))
    data = {k: form[k] for k in ("sid", "version", "player") if k in form}
    data.update({k: str(v) for k, v in fields.items()})
    r = phone.post(f"/t/{table_id}/actions", data, hx=True)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:600]


def points_of(phone, event_id: str) -> dict[str, str]:
    return dict(standings(phone.get(f"/e/{event_id}/standings").get_data(as_text=True)))


# Seats 0..3 in turn; a card is played, "draw" draws one. Seat 0 goes out on its 5th card
# with One said; the others end with 9, 5 and 1 cards.
ROCCA_TURNS = [["5H", "draw", "draw", "6H"],
               ["7H", "draw", "8H", "9H"],
               ["10H", "draw", "2S", "3S"],
               ["4S", "draw", "draw", "5S"]]


def test_a_rocca_tables_places_follow_cards_left(app, director, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"], rounds=1,
                            slug="rocca")
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)
    phone = seat_player(app, db_path, table_id)       # seat 0 enters every move
    for turn in ROCCA_TURNS:
        for move in turn:
            if move == "draw":
                act(phone, table_id, kind="draw")
            else:
                act(phone, table_id, kind="play", card=move)
    act(phone, table_id, form_id="one-form", one=ids[0])
    act(phone, table_id, kind="play", card="6S")
    # Default points 4, 2, 1, 0: the winner, then 1 card, 5 cards, 9 cards left.
    assert points_of(director, event_id) == {ids[0]: "4", ids[3]: "2", ids[2]: "1",
                                             ids[1]: "0"}
    room = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "Finished" in room
    # The table deals its next game (the biggest loser starts) and plays on: the event's
    # result stays the first game's.
    act(phone, table_id, kind="new_game")
    act(phone, table_id, kind="play", card="7S")
    assert points_of(director, event_id) == {ids[0]: "4", ids[3]: "2", ids[2]: "1",
                                             ids[1]: "0"}
    assert "Finished" in text_of(director.get(f"/e/{event_id}").get_data(as_text=True))


def _event(slug: str) -> Event:
    return Event(id="x", name="x", game_slug=slug, settings={}, options={}, rounds=1,
                 created_at="")


@pytest.mark.parametrize("summary, places", [
    # A summary with every player's place is taken as it is.
    ({"over": True, "totals": {"A": 1, "B": 0, "C": 0}, "winners": ["A"],
      "places": {"A": 1, "B": 3, "C": 2}}, [1, 3, 2]),
    # Places that miss a player, or aren't whole numbers from 1, fall back to the totals.
    ({"over": True, "totals": {"A": 1, "B": 0, "C": 0}, "winners": ["A"],
      "places": {"A": 1, "B": 2}}, [1, 2, 2]),
    ({"over": True, "totals": {"A": 1, "B": 0, "C": 0}, "winners": ["A"],
      "places": {"A": 1, "B": 0, "C": True}}, [1, 2, 2]),
    ({"over": True, "totals": {"A": 1, "B": 0, "C": 0}, "winners": ["A"],
      "places": None}, [1, 2, 2]),
])
def test_a_summarys_places_are_read_when_it_gives_them(summary, places):
    result = result_from_summary(_event("rocca"), 1, 1, ["A", "B", "C"], summary)
    assert result["places"] == places and result["scores"] == [1, 0, 0]


def test_the_standings_legend_says_what_a_bye_counts_and_the_projector_leaves_it_out(
        director, new_phone):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    seat_round(director, event_id)
    viewer = new_phone("viewer")
    for page in (viewer.get(f"/e/{event_id}/standings").get_data(as_text=True),
                 viewer.get(f"/e/{event_id}/standings", hx=True).get_data(as_text=True)):
        legend = text_of(page, "#standings-legend")
        assert "Buchholz: the points of the opponents met" in legend
        assert "A bye adds nothing to these tie-breaks" in text_of(page, "#legend-bye")
        assert "Sonneborn-Berger" not in legend        # not among a table game's tie-breaks
    projector = viewer.get(f"/e/{event_id}/projector").get_data(as_text=True)
    assert 'id="standings-table"' in projector and 'id="standings-legend"' not in projector


def test_without_opponent_tiebreaks_the_legend_has_no_bye_line(director, new_phone):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"],
                            tiebreak_1="game", tiebreak_2="", tiebreak_3="")
    page = new_phone("viewer").get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert "Game score: the sum" in text_of(page, "#standings-legend")
    assert not select(page, "#legend-bye")


# ---------------------------------------------------------------- points by table size

def _config(db_path: str, event_id: str) -> dict:
    return json.loads(db_rows(db_path, "SELECT config FROM events WHERE id = ?",
                              [event_id])[0][0])


@pytest.mark.parametrize("by_size, three, four", [
    # Default: the same place earns the same points at a table of 3 and of 4.
    ("", ["4", "2", "1"], ["4", "2", "1", "0"]),
    # The director gives tables of 3 their own points; tables of 4 keep the list.
    ("3: 4, 1, 0", ["4", "1", "0"], ["4", "2", "1", "0"]),
    ("３：4, 1.5, 0；", ["4", "1.5", "0"], ["4", "2", "1", "0"]),   # full-width typing
])
def test_points_per_place_by_table_size(app, director, db_path, by_size, three, four):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay",
                                               "Gus"], rounds=1, points_by_size=by_size)
    stored = _config(db_path, event_id).get("points_by_size")
    assert stored == ({"3": [int(v) if float(v).is_integer() else float(v) for v in three]}
                      if by_size else None)
    seat_round(director, event_id)
    tables = {len(ids): (table_id, ids) for _n, table_id, ids in seatings(db_path, event_id, 1)}
    assert sorted(tables) == [3, 4]
    for size, (table_id, _ids) in tables.items():
        play_table(app, db_path, table_id, [50 - 10 * k for k in range(size)])
    shown = points_of(director, event_id)
    assert [shown[e] for e in tables[3][1]] == three
    assert [shown[e] for e in tables[4][1]] == four


@pytest.mark.parametrize("by_size, words", [
    ("3 4, 2, 0", "the size, a colon and the points"),
    ("x: 4, 2", "the size, a colon and the points"),
    ("1: 4", "so 1 is not a table size here"),
    ("13: 4, 2", "so 13 is not a table size here"),
    ("3: 4, 2; 3: 5, 1", "Table size 3 is listed twice"),
    ("3: 1, 2, 4", "Points by place go down"),
    ("3: a, b", "is not a number"),
    ("3: " + "1, " * 40, "at most 12 values"),
])
def test_bad_points_by_table_size_are_refused_and_nothing_is_stored(director, db_path,
                                                                    by_size, words):
    before = event_rows(db_path)
    r = director.post("/events/new/scorepad", {
        "event_name": "Cup", "event_rounds": "2", "entrants": "Ann\nBob\nCy\nDee",
        "rounds": "1", "points_by_size": by_size})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page), text_of(page)[:800]
    assert event_rows(db_path) == before
    assert select(page, "#ev-points-size")[0].attrs["value"] == by_size
