"""An event as stored: its row, loading it, creating it with its entrants, its version,
the secrets that prove who directs it or holds a player's pass, and the director's log.

Every other module of the service (:mod:`.entrants`, :mod:`.rounds`, :mod:`.results`,
:mod:`.seating`, :mod:`.devices`, :mod:`.director`, :mod:`.claims`, :mod:`.round_clock`)
builds on this one; it owns the ``events`` row and the writes every part shares
(:func:`touch`, :func:`log_change`).
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH, clean_name
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import tokens

from .brackets import cut_rounds
from .formats import default_scoring, event_format
from .standings import match_scoring, place_scoring, tiebreak_columns

MAX_ROUNDS = 20
MAX_EVENT_NAME = 80
MAX_REASON = 300


@dataclass(frozen=True)
class Event:
    """An event as stored, with what follows from it: its game, format, scoring and
    tie-breaks."""

    id: str
    name: str
    game_slug: str
    settings: dict
    options: dict
    rounds: int
    created_at: str
    registration: bool = False   # players may register themselves (the event QR)
    table_size: int | None = None  # players per table chosen by the director (table games)
    version: int = 0             # bumped by every write to the event
    clock: str | None = None     # the round clock as stored (JSON); see round_clock.clock_state
    # The director's scoring and pairing choices (read by the web's forms.parse_config);
    # {} keeps every default.
    config: dict = field(default_factory=dict)
    # The group (companion.groups) the event is run for: its tables record every finished
    # game there. None: no group.
    group_id: str | None = None

    @property
    def game(self):
        return find_game(self.game_slug)

    @property
    def format(self) -> dict:
        chosen = {}
        if self.table_size is not None:
            chosen["preferred_table"] = self.table_size
        if self.config.get("odd_tables"):
            chosen["odd_tables"] = self.config["odd_tables"]
        if self.config.get("plan") == "round_robin":
            # A table game's round robin is played two to a table (brackets: everyone
            # meeting everyone once needs tables of two).
            chosen = {} if self.game.teams else {"kind": "head_to_head"}
        return event_format(self.game_slug, **chosen)

    @property
    def plan(self) -> str:
        """How rounds are paired: "swiss" (the default) or "round_robin" (everyone meets
        everyone once, :mod:`.brackets`)."""
        return self.config.get("plan") or "swiss"

    @property
    def cut(self) -> dict | None:
        """The top cut after the Swiss rounds once the director started it:
        ``{"size": 4 or 8, "seeds": [names, best first]}``; None before (or never)."""
        return self.config.get("cut") or None

    @property
    def total_rounds(self) -> int:
        """Every round the event will have: the Swiss (or round robin) rounds and, once a
        top cut is started, its knockout rounds after them."""
        cut = self.cut
        return self.rounds + (cut_rounds(cut["size"]) if cut else 0)

    @property
    def scoring(self) -> dict:
        return scoring_of(self.format, self.config)

    @property
    def tiebreaks(self) -> tuple:
        """The tie-breaks in the director's order (the scoring's default order if none
        was chosen): what the standings sort by and show."""
        return tiebreak_columns(self.config.get("tiebreaks"), self.scoring["mode"])


def _row_event(row) -> Event:
    return Event(id=row["id"], name=row["name"], game_slug=row["game"],
                 settings=json.loads(row["settings"]), options=json.loads(row["options"]),
                 rounds=row["rounds"], created_at=row["created_at"],
                 registration=bool(row["registration"]), table_size=row["table_size"],
                 version=row["version"], clock=row["clock"],
                 config=json.loads(row["config"] or "{}"), group_id=row["group_id"])


def get_event(db: sqlite_utils.Database, event_id: str) -> Event:
    """The event with this id, or `NotFound`."""
    row = db.execute("SELECT * FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None:
        raise tables.NotFound(N_("There is no such event. Check the link."))
    return _row_event(row)


def touch(db, event_id: str) -> None:
    """Bump the event's version (inside the caller's write transaction): cached pages and
    standings expire. Every write to an event calls it (the round clock's too)."""
    db.execute("UPDATE events SET version = version + 1 WHERE id = ?", [event_id])


def director_hash(secret: str, event_id: str) -> str:
    """What the database keeps of a director's phone secret for one event."""
    return tokens.scoped_hash(secret, f"director:{event_id}")


def pass_hash(secret: str, event_id: str) -> str:
    """What the database keeps of a player's phone secret as an event's pass."""
    return tokens.scoped_hash(secret, f"pass:{event_id}")


def new_device_id() -> str:
    """A director device's id: shown on the dashboard, never a secret."""
    return secrets.token_hex(8)


def adopt_secret(db: sqlite_utils.Database, event_id: str, old_secret: str, secret: str,
                 *, director: bool) -> None:
    """Move what an old per-event cookie (`old_secret`) proves — the director's role, or
    a player's pass — onto the phone's one secret. A wrong or stale cookie changes
    nothing."""
    old = tokens.hash_secret(old_secret)
    with transaction(db):
        if director:
            db.execute("UPDATE events SET secret_hash = ? WHERE id = ? AND secret_hash = ?",
                       [director_hash(secret, event_id), event_id, old])
            cur = db.execute("UPDATE OR IGNORE event_directors SET secret_hash = ? WHERE"
                             " event_id = ? AND secret_hash = ?",
                             [director_hash(secret, event_id), event_id, old])
        else:
            cur = db.execute("UPDATE OR REPLACE event_passes SET secret_hash = ? WHERE"
                             " event_id = ? AND secret_hash = ?",
                             [pass_hash(secret, event_id), event_id, old])
        if cur.rowcount:
            tables.places.note(db, secret, tables.places.EVENT, event_id)


def scoring_of(fmt: dict, config: dict) -> dict:
    """The scoring of an event in format `fmt` under the director's `config`: points by
    place (table games; the same at every table size unless the director gave some sizes
    their own, ``points_by_size``) or for a win, draw and loss (team games), and for a bye;
    anything not chosen is the game's default."""
    base = default_scoring(fmt)
    bye = config.get("bye")
    if fmt["kind"] == "tables":
        points = config.get("points") or base["points"]
        by_size = config.get("points_by_size")
        if not by_size:       # the same place earns the same points at every table size
            return place_scoring(points, bye=bye)
        # The director's own points for some sizes; every other size keeps the one list,
        # and a bye still scores a first place of that list unless chosen.
        table = {str(n): by_size.get(str(n), points)
                 for n in range(fmt["min_table"], fmt["max_table"] + 1)}
        return place_scoring(table, bye=points[0] if bye is None and points
                             else bye)
    return match_scoring(config.get("win", base["win"]),
                         config.get("draw", base["draw"]),
                         config.get("loss", base["loss"]), bye=bye)


def create_event(db: sqlite_utils.Database, name: str, slug: str, settings: dict,
                 options: dict, rounds: int, entrants: list[tuple[str, list[str]]],
                 *, registration: bool = False, table_size: int | None = None,
                 config: dict | None = None, secret: str | None = None,
                 group_id: str | None = None) -> tuple[Event, str]:
    """Store a new event; returns it and the director's secret (for the cookie): the
    creating phone's own `secret` (its one cookie), a new one when None.

    `options` are the tables' options (confirmations, table switches); `registration`
    opens self-registration through the event's QR; `table_size` is the director's
    players per table in a table game (None: the game's default); `config` the
    director's scoring and pairing choices (as
    :func:`companion.web.events.forms.parse_config` reads them); `group_id` a group the
    creating phone holds (checked by the caller): the entrants' players join it and every
    game finished at the event's tables is recorded there.
    """
    name = clean_name(name or "")
    if not name:
        raise ValueError(N_("Give the event a name."))
    if len(name) > MAX_EVENT_NAME:
        raise ValueError(message("tournament", "An event name has at most {most} characters.",
                                 most=MAX_EVENT_NAME))
    event_id, secret = tokens.new_table_id(), secret or tokens.new_secret()
    with transaction(db):
        db.execute("INSERT INTO events (id, name, game, settings, options, rounds, secret_hash,"
                   " created_at, registration, table_size, config, group_id)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [event_id, name, slug, json.dumps(settings), json.dumps(options), rounds,
                    director_hash(secret, event_id), now(), int(registration), table_size,
                    json.dumps(config or {}), group_id])
        if group_id is not None:
            from companion.groups.group import note_event   # groups build on tables
            note_event(db, group_id, secret, event_id, slug,
                       [p for _e, members in entrants for p in (members or [_e])])
        for pos, (entrant, members) in enumerate(entrants):
            db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES (?, ?, ?, ?)",
                       [event_id, pos, entrant, json.dumps(members)])
            give_codes(db, event_id, entrant, members)
        created = now()
        db.execute("INSERT INTO event_directors (secret_hash, event_id, created_at, device_id,"
                   " creator, seen_at) VALUES (?, ?, ?, ?, 1, ?)",
                   [director_hash(secret, event_id), event_id, created, new_device_id(),
                    created])
        tables.places.note(db, secret, tables.places.EVENT, event_id)
    return get_event(db, event_id), secret


