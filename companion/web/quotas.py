"""Per-address quotas on what anyone can create without an account: tables and events.

Counted in SQLite (companion.storage.rates), so a quota holds across gunicorn workers.
Generous for a club (a director creating a table per minute for an hour, a family trying
every game) and a wall for a script creating thousands. The limits are app settings:
``TABLE_CREATE_LIMIT`` and ``EVENT_CREATE_LIMIT``, each ``(count, seconds)``.
"""
from __future__ import annotations

from functools import wraps

from flask import current_app
from flask_limiter.util import get_remote_address

from companion.rules.said import message
from companion.storage import get_db, rates

from .errors import error_response

#: Defaults: 30 tables and 10 events a minute from one address.
TABLE_CREATE_LIMIT = (30, 60.0)
EVENT_CREATE_LIMIT = (10, 60.0)


def quota(setting: str):
    """Decorate a view that creates something: over the address's quota it answers 429 in
    plain words and creates nothing."""

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
