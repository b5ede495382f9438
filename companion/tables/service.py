"""Table lifecycle, seats and phones, and the append-only action log.

Every write runs in one `BEGIN IMMEDIATE` transaction that re-reads what it checks,
so two phones writing at the same instant are serialised by SQLite: one wins, the
other gets a `Conflict` naming what changed. The sheet is derived by folding the
game's `apply` over the log (see `fold`). No path replays the whole log while the
table's stored fold is current (`_folded`, `_store`): an entry applies one action to
the stored current game, a rematch starts a new one, an undo or a confirmation refolds
the current game only (unless its target lies before it), so an entry costs the same
however long the table's log has grown.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from collections.abc import Callable, Collection, Sequence
from typing import Any, Iterator

import sqlite_utils

from companion.clock import now
from companion.rules import Game, RuleError, find_game
from companion.rules.game import clean_name, name_key, paper_action
from companion.rules.said import N_, message, said_of
from companion.storage import transaction

from . import fold as folds, live, places, tokens
from .errors import (Conflict, Forbidden, NotFound, Refused, Retired, Stale, TableError,
                     retired_notice)
from .fold import FoldResult, fold

# The kinds of rows in a table's log (`actions.kind`; `ActionRow.row_kind`), not to be
# confused with a game action's own kind (``payload["kind"]``, e.g. "round"). These change
# the game state (and so can conflict and be undone):
GAME = "game"
REMATCH = "rematch"
UNDO = "undo"
CONFIRM = "confirm"     # the other team accepts a pending entry
#: An entry changed in place: ``{"target": <the game entry's seq>, "action": <the rules
#: action that replaces its payload>, "was": <what it said until then>, ...}`` (plus the
#: words the history needs, e.g. ``"number"``, the hand's number when it was changed).
#: The fold reads the entry with the newest live change's action (`fold.fold`), so the
#: sheet keeps its order and numbering; undoing the change brings the older values back.
EDIT = "edit"
#: Rows that record a seat or host change, never folded: ``{"change": "claim" | "leave" |
#: "rejoin" | "rejoin_code" | "release" | "host" | "rename", "seat": pos, ...}``.
SEAT = "seat"
UNDOABLE = (GAME, REMATCH, EDIT)
# A game that plays a match inside one state (Rocca: a tally, the biggest loser starts the
# next game) deals the next game with this action; it is the one entry a won game takes.
NEXT_GAME = "new_game"
STATE_ROW_KINDS = (GAME, REMATCH, UNDO, CONFIRM, EDIT)


# ---------------------------------------------------------------- records

@dataclass(frozen=True)
class Table:
    id: str
    token: str
    code: str
    game_slug: str
    settings: dict
    status: str
    version: int
    host_seat: int
    created_at: str
    options: dict = field(default_factory=dict)
    event_id: str | None = None   # a tournament's table: closed to all but its entrants
    #: The version of the newest write that changed what the page's chrome shows (seats,
    #: phones, host): answers leave the chrome out for a phone that already has it.
    chrome_version: int = 0
    #: Set when the table no longer counts (its round was seated again): why, as stored
    #: (``{"round": N}``); it then takes no entries (see :func:`_refuse_retired`).
    retired: dict | None = None
    #: The group whose record this table's finished games go to (companion.groups).
    group_id: str | None = None

    @property
    def retired_notice(self) -> str | None:
        """The sentence a phone at a retired table reads (None while the table counts)."""
        return retired_notice(self.retired) if self.retired is not None else None

    @property
    def game(self) -> Game:
        return find_game(self.game_slug)

    @property
    def confirms(self) -> bool:
        """Whether the other team must confirm each entry (team games only)."""
        return bool(self.options.get("confirm")) and bool(getattr(self.game, "teams", False))


@dataclass(frozen=True)
class Seat:
    pos: int
    name: str
    team: str | None
    has_phone: bool
    locked: bool = False     # its phone was removed: only the host's rejoin code opens it


@dataclass(frozen=True)
class Phone:
    id: int
    table_id: str
    seat: int | None
    rotate: bool = False     # it received the host role: its cookie's key is due for renewal

    @property
    def seated(self) -> bool:
        return self.seat is not None


@dataclass(frozen=True)
class ActionRow:
    """One row of a table's log. `row_kind` is the row's kind (GAME, REMATCH, UNDO, CONFIRM,
    SEAT: the `actions.kind` column); a game action's own kind is ``payload["kind"]``."""

    seq: int
    version: int
    seat: int | None
    row_kind: str
    payload: dict
    submission_id: str | None
    created_at: str
    undone_by: int | None
    pending: bool = False              # made at a table where the other team confirms
    confirmed_by: int | None = None    # the seq of the confirm action

    @property
    def waiting(self) -> bool:
        """An entry that doesn't count yet: it waits for the other team's confirmation."""
        return self.pending and self.confirmed_by is None and self.undone_by is None


@dataclass
class Sheet:
    """Everything a page needs to show a table's current game."""

    table: Table
    seats: list[Seat]
    state: Any
    summary: dict
    past_games: list[dict]
    game_number: int
    last_undoable: ActionRow | None
    replay_errors: list[str] = field(default_factory=list)
    waiting: ActionRow | None = None   # an entry the other team has yet to confirm
    #: (table id, past_seq): names the stored earlier games `past_games` are, which only a
    #: rematch or a write before the current game changes (a cache key for their drawing);
    #: None when they come from a replay and are not stored yet.
    past_key: tuple[str, int] | None = None

    def team_of(self, pos: int | None) -> str | None:
        return next((s.team for s in self.seats if s.pos == pos), None)

    @property
    def confirming_team(self) -> str | None:
        """The team that confirms the waiting entry: the one the entry's maker isn't on
        (None when nothing waits)."""
        if self.waiting is None:
            return None
        makers = self.team_of(self.waiting.seat)
        return next((s.team for s in self.seats if s.team and s.team != makers), None)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass
class Outcome:
    """The result of a write: the action stored (or found, for a repeat) and the new sheet."""

    action: ActionRow
    duplicate: bool
    sheet: Sheet


# ---------------------------------------------------------------- helpers

def _table_from_row(row) -> Table:
    return Table(id=row["id"], token=row["token"], code=row["code"], game_slug=row["game"],
                 settings=json.loads(row["settings"]), status=row["status"],
                 version=row["version"], host_seat=row["host_seat"],
                 created_at=row["created_at"], options=json.loads(row["options"] or "{}"),
                 event_id=row["event_id"], chrome_version=row["chrome_version"],
                 retired=(json.loads(row["retired_reason"] or "{}")
                          if row["retired_at"] is not None else None),
                 group_id=row["group_id"])


def _action_from_row(row) -> ActionRow:
    return ActionRow(seq=row["seq"], version=row["version"], seat=row["seat"],
                     row_kind=row["kind"],
                     payload=json.loads(row["payload"]), submission_id=row["submission_id"],
                     created_at=row["created_at"], undone_by=row["undone_by"],
                     pending=bool(row["pending"]), confirmed_by=row["confirmed_by"])


def _one(db: sqlite_utils.Database, sql: str, params=()):
    return db.execute(sql, params).fetchone()


def get_table(db: sqlite_utils.Database, table_id: str) -> Table:
    """The table with this public id, or `NotFound`."""
    row = _one(db, "SELECT * FROM tables WHERE id = ?", [table_id])
    if row is None:
        raise NotFound(N_("There is no such table. Check the link or scan the table's QR code "
                          "again."))
    return _table_from_row(row)


def find_by_token(db: sqlite_utils.Database, token: str) -> tuple[Table, int | None]:
    """The table a QR token opens, and the seat if it is a one-time rejoin token."""
    token = (token or "").strip().upper()
    row = _one(db, "SELECT * FROM tables WHERE token = ?", [token])
    if row is not None:
        return _table_from_row(row), None
    seat = _one(db, "SELECT table_id, pos FROM seats WHERE rejoin_token = ?", [token])
    if seat is not None:
        return get_table(db, seat["table_id"]), seat["pos"]
    raise NotFound(N_("This QR code doesn't open any table (it may be an old rejoin code "
                      "that was already used). Ask the host for a fresh one."))


def find_by_code(db: sqlite_utils.Database, code: str) -> Table:
    """The table with this typed join code, or `NotFound`."""
    code = tokens.normalize_code(code)
    if len(code) != tokens.CODE_LENGTH:
        raise TableError(message("table", "A join code has {n} letters, like KQWMTR.",
                                 n=tokens.CODE_LENGTH))
    row = _one(db, "SELECT * FROM tables WHERE code = ?", [code])
    if row is None:
        raise NotFound(message("table", "No table has the code {code}. Check the letters on the "
                               "host's screen.", code=code))
    return _table_from_row(row)


def seat_activity(db: sqlite_utils.Database, table_id: str) -> dict[int, str]:
    """When each held seat's phone was last heard of (seat -> ISO time): it sat down, or
    it made an entry there, whichever is later. A phone holding a seat may have died long
    ago; the host tools say how long (nothing tracks a phone's connection as such)."""
    # The seat's newest entry: walked back from the log's end (a long evening's log isn't
    # read whole on every page of the host).
    rows = db.execute("SELECT p.seat, MAX(MAX(p.seen_at), COALESCE((SELECT a.created_at FROM"
                      " actions a WHERE a.table_id = p.table_id AND a.seat = p.seat ORDER BY"
                      " a.seq DESC LIMIT 1), '')) FROM phones p WHERE p.table_id = ? AND"
                      " p.seat IS NOT NULL GROUP BY p.seat", [table_id]).fetchall()
    return {row[0]: row[1] for row in rows}


