"""Seating rounds: Swiss pairing (players or teams) and tables for the table games.

Table-driven examples were worked out by hand; the Hypothesis properties compare the
pairing with a brute force over every pairing for up to 9 entrants (8 plus a bye).
"""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import (
    active_ranking,
    default_scoring,
    assign_tables,
    history_from_results,
    match_scoring,
    random_pairing,
    random_tables,
    seat_round,
    standings,
    swiss_pairing,
    table_sizes,
    team_seats,
    event_format,
)

PLAYERS = [f"P{n:02d}" for n in range(1, 17)]


def pairs_of(seating):
    return [tuple(t["entrants"]) for t in seating["tables"]]


def history(met=(), byes=None):
    """A history from "A-B" meeting strings."""
    results = [{"entrants": pair.split("-")} for pair in met]
    results += [{"entrants": [e], "bye": True} for e, n in (byes or {}).items()
                for _ in range(n)]
    return history_from_results(results)


# ---------------------------------------------------------------------------
# A 16-player, 4-round Swiss, worked by hand (win 2, draw 1, loss 0).
#
# Round 1 is seated from the seeding (P01 best); each later round from the standings:
# points, Buchholz, Median-Buchholz, Sonneborn-Berger, then entry order. Each table is
# (higher-ranked, lower-ranked, winner or None for a draw). Paired with the "adjacent"
# method (1 meets 2), the default before the Dutch system; a Dutch event follows below.
# ---------------------------------------------------------------------------

SWISS_16 = {
    1: [("P01", "P02", "P01"), ("P03", "P04", "P03"), ("P05", "P06", None),
        ("P07", "P08", "P08"), ("P09", "P10", "P09"), ("P11", "P12", "P11"),
        ("P13", "P14", "P14"), ("P15", "P16", None)],
    # Ranking: P01 P03 P08 P09 P11 P14 (2) | P05 P06 P15 P16 (1) | P02 P04 P07 P10 P12 P13.
    # P05-P06 would be a rematch, so P05 meets P15 and P06 meets P16.
    2: [("P01", "P03", "P03"), ("P08", "P09", None), ("P11", "P14", "P11"),
        ("P05", "P15", "P05"), ("P06", "P16", "P16"), ("P02", "P04", "P02"),
        ("P07", "P10", "P10"), ("P12", "P13", None)],
    # Ranking: P11 P03 (4) | P09 P08 P05 P16 (3) | P01 P14 P10 P02 (2) | P06 P15 P12 P13 (1)
    # | P04 P07. P09-P08 and P12-P13 met in round 2: P09 meets P05 and P12 floats to P04.
    3: [("P11", "P03", "P11"), ("P09", "P05", None), ("P08", "P16", "P16"),
        ("P01", "P14", "P01"), ("P10", "P02", "P02"), ("P06", "P15", "P06"),
        ("P12", "P04", "P04"), ("P13", "P07", "P13")],
    # Ranking: P11 (6) | P16 (5) | P03 P01 P09 P05 P02 (4) | P06 P08 P13 (3) | P14 P04 P10 (2)
    # | P15 P12 (1) | P07. P03-P01 met in round 2, so P03 meets P09.
    4: [("P11", "P16", None), ("P03", "P09", "P03"), ("P01", "P05", "P05"),
        ("P02", "P06", "P02"), ("P08", "P13", "P08"), ("P14", "P04", "P04"),
        ("P10", "P15", "P15"), ("P12", "P07", "P07")],
}

#: Final standings: (rank, entrant, points, Buchholz, Median-Buchholz, Sonneborn-Berger).
SWISS_16_FINAL = [
    (1, "P11", 7, 15, 8, 12), (2, "P03", 6, 19, 8, 12), (3, "P16", 6, 18, 8, 13),
    (4, "P05", 6, 14, 7, 10.5), (5, "P02", 6, 13, 7, 9), (6, "P08", 5, 15, 7, 7),
    (7, "P01", 4, 20, 12, 8), (8, "P09", 4, 19, 11, 7.5), (9, "P04", 4, 15, 8, 3),
    (10, "P06", 3, 21, 12, 6), (11, "P15", 3, 17, 9, 5), (12, "P13", 3, 10, 4, 2.5),
    (13, "P14", 2, 18, 8, 3), (14, "P10", 2, 15, 7, 2), (15, "P07", 2, 11, 5, 1),
    (16, "P12", 1, 16, 7, 1.5),
]

