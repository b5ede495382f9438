"""A group as stored: its row, players and phones, joining by its secret link, and the
audit log of every change made to it.

A phone of a group is a row of ``group_phones`` holding a hash of the phone's identity
scoped to the group (``tokens.scoped_hash(secret, "group:<id>")``), as a table keeps its
phones: the database never holds an identity, and rows can't be matched across groups.
The start page finds a phone's groups through its sealed list of places
(:mod:`companion.tables.places`, kind ``"group"``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from companion.clock import now
from companion.rules.game import MAX_NAME_LENGTH, clean_name, name_key
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import places, tokens
from companion.tables.service import seats_of
from companion.tables.errors import Forbidden, NotFound, TableError

MAX_GROUP_NAME = 60
MAX_PLAYERS = 60
#: What the players box may hold at most (characters), before anything is read.
MAX_PLAYERS_TEXT = 4000


@dataclass(frozen=True)
class Group:
    """A group as stored: `token` is its link's secret (shown to its phones only)."""

    id: str
    name: str
    token: str
    version: int
    created_at: str


@dataclass(frozen=True)
class Player:
    """One of the group's players: `id` numbers them within the group."""

    id: int
    name: str


@dataclass(frozen=True)
class GroupPhone:
    """A phone of the group: `n` numbers the phones in the order they came in."""

    n: int
    creator: bool
    created_at: str = ""


def group_hash(secret: str, group_id: str) -> str:
    """What ``group_phones`` keeps of a phone's identity."""
    return tokens.scoped_hash(secret, f"group:{group_id}")


def _group(row) -> Group:
    return Group(id=row["id"], name=row["name"], token=row["token"], version=row["version"],
                 created_at=row["created_at"])


def get_group(db: sqlite_utils.Database, group_id: str) -> Group:
    """The group `group_id`; `NotFound` for an unknown or deleted one."""
    row = db.execute("SELECT * FROM groups WHERE id = ? AND deleted_at IS NULL",
                     [group_id]).fetchone()
    if row is None:
        raise NotFound(N_("There is no such group."))
    return _group(row)


def phone_of(db: sqlite_utils.Database, group_id: str, secret: str | None) -> GroupPhone | None:
    """This phone's row at the group, if it holds the group's link (and wasn't removed)."""
    if not secret:
        return None
    row = db.execute("SELECT n, creator, created_at FROM group_phones WHERE group_id = ? AND"
                     " secret_hash = ? AND removed_at IS NULL",
                     [group_id, group_hash(secret, group_id)]).fetchone()
    return GroupPhone(row["n"], bool(row["creator"]), row["created_at"]) if row else None


def require_phone(db: sqlite_utils.Database, group_id: str,
                  secret: str | None) -> tuple[Group, GroupPhone]:
    """The group and this phone's row there; `Forbidden` for a phone without its link
    (an unknown group answers the same, so ids can't be probed)."""
    try:
        group = get_group(db, group_id)
    except NotFound:
        group = None
    phone = phone_of(db, group_id, secret) if group is not None else None
    if group is None or phone is None:
        raise Forbidden(N_("This phone can't open this group. Ask someone in the group to "
                           "show you its QR code."))
    return group, phone


def parse_players(text: str) -> list[str]:
    """The names of a players box, one per line, cleaned (:func:`clean_name`); blank lines
    skipped. `TableError` (422) for a name too long, two names that are the same person
    (compared as :func:`name_key`), or too many."""
    if len(text or "") > MAX_PLAYERS_TEXT:
        raise TableError(N_("That list of players is too long."), status=422)
    names, seen = [], set()
    for line in (text or "").splitlines():
        name = clean_name(line)
        if not name:
            continue
        _check_length(name)
        key = name_key(name)
        if key in seen:
            raise TableError(message("groups", "Each player's name may appear only once: {name} is "
                                     "there twice.", name=name), status=422)
        seen.add(key)
        names.append(name)
    if len(names) > MAX_PLAYERS:
        raise TableError(message("groups", "A group has at most {n} players.", n=MAX_PLAYERS),
                         status=422)
    return names