def give_codes(db: sqlite_utils.Database, event_id: str, entrant: str,
               members: list[str]) -> None:
    """A claim code for every player of a new entrant (inside the caller's transaction):
    each entrant comes with its players' codes, however it was added (see :mod:`.claims`)."""
    for player in members or [entrant]:
        db.execute("INSERT OR IGNORE INTO event_players (event_id, player, entrant, code)"
                   " VALUES (?, ?, ?, ?)", [event_id, player, entrant, tokens.new_code()])


def log_change(db, event: Event, kind: str, number: int | None, table_no: int | None,
               who: str, why: str, old, new) -> None:
    """One row of the director's log (inside the caller's transaction); 0 stands for no
    round or no table (the columns predate penalties and swaps)."""
    db.execute("INSERT INTO event_audit (event_id, round, table_no, who, why, old, new,"
               " created_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               [event.id, number or 0, table_no or 0,
                clean_name(who or "")[:MAX_NAME_LENGTH] or "Director",
                why or "", None if old is None else json.dumps(old), json.dumps(new), now(),
                kind])


def set_config_key(db: sqlite_utils.Database, event_id: str, key: str, value) -> None:
    """Inside the caller's write transaction: set one key of the event's stored config
    (read afresh, so another key written meanwhile is kept), or remove it for None."""
    row = db.execute("SELECT config FROM events WHERE id = ?", [event_id]).fetchone()
    config = json.loads(row[0] or "{}")
    if value is None:
        config.pop(key, None)
    else:
        config[key] = value
    db.execute("UPDATE events SET config = ? WHERE id = ?", [json.dumps(config), event_id])
