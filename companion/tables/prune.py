"""Forgetting old tables: `companion prune --older-than 90d`.

Anyone can create a table, so the database would only grow. A table is removed when
nobody has opened it (nor entered, joined or changed a seat) for the given time and it is

- a table of no event whose game is over, or
- an event's table that belongs to no seating: retired when the director seated its round
  again (companion/tables/retire.py), or left over from a seating that failed.

An event's tables of a seating stay as long as their event: their sheets are its record,
and the event's results and standings never depend on a pruned table.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import sqlite_utils

from companion.storage import transaction

from .retire import forget_tables

#: How often a page view refreshes a table's opened_at (a GET writes at most this often).
OPENED_EVERY = timedelta(hours=1)
_AGE = re.compile(r"([1-9][0-9]{0,4})([dhw])")
_UNITS = {"d": "days", "h": "hours", "w": "weeks"}
BATCH = 200


def parse_age(text: str) -> timedelta:
    """"90d", "12w" or "36h" as a time span; ValueError in plain words otherwise."""
    match = _AGE.fullmatch((text or "").strip().lower())
    if not match:
        raise ValueError(f"{text!r} isn't an age: write a number and d, w or h, like 90d.")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def mark_opened(db: sqlite_utils.Database, table_id: str) -> None:
    """A phone opened the table's page: refresh `opened_at`, at most once an hour (so the
    page views of a busy table cost no writes)."""
    moment = datetime.now(timezone.utc)
    stale = (moment - OPENED_EVERY).isoformat(timespec="milliseconds")
    with transaction(db):
        db.execute("UPDATE tables SET opened_at = ? WHERE id = ? AND (opened_at IS NULL OR "
                   "opened_at < ?)", [moment.isoformat(timespec="milliseconds"), table_id,
                                      stale])


def _last_seen_sql() -> str:
    # The latest of: the page opened, an action (entries, seats, host moves), a phone
    # joining or sitting down, the table's creation. ISO 8601 UTC strings sort by time.
    return """MAX(COALESCE(t.opened_at, ''), t.created_at,
                  COALESCE((SELECT MAX(created_at) FROM actions a WHERE a.table_id = t.id), ''),
                  COALESCE((SELECT MAX(seen_at) FROM phones p WHERE p.table_id = t.id), ''))"""


def _stale_sql() -> str:
    # Finished tables of no event, and an event's tables no seating holds (no round's
    # results or standings read them), untouched since the cutoff (a retired table: since
    # it was retired too). A group's table stays: the group's record opens its sheet.
    return f"""t.group_id IS NULL AND ((t.status = 'over' AND t.event_id IS NULL) OR
                (t.event_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM event_seatings s
                                                        WHERE s.table_id = t.id)))
               AND MAX({_last_seen_sql()}, COALESCE(t.retired_at, '')) < ?"""


def stale_tables(db: sqlite_utils.Database, older_than: timedelta) -> list[str]:
    """Ids of the tables :func:`prune` removes: nobody has touched them for `older_than`,
    and they are finished tables of no event, or an event's tables in no seating."""
    cutoff = (datetime.now(timezone.utc) - older_than).isoformat(timespec="milliseconds")
    rows = db.execute(f"SELECT t.id FROM tables t WHERE {_stale_sql()} ORDER BY t.created_at",
                      [cutoff])
    return [row[0] for row in rows.fetchall()]


def prune(db: sqlite_utils.Database, older_than: timedelta, *, dry_run: bool = False) -> int:
    """Remove the tables :func:`stale_tables` finds, with their seats, phones, log, stored
    folds and live changes; returns how many. Each batch is one transaction, checked again
    inside it (a table opened or seated meanwhile stays)."""
    ids = stale_tables(db, older_than)
    if dry_run:
        return len(ids)
    cutoff = (datetime.now(timezone.utc) - older_than).isoformat(timespec="milliseconds")
    removed = 0
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        marks = ", ".join("?" for _ in batch)
        with transaction(db):
            still = [row[0] for row in db.execute(
                f"SELECT t.id FROM tables t WHERE t.id IN ({marks}) AND {_stale_sql()}",
                [*batch, cutoff]).fetchall()]
            removed += forget_tables(db, still)
    return removed


__all__ = ["OPENED_EVERY", "mark_opened", "parse_age", "prune", "stale_tables"]