def _check_length(name: str) -> None:
    """422 for a player's name longer than a table's seat takes (MAX_NAME_LENGTH)."""
    if len(name) > MAX_NAME_LENGTH:
        raise TableError(message("groups", "Keep each player's name to {n} characters.",
                                 n=MAX_NAME_LENGTH), status=422)


def clean_group_name(raw: str) -> str:
    name = clean_name(raw or "")
    if not name:
        raise TableError(N_("Give the group a name."), status=422)
    if len(name) > MAX_GROUP_NAME:
        raise TableError(message("groups", "Keep the group's name to {n} characters.",
                                 n=MAX_GROUP_NAME), status=422)
    return name


def audit(db, group_id: str, kind: str, phone: int | None, old=None, new=None) -> None:
    """One row of the group's audit log (inside the caller's write transaction), and the
    group's version moves on."""
    db.execute("INSERT INTO group_audit (group_id, kind, phone, old, new, created_at)"
               " VALUES (?, ?, ?, ?, ?, ?)",
               [group_id, kind, phone, json.dumps(old) if old is not None else None,
                json.dumps(new) if new is not None else None, now()])
    db.execute("UPDATE groups SET version = version + 1 WHERE id = ?", [group_id])


def create_group(db: sqlite_utils.Database, name: str, players_text: str,
                 secret: str) -> Group:
    """A new group named `name` with the players of `players_text` (one per line); the
    phone holding `secret` is its first phone and its creator. Bad input raises
    `TableError` (422) and writes nothing."""
    name = clean_group_name(name)
    names = parse_players(players_text)
    with transaction(db):
        group_id = insert_group(db, name, names, secret)
    return get_group(db, group_id)


def insert_group(db: sqlite_utils.Database, name: str, names: list[str], secret: str) -> str:
    """Inside the caller's write transaction: the rows of a new group (`name` and `names`
    already cleaned), the phone holding `secret` its creator; returns the group's id."""
    group_id, token = tokens.new_table_id(), tokens.new_token()
    stamp = now()
    db.execute("INSERT INTO groups (id, name, token, created_at) VALUES (?, ?, ?, ?)",
               [group_id, name, token, stamp])
    for pid, player in enumerate(names, start=1):
        db.execute("INSERT INTO group_players (group_id, id, name, key, created_at)"
                   " VALUES (?, ?, ?, ?, ?)", [group_id, pid, player, name_key(player), stamp])
    db.execute("INSERT INTO group_phones (group_id, secret_hash, n, creator, created_at)"
               " VALUES (?, ?, 1, 1, ?)", [group_id, group_hash(secret, group_id), stamp])
    places.note(db, secret, places.GROUP, group_id)
    audit(db, group_id, "create", 1, None, {"name": name, "players": names})
    return group_id


def join_by_token(db: sqlite_utils.Database, token: str, secret: str) -> Group:
    """The phone holding `secret` joins the group whose link holds `token` (again, if it
    was removed: the link is the group's secret). `NotFound` for a wrong token."""
    token = (token or "").strip().upper()
    if not token or len(token) > 64:
        raise NotFound(N_("That group link doesn't work. Ask for the group's QR code again."))
    with transaction(db):
        row = db.execute("SELECT * FROM groups WHERE token = ? AND deleted_at IS NULL",
                         [token]).fetchone()
        if row is None:
            raise NotFound(N_("That group link doesn't work. Ask for the group's QR code "
                              "again."))
        group = _group(row)
        hashed = group_hash(secret, group.id)
        had = db.execute("SELECT n, removed_at FROM group_phones WHERE group_id = ? AND"
                         " secret_hash = ?", [group.id, hashed]).fetchone()
        if had is None:
            n = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM group_phones WHERE group_id = ?",
                           [group.id]).fetchone()[0]
            db.execute("INSERT INTO group_phones (group_id, secret_hash, n, created_at)"
                       " VALUES (?, ?, ?, ?)", [group.id, hashed, n, now()])
            audit(db, group.id, "join", n)
        elif had["removed_at"] is not None:
            db.execute("UPDATE group_phones SET removed_at = NULL WHERE group_id = ? AND"
                       " secret_hash = ?", [group.id, hashed])
            audit(db, group.id, "join", had["n"], {"removed": True}, {"removed": False})
        places.note(db, secret, places.GROUP, group.id)
    return group