#: Ranks after round 2: exact ties share a place (P05/P16 and P06/P15 tie on everything).
SWISS_16_AFTER_2 = [
    (1, "P11"), (2, "P03"), (3, "P09"), (4, "P08"), (5, "P05"), (5, "P16"), (7, "P01"),
    (8, "P14"), (9, "P10"), (10, "P02"), (11, "P06"), (11, "P15"), (13, "P12"), (14, "P13"),
    (15, "P04"), (16, "P07"),
]


def _result(rnd, table, a, b, winner):
    places = [1, 1] if winner is None else ([1, 2] if winner == a else [2, 1])
    return {"round": rnd, "table": table, "entrants": [a, b], "places": places}


def test_sixteen_player_swiss_by_hand():
    scoring = match_scoring(win=2, draw=1, loss=0)
    results = []
    rows = None
    for rnd, tables in SWISS_16.items():
        ranking = PLAYERS if rnd == 1 else active_ranking(rows)
        seating = swiss_pairing(ranking, history_from_results(results), method="adjacent")
        assert pairs_of(seating) == [(a, b) for a, b, _ in tables], f"round {rnd}"
        assert seating["byes"] == [] and seating["repeats"] == []
        results += [_result(rnd, t["table"], a, b, w)
                    for t, (a, b, w) in zip(seating["tables"], tables, strict=True)]
        rows = standings(PLAYERS, results, scoring)
        if rnd == 2:
            assert [(r["rank"], r["entrant"]) for r in rows] == SWISS_16_AFTER_2
    got = [(r["rank"], r["entrant"], r["points"], r["buchholz"], r["median_buchholz"],
            r["sonneborn_berger"]) for r in rows]
    assert got == SWISS_16_FINAL
    met = history_from_results(results)["met"]
    assert all(n == 1 for row in met.values() for n in row.values())  # no rematch at all


# ---------------------------------------------------------------------------
# Swiss pairing: byes, floats, rematches, drops and late arrivals.
# ---------------------------------------------------------------------------

SWISS_CASES = [
    # The "adjacent" method (top meets next-ranked):
    # (ranking, met, earlier byes, expected pairs, expected bye)
    ("ABCD", [], {}, ["AB", "CD"], None),
    ("ABCDE", [], {}, ["AB", "CD"], "E"),
    # The lowest-ranked already had a bye: the next one up gets it.
    ("ABCDE", [], {"E": 1}, ["AB", "CE"], "D"),
    ("ABCDE", [], {"E": 1, "D": 1}, ["AB", "DE"], "C"),
    # Everyone had a bye: back to the lowest-ranked.
    ("ABC", [], {"A": 1, "B": 1, "C": 1}, ["AB"], "C"),
    # A-B met: A floats to C, B to D.
    ("ABCD", ["A-B"], {}, ["AC", "BD"], None),
    # A met B and C: A-D, then B-C.
    ("ABCD", ["A-B", "A-C"], {}, ["AD", "BC"], None),
    # Greedy A-C would leave B-D, a rematch; the look-ahead pairs A-D and B-C instead.
    ("ABCD", ["A-B", "B-D"], {}, ["AD", "BC"], None),
    # A round robin of four is complete: a rematch is unavoidable; the top pair repeats.
    ("ABCD", ["A-B", "A-C", "A-D", "B-C", "B-D", "C-D"], {}, ["AB", "CD"], None),
    # A met B twice and C once: the unavoidable rematch goes to the pair met fewest times.
    ("ABCD", ["A-B", "A-B", "A-C", "A-D", "A-D", "B-C", "B-D", "C-D"], {}, ["AC", "BD"],
     None),
    # E is the natural bye, but then D must meet a player it met: D gets the bye instead.
    ("ABCDE", ["D-A", "D-B", "D-C"], {}, ["AB", "CE"], "D"),
    # No rematch beats "no second bye": E met everyone, so only E's (second) bye avoids one.
    ("ABCDE", ["E-A", "E-B", "E-C", "E-D"], {"E": 1}, ["AB", "CD"], "E"),
]


@pytest.mark.parametrize("ranking,met,byes,pairs,bye", SWISS_CASES)
def test_swiss_pairing_examples(ranking, met, byes, pairs, bye):
    seating = swiss_pairing(list(ranking), history(met, byes), method="adjacent")
    assert ["".join(p) for p in pairs_of(seating)] == pairs
    assert seating["byes"] == ([bye] if bye else [])
    assert [t["table"] for t in seating["tables"]] == list(range(1, len(pairs) + 1))


