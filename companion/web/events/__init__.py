"""The event pages: one blueprint, ``events`` (endpoints ``events.dashboard`` …), with its
URLs ``/events/new`` and ``/e/<event_id>/…``. Its view modules attach their routes to
:data:`bp` by subject:

- :mod:`.create` — the new-event form and creating an event;
- :mod:`.pages` — the director's dashboard, the standings, the projector, the pairings;
- :mod:`.rounds` — seating, locking, results and corrections, the round clock, table cards;
- :mod:`.entrants` — late arrivals and drops, registration, claims, the players' page;
- :mod:`.director` — director links and devices, penalties and bonuses, swaps, unseating;
- :mod:`.publish` — the event as static pages (a zip), the director's announcements.

:mod:`.forms` reads the director's forms into checked values and :mod:`.common` holds what
the views share. The work is the event service, :mod:`companion.events`.

The director is a browser holding the event's secret in a cookie (like a table's host);
a page for the director only answers 403 to anyone else.
"""
from __future__ import annotations

from flask import Blueprint, current_app, g, has_request_context, request

from companion.events import devices
from companion.storage import get_db

bp = Blueprint("events", __name__)


@bp.after_request
def _director_seen(response):
    """Note the director device as seen once it was answered (a refused request changes
    nothing, "last seen" included)."""
    device = g.get("director_device")
    if device is not None and response.status_code < 400:
        devices.mark_seen(get_db(), g.director_event, device)
    return response


@bp.url_defaults
def _keep_table_filter(endpoint: str, values: dict) -> None:
    """While the dashboard shows only the unfinished tables (?tables=open), its forms post
    with the filter and their answer leads back to the filtered dashboard: every address
    made for the dashboard or for a form's action (a route that takes no GET) keeps it. A
    link made with ``tables=None`` (the "All" filter) drops it."""
    if "tables" in values or not has_request_context() \
            or request.args.get("tables") != "open":
        return
    if endpoint == "events.dashboard" or _posts_only(endpoint):
        values["tables"] = "open"


def _posts_only(endpoint: str) -> bool:
    """Whether every route of `endpoint` takes POST only (a form's action)."""
    try:
        rules = list(current_app.url_map.iter_rules(endpoint))
    except KeyError:
        return False
    return bool(rules) and all("GET" not in rule.methods for rule in rules)


# The view modules attach their routes to bp (they import it from here).
from . import create, director, entrants, pages, publish, rounds  # noqa: E402,F401
