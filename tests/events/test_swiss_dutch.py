"""Dutch-style Swiss pairing by score groups, and who goes first at a table of two.

Table-driven examples were worked out by hand; the Hypothesis properties compare the
pairing with brute force over every pairing for up to 10 entrants.
"""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import (
    active_ranking,
    assign_tables,
    history_from_results,
    match_scoring,
    orient_pairs,
    random_pairing,
    seat_round,
    standings,
    swiss_pairing,
    event_format,
)


def pairs_of(seating):
    return ["".join(t["entrants"]) for t in seating["tables"]]


def history(met=(), byes=None, rounds=None):
    """A history from "A-B" meeting strings (entrants[0] first), in the order given."""
    results = [{"round": k + 1, "entrants": pair.split("-")} for k, pair in enumerate(met)]
    results += [{"entrants": [e], "bye": True} for e, n in (byes or {}).items()
                for _ in range(n)]
    return history_from_results(results)


def points_of(groups):
    """{"AB": 2, "CD": 1} -> {"A": 2, "B": 2, "C": 1, "D": 1}."""
    return {e: p for names, p in groups.items() for e in names}


# ---------------------------------------------------------------------------
# Dutch pairing, by hand.
# ---------------------------------------------------------------------------

DUTCH_CASES = [
    # (ranking, points by group or None, met, earlier byes, expected pairs, expected bye)
    # One score group of six: top half meets bottom half.
    ("ABCDEF", None, [], {}, ["AD", "BE", "CF"], None),
    # Two groups of four: each pairs within itself, 1-3 and 2-4.
    ("ABCDEFGH", {"ABCD": 1, "EFGH": 0}, [], {}, ["AC", "BD", "EG", "FH"], None),
    # An odd group: A-B (the bottom half holds the middle), C floats down and is paired
    # first there, with D, the best-ranked of the next group.
    ("ABCDEF", {"ABC": 2, "DEF": 0}, [], {}, ["AB", "CD", "EF"], None),
    # A group of five and one of three: A-C, B-D, E floats to F; G-H.
    ("ABCDEFGH", {"ABCDE": 1, "FGH": 0}, [], {}, ["AC", "BD", "EF", "GH"], None),
    # A met its Dutch partner D: the next of the bottom half, E; then B-D, C-F.
    ("ABCDEF", None, ["A-D"], {}, ["AE", "BD", "CF"], None),
    # A met the whole bottom half: the top half from the middle up, C; then B-E, D-F.
    ("ABCDEF", None, ["A-D", "A-E", "A-F"], {}, ["AC", "BE", "DF"], None),
    # The ideal A-C would leave B-D, a rematch: the look-ahead pairs A-D and B-C.
    ("ABCD", None, ["B-D"], {}, ["AD", "BC"], None),
    # A alone in its group floats; B (below, met before) is skipped for C.
    ("ABCD", {"A": 2, "BC": 1, "D": 0}, ["A-B"], {}, ["AC", "BD"], None),
    # Byes: the lowest-ranked without one sits out, the rest pair top half - bottom half.
    ("ABCDE", None, [], {}, ["AC", "BD"], "E"),
    ("ABCDE", None, [], {"E": 1}, ["AC", "BE"], "D"),
    # E is the natural bye, but then D must meet a player it met: D gets the bye instead.
    ("ABCDE", None, ["D-A", "D-B", "D-C"], {}, ["AC", "BE"], "D"),
    # A complete round robin of four: rematches are unavoidable; they follow the Dutch
    # order (A-C, B-D) among the pairs met equally often.
    ("ABCD", None, ["A-B", "A-C", "A-D", "B-C", "B-D", "C-D"], {}, ["AC", "BD"], None),
]


