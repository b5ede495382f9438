"""An event's rounds and their tables: every table of a round is a real
:mod:`companion.tables` table, whose result is read from its own sheet once the game is
over, in the game's own order (:meth:`Game.outcome_of <companion.rules.game.Game.outcome_of>`);
the director may enter or correct a result (audited) and locks a round to make its results
final. Also who sits where (the pairings by name) and the table cards' numbers.

A table's facts are cached per table version, so a room polled every few seconds reads a
table's sheet again only when it has changed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from companion import tables
from companion.clock import now
from companion.lru import LRU
from companion.rules.game import MAX_NAME_LENGTH, clean_name, places_of
from companion.rules.said import N_, message
from companion.storage import transaction

from .entrants import entrants
from .event import MAX_REASON, Event, touch
from .pairing import table_sizes, team_seats


@dataclass(frozen=True)
class Round:
    """A round as seated: its number, the entrants sitting it out and whether it is locked."""

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


def rounds(db: sqlite_utils.Database, event: Event) -> list[Round]:
    """The rounds seated so far, in order."""
    rows = db.execute("SELECT * FROM event_rounds WHERE event_id = ? ORDER BY round",
                      [event.id]).fetchall()
    return [Round(r["round"], json.loads(r["byes"]), r["locked_at"] is not None) for r in rows]


def find_round(db, event: Event, number: int) -> Round:
    """Round `number` as seated (NotFound: not seated yet)."""
    found = next((r for r in rounds(db, event) if r.number == number), None)
    if found is None:
        raise tables.NotFound(message("tournament", "Round {round} hasn't been seated.",
                                      round=number))
    return found


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


def table_row(db, event: Event, number: int, table_no: int) -> TableRow:
    """Table `table_no` of round `number` as the dashboard shows it (NotFound: no such
    table). Reads that one table's sheet, not the round's."""
    rows = db.execute(_SEATED + " WHERE s.event_id = ? AND s.round = ? AND s.table_no = ?",
                      [event.id, number, table_no]).fetchall()
    found = _table_rows(db, event, number, rows)
    if not found:
        raise tables.NotFound(message("tournament", "Round {round} has no table {table}.",
                                      round=number, table=table_no))
    return found[0]


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
    """An event's result from a finished table's summary: the places are the game's own
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


def lock_round(db: sqlite_utils.Database, event: Event, number: int) -> None:
    """Lock round `number`: its results are final. Every table needs a result first."""
    rnd = find_round(db, event, number)
    if rnd.locked:
        raise ValueError(message("tournament", "Round {round} is already locked.",
                                 round=number))
    round_tables(db, event, number)   # fold changed sheets before taking the write lock
    with transaction(db):
        if find_round(db, event, number).locked:
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
    find_round(db, event, number)
    table_row(db, event, number, table_no)   # fold a changed sheet before the write lock
    with transaction(db):
        done = rounds(db, event)
        rnd = next(r for r in done if r.number == number)
        if rnd.locked and not after_lock:
            raise ValueError(message("tournament", "Round {round} is locked; its results are "
                                     "final.", round=number))
        # Read again under the write lock: what is replaced is what the log records.
        row = table_row(db, event, number, table_no)
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


def seat_names(event: Event, ids: list[str], members: dict[str, list]) -> list[str]:
    """The seat names of a table of `ids`, as seat_next_round made them."""
    if event.format["kind"] == "teams":
        return team_seats(members[ids[0]], members[ids[1]])
    return list(ids)


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
    """The table numbers the biggest round so far used."""
    row = db.execute("SELECT MAX(table_no) FROM event_seatings WHERE event_id = ?",
                     [event.id]).fetchone()
    return row[0] or 0


def largest_round(db: sqlite_utils.Database, event: Event) -> int:
    """The most tables a round of this event may need: every entrant on the list (dropped
    ones too, who may be taken back) seated at once, the entrants per table rounded up (two
    teams or players to a table; a table game's preferred size, or its seating's split where
    that makes more tables), and never fewer than the biggest round so far. The table
    cards printed by default."""
    count = len(entrants(db, event))
    fmt = event.format
    if fmt["kind"] == "tables":
        # The entrants per table rounded up, or the seating's own split if that has more
        # tables (smaller tables for an uneven count).
        preferred = fmt.get("preferred_table") or fmt["min_table"]
        possible = -(-count // preferred)
        try:
            possible = max(possible, len(table_sizes(count, fmt["min_table"],
                                                     fmt["max_table"], preferred,
                                                     fmt.get("odd_tables") or "closest")))
        except ValueError:
            pass
    else:
        possible = -(-count // 2)
    return max(possible, most_tables(db, event))