def seats_of(db: sqlite_utils.Database, table_id: str) -> list[Seat]:
    """The table's seats in seating order, each saying whether a phone holds it."""
    rows = db.execute(
        "SELECT s.pos, s.name, s.team, s.locked, EXISTS(SELECT 1 FROM phones p WHERE p.table_id ="
        " s.table_id AND p.seat = s.pos) AS has_phone FROM seats s WHERE s.table_id = ? ORDER BY"
        " s.pos", [table_id]).fetchall()
    return [Seat(pos=r["pos"], name=r["name"], team=r["team"], has_phone=bool(r["has_phone"]),
                 locked=bool(r["locked"])) for r in rows]


def phone_by_secret(db: sqlite_utils.Database, table_id: str, secret: str | None) -> Phone | None:
    """The phone of this table whose cookie holds `secret`, if any."""
    if not secret:
        return None
    row = _one(db, "SELECT id, table_id, seat, rotate FROM phones WHERE secret_hash = ? AND"
               " table_id = ?", [tokens.phone_hash(secret, table_id), table_id])
    return Phone(id=row["id"], table_id=row["table_id"], seat=row["seat"],
                 rotate=bool(row["rotate"])) if row else None


def adopt_phone(db: sqlite_utils.Database, table_id: str, old_secret: str, secret: str) -> None:
    """Move the phone an old per-table cookie (`old_secret`) proves at this table onto the
    phone's one secret: same seat, same host role. Nothing happens for a wrong or stale
    cookie, or when the phone already holds a row there under its one secret."""
    with transaction(db):
        cur = db.execute("UPDATE OR IGNORE phones SET secret_hash = ? WHERE table_id = ? AND"
                         " secret_hash = ?", [tokens.phone_hash(secret, table_id), table_id,
                                              tokens.hash_secret(old_secret)])
        if cur.rowcount:
            places.note(db, secret, places.TABLE, table_id)


def _phone(db, phone_id: int) -> Phone:
    row = _one(db, "SELECT id, table_id, seat FROM phones WHERE id = ?", [phone_id])
    if row is None:
        raise Forbidden(N_("This phone was removed from the table. Scan the table's QR code to "
                           "join again."))
    return Phone(id=row["id"], table_id=row["table_id"], seat=row["seat"])


def _bump(db, table_id: str, status: str | None = None, *, chrome: bool = True) -> int:
    """Advance the table's version and tell every worker's live poller. `chrome`: whether
    the write may change what the page's chrome shows (every write but the sheet's own:
    entries, undo/confirm and rematches pass False), recorded as `chrome_version`."""
    sets = "version = version + 1"
    if chrome:
        sets += ", chrome_version = version + 1"
    if status is None:
        version = _one(db, f"UPDATE tables SET {sets} WHERE id = ? RETURNING version",
                       [table_id])[0]
    else:
        version = _one(db, f"UPDATE tables SET {sets}, status = ? WHERE id = ? RETURNING version",
                       [status, table_id])[0]
    db.execute("INSERT INTO changes (table_id, version, created_at) VALUES (?, ?, ?)",
               [table_id, version, now()])
    return version


def _append(db, table_id: str, version: int, seat: int | None, row_kind: str, payload: dict,
            submission_id: str | None, pending: bool = False) -> ActionRow:
    created = now()
    # The next seq is worked out by the insert itself (one statement, under the write lock).
    seq = _one(db,
               "INSERT INTO actions (table_id, seq, version, seat, kind, payload, submission_id,"
               " created_at, pending) SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?"
               " FROM actions WHERE table_id = ? RETURNING seq",
               [table_id, version, seat, row_kind, json.dumps(payload, ensure_ascii=False),
                submission_id, created, int(pending), table_id])[0]
    return ActionRow(seq=seq, version=version, seat=seat, row_kind=row_kind, payload=payload,
                     submission_id=submission_id, created_at=created, undone_by=None,
                     pending=pending)


def _actions(db, table_id: str, after: int = 0, before: int | None = None) -> list[ActionRow]:
    """The table's log (the actions after seq `after`, and before seq `before` if given),
    oldest first."""
    rows = db.execute("SELECT * FROM actions WHERE table_id = ? AND seq > ? AND seq < ? "
                      "ORDER BY seq", [table_id, after,
                                       (1 << 62) if before is None else before]).fetchall()
    return [_action_from_row(r) for r in rows]


def _action_at(db, table_id: str, seq) -> ActionRow | None:
    if not isinstance(seq, int) or isinstance(seq, bool):
        return None
    row = _one(db, "SELECT * FROM actions WHERE table_id = ? AND seq = ?", [table_id, seq])
    return _action_from_row(row) if row is not None else None


def _last_undoable(db, table_id: str) -> ActionRow | None:
    """The newest entry that is not yet undone (what "Undo last" takes back)."""
    row = _one(db, "SELECT * FROM actions WHERE table_id = ? AND kind IN (?, ?, ?) AND undone_by "
                   "IS NULL ORDER BY seq DESC LIMIT 1", [table_id, *UNDOABLE])
    return _action_from_row(row) if row is not None else None


def _waiting(db, table: Table) -> ActionRow | None:
    """The entry waiting for the other team's confirmation, if any (index actions_waiting).
    Only a table where the other team confirms ever has one (table options never change),
    so no other table's log is read for it."""
    if not table.confirms:
        return None
    table_id = table.id
    row = _one(db, "SELECT * FROM actions WHERE table_id = ? AND pending = 1 AND confirmed_by "
                   "IS NULL AND undone_by IS NULL ORDER BY seq LIMIT 1", [table_id])
    return _action_from_row(row) if row is not None else None


def _newer(db, table_id: str, version: int) -> list[ActionRow]:
    """The actions made after `version`, oldest first: the log read backwards from its end
    (an action's version grows with its seq), so a fresh write reads one row."""
    newer = []
    cursor = db.execute("SELECT * FROM actions WHERE table_id = ? ORDER BY seq DESC", [table_id])
    try:
        for row in cursor:
            if row["version"] <= version:
                break
            newer.append(_action_from_row(row))
    finally:
        cursor.close()
    return newer[::-1]


def _by_submission(db, table_id: str, submission_id: str | None,
                   row_kind: str) -> ActionRow | None:
    """The action already stored for this submission id (a repeated tap or a retry), if any."""
    if not submission_id:
        return None
    row = _one(db, "SELECT * FROM actions WHERE table_id = ? AND submission_id = ?",
               [table_id, submission_id])
    if row is None:
        return None
    if row["kind"] != row_kind:
        raise Conflict(N_("This form was already used for something else. Reload the page "
                          "and try again; nothing was saved."))
    return _action_from_row(row)


def _require_seated(phone: Phone | None) -> Phone:
    if phone is None:
        raise Forbidden(N_("Open this table from its QR code or join code first."))
    if not phone.seated:
        raise Forbidden(N_("Spectators can watch but not enter scores. Pick a free seat to play."))
    return phone


def host_allowed(table: Table, seats: list[Seat], phone: Phone | None) -> bool:
    """Whether this phone may use the host tools (rejoin codes, removing phones, passing host).

    At an event's table nobody seated is host: the tools belong to the event's director
    (the web layer checks the director's cookie and passes ``director=True``).
    """
    if table.event_id is not None or phone is None or not phone.seated:
        return False
    if phone.seat == table.host_seat:
        return True
    # Nobody holds the host's seat: any seated phone may act as host, so a table
    # never ends up with nobody able to hand out rejoin codes.
    return not any(s.pos == table.host_seat and s.has_phone for s in seats)


# ---------------------------------------------------------------- creating and joining

def create_table(db: sqlite_utils.Database, game_slug: str, settings: dict, names: list[str],
                 host_seat: int = 0, options: dict | None = None,
                 event_id: str | None = None, secret: str | None = None,
                 group_id: str | None = None,
                 paper: dict | None = None) -> tuple[Table, str | None]:
    """Create a table; the creating phone takes seat `host_seat` and the host role.

    `options` are table rules that aren't the game's: `{"confirm": True}` makes the other
    team confirm every entry (team games). With `event_id` the table is an event's: no
    phone is created (every seat is left to its entrant) and the secret returned is None.

    `secret` is the creating phone's own (its one cookie; a new one when None). With
    `group_id` every game finished at the table is recorded in that group (the caller
    checked the phone may use it). With `paper` (the fields of `Game.paper_fields`) the game
    goes on from a paper sheet: the paper's line is the log's first action, entered by the
    creating phone's seat, so History shows who wrote it down.
    Returns the table and the creating phone's secret (for its cookie). Bad settings
    or names raise `TableError` with the game's own explanation.
    """
    try:
        game = find_game(game_slug)
    except LookupError:
        raise TableError(N_("Pick a game from the list.")) from None
    try:
        names = game.check_seats(names)   # cleaned: what the seats are called from now on
        game.new(settings, names)
        if paper is not None:
            game.start_from_paper(settings, names, paper)
    except ValueError as exc:  # RuleError is a ValueError too
        raise TableError(said_of(exc), rule=getattr(exc, "rule", None), status=422) from None
    if not 0 <= host_seat < len(names):
        raise TableError(N_("Pick which player you are."))
    teams = _teams(game, len(names))
    secret = (secret or tokens.new_secret()) if event_id is None else None
    for _attempt in range(20):
        table_id, token, code = tokens.new_table_id(), tokens.new_token(), tokens.new_code()
        try:
            with transaction(db):
                created = now()
                db.execute(
                    "INSERT INTO tables (id, token, code, game, settings, status, version, host_seat,"
                    " created_at, options, event_id, opened_at, group_id)"
                    " VALUES (?, ?, ?, ?, ?, 'playing', 0, ?, ?, ?, ?, ?, ?)",
                    [table_id, token, code, game.slug, json.dumps(settings), host_seat, created,
                     json.dumps(options or {}), event_id, created, group_id])
                for pos, name in enumerate(names):
                    db.execute("INSERT INTO seats (table_id, pos, name, team) VALUES (?, ?, ?, ?)",
                               [table_id, pos, name, teams[pos]])
                if secret is not None:
                    db.execute("INSERT INTO phones (table_id, secret_hash, seat, created_at,"
                               " seen_at) VALUES (?, ?, ?, ?, ?)",
                               [table_id, tokens.phone_hash(secret, table_id), host_seat, created,
                                created])
                    places.note(db, secret, places.TABLE, table_id)
                version = _bump(db, table_id)
                if paper is not None:
                    _append(db, table_id, version, host_seat if secret is not None else None,
                            GAME, paper_action(paper), None)
        except sqlite3.IntegrityError:
            continue  # a code collision: draw again
        live.publish(table_id, 1)
        return get_table(db, table_id), secret
    raise TableError(N_("Could not find a free join code; please try again."), status=503)


