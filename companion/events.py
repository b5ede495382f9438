"""Tournaments ("events"): entrants, rounds seated onto real tables, results and standings.

The pure logic (seating, standings, CSV) lives in :mod:`companion.tournament`; this module
stores an event and connects it to :mod:`companion.tables`: every table of a round is a
real companion table, and its result is read from the table's own sheet once the game is
over. The director may correct a result; every correction is kept in ``event_audit``.
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets
import sqlite3
import time
from dataclasses import dataclass

import sqlite_utils

from companion import tables, tournament
from companion.lru import LRU
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH
from companion.storage import transaction
from companion.tables import TableError, tokens
from companion.tables.service import now

MAX_ENTRANTS = 2500     # 500 tables of five
MAX_ROUNDS = 20
MAX_EVENT_NAME = 80
MAX_REASON = 300


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

    @property
    def game(self):
        return find_game(self.game_slug)

    @property
    def format(self) -> dict:
        if self.table_size is None:
            return tournament.tournament_format(self.game_slug)
        return tournament.tournament_format(self.game_slug, preferred_table=self.table_size)

    @property
    def scoring(self) -> dict:
        return tournament.default_scoring(self.format)


@dataclass(frozen=True)
class Entrant:
    name: str
    members: list
    dropped: bool


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
                 version=row["version"])


def get_event(db: sqlite_utils.Database, event_id: str) -> Event:
    """The event with this id, or `NotFound`."""
    row = db.execute("SELECT * FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None:
        raise tables.NotFound("There is no such event. Check the link.")
    return _row_event(row)


def is_director(db: sqlite_utils.Database, event: Event, secret: str | None) -> bool:
    """Whether `secret` (from a director's cookie) is this event's: the browser that created
    it, or one that opened the director's link."""
    if not secret:
        return False
    hashed = tokens.hash_secret(secret)
    row = db.execute("SELECT secret_hash FROM events WHERE id = ?", [event.id]).fetchone()
    if row is not None and secrets.compare_digest(row[0], hashed):
        return True
    return db.execute("SELECT 1 FROM event_directors WHERE secret_hash = ? AND event_id = ?",
                      [hashed, event.id]).fetchone() is not None


# ---------------------------------------------------------------- creating

def parse_entrants(text: str, fmt: dict, *, allow_few: bool = False
                   ) -> list[tuple[str, list[str]]]:
    """Entrants from text typed or pasted one per line: (name, members).

    In a team game a line is one team, its players separated by commas ("Ann, Bob"); the
    team is called "Ann & Bob". Fewer entrants than a round needs are refused unless
    `allow_few` (the players will register themselves). Raises ValueError with a plain
    sentence.
    """
    lines = [line.strip() for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_ENTRANTS:
        raise ValueError(f"An event has at most {MAX_ENTRANTS} entrants.")
    out: list[tuple[str, list[str]]] = []
    players: set[str] = set()
    for line in lines:
        if fmt["kind"] == "teams":
            members = [m.strip() for m in line.split(",") if m.strip()]
            if len(members) not in fmt["team_sizes"]:
                sizes = " or ".join(str(n) for n in fmt["team_sizes"])
                raise ValueError(f"“{line[:60]}”: a team has {sizes} players, separated by "
                                 "commas.")
            name = " & ".join(members)
        else:
            members, name = [line], line
        for member in members:
            if len(member) > MAX_NAME_LENGTH:
                raise ValueError(f"“{member[:40]}…” is too long: a name has at most "
                                 f"{MAX_NAME_LENGTH} characters.")
            if member.casefold() in players:
                raise ValueError(f"{member} is listed twice. Give each player a different name.")
            players.add(member.casefold())
        out.append((name, members))
    if fmt["kind"] == "teams" and len({len(m) for _n, m in out}) > 1:
        raise ValueError("Every team needs the same number of players.")
    if len(out) < least_entrants(fmt) and not allow_few:
        raise ValueError(f"List at least {least_entrants(fmt)} entrants, one per line"
                         " (or let the players register themselves).")
    return out


def least_entrants(fmt: dict) -> int:
    """How many entrants a round needs: two (players or teams), or one table's minimum."""
    return 2 if fmt["kind"] != "tables" else fmt["min_table"]


def parse_table_size(raw: str | None, slug: str) -> int | None:
    """The director's players per table from the form ("" keeps the game's default)."""
    text = (raw or "").strip()
    if not text:
        return None
    base = tournament.tournament_format(slug)
    if base["kind"] != "tables":
        raise ValueError("In this game a table is one pairing; its size can't be chosen.")
    low, high = base["min_table"], base["max_table"]
    if not text.isascii() or not text.isdigit() or len(text) > 2 \
            or not low <= int(text) <= high:
        raise ValueError(f"Players per table is a whole number from {low} to {high}.")
    return int(text)


def parse_rounds(raw: str | None) -> int:
    """The number of rounds from the form (1..MAX_ROUNDS)."""
    text = (raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3 \
            or not 1 <= int(text) <= MAX_ROUNDS:
        raise ValueError(f"The number of rounds is a whole number from 1 to {MAX_ROUNDS}.")
    return int(text)


def create_event(db: sqlite_utils.Database, name: str, slug: str, settings: dict,
                 options: dict, rounds: int, entrants: list[tuple[str, list[str]]],
                 *, registration: bool = False, table_size: int | None = None
                 ) -> tuple[Event, str]:
    """Store a new event; returns it and the director's secret (for the cookie).

    `options` are the tables' options (confirmations, table switches); `registration`
    opens self-registration through the event's QR; `table_size` is the director's
    players per table in a table game (None: the game's default).
    """
    name = (name or "").strip()
    if not name:
        raise ValueError("Give the event a name.")
    if len(name) > MAX_EVENT_NAME:
        raise ValueError(f"An event name has at most {MAX_EVENT_NAME} characters.")
    event_id, secret = tokens.new_table_id(), tokens.new_secret()
    with transaction(db):
        db.execute("INSERT INTO events (id, name, game, settings, options, rounds, secret_hash,"
                   " created_at, registration, table_size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [event_id, name, slug, json.dumps(settings), json.dumps(options), rounds,
                    tokens.hash_secret(secret), now(), int(registration), table_size])
        for pos, (entrant, members) in enumerate(entrants):
            db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES (?, ?, ?, ?)",
                       [event_id, pos, entrant, json.dumps(members)])
    return get_event(db, event_id), secret


# ---------------------------------------------------------------- reading

def entrants(db: sqlite_utils.Database, event: Event) -> list[Entrant]:
    """The event's entrants in the order they were listed."""
    rows = db.execute("SELECT * FROM event_entrants WHERE event_id = ? ORDER BY pos",
                      [event.id]).fetchall()
    return [Entrant(r["name"], json.loads(r["members"]), bool(r["dropped"])) for r in rows]


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
    wanted = name.casefold()
    rows = db.execute("SELECT name, members FROM event_entrants WHERE event_id = ?",
                      [event.id]).fetchall()
    return next((r[0] for r in rows if r[0].casefold() == wanted), None) or next(
        (r[0] for r in rows if any(m.casefold() == wanted for m in json.loads(r[1]))), None)


def find_player(db: sqlite_utils.Database, event: Event, name: str
                ) -> tuple[str, str | None] | None:
    """(entrant, member) for a name typed or tapped on the players' page: an entrant's
    name (member None), or in a team game one player's own name (member: that player)."""
    entrant = find_entrant(db, event, name)
    if entrant is None:
        return None
    wanted = name.casefold()
    rows = db.execute("SELECT members FROM event_entrants WHERE event_id = ? AND name = ?",
                      [event.id, entrant]).fetchone()
    member = next((m for m in json.loads(rows[0]) if m.casefold() == wanted), None)
    return entrant, (member if member != entrant else None)


# ---------------------------------------------------------------- players' passes

def issue_pass(db: sqlite_utils.Database, event: Event, entrant: str,
               member: str | None = None) -> str:
    """A new pass for a phone that registered or picked `entrant` (in a team game,
    `member` when the player gave their own name): the secret for its cookie. The pass
    lets that phone take its entrant's seat at the entrant's table, nothing more."""
    secret = tokens.new_secret()
    with transaction(db):
        db.execute("INSERT INTO event_passes (secret_hash, event_id, entrant, member, created_at)"
                   " VALUES (?, ?, ?, ?, ?)",
                   [tokens.hash_secret(secret), event.id, entrant, member, now()])
    return secret


def pass_holder(db: sqlite_utils.Database, event_id: str, secret: str | None
                ) -> tuple[str, str | None] | None:
    """(entrant, member) of the pass whose secret a phone's cookie holds, if any."""
    if not secret:
        return None
    row = db.execute("SELECT entrant, member FROM event_passes WHERE secret_hash = ?"
                     " AND event_id = ?", [tokens.hash_secret(secret), event_id]).fetchone()
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
    first = sheet.past_games[0] if sheet.past_games else sheet.summary
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


def _stored_results(db, event: Event, number: int) -> dict[int, tuple[dict, str]]:
    rows = db.execute("SELECT table_no, result, source FROM event_results WHERE event_id = ?"
                      " AND round = ?", [event.id, number]).fetchall()
    return {r["table_no"]: (json.loads(r["result"]), r["source"]) for r in rows}


def result_from_summary(event: Event, number: int, table_no: int, entrant_ids: list[str],
                        summary: dict) -> dict:
    """A tournament result from a finished table's summary (totals and winners).

    Team games: the entrants are team A (even seats) and team B. Table games: the winners
    share first place, the others follow by their totals, in the direction the winners'
    totals show (higher or lower is better).
    """
    totals = summary.get("totals") or {}
    winners = list(summary.get("winners") or [])
    keys = ["A", "B"] if event.format["kind"] == "teams" else list(entrant_ids)
    scores = [totals.get(k) for k in keys]
    if not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
        scores = None
    # The winners come first whatever their totals (Rook's "bidder goes out" can win on
    # the lower total); the others follow by their totals in the game's direction.
    higher = not lower_is_better(event)

    def key(i: int):
        won = keys[i] in winners
        value = scores[i] if scores else 0
        return (0 if won else 1, -value if higher else value)

    ranked = [key(i) for i in range(len(keys))]
    places = [1 + sum(1 for other in ranked if other < mine) for mine in ranked]
    return {"round": number, "table": table_no, "entrants": list(entrant_ids),
            "scores": scores, "places": places}


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
    """The standings rows (see :func:`companion.tournament.standings`), computed once per
    :func:`results_key`: a projector and every player's phone ask for them.

    Each row also has ``game_score``: the entrant's own game scores summed, as shown
    (the tie-break compares them in the game's direction).
    """
    results = all_results(db, event)
    key = results_key(event, results)
    hit = _standings.get(key)
    if hit is not None:
        return hit
    ids = [e.name for e in entrants(db, event)]
    own = game_scores(results)
    sign = -1 if lower_is_better(event) else 1
    rows = tournament.standings(ids, results, event.scoring,
                                game_tiebreaks={e: [sign * v] for e, v in own.items()})
    for row in rows:
        row["game_score"] = own.get(row["entrant"], 0)
    _standings.put(key, rows)
    return rows


def game_scores(results: list[dict]) -> dict[str, float]:
    """The game's own tie-break: each entrant's own scores summed, as the sheets show them
    (never negated; whether more is better is the game's, see :func:`lower_is_better`)."""
    out: dict[str, float] = {}
    for result in results:
        scores = result.get("scores")
        if not scores or result.get("bye"):
            continue
        for entrant, score in zip(result["entrants"], scores):
            out[entrant] = out.get(entrant, 0) + score
    return out


def lower_is_better(event: Event) -> bool:
    """Whether the game ranks the lowest total first (a score pad set to "lowest wins")."""
    return bool(event.settings.get("low_wins"))


def results_csv(db: sqlite_utils.Database, event: Event) -> str:
    """Every result of the event as CSV text."""
    return tournament.results_csv(all_results(db, event), event.scoring)


def audit(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """Every correction, newest first."""
    rows = db.execute("SELECT * FROM event_audit WHERE event_id = ? ORDER BY id DESC",
                      [event.id]).fetchall()
    return [{"round": r["round"], "table": r["table_no"], "who": r["who"], "why": r["why"],
             "old": json.loads(r["old"]) if r["old"] else None, "new": json.loads(r["new"]),
             "at": r["created_at"]} for r in rows]


# ---------------------------------------------------------------- the director's writes

def _touch(db, event_id: str) -> None:
    """Bump the event's version (inside the write's transaction): cached pages expire."""
    db.execute("UPDATE events SET version = version + 1 WHERE id = ?", [event_id])


def seat_next_round(db: sqlite_utils.Database, event: Event, rng: random.Random | None = None
                    ) -> int:
    """Seat the next round on new companion tables; returns its number.

    Round 1 is drawn at random; later rounds are seated by standings (Swiss pairing or
    tables by standings), after the previous round is locked. Raises ValueError.
    """
    done = rounds(db, event)
    if done and not done[-1].locked:
        raise ValueError(f"Lock round {done[-1].number} before seating the next one.")
    number = len(done) + 1
    if number > event.rounds:
        raise ValueError(f"All {event.rounds} rounds have been played.")
    people = [e for e in entrants(db, event) if not e.dropped]
    least = least_entrants(event.format)
    if len(people) < least:
        raise ValueError(f"A round needs at least {least} entrants; {len(people)} "
                         f"{'is' if len(people) == 1 else 'are'} on the list.")
    members = {e.name: e.members for e in people}
    if number == 1:
        seating = tournament.seat_round(event.format, [e.name for e in people],
                                        rng=rng or random.Random(secrets.randbits(64)))
    else:
        results = all_results(db, event)
        ranking = tournament.active_ranking(standings(db, event))
        ranking = [e for e in ranking if e in members]
        seating = tournament.seat_round(event.format, ranking,
                                        tournament.history_from_results(results))
    seats = []
    for table in seating["tables"]:
        ids = table["entrants"]
        if event.format["kind"] == "teams":
            names = tournament.team_seats(members[ids[0]], members[ids[1]])
        else:
            names = list(ids)
        event.game.new(event.settings, names)   # every table is playable before any is made
        seats.append((table, ids, names))
    created = []
    for table, ids, names in seats:
        try:
            # An event's table: no phone is seated; each entrant takes their own seat.
            made, _none = tables.create_table(db, event.game_slug, event.settings, names, 0,
                                              event.options, event_id=event.id)
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
                db.execute("INSERT INTO event_seatings (event_id, round, table_no, table_id,"
                           " entrants) VALUES (?, ?, ?, ?, ?)",
                           [event.id, number, table_no, table_id, json.dumps(ids)])
            _touch(db, event.id)
    except sqlite3.IntegrityError:
        # Another tap seated this round a moment ago; the tables made here stay unused.
        raise ValueError(f"Round {number} was just seated from another tap.") from None
    return number


def _round(db, event: Event, number: int) -> Round:
    found = next((r for r in rounds(db, event) if r.number == number), None)
    if found is None:
        raise tables.NotFound(f"Round {number} hasn't been seated.")
    return found


def lock_round(db: sqlite_utils.Database, event: Event, number: int) -> None:
    """Lock round `number`: its results are final. Every table needs a result first."""
    rnd = _round(db, event, number)
    if rnd.locked:
        raise ValueError(f"Round {number} is already locked.")
    round_tables(db, event, number)   # fold changed sheets before taking the write lock
    with transaction(db):
        # Read again under the write lock: a table can't change between this read and the
        # results stored (each sheet read is cached per table version).
        rows = round_tables(db, event, number)
        missing = [t.number for t in rows if t.result is None]
        if missing:
            listed = ", ".join(str(n) for n in missing)
            raise ValueError(f"Table {listed} has no result yet: finish the game there, or "
                             "enter the result as a correction.")
        if _round(db, event, number).locked:
            raise ValueError(f"Round {number} is already locked.")
        for row in rows:
            if row.source == "table":   # the sheet's result becomes final now
                db.execute("INSERT INTO event_results (event_id, round, table_no, result,"
                           " source, updated_at) VALUES (?, ?, ?, ?, 'table', ?)",
                           [event.id, number, row.number, json.dumps(row.result), now()])
        db.execute("UPDATE event_rounds SET locked_at = ? WHERE event_id = ? AND round = ?",
                   [now(), event.id, number])
        _touch(db, event.id)


def parse_scores(form, count: int) -> list[float] | None:
    """Game scores score_0..score_{count-1} from the correction form: all or none (None:
    keep the sheet's). Whole numbers or decimals, negative allowed."""
    raw = [(form.get(f"score_{i}") or "").strip() for i in range(count)]
    if not any(raw):
        return None
    if not all(raw):
        raise ValueError("Give a score for everybody at the table, or leave every score empty.")
    scores = []
    for text in raw:
        try:
            value = float(text.replace("\u2212", "-"))
        except ValueError:
            raise ValueError(f"“{text[:20]}” isn't a score: type a number like 320 or -40.") from None
        if len(text) > 12 or value != value or abs(value) > 1e9:
            raise ValueError("A score is a number of at most 9 digits.")
        scores.append(int(value) if value.is_integer() else value)
    return scores


def parse_places(form, count: int) -> list[int]:
    """Finishing places place_0..place_{count-1} from the correction form."""
    places = []
    for i in range(count):
        raw = (form.get(f"place_{i}") or "").strip()
        if not raw.isascii() or not raw.isdigit() or len(raw) > 3 or not 1 <= int(raw) <= count:
            raise ValueError(f"Every place is a whole number from 1 to {count}.")
        places.append(int(raw))
    if 1 not in places:
        raise ValueError("Somebody finishes first: one place must be 1.")
    return places


def correct_result(db: sqlite_utils.Database, event: Event, number: int, table_no: int,
                   places: list[int], who: str, why: str,
                   scores: list[float] | None = None) -> None:
    """Set a table's result by hand (audited). The round must not be locked.

    `scores` are the entrants' game scores (their own totals, for the game-score
    tie-break); None keeps the scores of the result being corrected, if any.
    """
    who, why = (who or "").strip(), (why or "").strip()
    if not why:
        raise ValueError("Say why the result changes; the reason is kept with the change.")
    if len(why) > MAX_REASON or len(who) > MAX_NAME_LENGTH:
        raise ValueError(f"Keep the reason under {MAX_REASON} characters and the name under "
                         f"{MAX_NAME_LENGTH}.")
    rnd = _round(db, event, number)
    if rnd.locked:
        raise ValueError(f"Round {number} is locked; its results are final.")
    row = next((t for t in round_tables(db, event, number) if t.number == table_no), None)
    if row is None:
        raise tables.NotFound(f"Round {number} has no table {table_no}.")
    if len(places) != len(row.entrants):
        raise ValueError("Give a place for everybody at the table.")
    if scores is None:
        scores = row.result.get("scores") if row.result else None
    elif len(scores) != len(row.entrants):
        raise ValueError("Give a score for everybody at the table.")
    new = {"round": number, "table": table_no, "entrants": row.entrants,
           "scores": scores, "places": places}
    with transaction(db):
        db.execute("INSERT INTO event_results (event_id, round, table_no, result, source, updated_at)"
                   " VALUES (?, ?, ?, ?, 'director', ?) ON CONFLICT (event_id, round, table_no)"
                   " DO UPDATE SET result = excluded.result, source = 'director',"
                   " updated_at = excluded.updated_at",
                   [event.id, number, table_no, json.dumps(new), now()])
        db.execute("INSERT INTO event_audit (event_id, round, table_no, who, why, old, new,"
                   " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [event.id, number, table_no, who or "Director", why,
                    json.dumps(row.result) if row.result else None, json.dumps(new),
                    now()])
        _touch(db, event.id)


def add_entrant(db: sqlite_utils.Database, event: Event, line: str) -> str:
    """A late arrival (a player, or a team line "Ann, Bob"): seated from the next round,
    with no points for the rounds missed. Returns the entrant's name."""
    line = (line or "").strip()
    if not line or "\n" in line or "\r" in line:
        raise ValueError("Type one name (or one team) to add.")
    # Checked against the list inside the write lock: two players registering the same
    # name at once get one entry and one plain refusal.
    ((name, members),) = parse_entrants(line, event.format, allow_few=True)
    with transaction(db):
        known = entrants(db, event)
        if len(known) >= MAX_ENTRANTS:
            raise ValueError(f"An event has at most {MAX_ENTRANTS} entrants.")
        taken = {m.casefold(): m for e in known for m in e.members}
        if event.format["kind"] == "teams" and known and \
                len(members) != len(known[0].members):
            raise ValueError(f"Every team needs the same number of players: "
                             f"{len(known[0].members)}.")
        for member in members:
            if member.casefold() in taken:
                raise ValueError(f"{taken[member.casefold()]} is already on the list. If "
                                 "that's somebody else, add a last name or an initial.")
        pos = db.execute("SELECT COALESCE(MAX(pos), -1) + 1 FROM event_entrants WHERE event_id = ?",
                         [event.id]).fetchone()[0]
        db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES (?, ?, ?, ?)",
                   [event.id, pos, name, json.dumps(members)])
        _touch(db, event.id)
    return name


def register(db: sqlite_utils.Database, event_id: str, line: str) -> str:
    """A player registering themselves (or their team, "Ann, Bob") through the event's QR,
    while the director keeps registration open. Returns the entrant's name."""
    event = get_event(db, event_id)      # fresh: registration may have closed meanwhile
    if not event.registration:
        raise ValueError("Registration is closed. Ask the director to add you.")
    return add_entrant(db, event, line)


def set_registration(db: sqlite_utils.Database, event: Event, open_: bool) -> None:
    """Open or close self-registration through the event's QR."""
    with transaction(db):
        db.execute("UPDATE events SET registration = ? WHERE id = ?", [int(open_), event.id])
        _touch(db, event.id)


def set_dropped(db: sqlite_utils.Database, event: Event, name: str, dropped: bool) -> None:
    """Drop an entrant from the next rounds (their results so far stay), or take them back."""
    with transaction(db):
        cur = db.execute("UPDATE event_entrants SET dropped = ? WHERE event_id = ? AND name = ?",
                         [int(dropped), event.id, name])
        if cur.rowcount == 0:
            raise tables.NotFound("That name isn't on this event's list.")
        _touch(db, event.id)