def test_swiss_reports_unavoidable_rematches():
    seating = swiss_pairing(list("ABCD"), history(["A-B", "A-C", "A-D", "B-C", "B-D", "C-D"]),
                            method="adjacent")
    assert seating["repeats"] == [["A", "B"], ["C", "D"]]
    dutch = swiss_pairing(list("ABCD"), history(["A-B", "A-C", "A-D", "B-C", "B-D", "C-D"]))
    assert dutch["repeats"] == [["A", "C"], ["B", "D"]]


def test_swiss_edge_counts():
    assert swiss_pairing([]) == {"tables": [], "byes": [], "repeats": []}
    assert swiss_pairing(["A"]) == {"tables": [], "byes": ["A"], "repeats": []}


def test_swiss_rejects_bad_rankings():
    with pytest.raises(ValueError, match="twice"):
        swiss_pairing(["A", "B", "A"])
    with pytest.raises(ValueError):
        swiss_pairing(["A", ""])


def test_drops_and_late_arrivals_between_rounds():
    scoring = match_scoring()
    results = [_result(1, 1, "A", "B", "A"), _result(1, 2, "C", "D", None),
               _result(1, 3, "E", "F", "F")]
    rows = standings(list("ABCDEF"), results, scoring)
    assert [r["entrant"] for r in rows] == list("AFCDBE")
    # B drops; G joins with 0 points, H is granted 1 (a draw's worth): H goes below the
    # entrants on 1 point, G below those on 0.
    ranking = active_ranking(rows, dropped=["B"], late={"G": 0, "H": 1})
    assert ranking == ["A", "F", "C", "D", "H", "E", "G"]
    points = {r["entrant"]: r["points"] for r in rows} | {"G": 0, "H": 1}
    seating = swiss_pairing(ranking, history_from_results(results), points=points)
    # The last, G, has the bye. Score groups A F (2) | C D H (1) | E (0): A meets F; C's
    # Dutch partner D met C, so C meets H, and D floats down to E.
    assert pairs_of(seating) == [("A", "F"), ("C", "H"), ("D", "E")]
    assert seating["byes"] == ["G"]


def test_active_ranking_refuses_a_known_entrant_as_late():
    rows = [{"entrant": "A", "points": 2}]
    with pytest.raises(ValueError, match="already"):
        active_ranking(rows, late={"A": 0})


def test_history_counts_meetings_and_byes():
    hist = history_from_results([
        {"entrants": ["A", "B", "C"]}, {"entrants": ["A", "B"]}, {"entrants": ["D"], "bye": True},
    ])
    assert hist == {"met": {"A": {"B": 2, "C": 1}, "B": {"A": 2, "C": 1},
                            "C": {"A": 1, "B": 1}},
                    "byes": {"D": 1},
                    # Only the table of two has a first (and a second) entrant.
                    "first": {"A": 1, "B": 0}, "second": {"A": 0, "B": 1},
                    "last_first": {"A": True, "B": False}}


def test_random_first_round_is_seeded_and_complete():
    teams = [f"T{n}" for n in range(1, 8)]
    one = random_pairing(teams, random.Random(7))
    two = random_pairing(teams, random.Random(7))
    assert one == two
    seated = [e for t in one["tables"] for e in t["entrants"]] + one["byes"]
    assert sorted(seated) == sorted(teams) and len(one["byes"]) == 1
    assert random_pairing(teams, random.Random(8)) != one  # the seed matters
    assert teams == [f"T{n}" for n in range(1, 8)]  # the caller's list is left alone


def test_team_seats_alternate_partners():
    assert team_seats(["Ann", "Cid"], ["Bob", "Dan"]) == ["Ann", "Bob", "Cid", "Dan"]
    assert team_seats(["A1", "A2", "A3"], ["B1", "B2", "B3"]) == \
        ["A1", "B1", "A2", "B2", "A3", "B3"]
    with pytest.raises(ValueError):
        team_seats(["A1", "A2"], ["B1"])


# ---------------------------------------------------------------------------
# Table sizes and table assignment.
# ---------------------------------------------------------------------------