def _teams(game: Game, n: int) -> list[str | None]:
    if not getattr(game, "teams", False):
        return [None] * n
    return ["A" if pos % 2 == 0 else "B" for pos in range(n)]


def join(db: sqlite_utils.Database, table: Table, secret: str | None,
         rejoin_seat: int | None = None, rejoin_token: str | None = None) -> tuple[Phone, str]:
    """Give a browser access to a table, keeping its phone if it already has one.

    A re-scan or a reload with the phone's cookie finds the same phone (never a
    duplicate player); a browser new to the table becomes a phone holding `secret`
    (its one cookie, the same at every table; a new secret when None). With a rejoin token (`find_by_token` gave its seat), the phone
    takes over `rejoin_seat` and the token is used up: checked and cleared inside this
    write transaction, so of two phones using one code at once exactly one sits down
    and the other is told the code was used.
    """
    with transaction(db):
        if rejoin_seat is not None:
            used = db.execute("UPDATE seats SET rejoin_token = NULL, locked = 0 WHERE "
                              "table_id = ? AND pos = ? AND rejoin_token = ?",
                              [table.id, rejoin_seat, (rejoin_token or "").strip().upper()])
            if used.rowcount != 1:
                raise NotFound(N_("This rejoin code was already used. Ask the host for a "
                                  "fresh one."))
        phone = phone_by_secret(db, table.id, secret)
        if phone is None:
            secret = secret or tokens.new_secret()
            created = now()
            cur = db.execute("INSERT INTO phones (table_id, secret_hash, seat, created_at, seen_at)"
                             " VALUES (?, ?, NULL, ?, ?)",
                             [table.id, tokens.phone_hash(secret, table.id), created, created])
            phone = Phone(id=cur.lastrowid, table_id=table.id, seat=None)
        places.note(db, secret, places.TABLE, table.id)
        if rejoin_seat is not None:
            db.execute("UPDATE phones SET seat = NULL WHERE table_id = ? AND seat = ?",
                       [table.id, rejoin_seat])
            db.execute("UPDATE phones SET seat = ?, seen_at = ?, removed = 0 WHERE id = ?",
                       [rejoin_seat, now(), phone.id])
            version = _bump(db, table.id)
            _append(db, table.id, version, rejoin_seat, SEAT,
                    {"change": "rejoin", "seat": rejoin_seat}, None)
            phone = Phone(id=phone.id, table_id=table.id, seat=rejoin_seat)
    if rejoin_seat is not None:
        live.publish(table.id, version)
    return phone, secret


def claim_seat(db: sqlite_utils.Database, table_id: str, phone: Phone, pos: int,
               allowed: Collection[int] | None = None, claim: dict | None = None) -> Phone:
    """Seat this phone at `pos`; a seat another phone holds is refused with a `Conflict`.

    At an event's table a phone may take only the seats in `allowed`: its entrant's, as
    the event's players' page vouched for (the web layer works them out); anyone else
    watches. `claim` (the event's claim the phone sits down through) is kept in the seat
    entry of the table's log, so every later entry from this seat traces back to it.
    """
    with transaction(db):
        phone = _phone(db, phone.id)
        seat = _one(db, "SELECT name FROM seats WHERE table_id = ? AND pos = ?", [table_id, pos])
        if seat is None:
            raise NotFound(N_("That seat doesn't exist at this table."))
        if phone.seat == pos:
            return phone
        event_id = _one(db, "SELECT event_id FROM tables WHERE id = ?", [table_id])[0]
        if event_id is not None and pos not in (allowed or ()):
            raise Forbidden(message("table", "This is a tournament table: only {name}'s own "
                                    "phone can take {name}'s seat. If that's you, pick your "
                                    "name on the event's players' page first; anyone else "
                                    "can watch.", name=seat["name"]))
        removed = _one(db, "SELECT removed FROM phones WHERE id = ?", [phone.id])[0]
        if removed or _one(db, "SELECT locked FROM seats WHERE table_id = ? AND pos = ?",
                           [table_id, pos])[0]:
            raise Forbidden(N_("The host took this phone off its seat. It can watch; to play "
                               "again, ask the host for a rejoin code for your seat.")
                            if removed else
                            N_("This seat's phone was removed by the host: only a rejoin code "
                               "from the host opens it now."))
        holder = _one(db, "SELECT id FROM phones WHERE table_id = ? AND seat = ?", [table_id, pos])
        if holder is not None:
            raise Conflict(message("table", "{name}'s seat is already taken by another phone. If "
                                   "that phone was yours, ask the host for a rejoin code for "
                                   "this seat.", name=seat["name"]))
        db.execute("UPDATE phones SET seat = ?, seen_at = ? WHERE id = ?", [pos, now(), phone.id])
        version = _bump(db, table_id)
        payload = {"change": "claim", "seat": pos}
        if claim:
            payload["claim"] = claim
        _append(db, table_id, version, pos, SEAT, payload, None)
    live.publish(table_id, version)
    return Phone(id=phone.id, table_id=table_id, seat=pos)


def leave_seat(db: sqlite_utils.Database, table_id: str, phone: Phone) -> Phone:
    """Turn this phone into a spectator (its seat becomes free)."""
    with transaction(db):
        phone = _phone(db, phone.id)
        if phone.seat is None:
            return phone
        db.execute("UPDATE phones SET seat = NULL WHERE id = ?", [phone.id])
        version = _bump(db, table_id)
        _append(db, table_id, version, phone.seat, SEAT, {"change": "leave", "seat": phone.seat}, None)
    live.publish(table_id, version)
    return Phone(id=phone.id, table_id=table_id, seat=None)


def _host_transaction_checks(db, table_id: str, phone: Phone, pos: int,
                             director: bool = False) -> tuple[Table, Phone, sqlite3.Row]:
    table = get_table(db, table_id)
    phone = _phone(db, phone.id)
    if table.event_id is not None:
        if not director:
            raise Forbidden(N_("At a tournament table only the event's director can do that."))
    elif not host_allowed(table, seats_of(db, table_id), phone):
        raise Forbidden(N_("Only the host's phone can do that."))
    seat = _one(db, "SELECT name FROM seats WHERE table_id = ? AND pos = ?", [table_id, pos])
    if seat is None:
        raise NotFound(N_("That seat doesn't exist at this table."))
    return table, phone, seat


def make_rejoin_token(db: sqlite_utils.Database, table_id: str, phone: Phone, pos: int,
                      director: bool = False) -> str:
    """A one-time token (for a rejoin QR) that puts a new phone in seat `pos`. Host only
    (at an event's table: the director only)."""
    with transaction(db):
        _table, host, _seat = _host_transaction_checks(db, table_id, phone, pos, director)
        token = tokens.new_token()
        db.execute("UPDATE seats SET rejoin_token = ? WHERE table_id = ? AND pos = ?",
                   [token, table_id, pos])
        version = _bump(db, table_id)
        _append(db, table_id, version, host.seat, SEAT, {"change": "rejoin_code", "seat": pos}, None)
    live.publish(table_id, version)
    return token


def release_seat(db: sqlite_utils.Database, table_id: str, phone: Phone, pos: int,
                 director: bool = False) -> None:
    """Remove the phone holding seat `pos`: it becomes a spectator marked removed (it takes
    no seat again but through a rejoin code), the seat is locked until the host gives out a
    rejoin code, and the table (not an event's) gets a new QR token and join code. Host only
    (at an event's table: the director only)."""
    with transaction(db):
        table, host, seat = _host_transaction_checks(db, table_id, phone, pos, director)
        if host.seat == pos:
            raise TableError(N_("That is your own seat. Pass the host role on first, or use "
                                "'Leave seat' to become a spectator."))
        cur = db.execute("UPDATE phones SET seat = NULL, removed = 1 WHERE table_id = ? AND "
                         "seat = ?", [table_id, pos])
        if cur.rowcount == 0:
            raise Conflict(message("table", "No phone holds {name}'s seat right now.",
                                   name=seat["name"]))
        # Until the host gives out a rejoin code, nobody else takes the seat either.
        db.execute("UPDATE seats SET locked = 1 WHERE table_id = ? AND pos = ?", [table_id, pos])
        # The table's QR token and join code change: the removed phone with its cookies
        # cleared is a new browser to the server, and the code it knew no longer opens the
        # table; newcomers get the new code from the phones at the table. (An event's table
        # keeps its code, printed on the table card: its seats open only to passes.)
        if table.event_id is None:
            _new_join_keys(db, table_id)
        version = _bump(db, table_id)
        _append(db, table_id, version, host.seat, SEAT, {"change": "release", "seat": pos}, None)
    live.publish(table_id, version)


