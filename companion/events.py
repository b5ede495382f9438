"""Tournaments ("events"): entrants, rounds seated onto real tables, results and standings.

The pure logic (seating, standings, CSV) lives in :mod:`companion.tournament`; this module
stores an event and connects it to :mod:`companion.tables`: every table of a round is a
real companion table, and its result is read from the table's own sheet once the game is
over. The director may correct a result; every correction is kept in ``event_audit``.
"""
from __future__ import annotations

import json
import random
import secrets
import sqlite3
from dataclasses import dataclass

import sqlite_utils

from companion import tables, tournament
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH
from companion.storage import transaction
from companion.tables import TableError, tokens
from companion.tables.service import now

MAX_ENTRANTS = 200
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

    @property
    def game(self):
        return find_game(self.game_slug)

    @property
    def format(self) -> dict:
        return tournament.tournament_format(self.game_slug)

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
                 rounds=row["rounds"], created_at=row["created_at"])


def get_event(db: sqlite_utils.Database, event_id: str) -> Event:
    """The event with this id, or `NotFound`."""
    row = db.execute("SELECT * FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None:
        raise tables.NotFound("There is no such event. Check the link.")
    return _row_event(row)


def is_director(db: sqlite_utils.Database, event: Event, secret: str | None) -> bool:
    """Whether `secret` (from the director's cookie) is this event's."""
    if not secret:
        return False
    row = db.execute("SELECT secret_hash FROM events WHERE id = ?", [event.id]).fetchone()
    return row is not None and secrets.compare_digest(row[0], tokens.hash_secret(secret))


# ---------------------------------------------------------------- creating

def parse_entrants(text: str, fmt: dict) -> list[tuple[str, list[str]]]:
    """Entrants from text typed or pasted one per line: (name, members).

    In a team game a line is one team, its players separated by commas ("Ann, Bob"); the
    team is called "Ann & Bob". Raises ValueError with a plain sentence.
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
    least = 2 if fmt["kind"] != "tables" else fmt["min_table"]
    if len(out) < least:
        raise ValueError(f"List at least {least} entrants, one per line.")
    return out


def parse_rounds(raw: str | None) -> int:
    """The number of rounds from the form (1..MAX_ROUNDS)."""
    text = (raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3 \
            or not 1 <= int(text) <= MAX_ROUNDS:
        raise ValueError(f"The number of rounds is a whole number from 1 to {MAX_ROUNDS}.")
    return int(text)


def create_event(db: sqlite_utils.Database, name: str, slug: str, settings: dict,
                 options: dict, rounds: int, entrants: list[tuple[str, list[str]]]
                 ) -> tuple[Event, str]:
    """Store a new event; returns it and the director's secret (for the cookie)."""
    name = (name or "").strip()
    if not name:
        raise ValueError("Give the event a name.")
    if len(name) > MAX_EVENT_NAME:
        raise ValueError(f"An event name has at most {MAX_EVENT_NAME} characters.")
    event_id, secret = tokens.new_table_id(), tokens.new_secret()
    with transaction(db):
        db.execute("INSERT INTO events (id, name, game, settings, options, rounds, secret_hash,"
                   " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [event_id, name, slug, json.dumps(settings), json.dumps(options), rounds,
                    tokens.hash_secret(secret), now()])
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


def rounds(db: sqlite_utils.Database, event: Event) -> list[Round]:
    """The rounds seated so far, in order."""
    rows = db.execute("SELECT * FROM event_rounds WHERE event_id = ? ORDER BY round",
                      [event.id]).fetchall()
    return [Round(r["round"], json.loads(r["byes"]), r["locked_at"] is not None) for r in rows]


def round_tables(db: sqlite_utils.Database, event: Event, number: int) -> list[TableRow]:
    """Every table of round `number` with its state and result.

    A table whose game is over and that has no result yet gets one from its sheet now
    (stored, so a rematch played afterwards doesn't change the event).
    """
    rows = db.execute("SELECT * FROM event_seatings WHERE event_id = ? AND round = ?"
                      " ORDER BY table_no", [event.id, number]).fetchall()
    out = []
    for row in rows:
        table = tables.get_table(db, row["table_id"])
        sheet = tables.sheet(db, table)
        entrant_ids = json.loads(row["entrants"])
        stored = _stored_result(db, event, number, row["table_no"])
        # The event's game is the table's first: a rematch played before anyone looked
        # leaves it in past_games.
        first = sheet.past_games[0] if sheet.past_games else sheet.summary
        if stored is None and first.get("over"):
            result = result_from_summary(event, number, row["table_no"], entrant_ids, first)
            with transaction(db):
                db.execute("INSERT OR IGNORE INTO event_results (event_id, round, table_no, result,"
                           " source, updated_at) VALUES (?, ?, ?, ?, 'table', ?)",
                           [event.id, number, row["table_no"], json.dumps(result), now()])
            stored = _stored_result(db, event, number, row["table_no"])
        if first.get("over") or stored is not None:
            status = "finished"
        elif sheet.waiting is not None:
            status = "waiting"
        elif not any(seat.has_phone for seat in sheet.seats):
            status = "missing"      # no phone has sat down at this table yet
        else:
            status = "playing"
        out.append(TableRow(row["table_no"], table.id, table.token, table.code, entrant_ids,
                            sheet.names, status, stored and stored[0], stored and stored[1]))
    return out


