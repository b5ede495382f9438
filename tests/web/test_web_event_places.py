"""Places and points at an event's tables through the Flask test client: a Rocca table
places every player by cards left, the same place earns the same points at a table of 3
and of 4, and a bye's tie-break value is the documented one (shown under the standings)."""
from __future__ import annotations

import pytest
from test_web_events import (create_event, seat_player, seat_round, seatings)
from helpers import form_block, inputs, select, text_of
from web_helpers import standings

from companion.tournaments.service import Event, result_from_summary


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
