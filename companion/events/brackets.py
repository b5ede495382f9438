"""The two formats beside Swiss: a round robin (everyone meets everyone once) and a top
cut after Swiss (a knockout of the best 4 or 8). Pure, like :mod:`.pairing`: names in,
seatings out, in the same shape as :func:`~.pairing.seat_round` returns
(``{"tables": [{"table": 1, "entrants": [a, b]}, ...], "byes": [...]}``).

Both are for pair formats only (two players or two teams to a table): for most counts,
tables of three or more can't be scheduled so that every two players meet exactly once, and
a knockout needs one winner per table who goes on.

Round robin: the circle method. The entrants in the order drawn at round 1; for an odd
count an empty place joins (first, so that it is the place that stays), and whoever is
paired with it has the bye. Place 0 stays, the others turn one place each round; round
``r`` pairs place ``i`` with place ``n - 1 - i``. A dropped entrant's later opponents get
a bye (their table is not played).

Top cut: seeds by the Swiss standings; the first knockout round pairs 1v8, 4v5, 2v7, 3v6
(1v4, 2v3 for a top 4), so the two best seeds meet only in the final; each later round
pairs the winners of tables 1 and 2, 3 and 4, and so on. A table's winner is the entrant
with the better place (the game's own outcome); a shared place sends the higher seed on.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.rules.said import N_, message

__all__ = ["CUT_SIZES", "bracket_order", "cut_rounds", "cut_seating", "knockout_seating",
           "knockout_winner",
           "round_robin_round", "round_robin_rounds", "round_robin_schedule"]

CUT_SIZES = (4, 8)


def round_robin_rounds(count: int) -> int:
    """The rounds a round robin of `count` entrants takes: count - 1 (an even count),
    count (an odd one: everyone has one bye)."""
    if count < 2:
        return 0
    return count - 1 if count % 2 == 0 else count


def round_robin_schedule(order: Sequence[str]) -> list[dict[str, Any]]:
    """Every round of a round robin of `order` (the circle method), each a seating
    ``{"tables": [...], "byes": [...]}``: every two entrants share exactly one table.
    ValueError for fewer than two entrants or a name given twice."""
    names = list(order)
    if len(names) < 2:
        raise ValueError(N_("A round robin needs at least two entrants."))
    if len(set(names)) != len(names):
        raise ValueError(N_("Every entrant of a round robin has their own name."))
    places: list[str | None] = [None, *names] if len(names) % 2 else list(names)
    count = len(places)
    out = []
    for number in range(count - 1):
        tables, byes = [], []
        for i in range(count // 2):
            a, b = places[i], places[count - 1 - i]
            # Who goes first alternates: the fixed entrant every other round, the others
            # by their table, so nobody starts every game.
            if (i == 0 and number % 2) or (i > 0 and i % 2):
                a, b = b, a
            if a is None or b is None:
                byes.append(a if b is None else b)
            else:
                tables.append([a, b])
        out.append({"tables": [{"table": n, "entrants": t} for n, t in
                               enumerate(tables, start=1)], "byes": byes})
        places = [places[0], places[-1], *places[1:-1]]
    return out


def round_robin_round(order: Sequence[str], number: int,
                      dropped: Iterable[str] = ()) -> dict[str, Any]:
    """Round `number` (1-based) of the round robin of `order`, leaving out the `dropped`
    entrants: a table with one of them becomes a bye for the other; the tables are
    numbered again from 1. ValueError for a round past the schedule."""
    schedule = round_robin_schedule(order)
    if not 1 <= number <= len(schedule):
        raise ValueError(message("tournament", "A round robin of {count} entrants has "
                                 "{rounds} rounds.", count=len(order),
                                 rounds=len(schedule)))
    gone = set(dropped)
    seating = schedule[number - 1]
    tables, byes = [], [e for e in seating["byes"] if e not in gone]
    for table in seating["tables"]:
        here = [e for e in table["entrants"] if e not in gone]
        if len(here) == 2:
            tables.append(here)
        else:
            byes += here
    return {"tables": [{"table": n, "entrants": t} for n, t in enumerate(tables, start=1)],
            "byes": byes}


def cut_rounds(size: int) -> int:
    """The knockout rounds of a top cut of `size` (4: 2, 8: 3)."""
    if size not in CUT_SIZES:
        raise ValueError(N_("A top cut takes the best 4 or the best 8."))
    return size.bit_length() - 1


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order, two to a table: 1, 8, 4, 5, 2, 7, 3, 6 for a
    top 8; 1, 4, 2, 3 for a top 4. Seeds 1 and 2 are in different halves, and every
    table's seeds add up to size + 1."""
    cut_rounds(size)
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_winner(result: Mapping[str, Any], seeds: Sequence[str]) -> str:
    """The entrant of a knockout table's `result` who goes on: the better place; when both
    share a place, the higher seed (earlier in `seeds`)."""
    pair = list(result["entrants"])
    places = list(result.get("places") or [1] * len(pair))
    rank = {name: n for n, name in enumerate(seeds)}
    return min(zip(pair, places), key=lambda ep: (ep[1], rank.get(ep[0], len(rank))))[0]


