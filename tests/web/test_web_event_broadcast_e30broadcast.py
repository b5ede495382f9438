"""Publishing an event, through the Flask test client: the finished event as static pages
in a zip (every page there, nothing pointing at the server, the standings right, Japanese
for a Japanese director) and the director's announcements (refused when empty or too long,
audited, on every page of the event and in the tables' live stream)."""
from __future__ import annotations

import io
import re
import zipfile

import pytest
from test_web_events import PLAYERS, _play_round, create_event, seat_round, seatings
from helpers import select, text_of
from web_helpers import Phone, standings


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