def _new_join_keys(db, table_id: str) -> None:
    """Give the table a new QR token and join code (inside the caller's write transaction,
    which holds the write lock: a code drawn here and found free stays free)."""
    for _attempt in range(20):
        token, code = tokens.new_token(), tokens.new_code()
        if _one(db, "SELECT 1 FROM tables WHERE token = ? OR code = ?", [token, code]) is None:
            db.execute("UPDATE tables SET token = ?, code = ? WHERE id = ?", [token, code, table_id])
            return
    raise TableError(N_("Could not find a free join code; please try again."), status=503)


def pass_host(db: sqlite_utils.Database, table_id: str, phone: Phone, pos: int) -> None:
    """Make seat `pos` the host. Host only."""
    with transaction(db):
        table, host, _seat = _host_transaction_checks(db, table_id, phone, pos)
        if table.host_seat == pos:
            return
        db.execute("UPDATE tables SET host_seat = ? WHERE id = ?", [pos, table_id])
        # The phone in that seat gains the host's rights: its cookie's key is renewed on its
        # next request (companion/web/cookies.py), so a copy of its old cookie isn't host.
        db.execute("UPDATE phones SET rotate = 1 WHERE table_id = ? AND seat = ?", [table_id, pos])
        version = _bump(db, table_id)
        _append(db, table_id, version, host.seat, SEAT, {"change": "host", "seat": pos}, None)
    live.publish(table_id, version)


def rename_seat(db: sqlite_utils.Database, table_id: str, pos: int, name: str,
                final: Sequence[str] | None = None) -> int:
    """Give seat `pos` another player's name: an event's director swapped two entrants
    between tables before their games started. Returns the table's new version.

    The phone holding the seat, if any, goes back to watching, and a rejoin code made for
    the seat stops working: both belonged to the player who moved to another table
    (refusing instead would block the director whenever a player sat down early). Refused
    once the game has started here: the sheet's entries were made under the old names.
    Inside the caller's transaction (a swap renames seats at two tables and records the
    swap in one) the caller publishes the version (`live.publish`) after its commit;
    without one this runs and publishes on its own. `final`, the table's seat names once
    the caller has renamed every seat it means to, is what a name may not repeat (two
    entrants trading seats at one table pass each other on the way).
    """
    if not db.conn.in_transaction:
        with transaction(db):
            version = rename_seat(db, table_id, pos, name, final)
        live.publish(table_id, version)
        return version
    seat = _one(db, "SELECT name FROM seats WHERE table_id = ? AND pos = ?", [table_id, pos])
    if seat is None:
        raise NotFound(N_("That seat doesn't exist at this table."))
    name = clean_name(name or "")
    if not name:
        raise TableError(N_("A seat needs a name."))
    if final is None:
        others = [row[0] for row in db.execute("SELECT name FROM seats WHERE table_id = ? AND"
                                               " pos != ?", [table_id, pos]).fetchall()]
    else:
        others = [other for at, other in enumerate(final) if at != pos]
    if any(name_key(other) == name_key(name) for other in others):
        raise TableError(message("table", "{name} already has a seat at this table.", name=name))
    started = _one(db, "SELECT 1 FROM actions WHERE table_id = ? AND kind != ? LIMIT 1",
                   [table_id, SEAT])
    if started is not None:
        raise TableError(N_("The game at this table has started: its seats keep their names."))
    db.execute("UPDATE seats SET name = ?, rejoin_token = NULL, locked = 0 WHERE table_id = ? "
               "AND pos = ?",
               [name, table_id, pos])
    db.execute("UPDATE phones SET seat = NULL WHERE table_id = ? AND seat = ?", [table_id, pos])
    version = _bump(db, table_id)
    _append(db, table_id, version, None, SEAT, {"change": "rename", "seat": pos, "name": name},
            None)
    return version


# ---------------------------------------------------------------- the game log

def sheet(db: sqlite_utils.Database, table: Table) -> Sheet:
    """The table's current game, derived from its log."""
    with _reading(db):
        seats = seats_of(db, table.id)
        result = _folded(db, table, [s.name for s in seats])
        return _make_sheet(table, seats, result, _last_undoable(db, table.id),
                           _waiting(db, table))


def _make_sheet(table: Table, seats: list[Seat], result: FoldResult,
                last: ActionRow | None, waiting: ActionRow | None) -> Sheet:
    past_key = (table.id, result.past_seq) if result.past_seq is not None else None
    return Sheet(table=table, seats=seats, state=result.state, summary=result.summary,
                 past_games=result.past_games, game_number=len(result.past_games) + 1,
                 last_undoable=last, replay_errors=result.errors, waiting=waiting,
                 past_key=past_key)


@contextmanager
def _reading(db) -> Iterator[None]:
    """The reads inside see one state of the database: a read transaction, unless the
    caller's (write) transaction is open already."""
    if db.conn.in_transaction:
        yield
        return
    db.conn.execute("BEGIN")
    try:
        yield
    finally:
        if db.conn.in_transaction:
            db.conn.execute("COMMIT")


def _folded(db, table: Table, names: list[str]) -> FoldResult:
    """The fold of the table's log as it stands (read inside one transaction): this
    process's copy for the table's version, else the stored fold when it is current,
    else a replay of the whole log. Reads only: a write stores the fold it makes."""
    hit = folds.cached(table.id, table.version)
    if hit is not None:
        return hit
    row = _one(db, "SELECT seq FROM actions WHERE table_id = ? AND kind IN (?, ?, ?, ?, ?) ORDER"
                   " BY seq DESC LIMIT 1", [table.id, *STATE_ROW_KINDS])
    latest = row[0] if row is not None else 0
    result = _stored(db, table, latest, names) if latest else None
    if result is None:
        result = fold(table.game, table.settings, names,
                      _actions(db, table.id) if latest else [])
    # Kept for the version the caller read only if nothing has changed since (a reader
    # outside a write transaction may hold an older version than what it just read).
    row = _one(db, "SELECT version FROM tables WHERE id = ?", [table.id])
    if row is not None and row[0] == table.version:
        folds.remember(table.id, table.version, result)
    return result


def _stored(db, table: Table, latest: int, names: list[str]) -> FoldResult | None:
    """The table's stored fold if it is the fold of the log as it stands: written with
    the newest action that changes the sheet (`latest`), by the same rules code, for the
    same names."""
    table_id = table.id
    row = _one(db, "SELECT seq, rules, past_seq, game FROM table_folds WHERE table_id = ?",
               [table_id])
    if row is None or row["seq"] != latest or row["rules"] != folds.fingerprint(table.game):
        return None
    past = folds.cached_past(table_id, row["past_seq"])
    if past is None:
        blob = _one(db, "SELECT past FROM table_fold_pasts WHERE table_id = ? AND past_seq = ?",
                    [table_id, row["past_seq"]])
        past = folds.load_past(table_id, row["past_seq"], blob[0]) if blob is not None else None
        if past is None:
            return None
    return folds.load_game(row["game"], names, past, row["past_seq"])


def _store(db, table: Table, seq: int, version: int, names: list[str],
           result: FoldResult) -> tuple[FoldResult, bool]:
    """Store `result` as the table's fold once action `seq` (at `version`) is written, in
    the writer's transaction. The earlier games are rewritten only when they changed.
    Returns the result as stored and whether its earlier games were written (for
    `_remember`, after the commit)."""
    table_id, rules = table.id, folds.fingerprint(table.game)
    game = folds.dump_game(result, names)
    if result.past_seq is not None:   # the earlier games as stored: unless the row is gone
        done = db.execute("UPDATE table_folds SET seq = ?, version = ?, game = ? WHERE table_id"
                          " = ? AND past_seq = ? AND rules = ?",
                          [seq, version, game, table_id, result.past_seq, rules])
        if done.rowcount == 1:
            _record(db, table, names, result)
            return result, False
    db.execute("INSERT INTO table_folds (table_id, seq, version, rules, game, past_seq)"
               " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
               " seq = excluded.seq, version = excluded.version, rules = excluded.rules,"
               " game = excluded.game, past_seq = excluded.past_seq",
               [table_id, seq, version, rules, game, seq])
    db.execute("INSERT INTO table_fold_pasts (table_id, past_seq, past) VALUES (?, ?, ?)"
               " ON CONFLICT (table_id) DO UPDATE SET past_seq = excluded.past_seq,"
               " past = excluded.past", [table_id, seq, folds.dump_past(result)])
    _record(db, table, names, result)
    return replace(result, past_seq=seq), True


def _record(db, table: Table, names: list[str], result: FoldResult) -> None:
    """A group's table: its record of the current game follows the sheet just stored (in
    the same transaction, so a refused write records nothing)."""
    if table.group_id is None:
        return
    from companion.groups.records import record_table   # groups build on tables

    record_table(db, table, names, result)


