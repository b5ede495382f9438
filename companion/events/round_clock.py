"""The round clock: the director starts, pauses, resumes, extends or stops the clock of
the round being played; every page of the event shows it (see :func:`clock_state`).

The clock is stored as JSON in the event's row (``events.clock``) and worked out from the
time now whenever a page asks, so nothing ticks on the server.
"""
from __future__ import annotations

import json
import math
import time

import sqlite_utils

from companion.rules.said import N_, message
from companion.storage import transaction

from .event import Event, touch
from .rounds import Round, rounds

CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "stop")
DEFAULT_ROUND_MINUTES = 60
EXTEND_MINUTES = 5
MAX_CLOCK_MINUTES = 600


def _load_clock(text: str | None) -> dict | None:
    """The stored clock, or None (none stored, or not a clock)."""
    if not text:
        return None
    try:
        clock = json.loads(text)
    except ValueError:
        return None
    return clock if isinstance(clock, dict) and "round" in clock else None


def _seconds_left(clock: dict, at: float) -> float:
    """Seconds left on a stored clock at epoch second `at` (negative once time is up).

    A running clock keeps `remaining` as of `started_at`; a paused one keeps what was left
    when it was paused, so pausing and resuming lose nothing.
    """
    if clock.get("running"):
        return clock["remaining"] - (at - clock["started_at"])
    return clock["remaining"]


def clock_state(event: Event, current: Round | None = None, at: float | None = None
                ) -> dict | None:
    """What the pages show of the round clock, from the stored JSON and the time now.

    None when there is no clock, or (given the event's `current` round) when the clock
    belongs to an earlier round or the round is locked: a new round starts without one.
    Otherwise: round, seconds (its whole length), remaining (whole seconds, never below 0),
    running, paused, over, text ("mm:ss"), ends_at_ms (when a running clock reaches zero,
    epoch milliseconds) and now_ms (the server's clock, so a page can allow for its own).
    """
    clock = _load_clock(event.clock)
    if clock is None:
        return None
    if current is not None and (clock["round"] != current.number or current.locked):
        return None
    at = time.time() if at is None else at
    left = _seconds_left(clock, at)
    shown = max(0, math.ceil(left))   # 0.4 s left still reads 00:01, never "time is up"
    running = bool(clock.get("running"))
    return {"round": clock["round"], "seconds": clock["seconds"], "remaining": shown,
            "running": running, "paused": not running, "over": shown == 0,
            "text": f"{shown // 60:02d}:{shown % 60:02d}",
            "ends_at_ms": round((at + left) * 1000) if running else None,
            "now_ms": round(at * 1000)}


def set_clock(db: sqlite_utils.Database, event: Event, action: str,
              minutes: int | None = None, at: float | None = None) -> None:
    """Start, pause, resume, extend or stop the clock of the round being played.

    `minutes`: the round's length when starting (default 60), the time added when extending
    (default 5). Starting again restarts it. Raises ValueError with a plain sentence.
    """
    if action not in CLOCK_ACTIONS:
        raise ValueError(N_("The clock can start, pause, resume, extend or stop."))
    done = rounds(db, event)
    if not done:
        raise ValueError(N_("Seat a round first: the clock times the round being played."))
    current = done[-1]
    if current.locked and action != "stop":
        raise ValueError(message("tournament", "Round {round} is locked. Seat the next round, "
                                 "then start its clock.", round=current.number))
    at = time.time() if at is None else at
    with transaction(db):
        # Read under the write lock: a second director's device may have just changed it.
        row = db.execute("SELECT clock FROM events WHERE id = ?", [event.id]).fetchone()
        clock = _load_clock(row[0])
        if clock is not None and clock["round"] != current.number:
            clock = None    # an earlier round's clock is over and done with
        if action == "start":
            seconds = (minutes or DEFAULT_ROUND_MINUTES) * 60
            new = {"round": current.number, "seconds": seconds, "started_at": at,
                   "remaining": seconds, "running": True}
        elif clock is None:
            raise ValueError(message("tournament", "Round {round} has no clock yet: start it "
                                     "first.", round=current.number))
        elif action == "pause":
            if not clock["running"]:
                raise ValueError(N_("The clock is already paused."))
            new = {**clock, "remaining": max(0.0, _seconds_left(clock, at)),
                   "started_at": None, "running": False}
        elif action == "resume":
            if clock["running"]:
                raise ValueError(N_("The clock is already running."))
            new = {**clock, "started_at": at, "running": True}
        elif action == "extend":
            extra = (minutes or EXTEND_MINUTES) * 60
            # Time that is already up counts from now: "+5 min" means five more minutes.
            left = max(0.0, _seconds_left(clock, at))
            new = {**clock, "seconds": clock["seconds"] + extra, "remaining": left + extra,
                   "started_at": at if clock["running"] else None}
        else:
            new = None
        db.execute("UPDATE events SET clock = ? WHERE id = ?",
                   [json.dumps(new) if new else None, event.id])
        touch(db, event.id)
