"""The start page's "Your tables" (companion/tables/places.py, templates/_places.html): every
table this phone hosts, sits at or watches and every event it directs or plays in, newest
played first, one tap back; finished ones folded away; removable from the list (the seat
stays). Another phone sees none of them; an install from before the list finds a phone's
older tables through its cookie (migration m015)."""
from __future__ import annotations

import json
import sqlite3

from companion.clock import now
from companion.storage.migrations import migrations
from companion.storage.db import connect
from companion.tables import tokens
from companion.web import cookies
from helpers import attr, select, select_one, text_of
from web_helpers import Phone, make_app

from test_web_events import create_event


def places(phone: Phone) -> list[dict]:
    """The start page's list as (ref, role, text, folded), newest first."""
    page = phone.get("/").get_data(as_text=True)
    rows = []
    for li in select(page, "#your-tables li.place"):
        rows.append({"ref": li.get("data-ref"), "kind": li.get("data-kind"),
                     "role": li.get("data-role"), "href": attr(li, "a.place-link", "href"),
                     "text": text_of(li).replace(" ,", ","), "folded": li.find_parent("details") is not None})
    return rows


def remove(phone: Phone, kind: str, ref: str):
    return phone.post("/places/remove", {"kind": kind, "ref": ref})


def test_a_new_browser_sees_the_start_page_as_before(new_phone):
    page = new_phone().get("/").get_data(as_text=True)
    assert select(page, "#your-tables") == []
    assert select_one(page, "a.button.primary.big") is not None


def test_host_guest_and_spectator_each_see_the_table_and_a_stranger_does_not(table, new_phone,
                                                                            db_path):
    table.host.enter(table.id, {0: 12, 1: 7, 2: 3})
    [mine] = places(table.host)
    assert (mine["ref"], mine["role"], mine["href"]) == (table.id, "host", f"/t/{table.id}")
    assert "Score pad" in mine["text"] and "Ann, Bob, Cy" in mine["text"]
    assert "Ann 12 · Bob 7 · Cy 3" in mine["text"] and "Last played" in mine["text"]
    [bobs] = places(table.bob)
    assert (bobs["ref"], bobs["role"]) == (table.id, "seat")
    watcher = new_phone("Dee")
    assert watcher.join(table.join_path).status_code == 303     # watches, takes no seat
    assert [(p["ref"], p["role"]) for p in places(watcher)] == [(table.id, "watch")]
    stranger = new_phone("Eve")
    stranger.create_table(["Eve", "Fay"])       # a phone with tables of its own
    assert table.id not in [p["ref"] for p in places(stranger)]
    assert remove(stranger, "table", table.id).status_code == 404
    assert [p["ref"] for p in places(table.host)] == [table.id]     # untouched
    with sqlite3.connect(db_path) as conn:      # a new install has no older tables to find
        assert conn.execute("SELECT COUNT(*) FROM phone_places_scanned").fetchone() == (0,)


def test_one_phone_keeping_score_alone_gets_back_to_its_table(new_phone):
    solo = new_phone("Mom")
    table_id = solo.create_table(["Mom", "Dad", "Leo", "Mia"], me=0)
    solo.enter(table_id, {0: 5, 1: 9, 2: 0, 3: 2})
    again = solo.clone("Mom, browser reopened")     # the same cookies, a new session
    [place] = places(again)
    assert place["role"] == "host" and "Mom, Dad, Leo, Mia" in place["text"]
    page = again.page(table_id)
    assert select_one(page, "#entry-form") is not None


def test_newest_played_first_and_finished_ones_fold_away(new_phone):
    ann = new_phone("Ann")
    first = ann.create_table(["Ann", "Bob"], target=50)
    second = ann.create_table(["Ann", "Cy"], target=50)
    done = ann.create_table(["Ann", "Dee"], target=50)
    ann.enter(done, {0: 60, 1: 10})          # over: Ann reached 50
    assert [p["ref"] for p in places(ann)][:2] == [second, first]
    ann.enter(first, {0: 1, 1: 2})           # played last: on top
    rows = places(ann)
    assert [p["ref"] for p in rows] == [first, second, done]
    assert [p["folded"] for p in rows] == [False, False, True]
    page = ann.get("/").get_data(as_text=True)
    assert text_of(page, "details.places-done > summary") == "Finished (1)"
    assert "Won: Ann" in rows[2]["text"]