def _stored_result(db, event: Event, number: int, table_no: int) -> tuple[dict, str] | None:
    row = db.execute("SELECT result, source FROM event_results WHERE event_id = ? AND round = ?"
                     " AND table_no = ?", [event.id, number, table_no]).fetchone()
    return None if row is None else (json.loads(row["result"]), row["source"])


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
    higher = True
    if scores and winners:
        best = [totals[w] for w in winners if w in totals]
        if best and all(b <= s for b in best for s in scores) and \
                not all(b >= s for b in best for s in scores):
            higher = False

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


def standings(db: sqlite_utils.Database, event: Event) -> list[dict]:
    """The standings rows (see :func:`companion.tournament.standings`)."""
    results = all_results(db, event)
    ids = [e.name for e in entrants(db, event)]
    return tournament.standings(ids, results, event.scoring,
                                game_tiebreaks={e: [v] for e, v in game_scores(results).items()})


def game_scores(results: list[dict]) -> dict[str, float]:
    """The game's own tie-break: each entrant's scores summed, higher is better.

    In a game where the lowest total wins (a table whose first place has the lowest
    score), the scores count negated, so a better game always means a higher tie-break.
    """
    out: dict[str, float] = {}
    for result in results:
        scores, places = result.get("scores"), result.get("places")
        if not scores or result.get("bye"):
            continue
        sign = 1
        if places:
            best = [s for s, p in zip(scores, places) if p == 1]
            if best and max(best) < max(scores):
                sign = -1
        for entrant, score in zip(result["entrants"], scores):
            out[entrant] = out.get(entrant, 0) + sign * score
    return out


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
            made, secret = tables.create_table(db, event.game_slug, event.settings, names, 0,
                                               event.options)
        except TableError as exc:
            raise ValueError(exc.message) from None
        # The director's laptop made the table but plays at none: free seat 0 for its player.
        phone = tables.phone_by_secret(db, made.id, secret)
        tables.leave_seat(db, made.id, phone)
        created.append((table["table"], made.id, ids))
    try:
        with transaction(db):
            db.execute("INSERT INTO event_rounds (event_id, round, byes, seated_at)"
                       " VALUES (?, ?, ?, ?)",
                       [event.id, number, json.dumps(seating["byes"]), now()])
            for table_no, table_id, ids in created:
                db.execute("INSERT INTO event_seatings (event_id, round, table_no, table_id,"
                           " entrants) VALUES (?, ?, ?, ?, ?)",
                           [event.id, number, table_no, table_id, json.dumps(ids)])
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
    missing = [t.number for t in round_tables(db, event, number) if t.result is None]
    if missing:
        listed = ", ".join(str(n) for n in missing)
        raise ValueError(f"Table {listed} has no result yet: finish the game there, or enter "
                         "the result as a correction.")
    with transaction(db):
        db.execute("UPDATE event_rounds SET locked_at = ? WHERE event_id = ? AND round = ?",
                   [now(), event.id, number])


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
                   places: list[int], who: str, why: str) -> None:
    """Set a table's result by hand (audited). The round must not be locked."""
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
    scores = row.result.get("scores") if row.result else None
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


def add_entrant(db: sqlite_utils.Database, event: Event, line: str) -> str:
    """A late arrival (a player, or a team line "Ann, Bob"): seated from the next round,
    with no points for the rounds missed. Returns the entrant's name."""
    known = entrants(db, event)
    existing = [", ".join(e.members) for e in known]
    line = (line or "").strip()
    if not line or "\n" in line or "\r" in line:
        raise ValueError("Type one name (or one team) to add.")
    parsed = parse_entrants("\n".join(existing + [line]), event.format)
    name, members = parsed[-1]
    with transaction(db):
        pos = db.execute("SELECT COALESCE(MAX(pos), -1) + 1 FROM event_entrants WHERE event_id = ?",
                         [event.id]).fetchone()[0]
        db.execute("INSERT INTO event_entrants (event_id, pos, name, members) VALUES (?, ?, ?, ?)",
                   [event.id, pos, name, json.dumps(members)])
    return name


def set_dropped(db: sqlite_utils.Database, event: Event, name: str, dropped: bool) -> None:
    """Drop an entrant from the next rounds (their results so far stay), or take them back."""
    with transaction(db):
        cur = db.execute("UPDATE event_entrants SET dropped = ? WHERE event_id = ? AND name = ?",
                         [int(dropped), event.id, name])
        if cur.rowcount == 0:
            raise tables.NotFound("That name isn't on this event's list.")
