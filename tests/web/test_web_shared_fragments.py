"""Live fragments are rendered once per table version and viewer, then shared: a burst of
phones asking for the same version costs one drawing.

Sharing must never leak one phone's CSRF token or form id to another, nor show a phone
what belongs to another viewer (a spectator has no undo button; a Zock'n'Roll phone shows
its own board).
"""
from __future__ import annotations

from companion.web import fragments
from helpers import attr, form_block, inputs
from web_helpers import play_part, seq_saved


def fragment(phone, table_id, which):
    """What `phone`'s live refresh (/play) shows: all of it ("play"), or its "sheet" or
    "entry" section."""
    r = phone.get(f"/t/{table_id}/play", hx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    return body if which == "play" else play_part(body, which)


def test_two_seated_phones_share_one_render_with_their_own_tokens(table):
    table.host.enter(table.id, {0: 5, 1: 3})
    fragments.clear()
    ann_entry = fragment(table.host, table.id, "entry")
    bob_entry = fragment(table.bob, table.id, "entry")
    assert fragments.stats == {"hits": 1, "misses": 1}
    ann, bob = (inputs(form_block(h, 'id="entry-form"')) for h in (ann_entry, bob_entry))
    assert ann["csrf_token"] != bob["csrf_token"] and ann["sid"] != bob["sid"]
    # Each phone's own session token (the signed form carries a timestamp; compare the
    # token itself, before the first dot).
    own = lambda t: t.split(".")[0]  # noqa: E731
    assert own(ann["csrf_token"]) == own(table.host.csrf())
    assert own(bob["csrf_token"]) == own(table.bob.csrf())
    assert "\x00" not in ann_entry + bob_entry
    # Everything else is the same HTML.
    strip = lambda h, f: h.replace(f["csrf_token"], "T").replace(f["sid"], "S")  # noqa: E731
    assert strip(ann_entry, ann) == strip(bob_entry, bob)
    # Bob saves with the form he got from the shared copy: accepted, once.
    r = table.bob.enter(table.id, {0: 1, 1: 1}, form=bob)
    assert r.status_code == 200 and "Saved as entry" in r.get_data(as_text=True)
    r = table.host.enter(table.id, {0: 1, 1: 1}, form=ann)
    assert r.status_code == 409      # Ann's form was for the old version


def test_a_spectator_gets_its_own_copy(table, new_phone):
    table.host.enter(table.id, {0: 5, 1: 3})
    watcher = new_phone("Watcher")
    assert watcher.join(table.join_path).status_code == 303
    fragments.clear()
    seated = fragment(table.host, table.id, "sheet")
    watching = fragment(watcher, table.id, "sheet")
    assert fragments.stats["misses"] == 2
    assert 'id="undo-last"' in seated and 'id="undo-last"' not in watching


def test_a_new_version_is_rendered_fresh(table):
    fragments.clear()
    before = fragment(table.bob, table.id, "sheet")
    table.host.enter(table.id, {0: 7, 1: 2}, hx=False)    # a plain post: nothing drawn
    after = fragment(table.bob, table.id, "sheet")
    assert fragments.stats["misses"] == 2
    version = lambda h: attr(h, "[data-version]", "data-version")  # noqa: E731
    assert int(version(after)) == int(version(before)) + 1 and ">7<" in after


def test_zocknroll_phones_each_see_their_own_board(new_phone):
    ann, bob = new_phone("Ann"), new_phone("Bob")
    r = ann.post("/new/zocknroll", {"name_0": "Ann", "name_1": "Bob", "name_2": "Cid",
                                    "me": "0"})
    table_id = r.headers["Location"].rsplit("/", 1)[1]
    assert bob.join(ann.join_path(table_id)).status_code == 303
    assert bob.claim(table_id, 1).status_code == 303
    fragments.clear()
    ann_sheet, bob_sheet = (fragment(p, table_id, "sheet") for p in (ann, bob))
    assert fragments.stats["misses"] == 2
    assert 'data-player="Ann"' in ann_sheet.split("Your board")[0].rsplit("<details", 1)[1]
    assert 'data-player="Bob"' in bob_sheet.split("Your board")[0].rsplit("<details", 1)[1]


def test_play_is_the_sheet_and_the_form_in_one_answer(table):
    table.host.enter(table.id, {0: 5, 1: 3})
    body = fragment(table.bob, table.id, "play")
    assert body.lstrip().startswith('<div id="play"')
    assert 'id="sheet"' in body and 'id="entry-form"' in body and "<html" not in body
    version = attr(body, "[data-version]", "data-version")
    r = table.bob.get(f"/t/{table.id}/play?since={version}", hx=True)
    assert r.status_code == 204
    r = table.bob.get(f"/t/{table.id}/play")          # not htmx: back to the page
    assert r.status_code == 303


def trigger(body: str) -> str:
    return attr(body, "#play", "hx-trigger")


def test_the_writer_and_the_others_share_one_rendering_of_the_new_version(table, new_phone):
    """An entry's answer is the copy every seated phone's refresh gets at the new version,
    with the writer's notice and one catch-up refresh (`load`) in its slots: a
    table draws each version once, not once for the writer and once for the others."""
    watcher = new_phone("Watcher")
    assert watcher.join(table.join_path).status_code == 303
    table.host.enter(table.id, {0: 5, 1: 3})
    fragments.clear()
    r = table.host.enter(table.id, {0: 7, 1: 2})
    mine = r.get_data(as_text=True)
    assert r.status_code == 200 and fragments.stats == {"hits": 0, "misses": 1}
    saved = seq_saved(r)
    assert trigger(mine).rstrip().endswith(", load")
    bob = fragment(table.bob, table.id, "play")
    assert fragments.stats == {"hits": 1, "misses": 1}
    assert "Saved as entry" not in bob and "load" not in trigger(bob)
    assert ">7<" in bob and "\x00" not in mine + bob
    ann, bob_form = (inputs(form_block(h, 'id="entry-form"')) for h in (mine, bob))
    assert ann["csrf_token"].split(".")[0] == table.host.csrf().split(".")[0]
    assert bob_form["csrf_token"].split(".")[0] == table.bob.csrf().split(".")[0]
    assert ann["sid"] != bob_form["sid"]
    # Bob's next entry is made from the shared form and saved; Ann's from hers conflicts.
    r = table.bob.enter(table.id, {0: 1}, form=bob_form)
    assert r.status_code == 200 and seq_saved(r) == saved + 1
    assert table.host.enter(table.id, {0: 1}, form=ann).status_code == 409
    # A spectator's copy is its own (no undo, no form), without anybody's notice.
    watching = fragment(watcher, table.id, "play")
    assert 'id="undo-last"' not in watching and "Saved as entry" not in watching


def test_a_refused_entry_is_drawn_for_the_writer_alone(table):
    """A refusal keeps what was typed and marks the form: never from a shared copy, and
    it leaves nothing in one."""
    fragments.clear()
    r = table.host.enter(table.id, {0: "abc", 1: 2})
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and fragments.stats == {"hits": 0, "misses": 0}
    assert 'value="abc"' in body and "hx-morph-skip" in body
    assert "load" in trigger(body)
    bob = fragment(table.bob, table.id, "play")
    assert 'value="abc"' not in bob and "notice" not in bob.split('id="entry"')[1]