SIZE_CASES = [
    # (count, min, max, preferred, sizes)
    (8, 3, 6, 4, [4, 4]),
    (9, 3, 6, 4, [5, 4]),
    (10, 3, 6, 4, [5, 5]),       # 5+5 and 4+3+3 are equally far from 4: fewer tables
    (11, 3, 6, 4, [4, 4, 3]),
    (13, 2, 5, 4, [5, 4, 4]),
    (7, 2, 8, 4, [4, 3]),
    (3, 3, 6, 4, [3]),
    (2, 3, 6, 4, []),            # too few for a table: both sit out
    (5, 4, 4, 4, [4]),           # fixed size 4: one sits out
    (16, 2, 8, 5, [6, 5, 5]),
    (0, 2, 5, 4, []),
]


@pytest.mark.parametrize("count,low,high,preferred,sizes", SIZE_CASES)
def test_table_sizes(count, low, high, preferred, sizes):
    assert table_sizes(count, low, high, preferred) == sizes


def test_table_sizes_rejects_bad_limits():
    with pytest.raises(ValueError):
        table_sizes(8, 5, 4)
    with pytest.raises(ValueError):
        table_sizes(8, 3, 6, 7)
    with pytest.raises(ValueError):
        table_sizes(-1, 3, 6)


def test_tables_by_standings_first_round_of_history():
    ranking = [f"Z{n}" for n in range(1, 11)]
    seating = assign_tables(ranking, min_size=3, max_size=6, preferred=4)
    assert [t["entrants"] for t in seating["tables"]] == [ranking[:5], ranking[5:]]
    assert seating["byes"] == [] and seating["repeats"] == []


