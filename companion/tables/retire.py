"""Tables that no longer count: retiring them, and forgetting tables altogether.

An event's director may unseat a round before play begins and seat it again on new
tables. The old tables must not grow the database without bound, nor keep a phone
playing at a table whose result nobody reads: a table that no phone ever opened is
deleted outright (nobody can be looking at it), one that a phone opened is *retired*
(`tables.retired_at`): it takes no more entries, and every phone on it is told why at
once (its version is bumped and published, so the live refresh draws the banner).
`companion prune` forgets retired tables later (:mod:`.prune`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import sqlite_utils

from companion.clock import now

from . import live
from .service import _bump

#: Every table that holds rows of a companion table (by `table_id`), children first: what
#: forgetting a table deletes. A new table referencing tables.id belongs here.
TABLE_ROWS = ("changes", "table_fold_pasts", "table_folds", "actions", "phones", "seats")
BATCH = 200


def forget_tables(db: sqlite_utils.Database, table_ids: Sequence[str]) -> int:
    """Delete these tables with everything they hold (seats, phones, log, stored folds,
    live changes), inside the caller's write transaction. Returns how many went."""
    gone = 0
    for start in range(0, len(table_ids), BATCH):
        batch = list(table_ids[start:start + BATCH])
        marks = ", ".join("?" for _ in batch)
        for name in TABLE_ROWS:
            db.execute(f"DELETE FROM {name} WHERE table_id IN ({marks})", batch)
        gone += db.execute(f"DELETE FROM tables WHERE id IN ({marks})", batch).rowcount
    return gone


def retire_tables(db: sqlite_utils.Database, table_ids: Iterable[str], reason: dict
                  ) -> list[tuple[str, int]]:
    """Take these tables out of play, inside the caller's write transaction: a table no
    phone ever opened is deleted, any other is retired with `reason` (e.g. ``{"round":
    2}``) and its version bumped. Returns (table id, new version) of each retired table:
    the caller publishes them (:func:`publish`) after its commit."""
    ids = list(table_ids)
    if not ids:
        return []
    opened: set[str] = set()
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        marks = ", ".join("?" for _ in batch)
        opened |= {row[0] for row in db.execute(
            f"SELECT DISTINCT table_id FROM phones WHERE table_id IN ({marks})", batch)}
    forget_tables(db, [t for t in ids if t not in opened])
    retired, moment, why = [], now(), json.dumps(reason)
    for table_id in ids:
        if table_id in opened:
            db.execute("UPDATE tables SET retired_at = ?, retired_reason = ? WHERE id = ?",
                       [moment, why, table_id])
            retired.append((table_id, _bump(db, table_id)))
    return retired


def publish(versions: Iterable[tuple[str, int]]) -> None:
    """Wake the phones of the tables :func:`retire_tables` retired (after the commit)."""
    for table_id, version in versions:
        live.publish(table_id, version)


__all__ = ["TABLE_ROWS", "forget_tables", "publish", "retire_tables"]