def _remember(table_id: str, version: int, result: FoldResult, past_written: bool) -> None:
    """After the commit of a write that stored `result`: keep it in this process (never
    before: a rolled-back write's version and seq are used again by the next one)."""
    folds.remember(table_id, version, result)
    if past_written:
        folds.remember_past(table_id, result.past_seq, result)


def _status(summary: dict) -> str:
    return "over" if summary.get("over") else "playing"


def _check_fresh(db, table: Table, seats: list[Seat], version: int, phone: Phone,
                 typed: bool = True) -> None:
    """Refuse a write made against an old sheet (`Stale`), saying what changed since and,
    for a form with typing in it (`typed`), that the typing is still there to save again."""
    if not 1 <= version <= table.version:
        raise TableError(N_("The form's sheet version isn't one this table ever had. Reload the "
                            "page."))
    if version == table.version:    # nothing was written since the form was drawn
        return
    newer = [a for a in _newer(db, table.id, version) if a.row_kind in STATE_ROW_KINDS]
    if not newer:
        return
    first = newer[0]
    if first.seat == phone.seat:
        who = message("table", "Your other screen")
    else:
        who = next((s.name for s in seats if s.pos == first.seat), None)
        who = who if who is not None else message("table", "Someone")
    what = {GAME: message("table", "saved an entry"), UNDO: message("table", "undid an entry"),
            REMATCH: message("table", "started a rematch"),
            CONFIRM: message("table", "confirmed an entry"),
            EDIT: message("table", "changed an entry")}[first.row_kind]
    if first.row_kind == UNDO and first.pending:
        what = message("table", "asked to change a confirmed entry")
    elif first.row_kind == UNDO and "restores" in first.payload:
        what = message("table", "restored an entry")
    if len(newer) == 1:
        more = ""
    elif len(newer) == 2:
        more = message("table", " (and 1 more change)")
    else:
        more = message("table", " (and {n} more changes)", n=len(newer) - 1)
    if typed:
        raise Stale(message("table", "{who} {what} (#{seq}) just before you{more}. Your entry is "
                                     "still here: check it against the sheet, then save again.",
                            who=who, what=what, seq=first.seq, more=more))
    raise Stale(message("table", "{who} {what} (#{seq}) just before you{more}. Check the sheet, "
                                 "then try again.", who=who, what=what, seq=first.seq,
                        more=more))


def _refuse_retired(table: Table) -> None:
    """A retired table takes no entry, undo, confirmation or rematch: its round was seated
    again on other tables, so nothing written here would count."""
    if table.retired is not None:
        raise Retired(table.retired_notice)


@dataclass
class _WriteRead:
    """What a write re-reads first, inside its transaction, in one statement: the table,
    its seats, the writing phone as the table knows it now (None: removed since), and the
    seq of the action already stored for this form's submission id, if any."""

    table: Table
    seats: list[Seat]
    phone: Phone | None
    repeat_seq: int | None


def _read_for_write(db, table_id: str, phone: Phone, submission_id: str | None) -> _WriteRead:
    """The table as a write starts from (see :class:`_WriteRead`); `NotFound` when there
    is no such table. One statement, since every write needs all of it: an entry reads
    the table once."""
    rows = db.execute(
        "SELECT t.*, s.pos AS seat_pos, s.name AS seat_name, s.team AS seat_team,"
        " s.locked AS seat_locked, EXISTS(SELECT 1 FROM phones p WHERE p.table_id = t.id AND"
        " p.seat = s.pos) AS seat_has_phone, me.id AS me_id, me.seat AS me_seat,"
        " (SELECT a.seq FROM actions a WHERE a.table_id = t.id AND a.submission_id = ?)"
        " AS repeat_seq"
        " FROM tables t LEFT JOIN phones me ON me.id = ? AND me.table_id = t.id"
        " LEFT JOIN seats s ON s.table_id = t.id WHERE t.id = ? ORDER BY s.pos",
        [submission_id or None, phone.id, table_id]).fetchall()
    if not rows:
        get_table(db, table_id)         # raises NotFound, in its own words
    first = rows[0]
    seats = [Seat(pos=r["seat_pos"], name=r["seat_name"], team=r["seat_team"],
                  has_phone=bool(r["seat_has_phone"]), locked=bool(r["seat_locked"]))
             for r in rows if r["seat_pos"] is not None]
    me = (Phone(id=first["me_id"], table_id=table_id, seat=first["me_seat"])
          if first["me_id"] is not None else None)
    return _WriteRead(_table_from_row(first), seats, me, first["repeat_seq"])


def _start_write(db, table_id: str, phone: Phone, submission_id: str, row_kind: str,
                 read: _WriteRead | None = None
                 ) -> tuple[Table, Phone, list[Seat], Outcome | None]:
    """Inside a write transaction: re-read the table, its seats and the phone (`read`, when
    the caller has read them already); find a repeated submission.

    Returns the fresh table, phone and seats, and the earlier outcome when this submission
    id was already stored (a double tap or a retry), which the caller returns unchanged.
    """
    if read is None:
        read = _read_for_write(db, table_id, phone, submission_id)
    table = read.table
    _refuse_retired(table)
    if read.phone is None:
        raise Forbidden(N_("This phone was removed from the table. Scan the table's QR code to "
                           "join again."))
    phone = _require_seated(read.phone)
    done = (_by_submission(db, table_id, submission_id, row_kind)
            if read.repeat_seq is not None else None)
    return (table, phone, read.seats,
            Outcome(done, True, sheet(db, table)) if done is not None else None)


#: What an entry is made of: the rules action itself, or a parser that makes it from the
#: table as the write reads it, the seats' names and the current game's summary (the game's
#: web adapter reading the form). A parser's ValueError is the player's mistake.
Entry = dict | Callable[[Table, list[str], dict], dict]


def enter(db: sqlite_utils.Database, table_id: str, phone: Phone, entry: Entry, version: int,
          submission_id: str) -> Outcome:
    """Append one game action made against `version`; idempotent per `submission_id`.

    `entry` is the action, or its parser (see :data:`Entry`), which reads the form against
    the fold this write starts from: the table is read once per entry, inside the one
    write transaction. A parser's refusal is raised first, as `Refused` (422). A repeat of
    a stored submission returns the stored action (`duplicate=True`). A stale version
    raises `Conflict`, an illegal action `Refused` with its rule.
    """
    with transaction(db):
        read = _read_for_write(db, table_id, phone, submission_id)
        table, names = read.table, [s.name for s in read.seats]
        current = _folded(db, table, names)
        if callable(entry):
            try:
                payload = entry(table, names, current.summary)
            except ValueError as exc:    # RuleError too: the adapter's reading of the form
                raise Refused(exc) from None
        else:
            payload = entry
        table, phone, seats, repeat = _start_write(db, table_id, phone, submission_id, GAME,
                                                   read)
        if repeat is not None:
            return repeat
        _check_fresh(db, table, seats, version, phone)
        waiting = _waiting(db, table)
        if waiting is not None:
            raise Conflict(_waiting_message(_make_sheet(table, seats, current, None, waiting)))
        if current.summary.get("over") and payload.get("kind") != NEXT_GAME:
            raise TableError(N_("This game is over. Start a rematch to play again."), status=409,
                             rule=(current.summary.get("over_reason") or {}).get("rule"))
        try:
            new_state = table.game.apply(current.state, payload)
        except RuleError as exc:
            # The sentence kept as raised (said_of): a rules sentence may be a Said that the
            # web translates (companion.rules.said); it is still a plain str for everyone else.
            raise Refused(exc, rule=exc.rule) from None
        except ValueError as exc:
            raise Refused(exc) from None
        pending = table.confirms
        if pending:   # it counts once the other team confirms it: the sheet stays as it is
            result, status = current, "waiting"
        else:
            result = folds.step(current, new_state, table.game.summary(new_state))
            status = _status(result.summary)
        new_version = _bump(db, table_id, status, chrome=False)
        action = _append(db, table_id, new_version, phone.seat, GAME, payload, submission_id,
                         pending)
        result, past_written = _store(db, table, action.seq, new_version, names, result)
        table = replace(table, version=new_version, status=status)
    _remember(table_id, new_version, result, past_written)
    live.publish(table_id, new_version)
    # The new entry is the newest one not undone, and it is the one waiting if any is:
    # an entry is refused while another waits.
    return Outcome(action, False, _make_sheet(table, seats, result, action,
                                              action if pending else None))


@dataclass
class Editing:
    """An entry as its edit form starts from: the entry (`entry`, its row in the log), what
    it says now (`payload`: its newest change that counts, else as it was entered), and its
    game just before it (`summary`, `state`), against which the form is read and the rules
    judge the new values."""

    entry: ActionRow
    payload: dict
    summary: dict
    state: Any


def _changeable(db, table: Table, seq: Any) -> ActionRow:
    """The game entry `seq` if it may be changed in place: one that counts on the sheet
    (not struck, not waiting for the other team)."""
    goal = _action_at(db, table.id, seq)
    if goal is None or goal.row_kind != GAME:
        raise NotFound(message("table", "There is no entry #{seq} to change.", seq=seq))
    if goal.undone_by is not None:
        raise Conflict(message("table", "Entry #{seq} was struck: restore it in the history "
                                        "first to change it.", seq=seq))
    if goal.waiting:
        raise Conflict(message("table", "Entry #{seq} is waiting for the other team to confirm "
                                        "it: reject it and enter it again instead.", seq=seq))
    return goal


