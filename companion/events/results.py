"""An event's results and standings: every result so far (tables and byes), the
standings computed from them by the pure :mod:`.standings` (cached per result set: a
projector and every player's phone ask for them), and both as CSV.
"""
from __future__ import annotations

import hashlib
import json

import sqlite_utils

from companion.lru import LRU

from .standings import results_csv as csv_of_results
from .standings import standings as ranked_rows
from .standings import standings_csv as csv_of_standings
from .director import adjustments
from .entrants import entrants, late_points
from .event import Event
from .rounds import round_tables, rounds


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
    """The standings rows (see :func:`companion.events.standings`), computed once per
    :func:`results_key`: a projector and every player's phone ask for them.

    Each row also has ``game_score``: the entrant's own game scores summed, as shown
    (the tie-break compares them in the game's direction).
    """
    return standings_keyed(db, event)[0]


def standings_keyed(db: sqlite_utils.Database, event: Event) -> tuple[list[dict], tuple]:
    """:func:`standings` and their :func:`results_key`, under which a page may keep what
    it drew from them (the public standings of 2,500 entrants are 650 KB of HTML)."""
    results = all_results(db, event)
    if event.cut:
        # The standings are the Swiss rounds'; the cut's rounds decide only the bracket.
        results = [r for r in results if r["round"] <= event.rounds]
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
    rows = ranked_rows(ids, results, event.scoring,
                       game_tiebreaks={e: [sign * v] for e, v in own.items()},
                       order=event.tiebreaks, initial_points=late_points(event, people),
                       adjustments=adjustments(db, event))
    gone = {e.name for e in people if e.dropped}
    absent = {e.name for e in people if e.no_show}
    for row in rows:
        row["game_score"] = own.get(row["entrant"], 0)
        row["dropped"] = row["entrant"] in gone
        row["no_show"] = row["entrant"] in absent
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
    return csv_of_results(all_results(db, event), event.scoring)


def is_final(db: sqlite_utils.Database, event: Event) -> bool:
    """Whether the standings are final: the event's last round (its last Swiss round,
    when a top cut follows) is locked."""
    done = rounds(db, event)
    # With a top cut, its knockout rounds follow: the standings are final after the
    # Swiss rounds all the same.
    return len(done) >= event.rounds and bool(done) and done[event.rounds - 1].locked


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
    return csv_of_standings(shown, event.tiebreaks, members=members,
                            dropped=[e.name for e in people if e.dropped],
                            final=is_final(db, event))
