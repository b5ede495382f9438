"""The tournament service: an event stored, connected to real tables, and its caches.

Every table of a round is a real :mod:`companion.tables` table; its result is read from the
table's own sheet once the game is over. The director may correct a result; every change
the director makes is kept in ``event_audit``. The seating and standings themselves are the
pure functions of this package (:mod:`companion.tournaments`); this module owns the
``events`` and ``event_*`` SQL and two caches (a table's facts per table version, the
standings per result set). The round clock is :mod:`.round_clock`; reading the director's forms
is the web layer's (:mod:`companion.web.tournaments`).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import random
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import sqlite_utils

from companion import tables, tournaments
from companion.clock import now
from companion.lru import LRU
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH, clean_name, name_key, places_of
from companion.rules.said import N_, message
from companion.storage import transaction
from companion.tables import TableError, retire, tokens

from . import claims

MAX_ENTRANTS = 2500     # 500 tables of five
MAX_ROUNDS = 20
MAX_EVENT_NAME = 80
MAX_REASON = 300
#: How often one round may be unseated: a director re-pairs a round once or twice; a loop
#: of seat and unseat (each seating makes up to 1,250 tables) stops here.
MAX_UNSEATS = 5


@dataclass(frozen=True)
class Event:
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
    # The director's scoring and pairing choices (see parse_config); {} keeps every default.
    config: dict = field(default_factory=dict)

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
        return tournaments.tournament_format(self.game_slug, **chosen)

    @property
    def scoring(self) -> dict:
        return scoring_of(self.format, self.config)

    @property
    def tiebreaks(self) -> tuple:
        """The tie-breaks in the director's order (the scoring's default order if none
        was chosen): what the standings sort by and show."""
        return tournaments.tiebreak_columns(self.config.get("tiebreaks"), self.scoring["mode"])


@dataclass(frozen=True)
class Entrant:
    name: str
    members: list
    dropped: bool
    late_from: int | None = None   # the first round a late arrival could play (None: from 1)


@dataclass(frozen=True)
class Round:
    number: int
    byes: list
    locked: bool


@dataclass
class TableRow:
    """One table of a round as the dashboard shows it."""

    number: int
    table_id: str
    token: str
    code: str
    entrants: list
    seats: list            # the names in seating order at the companion table
    status: str            # missing (nobody sat down), playing, waiting, finished
    result: dict | None
    source: str | None     # 'table' or 'director'


def _row_event(row) -> Event:
    return Event(id=row["id"], name=row["name"], game_slug=row["game"],
                 settings=json.loads(row["settings"]), options=json.loads(row["options"]),
                 rounds=row["rounds"], created_at=row["created_at"],
                 registration=bool(row["registration"]), table_size=row["table_size"],
                 version=row["version"], clock=row["clock"],
                 config=json.loads(row["config"] or "{}"))


def get_event(db: sqlite_utils.Database, event_id: str) -> Event:
    """The event with this id, or `NotFound`."""
    row = db.execute("SELECT * FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None:
        raise tables.NotFound(N_("There is no such event. Check the link."))
    return _row_event(row)


def director_hash(secret: str, event_id: str) -> str:
    """What the database keeps of a director's phone secret for one event."""
    return tokens.scoped_hash(secret, f"director:{event_id}")


def pass_hash(secret: str, event_id: str) -> str:
    """What the database keeps of a player's phone secret as an event's pass."""
    return tokens.scoped_hash(secret, f"pass:{event_id}")


def director_device(db: sqlite_utils.Database, event: Event, secret: str | None
                    ) -> dict | None:
    """The director device whose secret this is (the phone's one cookie), revoked or not:
    device_id, name, creator, created_at, seen_at, revoked_at. None for anyone else."""
    if not secret:
        return None
    row = db.execute("SELECT device_id, name, creator, created_at, seen_at, revoked_at"
                     " FROM event_directors WHERE secret_hash = ? AND event_id = ?",
                     [director_hash(secret, event.id), event.id]).fetchone()
    return dict(row) if row is not None else None


def is_director(db: sqlite_utils.Database, event: Event, secret: str | None) -> bool:
    """Whether `secret` (the phone's cookie) directs this event: the browser that created
    it, or one that opened a director link, and not revoked since."""
    device = director_device(db, event, secret)
    return device is not None and device["revoked_at"] is None


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
            db.execute("UPDATE OR IGNORE event_directors SET secret_hash = ? WHERE event_id = ?"
                       " AND secret_hash = ?", [director_hash(secret, event_id), event_id, old])
        else:
            db.execute("UPDATE OR REPLACE event_passes SET secret_hash = ? WHERE event_id = ?"
                       " AND secret_hash = ?", [pass_hash(secret, event_id), event_id, old])


# ---------------------------------------------------------------- creating

