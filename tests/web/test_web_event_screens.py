"""The director's dashboard counts the round's tables by state and filters to the unfinished
ones (?tables=open, kept by the room's refresh), through the Flask test client. The projector's
paging by ?rows= is in test_web_event_registration.py and test_web_event_room.py."""
from __future__ import annotations

import pytest
from test_web_events import PLAYERS, create_event, seat_round
from helpers import attr, select, text_of
from web_helpers import Phone


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def tables_shown(page: str) -> list[str]:
    return [li.get("id") for li in select(page, "li.event-table")]


def test_the_dashboard_counts_tables_by_state_and_filters_to_the_unfinished(director,
                                                                            new_phone):
    event_id = create_event(director, PLAYERS[:8])
    base = f"/e/{event_id}"
    page = director.get(base).get_data(as_text=True)
    assert "table-counts" not in page                      # no round seated: nothing to count
    seat_round(director, event_id)
    r = director.post(f"{base}/correct", {"round": "1", "table": "1", "why": "slip",
                                          "place_0": "1", "place_1": "2", "place_2": "3",
                                          "place_3": "4", "score_0": "40", "score_1": "30",
                                          "score_2": "20", "score_3": "10"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    page = director.get(base).get_data(as_text=True)
    assert text_of(page, "#table-counts") == "1 of 2 done · 1 not started"
    assert tables_shown(page) == ["table-1", "table-2"]
    assert attr(page, "#filter-all", "aria-current") == "true"
    assert attr(page, "#filter-open", "href") == f"{base}?tables=open#room"
    assert text_of(page, "#filter-open") == "Unfinished (1)"
    # The whole result line: every entrant's place and score.
    line = text_of(page, "#table-1 .result-line")
    assert line.count("place") == 4 and "(10)" in line
    # The filter: only the unfinished table, the counts still of every table; the room's
    # refresh asks for the filtered room, which keeps the filter.
    page = director.get(f"{base}?tables=open").get_data(as_text=True)
    assert tables_shown(page) == ["table-2"]
    assert text_of(page, "#table-counts") == "1 of 2 done · 1 not started"
    assert attr(page, "#filter-open", "aria-current") == "true"
    assert attr(page, "section#room", "hx-get") == f"{base}?tables=open"
    fragment = director.get(f"{base}?tables=open", hx=True).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="room"')
    assert tables_shown(fragment) == ["table-2"]
    assert attr(fragment, "section#room", "hx-get") == f"{base}?tables=open"
    # Anything else is no filter.
    assert tables_shown(director.get(f"{base}?tables=x").get_data(as_text=True)) == [
        "table-1", "table-2"]
    # Every table done: the filter says so, and the round can be locked (all tables count).
    r = director.post(f"{base}/correct", {"round": "1", "table": "2", "why": "slip",
                                          "place_0": "1", "place_1": "2", "place_2": "3",
                                          "place_3": "4"})
    assert r.status_code == 303
    page = director.get(f"{base}?tables=open").get_data(as_text=True)
    assert tables_shown(page) == [] and "Every table of this round is done." in text_of(page)
    assert text_of(page, "#table-counts") == "2 of 2 done"
    assert select(page, "#lock-round")
    # Only the director sees the dashboard, filtered or not.
    assert new_phone("stranger").get(f"{base}?tables=open").status_code in (403, 404)


def test_the_projector_heads_tie_breaks_by_short_names_spelt_out_in_its_caption(director,
                                                                                new_phone):
    event_id = create_event(director, PLAYERS[:8])
    viewer = new_phone("projector")
    page = viewer.get(f"/e/{event_id}/projector").get_data(as_text=True)
    heads = [(a.text, a.get("title")) for a in select(page, "#standings-table thead abbr")]
    assert heads == [("Score", "Game score"), ("Bh", "Buchholz"), ("MBh", "Median-Buchholz")]
    assert text_of(page, "#tiebreak-key") == (
        "· Score: Game score · Bh: Buchholz · MBh: Median-Buchholz")
    # The standings page keeps the full names (and its legend below).
    page = viewer.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert not select(page, "#standings-table abbr") and not select(page, "#tiebreak-key")
