"""What the event pages share: finding the event (anyone with the link) or the event a
device directs (403 for anyone else), reading a number from a form, the director's name
typed on a form, the addresses QR codes carry, and page numbers.
"""
from __future__ import annotations

from flask import abort, g, request, url_for

from companion import tables
from companion.events import devices
from companion.events.event import Event, get_event
from companion.storage import get_db

from ..cookies import phone_secret
from ..i18n import N_
from ..urls import public_url

LONG_LIST = 40             # longer entrant lists start folded / searchable
SHOWN_LINK = "director_link"   # the session key holding a link made, until it is shown


def load_event(event_id: str) -> Event:
    """The event with this id, for anyone with the link (404: no such event)."""
    if len(event_id) > 32:
        abort(404)
    return get_event(get_db(), event_id)


def director_event(event_id: str) -> Event:
    """The event, for a device directing it only (403 for anyone else, a revoked device
    included); the device is `g.director_device` (noted as seen once answered)."""
    event = load_event(event_id)
    db = get_db()
    device = devices.director_device(db, event, phone_secret())
    if device is not None and device["revoked_at"] is not None:
        raise tables.Forbidden(N_("This device no longer directs the event: the director "
                                  "revoked it. Ask the director for a new director link."))
    if device is None:
        raise tables.Forbidden(N_("Only the director's browser can do that. Open the event "
                                  "from the browser that created it."))
    g.director_device = device
    g.director_event = event
    return event


def int_field(source, name: str) -> int:
    """A small whole number from a form or the query string (400 for anything else)."""
    raw = (source.get(name) or "").strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4:
        abort(400)
    return int(raw)


def who() -> str:
    """The name the director typed on a form (kept with the change in the log)."""
    return (request.form.get("who") or "")[:100]


def players_url(event: Event) -> str:
    """The player page's address as a QR code carries it (see :mod:`..urls`)."""
    return public_url(url_for(".players", event_id=event.id))


def table_card_url(event: Event, table_no: int) -> str:
    """A table card's address: that table number in whatever round is current, so a
    card is printed once per event."""
    return public_url(url_for(".table_card", event_id=event.id, table_no=table_no))


def page_count(count: int, per_page: int) -> int:
    """How many pages `count` rows take, `per_page` to a page (at least one)."""
    return max(1, -(-count // per_page))


def page_arg(pages: int) -> int:
    """?page= from 1 to `pages`; anything else shows the first page."""
    raw = request.args.get("page", "1")
    ok = raw.isascii() and raw.isdigit() and len(raw) <= 4 and 1 <= int(raw) <= pages
    return int(raw) if ok else 1
