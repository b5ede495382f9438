"""Tap-to-pick on a group's new-table form (/g/<id>/new/<slug>): the group's players as
chips (static/js/pick.js fills the name boxes in tap order), a box for a new name, and the
form posting exactly the fields /new/<slug> posts, so the page works without the script."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from helpers import attr, select, text_of
from web_helpers import count, snapshot

from test_web_groups import make_group


@pytest.fixture
def group(new_phone):
    ann = new_phone("Ann")
    return make_group(ann, players="Ann\nBob\nCy\n"), ann


def _posted_fields(html: str) -> set[str]:
    """The names of the fields the page's new-table form posts (named controls only)."""
    form = select(html, "form[method=post]")[0]
    return {n.attrs["name"] for n in select(form, "input[name], select[name], textarea[name]")}


def test_chips_are_the_groups_players(group):
    group_id, ann = group
    page = ann.get(f"/g/{group_id}/new/scorepad").get_data(as_text=True)
    pick = select(page, "#group-pick[data-pick]")[0]
    assert "hidden" in pick.attrs  # shown by the script only: without it, the boxes are the form
    chips = select(pick, "button.chip[data-pick-name]")
    assert [c.attrs["data-pick-name"] for c in chips] == ["Ann", "Bob", "Cy"]
    assert [text_of(c) for c in chips] == ["Ann", "Bob", "Cy"]
    assert all(c.attrs["type"] == "button" and c.attrs["aria-pressed"] == "false" for c in chips)
    # The add box is never posted; the script is a file (strict CSP: no inline script).
    new_box = select(pick, "input[data-pick-new]")[0]
    assert "name" not in new_box.attrs
    assert any("/js/pick.js" in s.attrs.get("src", "") for s in select(page, "script"))
    assert not [s for s in select(page, "script") if "src" not in s.attrs]
    # The name boxes still offer the names as you type.
    assert attr(page, "input[name=name_0]", "list") == "group-players"


def test_the_form_posts_the_same_fields_as_new_slug(group):
    group_id, ann = group
    for slug in ("scorepad", "rook"):
        plain = ann.get(f"/new/{slug}").get_data(as_text=True)
        picked = ann.get(f"/g/{group_id}/new/{slug}").get_data(as_text=True)
        assert _posted_fields(picked) == _posted_fields(plain), slug


def test_a_table_from_a_group_without_players_has_no_chips(new_phone):
    ann = new_phone("Ann")
    group_id = make_group(ann, players="")
    page = ann.get(f"/g/{group_id}/new/scorepad").get_data(as_text=True)
    assert not select(page, "[data-pick]")
    assert not any("/js/pick.js" in s.attrs.get("src", "") for s in select(page, "script"))


def test_picked_seats_and_a_new_name_make_the_table(group):
    group_id, ann = group
    # What the chips post: the boxes in tap order (Cy, then Ann, then the new Dee).
    r = ann.post(f"/g/{group_id}/new/scorepad",
                 {"name_0": "Cy", "name_1": "Ann", "name_2": "Dee", "me": "1"})
    assert r.status_code == 303
    table_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    assert re.fullmatch(r"[\w-]+", table_id)
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == \
        ["Ann", "Bob", "Cy", "Dee"]
    form = ann.get(f"/g/{group_id}/new/scorepad").get_data(as_text=True)
    assert "Dee" in [c.attrs["data-pick-name"] for c in select(form, "button[data-pick-name]")]


def test_the_script_is_served(group):
    _group_id, ann = group
    js = ann.get("/static/js/pick.js")
    assert js.status_code == 200 and "data-pick" in js.get_data(as_text=True)


# ---------------------------------------------------------------- keep these players