def test_tables_break_up_last_rounds_groups():
    # Round 1 put 1-4, 5-8, 9-12, 13-16 together and the standings kept that order, so
    # straight "king of the hill" would repeat every table. The seating mixes them fully.
    ranking = [f"R{n:02d}" for n in range(1, 17)]
    round_one = [{"entrants": ranking[k:k + 4]} for k in range(0, 16, 4)]
    seating = assign_tables(ranking, history_from_results(round_one),
                            min_size=3, max_size=6, preferred=4)
    assert seating["repeats"] == []
    assert [len(t["entrants"]) for t in seating["tables"]] == [4, 4, 4, 4]
    # Table 1 still holds the leader, and each table one player from each old group.
    assert seating["tables"][0]["entrants"][0] == "R01"
    for table in seating["tables"]:
        groups = {ranking.index(e) // 4 for e in table["entrants"]}
        assert groups == {0, 1, 2, 3}


def test_tables_keep_standings_when_they_repeat_nothing():
    # After round 1 the winners lead, then the seconds...: none of the winners met.
    ranking = [f"W{n}" for n in range(1, 5)] + [f"S{n}" for n in range(1, 5)]
    round_one = [{"entrants": [f"W{n}", f"S{n}"]} for n in range(1, 5)]
    seating = assign_tables(ranking, history_from_results(round_one),
                            min_size=2, max_size=5, preferred=4)
    assert [t["entrants"] for t in seating["tables"]] == [ranking[:4], ranking[4:]]


def test_table_sit_out_goes_to_the_lowest_without_a_bye():
    ranking = list("ABCDE")
    seating = assign_tables(ranking, history({}, {"E": 1}), min_size=4, max_size=4)
    assert seating["byes"] == ["D"]
    assert seating["tables"] == [{"table": 1, "entrants": ["A", "B", "C", "E"]}]


def test_random_tables_are_seeded():
    players = [f"X{n}" for n in range(1, 14)]
    one = random_tables(players, random.Random(3), min_size=2, max_size=5, preferred=4)
    assert one == random_tables(players, random.Random(3), min_size=2, max_size=5,
                                preferred=4)
    assert [len(t["entrants"]) for t in one["tables"]] == [5, 4, 4]
    assert sorted(e for t in one["tables"] for e in t["entrants"]) == sorted(players)


def test_seat_round_dispatches_on_the_format():
    rook = event_format("rook")
    teams = ["Red", "Blue", "Green"]
    assert seat_round(rook, teams) == swiss_pairing(teams)
    assert seat_round(rook, teams, rng=random.Random(1)) == \
        random_pairing(teams, random.Random(1))
    zock = event_format("zocknroll")
    players = [f"Z{n}" for n in range(1, 12)]
    seating = seat_round(zock, players)
    assert [len(t["entrants"]) for t in seating["tables"]] == [4, 4, 3]
    json.dumps(seating)
    with pytest.raises(ValueError):
        seat_round({"kind": "chess"}, teams)


# ---------------------------------------------------------------------------
# Hypothesis: Swiss pairing against brute force.
# ---------------------------------------------------------------------------

def all_pairings(people):
    """Every way to pair a list of even length."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for k, partner in enumerate(rest):
        for tail in all_pairings(rest[:k] + rest[k + 1:]):
            yield [(first, partner), *tail]


def rematches(pairs, times):
    return sum(1 for a, b in pairs if times[a][b])


def fewest_rematches(people, times):
    return min(rematches(p, times) for p in all_pairings(people))


def brute_force_swiss(n, times, byes):
    """The pairing rules of swiss_pairing, every question answered by enumeration."""
    people = list(range(n))
    bye = None
    if n % 2:
        options = {c: fewest_rematches([p for p in people if p != c], times) for c in people}
        best = min(options.values())
        bye = min((c for c in people if options[c] == best), key=lambda c: (byes[c], -c))
        people.remove(bye)
    target = fewest_rematches(people, times)
    pairs = []
    while people:
        top, rest = people[0], people[1:]
        for partner in sorted(rest, key=lambda v: (times[top][v], v)):
            left = [v for v in rest if v != partner]
            if (times[top][partner] > 0) + fewest_rematches(left, times) == target:
                pairs.append((top, partner))
                target -= times[top][partner] > 0
                people = left
                break
    return pairs, bye


@st.composite
def swiss_situations(draw, max_entrants=9):
    n = draw(st.integers(0, max_entrants))
    names = [f"E{k}" for k in range(n)]
    all_pairs = list(itertools.combinations(range(n), 2))
    met = draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs) * 2)
               if all_pairs else st.just([]))
    byes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return names, met, byes


def situation_history(names, met, byes):
    results = [{"entrants": [names[a], names[b]]} for a, b in met]
    results += [{"entrants": [names[k]], "bye": True} for k, n in enumerate(byes)
                for _ in range(n)]
    return history_from_results(results)


@settings(max_examples=300, deadline=None)
@given(swiss_situations())
def test_swiss_matches_brute_force(situation):
    names, met, byes = situation
    n = len(names)
    times = [[0] * n for _ in range(n)]
    for a, b in met:
        times[a][b] += 1
        times[b][a] += 1
    seating = swiss_pairing(names, situation_history(names, met, byes), method="adjacent")
    got = [(names.index(a), names.index(b)) for a, b in pairs_of(seating)]
    got_bye = names.index(seating["byes"][0]) if seating["byes"] else None

    # Every entrant exactly once: at a table of two or on the bye (only with an odd count).
    seated = [e for t in seating["tables"] for e in t["entrants"]] + seating["byes"]
    assert sorted(seated) == sorted(names)
    assert all(len(t["entrants"]) == 2 for t in seating["tables"])
    assert len(seating["byes"]) == n % 2

    people = [k for k in range(n) if k != got_bye]
    least = min(fewest_rematches([p for p in range(n) if p != c], times)
                for c in range(n)) if n % 2 else fewest_rematches(people, times)
    # No rematch when some pairing has none; in general no more rematches than needed.
    assert rematches(got, times) == least
    assert len(seating["repeats"]) == least
    if n % 2:
        # At most one bye each when avoidable: among the pairings with the fewest rematches,
        # none gives the bye to someone with fewer earlier byes.
        fair = min(byes[c] for c in range(n)
                   if fewest_rematches([p for p in range(n) if p != c], times) == least)
        assert byes[got_bye] == fair
    # And the whole pairing is the one the rules pick (top-down, lowest-ranked bye).
    assert (got, got_bye) == brute_force_swiss(n, times, byes)


def least_rematches(times):
    """The fewest rematches any pairing (with any bye) of len(times) entrants has."""
    people = list(range(len(times)))
    if len(people) % 2:
        return min(fewest_rematches([p for p in people if p != c], times) for c in people)
    return fewest_rematches(people, times)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(1, 6), seed=st.integers(0, 10**6),
       changes=st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=4))
def test_simulated_swiss_event(n, rounds, seed, changes):
    """A whole event with random results, drops and late arrivals: each round seats every
    active entrant once, and (brute force, while at most 9 remain) pairs no more rematches
    than needed and gives nobody a second bye unless that avoids a rematch."""
    rng = random.Random(seed)
    entrants = [f"E{k}" for k in range(n)]
    dropped: list[str] = []
    initial: dict[str, int] = {}
    results: list[dict] = []
    scoring = match_scoring()
    for rnd in range(1, rounds + 1):
        if rnd > 1 and changes:
            drop, points = changes.pop()
            active = [e for e in entrants if e not in dropped]
            if drop and len(active) > 1:
                dropped.append(rng.choice(active))
            else:
                entrants.append(f"L{rnd}")  # a late arrival, granted some points
                initial[f"L{rnd}"] = points
        hist = history_from_results(results)
        rows = standings(entrants, results, scoring, initial_points=initial)
        ranking = active_ranking(rows, dropped=dropped)
        seating = random_pairing(ranking, rng, hist) if rnd == 1 else \
            swiss_pairing(ranking, hist)
        seated = [e for t in seating["tables"] for e in t["entrants"]] + seating["byes"]
        assert sorted(seated) == sorted(ranking)
        assert len(seating["byes"]) == len(ranking) % 2
        if len(ranking) <= 9:
            times = [[hist["met"].get(a, {}).get(b, 0) for b in ranking] for a in ranking]
            least = least_rematches(times)
            assert len(seating["repeats"]) == least
            if seating["byes"] and hist["byes"].get(seating["byes"][0], 0):
                everyone = range(len(ranking))
                for c in everyone:
                    if not hist["byes"].get(ranking[c], 0):
                        others = [p for p in everyone if p != c]
                        assert fewest_rematches(others, times) > least
        for t in seating["tables"]:
            a, b = t["entrants"]
            results.append(_result(rnd, t["table"], a, b, rng.choice([a, b, None])))
        results += [{"round": rnd, "table": None, "entrants": [e], "bye": True}
                    for e in seating["byes"]]


# ---------------------------------------------------------------------------
# Hypothesis: table games.
# ---------------------------------------------------------------------------

def splittable(count, low, high):
    reach = {0}
    for total in range(1, count + 1):
        if any(total - s in reach for s in range(low, high + 1)):
            reach.add(total)
    return reach


@settings(max_examples=200, deadline=None)
@given(count=st.integers(0, 60), low=st.integers(1, 6), extra=st.integers(0, 6),
       pref=st.integers(0, 12))
def test_table_sizes_properties(count, low, extra, pref):
    high = low + extra
    preferred = low + pref % (extra + 1)
    sizes = table_sizes(count, low, high, preferred)
    assert all(low <= s <= high for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # Nobody sits out who could have been seated.
    assert sum(sizes) == max(splittable(count, low, high))


GAMES_WITH_TABLES = ["zocknroll", "rockit", "rocca", "scorepad"]


@st.composite
def table_situations(draw):
    slug = draw(st.sampled_from(GAMES_WITH_TABLES))
    fmt = event_format(slug)
    n = draw(st.integers(0, 24))
    names = [f"Q{k}" for k in range(n)]
    rounds = draw(st.integers(0, 3))
    results = []
    for _ in range(rounds):
        order = draw(st.permutations(names)) if names else []
        seating = assign_tables(order, min_size=fmt["min_table"], max_size=fmt["max_table"],
                                preferred=fmt["preferred_table"])
        results += [{"entrants": t["entrants"]} for t in seating["tables"]]
        results += [{"entrants": [e], "bye": True} for e in seating["byes"]]
    ranking = draw(st.permutations(names)) if names else []
    return fmt, list(ranking), history_from_results(results)


def repeat_count(tables, hist):
    return sum(hist["met"].get(a, {}).get(b, 0) for t in tables
               for a, b in itertools.combinations(t, 2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_situations())
def test_table_assignment_properties(situation):
    fmt, ranking, hist = situation
    seating = seat_round(fmt, ranking, hist)
    tables = [t["entrants"] for t in seating["tables"]]
    seated = [e for t in tables for e in t] + seating["byes"]
    # Every player exactly once: at one table or sitting out.
    assert sorted(seated) == sorted(ranking)
    sizes = [len(t) for t in tables]
    assert all(fmt["min_table"] <= s <= fmt["max_table"] for s in sizes)
    assert sorted(sizes, reverse=True) == table_sizes(len(ranking), fmt["min_table"],
                                                      fmt["max_table"],
                                                      fmt["preferred_table"])
    # Never more repeated table-mates than plain "king of the hill" by standings.
    players = [e for e in ranking if e not in seating["byes"]]
    straight, k = [], 0
    for size in table_sizes(len(ranking), fmt["min_table"], fmt["max_table"],
                            fmt["preferred_table"]):
        straight.append(players[k:k + size])
        k += size
    assert repeat_count(tables, hist) <= repeat_count(straight, hist)
    assert len(seating["repeats"]) == sum(
        1 for t in tables for a, b in itertools.combinations(t, 2)
        if hist["met"].get(a, {}).get(b, 0))


def best_partition_repeats(players, sizes, times):
    """The fewest repeated meetings over every seating of players at tables of sizes."""
    if not sizes:
        return 0
    best = None
    for table in itertools.combinations(players, sizes[0]):
        cost = sum(times[a][b] for a, b in itertools.combinations(table, 2))
        left = [p for p in players if p not in table]
        total = cost + best_partition_repeats(left, sizes[1:], times)
        best = total if best is None else min(best, total)
    return best


@settings(max_examples=150, deadline=None)
@given(n=st.integers(4, 9), data=st.data())
def test_small_table_rounds_have_fewest_repeats(n, data):
    """Small rounds are searched exhaustively: no repeated table-mate when some seating
    avoids them all, and in general as few repeated meetings as any seating has."""
    names = [f"S{k}" for k in range(n)]
    pairs = list(itertools.combinations(range(n), 2))
    met = data.draw(st.lists(st.sampled_from(pairs), max_size=n * 3))
    low, high = data.draw(st.sampled_from([(2, 5), (3, 6), (2, 8), (2, 4), (4, 4)]))
    hist = history_from_results([{"entrants": [names[a], names[b]]} for a, b in met])
    seating = assign_tables(names, hist, min_size=low, max_size=high, preferred=min(high, 4))
    times = [[hist["met"].get(a, {}).get(b, 0) for b in names] for a in names]
    sizes = [len(t["entrants"]) for t in seating["tables"]]
    players = [k for k in range(n) if names[k] not in seating["byes"]]
    best = best_partition_repeats(players, sizes, times)
    assert repeat_count([t["entrants"] for t in seating["tables"]], hist) == best


# Big fields: seated in blocks of consecutive tables.

@pytest.mark.parametrize("sizes, limit", [
    ([5] * 500, 48), ([4] * 12, 48), ([4] * 13, 48), ([6, 6, 5, 5, 5], 10), ([3], 48), ([], 48),
])
def test_blocks_cut_the_tables_into_even_consecutive_runs(sizes, limit):
    from companion.events.pairing import _blocks
    blocks = _blocks(sizes, limit)
    assert [s for block in blocks for s in block] == sizes
    assert all(block for block in blocks)
    if sizes:
        assert len(blocks) == min(len(sizes), -(-sum(sizes) // limit))
        # Even: no block more than one table longer than another.
        assert max(map(len, blocks)) - min(map(len, blocks)) <= 1


@pytest.mark.parametrize("n, seed", [(100, 0), (301, 1), (1000, 2),
                                     pytest.param(2500, 3, marks=pytest.mark.slow)])
def test_a_big_field_plays_five_rounds_without_repeats(n, seed):
    """Hundreds of tables: every entrant seated once per round (one table size apart at
    most), nobody at a table with somebody met before, round after round by standings."""
    fmt = event_format("zocknroll")
    scoring = default_scoring(fmt)
    names = [f"P{k:04d}" for k in range(n)]
    rng = random.Random(seed)
    results = []
    for rnd in range(1, 6):
        if rnd == 1:
            seating = seat_round(fmt, names, rng=random.Random(seed))
        else:
            ranking = active_ranking(standings(names, results, scoring))
            seating = seat_round(fmt, ranking, history_from_results(results))
        seated = [e for t in seating["tables"] for e in t["entrants"]]
        assert sorted(seated + seating["byes"]) == names
        assert [len(t["entrants"]) for t in seating["tables"]] == \
            table_sizes(n, fmt["min_table"], fmt["max_table"], fmt["preferred_table"])
        assert seating["repeats"] == []
        for table in seating["tables"]:
            places = list(range(1, len(table["entrants"]) + 1))
            rng.shuffle(places)
            results.append({"round": rnd, "table": table["table"],
                            "entrants": table["entrants"], "places": places})
        results += [{"round": rnd, "table": None, "entrants": [e], "bye": True}
                    for e in seating["byes"]]