@pytest.mark.parametrize("ranking,groups,met,byes,pairs,bye", DUTCH_CASES)
def test_dutch_pairing_examples(ranking, groups, met, byes, pairs, bye):
    points = points_of(groups) if groups else None
    seating = swiss_pairing(list(ranking), history(met, byes), points=points)
    assert pairs_of(seating) == pairs
    assert seating["byes"] == ([bye] if bye else [])
    assert [t["table"] for t in seating["tables"]] == list(range(1, len(pairs) + 1))
    # Dutch is the default.
    assert seating == swiss_pairing(list(ranking), history(met, byes), points=points,
                                     method="dutch")


def test_dutch_avoids_clashes_of_who_goes_first():
    # A and C went first two times more than second, B and D second (against X and Y, who
    # have left). The Dutch A-C and B-D would each leave one of them further off: A meets
    # D and B meets C instead, and the one owed it goes first at each table.
    met = ["A-X", "A-Y", "C-X", "C-Y", "X-B", "Y-B", "X-D", "Y-D"]
    hist = history(met)
    assert pairs_of(swiss_pairing(list("ABCD"), hist)) == ["AD", "BC"]
    assert pairs_of(seat_round({"kind": "teams"}, list("ABCD"), hist)) == ["DA", "BC"]
    # The adjacent method keeps its old order.
    assert pairs_of(swiss_pairing(list("ABCD"), hist, method="adjacent")) == ["AB", "CD"]
    # When only rematches avoid the clashes, the clashes stay: no rematch for them.
    hist = history(["A-B", "C-D", "A-D", "C-B"])
    assert pairs_of(swiss_pairing(list("ABCD"), hist)) == ["AC", "BD"]


def test_adjacent_method_is_kept():
    assert pairs_of(swiss_pairing(list("ABCDEF"), method="adjacent")) == ["AB", "CD", "EF"]
    assert pairs_of(swiss_pairing(list("ABCDEF"))) == ["AD", "BE", "CF"]


def test_extra_points_are_ignored_and_equal_points_are_one_group():
    points = {"A": 1.5, "B": 1.5, "C": 1.5, "D": 1.5, "Gone": 9}
    assert pairs_of(swiss_pairing(list("ABCD"), points=points)) == ["AC", "BD"]


@pytest.mark.parametrize("kwargs,problem", [
    ({"points": {"A": 1, "B": 1, "C": 0}}, "'D' has no points"),
    ({"points": {"A": 0, "B": 1, "C": 1, "D": 0}}, "by points, best first"),
    ({"points": {"A": 1, "B": "1", "C": 0, "D": 0}}, "must be a number"),
    ({"points": {"A": 1, "B": float("nan"), "C": 0, "D": 0}}, "must be a number"),
    ({"points": {"A": True, "B": 1, "C": 0, "D": 0}}, "must be a number"),
    ({"points": [1, 1, 0, 0]}, "map each entrant"),
    ({"method": "monrad"}, "dutch, adjacent"),
])
def test_swiss_refuses_bad_points_and_methods(kwargs, problem):
    with pytest.raises(ValueError, match=problem):
        swiss_pairing(list("ABCD"), **kwargs)


# ---------------------------------------------------------------------------
# A six-team Rook event through seat_round, by hand (win 2, draw 1, loss 0).
#
# R1 (seeding T1..T6, one group): T1-T4, T2-T5, T3-T6, each seeded team first.
#    T1 beat T4, T5 beat T2, T3 drew T6.
#    Standings: T1 T5 (2) | T3 T6 (1) | T2 T4 (0) (ties on every tie-break: entry order).
# R2: T1-T5. T3-T6 met, so T3 meets the first of the next group, T2; T6 meets T4.
#    First: T5 had gone first less than T1 -> T5 first. T3 and T2 both went first once
#    and last time -> ranking order, T3. T6 and T4 neither -> ranking order, T6.
#    T5 beat T1, T2 beat T3, T6 drew T4.
#    Standings: T5 (4) | T1 T2 T6 (2; Buchholz 5, 5, 2; SB 1, 1) | T3 T4 (1; all equal).
# R3: T5 alone floats: T1 and T2 were met, so T6, the first fresh one below (T1 T2 T3 T4
#    can still pair without a rematch). Then T1-T2 and T3-T4.
#    First: T5 and T6 went first once each, both last time -> T5. T1 and T2 once, neither
#    last time -> T1. T3 went first twice, T4 never -> T4.
# ---------------------------------------------------------------------------

