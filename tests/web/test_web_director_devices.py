"""Director devices, through the Flask test client: the dashboard lists every browser
directing the event (the creating one and each that opened a director link), with a name the
director gives it, when it was added and last seen; each can be revoked (it gets 403 on every
director route at once, the table host tools of the event's tables included); the device in
use revokes itself only when confirmed, the last one never. A director link works once and
for LINK_MINUTES; a new link ends the previous one and revokes the devices that came through
links unless the director keeps them. Every change is in the audit (kind "director")."""
from __future__ import annotations

import json
import re
import sqlite3
import threading

import pytest
from helpers import attrs, select, text_of
from test_web_events import create_event, seat_round, seatings
from web_helpers import Phone, db_rows, make_app

from companion.tables.tokens import hash_secret
from companion.events.devices import (director_devices, rename_director_device,
                                      revoke_director_device)
from companion.events.event import director_hash, get_event


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def link_path(director: Phone, event_id: str, keep: bool = False) -> str:
    """Make a new director link on the dashboard; its path and fragment
    ("/e/<id>/director#<TOKEN>"), read from the dashboard the POST redirects to (the link
    is shown there once)."""
    r = director.post(f"/e/{event_id}/director-link", {"keep": "on"} if keep else {})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:1500]
    assert r.headers["Location"].endswith(f"/e/{event_id}#director-link")
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "QR code of the director" in page and "15 minutes" in text_of(page)
    hrefs = attrs(page, "a#director-url", "href")
    match = hrefs and re.fullmatch(rf"https?://[^/]+(/e/{event_id}/director#[A-Z2-7]{{32}})",
                                   hrefs[0])
    assert match, hrefs
    return match.group(1)


def devices(db_path: str, event_id: str) -> list[tuple]:
    """(device_id, name, creator, revoked) of every director row, oldest first."""
    return db_rows(db_path, "SELECT device_id, name, creator, revoked_at IS NOT NULL FROM"
                   " event_directors WHERE event_id = ? ORDER BY created_at, rowid", [event_id])


def device_of(phone: Phone, db_path: str, event_id: str) -> str:
    (device,), = db_rows(db_path, "SELECT device_id FROM event_directors WHERE secret_hash = ?",
                         [director_hash(phone.secret(), event_id)])
    return device


def listed(page: str) -> list[str]:
    """The names the dashboard's device list shows, in order."""
    return [li.select_one("strong").text.strip() for li in select(page, "li.director-device")]


def director_audit(db_path: str, event_id: str) -> list[dict]:
    return [json.loads(new) for (new,) in db_rows(
        db_path, "SELECT new FROM event_audit WHERE event_id = ? AND kind = 'director'"
        " ORDER BY id", [event_id])]


def devices_post(phone: Phone, event_id: str, **data):
    return phone.post(f"/e/{event_id}/director-devices", data)


