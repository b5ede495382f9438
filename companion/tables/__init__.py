"""Tables: lifecycle, seats and phones, the action log with undo, and live notification.

Pure bookkeeping over `companion.storage` and `companion.rules`; no Flask here except
through the database handle the caller passes in.
"""
from . import places
from .errors import TableError, NotFound, Forbidden, Conflict, Refused, Retired, Stale
from .service import (
    Table, Seat, Phone, ActionRow, Sheet, Outcome,
    create_table, get_table, find_by_token, find_by_code, seats_of, seat_activity,
    phone_by_secret,
    adopt_phone,
    join, claim_seat, leave_seat, make_rejoin_token, release_seat, pass_host, rename_seat,
    enter, edit, editing, Editing, undo, rematch, confirm, sheet, history, history_page, export_table, host_allowed,
    SEAT,
)

__all__ = [
    "places",
    "TableError", "NotFound", "Forbidden", "Conflict", "Refused", "Retired", "Stale",
    "Table", "Seat", "Phone", "ActionRow", "Sheet", "Outcome",
    "create_table", "get_table", "find_by_token", "find_by_code", "seats_of", "seat_activity",
    "phone_by_secret", "adopt_phone", "join", "claim_seat", "leave_seat", "make_rejoin_token",
    "release_seat", "pass_host", "rename_seat", "enter", "edit", "editing", "Editing", "undo", "rematch", "confirm", "sheet", "history", "history_page",
    "export_table", "host_allowed",
    "SEAT",
]