ROOK_EVENT = [
    # (round, [(first, second, winner or None)])
    (1, [("T1", "T4", "T1"), ("T2", "T5", "T5"), ("T3", "T6", None)]),
    (2, [("T5", "T1", "T5"), ("T3", "T2", "T2"), ("T6", "T4", None)]),
    (3, [("T5", "T6", None), ("T1", "T2", None), ("T4", "T3", None)]),
]


def _result(rnd, table, a, b, winner):
    places = [1, 1] if winner is None else ([1, 2] if winner == a else [2, 1])
    return {"round": rnd, "table": table, "entrants": [a, b], "places": places}


def test_rook_event_by_hand():
    fmt = event_format("rook")
    teams = [f"T{n}" for n in range(1, 7)]
    results = []
    for rnd, tables in ROOK_EVENT:
        rows = standings(teams, results, match_scoring())
        ranking = active_ranking(rows) if results else teams
        points = {r["entrant"]: r["points"] for r in rows} if results else None
        seating = seat_round(fmt, ranking, history_from_results(results), points=points)
        assert [tuple(t["entrants"]) for t in seating["tables"]] == \
            [(a, b) for a, b, _ in tables], f"round {rnd}"
        assert seating["byes"] == [] and seating["repeats"] == []
        results += [_result(rnd, t["table"], a, b, w)
                    for t, (a, b, w) in zip(seating["tables"], tables, strict=True)]
    hist = history_from_results(results)
    assert hist["first"] == {"T1": 2, "T2": 1, "T3": 2, "T4": 1, "T5": 2, "T6": 1}
    assert hist["last_first"] == {"T1": True, "T2": False, "T3": False, "T4": True,
                                  "T5": True, "T6": False}


def test_seat_round_passes_points_and_tables_ignore_them():
    rook = event_format("rook")
    teams = list("ABCDEF")
    points = points_of({"ABC": 2, "DEF": 0})
    assert seat_round(rook, teams, points=points) == swiss_pairing(teams, points=points)
    assert pairs_of(seat_round(rook, teams)) == ["AD", "BE", "CF"]
    # A random round ignores points; it is the random pairing, turned by the history.
    assert seat_round(rook, teams, rng=random.Random(4), points=points) == \
        orient_pairs(random_pairing(teams, random.Random(4)), None)
    zock = event_format("zocknroll")
    players = [f"Z{n}" for n in range(1, 9)]
    assert seat_round(zock, players, points={p: 0 for p in players}) == \
        assign_tables(players, min_size=3, max_size=6, preferred=4)


# ---------------------------------------------------------------------------
# Who goes first.
# ---------------------------------------------------------------------------

def test_history_records_who_went_first_in_round_order():
    results = [
        {"round": 2, "entrants": ["B", "A"]},
        {"round": 1, "entrants": ["A", "B"]},
        {"round": 3, "entrants": ["A"], "bye": True},       # a bye changes nothing
        {"round": 3, "entrants": ["C", "D", "E"]},          # nor does a table of three
        {"round": 4, "entrants": ["C", "B"]},
    ]
    hist = history_from_results(results)
    assert hist["first"] == {"A": 1, "B": 1, "C": 1}
    assert hist["second"] == {"A": 1, "B": 2, "C": 0}
    # A's latest round at a table of two is round 2 (second), B's round 4 (second).
    assert hist["last_first"] == {"A": False, "B": False, "C": True}
    assert hist["byes"] == {"A": 1}


