"""The director's pairing restrictions: *keep-apart groups* (club or family members who must
not meet, named groups kept in the event's config) and a *fixed table* per entrant (a player
who must stay at one table number every round, ``event_entrants.fixed_table``), and what
the current round broke of them, to tell the director plainly.

The pairing itself honours them in :mod:`.pairing` (``apart=`` groups,
:func:`.pairing.fix_table_numbers`); :mod:`.seating` passes them in.
"""
from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from companion import tables
from companion.rules.game import MAX_NAME_LENGTH, clean_name, name_key
from companion.rules.said import N_, message
from companion.storage import transaction

from .entrants import entrants
from .event import Event, log_change, set_config_key, touch
from .pairing import apart_pairs

MAX_GROUPS = 200        # keep-apart groups in one event
MAX_TABLE = 1250        # the highest table number an entrant may keep (cards' MAX_CARDS)


def apart_groups(event: Event) -> list[dict[str, Any]]:
    """The event's keep-apart groups: ``[{"name": "Club A", "members": [entrant, ...]}]``."""
    groups = event.config.get("apart") or []
    return [g for g in groups if isinstance(g, dict) and isinstance(g.get("members"), list)]


def apart_members(event: Event) -> list[list[str]]:
    """The groups' members alone, as the pairing library takes them (``apart=``)."""
    return [list(g["members"]) for g in apart_groups(event)]


def fixed_tables(db: sqlite_utils.Database, event: Event) -> dict[str, int]:
    """Entrants with a fixed table: ``{entrant: table number}``."""
    rows = db.execute("SELECT name, fixed_table FROM event_entrants WHERE event_id = ? AND"
                      " fixed_table IS NOT NULL ORDER BY pos", [event.id]).fetchall()
    return {r[0]: r[1] for r in rows}


def _write_groups(db: sqlite_utils.Database, event: Event, groups: list[dict]) -> None:
    set_config_key(db, event.id, "apart", groups or None)


def _stored_groups(db: sqlite_utils.Database, event: Event) -> list[dict]:
    row = db.execute("SELECT config FROM events WHERE id = ?", [event.id]).fetchone()
    groups = json.loads(row[0] or "{}").get("apart") or []
    return [g for g in groups if isinstance(g, dict) and isinstance(g.get("members"), list)]


def add_group(db: sqlite_utils.Database, event: Event, name: str, members_text: str,
              who: str = "Director") -> str:
    """Add a keep-apart group (or replace the one of that name) from entrants' names typed
    one per line or separated by commas (in a team game a player's name finds their
    team). Audited (kind "apart"). Returns the group's name."""
    name = clean_name(name or "")[:MAX_NAME_LENGTH]
    if not name:
        raise ValueError(N_("Give the group a name, e.g. a club or a family."))
    typed = [clean_name(part) for line in (members_text or "").splitlines()
             for part in line.split(",")]
    typed = [t for t in typed if t]
    with transaction(db):
        people = entrants(db, event)
        by_key = {name_key(e.name): e.name for e in people}
        by_key.update({name_key(m): e.name for e in people for m in e.members
                       if name_key(m) not in by_key})
        members: list[str] = []
        for t in typed[:500]:
            found = by_key.get(name_key(t))
            if found is None:
                raise ValueError(message("tournament", "“{name}” isn't on this event's list.",
                                         name=t[:40]))
            if found not in members:
                members.append(found)
        if len(members) < 2:
            raise ValueError(N_("A group to keep apart needs at least two entrants from the "
                                "list."))
        groups = _stored_groups(db, event)
        before = next((g for g in groups if g["name"] == name), None)
        groups = [g for g in groups if g["name"] != name]
        if len(groups) >= MAX_GROUPS:
            raise ValueError(message("tournament", "An event has at most {most} groups to "
                                     "keep apart.", most=MAX_GROUPS))
        groups.append({"name": name, "members": members})
        _write_groups(db, event, groups)
        log_change(db, event, "apart", None, None, who, name, before,
                   {"name": name, "members": members})
        touch(db, event.id)
    return name


def remove_group(db: sqlite_utils.Database, event: Event, name: str,
                 who: str = "Director") -> None:
    """Remove a keep-apart group (audited, kind "apart")."""
    with transaction(db):
        groups = _stored_groups(db, event)
        before = next((g for g in groups if g["name"] == name), None)
        if before is None:
            raise tables.NotFound(N_("That group isn't on this event's list."))
        _write_groups(db, event, [g for g in groups if g["name"] != name])
        log_change(db, event, "apart", None, None, who, name, before, None)
        touch(db, event.id)


def set_fixed_table(db: sqlite_utils.Database, event: Event, name: str, table: int | None,
                    who: str = "Director") -> None:
    """Give an entrant a table number kept every round (None: none any more), from the
    next round seated (or paired again) on. Audited (kind "fixed_table")."""
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise ValueError(message("tournament", "A table number is between 1 and {most}.",
                                 most=MAX_TABLE))
    with transaction(db):
        row = db.execute("SELECT fixed_table FROM event_entrants WHERE event_id = ? AND"
                         " name = ?", [event.id, name]).fetchone()
        if row is None:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        db.execute("UPDATE event_entrants SET fixed_table = ? WHERE event_id = ? AND name = ?",
                   [table, event.id, name])
        log_change(db, event, "fixed_table", None, None, who, name,
                   {"table": row[0]}, {"table": table})
        touch(db, event.id)


def round_notes(db: sqlite_utils.Database, event: Event, rows: list) -> dict[str, list]:
    """What the round's tables (``rounds.round_tables`` rows) break of the restrictions, to
    tell the director: ``{"apart": [{"a", "b", "group", "table"}],
    "fixed": [{"entrant", "wanted", "table", "because", "with"?}]}`` — a pair of one group
    at one table (no pairing kept them apart), and fixed entrants at another table."""
    groups = apart_groups(event)
    seating = {"tables": [{"table": r.number, "entrants": list(r.entrants)} for r in rows]}
    apart = []
    for table in seating["tables"]:
        for a, b in apart_pairs({"tables": [table]}, [g["members"] for g in groups]):
            group = next(g["name"] for g in groups if a in g["members"] and b in g["members"])
            apart.append({"a": a, "b": b, "group": group, "table": table["table"]})
    fixed = fixed_tables(db, event)
    misses = []
    if fixed:
        at = {e: t["table"] for t in seating["tables"] for e in t["entrants"]}
        count = len(seating["tables"])
        for entrant, wanted in fixed.items():
            if entrant not in at or at[entrant] == wanted:
                continue
            mates = next(t["entrants"] for t in seating["tables"] if entrant in t["entrants"])
            owner = next((e for e, n in fixed.items() if n == at[entrant] and e in mates
                          and e != entrant), None)
            other = next((e for e, n in fixed.items() if n == wanted and at.get(e) == wanted),
                         None)
            miss = {"entrant": entrant, "wanted": wanted, "table": at[entrant]}
            if wanted > count:
                miss["because"] = "fewer"
            elif owner is not None:
                miss.update({"because": "opponent", "with": owner})
            elif other is not None:
                miss.update({"because": "taken", "with": other})
            else:
                miss["because"] = "moved"
            misses.append(miss)
    return {"apart": apart, "fixed": misses}


__all__ = ["add_group", "apart_groups", "apart_members", "fixed_tables",
           "remove_group", "round_notes", "set_fixed_table"]
