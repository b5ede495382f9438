"""Publishing an event, through the Flask test client: the finished event as static pages
in a zip (every page there, nothing pointing at the server, the standings right, Japanese
for a Japanese director) and the director's announcements (refused when empty or too long,
audited, on every page of the event and in the tables' live stream)."""
from __future__ import annotations

import io
import re
import time
import zipfile

import pytest
from test_web_events import (PLAYERS, _play_round, create_event, seat_player, seat_round,
                             seatings)
from helpers import select, text_of
from web_helpers import Phone, db_rows, make_app, standings


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def _finished_event(app, director, db_path) -> str:
    event_id = create_event(director, rounds=2)
    for rnd in (1, 2):
        seat_round(director, event_id)
        _play_round(app, db_path, event_id, rnd)
        assert director.post(f"/e/{event_id}/lock", {"round": str(rnd)}).status_code == 303
    return event_id


def _unzip(response) -> dict[str, str]:
    archive = zipfile.ZipFile(io.BytesIO(response.get_data()))
    return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def test_the_export_is_a_folder_of_static_pages_with_the_final_standings(
        app, director, db_path, new_phone):
    event_id = _finished_event(app, director, db_path)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert select(dash, "#export-link")[0]["href"] == f"/e/{event_id}/export.zip"
    r = director.get(f"/e/{event_id}/export.zip")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    assert f'filename="event-{event_id}.zip"' in r.headers["Content-Disposition"]
    files = _unzip(r)
    folder = f"event-{event_id}/"
    assert sorted(files) == [folder + n for n in ("index.html", "round-1.html", "round-2.html")]
    for name, html in files.items():
        # Nothing reaches back to a server: no script, no absolute or server link.
        assert "<script" not in html and "<link" not in html, name
        targets = re.findall(r'(?:href|src|action)="([^"]*)"', html)
        assert targets and all(re.fullmatch(r"(index|round-\d+)\.html", t) for t in targets), \
            (name, targets)
        assert "http://" not in html and "https://" not in html and "url(" not in html
        assert "<style>" in html
    index = files[folder + "index.html"]
    live = standings(director.get(f"/e/{event_id}/standings").get_data(as_text=True))
    assert standings(index) == live and len(live) == len(PLAYERS)
    assert text_of(select(index, "#standings-caption")[0]) == "Final standings"
    # Each round's page: every table with its entrants, places and points.
    round1 = files[folder + "round-1.html"]
    for number, _table_id, ids in seatings(db_path, event_id, 1):
        rows = [text_of(tr) for tr in select(round1, f"#table-{number} tr")]
        assert rows[0].split() == [str(number), ids[0], "1", "40", "4"]
        assert [row.split()[-4:] for row in rows[1:]] == \
            [[ids[k], str(k + 1), str(40 - 10 * k), str((4, 2, 1, 0)[k])] for k in (1, 2, 3)]
    assert "round-open" not in round1
    # The director's only; in Japanese for a Japanese director.
    assert new_phone().get(f"/e/{event_id}/export.zip").status_code == 403
    director.get("/language?to=ja")
    ja = _unzip(director.get(f"/e/{event_id}/export.zip"))[folder + "index.html"]
    assert '<html lang="ja">' in ja
    assert text_of(select(ja, "#standings-caption")[0]) == "最終順位"
    assert text_of(select(ja, "#nav-round-1")[0]) == "ラウンド1"


