"""Seating an event's round: Swiss pairing of players or teams, tables for table games.

Everything here is pure: plain data in, plain (JSON-ready) data out, randomness only from a
``random.Random`` the caller passes in. Shapes:

- **entrant**: a string id (a player's name, or a team's id in Rook and Rainbow Rummy, where
  a table is team against team and pairing players means pairing teams).
- **ranking**: the active entrants, best first (see :func:`active_ranking`): dropped entrants
  left out, late arrivals placed by their points.
- **history**: ``{"met": {a: {b: times}}, "byes": {a: times}, "first": {a: times},
  "second": {a: times}, "last_first": {a: bool}}`` from :func:`history_from_results` — who
  sat at a table with whom, who sat out, and who went first at a table of two (see
  :func:`orient_pairs`).
- **points**: ``{entrant: points so far}``, optional for Swiss pairing: entrants with equal
  points form a *score group* (the ranking lists them by points, best first).
- **seating** (what every seating function returns)::

      {"tables": [{"table": 1, "entrants": ["Ann", "Bob"]}, ...],
       "byes": ["Eve"],                # sat out this round
       "repeats": [["Ann", "Bob"]]}    # pairs at one table who met before (unavoidable ones)

  Tables are numbered from 1, top table first. The seating functions list a table's
  entrants in ranking order; :func:`seat_round` then turns each table of two so that
  ``entrants[0]`` goes first (deals and leads first in Rook; see :func:`orient_pairs`), so
  there a table's entrants are no longer necessarily in ranking order.

Swiss pairing (:func:`swiss_pairing`, Dutch-style by default: in each score group the top
half meets the bottom half) is exact where it matters: it never pairs a rematch when some
pairing of the round avoids every rematch (more generally, it pairs as few rematches as any
pairing can), checked step by step with Edmonds' matching algorithm (see :mod:`.matching`).
Table seating (:func:`assign_tables`) searches every seating of a small field (up to 12
players at tables of 4) and uses a local search beyond that: as good as is reasonable
there, not provably optimal. A field of hundreds is seated in blocks of about 48
consecutive entrants (:data:`BLOCK`), so a 500-table round takes a fraction of a second.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.rules.said import N_, message

from .matching import matching_size, maximum_matching

__all__ = [
    "ODD_TABLES",
    "PAIR_KINDS",
    "SWISS_METHODS",
    "active_ranking",
    "apart_pairs",
    "assign_tables",
    "fix_table_numbers",
    "history_from_results",
    "orient_pairs",
    "random_pairing",
    "random_tables",
    "seat_round",
    "swiss_pairing",
    "table_sizes",
    "team_seats",
]

#: Format kinds whose table holds exactly two entrants (players or teams).
PAIR_KINDS = ("head_to_head", "teams")


# History and ranking.

def history_from_results(results: Iterable[Mapping[str, Any]]) -> dict[str, dict]:
    """Who met whom, who had a bye and who went first, from results (or seatings) of earlier
    rounds.

    Each item needs ``"entrants"`` (ids at one table) and, for a bye, ``"bye": True`` (a
    lone entrant without a table counts as a bye too); ``"round"`` orders the items (items
    without one keep their place, before any numbered round). Returns::

        {"met": {a: {b: times}},     # symmetric
         "byes": {a: times},
         "first": {a: times},        # times a was entrants[0] at a table of two
         "second": {a: times},       # times a was entrants[1] at a table of two
         "last_first": {a: bool}}    # a was entrants[0] in a's latest round at a table of two

    ``first``, ``second`` and ``last_first`` list every entrant who sat at a table of two
    (with 0 and False where that applies). Tables of three or more and byes do not count
    there: they have no "first" in the sense of :func:`orient_pairs`.
    """
    met: dict[str, dict[str, int]] = {}
    byes: dict[str, int] = {}
    first: dict[str, int] = {}
    second: dict[str, int] = {}
    last_first: dict[str, bool] = {}
    for result in sorted(results, key=_round_of):
        entrants = list(result["entrants"])
        if result.get("bye") or len(entrants) == 1:
            for entrant in entrants:
                byes[entrant] = byes.get(entrant, 0) + 1
            continue
        for a in entrants:
            for b in entrants:
                if a != b:
                    row = met.setdefault(a, {})
                    row[b] = row.get(b, 0) + 1
        if len(entrants) == 2:
            lead, other = entrants
            first[lead] = first.get(lead, 0) + 1
            first.setdefault(other, 0)
            second[other] = second.get(other, 0) + 1
            second.setdefault(lead, 0)
            last_first[lead], last_first[other] = True, False
    return {"met": met, "byes": byes, "first": first, "second": second,
            "last_first": last_first}


def _round_of(result: Mapping[str, Any]) -> int:
    rnd = result.get("round")
    return rnd if isinstance(rnd, int) and not isinstance(rnd, bool) else 0


def active_ranking(rows: Sequence[Mapping[str, Any]], *, dropped: Iterable[str] = (),
                   late: Mapping[str, Any] | None = None) -> list[str]:
    """The ranking to seat the next round from: standings rows minus drops plus late arrivals.

    ``rows`` are standings rows best first (each with ``"entrant"`` and ``"points"``, as
    :func:`companion.events.standings.standings` returns them). ``late`` maps entrants
    who join now to the points they start with (0, or a score the director grants); each
    goes below every entrant with at least as many points, so arriving never jumps a tie.
    """
    gone = set(dropped)
    late = dict(late or {})
    known = {row["entrant"] for row in rows}
    clash = sorted(known & set(late))
    if clash:
        raise ValueError(message("tournament", "{entrant!r} is already in the standings; only new "
                                 "entrants are late.", entrant=clash[0]))
    arrivals = sorted(late.items(), key=lambda item: -item[1])  # stable: given order breaks ties
    ranking: list[str] = []
    for row in rows:
        while arrivals and arrivals[0][1] > row["points"]:
            ranking.append(arrivals.pop(0)[0])
        ranking.append(row["entrant"])
    ranking.extend(entrant for entrant, _ in arrivals)
    return [entrant for entrant in ranking if entrant not in gone]


def _check_ranking(ranking: Sequence[str]) -> list[str]:
    ids = list(ranking)
    for entrant in ids:
        if not isinstance(entrant, str) or not entrant:
            raise ValueError(N_("Entrants are named by non-empty strings."))
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        twice = next(e for e in ids if e in seen or seen.add(e))
        raise ValueError(message("tournament", "{entrant!r} appears twice in the ranking.",
                                 entrant=twice))
    return ids


def _times_met(ids: Sequence[str], history: Mapping[str, Any] | None) -> list[list[int]]:
    """The matrix of earlier meetings between entrants, by ranking position."""
    met = (history or {}).get("met", {})
    return [[met.get(a, {}).get(b, 0) if a != b else 0 for b in ids] for a in ids]


def _bye_counts(ids: Sequence[str], history: Mapping[str, Any] | None) -> list[int]:
    byes = (history or {}).get("byes", {})
    return [byes.get(entrant, 0) for entrant in ids]


def _seating(ids: Sequence[str], tables: Sequence[Sequence[int]], sit_out: Iterable[int],
             history: Mapping[str, Any] | None) -> dict[str, list]:
    """Build the JSON-ready seating from tables of ranking positions."""
    met = (history or {}).get("met", {})
    out_tables = []
    repeats = []
    for number, table in enumerate(tables, start=1):
        table = sorted(table)
        out_tables.append({"table": number, "entrants": [ids[i] for i in table]})
        repeats.extend([ids[a], ids[b]] for k, a in enumerate(table) for b in table[k + 1:]
                       if met.get(ids[a], {}).get(ids[b], 0))
    return {"tables": out_tables, "byes": [ids[i] for i in sorted(sit_out)], "repeats": repeats}


def _choose_sit_outs(bye_counts: Sequence[int], count: int,
                     allowed: Iterable[int] | None = None) -> list[int]:
    """Who sits out: fewest earlier byes first, then the lowest-ranked."""
    pool = range(len(bye_counts)) if allowed is None else allowed
    return sorted(pool, key=lambda i: (bye_counts[i], -i))[:count]


# Swiss pairing (two entrants per table).

#: The Swiss pairing methods: "dutch" (in each score group the top half meets the bottom
#: half) and "adjacent" (the best-ranked entrant meets the next-ranked one).
SWISS_METHODS = ("dutch", "adjacent")


def swiss_pairing(ranking: Sequence[str], history: Mapping[str, Any] | None = None, *,
                  points: Mapping[str, float] | None = None, method: str = "dutch",
                  apart: Iterable[Iterable[str]] | None = None) -> dict[str, list]:
    """Pair the ranking for one Swiss round (head-to-head or team-against-team).

    ``points`` maps each entrant of the ranking to its points so far (entries for others
    are ignored); entrants with equal points form a score group, and the ranking must list
    them by points, best first. Without ``points`` the whole ranking is one score group.

    Priorities, in order:

    1. as few rematches as possible: none whenever some pairing of the round has none;
    2. with an odd count, the bye goes to an entrant with the fewest earlier byes (so at
       most one bye each while that is possible), and among those to the lowest-ranked;
    3. (``"dutch"`` only) no *clash*: two entrants who both went first at least two times
       more than they went second (or both second) are not paired when the entrants left
       can all be paired without a clash and with no more rematches than 1 allows;
       otherwise clashes are only put last in each entrant's order of preference. So
       whoever should go first at each table can (see :func:`orient_pairs`), and as long
       as no clash was unavoidable everyone goes first within one of half their tables;
    4. top-down: the best-ranked unpaired entrant meets the first partner in its order of
       preference that keeps 1 to 3 reachable; an unavoidable rematch goes to the pair
       who met fewest times (every partner not met before is tried before any rematch).

    The order of preference depends on ``method``:

    - ``"dutch"`` (the default): the unpaired members of the entrant's score group, itself
      included, are split into a top half and a bottom half (the bottom half takes the
      middle member of an odd group): the entrant prefers the bottom half in ranking order,
      then the rest of the top half from the middle up (the nearest thing to the Dutch
      system's exchanges), then lower score groups in ranking order. So a group ranked
      1..6 pairs 1-4, 2-5, 3-6; an odd group's lowest-ranked leftover floats down to the
      next group, where, being ranked above its members, it is paired first, with the
      best-ranked member it may meet.
    - ``"adjacent"`` (the behaviour before the Dutch system): the next-ranked entrants in
      ranking order, so 1 meets 2 and 3 meets 4; score groups still pair within themselves
      and a group's leftover floats down.

    Exactness comes from a look-ahead: an entrant is paired only if the entrants left can
    still be paired with the fewest rematches (clashes), which a maximum matching of the
    "not yet met" ("not met, no clash") graph decides (Edmonds' algorithm,
    :mod:`.matching`). The bye is chosen before clashes are looked at. Returns a seating
    (module doc), each table's entrants in ranking order.

    ``apart`` are *keep-apart groups* (club or family members who must not meet; names not
    in the ranking are ignored). They come before everything above: when some pairing of
    the round (with some bye) meets no two members of one group, the pairing is one of
    those — every step then also keeps the entrants left pairable without such a pair, and
    rematches are as few as that search finds (the fewest whenever the groups leave that
    choice free). When none exists, such pairs count as rematches (never preferred to a
    partner not met), and :func:`apart_pairs` names the ones that met.
    """
    ids = _check_ranking(ranking)
    if method not in SWISS_METHODS:
        raise ValueError(message("tournament", "A Swiss pairing method is one of {methods}, not "
                                 "{method!r}.", methods=", ".join(SWISS_METHODS), method=method))
    group = _score_groups(ids, points)
    times = _times_met(ids, history)
    order = list(range(len(ids)))
    kept = _apart_positions(ids, apart)
    allowed = None
    if kept:
        allowed = {i: [j for j in order if j != i and (i, j) not in kept] for i in order}
        if 2 * matching_size(maximum_matching(order, allowed)) < len(order) - len(order) % 2:
            # No pairing keeps every group apart: its pairs only go last, like rematches.
            allowed = None
            times = [[t + ((i, j) in kept) for j, t in enumerate(row)]
                     for i, row in enumerate(times)]
    fresh = {i: [j for j in order if j != i and not times[i][j]
                 and (allowed is None or (i, j) not in kept)] for i in order}
    matching = maximum_matching(order, fresh)
    sit_out = []
    if len(order) % 2:
        bye, matching = _choose_bye(order, fresh, matching, _bye_counts(ids, history),
                                    allowed)
        order.remove(bye)
        sit_out.append(bye)
    clash = _clashes(ids, history) if method == "dutch" else _no_clash
    good = fresh
    if clash is not _no_clash:
        strict = {i: [j for j in fresh[i] if not clash(i, j)] for i in order}
        clear = maximum_matching(order, strict, matching)
        if matching_size(clear) == matching_size(matching):  # no rematch more
            good, matching = strict, clear
    prefer = _dutch_preference(group) if method == "dutch" else _adjacent_preference
    pairs = _pair_top_down(order, good, matching, times, prefer, clash, allowed)
    return _seating(ids, pairs, sit_out, history)


def _apart_positions(ids: Sequence[str], apart: Iterable[Iterable[str]] | None
                     ) -> set[tuple[int, int]]:
    """The ranking positions (both orders) of every two members of one keep-apart group."""
    where = {entrant: i for i, entrant in enumerate(ids)}
    kept: set[tuple[int, int]] = set()
    for members in apart or ():
        here = sorted({where[m] for m in members if m in where})
        kept.update((a, b) for a in here for b in here if a != b)
    return kept


def apart_pairs(seating: Mapping[str, Any], apart: Iterable[Iterable[str]] | None
                ) -> list[list[str]]:
    """The pairs of one keep-apart group seated at one table (what the director is told
    could not be kept apart), table by table, in each table's order."""
    groups = [set(members) for members in apart or ()]
    out = []
    for table in seating["tables"]:
        names = list(table["entrants"])
        out.extend([a, b] for k, a in enumerate(names) for b in names[k + 1:]
                   if any(a in g and b in g for g in groups))
    return out


def _surplus(entrant: str, history: Mapping[str, Any] | None) -> int:
    """How many more times an entrant went first than second at tables of two."""
    hist = history or {}
    return hist.get("first", {}).get(entrant, 0) - hist.get("second", {}).get(entrant, 0)


def _no_clash(a: int, b: int) -> bool:
    return False


def _clashes(ids: Sequence[str], history: Mapping[str, Any] | None
             ) -> Callable[[int, int], bool]:
    """Whether two ranking positions clash: both went first (or both second) at least two
    times more than the other way, so whichever goes first, one drifts further. Returns
    :func:`_no_clash` when nobody is that far off."""
    surplus = [_surplus(entrant, history) for entrant in ids]
    if all(-2 < value < 2 for value in surplus):
        return _no_clash

    def clash(a: int, b: int) -> bool:
        return (surplus[a] >= 2 and surplus[b] >= 2) or (surplus[a] <= -2 and surplus[b] <= -2)

    return clash


def _score_groups(ids: Sequence[str], points: Mapping[str, float] | None) -> list[int]:
    """The score group of each ranking position, 0 for the top group (all 0 without points)."""
    if points is None:
        return [0] * len(ids)
    if not isinstance(points, Mapping):
        raise ValueError(N_("Points map each entrant to a number."))
    values = []
    for entrant in ids:
        if entrant not in points:
            raise ValueError(message("tournament", "{entrant!r} has no points.", entrant=entrant))
        value = points[entrant]
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ValueError(message("tournament", "The points of {entrant!r} must be a number, "
                                     "not {value!r}.", entrant=entrant, value=value))
        values.append(value)
    groups = []
    for k, value in enumerate(values):
        if k and value > values[k - 1]:
            raise ValueError(N_("The ranking must list entrants by points, best first."))
        groups.append(groups[-1] + (value != values[k - 1]) if k else 0)
    return groups


def _adjacent_preference(top: int, rest: Sequence[int]) -> list[int]:
    """The "adjacent" order: the next-ranked first."""
    return list(rest)


def _dutch_preference(group: Sequence[int]) -> Callable[[int, Sequence[int]], list[int]]:
    """The "dutch" order for the top entrant (see :func:`swiss_pairing`)."""

    def prefer(top: int, rest: Sequence[int]) -> list[int]:
        members = [top] + [v for v in rest if group[v] == group[top]]
        half = len(members) // 2
        own = members[half:] + members[half - 1:0:-1] if half else []
        lower = [v for v in rest if group[v] != group[top]]
        return own + lower

    return prefer


def _without(matching: Mapping[int, int], *gone: int) -> dict[int, int]:
    """A matching minus the pairs of some vertices: the start for a smaller graph."""
    drop = set(gone) | {matching[v] for v in gone if v in matching}
    return {a: b for a, b in matching.items() if a not in drop}


def _choose_bye(order: list[int], fresh: Mapping[int, list[int]], matching: dict[int, int],
                bye_counts: Sequence[int], allowed: Mapping[int, list[int]] | None = None
                ) -> tuple[int, dict[int, int]]:
    """The bye that keeps the fewest rematches, fewest earlier byes, lowest rank.

    Removing one vertex lowers the maximum matching by at most one, and some vertex (one
    the matching leaves exposed; the count is odd) keeps it, so the first candidate in
    preference order that keeps it is the answer. With keep-apart groups (``allowed``:
    the pairs that may meet, a pairing of everyone else possible) only a bye that leaves
    the rest pairable within ``allowed`` is taken, the one keeping most fresh pairs.
    """
    best = matching_size(matching)
    fallback = None
    for candidate in _choose_sit_outs(bye_counts, len(order), order):
        rest = [v for v in order if v != candidate]
        if allowed is not None and \
                2 * matching_size(maximum_matching(rest, allowed)) < len(rest):
            continue
        if candidate not in matching:
            return candidate, matching
        smaller = maximum_matching(rest, fresh, _without(matching, candidate))
        if matching_size(smaller) == best:
            return candidate, smaller
        if fallback is None or matching_size(smaller) > matching_size(fallback[1]):
            fallback = candidate, smaller
    if fallback is not None:
        return fallback
    # An exposed vertex always keeps the maximum: never reached.
    raise AssertionError  # pragma: no cover


def _pair_top_down(order: list[int], good: Mapping[int, list[int]],
                   matching: dict[int, int], times: Sequence[Sequence[int]],
                   prefer: Callable[[int, Sequence[int]], list[int]] = _adjacent_preference,
                   clash: Callable[[int, int], bool] = _no_clash,
                   allowed: Mapping[int, list[int]] | None = None
                   ) -> list[tuple[int, int]]:
    """Pair the top entrant with its best partner that keeps the rest optimally pairable.

    ``good`` is the graph of pairs to have as many of as possible (not met before, and
    perhaps no clash). ``prefer(top, rest)`` lists the partners of ``top`` in order of
    preference; every partner not met before comes before any rematch, rematches go by
    the fewest meetings, and within each a clash comes last (a stable sort keeps the
    preference otherwise).

    Invariant: ``matching`` is a maximum matching of ``good`` on ``order``, so its size is
    the most good pairs the entrants left can have; a pair is taken only if that number
    stays reachable.

    ``allowed`` (keep-apart groups, when everyone can be paired within it) is a hard rule:
    a partner is taken only if the entrants left can still all be paired within
    ``allowed`` (``perfect``, a perfect matching of it, keeps that check cheap). When no
    such partner keeps the most good pairs, the one keeping most does.
    """
    pairs = []
    order = list(order)
    near = {v: set(good.get(v, ())) for v in order}
    hard = None if allowed is None else {v: set(allowed.get(v, ())) for v in order}
    perfect = maximum_matching(order, allowed) if allowed is not None else {}
    while order:
        top, rest = order[0], order[1:]
        best = matching_size(matching)
        fallback = None
        for partner in sorted(prefer(top, rest),
                              key=lambda v: (times[top][v], clash(top, v))):
            others = None
            kept = None
            if hard is not None:
                if partner not in hard[top]:
                    continue
                kept = _exchanged(perfect, top, partner, hard)
                if kept is None:
                    others = [v for v in rest if v != partner]
                    kept = maximum_matching(others, allowed, _without(perfect, top, partner))
                if 2 * matching_size(kept) < len(rest) - 1:
                    continue
            is_good = partner in near[top]
            left = _exchanged(matching, top, partner, near) if is_good else None
            if left is None:
                others = others or [v for v in rest if v != partner]
                left = maximum_matching(others, good, _without(matching, top, partner))
                if matching_size(left) + is_good != best:
                    if hard is not None and (fallback is None or matching_size(left)
                                             + is_good > fallback[0]):
                        fallback = (matching_size(left) + is_good, partner, left, kept)
                    continue
            break
        else:
            if fallback is None:  # pragma: no cover
                # The partner of a maximum matching always keeps the maximum: never reached.
                raise AssertionError
            _size, partner, left, kept = fallback
        pairs.append((top, partner))
        order = [v for v in rest if v != partner]
        matching = left
        if kept is not None:
            perfect = kept
    return pairs


def _exchanged(matching: Mapping[int, int], top: int, partner: int,
               near: Mapping[int, set[int]]) -> dict[int, int] | None:
    """A maximum matching of the rest once ``top`` meets ``partner`` (a good pair: ``near``
    is the good graph), when one follows from ``matching`` at once; None when a full
    search must decide.

    ``matching`` is maximum, and the rest can have at most one pair fewer. That many are
    left when the pair is in it, when ``top`` or ``partner`` is unmatched (drop the other's
    pair), when their mates make a good pair (they pair instead), or when the mates can
    take the two ends of another pair instead (an augmenting path of three pairs): the
    Dutch pairing's ideal partner is rarely the mate the matching happened to give, and
    this keeps big fields fast (about a second for a 1,000-team round).
    """
    mate, other = matching.get(top), matching.get(partner)
    if mate is None or other is None or mate == partner:
        return _without(matching, top, partner)
    left = _without(matching, top, partner)
    if other in near[mate]:
        left[mate], left[other] = other, mate
        return left
    for x in near[mate]:
        y = left.get(x)
        if y is not None and y in near[other]:
            left[mate], left[x], left[y], left[other] = x, mate, other, y
            return left
    return None


def random_pairing(entrants: Sequence[str], rng: random.Random,
                   history: Mapping[str, Any] | None = None, *,
                   apart: Iterable[Iterable[str]] | None = None) -> dict[str, list]:
    """A random round (the first one): shuffle with ``rng``, then pair as :func:`swiss_pairing`.

    Pairing the shuffled order keeps the guarantees of the Swiss pairing (no rematch or
    second bye when avoidable, which matters when a director reseats a later round at
    random); with an odd count the bye goes to the last drawn who has had none. The
    shuffled order is paired with the "adjacent" method, so a seed draws the same round as
    before the Dutch system existed (both are equally random). ``apart``: keep-apart
    groups, as in :func:`swiss_pairing`.
    """
    order = _check_ranking(entrants)
    rng.shuffle(order)
    return swiss_pairing(order, history, method="adjacent", apart=apart)


# Tables of several players.

#: How a count that does not divide into preferred tables is split (see :func:`table_sizes`).
ODD_TABLES = ("closest", "smaller", "larger")


def table_sizes(count: int, min_size: int, max_size: int,
                preferred: int | None = None, odd: str = "closest") -> list[int]:
    """Split ``count`` entrants into table sizes within ``min_size``..``max_size``.

    Chooses, in order: the fewest entrants sitting out (``count - sum(sizes)``; only when no
    split seats everyone, e.g. fewer entrants than ``min_size``), then by ``odd``:

    - ``"closest"``: nothing more (the next rule decides);
    - ``"smaller"``: the fewest seats above ``preferred`` (summed over tables), so the
      tables that differ from ``preferred`` are smaller than it whenever a split without a
      larger table seats as many entrants (10 at 3..6, preferred 4: 4+3+3);
    - ``"larger"``: the fewest seats missing below ``preferred``, so the tables that differ
      are larger whenever possible (10 at 3..6, preferred 4: 5+5; 9: 5+4);

    then sizes closest to ``preferred`` (least sum of squared differences), the fewest
    tables, then larger tables. ``preferred`` defaults to 4 clamped into the limits. Sizes
    come largest first.
    """
    preferred = _check_sizes(min_size, max_size, preferred)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(N_("The number of entrants must be a whole number of at least 0."))
    _check_odd(odd)
    # best[m]: the best split of exactly m entrants, as (seats on the wrong side of
    # preferred, squared deviation, tables, minus the count of tables of each size from the
    # largest down). Every part is a sum over tables, so the best split of m extends a best
    # split of m - size. Comparing those counts compares the splits' sizes sorted largest
    # first, so "larger tables" wins ties, and each step costs the number of sizes, not the
    # number of tables (500-table events).
    span = max_size - min_size + 1
    best: list[tuple[int, int, int, tuple[int, ...]] | None] = [None] * (count + 1)
    best[0] = (0, 0, 0, (0,) * span)
    for total in range(min_size, count + 1):
        options = []
        for size in range(min_size, min(max_size, total) + 1):
            before = best[total - size]
            if before is not None:
                counts = list(before[3])
                counts[max_size - size] -= 1
                wrong = (max(0, size - preferred) if odd == "smaller"
                         else max(0, preferred - size) if odd == "larger" else 0)
                options.append((before[0] + wrong, before[1] + (size - preferred) ** 2,
                                before[2] + 1, tuple(counts)))
        if options:
            best[total] = min(options)
    seated = max(m for m in range(count + 1) if best[m] is not None)
    return [max_size - k for k, minus in enumerate(best[seated][3]) for _ in range(-minus)]


def _check_odd(odd: Any) -> str:
    if odd not in ODD_TABLES:
        raise ValueError(message("tournament", "Tables for an uneven count are {choices}, not "
                                 "{odd!r}.", choices=", ".join(ODD_TABLES), odd=odd))
    return odd


def _check_sizes(min_size: int, max_size: int, preferred: int | None) -> int:
    for value in (min_size, max_size):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(N_("Table sizes must be whole numbers of at least 1."))
    if min_size > max_size:
        raise ValueError(message("tournament", "The smallest table ({low}) is larger than the "
                                 "largest ({high}).", low=min_size, high=max_size))
    if preferred is None:
        return min(max_size, max(min_size, 4))
    if isinstance(preferred, bool) or not isinstance(preferred, int) \
            or not min_size <= preferred <= max_size:
        raise ValueError(message("tournament", "The preferred table size must lie between {low} "
                                 "and {high}.", low=min_size, high=max_size))
    return preferred


def assign_tables(ranking: Sequence[str], history: Mapping[str, Any] | None = None, *,
                  min_size: int, max_size: int, preferred: int | None = None,
                  odd: str = "closest", sizes: Sequence[int] | None = None,
                  apart: Iterable[Iterable[str]] | None = None) -> dict[str, list]:
    """Seat a table-game round by standings: top entrants together, few repeated table-mates.

    Sizes come from :func:`table_sizes` (``odd`` as there); whoever cannot be seated sits
    out (fewest earlier byes, then lowest-ranked). The scheme: table 1 takes the top of the
    ranking, table 2 the next, and so on ("king of the hill"). Then pairs of entrants swap
    tables while that lowers, first, the number of earlier meetings among table-mates,
    second, how far entrants moved from their standings table (sum of squared table
    distances) and, last, how far better-ranked entrants sit from the top tables. The search
    starts both from the standings split and from a greedy split that fills each table with
    the best-ranked entrants who met its members least, and keeps the better end. A field
    of more than :data:`BLOCK` entrants is seated in blocks of consecutive tables (see
    :func:`_blocks`). Returns a seating (module doc); every entrant is seated once or sits
    out. Given ``sizes`` (the tables to fill, their sum the number of entrants: tables
    already made, paired again) those are the tables, largest first. ``apart`` are
    keep-apart groups: two members at one table weigh as :data:`APART_WEIGHT` earlier
    meetings, so the search separates them whenever it finds a way (:func:`apart_pairs`
    names any left together).
    """
    ids = _check_ranking(ranking)
    if sizes is None:
        sizes = table_sizes(len(ids), min_size, max_size, preferred, odd)
    else:
        sizes = sorted(sizes, reverse=True)
        if sum(sizes) != len(ids) or any(not min_size <= n <= max_size for n in sizes):
            raise ValueError(N_("The tables to fill must seat every entrant, each within "
                                "the game's table sizes."))
    sit_out = _choose_sit_outs(_bye_counts(ids, history), len(ids) - sum(sizes))
    out = set(sit_out)
    players = [i for i in range(len(ids)) if i not in out]
    tables: list[list[int]] = []
    for group in _blocks(sizes, BLOCK):
        block, players = players[:sum(group)], players[sum(group):]
        tables += _seat_block(block, group, [ids[p] for p in block], history, apart)
    return _seating(ids, tables, sit_out, history)


#: The most entrants seated in one search. A bigger field (a 500-table event) is cut into
#: blocks of consecutive tables: the search costs grow with the square of the entrants
#: (minutes for thousands), while entrants rarely move more than a table or two from their
#: standings table anyway, so blocks lose next to nothing.
BLOCK = 48


def _blocks(sizes: Sequence[int], limit: int) -> list[list[int]]:
    """Consecutive runs of `sizes` of at most about `limit` entrants each, evenly sized."""
    if not sizes:
        return []
    total = sum(sizes)
    count = min(len(sizes), max(1, -(-total // limit)))
    per = len(sizes) / count
    return [list(sizes[round(k * per):round((k + 1) * per)]) for k in range(count)]


#: What two members of one keep-apart group at one table cost the table search, in earlier
#: meetings: more than any number of rematches a round could seat.
APART_WEIGHT = 10_000


def _seat_block(block: Sequence[int], sizes: Sequence[int], names: Sequence[str],
                history: Mapping[str, Any] | None,
                apart: Iterable[Iterable[str]] | None = None) -> list[list[int]]:
    """Seat the entrants `block` (ranking positions, best first) at tables of `sizes`."""
    times = _times_met(names, history)
    for a, b in _apart_positions(names, apart):
        times[a][b] += APART_WEIGHT
    local = list(range(len(block)))
    home = _standings_split(local, sizes)
    if _seatings_count(sizes) <= EXACT_LIMIT:
        table_of = _exact_search(local, sizes, home, times)
    else:
        table_of = _local_search(local, sizes, home, times)
    return [[block[p] for p in local if table_of[p] == t] for t in range(len(sizes))]


def _standings_split(players: Sequence[int], sizes: Sequence[int]) -> dict[int, int]:
    """Table index of each entrant when tables are filled straight down the ranking."""
    table_of = {}
    position = 0
    for table, size in enumerate(sizes):
        for p in players[position:position + size]:
            table_of[p] = table
        position += size
    return table_of


#: Up to this many possible seatings (multinomial of the table sizes), search them all:
#: 12 players at three tables of 4 are 34,650 seatings, at most ~0.15 s with pruning.
EXACT_LIMIT = 40_000

#: Random restarts of the local search while table-mates still repeat (30 matched the
#: exact search on 400 dense 9-11 player histories; 12 missed 5 of them).
KICKS = 30


def _seatings_count(sizes: Sequence[int]) -> int:
    """How many ways there are to seat sum(sizes) entrants at numbered tables of these sizes."""
    count, left = 1, sum(sizes)
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    return count


def _exact_search(players: Sequence[int], sizes: Sequence[int], home: Mapping[int, int],
                  times: Sequence[Sequence[int]]) -> dict[int, int]:
    """The best seating by :func:`_cost`, by trying every one (tables filled in order).

    Every cost term is a sum over tables, so a branch stops as soon as its partial cost
    can no longer beat the best on meetings or moves (both only grow).
    """
    best: list[Any] = [None, None]  # cost, seating

    def fill(table: int, left: list[int], placed: dict[int, int], cost: tuple) -> None:
        if best[0] is not None and cost[:2] > best[0][:2]:
            return
        if table == len(sizes):
            if best[0] is None or cost < best[0]:
                best[0], best[1] = cost, dict(placed)
            return
        for members in itertools.combinations(left, sizes[table]):
            repeats = sum(times[a][b] for a, b in itertools.combinations(members, 2))
            moved = sum((table - home[p]) ** 2 for p in members)
            order = -sum(table * p for p in members)
            for p in members:
                placed[p] = table
            rest = [p for p in left if p not in members]
            fill(table + 1, rest, placed,
                 (cost[0] + repeats, cost[1] + moved, cost[2] + order))
        for p in left:
            placed.pop(p, None)

    fill(0, list(players), {}, (0, 0, 0))
    return best[1]


def _local_search(players: Sequence[int], sizes: Sequence[int], home: Mapping[int, int],
                  times: Sequence[Sequence[int]]) -> dict[int, int]:
    """Iterated local search: descend from the standings split and from a greedy split,
    then, while table-mates still repeat, kick the best seating with a few random swaps
    and descend again (:data:`KICKS` times). The generator is seeded with a constant so the
    same standings always give the same seating."""
    starts = (dict(home), _greedy_split(players, sizes, times))
    best = min((_swap_search(start, home, times) for start in starts),
               key=lambda placed: _cost(placed, home, times))
    kicker = random.Random(0)
    for _ in range(KICKS):
        if _cost(best, home, times)[0] == 0 or len(sizes) < 2:
            break
        trial = dict(best)
        for _ in range(3):
            a, b = kicker.sample(list(players), 2)
            trial[a], trial[b] = trial[b], trial[a]
        trial = _swap_search(trial, home, times)
        if _cost(trial, home, times) < _cost(best, home, times):
            best = trial
    return best


def _greedy_split(players: Sequence[int], sizes: Sequence[int],
                  times: Sequence[Sequence[int]]) -> dict[int, int]:
    """Fill tables in order: the best-ranked unseated, then whoever met the table least."""
    unseated = list(players)
    table_of = {}
    for table, size in enumerate(sizes):
        members = [unseated.pop(0)]
        while len(members) < size:
            pick = min(unseated, key=lambda p: (sum(times[p][q] for q in members), p))
            unseated.remove(pick)
            members.append(pick)
        for p in members:
            table_of[p] = table
    return table_of


def _cost(table_of: Mapping[int, int], home: Mapping[int, int],
          times: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """What the table search minimises, compared in order (see :func:`_swap_search`)."""
    players = sorted(table_of)
    repeats = sum(times[a][b] for k, a in enumerate(players) for b in players[k + 1:]
                  if table_of[a] == table_of[b])
    moved = sum((table_of[p] - home[p]) ** 2 for p in players)
    # Maximising sum(table * rank position) seats better-ranked entrants at lower tables
    # (rearrangement inequality) once the first two terms tie.
    order = -sum(table_of[p] * p for p in players)
    return repeats, moved, order


def _swap_search(table_of: dict[int, int], home: Mapping[int, int],
                 times: Sequence[Sequence[int]]) -> dict[int, int]:
    """Steepest descent over swaps of two entrants at different tables.

    The cost (:func:`_cost`) is, in order: earlier meetings among table-mates; squared
    distance of each entrant from its standings table; and, to settle ties, better-ranked
    entrants at lower-numbered tables. ``met_at[p][t]`` (p's earlier meetings with the
    entrants at table t) makes each swap's change O(1) to evaluate and O(entrants) to
    apply. The cost is a pair compared
    lexicographically and strictly falls with each swap, so the search ends.
    """
    table_of = dict(table_of)
    players = sorted(table_of)
    tables = max(table_of.values(), default=-1) + 1
    met_at = {p: [0] * tables for p in players}
    for p in players:
        for q in players:
            met_at[p][table_of[q]] += times[p][q]
    while True:
        best_change, best_swap = (0, 0, 0), None
        for k, a in enumerate(players):
            ta = table_of[a]
            for b in players[k + 1:]:
                tb = table_of[b]
                if ta == tb:
                    continue
                repeats = (met_at[a][tb] - times[a][b] + met_at[b][ta] - times[a][b]
                           - met_at[a][ta] - met_at[b][tb])
                moved = ((tb - home[a]) ** 2 + (ta - home[b]) ** 2
                         - (ta - home[a]) ** 2 - (tb - home[b]) ** 2)
                order = (tb - ta) * (b - a)  # change of -sum(table * position)
                if (repeats, moved, order) < best_change:
                    best_change, best_swap = (repeats, moved, order), (a, b)
        if best_swap is None:
            return table_of
        a, b = best_swap
        ta, tb = table_of[a], table_of[b]
        for p in players:
            met_at[p][ta] += times[p][b] - times[p][a]
            met_at[p][tb] += times[p][a] - times[p][b]
        table_of[a], table_of[b] = tb, ta


def random_tables(entrants: Sequence[str], rng: random.Random,
                  history: Mapping[str, Any] | None = None, *, min_size: int,
                  max_size: int, preferred: int | None = None, odd: str = "closest",
                  sizes: Sequence[int] | None = None,
                  apart: Iterable[Iterable[str]] | None = None) -> dict[str, list]:
    """A random table-game round (the first one): shuffle with ``rng``, then seat as
    :func:`assign_tables` would seat that order (so repeats are still avoided if a later
    round is drawn at random); ``sizes`` and ``apart`` as there."""
    order = _check_ranking(entrants)
    rng.shuffle(order)
    return assign_tables(order, history, min_size=min_size, max_size=max_size,
                         preferred=preferred, odd=odd, sizes=sizes, apart=apart)


# Who goes first at a table of two.

def orient_pairs(seating: Mapping[str, Any], history: Mapping[str, Any] | None = None
                 ) -> dict[str, list]:
    """Turn each table of two so that ``entrants[0]`` is the entrant who should go first.

    At a pair table ``entrants[0]`` goes first (in Rook team A, in seat 0, deals and leads
    first). The entrant who went first fewer times goes first — counted against the times
    it went second (``history["first"]`` minus ``history["second"]``), which is the same
    when both played as many tables and fairer when a bye or a late arrival made the
    counts differ; on a tie, the one who did not go first in their last round at a table
    of two (``history["last_first"]``); on a further tie the table keeps its order (ranking
    order from the seating functions). Entrants new to the history count as 0, not first
    last time; a history without ``"second"`` compares the first counts alone. Tables of
    another size are left alone; ``repeats`` follow their table's order. Returns a new
    seating; the one given is not changed.

    Each table is turned on its own; who meets whom is the pairing's choice. Two entrants
    who both went first two times more than second (a *clash*) cannot both be helped, and
    the Dutch pairing avoids such tables whenever it can without a rematch; with no clash,
    everyone's first count stays within one of half their tables, round after round.
    """
    last_first = (history or {}).get("last_first", {})

    def key(entrant: str) -> tuple[int, bool]:
        return _surplus(entrant, history), bool(last_first.get(entrant, False))

    tables = []
    turned: dict[frozenset, list[str]] = {}
    for table in seating["tables"]:
        entrants = list(table["entrants"])
        if len(entrants) == 2:
            if key(entrants[1]) < key(entrants[0]):
                entrants.reverse()
            turned[frozenset(entrants)] = entrants
        tables.append({**table, "entrants": entrants})
    repeats = [list(turned.get(frozenset(pair), pair)) for pair in seating.get("repeats", [])]
    return {**seating, "tables": tables, "byes": list(seating.get("byes", [])),
            "repeats": repeats}


# One entry point for the web layer.

def seat_round(fmt: Mapping[str, Any], ranking: Sequence[str],
               history: Mapping[str, Any] | None = None, *,
               rng: random.Random | None = None,
               points: Mapping[str, float] | None = None,
               apart: Iterable[Iterable[str]] | None = None) -> dict[str, list]:
    """Seat one round of an event in format ``fmt`` (see :mod:`.formats`).

    With ``rng`` the round is drawn at random (the first one); without, it is seated by
    standings from ``ranking`` (best first). Pair formats (``"head_to_head"``, ``"teams"``)
    use Swiss pairing (Dutch-style, by score group when ``points`` are given; see
    :func:`swiss_pairing`), then :func:`orient_pairs`, so at each table ``entrants[0]``
    goes first and a table's entrants are no longer necessarily in ranking order.
    ``"tables"`` formats use table assignment with the format's sizes and ``odd_tables``
    (``"closest"`` when the format has none); they ignore ``points``, and so does a random
    round. ``apart``: keep-apart groups (see :func:`swiss_pairing`, :func:`assign_tables`).
    """
    kind = fmt.get("kind")
    if kind in PAIR_KINDS:
        if rng is not None:
            seating = random_pairing(ranking, rng, history, apart=apart)
        else:
            seating = swiss_pairing(ranking, history, points=points, apart=apart)
        return orient_pairs(seating, history)
    if kind == "tables":
        sizes = {"min_size": fmt["min_table"], "max_size": fmt["max_table"],
                 "preferred": fmt.get("preferred_table"),
                 "odd": fmt.get("odd_tables") or "closest", "apart": apart}
        if rng is not None:
            return random_tables(ranking, rng, history, **sizes)
        return assign_tables(ranking, history, **sizes)
    raise ValueError(message("tournament", "Unknown tournament format kind {kind!r}.", kind=kind))


def fix_table_numbers(seating: Mapping[str, Any], fixed: Mapping[str, int]
                      ) -> tuple[dict[str, list], list[dict[str, Any]]]:
    """Number a seating's tables so that entrants with a fixed table (accessibility: a
    player who must stay at table 1) sit at that number; who meets whom is unchanged.

    ``fixed`` maps entrants to table numbers (entrants not seated, a bye, are left alone).
    Tables are taken top first: a table with a fixed entrant gets that number when the
    round has that many tables and no table above took it; the other tables fill the
    numbers left in their order. Returns ``(seating, misses)``, the seating's tables in
    number order, and ``misses`` one ``{"entrant", "wanted", "table", "because"}`` for
    each fixed entrant who sits elsewhere: ``because`` is ``"fewer"`` (the round has
    fewer tables), ``"taken"`` (an entrant at another table has that number:
    ``"with"``) or ``"opponent"`` (a table-mate's fixed number won: ``"with"``).
    """
    tables = [dict(t) for t in seating["tables"]]
    count = len(tables)
    number_of: dict[int, int] = {}      # index in tables -> its new number
    holder: dict[int, str] = {}         # number -> the fixed entrant it was given for
    for k, table in enumerate(tables):
        for entrant in table["entrants"]:
            wanted = fixed.get(entrant)
            if wanted is None or k in number_of or not 1 <= wanted <= count \
                    or wanted in holder:
                continue
            number_of[k], holder[wanted] = wanted, entrant
    free = iter(n for n in range(1, count + 1) if n not in holder)
    for k in range(count):
        if k not in number_of:
            number_of[k] = next(free)
    misses = []
    for k, table in enumerate(tables):
        table["table"] = number_of[k]
        for entrant in table["entrants"]:
            wanted = fixed.get(entrant)
            if wanted is None or wanted == number_of[k]:
                continue
            miss = {"entrant": entrant, "wanted": wanted, "table": number_of[k]}
            if not 1 <= wanted <= count:
                miss["because"] = "fewer"
            elif holder.get(number_of[k]) in table["entrants"]:
                miss.update(because="opponent", **{"with": holder[number_of[k]]})
            else:
                miss.update(because="taken", **{"with": holder[wanted]})
            misses.append(miss)
    tables.sort(key=lambda t: t["table"])
    return {**seating, "tables": tables}, misses


def team_seats(team_a: Sequence[str], team_b: Sequence[str]) -> list[str]:
    """Seats for a team-against-team table, partners alternating (Rook RK-2, Rainbow Rummy
    RR-1): team A's players in seats 0, 2, 4…, team B's in 1, 3, 5…."""
    if len(team_a) != len(team_b) or not team_a:
        raise ValueError(N_("Both teams at a table need the same number of players."))
    return [name for pair in zip(team_a, team_b, strict=True) for name in pair]
