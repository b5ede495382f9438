"""The top cut after the Swiss rounds: the director starts it once every Swiss round is
locked, the best 4 or 8 of the standings are seeded into a knockout (:mod:`.brackets`),
and each knockout round is seated like any round (``seating.seat_next_round``), with real
tables, locking and corrections. The Swiss standings stay as they were after the Swiss
rounds; the final's winner wins the event.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from companion.rules.said import N_, message
from companion.storage import transaction

from .brackets import CUT_SIZES, cut_rounds, knockout_winner
from .event import Event, get_event, log_change, touch
from .results import standings
from .rounds import round_tables, rounds


@dataclass
class KnockoutRound:
    """One round of the cut as the pages list it."""

    number: int          # the event's round number
    name: str            # "Quarter-finals", "Semi-finals", "Final" (msgids)
    tables: list         # each {"table", "entrants", "seeds", "winner" (None: playing)}
    byes: list = ()      # each {"entrant", "seed"}: went on because their opponent dropped


def can_cut(db: sqlite_utils.Database, event: Event) -> str | None:
    """Why a top cut can't start now (a sentence), or None when it can."""
    if event.cut:
        return N_("The top cut has started.")
    if event.plan != "swiss" or event.format["kind"] == "tables":
        return N_("A top cut follows Swiss rounds of a game of two players or two teams.")
    done = rounds(db, event)
    if len(done) < event.rounds or not done[-1].locked:
        return N_("Play and lock every Swiss round first.")
    return None


def start_cut(db: sqlite_utils.Database, event: Event, size: int,
              who: str = "Director") -> Event:
    """Start the top cut of `size` (4 or 8): the best `size` entrants of the standings who
    haven't dropped are its seeds, best first; the next round seated is its first. The
    director's log keeps the seeds (kind "cut"). ValueError when it can't start."""
    if size not in CUT_SIZES:
        raise ValueError(N_("Pick a top 4 or a top 8."))
    with transaction(db):
        event = get_event(db, event.id)
        refusal = can_cut(db, event)
        if refusal:
            raise ValueError(refusal)
        seeds = [r["entrant"] for r in standings(db, event) if not r.get("dropped")][:size]
        if len(seeds) < size:
            raise ValueError(message("tournament", "A top {size} needs {size} entrants who "
                                     "haven't dropped; there are {count}.", size=size,
                                     count=len(seeds)))
        config = {**event.config, "cut": {"size": size, "seeds": seeds}}
        db.execute("UPDATE events SET config = ? WHERE id = ?", [json.dumps(config), event.id])
        log_change(db, event, "cut", None, None, who, "", None, {"size": size, "seeds": seeds})
        touch(db, event.id)
    return get_event(db, event.id)


_NAMES = {1: N_("Final"), 2: N_("Semi-finals"), 3: N_("Quarter-finals")}


def bracket(db: sqlite_utils.Database, event: Event) -> dict | None:
    """The top cut as the pages show it, or None without one: ``seeds`` (best first),
    ``rounds`` (:class:`KnockoutRound`, seated so far) and ``winner`` (the final's winner
    once its round is locked, else None). A shared place sends the higher seed on."""
    cut = event.cut
    if not cut:
        return None
    seeds = cut["seeds"]
    seed_of = {name: n for n, name in enumerate(seeds, start=1)}
    total = cut_rounds(cut["size"])
    out, winner = [], None
    for rnd in rounds(db, event):
        if rnd.number <= event.rounds:
            continue
        left = total - (rnd.number - event.rounds) + 1     # rounds to go, this one included
        tables = []
        for row in round_tables(db, event, rnd.number):
            goes_on = knockout_winner(row.result, seeds) if row.result else None
            tables.append({"table": row.number, "entrants": row.entrants,
                           "seeds": [seed_of.get(e) for e in row.entrants],
                           "winner": goes_on})
        byes = [{"entrant": e, "seed": seed_of.get(e)} for e in rnd.byes]
        out.append(KnockoutRound(rnd.number, _NAMES.get(left, N_("Knockout round")), tables,
                                 byes))
        if left == 1 and rnd.locked and len(tables) == 1:
            winner = tables[0]["winner"]
        elif left == 1 and rnd.locked and not tables and len(byes) == 1:
            winner = byes[0]["entrant"]     # the other finalist dropped
    return {"seeds": seeds, "size": cut["size"], "rounds": out, "winner": winner}