def test_announcements_are_checked_audited_and_shown_on_every_page_of_the_event(
        app, director, db_path, new_phone):
    event_id = create_event(director, players=PLAYERS[:4])
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, table_id, 0)
    before = db_rows(db_path, "SELECT COUNT(*) FROM event_audit")
    # Empty, blank or too long: a plain sentence, nothing stored; only the director sends.
    for text, words in (("", "Type the announcement first."),
                        ("   \n ", "Type the announcement first."),
                        ("x" * 201, "An announcement holds at most 200 characters (this "
                                    "one has 201).")):
        r = director.post(f"/e/{event_id}/announce", {"action": "send", "text": text})
        assert r.status_code == 422 and words in text_of(r.get_data(as_text=True))
    assert director.post(f"/e/{event_id}/announce", {"action": "shout", "text": "Hi"}
                         ).status_code == 400
    assert player.post(f"/e/{event_id}/announce", {"text": "Free drinks"}).status_code == 403
    assert db_rows(db_path, "SELECT COUNT(*) FROM event_audit") == before
    # Sent: kept in the director's log, on the dashboard, the players' pages (a player's own
    # and the name list), the projector, the event's tables and their news fragment.
    for text in ("Round 1 ends at 20:30", "Pizza is  here\n in the hall"):
        r = director.post(f"/e/{event_id}/announce",
                          {"action": "send", "text": text, "who": "Jo"})
        assert r.status_code == 303 and r.headers["Location"].endswith("#announce")
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Jo — Announced: “Pizza is here in the hall”" in text_of(select(dash, "#audit")[0])
    assert select(dash, "#announce-form textarea[maxlength='200']")
    pages = {"dashboard": dash,
             "player": player.get(f"/e/{event_id}/players").get_data(as_text=True),
             "player poll": player.get(f"/e/{event_id}/players", hx=True).get_data(as_text=True),
             "names": new_phone().get(f"/e/{event_id}/players").get_data(as_text=True),
             "projector": new_phone().get(f"/e/{event_id}/projector").get_data(as_text=True),
             "table": player.get(f"/t/{table_id}").get_data(as_text=True),
             "news": new_phone().get(f"/e/{event_id}/news").get_data(as_text=True)}
    # The projector and the tables show the newest only: their rows and sheet keep the room.
    for where in ("projector", "table", "news"):
        assert [text_of(select(item, ".news-text")[0]).split("UTC ", 1)[1]
                for item in select(pages.pop(where), "#news [data-news]")] == \
            ["Pizza is here in the hall"], where
    for where, page in pages.items():
        items = [text_of(select(item, ".news-text")[0])
                 for item in select(page, "#news [data-news]")]
        assert [i.split("UTC ", 1)[1] for i in items] == \
            ["Pizza is here in the hall", "Round 1 ends at 20:30"], where
        assert all(select(item, "button[data-dismiss-news]")
                   for item in select(page, "#news [data-news]")), where
    table_page = player.get(f"/t/{table_id}").get_data(as_text=True)
    assert select(table_page, "#event-news[data-news-url]")
    assert select(table_page, "script[src*='event.js']")
    # A table of no event loads nothing more (the table page's weight).
    zoe = new_phone("Zoe")
    other = zoe.get(f"/t/{zoe.create_table(['Zoe', 'Yan'])}").get_data(as_text=True)
    assert not select(other, "#event-news") and not select(other, "script[src*='event.js']")
    # The latest three are kept.
    for n in range(3):
        director.post(f"/e/{event_id}/announce", {"action": "send", "text": f"News {n}"})
    page = new_phone().get(f"/e/{event_id}/players").get_data(as_text=True)
    assert len(select(page, "#news [data-news]")) == 3
    assert "News 2" in text_of(select(page, "#news [data-news]")[0])


def test_an_event_tables_stream_says_news_when_the_director_announces(tmp_path):
    app = make_app(tmp_path, LIVE_MAX_SECONDS=3, LIVE_KEEPALIVE=0.2)
    director = Phone(app, "Director")
    event_id = create_event(director, players=PLAYERS[:4])
    seat_round(director, event_id)
    db_path = app.config["DATABASE"]
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, table_id, 0)
    r = player.client.get(f"/t/{table_id}/stream", buffered=False)
    try:
        chunks = iter(r.response)
        assert "event: changed" in next(chunks).decode()
        director.post(f"/e/{event_id}/announce", {"action": "send", "text": "Last hand"})
        news, = db_rows(db_path, "SELECT id FROM event_audit WHERE kind = 'announce'")[0:1]
        seen, deadline = "", time.monotonic() + 3
        while "news" not in seen and time.monotonic() < deadline:
            seen += next(chunks).decode()
        assert f"event: ping\ndata: news {news[0]}\n" in seen
    finally:
        r.close()
