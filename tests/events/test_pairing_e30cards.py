"""Pairing tables already made again: assign_tables and random_tables fill the sizes they
are given (largest first), or refuse sizes that don't seat every entrant."""
from __future__ import annotations

import random

import pytest

from companion.events.pairing import assign_tables, history_from_results, random_tables

NAMES = [f"P{i}" for i in range(1, 11)]


def test_given_sizes_are_the_tables_largest_first():
    # P1..P4 met last round: given tables of 4, 3 and 3 they don't all meet again.
    history = history_from_results([{"round": 1, "entrants": NAMES[:4]}])
    seating = assign_tables(NAMES, history, min_size=3, max_size=5, sizes=[3, 3, 4])
    assert [len(t["entrants"]) for t in seating["tables"]] == [4, 3, 3]
    assert sorted(e for t in seating["tables"] for e in t["entrants"]) == sorted(NAMES)
    assert seating["byes"] == []
    assert not any(set(NAMES[:4]) <= set(t["entrants"]) for t in seating["tables"])
    drawn = random_tables(NAMES, random.Random(3), min_size=3, max_size=5, sizes=[5, 5])
    assert [len(t["entrants"]) for t in drawn["tables"]] == [5, 5]


@pytest.mark.parametrize("sizes", [[4, 4], [5, 4, 2], [6, 4]])
def test_sizes_that_dont_seat_everybody_within_the_limits_are_refused(sizes):
    with pytest.raises(ValueError, match="must seat every entrant"):
        assign_tables(NAMES, min_size=3, max_size=5, sizes=sizes)