def groups_of(db: sqlite_utils.Database, secret: str | None) -> list[Group]:
    """The groups this phone holds the link of, by name (from its sealed list of places;
    a group it was removed from, or that was deleted, is left out)."""
    if not secret:
        return []
    ids = places.refs_of(db, secret, places.GROUP)
    if not ids:
        return []
    # Each group's phone hash is scoped to it: checked one group at a time.
    rows = db.execute("SELECT * FROM groups WHERE id IN (SELECT value FROM json_each(?)) AND"
                      " deleted_at IS NULL", [json.dumps(ids)]).fetchall()
    found = [_group(r) for r in rows if phone_of(db, r["id"], secret) is not None]
    return sorted(found, key=lambda g: (g.name.casefold(), g.id))


def players(db: sqlite_utils.Database, group_id: str) -> list[Player]:
    """The group's players (not merged away), in the order they joined."""
    return [Player(r["id"], r["name"]) for r in db.execute(
        "SELECT id, name FROM group_players WHERE group_id = ? AND merged_into IS NULL"
        " ORDER BY id", [group_id]).fetchall()]


def phones(db: sqlite_utils.Database, group_id: str) -> list[GroupPhone]:
    """The group's phones (not removed), in the order they came in."""
    return [GroupPhone(r["n"], bool(r["creator"]), r["created_at"]) for r in db.execute(
        "SELECT n, creator, created_at FROM group_phones WHERE group_id = ? AND"
        " removed_at IS NULL ORDER BY n", [group_id]).fetchall()]


def add_players(db: sqlite_utils.Database, group_id: str, names: list[str],
                phone: int | None = None, aliases: bool = True) -> dict[str, int]:
    """Inside the caller's write transaction: the player id of each of `names`, adding to
    the group the names it doesn't have yet (audited). Names are matched as
    :func:`name_key` compares them; with `aliases`, the name of a player merged into
    another is that other player."""
    rows = db.execute("SELECT id, key, merged_into FROM group_players WHERE group_id = ?",
                      [group_id]).fetchall()
    known = {r["key"]: r["id"] for r in rows if r["merged_into"] is None}
    # A name merged into another player (the same person) is that player.
    into = {r["id"]: r["merged_into"] for r in rows}
    for r in rows:
        if aliases and r["merged_into"] is not None and r["key"] not in known:
            target = r["merged_into"]
            for _ in range(len(rows)):
                if into.get(target) is None:
                    break
                target = into[target]
            known[r["key"]] = target
    out: dict[str, int] = {}
    for name in names:
        key = name_key(name)
        if key not in known:
            pid = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM group_players WHERE"
                             " group_id = ?", [group_id]).fetchone()[0]
            db.execute("INSERT INTO group_players (group_id, id, name, key, created_at)"
                       " VALUES (?, ?, ?, ?, ?)", [group_id, pid, name, key, now()])
            audit(db, group_id, "add_player", phone, None, {"id": pid, "name": name})
            known[key] = pid
        out[name] = known[key]
    return out