ORIENT_CASES = [
    # (table, first counts, second counts or None, last_first, expected order); a history
    # without "second" compares the first counts alone.
    (["A", "B"], {"A": 2, "B": 1}, None, {}, ["B", "A"]),             # fewer times first
    (["A", "B"], {"A": 1, "B": 2}, None, {"A": True}, ["A", "B"]),
    (["A", "B"], {"A": 1, "B": 1}, None, {"A": True, "B": False}, ["B", "A"]),  # not last
    (["A", "B"], {"A": 1, "B": 1}, None, {"A": False, "B": True}, ["A", "B"]),
    (["A", "B"], {"A": 1, "B": 1}, None, {"A": True, "B": True}, ["A", "B"]),  # ranking
    (["A", "B"], {}, None, {}, ["A", "B"]),                           # both new
    (["A", "B"], {"A": 1}, None, {"A": False}, ["B", "A"]),           # new counts as 0
    (["A", "B", "C"], {"A": 5}, None, {"A": True}, ["A", "B", "C"]),  # not a table of two
    # Counted against the times second: A went first 2 of 5, B 1 of 1 (a late arrival).
    (["A", "B"], {"A": 2, "B": 1}, {"A": 3, "B": 0}, {}, ["A", "B"]),
    (["A", "B"], {"A": 2, "B": 1}, {"A": 2, "B": 1}, {"B": True}, ["A", "B"]),
    (["A", "B"], {"A": 2, "B": 2}, {"A": 1, "B": 1}, {"A": True}, ["B", "A"]),
]


@pytest.mark.parametrize("table,first,second,last,expected", ORIENT_CASES)
def test_orient_pairs_examples(table, first, second, last, expected):
    seating = {"tables": [{"table": 1, "entrants": table}], "byes": ["Z"],
               "repeats": [table[:2]] if len(table) == 2 else []}
    hist = {"met": {}, "byes": {}, "first": first, "last_first": last}
    if second is not None:
        hist["second"] = second
    turned = orient_pairs(seating, hist)
    assert turned["tables"] == [{"table": 1, "entrants": expected}]
    assert turned["byes"] == ["Z"]
    if len(table) == 2:
        assert turned["repeats"] == [expected]
    assert seating["tables"][0]["entrants"] == table  # the input is left alone


def test_two_entrants_alternate():
    results = []
    for rnd in range(1, 8):
        seating = seat_round({"kind": "head_to_head"}, ["A", "B"],
                             history_from_results(results))
        results.append({"round": rnd, "entrants": seating["tables"][0]["entrants"]})
    assert [r["entrants"][0] for r in results] == ["A", "B", "A", "B", "A", "B", "A"]


# ---------------------------------------------------------------------------
# Hypothesis: Dutch pairing against brute force.
# ---------------------------------------------------------------------------

def all_pairings(people):
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for k, partner in enumerate(rest):
        for tail in all_pairings(rest[:k] + rest[k + 1:]):
            yield [(first, partner), *tail]


def fewest_bad(people, bad):
    return min(sum(1 for a, b in p if bad(a, b)) for p in all_pairings(people))


def fewest_rematches(people, times):
    return fewest_bad(people, lambda a, b: times[a][b] > 0)


def least_rematches(n, times):
    """The fewest rematches of any pairing of n entrants (any bye when n is odd)."""
    if n % 2:
        return min(fewest_rematches([p for p in range(n) if p != c], times) for c in range(n))
    return fewest_rematches(list(range(n)), times)


def clashes(surplus):
    """Both went first (or both second) two times more than the other way."""
    return lambda a, b: (surplus[a] >= 2 and surplus[b] >= 2) or \
        (surplus[a] <= -2 and surplus[b] <= -2)