def test_devices_are_listed_named_and_revoked_with_403_everywhere(director, new_phone, db_path):
    event_id = create_event(director)
    seat_round(director, event_id)
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert listed(page) == ["The browser that created the event"]
    assert "this device" in text_of(page)
    laptop = new_phone("laptop")
    r = laptop.join(link_path(director, event_id))
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/e/{event_id}")
    page = laptop.get(f"/e/{event_id}").get_data(as_text=True)
    assert listed(page) == ["The browser that created the event",
                            "A device that opened a director link"]
    # Both devices show when they were added and last seen.
    assert len(select(page, "li.director-device time")) == 4
    laptop_id = device_of(laptop, db_path, event_id)
    assert devices_post(director, event_id, action="rename", device=laptop_id,
                        name="  Desk   laptop ").status_code == 303
    assert listed(director.get(f"/e/{event_id}").get_data(as_text=True))[1] == "Desk laptop"
    for bad, words in (("", "Give the device a name"), ("x" * 41, "at most 40")):
        r = devices_post(director, event_id, action="rename", device=laptop_id, name=bad)
        assert r.status_code == 422 and words in text_of(r.get_data(as_text=True))
    # The laptop directs: the dashboard, a director's write, an event table's host tools.
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)[:1]
    urls = [f"/e/{event_id}", f"/e/{event_id}/cards", f"/e/{event_id}/results.csv",
            f"/e/{event_id}/standings.csv"]
    for url in urls:
        assert laptop.get(url).status_code == 200, url
    assert laptop.post(f"/e/{event_id}/clock", {"action": "start", "minutes": "30"}
                       ).status_code == 303
    for phone in (laptop, director):          # both open table 1 from its card
        assert phone.get(f"/e/{event_id}/t/1").status_code in (200, 303)
        assert phone.get(f"/t/{table_id}").status_code == 200
    assert laptop.post(f"/t/{table_id}/host/rejoin", {"seat": "0"}).status_code == 200
    # Revoked: 403 on every director's route at once, and no host tools at its tables.
    assert devices_post(director, event_id, action="revoke", device=laptop_id).status_code == 303
    for url in urls:
        r = laptop.get(url)
        assert r.status_code == 403 and "revoked" in text_of(r.get_data(as_text=True)), url
    for url, data in ((f"/e/{event_id}/clock", {"action": "pause"}),
                      (f"/e/{event_id}/director-link", {}),
                      (f"/e/{event_id}/director-devices",
                       {"action": "rename", "device": laptop_id, "name": "Mine"}),
                      (f"/e/{event_id}/seat", {})):
        assert laptop.post(url, data).status_code == 403, url
    assert laptop.post(f"/t/{table_id}/host/rejoin", {"seat": "0"}).status_code == 403
    assert director.post(f"/t/{table_id}/host/rejoin", {"seat": "0"}).status_code == 200
    assert listed(director.get(f"/e/{event_id}").get_data(as_text=True)) == [
        "The browser that created the event"]
    assert [(a["action"], a.get("name")) for a in director_audit(db_path, event_id)] == [
        ("link", None), ("join", ""), ("rename", "Desk laptop"), ("revoke", "Desk laptop")]
    audit = text_of(director.get(f"/e/{event_id}").get_data(as_text=True), "#audit")
    assert "Revoked the director device Desk laptop." in audit
    assert "Named a director device “Desk laptop”." in audit


def test_the_device_in_use_needs_a_confirmation_and_the_last_one_stays(director, new_phone,
                                                                       db_path):
    event_id = create_event(director)
    me = device_of(director, db_path, event_id)
    # The only device: never revoked, even confirmed.
    r = devices_post(director, event_id, action="revoke", device=me, confirm="yes")
    assert r.status_code == 422 and "only device" in text_of(r.get_data(as_text=True))
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert not select(page, "form.revoke-device")          # no Revoke button to tap
    helper = new_phone("helper")
    assert helper.join(link_path(director, event_id)).status_code == 303
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    mine = select(page, f"li#device-{me} form.revoke-device")[0]
    assert mine.select_one('input[name="confirm"][required]') is not None
    # Without the tick: refused, nothing changes.
    r = devices_post(director, event_id, action="revoke", device=me)
    assert r.status_code == 422 and "device you are using" in text_of(r.get_data(as_text=True))
    assert director.get(f"/e/{event_id}").status_code == 200
    # Confirmed: this device stops directing and lands on the public standings.
    r = devices_post(director, event_id, action="revoke", device=me, confirm="yes")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/e/{event_id}/standings")
    assert director.get(f"/e/{event_id}").status_code == 403
    assert helper.get(f"/e/{event_id}").status_code == 200
    # Unknown or already revoked devices: a plain 422, no 500.
    for device in (me, "nope", "x" * 500):
        r = devices_post(helper, event_id, action="revoke", device=device)
        assert r.status_code == 422, device
    assert devices_post(helper, event_id, action="explode", device=me).status_code == 400