def cut_seating(seeds: Sequence[str], previous: Sequence[Mapping[str, Any]] | None = None
                ) -> dict[str, Any]:
    """A knockout round's seating. Without `previous`: the first round of the cut of
    `seeds` (best first, 4 or 8 of them) in :func:`bracket_order`, the higher seed first
    at each table. With `previous` (the results of the last knockout round, one per table,
    in table order): the winners of tables 1 and 2 meet, of 3 and 4, and so on. A single
    result left over means the final was played: ValueError."""
    seeds = list(seeds)
    cut_rounds(len(seeds))
    rank = {name: n for n, name in enumerate(seeds)}
    if previous is None:
        order = [seeds[s - 1] for s in bracket_order(len(seeds))]
    else:
        ordered = sorted(previous, key=lambda r: r["table"])
        if len(ordered) < 2:
            raise ValueError(N_("The final has been played: the cut is over."))
        order = [knockout_winner(r, seeds) for r in ordered]
    tables = []
    for n in range(0, len(order), 2):
        pair = sorted(order[n:n + 2], key=lambda e: rank.get(e, len(rank)))
        tables.append({"table": n // 2 + 1, "entrants": pair})
    return {"tables": tables, "byes": []}


def knockout_seating(seeds: Sequence[str], step: int, alive: Sequence[str],
                     gone: Sequence[str] = ()) -> dict[str, Any]:
    """Knockout round `step` (1: the cut's first) of the cut of `seeds` (best first) among
    `alive`, the entrants still in (every seed for step 1; the winners and byes of the
    round before otherwise). Each entrant keeps its place in :func:`bracket_order`, so who
    meets whom never depends on table numbers: round `step` pairs the two still in of each
    block of 2**step places. An entrant in `gone` (dropped) doesn't play: the other of
    their block goes on with a bye, as does one alone in their block. Tables are numbered
    in bracket order, the higher seed first; one left alone is the cut's winner (no
    table)."""
    seeds = list(seeds)
    order = [seeds[s - 1] for s in bracket_order(len(seeds))]
    slot = {name: n for n, name in enumerate(order)}
    rank = {name: n for n, name in enumerate(seeds)}
    gone = set(gone)
    blocks: dict[int, list[str]] = {}
    for name in sorted((e for e in alive if e in slot), key=slot.__getitem__):
        blocks.setdefault(slot[name] >> step, []).append(name)
    tables, byes = [], []
    for block in sorted(blocks):
        here = [e for e in blocks[block] if e not in gone]
        if len(here) == 2:
            pair = sorted(here, key=rank.__getitem__)
            tables.append({"table": len(tables) + 1, "entrants": pair})
        else:
            byes += here
    return {"tables": tables, "byes": byes}
