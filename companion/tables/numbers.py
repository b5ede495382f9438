"""The numbers entries have on the sheet ("hand 6", "round 3"), read from the log.

The sheet numbers a game's hands or rounds itself (the rules' summary), but a history line
or a strike names one stored action: its number is how many live entries of a numbered
kind its game holds up to it. Only the log from the start of the game holding the oldest
asked-for action is read, however long the table's evening.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable

import sqlite_utils

from .service import GAME, REMATCH, ActionRow, _action_at

__all__ = ["action_at", "entry_numbers"]


def action_at(db: sqlite_utils.Database, table_id: str, seq: int) -> ActionRow | None:
    """Action ``seq`` of the table's log, or None."""
    return _action_at(db, table_id, seq)


def entry_numbers(db: sqlite_utils.Database, table_id: str, seqs: Iterable[int],
                  counts: Callable[[dict], bool]) -> dict[int, int]:
    """``{seq: number}`` for every live game action in ``seqs`` whose payload ``counts``
    (a numbered kind, e.g. a Rook hand, not a redeal): its place among its game's live
    numbered entries, 1 for the first. An entry struck, or waiting for the other team's
    confirmation, has no number (the sheet doesn't show it); neither has one the
    game's numbering doesn't count."""
    wanted = set(seqs)
    if not wanted:
        return {}
    low, high = min(wanted), max(wanted)
    row = db.execute("SELECT seq FROM actions WHERE table_id = ? AND kind = ? AND undone_by "
                     "IS NULL AND seq < ? ORDER BY seq DESC LIMIT 1",
                     [table_id, REMATCH, low]).fetchone()
    start = row[0] if row is not None else 0
    rows = db.execute("SELECT seq, kind, payload, undone_by, pending, confirmed_by FROM actions "
                      "WHERE table_id = ? AND seq > ? AND seq <= ? AND kind IN (?, ?) "
                      "AND undone_by IS NULL ORDER BY seq",
                      [table_id, start, high, GAME, REMATCH]).fetchall()
    numbers: dict[int, int] = {}
    count = 0
    for seq, kind, payload, _undone, pending, confirmed_by in rows:
        if kind == REMATCH:
            count = 0
            continue
        if pending and confirmed_by is None:
            continue
        try:
            payload = json.loads(payload)
        except (TypeError, ValueError):
            payload = None
        counted = isinstance(payload, dict) and counts(payload)
        if counted:
            count += 1
            if seq in wanted:
                numbers[seq] = count
    return numbers
