"""The director's night, the small things, through the Flask test client: the director
opening an event's table watches it at once; a removed seat says so on the seats page; the
host tools say when a seat's phone was last heard of; a dropped player's page says they
dropped; the standings during a round say its finished tables count; a score-only correction
names the scores in the log; the standings CSV rounds; the start page lists a phone's events
before its tables, however many tables it opened."""
from __future__ import annotations

import pytest
from test_web_events import create_event, seat_player, seat_round, seatings, token_of
from helpers import select, text_of
from web_helpers import Phone

from companion.events.standings import standings_csv


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def test_the_director_watches_an_events_table_straight_away(director, new_phone, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    # The dashboard's "Open table" (its token) and the table card both land on the table.
    r = director.join(f"/j#{token_of(db_path, table_id)}")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}")
    r = director.get(f"/e/{event_id}/t/1")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}")
    page = director.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Who are you?" not in page and select(page, "#host")
    # Anybody else who isn't at the table is still asked who they are.
    r = new_phone().get(f"/e/{event_id}/t/1")
    assert r.headers["Location"].endswith(f"/t/{table_id}/seats")


def test_a_removed_seat_says_so_and_the_host_tools_say_when_a_phone_was_heard_of(
        app, director, new_phone, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, table_id, 0)
    director.get(f"/e/{event_id}/t/1")
    tools = text_of(select(director.get(f"/t/{table_id}").get_data(as_text=True), "#host")[0])
    assert "phone connected" not in tools
    assert f"{ids[0]} a phone holds it, last heard of " in tools and "no phone" in tools
    r = director.post(f"/t/{table_id}/host/release", {"seat": "0"})
    assert r.status_code in (200, 303)
    watcher = new_phone("watcher")
    watcher.get(f"/e/{event_id}/t/1")
    page = watcher.get(f"/t/{table_id}/seats").get_data(as_text=True)
    removed = [b for b in select(page, "button.seat") if ids[0] in text_of(b)]
    assert removed and removed[0].has_attr("disabled")
    assert "phone removed: opens with the director’s rejoin QR" in text_of(removed[0])
    # The removed phone itself is told so, and no seat offers it a tap that would fail.
    page = player.get(f"/t/{table_id}/seats").get_data(as_text=True)
    assert select(page, "#phone-removed")
    assert all(b.has_attr("disabled") for b in select(page, "button.seat")
               if "watch" not in b.get("class", []))


def test_a_dropped_players_page_and_the_standings_during_a_round(director, new_phone, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=2)
    ann = new_phone("Ann")
    assert ann.pick(event_id, "Ann").status_code == 303
    seat_round(director, event_id)
    caption = text_of(select(director.get(f"/e/{event_id}/standings").get_data(as_text=True),
                             "#standings-caption")[0])
    assert caption == "Standings during round 1 of 2: its finished tables count already"
    # A player registered after the round was seated waits for the next one.
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "add", "name": "Zed"}).status_code == 303
    zed = new_phone("Zed")
    assert zed.pick(event_id, "Zed").status_code == 303
    words = text_of(select(zed.get(f"/e/{event_id}/players").get_data(as_text=True),
                           "#no-table")[0])
    assert words == "Round 1 was seated before you joined: you play from the next round."
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "drop", "name": "Zed"}).status_code == 303
    words = text_of(select(zed.get(f"/e/{event_id}/players").get_data(as_text=True),
                           "#no-table")[0])
    assert words.startswith("You have dropped out of this event")
    assert "hasn’t seated the next round" not in words


def test_a_score_only_correction_names_the_scores_in_the_log(director, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    seat_round(director, event_id)
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    base = {"round": "1", "table": "1", "why": "slip",
            **{f"place_{i}": str(i + 1) for i in range(4)}}
    scores = {f"score_{i}": str(s) for i, s in enumerate((40, 30, 20, 10))}
    assert director.post(f"/e/{event_id}/correct", {**base, **scores}).status_code == 303
    assert director.post(f"/e/{event_id}/correct",
                         {**base, **scores, "score_0": "45"}).status_code == 303
    log = [text_of(li) for li in select(director.get(f"/e/{event_id}").get_data(as_text=True),
                                        "#audit li")]
    assert f"{ids[0]} (1, score 40)" in log[0] and f"{ids[0]} (1, score 45)" in log[0]
    # The first correction changed places from nothing: no scores needed to tell it apart.
    assert f"no result → {ids[0]} (1)," in log[1]


def test_the_standings_csv_rounds_to_two_decimals():
    rows = [{"rank": 1, "entrant": "Ann", "points": 15.333333333333334, "played": 3,
             "byes": 0, "adjustment": 0.5, "buchholz": 7.666666666666667},
            {"rank": 2, "entrant": "Bob", "points": 2.0, "played": 3, "byes": 0,
             "buchholz": None}]
    text = standings_csv(rows, ("buchholz",))
    first, second = text.splitlines()[1:3]
    assert first.split(",")[3] == "15.33" and first.split(",")[-2] == "7.67"
    assert first.split(",")[9] == "0.5"
    assert second.split(",")[3] == "2" and second.split(",")[-2] == ""


def test_the_start_page_lists_events_first_however_many_tables_were_opened(
        director, db_path, monkeypatch):
    from companion.tables import places as module
    monkeypatch.setattr(module.listing, "__defaults__", (2,))
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    for i in range(3):
        director.create_table(["Ann", f"P{i}"])
    page = director.get("/").get_data(as_text=True)
    listed = [(li.get("data-kind"), li.get("data-ref")) for li in select(page, "li.place")]
    assert listed[0] == ("event", event_id) and len(listed) == 3
    assert select(page, "li.place a.place-link")[0].get("href") == f"/e/{event_id}"