def parse_entrants(text: str, fmt: dict, *, allow_few: bool = False
                   ) -> list[tuple[str, list[str]]]:
    """Entrants from text typed or pasted one per line: (name, members).

    In a team game a line is one team, its players separated by commas ("Ann, Bob"); the
    team is called "Ann & Bob". Fewer entrants than a round needs are refused unless
    `allow_few` (the players will register themselves). Raises ValueError with a plain
    sentence.
    """
    lines = [clean_name(line) for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_ENTRANTS:
        raise ValueError(message("tournament", "An event has at most {most} entrants.",
                                 most=MAX_ENTRANTS))
    out: list[tuple[str, list[str]]] = []
    players: set[str] = set()
    for line in lines:
        if fmt["kind"] == "teams":
            members = [clean_name(m) for m in line.split(",") if clean_name(m)]
            if len(members) not in fmt["team_sizes"]:
                sizes = " or ".join(str(n) for n in fmt["team_sizes"])
                raise ValueError(message("tournament", "“{line}”: a team has {sizes} players, "
                                         "separated by commas.", line=line[:60], sizes=sizes))
            name = " & ".join(members)
        else:
            members, name = [line], line
        for member in members:
            if len(member) > MAX_NAME_LENGTH:
                raise ValueError(message("tournament", "“{name}…” is too long: a name has at "
                                         "most {most} characters.", name=member[:40],
                                         most=MAX_NAME_LENGTH))
            if name_key(member) in players:
                raise ValueError(message("tournament", "{name} is listed twice. Give each "
                                         "player a different name.", name=member))
            players.add(name_key(member))
        out.append((name, members))
    if fmt["kind"] == "teams" and len({len(m) for _n, m in out}) > 1:
        raise ValueError(N_("Every team needs the same number of players."))
    if len(out) < least_entrants(fmt) and not allow_few:
        raise ValueError(message("tournament", "List at least {least} entrants, one per line"
                                 " (or let the players register themselves).",
                                 least=least_entrants(fmt)))
    return out


def least_entrants(fmt: dict) -> int:
    """How many entrants a round needs: two (players or teams), or one table's minimum."""
    return 2 if fmt["kind"] != "tables" else fmt["min_table"]



def create_event(db: sqlite_utils.Database, name: str, slug: str, settings: dict,
                 options: dict, rounds: int, entrants: list[tuple[str, list[str]]],
                 *, registration: bool = False, table_size: int | None = None,
                 config: dict | None = None, secret: str | None = None
                 ) -> tuple[Event, str]:
    """Store a new event; returns it and the director's secret (for the cookie): the
    creating phone's own `secret` (its one cookie), a new one when None.

    `options` are the tables' options (confirmations, table switches); `registration`
    opens self-registration through the event's QR; `table_size` is the director's
    players per table in a table game (None: the game's default); `config` the
    director's scoring and pairing choices (see :func:`parse_config`).
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
                   " created_at, registration, table_size, config)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [event_id, name, slug, json.dumps(settings), json.dumps(options), rounds,
                    director_hash(secret, event_id), now(), int(registration), table_size,
                    json.dumps(config or {})])
        for pos, (entrant, members) in enumerate(entrants):
            db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES (?, ?, ?, ?)",
                       [event_id, pos, entrant, json.dumps(members)])
            claims.give_codes(db, event_id, entrant, members)
        created = now()
        db.execute("INSERT INTO event_directors (secret_hash, event_id, created_at, device_id,"
                   " creator, seen_at) VALUES (?, ?, ?, ?, 1, ?)",
                   [director_hash(secret, event_id), event_id, created, _new_device_id(),
                    created])
    return get_event(db, event_id), secret


# ---------------------------------------------------------------- reading

def entrants(db: sqlite_utils.Database, event: Event) -> list[Entrant]:
    """The event's entrants in the order they were listed."""
    rows = db.execute("SELECT * FROM event_entrants WHERE event_id = ? ORDER BY pos",
                      [event.id]).fetchall()
    return [Entrant(r["name"], json.loads(r["members"]), bool(r["dropped"]), r["late_from"])
            for r in rows]


def entrant_counts(db: sqlite_utils.Database, event: Event) -> tuple[int, int]:
    """(entrants still playing, entrants dropped)."""
    row = db.execute("SELECT COUNT(*) - COALESCE(SUM(dropped), 0), COALESCE(SUM(dropped), 0)"
                     " FROM event_entrants WHERE event_id = ?", [event.id]).fetchone()
    return row[0], row[1]


def find_entrant(db: sqlite_utils.Database, event: Event, name: str) -> str | None:
    """The entrant called `name` as stored, matched exactly first, then ignoring case; in a
    team game a player's own name finds their team ("bob" finds "Ann & Bob")."""
    row = db.execute("SELECT name FROM event_entrants WHERE event_id = ? AND name = ?",
                     [event.id, name]).fetchone()
    if row is not None:
        return row[0]
    wanted = name_key(name)
    rows = db.execute("SELECT name, members FROM event_entrants WHERE event_id = ?",
                      [event.id]).fetchall()
    return next((r[0] for r in rows if name_key(r[0]) == wanted), None) or next(
        (r[0] for r in rows if any(name_key(m) == wanted for m in json.loads(r[1]))), None)


def find_player(db: sqlite_utils.Database, event: Event, name: str
                ) -> tuple[str, str | None] | None:
    """(entrant, member) for a name typed or tapped on the players' page: an entrant's
    name (member None), or in a team game one player's own name (member: that player)."""
    entrant = find_entrant(db, event, name)
    if entrant is None:
        return None
    wanted = name_key(name)
    rows = db.execute("SELECT members FROM event_entrants WHERE event_id = ? AND name = ?",
                      [event.id, entrant]).fetchone()
    member = next((m for m in json.loads(rows[0]) if name_key(m) == wanted), None)
    return entrant, (member if member != entrant else None)


# ---------------------------------------------------------------- players' passes

# A pass is a claim: which phone holds which player, with the players' claim codes, is
# :mod:`.claims`.


def pass_holder(db: sqlite_utils.Database, event_id: str, secret: str | None
                ) -> tuple[str, str | None] | None:
    """(entrant, member) of the pass whose secret a phone's cookie holds, if any."""
    if not secret:
        return None
    row = db.execute("SELECT entrant, member FROM event_passes WHERE secret_hash = ?"
                     " AND event_id = ?", [pass_hash(secret, event_id), event_id]).fetchone()
    return (row[0], row[1]) if row else None


def seats_for_pass(db: sqlite_utils.Database, table: tables.Table, secret: str | None
                   ) -> set[int]:
    """The seats of an event's table that the phone holding this pass may take: its
    entrant's (in a team game its player's own seat when the pass names them). Empty for
    anyone else, and for a table of no event."""
    if table.event_id is None:
        return set()
    holder = pass_holder(db, table.event_id, secret)
    if holder is None:
        return set()
    entrant, member = holder
    row = db.execute("SELECT e.members FROM event_seatings s, json_each(s.entrants) j"
                     " JOIN event_entrants e ON e.event_id = s.event_id AND e.name = j.value"
                     " WHERE s.table_id = ? AND j.value = ?", [table.id, entrant]).fetchone()
    if row is None:
        return set()
    names = {member} if member else set(json.loads(row[0])) | {entrant}
    return {seat.pos for seat in tables.seats_of(db, table.id) if seat.name in names}


def rounds(db: sqlite_utils.Database, event: Event) -> list[Round]:
    """The rounds seated so far, in order."""
    rows = db.execute("SELECT * FROM event_rounds WHERE event_id = ? ORDER BY round",
                      [event.id]).fetchall()
    return [Round(r["round"], json.loads(r["byes"]), r["locked_at"] is not None) for r in rows]


# A round's tables with what the room needs of their companion tables (see _table_rows).
_SEATED = ("SELECT s.table_no, s.table_id, s.entrants, t.token, t.code, t.version"
           " FROM event_seatings s JOIN tables t ON t.id = s.table_id")


def round_tables(db: sqlite_utils.Database, event: Event, number: int) -> list[TableRow]:
    """Every table of round `number` with its state and result.

    Until the round is locked a table's result is what its sheet says now (its first
    game: a rematch played afterwards doesn't change it), unless the director entered
    one; locking stores it. Reading never writes. Two queries for the whole round; a
    table's sheet is read again only when its version has changed.
    """
    rows = db.execute(_SEATED + " WHERE s.event_id = ? AND s.round = ? ORDER BY s.table_no",
                      [event.id, number]).fetchall()
    return _table_rows(db, event, number, rows)


def table_numbered(db: sqlite_utils.Database, event: Event, table_no: int) -> TableRow | None:
    """Table `table_no` of the latest round seated (what a permanent table card opens)."""
    row = db.execute("SELECT MAX(round) FROM event_rounds WHERE event_id = ?",
                     [event.id]).fetchone()
    if row[0] is None:
        return None
    rows = db.execute(_SEATED + " WHERE s.event_id = ? AND s.round = ? AND s.table_no = ?",
                      [event.id, row[0], table_no]).fetchall()
    found = _table_rows(db, event, row[0], rows)
    return found[0] if found else None


def table_of(db: sqlite_utils.Database, event: Event, number: int, entrant: str
             ) -> TableRow | None:
    """The table of round `number` where `entrant` sits (None: not seated, or a bye).

    One player's phone asks every few seconds: this reads that table only."""
    rows = db.execute(_SEATED + ", json_each(s.entrants) e WHERE s.event_id = ?"
                      " AND s.round = ? AND e.value = ?", [event.id, number, entrant]).fetchall()
    found = _table_rows(db, event, number, rows[:1])
    return found[0] if found else None


def _table_rows(db, event: Event, number: int, rows) -> list[TableRow]:
    """TableRows of round `number` from event_seatings rows joined with their tables.

    A stored result (the director's, or any once the round is locked) wins; otherwise a
    finished sheet gives the result, read afresh at every version of the table.
    """
    stored = _stored_results(db, event, number)
    out = []
    for row in rows:
        facts = _table_facts(db, row["table_id"], row["version"])
        entrant_ids = json.loads(row["entrants"])
        mine = stored.get(row["table_no"])
        if mine is None and facts.status == "over":
            mine = (result_from_summary(event, number, row["table_no"], entrant_ids,
                                        facts.first), "table")
        status = "finished" if mine is not None else facts.status
        out.append(TableRow(row["table_no"], row["table_id"], row["token"], row["code"],
                            entrant_ids, facts.names, status, mine and mine[0],
                            mine and mine[1]))
    return out


@dataclass(frozen=True)
class _TableFacts:
    """What an event needs of one table at one version."""

    names: list     # the names in seating order
    status: str     # over, waiting, missing (no phone sat down yet) or playing
    first: dict     # the summary of the table's first game: the event's game


_facts = LRU(4096)    # (table id, version) -> _TableFacts


def _table_facts(db, table_id: str, version: int) -> _TableFacts:
    hit = _facts.get((table_id, version))
    if hit is not None:
        return hit
    table = tables.get_table(db, table_id)
    sheet = tables.sheet(db, table)
    # A rematch played before anyone looked leaves the event's game in past_games.
    first = _first_game(sheet.past_games[0] if sheet.past_games else sheet.summary)
    if first.get("over"):
        status = "over"
    elif sheet.waiting is not None:
        status = "waiting"
    elif not any(seat.has_phone for seat in sheet.seats):
        status = "missing"
    else:
        status = "playing"
    facts = _TableFacts(sheet.names, status, first)
    _facts.put((table.id, table.version), facts)
    return facts


def _first_game(summary: dict) -> dict:
    """The summary of a table's first game. A game that plays a match inside one state
    (Rocca: ``new_game`` deals the next game at the same table) lists its finished games
    in ``summary["games"]``, each with its winner and every player's ``places``: the
    event's game is the first of them, even once the next one is dealt or won."""
    games = summary.get("games")
    game = games[0] if isinstance(games, list) and games else None
    if not isinstance(game, dict) or not isinstance(game.get("places"), dict) \
            or "winner" not in game:
        return summary
    return {**summary, "over": True, "winners": [game["winner"]], "places": game["places"],
            "totals": {p: int(p == game["winner"]) for p in game["places"]}}


def _stored_results(db, event: Event, number: int) -> dict[int, tuple[dict, str]]:
    rows = db.execute("SELECT table_no, result, source FROM event_results WHERE event_id = ?"
                      " AND round = ?", [event.id, number]).fetchall()
    return {r["table_no"]: (json.loads(r["result"]), r["source"]) for r in rows}


def result_from_summary(event: Event, number: int, table_no: int, entrant_ids: list[str],
                        summary: dict) -> dict:
    """A tournament result from a finished table's summary: the places are the game's own
    (:meth:`Game.outcome_of <companion.rules.game.Game.outcome_of>` under the event's house
    rules), so the event ranks a table exactly as the table does, whichever way the game's
    scores go.

    Team games: the entrants are team A (even seats) and team B. The scores are the
    entrants' own totals (None when a total is missing or not a number).
    """
    outcome = event.game.outcome_of(summary, event.settings)
    keys = ["A", "B"] if event.format["kind"] == "teams" else list(entrant_ids)
    scores = [outcome.totals.get(k) for k in keys]
    if not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
        scores = None
    places = outcome.places
    if any(k not in places for k in keys):
        # A summary whose totals leave out an entrant: place every entrant the same way,
        # the missing ones on no points.
        places = places_of({k: outcome.totals.get(k) for k in keys}, outcome.winners,
                           outcome.lower_wins, summary.get("places"))
    return {"round": number, "table": table_no, "entrants": list(entrant_ids),
            "scores": scores, "places": [places[k] for k in keys]}


def all_results(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """Every result so far: tables with a result, and the byes of every round."""
    out = []
    for rnd in rounds(db, event):
        if rnd.locked:
            # A locked round's results are all stored: no need to fold its tables' sheets.
            rows = db.execute("SELECT result FROM event_results WHERE event_id = ? AND round = ?"
                              " ORDER BY table_no", [event.id, rnd.number]).fetchall()
            out += [json.loads(r["result"]) for r in rows]
        else:
            out += [row.result for row in round_tables(db, event, rnd.number)
                    if row.result is not None]
        out += [{"round": rnd.number, "table": None, "entrants": [e], "bye": True}
                for e in rnd.byes]
    return out


_standings = LRU(16)   # (event, version, digest of every result) -> standings rows


def results_key(event: Event, results: list[dict]) -> tuple:
    """What the standings are made of: the event's version (every director's write) and
    every result. A table's result follows its sheet until the round is locked, so the
    key is the results themselves, not a count: an undone and re-entered hand that
    changes a result changes the key; entries at tables still playing don't."""
    digest = hashlib.blake2b(json.dumps(results, sort_keys=True).encode(), digest_size=16)
    return (event.id, event.version, digest.hexdigest())


def standings(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The standings rows (see :func:`companion.tournaments.standings`), computed once per
    :func:`results_key`: a projector and every player's phone ask for them.

    Each row also has ``game_score``: the entrant's own game scores summed, as shown
    (the tie-break compares them in the game's direction).
    """
    return standings_keyed(db, event)[0]


def standings_keyed(db: sqlite_utils.Database, event: Event) -> tuple[list[dict], tuple]:
    """:func:`standings` and their :func:`results_key`, under which a page may keep what
    it drew from them (the public standings of 2,500 entrants are 650 KB of HTML)."""
    results = all_results(db, event)
    key = results_key(event, results)
    hit = _standings.get(key)
    if hit is not None:
        return hit, key
    rows = _standings_rows(db, event, results)
    _standings.put(key, rows)
    return rows, key


def _standings_rows(db: sqlite_utils.Database, event: Event, results: list[dict]) -> list[dict]:
    """The standings rows computed from `results` (uncached)."""
    people = entrants(db, event)
    ids = [e.name for e in people]
    own = game_scores(results)
    sign = -1 if event.game.lowest_wins(event.settings) else 1
    rows = tournaments.standings(ids, results, event.scoring,
                                game_tiebreaks={e: [sign * v] for e, v in own.items()},
                                order=event.tiebreaks, initial_points=late_points(event, people),
                                adjustments=adjustments(db, event))
    gone = {e.name for e in people if e.dropped}
    for row in rows:
        row["game_score"] = own.get(row["entrant"], 0)
        row["dropped"] = row["entrant"] in gone
    return rows


def game_scores(results: list[dict]) -> dict[str, float]:
    """The game's own tie-break: each entrant's own scores summed, as the sheets show them
    (never negated; whether more is better is the game's, ``Game.lowest_wins``)."""
    out: dict[str, float] = {}
    for result in results:
        scores = result.get("scores")
        if not scores or result.get("bye"):
            continue
        for entrant, score in zip(result["entrants"], scores):
            out[entrant] = out.get(entrant, 0) + score
    return out


def results_csv(db: sqlite_utils.Database, event: Event) -> str:
    """Every result of the event as CSV text."""
    return tournaments.results_csv(all_results(db, event), event.scoring)


def audit(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """Every change the director made, newest first: corrected results (kind "result"),
    swaps, unseated rounds and penalties or bonuses. Round and table are None where the
    change has none (stored as 0). A correction of a locked round has ``after_lock`` True
    and ``paired``: the later rounds already seated then, whose pairings stand."""
    rows = db.execute("SELECT * FROM event_audit WHERE event_id = ? ORDER BY id DESC",
                      [event.id]).fetchall()
    return [{"kind": r["kind"], "round": r["round"] or None, "table": r["table_no"] or None,
             "who": r["who"], "why": r["why"],
             "old": json.loads(r["old"]) if r["old"] else None, "new": json.loads(r["new"]),
             "at": r["created_at"], "after_lock": bool(r["after_lock"]),
             "paired": json.loads(r["paired"]) if r["paired"] else []} for r in rows]


# ---------------------------------------------------------------- the director's writes

def touch(db, event_id: str) -> None:
    """Bump the event's version (inside the caller's write transaction): cached pages and
    standings expire. Every write to an event calls it (the round clock's too)."""
    db.execute("UPDATE events SET version = version + 1 WHERE id = ?", [event_id])


def seat_next_round(db: sqlite_utils.Database, event: Event, rng: random.Random | None = None,
                    *, admit: Callable[[int], None] | None = None) -> int:
    """Seat the next round on new companion tables; returns its number.

    Round 1 is drawn at random; later rounds are seated by standings (Swiss pairing or
    tables by standings), after the previous round is locked. Raises ValueError.
    `admit(count)` is called with the number of tables the round needs before any is
    made, and refuses them by raising (the web's per-address quota on event tables).
    """
    done = rounds(db, event)
    if done and not done[-1].locked:
        raise ValueError(message("tournament", "Lock round {round} before seating the next one.",
                                 round=done[-1].number))
    number = len(done) + 1
    if number > event.rounds:
        raise ValueError(message("tournament", "All {rounds} rounds have been played.",
                                 rounds=event.rounds))
    people = [e for e in entrants(db, event) if not e.dropped]
    least = least_entrants(event.format)
    if len(people) < least:
        if len(people) == 1:
            raise ValueError(message("tournament", "A round needs at least {least} entrants; "
                                     "{count} is on the list.", least=least, count=len(people)))
        raise ValueError(message("tournament", "A round needs at least {least} entrants; "
                                 "{count} are on the list.", least=least, count=len(people)))
    members = {e.name: e.members for e in people}
    if number == 1:
        seating = tournaments.seat_round(event.format, [e.name for e in people],
                                        rng=rng or random.Random(secrets.randbits(64)))
    else:
        results = all_results(db, event)
        rows = standings(db, event)
        ranking = tournaments.active_ranking(rows)
        ranking = [e for e in ranking if e in members]
        # Score groups come from the points the standings show (late points and the
        # director's adjustments included), so the ranking and the groups agree.
        points = {r["entrant"]: r["points"] for r in rows if r["entrant"] in members}
        seating = seat_by_standings(event, ranking, tournaments.history_from_results(results),
                                    points)
    seats = []
    for table in seating["tables"]:
        ids = table["entrants"]
        if event.format["kind"] == "teams":
            names = tournaments.team_seats(members[ids[0]], members[ids[1]])
        else:
            names = list(ids)
        event.game.new(event.settings, names)   # every table is playable before any is made
        seats.append((table, ids, names))
    if admit is not None:
        admit(len(seats))
    created = []
    try:
        for table, ids, names in seats:
            try:
                # An event's table: no phone is seated; each entrant takes their own seat.
                made, _none = tables.create_table(db, event.game_slug, event.settings, names,
                                                  0, event.options, event_id=event.id)
            except TableError as exc:
                raise ValueError(exc.message) from None
            created.append((table["table"], made.id, ids))
            time.sleep(0)   # under gevent: other requests run between the tables of a big round
        try:
            with transaction(db):
                db.execute("INSERT INTO event_rounds (event_id, round, byes, seated_at)"
                           " VALUES (?, ?, ?, ?)",
                           [event.id, number, json.dumps(seating["byes"]), now()])
                for table_no, table_id, ids in created:
                    db.execute("INSERT INTO event_seatings (event_id, round, table_no,"
                               " table_id, entrants) VALUES (?, ?, ?, ?, ?)",
                               [event.id, number, table_no, table_id, json.dumps(ids)])
                touch(db, event.id)
        except sqlite3.IntegrityError:
            raise ValueError(message("tournament", "Round {round} was just seated from another "
                                     "tap.", round=number)) from None
    except Exception:
        # Another tap seated this round a moment ago, or a table couldn't be made: the
        # tables made here belong to no seating and nobody knows them, so they go now
        # (should that fail too, `companion prune` removes them later).
        if created:
            with contextlib.suppress(sqlite3.Error), transaction(db):
                retire.forget_tables(db, [table_id for _n, table_id, _ids in created])
        raise
    return number


def _round(db, event: Event, number: int) -> Round:
    found = next((r for r in rounds(db, event) if r.number == number), None)
    if found is None:
        raise tables.NotFound(message("tournament", "Round {round} hasn't been seated.",
                                       round=number))
    return found


def lock_round(db: sqlite_utils.Database, event: Event, number: int) -> None:
    """Lock round `number`: its results are final. Every table needs a result first."""
    rnd = _round(db, event, number)
    if rnd.locked:
        raise ValueError(message("tournament", "Round {round} is already locked.",
                                 round=number))
    round_tables(db, event, number)   # fold changed sheets before taking the write lock
    with transaction(db):
        if _round(db, event, number).locked:
            raise ValueError(message("tournament", "Round {round} is already locked.",
                                     round=number))
        # Read again under the write lock: a table can't change between this read and the
        # results stored (each sheet read is cached per table version), and a correction
        # either came before (and is stored) or waits and finds the round locked.
        rows = round_tables(db, event, number)
        missing = [t.number for t in rows if t.result is None]
        if missing:
            listed = ", ".join(str(n) for n in missing)
            raise ValueError(message("tournament", "Table {tables} has no result yet: finish "
                                     "the game there, or enter the result as a correction.",
                                     tables=listed))
        for row in rows:
            if row.source == "table":   # the sheet's result becomes final now
                db.execute("INSERT INTO event_results (event_id, round, table_no, result,"
                           " source, updated_at) VALUES (?, ?, ?, ?, 'table', ?)",
                           [event.id, number, row.number, json.dumps(row.result), now()])
        db.execute("UPDATE event_rounds SET locked_at = ? WHERE event_id = ? AND round = ?",
                   [now(), event.id, number])
        touch(db, event.id)



def correct_result(db: sqlite_utils.Database, event: Event, number: int, table_no: int,
                   places: list[int], who: str, why: str,
                   scores: list[float] | None = None, *, after_lock: bool = False) -> None:
    """Set a table's result by hand (audited, kind "result").

    A plain correction needs the round unlocked. `after_lock=True` is the director's
    explicit correction of a locked round: the round stays locked, the audit row is marked
    as made after the lock and lists the later rounds already seated (their pairings
    stand), and the event's version moves on so the standings and tie-breaks are computed
    again. The lock is read inside the write transaction, so a correction racing the lock
    either lands before it (and is what the lock stores) or is refused, never after it.

    `scores` are the entrants' game scores (their own totals, for the game-score
    tie-break); None keeps the scores of the result being corrected, if any.
    """
    who, why = clean_name(who or ""), (why or "").strip()
    if not why:
        raise ValueError(N_("Say why the result changes; the reason is kept with the change."))
    if len(why) > MAX_REASON or len(who) > MAX_NAME_LENGTH:
        raise ValueError(message("tournament", "Keep the reason under {reason} characters and "
                                 "the name under {name}.", reason=MAX_REASON,
                                 name=MAX_NAME_LENGTH))
    _round(db, event, number)
    _table_row(db, event, number, table_no)   # fold a changed sheet before the write lock
    with transaction(db):
        done = rounds(db, event)
        rnd = next(r for r in done if r.number == number)
        if rnd.locked and not after_lock:
            raise ValueError(message("tournament", "Round {round} is locked; its results are "
                                     "final.", round=number))
        # Read again under the write lock: what is replaced is what the log records.
        row = _table_row(db, event, number, table_no)
        if len(places) != len(row.entrants):
            raise ValueError(N_("Give a place for everybody at the table."))
        if scores is None:
            scores = row.result.get("scores") if row.result else None
        elif len(scores) != len(row.entrants):
            raise ValueError(N_("Give a score for everybody at the table."))
        new = {"round": number, "table": table_no, "entrants": row.entrants,
               "scores": scores, "places": places}
        paired = [r.number for r in done if r.number > number] if rnd.locked else []
        at = now()
        db.execute("INSERT INTO event_results (event_id, round, table_no, result, source,"
                   " updated_at) VALUES (?, ?, ?, ?, 'director', ?) ON CONFLICT (event_id,"
                   " round, table_no) DO UPDATE SET result = excluded.result,"
                   " source = 'director', updated_at = excluded.updated_at",
                   [event.id, number, table_no, json.dumps(new), at])
        db.execute("INSERT INTO event_audit (event_id, round, table_no, who, why, old, new,"
                   " created_at, kind, after_lock, paired)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'result', ?, ?)",
                   [event.id, number, table_no, who or "Director", why,
                    json.dumps(row.result) if row.result else None, json.dumps(new), at,
                    int(rnd.locked), json.dumps(paired) if paired else None])
        touch(db, event.id)


def _table_row(db, event: Event, number: int, table_no: int) -> TableRow:
    """Table `table_no` of round `number` as the dashboard shows it (NotFound: no such
    table). Reads that one table's sheet, not the round's."""
    rows = db.execute(_SEATED + " WHERE s.event_id = ? AND s.round = ? AND s.table_no = ?",
                      [event.id, number, table_no]).fetchall()
    found = _table_rows(db, event, number, rows)
    if not found:
        raise tables.NotFound(message("tournament", "Round {round} has no table {table}.",
                                      round=number, table=table_no))
    return found[0]


def add_entrant(db: sqlite_utils.Database, event: Event, line: str) -> str:
    """A late arrival (a player, or a team line "Ann, Bob"): seated from the next round,
    with no points for the rounds missed. Returns the entrant's name."""
    line = (line or "").strip()
    if not line or "\n" in line or "\r" in line:
        raise ValueError(N_("Type one name (or one team) to add."))
    # Checked against the list inside the write lock: two players registering the same
    # name at once get one entry and one plain refusal.
    ((name, members),) = parse_entrants(line, event.format, allow_few=True)
    with transaction(db):
        known = entrants(db, event)
        if len(known) >= MAX_ENTRANTS:
            raise ValueError(message("tournament", "An event has at most {most} entrants.",
                                     most=MAX_ENTRANTS))
        taken = {name_key(m): m for e in known for m in e.members}
        if event.format["kind"] == "teams" and known and \
                len(members) != len(known[0].members):
            raise ValueError(message("tournament", "Every team needs the same number of "
                                     "players: {size}.", size=len(known[0].members)))
        for member in members:
            if name_key(member) in taken:
                raise ValueError(message("tournament", "{name} is already on the list. If "
                                         "that's somebody else, add a last name or an "
                                         "initial.", name=taken[name_key(member)]))
        pos = db.execute("SELECT COALESCE(MAX(pos), -1) + 1 FROM event_entrants WHERE event_id = ?",
                         [event.id]).fetchone()[0]
        # Once round 1 is seated an arrival is late: they play from the next round, and
        # late_from says how many rounds they missed (see late_points).
        seated = db.execute("SELECT COUNT(*) FROM event_rounds WHERE event_id = ?",
                            [event.id]).fetchone()[0]
        db.execute("INSERT INTO event_entrants (event_id, pos, name, members, late_from)"
                   " VALUES (?, ?, ?, ?, ?)",
                   [event.id, pos, name, json.dumps(members), seated + 1 if seated else None])
        claims.give_codes(db, event.id, name, members)
        touch(db, event.id)
    return name


def register(db: sqlite_utils.Database, event_id: str, line: str) -> str:
    """A player registering themselves (or their team, "Ann, Bob") through the event's QR,
    while the director keeps registration open. Returns the entrant's name."""
    event = get_event(db, event_id)      # fresh: registration may have closed meanwhile
    if not event.registration:
        raise ValueError(N_("Registration is closed. Ask the director to add you."))
    return add_entrant(db, event, line)


def set_registration(db: sqlite_utils.Database, event: Event, open_: bool) -> None:
    """Open or close self-registration through the event's QR."""
    with transaction(db):
        db.execute("UPDATE events SET registration = ? WHERE id = ?", [int(open_), event.id])
        touch(db, event.id)


def set_dropped(db: sqlite_utils.Database, event: Event, name: str, dropped: bool) -> None:
    """Drop an entrant from the next rounds (their results so far stay), or take them back."""
    with transaction(db):
        cur = db.execute("UPDATE event_entrants SET dropped = ? WHERE event_id = ? AND name = ?",
                         [int(dropped), event.id, name])
        if cur.rowcount == 0:
            raise tables.NotFound(N_("That name isn't on this event's list."))
        touch(db, event.id)


# ---------------------------------------------------------------- the room (issue 13):
# pairings by name, permanent table cards, the director's link for a second device

def pairings(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """Who sits where in the latest round, by name, for the pairings page and the projector.

    Every player (in a team game every team member, with their team) sorted by name,
    ignoring case. Each: name, entrant, table, seat (1-based, as the table cards number
    the seats) and bye (then table and seat are None). Empty before round 1.
    """
    done = rounds(db, event)
    if not done:
        return []
    current = done[-1]
    members: dict[str, list] = {}
    team_of: dict[str, str] = {}
    for entrant in entrants(db, event):
        members[entrant.name] = entrant.members
        for member in entrant.members:
            team_of[member] = entrant.name
    out = []
    for row in round_tables(db, event, current.number):
        for pos, name in enumerate(row.seats):
            entrant = name if name in row.entrants else team_of.get(name, name)
            out.append({"name": name, "entrant": entrant, "table": row.number,
                        "seat": pos + 1, "bye": False})
    for entrant in current.byes:
        for name in members.get(entrant, [entrant]):
            out.append({"name": name, "entrant": entrant, "table": None, "seat": None,
                        "bye": True})
    out.sort(key=lambda p: (p["name"].casefold(), p["name"]))
    return out


def most_tables(db: sqlite_utils.Database, event: Event) -> int:
    """The table numbers the biggest round so far used: the permanent table cards to print."""
    row = db.execute("SELECT MAX(table_no) FROM event_seatings WHERE event_id = ?",
                     [event.id]).fetchone()
    return row[0] or 0


# ---- director devices: every browser directing the event, named, listed and revocable

LINK_MINUTES = 15        # a director link works once, within this many minutes
SEEN_EVERY = 60.0        # seconds: "last seen" is written at most this often per device
MAX_DEVICE_NAME = 40


def _new_device_id() -> str:
    return secrets.token_hex(8)


def _later(minutes: int) -> str:
    return (datetime.now(timezone.utc) + timedelta(minutes=minutes)).isoformat(
        timespec="milliseconds")


def director_devices(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The devices directing the event now, oldest first: device_id, name ('' until the
    director names it), creator (the browser that created the event), created_at, seen_at."""
    rows = db.execute("SELECT device_id, name, creator, created_at, seen_at FROM"
                      " event_directors WHERE event_id = ? AND revoked_at IS NULL"
                      " ORDER BY created_at, rowid", [event.id]).fetchall()
    return [dict(r) for r in rows]


def mark_seen(db: sqlite_utils.Database, event: Event, device: dict) -> None:
    """Note that this director device was just used; written at most once a minute per
    device, so a dashboard polled every few seconds doesn't write each time."""
    seen = device.get("seen_at")
    if seen and time.time() - _epoch(seen) < SEEN_EVERY:
        return
    with transaction(db):
        db.execute("UPDATE event_directors SET seen_at = ? WHERE event_id = ? AND device_id = ?",
                   [now(), event.id, device["device_id"]])


def _epoch(stamp: str) -> float:
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return 0.0


def _device_facts(row) -> dict:
    """What the audit keeps of a device: enough to name it on the dashboard."""
    return {"device": row["device_id"], "name": row["name"], "creator": bool(row["creator"])}


def new_director_link(db: sqlite_utils.Database, event: Event, *, keep: bool = False,
                      by: str | None = None, who: str = "") -> str:
    """A new director link for another device: it works once, within LINK_MINUTES. Any
    earlier link ends, and unless `keep`, every device that joined through a link stops
    directing (the creating browser and `by`, the device asking, stay). Only the token's
    hash is stored: the token is shown once, to the director. Audited (kind "director")."""
    token = tokens.new_token()
    with transaction(db):
        stamp = now()
        db.execute("UPDATE director_links SET ended_at = ? WHERE event_id = ? AND ended_at IS NULL",
                   [stamp, event.id])
        revoked = []
        if not keep:
            revoked = db.execute("SELECT device_id, name, creator FROM event_directors"
                                 " WHERE event_id = ? AND revoked_at IS NULL AND creator = 0"
                                 " AND device_id != ?", [event.id, by or ""]).fetchall()
            db.execute("UPDATE event_directors SET revoked_at = ? WHERE event_id = ? AND"
                       " revoked_at IS NULL AND creator = 0 AND device_id != ?",
                       [stamp, event.id, by or ""])
        cur = db.execute("INSERT INTO director_links (event_id, token_hash, created_at, expires_at)"
                         " VALUES (?, ?, ?, ?)",
                         [event.id, tokens.hash_secret(token), stamp, _later(LINK_MINUTES)])
        _audit(db, event, "director", None, None, who, "", None,
               {"action": "link", "link": cur.lastrowid, "kept": keep,
                "revoked": [_device_facts(r) for r in revoked]})
        touch(db, event.id)
    return token


def join_as_director(db: sqlite_utils.Database, event: Event, token: str,
                     secret: str | None = None) -> str:
    """A browser opened a director link: the phone holding `secret` (its one cookie; a new
    secret when None) becomes a director device, and the link is used up. Returns the
    secret. NotFound for a wrong link, one already used, ended by a newer one or expired:
    all look alike to whoever holds it."""
    wanted = tokens.hash_secret((token or "").strip().upper())
    secret = secret or tokens.new_secret()
    with transaction(db):
        stamp = now()
        row = db.execute("SELECT id FROM director_links WHERE token_hash = ? AND event_id = ?"
                         " AND used_at IS NULL AND ended_at IS NULL AND expires_at > ?",
                         [wanted, event.id, stamp]).fetchone()
        if row is None:
            raise tables.NotFound(N_("This director link is used, old or wrong. Ask the "
                                     "director for a new one."))
        db.execute("UPDATE director_links SET used_at = ?, ended_at = ? WHERE id = ?",
                   [stamp, stamp, row[0]])
        hashed = director_hash(secret, event.id)
        # A device already directing stays as it is; a revoked one the director lets in
        # again comes back under its old name, as a device of this link.
        db.execute("INSERT INTO event_directors (secret_hash, event_id, created_at, device_id,"
                   " link_id, seen_at) VALUES (?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT (secret_hash) DO UPDATE SET revoked_at = NULL,"
                   " link_id = excluded.link_id, seen_at = excluded.seen_at"
                   " WHERE revoked_at IS NOT NULL",
                   [hashed, event.id, stamp, _new_device_id(), row[0], stamp])
        device = db.execute("SELECT device_id, name, creator FROM event_directors"
                            " WHERE secret_hash = ?", [hashed]).fetchone()
        _audit(db, event, "director", None, None, device["name"], "", None,
               {"action": "join", "link": row[0], **_device_facts(device)})
        touch(db, event.id)
    return secret


def _active_device(db, event: Event, device_id: str):
    row = db.execute("SELECT device_id, name, creator FROM event_directors WHERE event_id = ?"
                     " AND device_id = ? AND revoked_at IS NULL",
                     [event.id, (device_id or "")[:32]]).fetchone()
    if row is None:
        raise ValueError(N_("That device doesn't direct this event (any more)."))
    return row


def rename_director_device(db: sqlite_utils.Database, event: Event, device_id: str,
                           name: str, who: str = "") -> None:
    """Give a director device a name the director recognises ("Desk laptop"). Audited."""
    name = clean_name(name or "")
    if not name:
        raise ValueError(N_("Give the device a name, e.g. Desk laptop."))
    if len(name) > MAX_DEVICE_NAME:
        raise ValueError(message("tournament", "A device name has at most {most} characters.",
                                 most=MAX_DEVICE_NAME))
    with transaction(db):
        row = _active_device(db, event, device_id)
        if row["name"] == name:
            return
        db.execute("UPDATE event_directors SET name = ? WHERE event_id = ? AND device_id = ?",
                   [name, event.id, row["device_id"]])
        _audit(db, event, "director", None, None, who, "", _device_facts(row),
               {"action": "rename", **_device_facts(row), "name": name})
        touch(db, event.id)


def revoke_director_device(db: sqlite_utils.Database, event: Event, device_id: str, *,
                           by: str | None, confirmed: bool = False, who: str = "") -> None:
    """Stop a device directing the event: from its next request it gets 403 on every
    director's page and tool. The last device directing can't be revoked (nobody could
    run the event then), and the device asking (`by`) revokes itself only when
    `confirmed`. Audited."""
    with transaction(db):
        row = _active_device(db, event, device_id)
        count = db.execute("SELECT COUNT(*) FROM event_directors WHERE event_id = ? AND"
                           " revoked_at IS NULL", [event.id]).fetchone()[0]
        if count <= 1:
            raise ValueError(N_("This is the only device directing the event: it can't be "
                                "revoked."))
        if row["device_id"] == by and not confirmed:
            raise ValueError(N_("That is the device you are using. Tick “Yes, stop directing "
                                "from this device” to revoke it."))
        db.execute("UPDATE event_directors SET revoked_at = ? WHERE event_id = ? AND"
                   " device_id = ?", [now(), event.id, row["device_id"]])
        _audit(db, event, "director", None, None, who, "", None,
               {"action": "revoke", **_device_facts(row)})
        touch(db, event.id)


# ---------------------------------------------------------------- the director's choices
# (issue 13): scoring, late arrivals and pairing; penalties and bonuses; editing a round
# before play begins; the standings as CSV

LATE_CHOICES = ("zero", "bye")     # a late arrival starts with 0, or a bye per round missed
MAX_ADJUSTMENT = 1000              # points one penalty or bonus may take or give


def scoring_of(fmt: dict, config: dict) -> dict:
    """The scoring of an event in format `fmt` under the director's `config`: points by
    place (table games; the same at every table size unless the director gave some sizes
    their own, ``points_by_size``) or for a win, draw and loss (team games), and for a bye;
    anything not chosen is the game's default."""
    base = tournaments.default_scoring(fmt)
    bye = config.get("bye")
    if fmt["kind"] == "tables":
        points = config.get("points") or base["points"]
        by_size = config.get("points_by_size")
        if not by_size:       # the same place earns the same points at every table size
            return tournaments.place_scoring(points, bye=bye)
        # The director's own points for some sizes; every other size keeps the one list,
        # and a bye still scores a first place of that list unless chosen.
        table = {str(n): by_size.get(str(n), points)
                 for n in range(fmt["min_table"], fmt["max_table"] + 1)}
        return tournaments.place_scoring(table, bye=points[0] if bye is None and points
                                         else bye)
    return tournaments.match_scoring(config.get("win", base["win"]),
                                    config.get("draw", base["draw"]),
                                    config.get("loss", base["loss"]), bye=bye)



def seat_by_standings(event: Event, ranking: list[str], history: dict, points: dict) -> dict:
    """A later round's seating: Swiss pairing by score groups in the director's method
    (team games; each pair turned so the team that went first less often is team A), or
    tables by standings with the director's odd tables (table games)."""
    method = event.config.get("pairing", "dutch")
    if event.format["kind"] != "tables" and method != "dutch":
        # seat_round pairs Dutch-style; the other method is the library's swiss_pairing.
        seating = tournaments.swiss_pairing(ranking, history, points=points, method=method)
        return tournaments.orient_pairs(seating, history)
    return tournaments.seat_round(event.format, ranking, history, points=points)


def late_points(event: Event, people: list[Entrant]) -> dict[str, float]:
    """The points late arrivals start with: none, or when the director chose so, a bye's
    points for every round they missed (late_from - 1 rounds)."""
    if event.config.get("late") != "bye":
        return {}
    bye = event.scoring["bye"]
    return {e.name: bye * (e.late_from - 1) for e in people
            if e.late_from is not None and e.late_from > 1}


def is_final(db: sqlite_utils.Database, event: Event) -> bool:
    """Whether the standings are final: the event's last round is locked."""
    done = rounds(db, event)
    return len(done) >= event.rounds and bool(done) and done[-1].locked


def standings_csv(db: sqlite_utils.Database, event: Event) -> str:
    """The standings as CSV text: place, entrant, team members, points, results, the
    adjustments' total, every tie-break used (headed by its name) and dropped."""
    rows = standings(db, event)
    # The game score column is each entrant's own total, as the pages show it (the sort
    # uses it negated in games where the lowest total wins).
    shown = [{**r, "game_tiebreaks": [r["game_score"]]} for r in rows]
    people = entrants(db, event)
    members = ({e.name: e.members for e in people}
               if event.format["kind"] == "teams" else None)
    return tournaments.standings_csv(shown, event.tiebreaks, members=members,
                                    dropped=[e.name for e in people if e.dropped],
                                    final=is_final(db, event))


def _audit(db, event: Event, kind: str, number: int | None, table_no: int | None,
           who: str, why: str, old, new) -> None:
    """One row of the director's log (inside the caller's transaction); 0 stands for no
    round or no table (the columns predate penalties and swaps)."""
    db.execute("INSERT INTO event_audit (event_id, round, table_no, who, why, old, new,"
               " created_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               [event.id, number or 0, table_no or 0,
                clean_name(who or "")[:MAX_NAME_LENGTH] or "Director",
                why or "", None if old is None else json.dumps(old), json.dumps(new), now(),
                kind])


def _plain(value: float):
    """A stored REAL back to what was typed: 2.0 -> 2."""
    return int(value) if float(value).is_integer() else value


# ---- penalties and bonuses

def adjustments(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The director's penalties and bonuses in force, oldest first: id, entrant, points,
    reason, round (None: no round), who, at. A withdrawn one keeps its row with 0 points
    (nothing of an event is deleted but an unseated round), so it is left out here."""
    rows = db.execute("SELECT * FROM event_adjustments WHERE event_id = ? AND points != 0"
                      " ORDER BY id", [event.id]).fetchall()
    return [{"id": r["id"], "entrant": r["entrant"], "points": _plain(r["points"]),
             "reason": r["reason"], "round": r["round"], "who": r["who"],
             "at": r["created_at"]} for r in rows]



def add_adjustment(db: sqlite_utils.Database, event: Event, entrant: str, points: float,
                   reason: str, who: str, round: int | None = None) -> int:
    """Add a penalty (negative points) or a bonus to an entrant's total, with the
    director's reason (audited, kind "penalty"). Returns its id. One tied to a locked
    round is refused: that round's results are final."""
    reason, who = (reason or "").strip(), clean_name(who or "")
    if not reason:
        raise ValueError(N_("Say why: the reason is shown with the penalty or bonus."))
    if len(reason) > MAX_REASON or len(who) > MAX_NAME_LENGTH:
        raise ValueError(message("tournament", "Keep the reason under {reason} characters and "
                                 "the name under {name}.", reason=MAX_REASON,
                                 name=MAX_NAME_LENGTH))
    if isinstance(points, bool) or not isinstance(points, (int, float)) or points == 0 \
            or not abs(points) <= MAX_ADJUSTMENT:
        raise ValueError(message("tournament", "A penalty or bonus is a number of points from "
                                 "-{most} to {most}, not 0.", most=MAX_ADJUSTMENT))
    with transaction(db):
        known = db.execute("SELECT 1 FROM event_entrants WHERE event_id = ? AND name = ?",
                           [event.id, entrant]).fetchone()
        if known is None:
            raise ValueError(N_("Pick an entrant from the list."))
        _refuse_locked_round(db, event, round)
        at = now()
        cur = db.execute("INSERT INTO event_adjustments (event_id, entrant, points, reason,"
                         " round, who, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [event.id, entrant, points, reason, round, who or "Director", at])
        new = {"id": cur.lastrowid, "entrant": entrant, "points": points, "reason": reason,
               "round": round}
        _audit(db, event, "penalty", round, None, who, reason, None, new)
        touch(db, event.id)
    return cur.lastrowid


def withdraw_adjustment(db: sqlite_utils.Database, event: Event, adjustment_id: int,
                        who: str) -> None:
    """Take a penalty or bonus back (audited: the log keeps what it was). Its row stays,
    with 0 points. One tied to a locked round stays: that round's results are final."""
    with transaction(db):
        row = db.execute("SELECT * FROM event_adjustments WHERE event_id = ? AND id = ?"
                         " AND points != 0", [event.id, adjustment_id]).fetchone()
        if row is None:
            raise ValueError(N_("That penalty or bonus was already taken back. Reload the "
                                "dashboard."))
        _refuse_locked_round(db, event, row["round"])
        db.execute("UPDATE event_adjustments SET points = 0 WHERE id = ?", [adjustment_id])
        old = {"id": row["id"], "entrant": row["entrant"], "points": _plain(row["points"]),
               "reason": row["reason"], "round": row["round"]}
        _audit(db, event, "penalty", row["round"], None, who, row["reason"], old, None)
        touch(db, event.id)


def _refuse_locked_round(db, event: Event, number: int | None) -> None:
    """A penalty or bonus tied to round `number` belongs to that round's results: once
    the round is locked it can't be given or taken back (one without a round still can).
    Call it inside the write transaction."""
    if number is None:
        return
    row = db.execute("SELECT locked_at FROM event_rounds WHERE event_id = ? AND round = ?",
                     [event.id, number]).fetchone()
    if row is not None and row["locked_at"] is not None:
        raise ValueError(message("tournament", "Round {round} is locked, so its penalties and "
                                 "bonuses are final. Give this one without a round.",
                                 round=number))


# ---- editing a round before play begins

def edit_refusal(db: sqlite_utils.Database, event: Event) -> str | None:
    """Why the current round's seating can't change any more (None: it still can).

    A round may be changed until it is locked, any of its tables has a result (the
    director's, or a finished sheet) or anybody made an entry at any of its tables: after
    that the tables' sheets hold the names they were played under.
    """
    done = rounds(db, event)
    if not done:
        return N_("No round has been seated yet.")
    current = done[-1]
    if current.locked:
        return message("tournament", "Round {round} is locked; its seating can't change any "
                       "more.", round=current.number)
    stored = db.execute("SELECT table_no FROM event_results WHERE event_id = ? AND round = ?"
                        " ORDER BY table_no LIMIT 1", [event.id, current.number]).fetchone()
    # A finished sheet needs entries, so one look at the round's tables' logs covers both
    # (one query for a round of 500 tables; seat changes don't count as play).
    played = db.execute("SELECT s.table_no FROM event_seatings s JOIN actions a"
                        " ON a.table_id = s.table_id WHERE s.event_id = ? AND s.round = ?"
                        " AND a.kind != ? ORDER BY s.table_no LIMIT 1",
                        [event.id, current.number, tables.SEAT]).fetchone()
    if stored is not None or played is not None:
        table_no = (stored or played)[0]
        return message("tournament", "Play has begun in round {round} (table {table}), so its "
                       "seating can't change any more. Correct results instead.",
                       round=current.number, table=table_no)
    return None


def _editable_round(db, event: Event, number: int) -> Round:
    """The current round, which must be round `number` (the form the director saw) and
    still editable; raises ValueError otherwise. Call it under the write lock."""
    refusal = edit_refusal(db, event)
    if refusal:
        raise ValueError(refusal)
    current = rounds(db, event)[-1]
    if current.number != number:
        raise ValueError(message("tournament", "Round {round} isn't the current round any "
                                 "more (round {current} is). Reload the dashboard.",
                                 round=number, current=current.number))
    return current


def _seat_names(event: Event, ids: list[str], members: dict[str, list]) -> list[str]:
    """The seat names of a table of `ids`, as seat_next_round made them."""
    if event.format["kind"] == "teams":
        return tournaments.team_seats(members[ids[0]], members[ids[1]])
    return list(ids)


def swap_entrants(db: sqlite_utils.Database, event: Event, number: int, first: str,
                  second: str, who: str = "Director") -> None:
    """Swap two entrants between tables of round `number` before play begins there (in
    a team game whole teams); either may be sitting out (a bye), not both. The seats of
    the companion tables take the new names (a phone already in a moved entrant's seat
    goes back to watching, see :func:`tables.rename_seat`). Audited (kind "swap")."""
    if first == second:
        raise ValueError(N_("Pick two different entrants to swap."))
    published = []
    with transaction(db):
        current = _editable_round(db, event, number)
        people = entrants(db, event)
        members = {e.name: e.members for e in people}
        for name in (first, second):
            if name not in members:
                raise ValueError(N_("Pick both entrants from the list."))
        rows = db.execute("SELECT DISTINCT s.table_no, s.table_id, s.entrants FROM"
                          " event_seatings s, json_each(s.entrants) j WHERE s.event_id = ?"
                          " AND s.round = ? AND j.value IN (?, ?)",
                          [event.id, number, first, second]).fetchall()
        spot: dict[str, tuple | None] = {}   # name -> (table_no, table_id, ids); None: a bye
        for row in rows:
            ids = json.loads(row["entrants"])
            for name in (first, second):
                if name in ids:
                    spot[name] = (row["table_no"], row["table_id"], ids)
        for name in (first, second):
            if name not in spot:
                if name not in current.byes:
                    raise ValueError(message("tournament", "{name} has no table and no bye in "
                                             "round {round}: add them to the next round "
                                             "instead.", name=name, round=number))
                spot[name] = None
        a, b = spot[first], spot[second]
        if a is None and b is None:
            raise ValueError(message("tournament", "{first} and {second} both sit out round "
                                     "{round}; swapping them changes nothing.", first=first,
                                     second=second, round=number))
        if a is not None and b is not None and a[0] == b[0]:
            raise ValueError(message("tournament", "{first} and {second} sit at the same "
                                     "table; swapping them changes nothing.", first=first,
                                     second=second))
        trade = {first: second, second: first}
        for place in (a, b):
            if place is None:
                continue
            table_no, table_id, ids = place
            ids = [trade.get(e, e) for e in ids]
            db.execute("UPDATE event_seatings SET entrants = ? WHERE event_id = ? AND round = ?"
                       " AND table_no = ?", [json.dumps(ids), event.id, number, table_no])
            names = _seat_names(event, ids, members)
            for seat, name in zip(tables.seats_of(db, table_id), names):
                if seat.name != name:
                    try:
                        version = tables.rename_seat(db, table_id, seat.pos, name)
                    except TableError as exc:
                        raise ValueError(exc.message) from None
                    published.append((table_id, version))
        if a is None or b is None:
            byes = [trade.get(e, e) for e in current.byes]
            db.execute("UPDATE event_rounds SET byes = ? WHERE event_id = ? AND round = ?",
                       [json.dumps(byes), event.id, number])
        where = {first: a and a[0], second: b and b[0]}   # a table number; None: a bye
        old = {"round": number, "entrants": [{"entrant": e, "table": where[e]}
                                             for e in (first, second)]}
        new = {"round": number, "entrants": [{"entrant": e, "table": where[trade[e]]}
                                             for e in (first, second)]}
        _audit(db, event, "swap", number, a[0] if a else b[0], who, "", old, new)
        touch(db, event.id)
    for table_id, version in published:
        tables.live.publish(table_id, version)


def unseat_round(db: sqlite_utils.Database, event: Event, number: int,
                 who: str = "Director") -> None:
    """Take back the seating of round `number` before play begins, to seat it again (with
    the entrants' list as it is now). Its seatings and byes are deleted, the one delete an
    event allows. The companion tables made for it go too: deleted when no phone ever
    opened them, else retired (:func:`tables.retire.retire_tables`: they take no entries
    and their phones are told at once that the table no longer counts). Late arrivals
    added meanwhile may play this round after all. A round is unseated at most
    :data:`MAX_UNSEATS` times (a loop of seat and unseat is stopped there). Audited (kind
    "unseat") with every table and bye that was taken back."""
    with transaction(db):
        current = _editable_round(db, event, number)
        unseated = db.execute("SELECT COUNT(*) FROM event_audit WHERE event_id = ? AND"
                              " kind = 'unseat' AND round = ?", [event.id, number]).fetchone()[0]
        if unseated >= MAX_UNSEATS:
            raise ValueError(message("tournament", "Round {round} was unseated {most} times "
                                     "already, the most a round allows. Swap entrants "
                                     "instead, or play it as it is seated.", round=number,
                                     most=MAX_UNSEATS))
        rows = db.execute("SELECT table_no, table_id, entrants FROM event_seatings WHERE"
                          " event_id = ? AND round = ? ORDER BY table_no",
                          [event.id, number]).fetchall()
        old = {"round": number, "byes": current.byes,
               "tables": [{"table": r["table_no"], "entrants": json.loads(r["entrants"])}
                          for r in rows]}
        db.execute("DELETE FROM event_seatings WHERE event_id = ? AND round = ?",
                   [event.id, number])
        retired = retire.retire_tables(db, [r["table_id"] for r in rows], {"round": number})
        db.execute("DELETE FROM event_rounds WHERE event_id = ? AND round = ?",
                   [event.id, number])
        db.execute("UPDATE event_entrants SET late_from = NULLIF(?, 1) WHERE event_id = ?"
                   " AND late_from > ?", [number, event.id, number])
        _audit(db, event, "unseat", number, None, who, "", old, None)
        touch(db, event.id)
    retire.publish(retired)