def test_keep_these_players_from_a_finished_table(table, new_phone, db_path):
    ann, bob = table.host, table.bob
    assert not select(ann.page(table.id), "#keep-players")   # offered once a game is over
    ann.enter(table.id, {0: 60, 1: 20, 2: 10})
    page = ann.page(table.id)
    assert attr(page, "a#keep-players", "href") == f"/g/keep/{table.id}"
    # A phone not seated at the table can't; a seated guest can.
    eve = new_phone("Eve")
    assert eve.get(f"/g/keep/{table.id}").status_code == 403
    before = snapshot(db_path)
    assert eve.post(f"/g/keep/{table.id}", {"name": "Mine"}).status_code == 403
    assert bob.post(f"/g/keep/{table.id}", {"name": "  "}).status_code == 422
    assert snapshot(db_path) == before
    form = bob.get(f"/g/keep/{table.id}").get_data(as_text=True)
    assert [text_of(li) for li in select(form, "#keep-players li")] == ["Ann", "Bob", "Cy"]
    r = bob.post(f"/g/keep/{table.id}", {"name": "Friday"})
    assert r.status_code == 303
    group_id = re.fullmatch(r"/g/([\w-]+)", urlsplit(r.headers["Location"]).path).group(1)
    [game] = bob.get(f"/g/{group_id}/games.json").get_json()
    assert game["table_id"] == table.id and game["winners"] == ["Ann"]
    assert game["players"] == ["Ann", "Bob", "Cy"]
    # Bob's phone is the group's; Ann's joins by the group's link as any phone does.
    assert ann.get(f"/g/{group_id}").status_code == 403
    # Once kept, the table offers it no more and a second try is refused.
    assert not select(bob.page(table.id), "#keep-players")
    assert ann.post(f"/g/keep/{table.id}", {"name": "Again"}).status_code == 409
    assert count(db_path, "groups") == 1


def test_keep_an_unknown_table(new_phone):
    assert new_phone("Eve").get("/g/keep/nosuchtable").status_code == 404


# ---------------------------------------------------------------- attaching a table

def test_the_host_attaches_a_table_to_one_of_its_groups(table, new_phone, db_path):
    from companion.groups.group import audit_log
    from companion.storage import connect
    ann, bob = table.host, table.bob
    ann.enter(table.id, {0: 60, 1: 20, 2: 10})
    # Ann has no group yet: the page offers to keep the players instead.
    history = ann.get(f"/t/{table.id}/history").get_data(as_text=True)
    assert attr(history, "a#attach-group", "href") == f"/g/attach/{table.id}"
    assert not select(bob.get(f"/t/{table.id}/history").get_data(as_text=True),
                      "a#attach-group")             # the host's, not every phone's
    assert select(ann.get(f"/g/attach/{table.id}").get_data(as_text=True), "#no-groups")
    group_id = make_group(ann, name="Club", players="Ann\nDee")
    other = make_group(new_phone("Eve"), name="Other")
    before = snapshot(db_path)
    # Only the host; only into one of the host's own groups.
    assert bob.get(f"/g/attach/{table.id}").status_code == 403
    assert bob.post(f"/g/attach/{table.id}", {"group": group_id}).status_code == 403
    assert new_phone("Zed").get(f"/g/attach/{table.id}").status_code == 403
    assert ann.post(f"/g/attach/{table.id}", {"group": other}).status_code == 403
    assert ann.post(f"/g/attach/{table.id}", {"group": ""}).status_code == 403
    assert snapshot(db_path) == before
    page = ann.get(f"/g/attach/{table.id}").get_data(as_text=True)
    assert [(b.attrs["value"], text_of(b)) for b in select(page, "#attach-form button")] == \
        [(group_id, "Club")]
    r = ann.post(f"/g/attach/{table.id}", {"group": group_id})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/g/{group_id}")
    [game] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert game["table_id"] == table.id and game["winners"] == ["Ann"]
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == \
        ["Ann", "Dee", "Bob", "Cy"]
    assert audit_log(connect(db_path), group_id)[-1]["new"] == {"table": table.id,
                                                                 "game": "scorepad"}
    # Attached: the history offers it no more; a second attach is refused.
    assert not select(ann.get(f"/t/{table.id}/history").get_data(as_text=True),
                      "a#attach-group")
    assert ann.post(f"/g/attach/{table.id}", {"group": group_id}).status_code == 409