def _before(db, table: Table, names: list[str], current: FoldResult,
            goal: ActionRow) -> tuple[_Part, dict, FoldResult]:
    """The part of the log holding entry `goal` (its game), what the entry says now, and
    the fold of its game just before it (one game's replay)."""
    part = _part_of(db, table.id, current, goal, None)
    earlier = [a for a in part.actions if a.seq < goal.seq or a.row_kind == EDIT]
    before = fold(table.game, table.settings, names, earlier)
    return part, folds.edits(part.actions).get(goal.seq, goal.payload), before


def editing(db: sqlite_utils.Database, table: Table, seq: Any) -> Editing:
    """Entry `seq` as its edit form shows it (see :class:`Editing`); `NotFound` when there
    is no such game entry, `Conflict` when it was struck or still waits for the other
    team. Reads only."""
    with _reading(db):
        names = [s.name for s in seats_of(db, table.id)]
        current = _folded(db, table, names)
        goal = _changeable(db, table, seq)
        _part, payload, before = _before(db, table, names, current, goal)
        return Editing(goal, payload, before.summary, before.state)


#: What a change in place is made of: the change's payload (``{"action": <rules action>,
#: ...}``: any other keys are words its history line needs, e.g. the hand's ``number``),
#: or a parser that makes it from the table, the seats' names, the game's summary just
#: before the entry and what the entry says now. A parser's ValueError is the player's
#: mistake.
Change = dict | Callable[[Table, list[str], dict, dict], dict]


def edit(db: sqlite_utils.Database, table_id: str, phone: Phone, target: Any, change: Change,
         version: int, submission_id: str) -> Outcome:
    """Change game entry `target` in place, made against `version`; idempotent per
    `submission_id`.

    The change is an action of its own (row kind ``edit``, payload ``{"target", "action",
    "was", ...}``) that the fold reads in the entry's place (`fold.edits`): the entry keeps
    its place in the log, so the sheet keeps its order and numbering, every later total
    follows and whoever dealt each hand still did. The rules judge the new action on the
    game as it stood just before the entry (`Refused`, with its rule), then every later
    entry of that game again (a `TableError` 422 naming the first that no longer fits);
    a refusal writes nothing. Like an entry, a change waits for the other team's
    confirmation where they confirm entries, and can be undone (which brings the values
    before it back) like any entry.
    """
    with transaction(db):
        read = _read_for_write(db, table_id, phone, submission_id)
        table, names = read.table, [s.name for s in read.seats]
        table, phone, seats, repeat = _start_write(db, table_id, phone, submission_id, EDIT,
                                                   read)
        if repeat is not None:
            return repeat
        current = _folded(db, table, names)
        goal = _changeable(db, table, target)
        part, was, before = _before(db, table, names, current, goal)
        if callable(change):
            try:
                extra = change(table, names, before.summary, was)
            except ValueError as exc:    # RuleError too: the adapter's reading of the form
                raise Refused(exc) from None
        else:
            extra = dict(change)
        action = extra.get("action")
        if not isinstance(action, dict):
            raise TableError(N_("A change needs the entry's new values."))
        _check_fresh(db, table, seats, version, phone)
        waiting = _waiting(db, table)
        if waiting is not None:
            raise Conflict(_waiting_message(_make_sheet(table, seats, current, None, waiting)))
        if action == was:
            raise TableError(message("table", "Entry #{seq} already says that: nothing was "
                                              "changed.", seq=goal.seq), status=422)
        game = table.game
        try:
            state = game.apply(before.state, action)
        except RuleError as exc:
            raise Refused(exc, rule=exc.rule) from None
        except ValueError as exc:
            raise Refused(exc) from None
        payload = {**{k: v for k, v in extra.items() if k not in ("target", "was")},
                   "target": goal.seq, "action": action, "was": was}
        proposed = ActionRow(seq=1 << 62, version=0, seat=phone.seat, row_kind=EDIT,
                             payload=payload, submission_id=None, created_at="",
                             undone_by=None)
        after = sorted(part.actions + [proposed], key=lambda a: a.seq)
        _check_later(game, state, after, goal.seq)
        folded = part.fold(table, names, after)
        if folded.errors:    # pragma: no cover - _check_later found these first
            raise TableError(message("table", "Entry #{seq} can't be changed that way: {why}",
                                     seq=goal.seq, why=folded.errors[0]), status=422)
        pending = table.confirms
        if pending:   # it counts once the other team confirms it: the sheet stays as it is
            result, status = current, "waiting"
        else:
            result, status = folded, _status(folded.summary)
        new_version = _bump(db, table_id, status, chrome=False)
        row = _append(db, table_id, new_version, phone.seat, EDIT, payload, submission_id,
                      pending)
        result, past_written = _store(db, table, row.seq, new_version, names, result)
        table = replace(table, version=new_version, status=status)
        done = _make_sheet(table, seats, result, row, row if pending else None)
    _remember(table_id, new_version, result, past_written)
    live.publish(table_id, new_version)
    return Outcome(row, False, done)


def _check_later(game: Game, state: Any, actions: list[ActionRow], seq: int) -> None:
    """Replay the entries of entry `seq`'s game after it on `state` (the game with the
    entry changed): the first one the rules now refuse is named, with its rule, as a
    `TableError` (422)."""
    changed = folds.edits(actions)
    for action in actions:
        if action.seq <= seq or action.undone_by is not None or action.waiting:
            continue
        if action.row_kind == REMATCH:
            break
        if action.row_kind != GAME:
            continue
        try:
            state = game.apply(state, changed.get(action.seq, action.payload))
        except (RuleError, ValueError) as exc:
            raise TableError(message("table", "Entry #{seq} can't be changed that way: entry "
                                              "#{later} after it would no longer be legal "
                                              "({why}). Undo the later entries first, or "
                                              "change them too.", seq=seq, later=action.seq,
                                     why=said_of(exc)),
                             rule=getattr(exc, "rule", None), status=422) from None


def _waiting_message(current: Sheet) -> str:
    names = current.summary.get("team_names") or {}
    return message("table", "Entry #{seq} is waiting for {team} to confirm it. Confirm or "
                            "reject it first.", seq=current.waiting.seq,
                   team=names.get(current.confirming_team) or message("table", "the other team"))


def confirm(db: sqlite_utils.Database, table_id: str, phone: Phone, target: int,
            submission_id: str) -> Outcome:
    """The other team accepts a pending entry, which then counts (house rule `confirm`)."""

    def check(actions: list[ActionRow], goal: ActionRow | None, seats: list[Seat],
              _waiting: ActionRow | None) -> tuple[list[ActionRow], dict]:
        if goal is None or not goal.waiting:
            raise Conflict(message("table", "Entry #{seq} isn't waiting for a confirmation "
                                            "(any more).", seq=target))
        teams = {s.pos: s.team for s in seats}
        if teams.get(phone.seat) == teams.get(goal.seat):
            raise Forbidden(N_("The other team confirms an entry, not the team that made it."))
        if goal.row_kind == UNDO:
            return _consented(actions, goal)
        return [replace(a, confirmed_by=0) if a.seq == target else a for a in actions], {}

    def refused(why: str, payload: dict) -> str:
        if "struck" in payload or "restores" in payload:
            return message("table", "Request #{seq} no longer fits the sheet ({why}). Reject it "
                                    "and ask again once the later entries are sorted out.",
                           seq=target, why=why)
        return message("table", "Entry #{seq} no longer fits the sheet ({why}). Reject it and "
                                "enter it again.", seq=target, why=why)

    return _append_mark(db, table_id, phone, target, submission_id, CONFIRM, "confirmed_by",
                       check, refused)


def undo(db: sqlite_utils.Database, table_id: str, phone: Phone, target: int,
         submission_id: str) -> Outcome:
    """Strike entry `target` from the sheet by appending an undo; nothing is deleted.

    When `target` is itself a strike (an undo of an entry), this takes the strike back:
    the entry it struck counts again ("restored"). The new undo's payload then says
    ``{"target": <the strike>, "restores": <the entry>}``; the strike is marked undone by
    it and the entry is no longer marked undone, so every reader of ``undone_by`` (the
    fold, "Undo last", conflicts) sees the entry as live, and the history keeps all three
    rows. A restore itself can't be taken back this way: strike the entry again.

    At a table where the other team confirms each entry, striking or restoring an entry
    that counts (a confirmed hand) changes what both teams agreed to, so it needs their
    consent too: the undo is stored as a request (see :func:`_ask_consent`) that counts
    once the other team confirms it. Undoing a request that waits cancels it.
    """
    consent = get_table(db, table_id).confirms   # table options never change after creation
    if consent:
        asked = _ask_consent(db, table_id, phone, target, submission_id)
        if asked is not None:
            return asked

    def check(actions: list[ActionRow], goal: ActionRow | None, seats: list[Seat],
              waiting: ActionRow | None) -> tuple[list[ActionRow], dict]:
        if consent and goal is not None and _needs_consent(goal, _target_of(actions, goal)):
            # Confirmed by the other team since _ask_consent looked: ask again.
            raise Conflict(message("table", "Entry #{seq} was confirmed meanwhile, so changing "
                                            "it now needs the other team's consent. Try "
                                            "again to ask them.", seq=target))
        if goal is not None and goal.row_kind == UNDO and goal.waiting:
            # A request nobody confirmed yet: cancelling it changes nothing on the sheet.
            return [replace(a, undone_by=0) if a.seq == target else a for a in actions], \
                {"cancels": True}
        if goal is not None and goal.row_kind == UNDO:
            return _restore_check(actions, goal, seats, waiting)
        if goal is None or goal.row_kind not in UNDOABLE:
            raise NotFound(message("table", "There is no entry #{seq} to undo.", seq=target))
        if goal.undone_by is not None:
            raise Conflict(message("table", "Entry #{seq} was already undone by {who}.",
                                   seq=target, who=_who_did(actions, seats, goal.undone_by)))
        return [a for a in actions if a.seq != target], {}

    def refused(why: str, payload: dict) -> str:
        if "restores" in payload:
            return message("table", "Entry #{seq} can't be restored: with it back, the sheet "
                                    "would break the rules ({why}). Strike the later entries "
                                    "first, or enter it again.",
                           seq=payload["restores"], why=why)
        return message("table", "Entry #{seq} can't be struck: the entries after it would no "
                                "longer be legal ({why}). Undo the later ones first.",
                       seq=target, why=why)

    return _append_mark(db, table_id, phone, target, submission_id, UNDO, "undone_by", check,
                       refused)


