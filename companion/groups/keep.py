"""A table that becomes a group's: "keep these players" makes a group of a table's seats,
and the table becomes its table; its finished games (the earlier ones and the current one,
if over) are recorded at once, and the games it finishes later as they finish. The table's
page offers it once a game is over; any table a phone is seated at may join."""
from __future__ import annotations

from dataclasses import replace

import sqlite_utils

from companion.rules.said import N_
from companion.storage import transaction
from companion.tables import (get_table, host_allowed, phone_by_secret, seats_of,
                              sheet as sheet_of)
from companion.tables.errors import Conflict, Forbidden, TableError

from .group import (Group, add_players, audit, clean_group_name, get_group, groups_of,
                    insert_group, parse_players, require_phone)
from .records import record_sheet


def _keepable(db: sqlite_utils.Database, table_id: str, secret: str | None,
              host: bool = False):
    """The table, its sheet and its seat names, if the phone holding `secret` is seated at
    it (with `host`, is its host) and it may join a group; `TableError` (a plain 4xx)
    otherwise."""
    table = get_table(db, table_id)   # NotFound (404) for no such table
    phone = phone_by_secret(db, table.id, secret)
    if phone is None or not phone.seated:
        raise Forbidden(N_("Only a phone seated at this table can keep its players."))
    if host and not host_allowed(table, seats_of(db, table.id), phone):
        raise Forbidden(N_("Only the table's host can record its games in a group."))
    if table.event_id is not None:
        raise TableError(N_("A tournament's table can't become a group's."), status=409)
    if table.group_id is not None:
        raise TableError(N_("This table already records its games in a group."), status=409)
    # The page offers this once a game is over, but a table mid-game may join too: its
    # games are recorded as they finish.
    sheet = sheet_of(db, table)
    return table, sheet, [s.name for s in sheet.seats]


def keepable(db: sqlite_utils.Database, table_id: str, secret: str | None) -> list[str]:
    """The seat names a group made from this table would start with (the form's list);
    `TableError` when this phone can't make one."""
    return _keepable(db, table_id, secret)[2]


def keep_table(db: sqlite_utils.Database, table_id: str, secret: str | None,
               name: str) -> tuple[Group, int]:
    """Make a group named `name` of the table's seats, the phone holding `secret` (seated
    at the table) its creator; the table becomes the group's and its finished games are
    recorded. Returns the group and how many games were recorded. Bad input or a table
    that changed meanwhile raises `TableError` and writes nothing."""
    table, sheet, names = _keepable(db, table_id, secret)
    name = clean_group_name(name)
    names = parse_players("\n".join(names))
    with transaction(db):
        row = db.execute("SELECT version, group_id FROM tables WHERE id = ?",
                         [table.id]).fetchone()
        if row is None or row[0] != table.version or row[1] is not None:
            raise Conflict(N_("The table changed meanwhile. Try again."))
        group_id = insert_group(db, name, names, secret)
        db.execute("UPDATE tables SET group_id = ? WHERE id = ?", [group_id, table.id])
        audit(db, group_id, "attach", 1, None, {"table": table.id, "game": table.game_slug})
        recorded = record_sheet(db, replace(table, group_id=group_id), names, sheet)
    return get_group(db, group_id), recorded


def attachable(db: sqlite_utils.Database, table_id: str, secret: str | None) -> list[Group]:
    """The groups the host's phone (holding `secret`) may attach this table to: its own;
    `TableError` when this phone can't attach the table."""
    _keepable(db, table_id, secret, host=True)
    return groups_of(db, secret)


def attach_table(db: sqlite_utils.Database, table_id: str, secret: str | None,
                 group_id: str) -> tuple[Group, int]:
    """The table's host attaches it to one of that phone's groups (audited): its players
    join the group by name and its finished games are recorded, later ones as they finish.
    Returns the group and how many games were recorded; `TableError` and nothing written
    otherwise (403 for a group that isn't this phone's)."""
    table, sheet, names = _keepable(db, table_id, secret, host=True)
    group, me = require_phone(db, group_id, secret)
    with transaction(db):
        row = db.execute("SELECT version, group_id FROM tables WHERE id = ?",
                         [table.id]).fetchone()
        if row is None or row[0] != table.version or row[1] is not None:
            raise Conflict(N_("The table changed meanwhile. Try again."))
        db.execute("UPDATE tables SET group_id = ? WHERE id = ?", [group.id, table.id])
        add_players(db, group.id, names, me.n)
        audit(db, group.id, "attach", me.n, None, {"table": table.id, "game": table.game_slug})
        recorded = record_sheet(db, replace(table, group_id=group.id), names, sheet)
    return get_group(db, group.id), recorded