def test_a_removed_place_stays_removed_and_the_seat_stays(table):
    assert remove(table.bob, "table", table.id).status_code == 303
    assert places(table.bob) == []
    assert places(table.bob) == []
    assert select_one(table.bob.page(table.id), "#entry-form") is not None   # still seated
    assert remove(table.bob, "table", table.id).status_code == 303   # hidden again: no-op
    assert table.bob.join(table.join_path).status_code == 303       # joining lists it again
    assert [p["ref"] for p in places(table.bob)] == [table.id]


def test_removing_something_unknown_is_a_plain_404(new_phone, table):
    for data in ({"kind": "table", "ref": "nope"}, {"kind": "bogus", "ref": table.id}, {}):
        r = new_phone().post("/places/remove", data)
        assert r.status_code == 404
        assert "That isn't on this phone's list any more." in text_of(r.get_data(as_text=True))
    r = table.host.post("/places/remove", {"kind": "event", "ref": table.id})
    assert r.status_code == 404


def test_the_list_is_capped_and_counted(new_phone, monkeypatch):
    from companion.tables import places as module
    monkeypatch.setattr(module, "SHOWN", 2)
    monkeypatch.setattr(module.listing, "__defaults__", (2,))
    ann = new_phone("Ann")
    ids = [ann.create_table(["Ann", f"P{i}"]) for i in range(3)]
    rows = places(ann)
    assert [p["ref"] for p in rows] == ids[:0:-1]
    assert "The newest 2 of your 3 tables and events." in ann.get("/").get_data(as_text=True)


def test_director_and_player_see_their_event(new_phone):
    director = new_phone("Director")
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"])
    [place] = places(director)
    assert (place["kind"], place["role"], place["href"]) == ("event", "director", f"/e/{event_id}")
    assert "Club night" in place["text"] and "4 entrants" in place["text"]
    ann = new_phone("Ann")
    assert ann.pick(event_id, "Ann").status_code in (200, 303)
    [mine] = places(ann)
    assert (mine["role"], mine["href"]) == ("player", f"/e/{event_id}/players")
    assert "Ann" in mine["text"]
    assert places(new_phone("Stranger")) == []


def test_an_older_database_finds_the_phones_tables_on_its_first_visit(tmp_path):
    """A table and a phone made before m015 (rows written as the app then did) are found
    through the phone's cookie once the database is upgraded."""
    path = str(tmp_path / "test.db")
    db = connect(path)
    migrations.apply(db, stop_before="m015_phone_places")
    identity, key = tokens.new_secret(), tokens.new_secret()
    stamp = now()
    db.execute("INSERT INTO tables (id, token, code, game, settings, status, version, host_seat,"
               " created_at) VALUES ('old1', 'TOKEN1', 'ABCDEF', 'scorepad', ?, 'playing', 1, 0, ?)",
               [json.dumps({"target": 50}), stamp])
    for pos, name in enumerate(["Gran", "Kid"]):
        db.execute("INSERT INTO seats (table_id, pos, name) VALUES ('old1', ?, ?)", [pos, name])
    db.execute("INSERT INTO phones (table_id, secret_hash, seat, created_at, seen_at) VALUES"
               " ('old1', ?, 0, ?, ?)", [tokens.phone_hash(identity, "old1"), stamp, stamp])
    db.execute("INSERT INTO phone_keys (key_hash, identity, created_at) VALUES (?, ?, ?)",
               [cookies.key_hash(key), cookies._mask(key, identity.encode()).hex(), stamp])
    db.conn.commit()
    db.conn.close()
    app = make_app(tmp_path)                     # upgrades the database (m015)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM phone_places").fetchone()[0] == 0
    gran = Phone(app, "Gran")
    gran.client.set_cookie("tc", key)
    [place] = places(gran)
    assert (place["ref"], place["role"]) == ("old1", "host") and "Gran, Kid" in place["text"]
    assert places(Phone(app, "someone else")) == []
    assert [p["ref"] for p in places(gran)] == ["old1"]        # found once, kept
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM phone_places_scanned").fetchone()[0] == 1


def test_a_copy_of_the_database_cannot_tell_whose_tables_these_are(table, db_path):
    """The list keeps the promise of the scoped hashes (docs/SECURITY.md): no table id, no
    identity and no time in its rows, and the same table sealed differently per phone."""
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT * FROM phone_places").fetchall()
        columns = [r[1] for r in conn.execute("PRAGMA table_info(phone_places)")]
    assert columns == ["owner", "place", "sealed", "n", "hidden"]
    assert len(rows) == 2                                   # Ann's and Bob's place at it
    secrets_ = {table.host.secret(), table.bob.secret()}
    for row in rows:
        assert not any(table.id in str(v) or any(s in str(v) for s in secrets_) for v in row)
    assert len({row[2] for row in rows}) == 2 and len({row[0] for row in rows}) == 2