def _who_did(actions: list[ActionRow], seats: list[Seat], seq: int) -> str:
    """The name of the seat that made action `seq` ("Someone" if it has none)."""
    doer = next((a for a in actions if a.seq == seq), None)
    who = next((s.name for s in seats if doer is not None and s.pos == doer.seat), None)
    return who or message("table", "Someone")


def _restore_check(actions: list[ActionRow], strike: ActionRow, seats: list[Seat],
                   waiting: ActionRow | None) -> tuple[list[ActionRow], dict]:
    """Taking back `strike` (an undo): the log as it reads with its entry live again.
    `actions` hold the entry and `waiting` is the entry waiting anywhere in the log."""
    entry = next((a for a in actions if a.seq == strike.payload.get("target")), None)
    if entry is None or entry.row_kind not in UNDOABLE:
        raise TableError(message("table", "Entry #{seq} brought an entry back; it can't be "
                                          "taken back itself. Strike the entry again instead.",
                                 seq=strike.seq))
    if strike.undone_by is not None or entry.undone_by != strike.seq:
        raise Conflict(message("table", "Entry #{seq} is already back on the sheet (restored "
                                        "by {who}).", seq=entry.seq,
                               who=_who_did(actions, seats, strike.undone_by or 0)))
    if entry.pending and entry.confirmed_by is None and waiting is not None:
        raise Conflict(message("table", "Entry #{seq} would wait for a confirmation again, "
                                        "and another entry is waiting. Confirm or reject that "
                                        "one first.", seq=entry.seq))
    after = [replace(a, undone_by=None) if a.seq == entry.seq else
             replace(a, undone_by=0) if a.seq == strike.seq else a for a in actions]
    return after, {"restores": entry.seq}


def _counts(action: ActionRow | None) -> bool:
    """Whether `action` is an entry that counts on the sheet when not struck: a rematch,
    or a game entry that needed no confirmation or got it."""
    return action is not None and action.row_kind in UNDOABLE and not (
        action.pending and action.confirmed_by is None)


def _target_of(actions: list[ActionRow], goal: ActionRow) -> ActionRow | None:
    """The action an undo `goal` names, if it is among `actions`."""
    seq = goal.payload.get("target") if goal.row_kind == UNDO else None
    return next((a for a in actions if a.seq == seq), None)


def _needs_consent(goal: ActionRow, entry: ActionRow | None) -> bool:
    """Whether undoing `goal` changes what both teams agreed to (at a table where the
    other team confirms entries): striking an entry that counts, or taking back a
    strike that took one off the sheet (`entry`, the strike's target). Withdrawing or
    rejecting a waiting entry, cancelling a waiting request and bringing back an entry
    that never counted need no consent: they change nothing that was agreed."""
    if goal.row_kind in UNDOABLE:
        return goal.undone_by is None and _counts(goal)
    if goal.row_kind == UNDO and not goal.waiting and goal.undone_by is None:
        return entry is not None and entry.undone_by == goal.seq and _counts(entry)
    return False


def _change_of(actions: list[ActionRow], goal: ActionRow) -> tuple[list[ActionRow], dict]:
    """The log as it reads once an undo of `goal` counts, and what the request's payload
    adds: a strike takes `goal` off; a restore (``restores``) lifts the strike `goal`
    and brings its entry back."""
    if goal.row_kind == UNDO:
        entry = goal.payload.get("target")
        return [replace(a, undone_by=None) if a.seq == entry else
                replace(a, undone_by=0) if a.seq == goal.seq else a for a in actions], \
            {"restores": entry}
    return [replace(a, undone_by=0) if a.seq == goal.seq else a for a in actions], {}


def _consented(actions: list[ActionRow], request: ActionRow) -> tuple[list[ActionRow], dict]:
    """The other team confirms `request` (a waiting undo): the log as it reads with the
    request's strike or restore in effect, and the confirmation's payload keys that make
    it so in the database (``struck``: the entry it strikes; ``lifts`` and ``restores``:
    the strike it takes back and the entry that counts again)."""
    entry = request.payload.get("target")
    confirmed = [replace(a, confirmed_by=0) if a.seq == request.seq else a for a in actions]
    if "restores" in request.payload:
        back = request.payload["restores"]
        return [replace(a, undone_by=None) if a.seq == back else
                replace(a, undone_by=request.seq) if a.seq == entry else a
                for a in confirmed], {"lifts": entry, "restores": back}
    return [replace(a, undone_by=request.seq) if a.seq == entry else a for a in confirmed], \
        {"struck": entry}


def _ask_consent(db: sqlite_utils.Database, table_id: str, phone: Phone, target: int,
                 submission_id: str) -> Outcome | None:
    """At a table where the other team confirms entries: an undo of `target` that changes
    what was agreed (:func:`_needs_consent`) is stored as a request, an undo action
    waiting for the other team's confirmation (like an entry), and changes nothing yet.
    Returns None, writing nothing, when the undo needs no consent (the caller then undoes
    as usual). One entry or request waits at a time; a request the sheet could not take
    (a later entry depends on the struck one) is refused at once."""
    with transaction(db):
        table, phone, seats, repeat = _start_write(db, table_id, phone, submission_id,
                                                   UNDO)
        if repeat is not None:
            return repeat
        goal = _action_at(db, table_id, target)
        entry = (_action_at(db, table_id, goal.payload.get("target"))
                 if goal is not None and goal.row_kind == UNDO else None)
        if goal is None or not _needs_consent(goal, entry):
            return None
        names = [s.name for s in seats]
        current = _folded(db, table, names)
        waiting = _waiting(db, table)
        if waiting is not None:
            raise Conflict(_waiting_message(_make_sheet(table, seats, current, None, waiting)))
        here = current.game_start
        this_game = goal.row_kind in (GAME, EDIT) and _affects(goal) > here
        after, extra = _change_of(_actions(db, table_id, after=here if this_game else 0), goal)
        folded = fold(table.game, table.settings, names, after,
                      start=current if this_game else None)
        if folded.errors:
            if "restores" in extra:
                why = message("table", "Entry #{seq} can't be restored: with it back, the sheet "
                                       "would break the rules ({why}). Strike the later entries "
                                       "first, or enter it again.", seq=extra["restores"],
                              why=folded.errors[0])
            else:
                why = message("table", "Entry #{seq} can't be struck: the entries after it would "
                                       "no longer be legal ({why}). Undo the later ones first.",
                              seq=target, why=folded.errors[0])
            raise TableError(why, status=422)
        new_version = _bump(db, table_id, "waiting", chrome=False)
        action = _append(db, table_id, new_version, phone.seat, UNDO, {"target": target, **extra},
                         submission_id, pending=True)
        # The sheet stays as it is until the other team confirms.
        result, past_written = _store(db, table, action.seq, new_version, names, current)
        table = replace(table, version=new_version, status="waiting")
        done = _make_sheet(table, seats, result, _last_undoable(db, table_id), action)
    _remember(table_id, new_version, result, past_written)
    live.publish(table_id, new_version)
    return Outcome(action, False, done)


def _append_mark(db: sqlite_utils.Database, table_id: str, phone: Phone, target: int,
                 submission_id: str, row_kind: str, column: str,
                 check: Callable[[list[ActionRow], ActionRow | None, list[Seat],
                                  ActionRow | None], tuple[list[ActionRow], dict]],
                 refused: Callable[[str, dict], str]) -> Outcome:
    """Append the action that marks an earlier entry, the one write path for it (undo
    strikes the entry, confirm accepts it, an undo of a strike restores the entry).

    Inside one write transaction: `check(actions, goal, seats, waiting)` refuses what may
    not be marked and returns the log as it would read afterwards and what to add to the
    new action's payload; that log must still fold without errors (else `refused(first
    error, payload)`); then an action of `row_kind` is appended and the target's `column`
    points at it. A payload with ``restores`` also clears that entry's ``undone_by``.

    Only the part of the log the mark can change is read and refolded (`_part_of`): the
    game the entry belongs to (two games when a rematch between them is struck or
    restored), so an entry of the first of 2,000 games costs one game's replay inside the
    write lock, not the whole evening's.
    """
    with transaction(db):
        table, phone, seats, repeat = _start_write(db, table_id, phone, submission_id,
                                                   row_kind)
        if repeat is not None:
            return repeat
        names = [s.name for s in seats]
        current = _folded(db, table, names)
        goal = _action_at(db, table_id, target)
        entry = (_action_at(db, table_id, goal.payload.get("target"))
                 if goal is not None and goal.row_kind == UNDO else None)
        part = _part_of(db, table_id, current, goal, entry)
        after, extra = check(part.actions, goal, seats, _waiting(db, table))
        folded = part.fold(table, names, after)
        if folded.errors:
            raise TableError(refused(folded.errors[0], extra), status=422)
        status = _status(folded.summary)
        new_version = _bump(db, table_id, status, chrome=False)
        action = _append(db, table_id, new_version, phone.seat, row_kind,
                         {"target": target, **extra}, submission_id)
        # `column` is one of two fixed names chosen above, never user input.
        db.execute(f"UPDATE actions SET {column} = ? WHERE table_id = ? AND seq = ?",
                   [action.seq, table_id, target])
        if "restores" in extra:
            db.execute("UPDATE actions SET undone_by = NULL WHERE table_id = ? AND seq = ?",
                       [table_id, extra["restores"]])
        for key in ("struck", "lifts"):    # a confirmed request: its strike takes effect
            if key in extra:
                db.execute("UPDATE actions SET undone_by = ? WHERE table_id = ? AND seq = ?",
                           [target, table_id, extra[key]])
        result, past_written = _store(db, table, action.seq, new_version, names, folded)
        table = replace(table, version=new_version, status=status)
        done = _make_sheet(table, seats, result, _last_undoable(db, table_id),
                           _waiting(db, table))
    _remember(table_id, new_version, result, past_written)
    live.publish(table_id, new_version)
    return Outcome(action, False, done)