def test_a_new_link_revokes_link_devices_unless_kept(director, new_phone, db_path):
    event_id = create_event(director)
    first, second, third = new_phone("first"), new_phone("second"), new_phone("third")
    assert first.join(link_path(director, event_id)).status_code == 303
    # Kept: the first device stays while the second joins.
    assert second.join(link_path(director, event_id, keep=True)).status_code == 303
    assert first.get(f"/e/{event_id}").status_code == 200
    assert second.get(f"/e/{event_id}").status_code == 200
    # A helper makes a link without keeping: every link device but itself is revoked;
    # the creating browser stays.
    assert third.join(link_path(second, event_id)).status_code == 303
    assert first.get(f"/e/{event_id}").status_code == 403
    assert second.get(f"/e/{event_id}").status_code == 200
    assert director.get(f"/e/{event_id}").status_code == 200
    # The director makes one more and keeps nobody: the helpers go, the director stays.
    link_path(director, event_id)
    assert second.get(f"/e/{event_id}").status_code == 403
    assert third.get(f"/e/{event_id}").status_code == 403
    assert director.get(f"/e/{event_id}").status_code == 200
    assert [row[2:] for row in devices(db_path, event_id)] == [(1, 0), (0, 1), (0, 1), (0, 1)]
    links = [a for a in director_audit(db_path, event_id) if a["action"] == "link"]
    assert [(a["kept"], len(a["revoked"])) for a in links] == [
        (False, 0), (True, 0), (False, 1), (False, 2)]
    # A revoked device the director lets in again comes back (same row, directing).
    assert first.join(link_path(director, event_id)).status_code == 303
    assert first.get(f"/e/{event_id}").status_code == 200
    assert len(devices(db_path, event_id)) == 4


def test_a_link_works_once_expires_and_ends_with_a_newer_one(director, new_phone, db_path):
    event_id = create_event(director)
    path = link_path(director, event_id)
    token = path.rsplit("#", 1)[1]
    # Only the token's hash is stored.
    (stored,), = db_rows(db_path, "SELECT token_hash FROM director_links WHERE event_id = ?",
                         [event_id])
    assert stored == hash_secret(token)
    assert token not in repr(db_rows(db_path, "SELECT * FROM director_links"))
    assert new_phone("tablet").join(path[:-32] + token.lower()).status_code == 303  # lower case ok
    # Used once: a second browser with the same link (a copy from a log) gets a 404.
    late = new_phone("late")
    r = late.join(path)
    assert r.status_code == 404 and "used, old or wrong" in text_of(r.get_data(as_text=True))
    assert late.get(f"/e/{event_id}").status_code == 403 and late.cookie("tc") is None
    # A newer link ends an unused older one.
    older, newer = link_path(director, event_id, keep=True), link_path(director, event_id,
                                                                        keep=True)
    assert late.join(older).status_code == 404
    # Expired: past LINK_MINUTES it opens nothing.
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE director_links SET expires_at = '2000-01-01T00:00:00.000+00:00'"
                     " WHERE ended_at IS NULL")
    conn.close()
    assert late.join(newer).status_code == 404
    assert late.get(f"/e/{event_id}").status_code == 403
    assert late.join(f"/e/{event_id}/director#" + "A" * 32).status_code == 404
    assert late.join(f"/e/{event_id}/director#" + "A" * 65).status_code == 404
    fresh = link_path(director, event_id, keep=True)
    assert late.join(fresh).status_code == 303 and late.get(f"/e/{event_id}").status_code == 200
    (expires, created), = db_rows(db_path, "SELECT expires_at, created_at FROM director_links"
                                  " ORDER BY id DESC LIMIT 1")
    assert expires > created
    # Shown once: a reload of the dashboard shows no link and makes none.
    count = len(db_rows(db_path, "SELECT id FROM director_links"))
    for _ in range(2):
        page = director.get(f"/e/{event_id}").get_data(as_text=True)
        assert not attrs(page, "a#director-url", "href")
    assert len(db_rows(db_path, "SELECT id FROM director_links")) == count


def test_strangers_cannot_list_name_revoke_or_make_links(director, new_phone, db_path):
    event_id = create_event(director)
    me = device_of(director, db_path, event_id)
    stranger = new_phone("stranger")
    assert stranger.get(f"/e/{event_id}").status_code == 403
    assert stranger.post(f"/e/{event_id}/director-link").status_code == 403
    for action in ("rename", "revoke"):
        r = devices_post(stranger, event_id, action=action, device=me, name="Mine", confirm="yes")
        assert r.status_code == 403
    assert devices(db_path, event_id) == [(me, "", 1, 0)]
    # Without the CSRF token even the director's own post is refused.
    assert director.post(f"/e/{event_id}/director-devices",
                         {"action": "revoke", "device": me}, csrf=False).status_code == 400


