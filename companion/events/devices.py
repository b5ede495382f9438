"""Who directs an event: every browser directing it is a director device, named, listed on
the dashboard and revocable. A director link lets another device in: it works once, within
:data:`LINK_MINUTES`, and only its hash is stored. Every change here is in the director's
log (kind "director").
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.rules.game import clean_name
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import tokens

from .event import Event, director_hash, log_change, new_device_id, touch

LINK_MINUTES = 15        # a director link works once, within this many minutes
SEEN_EVERY = 60.0        # seconds: "last seen" is written at most this often per device
MAX_DEVICE_NAME = 40


def director_device(db: sqlite_utils.Database, event: Event, secret: str | None
                    ) -> dict | None:
    """The director device whose secret this is (the phone's one cookie), revoked or not:
    device_id, name, creator, created_at, seen_at, revoked_at. None for anyone else."""
    if not secret:
        return None
    row = db.execute("SELECT device_id, name, creator, created_at, seen_at, revoked_at"
                     " FROM event_directors WHERE secret_hash = ? AND event_id = ?",
                     [director_hash(secret, event.id), event.id]).fetchone()
    return dict(row) if row is not None else None


def is_director(db: sqlite_utils.Database, event: Event, secret: str | None) -> bool:
    """Whether `secret` (the phone's cookie) directs this event: the browser that created
    it, or one that opened a director link, and not revoked since."""
    device = director_device(db, event, secret)
    return device is not None and device["revoked_at"] is None


def directs_table(db: sqlite_utils.Database, table: tables.Table, secret: str | None) -> bool:
    """Whether `secret` directs the event `table` belongs to (False for a table of no
    event): the director opening one of the event's tables watches it (with the host
    tools), never asked "Who are you?"."""
    if table.event_id is None or not secret:
        return False
    row = db.execute("SELECT 1 FROM event_directors WHERE secret_hash = ? AND event_id = ?"
                     " AND revoked_at IS NULL",
                     [director_hash(secret, table.event_id), table.event_id]).fetchone()
    return row is not None


def _later(minutes: int) -> str:
    return (datetime.now(timezone.utc) + timedelta(minutes=minutes)).isoformat(
        timespec="milliseconds")


def director_devices(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The devices directing the event now, oldest first: device_id, name ('' until the
    director names it), creator (the browser that created the event), created_at, seen_at."""
    rows = db.execute("SELECT device_id, name, creator, created_at, seen_at FROM"
                      " event_directors WHERE event_id = ? AND revoked_at IS NULL"
                      " ORDER BY created_at, rowid", [event.id]).fetchall()
    return [dict(r) for r in rows]


def mark_seen(db: sqlite_utils.Database, event: Event, device: dict) -> None:
    """Note that this director device was just used; written at most once a minute per
    device, so a dashboard polled every few seconds doesn't write each time."""
    seen = device.get("seen_at")
    if seen and time.time() - _epoch(seen) < SEEN_EVERY:
        return
    with transaction(db):
        db.execute("UPDATE event_directors SET seen_at = ? WHERE event_id = ? AND device_id = ?",
                   [now(), event.id, device["device_id"]])


def _epoch(stamp: str) -> float:
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return 0.0


def _device_facts(row) -> dict:
    """What the audit keeps of a device: enough to name it on the dashboard."""
    return {"device": row["device_id"], "name": row["name"], "creator": bool(row["creator"])}


def new_director_link(db: sqlite_utils.Database, event: Event, *, keep: bool = False,
                      by: str | None = None, who: str = "") -> str:
    """A new director link for another device: it works once, within LINK_MINUTES. Any
    earlier link ends, and unless `keep`, every device that joined through a link stops
    directing (the creating browser and `by`, the device asking, stay). Only the token's
    hash is stored: the token is shown once, to the director. Audited (kind "director")."""
    token = tokens.new_token()
    with transaction(db):
        stamp = now()
        db.execute("UPDATE director_links SET ended_at = ? WHERE event_id = ? AND ended_at IS NULL",
                   [stamp, event.id])
        revoked = []
        if not keep:
            revoked = db.execute("SELECT device_id, name, creator FROM event_directors"
                                 " WHERE event_id = ? AND revoked_at IS NULL AND creator = 0"
                                 " AND device_id != ?", [event.id, by or ""]).fetchall()
            db.execute("UPDATE event_directors SET revoked_at = ? WHERE event_id = ? AND"
                       " revoked_at IS NULL AND creator = 0 AND device_id != ?",
                       [stamp, event.id, by or ""])
        cur = db.execute("INSERT INTO director_links (event_id, token_hash, created_at, expires_at)"
                         " VALUES (?, ?, ?, ?)",
                         [event.id, tokens.hash_secret(token), stamp, _later(LINK_MINUTES)])
        log_change(db, event, "director", None, None, who, "", None,
                   {"action": "link", "link": cur.lastrowid, "kept": keep,
                    "revoked": [_device_facts(r) for r in revoked]})
        touch(db, event.id)
    return token


def join_as_director(db: sqlite_utils.Database, event: Event, token: str,
                     secret: str | None = None) -> str:
    """A browser opened a director link: the phone holding `secret` (its one cookie; a new
    secret when None) becomes a director device, and the link is used up. Returns the
    secret. NotFound for a wrong link, one already used, ended by a newer one or expired:
    all look alike to whoever holds it."""
    wanted = tokens.hash_secret((token or "").strip().upper())
    secret = secret or tokens.new_secret()
    with transaction(db):
        stamp = now()
        row = db.execute("SELECT id FROM director_links WHERE token_hash = ? AND event_id = ?"
                         " AND used_at IS NULL AND ended_at IS NULL AND expires_at > ?",
                         [wanted, event.id, stamp]).fetchone()
        if row is None:
            raise tables.NotFound(N_("This director link is used, old or wrong. Ask the "
                                     "director for a new one."))
        db.execute("UPDATE director_links SET used_at = ?, ended_at = ? WHERE id = ?",
                   [stamp, stamp, row[0]])
        hashed = director_hash(secret, event.id)
        # A device already directing stays as it is; a revoked one the director lets in
        # again comes back under its old name, as a device of this link.
        db.execute("INSERT INTO event_directors (secret_hash, event_id, created_at, device_id,"
                   " link_id, seen_at) VALUES (?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT (secret_hash) DO UPDATE SET revoked_at = NULL,"
                   " link_id = excluded.link_id, seen_at = excluded.seen_at"
                   " WHERE revoked_at IS NOT NULL",
                   [hashed, event.id, stamp, new_device_id(), row[0], stamp])
        device = db.execute("SELECT device_id, name, creator FROM event_directors"
                            " WHERE secret_hash = ?", [hashed]).fetchone()
        log_change(db, event, "director", None, None, device["name"], "", None,
                   {"action": "join", "link": row[0], **_device_facts(device)})
        tables.places.note(db, secret, tables.places.EVENT, event.id)
        touch(db, event.id)
    return secret


def _active_device(db, event: Event, device_id: str):
    row = db.execute("SELECT device_id, name, creator FROM event_directors WHERE event_id = ?"
                     " AND device_id = ? AND revoked_at IS NULL",
                     [event.id, (device_id or "")[:32]]).fetchone()
    if row is None:
        raise ValueError(N_("That device doesn't direct this event (any more)."))
    return row


def rename_director_device(db: sqlite_utils.Database, event: Event, device_id: str,
                           name: str, who: str = "") -> None:
    """Give a director device a name the director recognises ("Desk laptop"). Audited."""
    name = clean_name(name or "")
    if not name:
        raise ValueError(N_("Give the device a name, e.g. Desk laptop."))
    if len(name) > MAX_DEVICE_NAME:
        raise ValueError(message("tournament", "A device name has at most {most} characters.",
                                 most=MAX_DEVICE_NAME))
    with transaction(db):
        row = _active_device(db, event, device_id)
        if row["name"] == name:
            return
        db.execute("UPDATE event_directors SET name = ? WHERE event_id = ? AND device_id = ?",
                   [name, event.id, row["device_id"]])
        log_change(db, event, "director", None, None, who, "", _device_facts(row),
                   {"action": "rename", **_device_facts(row), "name": name})
        touch(db, event.id)


def revoke_director_device(db: sqlite_utils.Database, event: Event, device_id: str, *,
                           by: str | None, confirmed: bool = False, who: str = "") -> None:
    """Stop a device directing the event: from its next request it gets 403 on every
    director's page and tool. The last device directing can't be revoked (nobody could
    run the event then), and the device asking (`by`) revokes itself only when
    `confirmed`. Audited."""
    with transaction(db):
        row = _active_device(db, event, device_id)
        count = db.execute("SELECT COUNT(*) FROM event_directors WHERE event_id = ? AND"
                           " revoked_at IS NULL", [event.id]).fetchone()[0]
        if count <= 1:
            raise ValueError(N_("This is the only device directing the event: it can't be "
                                "revoked."))
        if row["device_id"] == by and not confirmed:
            raise ValueError(N_("That is the device you are using. Tick “Yes, stop directing "
                                "from this device” to revoke it."))
        db.execute("UPDATE event_directors SET revoked_at = ? WHERE event_id = ? AND"
                   " device_id = ?", [now(), event.id, row["device_id"]])
        log_change(db, event, "director", None, None, who, "", None,
                   {"action": "revoke", **_device_facts(row)})
        touch(db, event.id)
