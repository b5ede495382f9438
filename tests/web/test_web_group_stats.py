"""A group's statistics through the web: ``/g/<id>/stats.json`` (every figure of
docs/STATS.md by its key, read from the total kept as games finish) for a phone of the
group only, and the "Statistics" section of the group's page (per game: games, wins,
win %, average and best score), checked against a hand computation."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from companion import stats
from helpers import select, text_of
from web_helpers import db_rows

from test_web_groups import make_group


def _table(phone, group_id, names, **fields):
    data = {f"name_{i}": n for i, n in enumerate(names)} | {"me": "0"}
    data |= {k: str(v) for k, v in fields.items()}
    r = phone.post(f"/g/{group_id}/new/scorepad", data)
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    return urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]


@pytest.fixture
def evening(new_phone):
    """Two score-pad games to 50: Ann 60–20 Cy, then Ann 10–70 Cy."""
    ann = new_phone("Ann")
    group_id = make_group(ann, players="Ann\nCy\n")
    for scores in ({0: 60, 1: 20}, {0: 10, 1: 70}):
        table_id = _table(ann, group_id, ["Ann", "Cy"], target=50)
        assert ann.enter(table_id, scores).status_code == 200
    return group_id, ann


def test_stats_json_has_the_documented_keys_and_hand_computed_figures(evening, db_path):
    group_id, ann = evening
    r = ann.get(f"/g/{group_id}/stats.json")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "private, no-store"
    body = r.get_json()
    assert set(body) == {"version", "games_recorded", "players", "head_to_head", "games"}
    assert body["games_recorded"] == 2
    pad = body["games"]["scorepad"]
    assert (pad["game"], pad["name"], pad["lower_wins"], pad["games"]) == \
        ("scorepad", None, False, 2)
    ann_rec, cy_rec = pad["players"]["Ann"], pad["players"]["Cy"]
    assert (ann_rec["games"], ann_rec["wins"], ann_rec["losses"], ann_rec["win_pct"],
            ann_rec["average_score"], ann_rec["best_score"]) == (2, 1, 1, 50.0, 35.0, 60)
    assert (cy_rec["average_score"], cy_rec["best_score"]) == (45.0, 70)
    assert body["head_to_head"]["Ann"]["Cy"]["wins"] == 1
    # The same figures a rebuild from the stored records gives.
    [(kept,)] = db_rows(db_path, "SELECT games FROM group_stats")
    assert kept == 2
    assert body == ann.get(f"/g/{group_id}/stats.json").get_json()
    assert body["version"] == stats.view(stats.empty())["version"]


def test_the_page_shows_a_table_per_game(evening):
    group_id, ann = evening
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [sec] = select(page, '#stats .group-stats[data-section="scorepad"]')
    rows = [[text_of(c) for c in select(row.html, "th, td")]
            for row in select(sec.html, "tbody tr")]
    assert sorted(rows) == [["Ann", "2", "1", "50", "35", "60"],
                            ["Cy", "2", "1", "50", "45", "70"]]
    assert "2 games" in text_of(sec)
    assert len(select(sec.html, "thead th")) == 6
    assert select(page, f'#stats a[href="/g/{group_id}/stats.json"]')


def test_a_new_group_says_figures_come_later(new_phone):
    ann = new_phone("Ann")
    group_id = make_group(ann)
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert not select(page, "#stats table")
    assert "once the group has finished a game" in text_of(select(page, "#stats")[0])
    assert ann.get(f"/g/{group_id}/stats.json").get_json()["games_recorded"] == 0


def test_stats_json_is_for_the_group_s_phones_only(evening, new_phone):
    group_id, _ann = evening
    eve = new_phone("Eve")
    for path in (f"/g/{group_id}/stats.json", "/g/nosuchgroup/stats.json"):
        r = eve.get(path)
        assert r.status_code == 403, path
        assert "can't open this group" in text_of(r.get_data(as_text=True))
        assert not re.search(r'"games_recorded"', r.get_data(as_text=True))


def test_the_pages_reuse_the_view_until_the_total_changes(evening, monkeypatch):
    """The group's pages keep the total's view in the process: a second page reads no
    total through json and computes no view; a finished game (a new stored total) makes
    both again, so the page never shows stale figures."""
    from companion.groups import records
    group_id, ann = evening
    assert ann.get(f"/g/{group_id}/stats.json").get_json()["games_recorded"] == 2
    calls = []
    real = stats.view
    monkeypatch.setattr(stats, "view", lambda total: calls.append(1) or real(total))
    for path in ("", "/stats.json"):
        assert ann.get(f"/g/{group_id}{path}").status_code == 200
    assert calls == []
    assert records._FIGURES[group_id][2]["games_recorded"] == 2
    table_id = _table(ann, group_id, ["Ann", "Cy"], target=50)
    assert ann.enter(table_id, {0: 5, 1: 55}).status_code == 200
    body = ann.get(f"/g/{group_id}/stats.json").get_json()
    assert body["games_recorded"] == 3 and body["players"]["Cy"]["wins"] == 2
    assert calls == [1]