def dutch_order(top, rest, group):
    """S1 / S2 of the top entrant's bracket: S2 in order, then S1 from the middle up, then
    lower groups."""
    bracket = [top] + [v for v in rest if group[v] == group[top]]
    s1, s2 = bracket[:len(bracket) // 2], bracket[len(bracket) // 2:]
    own = s2 + s1[:0:-1] if s1 else []
    return own + [v for v in rest if group[v] != group[top]]


def brute_force_dutch(n, times, byes, group, surplus):
    """The rules of the Dutch swiss_pairing, every look-ahead answered by enumeration."""
    people = list(range(n))
    bye = None
    if n % 2:
        options = {c: fewest_rematches([p for p in people if p != c], times) for c in people}
        best = min(options.values())
        bye = min((c for c in people if options[c] == best), key=lambda c: (byes[c], -c))
        people.remove(bye)
    clash = clashes(surplus)
    rematch = lambda a, b: times[a][b] > 0  # noqa: E731
    strict = lambda a, b: times[a][b] > 0 or clash(a, b)  # noqa: E731
    # Clashes count like rematches when avoiding them costs no rematch.
    bad = strict if fewest_bad(people, strict) == fewest_bad(people, rematch) else rematch
    target = fewest_bad(people, bad)
    pairs = []
    while people:
        top, rest = people[0], people[1:]
        order = dutch_order(top, rest, group)
        for partner in sorted(order, key=lambda v: (times[top][v], clash(top, v))):
            left = [v for v in rest if v != partner]
            if bad(top, partner) + fewest_bad(left, bad) == target:
                pairs.append((top, partner))
                target -= bad(top, partner)
                people = left
                break
    return pairs, bye


@st.composite
def situations(draw, max_entrants=10, with_history=True):
    n = draw(st.integers(0, max_entrants) | st.integers(max(0, max_entrants - 3), max_entrants))
    names = [f"E{k}" for k in range(n)]
    met = []
    if with_history:
        # Each pair met with a drawn probability (sometimes twice): sparse to dense.
        density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.5, 0.7, 0.9]))
        rng = random.Random(draw(st.integers(0, 2**32)))
        for a, b in itertools.combinations(range(n), 2):
            for _ in range(2):
                if rng.random() < density:  # entrants[0] went first
                    met.append((a, b) if rng.random() < 0.5 else (b, a))
    byes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    values = sorted(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), reverse=True)
    use_points = draw(st.booleans())
    points = dict(zip(names, values, strict=True)) if use_points else None
    return names, met, byes, points


def setup(situation):
    names, met, byes, points = situation
    n = len(names)
    times = [[0] * n for _ in range(n)]
    surplus = [0] * n
    for a, b in met:
        times[a][b] += 1
        times[b][a] += 1
        surplus[a] += 1
        surplus[b] -= 1
    results = [{"entrants": [names[a], names[b]]} for a, b in met]
    results += [{"entrants": [names[k]], "bye": True} for k, c in enumerate(byes)
                for _ in range(c)]
    group = [0] * n
    if points:
        for k in range(1, n):
            group[k] = group[k - 1] + (points[names[k]] != points[names[k - 1]])
    return n, times, history_from_results(results), group, surplus


@settings(max_examples=300, deadline=None)
@given(situations(max_entrants=9))
def test_dutch_matches_brute_force(situation):
    names, _, byes, points = situation
    n, times, hist, group, surplus = setup(situation)
    seating = swiss_pairing(names, hist, points=points)
    got = [(names.index(a), names.index(b)) for a, b in
           (t["entrants"] for t in seating["tables"])]
    got_bye = names.index(seating["byes"][0]) if seating["byes"] else None
    assert (got, got_bye) == brute_force_dutch(n, times, byes, group, surplus)


