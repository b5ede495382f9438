"""The director's announcements: a short message to every phone of the event ("Round 3
starts in 5 minutes").

An announcement is a row of the director's log (kind "announce", its text as the row's
reason), so it is audited with everything else and needs no table of its own; the pages
show the latest few (:func:`latest`). The event's pages bring it with their own refresh,
as they bring the round clock; an event's tables hear of it through their live stream: a
row in ``changes`` under the key :func:`live_key` wakes them (companion.tables.live).
"""
from __future__ import annotations

import sqlite_utils

from companion.clock import now
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import live

from .event import Event, log_change

MAX_ANNOUNCEMENT = 200     # characters: a line or two on a phone, read at a glance
KEPT = 3                   # the latest announcements a page shows


def live_key(event_id: str) -> str:
    """The key an event's announcements wake live streams under (never a table's id:
    those have no colon)."""
    return f"event:{event_id}"


def announce(db: sqlite_utils.Database, event: Event, text: str, who: str) -> int:
    """Send `text` to every phone of the event (audited, kind "announce", under `who`, the
    name the log keeps, clipped as every row's); returns its id. Its spaces and line breaks
    fold to single spaces. Empty or longer than MAX_ANNOUNCEMENT: ValueError with a plain
    sentence."""
    text = " ".join((text or "").split())
    if not text:
        raise ValueError(N_("Type the announcement first."))
    if len(text) > MAX_ANNOUNCEMENT:
        raise ValueError(message("tournament", "An announcement holds at most {most} "
                                 "characters (this one has {n}).", most=MAX_ANNOUNCEMENT,
                                 n=len(text)))
    with transaction(db):
        log_change(db, event, "announce", None, None, who, text, None, {"text": text})
        number = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        db.execute("INSERT INTO changes (table_id, version, created_at) VALUES (?, ?, ?)",
                   [live_key(event.id), number, now()])
    live.publish(live_key(event.id), number)
    return number


def withdraw(db: sqlite_utils.Database, event: Event, number: int, who: str) -> None:
    """Withdraw announcement `number` (a mistake, or no longer true): the pages stop showing
    it and the event's tables hear of it as of a new one. The log keeps it, and a row of
    kind "unannounce" saying who withdrew it. ValueError when it isn't this event's or was
    withdrawn already."""
    with transaction(db):
        row = db.execute("SELECT why FROM event_audit WHERE event_id = ? AND id = ? AND"
                         " kind = 'announce'", [event.id, number]).fetchone()
        if row is None or number in _withdrawn(db, event.id):
            raise ValueError(N_("That announcement was withdrawn already. Reload the "
                                "dashboard."))
        log_change(db, event, "unannounce", None, None, who, row[0], {"text": row[0]},
                   {"id": number})
        version = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        db.execute("INSERT INTO changes (table_id, version, created_at) VALUES (?, ?, ?)",
                   [live_key(event.id), version, now()])
    live.publish(live_key(event.id), version)


def _withdrawn(db, event_id: str) -> set[int]:
    rows = db.execute("SELECT json_extract(new, '$.id') FROM event_audit WHERE event_id = ?"
                      " AND kind = 'unannounce'", [event_id]).fetchall()
    return {int(r[0]) for r in rows if r[0] is not None}


def latest(db: sqlite_utils.Database, event_id: str, count: int = KEPT) -> list[dict]:
    """The latest `count` announcements of event `event_id` not withdrawn, newest first:
    id, text, who, at."""
    rows = db.execute("SELECT id, why, who, created_at FROM event_audit WHERE event_id = ?"
                      " AND kind = 'announce' AND id NOT IN (SELECT json_extract(new, '$.id')"
                      " FROM event_audit WHERE event_id = ? AND kind = 'unannounce')"
                      " ORDER BY id DESC LIMIT ?",
                      [event_id, event_id, count]).fetchall()
    return [{"id": r["id"], "text": r["why"], "who": r["who"], "at": r["created_at"]}
            for r in rows]


def latest_id(db: sqlite_utils.Database, event_id: str) -> int:
    """The id of the event's newest announcement or withdrawal (0: none yet): what its
    tables' streams have heard of so far."""
    row = db.execute("SELECT MAX(id) FROM event_audit WHERE event_id = ? AND kind IN"
                     " ('announce', 'unannounce')", [event_id]).fetchone()
    return row[0] or 0
