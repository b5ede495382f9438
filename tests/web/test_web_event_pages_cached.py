"""The public standings and the projector of a big event cost little per anonymous GET: the
standings table is drawn once per results key, language and page (web/events/pages.py
_drawn), the projector's pairings once per event version, and the standings page shows
STANDINGS_ROWS places at a time. Every change to a result still shows at once."""
from __future__ import annotations

import pytest

import companion.web.events.pages as web_events
from helpers import attrs, select, text_of
from test_web_events import create_event, play_table, seat_round, seatings
from web_helpers import standings

PLAYERS = [f"Player {i:02d}" for i in range(1, 13)]      # 12 players, 3 tables of 4


@pytest.fixture
def drawn(monkeypatch) -> list[int]:
    """The rows of every drawing of templates/events/_standings.html."""
    calls: list[int] = []
    real = web_events.render_template

    def counting(template, **context):
        if template == "events/_standings.html":
            calls.append(len(context["rows"]))
        return real(template, **context)

    monkeypatch.setattr(web_events, "render_template", counting)
    monkeypatch.setattr(web_events, "_drawings", web_events.LRU(64))
    return calls


@pytest.fixture
def event(app, director, db_path):
    """Round 1 seated and played (every table 40, 30, 20, 10 in seat order)."""
    event_id = create_event(director, PLAYERS, rounds=2)
    seat_round(director, event_id)
    for _n, table_id, ids in seatings(db_path, event_id, 1):
        play_table(app, db_path, table_id, [40, 30, 20, 10][:len(ids)])
    return event_id


@pytest.fixture
def director(new_phone):
    return new_phone("Director")


def test_standings_are_drawn_once_per_results_and_language(event, director, new_phone,
                                                           drawn):
    anon = new_phone("anon")
    first = anon.get(f"/e/{event}/standings").get_data(as_text=True)
    for _ in range(3):
        again = anon.get(f"/e/{event}/standings").get_data(as_text=True)
        assert standings(again) == standings(first)
    assert drawn == [12]
    # Japanese is drawn on its own (and stays English-free where translated).
    ja = new_phone("ja")
    ja.get("/language?to=ja&next=/")
    ja.get(f"/e/{event}/standings")
    ja.get(f"/e/{event}/standings")
    assert drawn == [12, 12]
    # A correction changes the results key: drawn again, and the page shows it.
    r = director.post(f"/e/{event}/correct", {"round": "1", "table": "1", "place_0": "4",
                                                "place_1": "3", "place_2": "2", "place_3": "1",
                                                "who": "Director", "why": "paper"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    after = anon.get(f"/e/{event}/standings").get_data(as_text=True)
    assert standings(after) != standings(first) and len(drawn) == 3
    # The projector draws its own screen (15 places) once too.
    screen = new_phone("projector")
    for _ in range(3):
        page = screen.get(f"/e/{event}/projector").get_data(as_text=True)
        assert attrs(page, "[data-entrant]", "data-entrant") == [e for e, _p in standings(after)]
    assert len(drawn) == 4


def test_a_sheet_that_changes_its_result_shows_at_once(app, director, db_path, new_phone,
                                                       drawn):
    event_id = create_event(director, PLAYERS, rounds=2)
    seat_round(director, event_id)
    anon = new_phone("anon")
    before = standings(anon.get(f"/e/{event_id}/standings").get_data(as_text=True))
    assert {p for _e, p in before} == {"0"}
    _n, table_id, ids = seatings(db_path, event_id, 1)[0]
    play_table(app, db_path, table_id, [40, 30, 20, 10])       # no director write at all
    after = dict(standings(anon.get(f"/e/{event_id}/standings").get_data(as_text=True)))
    assert after[ids[0]] == "4" and after[ids[3]] == "0"
    assert drawn == [12, 12]


def test_the_standings_come_in_pages(event, new_phone, monkeypatch):
    monkeypatch.setattr(web_events, "STANDINGS_ROWS", 5)
    anon = new_phone("anon")
    every = standings(anon.get(f"/e/{event}/standings?page=1").get_data(as_text=True))
    assert len(every) == 5
    seen = []
    for page_no, size in ((1, 5), (2, 5), (3, 2)):
        page = anon.get(f"/e/{event}/standings?page={page_no}").get_data(as_text=True)
        rows = standings(page)
        assert len(rows) == size
        seen += rows
        first = (page_no - 1) * 5 + 1
        assert text_of(page, "#standings-page") == (f"Places {first}–{first + size - 1} of 12")
        assert bool(select(page, "a#standings-previous")) == (page_no > 1)
        assert bool(select(page, "a#standings-next")) == (page_no < 3)
    assert len({e for e, _p in seen}) == 12
    points = [float(p) for _e, p in seen]
    assert points == sorted(points, reverse=True)
    # Page 2's link to page 3 names the places there.
    page = anon.get(f"/e/{event}/standings?page=2").get_data(as_text=True)
    assert text_of(page, "a#standings-next") == "Places 11–12 ›"
    assert text_of(page, "a#standings-previous") == "‹ Places 1–5"
    # A page number out of range shows the first page.
    for odd in ("0", "4", "x", "-1", "9" * 30):
        page = anon.get(f"/e/{event}/standings?page={odd}").get_data(as_text=True)
        assert standings(page) == seen[:5]
    # A small event has no pages.
    monkeypatch.setattr(web_events, "STANDINGS_ROWS", 200)
    page = anon.get(f"/e/{event}/standings").get_data(as_text=True)
    assert len(standings(page)) == 12 and not select(page, ".standings-pages")