def remove_phone(db: sqlite_utils.Database, group_id: str, secret: str | None, n: int) -> None:
    """The group's creator removes phone `n`: it no longer opens the group, and the
    group's link is replaced by a new one, so the old link can't add it back (the other
    phones keep their access). `Forbidden` for any other phone; the creator can't remove
    itself."""
    if not 0 < n < 2**31:
        raise NotFound(N_("That phone isn't in the group any more."))
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        if not me.creator:
            raise Forbidden(N_("Only the phone that made the group can remove phones."))
        if n == me.n:
            raise TableError(N_("This phone made the group; it can't remove itself."),
                             status=422)
        cur = db.execute("UPDATE group_phones SET removed_at = ? WHERE group_id = ? AND n = ?"
                         " AND removed_at IS NULL", [now(), group_id, n])
        if cur.rowcount != 1:
            raise NotFound(N_("That phone isn't in the group any more."))
        # The removed phone may still hold the link (a screenshot, its history): a new
        # secret stops it adding the phone back. The others keep their access (their
        # rows) and the page shows them the new link.
        db.execute("UPDATE groups SET token = ? WHERE id = ?", [tokens.new_token(), group_id])
        audit(db, group_id, "remove_phone", me.n, {"phone": n}, {"new_link": True})


def rename_player(db: sqlite_utils.Database, group_id: str, secret: str | None,
                  player_id: int, name: str) -> Player:
    """A phone of the group renames player `player_id`: their recorded games are rewritten
    under the new name (seat names, teams, scores, winners, the final summary and its
    facts) and the group's statistics built again, so their figures stay one player's;
    the old name stays an alias, so a table still seating it records later games under
    the new one. One transaction, audited. 422 for a blank or taken name."""
    if not 0 < player_id < 2**31:
        raise NotFound(N_("There is no such player in the group."))
    cleaned = clean_name(name or "")
    if not cleaned:
        raise TableError(N_("Give the player a name."), status=422)
    _check_length(cleaned)
    with transaction(db):
        _group, me = require_phone(db, group_id, secret)
        row = db.execute("SELECT name FROM group_players WHERE group_id = ? AND id = ? AND"
                         " merged_into IS NULL", [group_id, player_id]).fetchone()
        if row is None:
            raise NotFound(N_("There is no such player in the group."))
        key = name_key(cleaned)
        taken = db.execute("SELECT 1 FROM group_players WHERE group_id = ? AND key = ? AND"
                           " id != ? AND merged_into IS NULL",
                           [group_id, key, player_id]).fetchone()
        if taken is not None:
            raise TableError(message("groups", "The group already has a player called {name}.",
                                     name=cleaned), status=422)
        if row["name"] == cleaned:
            return Player(player_id, cleaned)
        db.execute("UPDATE group_players SET name = ?, key = ? WHERE group_id = ? AND id = ?",
                   [cleaned, key, group_id, player_id])
        from .admin import rename_in_records     # admin builds on this module
        games = rename_in_records(db, group_id, player_id, row["name"], cleaned)
        audit(db, group_id, "rename", me.n, {"id": player_id, "name": row["name"]},
              {"id": player_id, "name": cleaned, "games": games})
    return Player(player_id, cleaned)


def audit_log(db: sqlite_utils.Database, group_id: str) -> list[dict]:
    """The group's audit log, oldest first."""
    return [{"kind": r["kind"], "phone": r["phone"],
             "old": json.loads(r["old"]) if r["old"] else None,
             "new": json.loads(r["new"]) if r["new"] else None, "at": r["created_at"]}
            for r in db.execute("SELECT * FROM group_audit WHERE group_id = ? ORDER BY id",
                                [group_id]).fetchall()]


def note_table(db: sqlite_utils.Database, group_id: str, table) -> None:
    """A table was made for the group: its players join the group (the names it doesn't
    have yet), audited as an attached table."""
    names = [s.name for s in seats_of(db, table.id)]
    with transaction(db):
        add_players(db, group_id, names)
        audit(db, group_id, "attach", None, None, {"table": table.id, "game": table.game_slug})


def note_event(db: sqlite_utils.Database, group_id: str, secret: str | None, event_id: str,
               slug: str, names: list[str]) -> None:
    """Inside the caller's write transaction: an event is run for the group by the phone
    holding `secret` (a phone of the group, else `Forbidden`): the entrants' players join
    the group by name (a team's members, each a player), audited as an event."""
    _group, me = require_phone(db, group_id, secret)
    add_players(db, group_id, [clean_name(n) for n in names if clean_name(n)], me.n)
    audit(db, group_id, "event", me.n, None, {"event": event_id, "game": slug})
