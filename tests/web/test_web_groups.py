"""Groups through the web: making a group at /g/new, its page for its phones only (403 in
plain words otherwise), joining by its link (the token in the fragment), a table made for
the group recording its finished games, and the games as JSON and CSV. Bad input gets a
4xx and changes nothing."""
from __future__ import annotations

import csv
import io
import re
import secrets
from urllib.parse import urlsplit

import pytest

from helpers import attr, select, text_of
from web_helpers import count, db_rows, local_link, snapshot

JSON_FIELDS = {"id", "game", "started_at", "finished_at", "table_id", "players", "teams",
               "scores", "winners", "settings"}


def make_group(phone, name="Friday", players="Ann\nBob\n"):
    r = phone.post("/g/new", {"name": name, "players": players})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return re.fullmatch(r"/g/([\w-]+)", urlsplit(r.headers["Location"]).path).group(1)


@pytest.fixture
def group(new_phone):
    ann = new_phone("Ann")
    return make_group(ann), ann


def test_new_group_form_and_page(new_phone, group):
    group_id, ann = group
    form = ann.get("/g/new").get_data(as_text=True)
    assert select(form, "form textarea[name=players]") and select(form, "input[name=name]")
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert text_of(select(page, "#group-name")[0]) == "Friday"
    assert [text_of(s) for s in select(page, ".group-players summary")] == ["Ann", "Bob"]
    assert select(page, "#add-phone svg.qr")
    assert "/g/join#" in text_of(select(page, "#group-link")[0])
    start = ann.get("/").get_data(as_text=True)
    assert [text_of(a) for a in select(start, "#your-groups a")] == ["Friday"]


def test_other_phones_get_403_until_they_join(new_phone, group, db_path):
    group_id, ann = group
    eve = new_phone("Eve")
    for path in (f"/g/{group_id}", f"/g/{group_id}/games.json", f"/g/{group_id}/games.csv",
                 f"/g/{group_id}/new/scorepad", "/g/nosuchgroup"):
        r = eve.get(path)
        assert r.status_code == 403, path
        assert "can't open this group" in text_of(r.get_data(as_text=True))
    link = text_of(select(ann.get(f"/g/{group_id}").get_data(as_text=True), "#group-link")[0])
    assert eve.get("/g/join").status_code == 200
    r = eve.join(local_link(link))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/g/{group_id}")
    assert eve.get(f"/g/{group_id}").status_code == 200
    assert eve.post("/g/join", {"token": "NOPE"}).status_code == 404
    # Eve can't remove Ann's phone; Ann removes Eve's.
    assert eve.post(f"/g/{group_id}/phones/1/remove").status_code == 403
    assert ann.post(f"/g/{group_id}/phones/2/remove").status_code == 303
    assert eve.get(f"/g/{group_id}").status_code == 403
    assert count(db_path, "group_audit", "kind = 'remove_phone'") == 1


@pytest.mark.parametrize("data", [
    {"name": "", "players": "Ann"}, {"name": "Club", "players": "Ann\nann"},
    {"name": "Club", "players": "x" * 5000}, {"name": "x" * 200, "players": "Ann"},
])
def test_bad_new_group_is_refused_and_changes_nothing(new_phone, db_path, data):
    ann = new_phone("Ann")
    ann.get("/")
    before = count(db_path, "groups")
    r = ann.post("/g/new", data)
    assert r.status_code == 422
    assert select(r.get_data(as_text=True), ".notice.error")
    assert count(db_path, "groups") == before == 0


def test_new_group_needs_the_csrf_token(new_phone, db_path):
    r = new_phone().post("/g/new", {"name": "Club", "players": "Ann"}, csrf=False)
    assert r.status_code == 400 and count(db_path, "groups") == 0


def test_rename_player(group, db_path):
    group_id, ann = group
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    bob = attr(page, ".group-players li:nth-of-type(2)", "data-player")
    assert ann.post(f"/g/{group_id}/players/{bob}/rename", {"name": "ann"}).status_code == 422
    assert ann.post(f"/g/{group_id}/players/99/rename", {"name": "Zed"}).status_code == 404
    assert ann.post(f"/g/{group_id}/players/{bob}/rename", {"name": "Robert"}).status_code == 303
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == ["Ann", "Robert"]


def test_a_group_table_records_its_games(group, db_path):
    group_id, ann = group
    form = ann.get(f"/g/{group_id}/new/scorepad").get_data(as_text=True)
    assert select(form, "datalist#group-players option")
    r = ann.post(f"/g/{group_id}/new/scorepad",
                 {"name_0": "Ann", "name_1": "Cy", "me": "0", "target": "50"})
    assert r.status_code == 303
    table_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    assert ann.get(f"/g/{group_id}/games.json").get_json() == []
    finished = ann.enter(table_id, {0: 60, 1: 20})
    assert finished.status_code == 200
    games = ann.get(f"/g/{group_id}/games.json").get_json()
    assert len(games) == 1 and set(games[0]) == JSON_FIELDS
    game = games[0]
    assert (game["game"], game["table_id"], game["players"], game["teams"]) == \
        ("scorepad", table_id, ["Ann", "Cy"], None)
    assert game["scores"] == {"Ann": 60, "Cy": 20} and game["winners"] == ["Ann"]
    assert game["settings"]["target"] == 50
    text = ann.get(f"/g/{group_id}/games.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 1 and rows[0]["winners"] == "Ann" and rows[0]["players"] == "Ann | Cy"
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert select(page, f'.group-games li[data-game="{game["id"]}"]')
    # Cy joined the group with the table.
    assert "Cy" in [text_of(s) for s in select(page, ".group-players summary")]
    # The finishing round struck from the sheet: the game is no longer recorded.
    sid = secrets.token_urlsafe(16)
    last = db_rows(db_path, "SELECT MAX(seq) FROM actions WHERE table_id = ? AND kind = 'game'",
                   [table_id])[0][0]
    assert ann.undo(table_id, last, sid=sid).status_code == 200
    assert ann.get(f"/g/{group_id}/games.json").get_json() == []
    assert count(db_path, "group_games") == 0


def test_bad_group_table_changes_nothing(group, db_path):
    group_id, ann = group
    before = snapshot(db_path)
    r = ann.post(f"/g/{group_id}/new/scorepad", {"name_0": "Ann", "name_1": "ann", "me": "0"})
    assert r.status_code == 422
    assert snapshot(db_path) == before
