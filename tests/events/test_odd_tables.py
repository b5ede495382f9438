"""Counts that do not divide into preferred tables: the closest sizes, smaller or larger."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import GAMES
from companion.events import (
    ODD_TABLES,
    assign_tables,
    random_tables,
    seat_round,
    table_sizes,
    event_format,
)

ODD_CASES = [
    # (count, min, max, preferred, closest, smaller, larger)
    (10, 3, 6, 4, [5, 5], [4, 3, 3], [5, 5]),
    (9, 3, 6, 4, [5, 4], [3, 3, 3], [5, 4]),
    (11, 3, 6, 4, [4, 4, 3], [4, 4, 3], [6, 5]),
    (13, 2, 5, 4, [5, 4, 4], [4, 3, 3, 3], [5, 4, 4]),
    # Larger means no table below 4 whenever possible: 7 sit at one table of 7.
    (7, 2, 8, 4, [4, 3], [4, 3], [7]),
    (12, 3, 6, 4, [4, 4, 4], [4, 4, 4], [4, 4, 4]),   # it divides: no choice to make
    (5, 4, 4, 4, [4], [4], [4]),                      # one sits out whatever the choice
    (2, 3, 6, 4, [], [], []),
    (0, 2, 5, 4, [], [], []),
    # No split of 10 avoids a table above 3: the fewest seats above it (4+3+3).
    (10, 3, 6, 3, [4, 3, 3], [4, 3, 3], [4, 3, 3]),
    # No split of 10 reaches 6 everywhere: 6+4 and 5+5 both miss 2 seats; 5+5 is closer.
    (10, 3, 6, 6, [5, 5], [5, 5], [5, 5]),
]


@pytest.mark.parametrize("count,low,high,preferred,closest,smaller,larger", ODD_CASES)
def test_odd_table_sizes(count, low, high, preferred, closest, smaller, larger):
    assert table_sizes(count, low, high, preferred) == closest
    assert table_sizes(count, low, high, preferred, odd="closest") == closest
    assert table_sizes(count, low, high, preferred, "smaller") == smaller
    assert table_sizes(count, low, high, preferred, odd="larger") == larger


def test_odd_is_checked():
    assert ODD_TABLES == ("closest", "smaller", "larger")
    with pytest.raises(ValueError, match="closest, smaller, larger"):
        table_sizes(10, 3, 6, 4, odd="bigger")
    with pytest.raises(ValueError, match="closest, smaller, larger"):
        assign_tables(list("ABCDE"), min_size=2, max_size=3, odd=None)


def test_assign_and_random_tables_take_odd():
    players = [f"P{n}" for n in range(1, 11)]
    for odd, sizes in (("smaller", [4, 3, 3]), ("larger", [5, 5]), ("closest", [5, 5])):
        seating = assign_tables(players, min_size=3, max_size=6, preferred=4, odd=odd)
        assert [len(t["entrants"]) for t in seating["tables"]] == sizes
        drawn = random_tables(players, random.Random(2), min_size=3, max_size=6,
                              preferred=4, odd=odd)
        assert [len(t["entrants"]) for t in drawn["tables"]] == sizes


def test_formats_carry_odd_tables():
    assert event_format("zocknroll")["odd_tables"] == "closest"
    assert event_format("rook")["odd_tables"] is None  # tables of two have no choice
    assert all(f["odd_tables"] == ("closest" if f["kind"] == "tables" else None)
               for f in map(event_format, GAMES))
    smaller = event_format("zocknroll", odd_tables="smaller")
    assert smaller["odd_tables"] == "smaller"
    assert event_format("rook", odd_tables="larger")["odd_tables"] is None
    assert event_format("scorepad", kind="head_to_head",
                             odd_tables="smaller")["odd_tables"] is None
    players = [f"P{n}" for n in range(1, 10)]
    assert [len(t["entrants"]) for t in seat_round(smaller, players)["tables"]] == [3, 3, 3]
    larger = event_format("zocknroll", odd_tables="larger")
    drawn = seat_round(larger, players, rng=random.Random(1))
    assert [len(t["entrants"]) for t in drawn["tables"]] == [5, 4]
    # A format stored before odd_tables existed seats as "closest".
    old = {k: v for k, v in event_format("zocknroll").items() if k != "odd_tables"}
    assert [len(t["entrants"]) for t in seat_round(old, players)["tables"]] == [5, 4]


@pytest.mark.parametrize("value", ["bigger", "", 3, "Smaller"])
def test_bad_odd_tables_override(value):
    with pytest.raises(ValueError, match="closest, smaller, larger"):
        event_format("zocknroll", odd_tables=value)
    with pytest.raises(ValueError, match="closest, smaller, larger"):
        event_format("rook", odd_tables=value)


def splits(total, low, most):
    """Every split of total into sizes low..most, largest first."""
    if total == 0:
        yield []
        return
    for size in range(min(most, total), low - 1, -1):
        for rest in splits(total - size, low, size):
            yield [size, *rest]


@settings(max_examples=150, deadline=None)
@given(count=st.integers(0, 30), low=st.integers(1, 5), extra=st.integers(0, 5),
       pref=st.integers(0, 10), odd=st.sampled_from(["smaller", "larger"]))
def test_odd_table_sizes_against_every_split(count, low, extra, pref, odd):
    high = low + extra
    preferred = low + pref % (extra + 1)
    sizes = table_sizes(count, low, high, preferred, odd)
    closest = table_sizes(count, low, high, preferred)
    assert sum(sizes) == sum(closest)             # seats as many as ever
    assert sizes == sorted(sizes, reverse=True)
    assert all(low <= s <= high for s in sizes)
    wrong = (lambda s: s > preferred) if odd == "smaller" else (lambda s: s < preferred)
    options = list(splits(sum(sizes), low, high))
    if any(not any(map(wrong, split)) for split in options):
        assert not any(map(wrong, sizes))
        # And among those, as close to preferred as any.
        best = min(sum((s - preferred) ** 2 for s in split) for split in options
                   if not any(map(wrong, split)))
        assert sum((s - preferred) ** 2 for s in sizes) == best