@settings(max_examples=200, deadline=None)
@given(situations(max_entrants=10))
def test_dutch_rematches_seats_and_bye(situation):
    """(a) no more rematches than the best of all pairings (none when avoidable); (b) every
    entrant seated once or on the one bye, which goes to the fewest earlier byes and, among
    those, the lowest-ranked, as far as rematch-minimality allows."""
    names, _, byes, points = situation
    n, times, hist, _, surplus = setup(situation)
    seating = swiss_pairing(names, hist, points=points)
    seated = [e for t in seating["tables"] for e in t["entrants"]] + seating["byes"]
    assert sorted(seated) == sorted(names)
    assert all(len(t["entrants"]) == 2 for t in seating["tables"])
    assert len(seating["byes"]) == n % 2
    least = least_rematches(n, times)
    got = [(names.index(a), names.index(b)) for a, b in
           (t["entrants"] for t in seating["tables"])]
    assert sum(1 for a, b in got if times[a][b]) == least == len(seating["repeats"])
    if n % 2:
        keeps = [c for c in range(n)
                 if fewest_rematches([p for p in range(n) if p != c], times) == least]
        fewest = min(byes[c] for c in keeps)
        expected = max(c for c in keeps if byes[c] == fewest)
        assert seating["byes"] == [names[expected]]


@st.composite
def even_groups(draw):
    sizes = draw(st.lists(st.integers(1, 4).map(lambda k: 2 * k), max_size=5))
    names, points = [], {}
    for g, size in enumerate(sizes):
        for _ in range(size):
            name = f"E{len(names)}"
            names.append(name)
            points[name] = 10 - g
    return names, points


@settings(max_examples=100, deadline=None)
@given(even_groups(), st.lists(st.integers(0, 2), max_size=40))
def test_dutch_without_history_is_top_half_against_bottom_half(field, byes):
    """(c) With no one met before and even score groups: exactly 1-(k+1), 2-(k+2), … in
    every group of 2k, whatever the earlier byes (there is no bye)."""
    names, points = field
    hist = {"met": {}, "byes": dict(zip(names, byes, strict=False))}
    seating = swiss_pairing(names, hist, points=points)
    expected = []
    for value in sorted(set(points.values()), reverse=True):
        group = [e for e in names if points[e] == value]
        half = len(group) // 2
        expected += [[group[k], group[half + k]] for k in range(half)]
    assert [t["entrants"] for t in seating["tables"]] == expected
    assert seating["byes"] == []


@settings(max_examples=100, deadline=None)
@given(situations(max_entrants=24, with_history=False))
def test_dutch_pairs_stay_in_their_score_group(situation):
    """(d) With no history every pair is within a score group, except floaters: each group
    (of the seated entrants) sends at most one entrant down, its lowest-ranked, to the
    best-ranked of the next group."""
    names, _, byes, points = situation
    if points is None:
        points = {e: 0 for e in names}
    hist = {"met": {}, "byes": dict(zip(names, byes, strict=True))}
    seating = swiss_pairing(names, hist, points=points)
    seated = [e for e in names if e not in seating["byes"]]
    values = sorted({points[e] for e in seated}, reverse=True)
    group = {e: values.index(points[e]) for e in seated}
    members = [[e for e in seated if group[e] == g] for g in range(len(values))]
    down = {}
    for a, b in (t["entrants"] for t in seating["tables"]):
        assert seated.index(a) < seated.index(b)
        if group[a] != group[b]:
            assert group[b] == group[a] + 1
            assert group[a] not in down  # at most one floater per group
            down[group[a]] = a
            assert a == members[group[a]][-1] and b == members[group[b]][0]
    # A group floats one down exactly when it is odd once its own floater is counted in.
    carry = 0
    for g, group_members in enumerate(members):
        assert (g in down) == bool((len(group_members) + carry) % 2)
        carry = int(g in down)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 14), rounds=st.integers(1, 7), seed=st.integers(0, 10**6),
       late=st.booleans())