@dataclass
class _Part:
    """The part of a table's log an undo or a confirmation can change, and how to refold
    the log from it: the actions after seq `start` and before seq `end` (None: to the end
    of the log), which are `count` games from number `first` (0-based) on as the log
    stands; the fold as it stood (`current`). `whole`: refold the whole log instead."""

    actions: list[ActionRow]
    current: FoldResult
    start: int = 0
    end: int | None = None
    first: int = 0
    count: int = 0
    whole: bool = False

    def fold(self, table: Table, names: list[str], after: list[ActionRow]) -> FoldResult:
        """The fold of the whole log once `after` (these actions as the mark leaves them)
        replaces this part: the same result as replaying everything, since each game
        starts afresh at its rematch and no game reads another's entries."""
        if self.whole:
            return fold(table.game, table.settings, names, after)
        current = self.current
        start = replace(current, past_games=current.past_games[:self.first], errors=[],
                        past_errors=[], game_start=self.start,
                        past_seq=current.past_seq if self.first == len(current.past_games)
                        else None)
        folded = fold(table.game, table.settings, names, after, start=start)
        if self.end is None:
            return folded
        # The part's last game still ends at the rematch at `end`: it keeps its date.
        ends = current.past_games[self.first + self.count - 1:self.first + self.count]
        ended = folds.ended_game(folded.summary, ends[0].get("ended_at") if ends else None)
        past = folded.past_games + [ended] + current.past_games[self.first + self.count:]
        return FoldResult(current.state, current.summary, past, folded.errors,
                          current.game_start, list(folded.errors), None)


def _part_of(db, table_id: str, current: FoldResult, goal: ActionRow | None,
             entry: ActionRow | None) -> _Part:
    """The part of the log an undo or confirmation of `goal` can change (`entry`: what a
    strike `goal` struck, brought back when the strike is taken back).

    A game runs from one live rematch to the next, so marking an action changes only the
    game around it: from the last live rematch before it to the first live one after it
    (a rematch struck joins the games on either side of it into one; restored, it splits
    one). When the stored fold carries replay errors (a rules change since the entries
    were made), the whole log is refolded as before, errors and all."""
    if goal is None:
        return _Part([], current, whole=True)
    if current.errors or current.past_errors:
        return _Part(_actions(db, table_id), current, whole=True)
    changed = _affects(entry if goal.row_kind == UNDO and entry is not None else goal)
    live_rematch = "table_id = ? AND kind = ? AND undone_by IS NULL"
    row = _one(db, f"SELECT seq FROM actions WHERE {live_rematch} AND seq < ? ORDER BY seq "
                   "DESC LIMIT 1", [table_id, REMATCH, changed])
    start = row[0] if row is not None else 0
    row = _one(db, f"SELECT seq FROM actions WHERE {live_rematch} AND seq > ? ORDER BY seq "
                   "LIMIT 1", [table_id, REMATCH, changed])
    end = row[0] if row is not None else None
    # The games after the part (one per live rematch from its end on) are the last ones;
    # the part holds one game, or two when the live rematch marked is struck.
    later = 0 if end is None else _one(
        db, f"SELECT COUNT(*) FROM actions WHERE {live_rematch} AND seq >= ?",
        [table_id, REMATCH, end])[0]
    count = 2 if goal.row_kind == REMATCH and goal.undone_by is None else 1
    first = len(current.past_games) + 1 - later - count
    if first < 0:  # pragma: no cover - the stored fold and the log disagree: replay it all
        return _Part(_actions(db, table_id), current, whole=True)
    actions = _actions(db, table_id, after=start, before=end)
    if end is not None:    # the part's entries may have been changed later in the log
        actions += _edits_of(db, table_id, start, end)
    # The actions a refusal names (who struck it, who restored it) may lie outside.
    inside_seqs = {a.seq for a in actions}
    for seq in {goal.seq, goal.undone_by, getattr(entry, "seq", None),
                getattr(entry, "undone_by", None)} - inside_seqs - {None}:
        extra = _action_at(db, table_id, seq)
        if extra is not None and extra.row_kind != REMATCH:
            actions.append(extra)
    actions.sort(key=lambda a: a.seq)
    return _Part(actions, current, start, end, first, count)


def _affects(action: ActionRow) -> int:
    """The seq of the entry whose game `action` changes when it is marked: a change in
    place changes its entry's game, wherever in the log the change itself lies."""
    if action.row_kind == EDIT:
        target = action.payload.get("target")
        if isinstance(target, int) and not isinstance(target, bool):
            return target
    return action.seq


def _edits_of(db, table_id: str, start: int, end: int) -> list[ActionRow]:
    """The changes in place made after seq `end` to entries between `start` and `end`
    (a game that is over and was changed after its rematch)."""
    rows = db.execute("SELECT * FROM actions WHERE table_id = ? AND kind = ? AND seq > ? AND "
                      "json_extract(payload, '$.target') > ? AND "
                      "json_extract(payload, '$.target') < ? ORDER BY seq",
                      [table_id, EDIT, end, start, end]).fetchall()
    return [_action_from_row(r) for r in rows]


def rematch(db: sqlite_utils.Database, table_id: str, phone: Phone, submission_id: str,
            version: int | None = None) -> Outcome:
    """Start a new game with the same seats and house rules, once the current one is over.

    With `version` (the sheet the button was shown on), a rematch someone else started
    meanwhile is reported as a `Conflict` naming them.
    """
    with transaction(db):
        table, phone, seats, repeat = _start_write(db, table_id, phone, submission_id,
                                                   REMATCH)
        if repeat is not None:
            return repeat
        if version is not None:
            _check_fresh(db, table, seats, version, phone, typed=False)
        names = [s.name for s in seats]
        current = _folded(db, table, names)
        if not current.summary.get("over"):
            raise TableError(N_("The game is still going. Finish it (or undo back) before a rematch."),
                             status=409)
        new_version = _bump(db, table_id, "playing", chrome=False)
        action = _append(db, table_id, new_version, phone.seat, REMATCH, {}, submission_id)
        result = folds.rematched(current, table.game, table.settings, names, action.seq,
                                 action.created_at)
        result, past_written = _store(db, table, action.seq, new_version, names, result)
        table = replace(table, version=new_version, status="playing")
        done = _make_sheet(table, seats, result, action, _waiting(db, table))
    _remember(table_id, new_version, result, past_written)
    live.publish(table_id, new_version)
    return Outcome(action, False, done)


def history(db: sqlite_utils.Database, table: Table) -> list[ActionRow]:
    """Every action ever logged at this table, oldest first (nothing is ever deleted)."""
    return _actions(db, table.id)


def history_page(db: sqlite_utils.Database, table: Table, before: int | None = None,
                 size: int = 100) -> tuple[list[ActionRow], int | None]:
    """One page of the history: the newest ``size`` actions with a seq below ``before``
    (the newest of all when None), oldest first, and the ``before`` of the next older page
    (None when these reach the first action). Reads only the page's rows, however long the
    log (a whole evening of games is thousands of actions)."""
    size = max(1, size)
    rows = db.execute("SELECT * FROM actions WHERE table_id = ? AND seq < ? ORDER BY seq DESC "
                      "LIMIT ?", [table.id, (1 << 62) if before is None else before,
                                  size + 1]).fetchall()
    older = rows[size - 1]["seq"] if len(rows) > size else None
    return [_action_from_row(r) for r in rows[:size]][::-1], older


def export_table(db: sqlite_utils.Database, table: Table) -> dict:
    """The table, its seats and its whole log as JSON-ready data (no secrets: neither the
    join token nor the join code, which would let anyone holding the file join the table)."""
    current = sheet(db, table)
    return {
        "table": {"id": table.id, "game": table.game_slug,
                  "settings": table.settings, "status": table.status, "version": table.version,
                  "host_seat": table.host_seat, "created_at": table.created_at},
        "seats": [{"pos": s.pos, "name": s.name, "team": s.team} for s in current.seats],
        "actions": [{"seq": a.seq, "version": a.version, "seat": a.seat, "kind": a.row_kind,
                     "payload": a.payload, "created_at": a.created_at, "undone_by": a.undone_by}
                    for a in history(db, table)],
        "summary": current.summary,
        "past_games": current.past_games,
    }
