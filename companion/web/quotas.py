"""Per-address quotas on what anyone can create without an account: tables and events.

Counted in SQLite (companion.storage.rates), so a quota holds across gunicorn workers.
Generous for a club (a director creating a table per minute for an hour, a family trying
every game) and a wall for a script creating thousands. The limits are app settings, read
from ``current_app.config`` on each request (their defaults are in ``create_app``):
``TABLE_CREATE_LIMIT``, ``EVENT_CREATE_LIMIT`` and ``EVENT_TABLE_LIMIT`` (an event's
tables, counted when a round is seated), each ``(count, seconds)``. The defaults are 30
tables and 10 events a minute from one address, and 2,000 event tables an hour: the largest
round (2,500 entrants at 2 a table) is 1,250 tables, and a 500-table round may be seated
four times in an hour; a loop of seat and unseat stops within it.
"""
from __future__ import annotations

from functools import wraps

from flask import current_app
from flask_limiter.util import get_remote_address

from companion.rules.said import message
from companion.storage import get_db, rates

from .errors import error_response

class OverQuota(ValueError):
    """A round's tables refused by the address's quota on event tables (answer 429)."""


def admit_event_tables(count: int) -> None:
    """Count `count` event tables (a round being seated) against this address's
    ``EVENT_TABLE_LIMIT``; raises :class:`OverQuota` in plain words, counting none, when
    they don't fit."""
    limit, window = current_app.config["EVENT_TABLE_LIMIT"]
    if not rates.take(get_db(), "EVENT_TABLE_LIMIT", get_remote_address() or "-", count,
                      limit, window):
        raise OverQuota(message(
            "quota", "Seating this round makes {count} tables, and one network may make at "
            "most {limit} tournament tables in {minutes} minutes. Wait a while, then seat "
            "it again.", count=count, limit=limit, minutes=max(1, round(window / 60))))


def quota(setting: str):
    """Decorate a view that creates something, counted against the app setting `setting`
    (``(count, seconds)``): over the address's quota it answers 429 in plain words and
    creates nothing."""

    def decorate(view):
        @wraps(view)
        def checked(*args, **kwargs):
            limit, window = current_app.config[setting]
            if not rates.hit(get_db(), setting, get_remote_address() or "-", limit, window):
                return error_response(message(
                    "quota", "That's a lot in a short time: at most {limit} a minute from one "
                    "network. Wait a minute, then try again.", limit=limit), 429)
            return view(*args, **kwargs)

        return checked

    return decorate