def test_who_goes_first_stays_balanced(n, rounds, seed, late):
    """(e) A simulated event through seat_round (byes with an odd field, perhaps a late
    arrival): each table follows the rule, and everyone's first count stays within one of
    half their tables at every round. The one exception is a *clash* the pairing could not
    avoid without a rematch (two entrants both owed the same way); for fields of up to 10
    that is checked by brute force, and the counts stay within one of half until it."""
    rng = random.Random(seed)
    names = [f"E{k}" for k in range(n)]
    fmt = event_format("rook")
    results = []
    initial = {}
    clashed = False
    for rnd in range(1, rounds + 1):
        if late and rnd == 3:
            names.append("Late")
            initial["Late"] = 0
        hist = history_from_results(results)
        rows = standings(names, results, match_scoring(), initial_points=initial)
        ranking = active_ranking(rows)
        points = {r["entrant"]: r["points"] for r in rows}
        seating = seat_round(fmt, ranking, hist, points=points)
        surplus = {e: hist["first"].get(e, 0) - hist["second"].get(e, 0) for e in names}
        if not clashed:
            assert all(abs(v) <= 2 for v in surplus.values()), surplus
        for t in seating["tables"]:
            a, b = t["entrants"]
            key_a = (surplus[a], hist["last_first"].get(a, False))
            key_b = (surplus[b], hist["last_first"].get(b, False))
            assert key_a < key_b or (key_a == key_b and ranking.index(a) < ranking.index(b))
        clash = clashes(surplus)
        clashing = [t["entrants"] for t in seating["tables"] if clash(*t["entrants"])
                    and not hist["met"].get(t["entrants"][0], {}).get(t["entrants"][1])]
        clashed = clashed or any(clash(*t["entrants"]) for t in seating["tables"])
        if clashing:
            seated = [e for e in ranking if e not in seating["byes"]]
            if len(seated) <= 10:
                # A clash at a table of two who never met: no pairing of the seated
                # entrants with as few rematches avoids every clash.
                k = {e: i for i, e in enumerate(seated)}
                times = [[hist["met"].get(x, {}).get(y, 0) for y in seated] for x in seated]
                rematch = lambda x, y: times[x][y] > 0  # noqa: E731
                strict = lambda x, y: rematch(x, y) or clash(seated[x], seated[y])  # noqa: E731
                people = [k[e] for e in seated]
                assert fewest_bad(people, strict) > fewest_bad(people, rematch)
        for t in seating["tables"]:
            a, b = t["entrants"]
            results.append(_result(rnd, t["table"], a, b, rng.choice([a, b, None])))
        results += [{"round": rnd, "table": None, "entrants": [e], "bye": True}
                    for e in seating["byes"]]
    if not clashed:
        hist = history_from_results(results)
        tables = {e: sum(1 for r in results if e in r["entrants"] and not r.get("bye"))
                  for e in names}
        assert all(abs(hist["first"].get(e, 0) - tables[e] / 2) <= 1 for e in names)


@pytest.mark.parametrize("n, seed", [(150, 0), (301, 1),
                                     pytest.param(1000, 2, marks=pytest.mark.slow)])
def test_a_big_swiss_field_plays_five_rounds(n, seed):
    """Hundreds of teams: every team seated once a round (one bye with an odd count, never
    twice to anyone), no rematch, and everyone first within one of half their tables."""
    fmt = event_format("rook")
    names = [f"T{k:03d}" for k in range(n)]
    rng = random.Random(seed)
    results = []
    for rnd in range(1, 6):
        rows = standings(names, results, match_scoring())
        points = {r["entrant"]: r["points"] for r in rows}
        hist = history_from_results(results)
        seating = seat_round(fmt, active_ranking(rows) if results else names, hist,
                             points=points if results else None)
        seated = [e for t in seating["tables"] for e in t["entrants"]]
        assert sorted(seated + seating["byes"]) == names
        assert len(seating["byes"]) == n % 2 and seating["repeats"] == []
        for t in seating["tables"]:
            a, b = t["entrants"]
            results.append(_result(rnd, t["table"], a, b, rng.choice([a, b, None])))
        results += [{"round": rnd, "table": None, "entrants": [e], "bye": True}
                    for e in seating["byes"]]
    hist = history_from_results(results)
    assert max(hist["byes"].values(), default=0) <= 1
    for e in names:
        tables = hist["first"].get(e, 0) + hist["second"].get(e, 0)
        assert abs(hist["first"].get(e, 0) - tables / 2) <= 1
