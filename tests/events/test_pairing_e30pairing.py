"""Keep-apart groups and fixed table numbers in the pure pairing library: no two members of
one group meet while some pairing keeps them apart (checked against every pairing of small
fields), the ones that must meet are named, and fixed entrants get their table's number."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events.pairing import (apart_pairs, assign_tables, fix_table_numbers,
                                      history_from_results, random_pairing, seat_round,
                                      swiss_pairing)

HEAD = {"kind": "head_to_head"}


def _pairings(people):
    """Every way to pair `people` (an even count)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for k, other in enumerate(rest):
        for more in _pairings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *more]


def _can_keep_apart(people, groups):
    """Whether some pairing (with some bye for an odd count) meets no two of one group."""
    bad = {frozenset(p) for g in groups for p in itertools.combinations(g, 2)}
    byes = people if len(people) % 2 else [None]
    for bye in byes:
        rest = [p for p in people if p != bye]
        if any(not any(frozenset(pair) in bad for pair in pairing)
               for pairing in _pairings(rest)):
            return True
    return False


def _met(seating):
    return {frozenset(t["entrants"]) for t in seating["tables"]}


@pytest.mark.parametrize("names, groups, together", [
    # Three of a club among six: each meets an outsider.
    ("ABCDEF", [["A", "B", "C"], ["D", "E"]], []),
    # Three of four in one club: one pair must meet, and is named.
    ("ABCD", [["A", "B", "C"]], [["B", "C"]]),
    # An odd field: the bye helps keep them apart.
    ("ABC", [["A", "B"]], []),
    # Names not in the ranking are ignored.
    ("ABCD", [["A", "Zed"]], []),
])
def test_keep_apart_groups_in_a_swiss_round(names, groups, together):
    seating = swiss_pairing(list(names), apart=groups)
    assert apart_pairs(seating, groups) == together
    seated = sorted(e for t in seating["tables"] for e in t["entrants"]) + seating["byes"]
    assert sorted(seated) == sorted(names)


def test_keep_apart_comes_before_avoiding_a_rematch():
    # A met C and B met D; A and B are kept apart, C and D too: A-D and B-C is the only
    # pairing without a group pair and without a rematch.
    history = history_from_results([{"round": 1, "entrants": ["A", "C"]},
                                    {"round": 1, "entrants": ["B", "D"]}])
    seating = swiss_pairing(list("ABCD"), history, apart=[["A", "B"], ["C", "D"]])
    assert _met(seating) == {frozenset("AD"), frozenset("BC")}
    # With A-D and B-C kept apart too, the only way left is the rematches A-C and B-D.
    seating = swiss_pairing(list("ABCD"), history,
                            apart=[["A", "B"], ["C", "D"], ["A", "D"], ["B", "C"]])
    assert _met(seating) == {frozenset("AC"), frozenset("BD")}
    assert seating["repeats"] == [["A", "C"], ["B", "D"]]


def test_a_keep_apart_pair_never_meets_over_rounds():
    names = [f"P{i}" for i in range(1, 11)]
    groups = [["P1", "P2", "P3"], ["P4", "P5"]]
    results = []
    seating = seat_round(HEAD, names, rng=random.Random(7), apart=groups)
    for rnd in range(1, 6):
        assert apart_pairs(seating, groups) == []
        results += [{"round": rnd, "entrants": t["entrants"]} for t in seating["tables"]]
        history = history_from_results(results)
        seating = seat_round(HEAD, names, history, apart=groups)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.lists(st.lists(st.integers(0, 8), min_size=2, max_size=4),
                                   max_size=3),
       st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=10),
       st.lists(st.integers(0, 8), max_size=3),
       st.randoms(use_true_random=False), st.sampled_from(["dutch", "adjacent"]))
def test_no_keep_apart_pair_meets_when_a_valid_pairing_exists(count, groups, met, byes, rng,
                                                               method):
    people = [f"E{i}" for i in range(count)]
    groups = [[people[i] for i in g if i < count] for g in groups]
    history = history_from_results(
        [{"round": 1, "entrants": [people[a], people[b]]} for a, b in met
         if a < count and b < count and a != b]
        + [{"round": 1, "entrants": [people[b]], "bye": True} for b in byes if b < count])
    seating = swiss_pairing(people, history, method=method, apart=groups)
    together = apart_pairs(seating, groups)
    if _can_keep_apart(people, groups):
        assert together == []
    seated = sorted(e for t in seating["tables"] for e in t["entrants"]) + seating["byes"]
    assert sorted(seated) == sorted(people)
    drawn = random_pairing(people, rng, history, apart=groups)
    if _can_keep_apart(people, groups):
        assert apart_pairs(drawn, groups) == []


def test_tables_keep_a_group_at_different_tables():
    names = list("ABCDEFGH")
    seating = assign_tables(names, min_size=4, max_size=4, apart=[["A", "B", "C", "D"]])
    assert apart_pairs(seating, [["A", "B", "C", "D"]]) == [["A", "B"], ["C", "D"]]
    seating = assign_tables(names, min_size=4, max_size=4, apart=[["A", "B"], ["C", "D"]])
    assert apart_pairs(seating, [["A", "B"], ["C", "D"]]) == []


PAIRS = {"tables": [{"table": 1, "entrants": ["A", "B"]},
                    {"table": 2, "entrants": ["C", "D"]},
                    {"table": 3, "entrants": ["E", "F"]}], "byes": ["G"], "repeats": []}


@pytest.mark.parametrize("fixed, numbers, misses", [
    ({}, ["AB", "CD", "EF"], []),
    # E must stay at table 1: E's table takes 1, the others keep their order.
    ({"E": 1}, ["EF", "AB", "CD"], []),
    # C keeps 3 and F keeps 1: the unfixed table takes the number left.
    ({"C": 3, "F": 1}, ["EF", "AB", "CD"], []),
    # Two fixed to table 1 who meet: fine.
    ({"A": 1, "B": 1}, ["AB", "CD", "EF"], []),
    # Two fixed to table 1 who don't meet: the top table's entrant keeps it.
    ({"A": 1, "C": 1}, ["AB", "CD", "EF"],
     [{"entrant": "C", "wanted": 1, "table": 2, "because": "taken", "with": "A"}]),
    # Opponents fixed to different tables: the top table's wins.
    ({"A": 2, "B": 3}, ["CD", "AB", "EF"],
     [{"entrant": "B", "wanted": 3, "table": 2, "because": "opponent", "with": "A"}]),
    # A table the round doesn't have; a bye is left alone.
    ({"C": 9, "G": 1}, ["AB", "CD", "EF"],
     [{"entrant": "C", "wanted": 9, "table": 2, "because": "fewer"}]),
])
def test_fixed_tables_get_their_numbers(fixed, numbers, misses):
    seating, missed = fix_table_numbers(PAIRS, fixed)
    assert [t["table"] for t in seating["tables"]] == [1, 2, 3]
    assert ["".join(t["entrants"]) for t in seating["tables"]] == numbers
    assert missed == misses
    assert seating["byes"] == ["G"]