def test_last_seen_is_written_at_most_once_a_minute(director, new_phone, db_path):
    event_id = create_event(director)
    (seen,), = db_rows(db_path, "SELECT seen_at FROM event_directors WHERE event_id = ?",
                       [event_id])
    for _ in range(3):
        assert director.get(f"/e/{event_id}", hx=True).status_code == 200
    assert db_rows(db_path, "SELECT seen_at FROM event_directors WHERE event_id = ?",
                   [event_id]) == [(seen,)]
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE event_directors SET seen_at = '2020-01-01T00:00:00.000+00:00'")
    conn.close()
    assert director.get(f"/e/{event_id}", hx=True).status_code == 200
    (later,), = db_rows(db_path, "SELECT seen_at FROM event_directors WHERE event_id = ?",
                        [event_id])
    assert later >= seen and not later.startswith("2020")


def test_the_migration_keeps_creators_and_link_devices(tmp_path):
    """An install from before: the creating browser (events.secret_hash) and a browser that
    opened the old everlasting link become devices; the old link stops working."""
    from companion.storage.migrations import migrations
    import sqlite_utils

    path = tmp_path / "old.db"
    db = sqlite_utils.Database(str(path))
    migrations.apply(db, stop_before="m012_director_devices_and_phone_keys")
    db.execute("INSERT INTO events (id, name, game, settings, options, rounds, secret_hash,"
               " created_at, director_token_hash) VALUES ('ev', 'Old', 'scorepad', '{}', '{}', 2,"
               " 'creator-hash', '2026-01-01T00:00:00.000+00:00', 'old-link')")
    db.execute("INSERT INTO event_directors (secret_hash, event_id, created_at)"
               " VALUES ('helper-hash', 'ev', '2026-01-02T00:00:00.000+00:00')")
    db.conn.commit()
    migrations.apply(db)
    rows = db.execute("SELECT secret_hash, creator, revoked_at, length(device_id) FROM"
                      " event_directors ORDER BY created_at").fetchall()
    assert rows == [("creator-hash", 1, None, 16), ("helper-hash", 0, None, 16)]
    assert db.execute("SELECT director_token_hash FROM events").fetchall() == [(None,)]
    # Events existed: secrets from before are converted once (see test_web_cookies).
    assert db.execute("SELECT name FROM app_flags").fetchall() == [("legacy_secrets",)]
    db.conn.close()
    fresh = sqlite_utils.Database(str(tmp_path / "new.db"))
    migrations.apply(fresh)
    assert fresh.execute("SELECT COUNT(*) FROM app_flags").fetchone() == (0,)
    fresh.conn.close()


def test_director_devices_service_refuses_plainly(app, director, db_path):
    event_id = create_event(director)
    with app.app_context():
        from companion.storage import get_db
        db = get_db()
        event = get_event(db, event_id)
        with pytest.raises(ValueError):
            rename_director_device(db, event, "nope", "Laptop")
        with pytest.raises(ValueError):
            revoke_director_device(db, event, "nope", by=None)
        assert [d["creator"] for d in director_devices(db, event)] == [1]


def _at_once(calls) -> list:
    """Run every call on its own thread, released together; their answers' status codes."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        results[i] = call().status_code

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_six_browsers_opening_one_link_at_once_make_one_director(director, new_phone, db_path):
    event_id = create_event(director)
    path = link_path(director, event_id)
    browsers = [new_phone(f"browser{i}") for i in range(6)]
    for b in browsers:
        b.csrf()        # each has its form token before the race
    statuses = _at_once([lambda b=b: b.join(path) for b in browsers])
    assert sorted(statuses) == [303] + [404] * 5, statuses
    assert len(devices(db_path, event_id)) == 2
    assert sorted(b.get(f"/e/{event_id}").status_code for b in browsers) == [200] + [403] * 5


def test_two_devices_revoking_each_other_at_once_leave_one(director, new_phone, db_path):
    event_id = create_event(director)
    helper = new_phone("helper")
    assert helper.join(link_path(director, event_id)).status_code == 303
    mine, theirs = device_of(director, db_path, event_id), device_of(helper, db_path, event_id)
    director.csrf(), helper.csrf()
    statuses = _at_once([
        lambda: devices_post(director, event_id, action="revoke", device=theirs),
        lambda: devices_post(helper, event_id, action="revoke", device=mine)])
    assert sorted(statuses) == [303, 422] or sorted(statuses) == [303, 403], statuses
    active = [d for d in devices(db_path, event_id) if not d[3]]
    assert len(active) == 1
