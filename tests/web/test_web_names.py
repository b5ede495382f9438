"""Names are names through the web: a table, an event's list and
self-registration store names cleaned of control and invisible characters, refuse a name
that is blank after that, and refuse two names that look the same."""
from __future__ import annotations

import pytest
from helpers import text_of
from test_web_event_registration import names, open_event, register
from test_web_events import create_event
from web_helpers import count, db_rows


def seat_names(db_path: str) -> list[str]:
    return [r[0] for r in db_rows(db_path, "SELECT name FROM seats ORDER BY table_id, pos")]


def test_a_table_stores_clean_names(new_phone, db_path):
    ann = new_phone("Ann")
    ann.create_table(["\u202eAnn\x00", "Bob\u200b", "  Cy \n Lee "])
    assert seat_names(db_path) == ["Ann", "Bob", "Cy Lee"]
    page = ann.get("/").get_data(as_text=True)
    assert "\u202e" not in page and "\x00" not in page


@pytest.mark.parametrize("rows, words", [
    (["Ann", "ＡＮＮ"], "must be different"),
    (["Ann", "A\u200bnn"], "must be different"),
    (["Ann", "\u200b\u202e\x00"], ""),          # a blank row is no player: too few players
])
def test_a_table_refuses_look_alike_and_invisible_names(new_phone, db_path, rows, words):
    ann = new_phone("Ann")
    data = {f"name_{i}": n for i, n in enumerate(rows)}
    data["me"] = "0"
    r = ann.post("/new/scorepad", data)
    assert r.status_code == 422
    assert words in text_of(r.get_data(as_text=True))
    assert count(db_path, "tables") == 0


def test_an_event_list_refuses_look_alikes_and_stores_clean_names(new_phone, db_path):
    director = new_phone("Director")
    r = director.post("/events/new/scorepad", {
        "event_name": "Club", "event_rounds": "1", "entrants": "Ann\nBob\nＡＮＮ\nCy"})
    assert r.status_code == 422 and "listed twice" in text_of(r.get_data(as_text=True))
    event_id = create_event(director, ["\u202eAnn", "Bob\x00", "Cy\u200b", "Dee"])
    assert names(db_path, event_id) == ["Ann", "Bob", "Cy", "Dee"]


def test_registration_refuses_a_look_alike_and_a_blank_name(new_phone, db_path):
    director = new_phone("Director")
    event_id = open_event(director)
    assert register(new_phone("Ann"), event_id, "Ann").status_code == 303
    r = register(new_phone("Fake"), event_id, "A\u200bnn")
    assert r.status_code == 422 and "already on the list" in text_of(r.get_data(as_text=True))
    r = register(new_phone("Fake 2"), event_id, "ＡＮＮ")
    assert r.status_code == 422
    r = register(new_phone("Nobody"), event_id, "\u200b\u202e")
    assert r.status_code == 422
    assert names(db_path, event_id) == ["Ann"]
