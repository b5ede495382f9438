"""The round robin schedule and the top cut's bracket (companion.events.brackets): every
pair meets exactly once, byes for an odd count, a dropped entrant's opponents sit out,
seeds in bracket order, winners meet, a shared place sends the higher seed on."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events.brackets import (bracket_order, cut_rounds, cut_seating,
                                       knockout_winner, round_robin_round,
                                       round_robin_rounds, round_robin_schedule)


def pairs_of(schedule) -> list[frozenset]:
    return [frozenset(t["entrants"]) for rnd in schedule for t in rnd["tables"]]


@pytest.mark.parametrize("count, rounds, tables, byes", [
    (2, 1, 1, 0), (3, 3, 1, 1), (4, 3, 2, 0), (5, 5, 2, 1), (6, 5, 3, 0), (7, 7, 3, 1),
    (20, 19, 10, 0)])
def test_rounds_tables_and_byes_by_count(count, rounds, tables, byes):
    names = [f"E{i}" for i in range(count)]
    schedule = round_robin_schedule(names)
    assert round_robin_rounds(count) == len(schedule) == rounds
    for rnd in schedule:
        assert len(rnd["tables"]) == tables and len(rnd["byes"]) == byes
        assert [t["table"] for t in rnd["tables"]] == list(range(1, tables + 1))
    # An odd count: everyone sits out exactly once.
    assert sorted(b for rnd in schedule for b in rnd["byes"]) == (sorted(names) if byes else [])


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=12), st.randoms(use_true_random=False))
def test_every_pair_meets_exactly_once(count, rng):
    names = [f"P{i}" for i in range(count)]
    rng.shuffle(names)
    schedule = round_robin_schedule(names)
    met = pairs_of(schedule)
    assert sorted(map(sorted, met)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(names, 2))))
    for rnd in schedule:       # nobody twice in one round
        seated = [e for t in rnd["tables"] for e in t["entrants"]] + rnd["byes"]
        assert sorted(seated) == sorted(names)
    # Who goes first is shared out: everyone starts half their games (one more or less).
    firsts = [t["entrants"][0] for rnd in schedule for t in rnd["tables"]]
    games = count - 1
    assert all(games // 2 <= firsts.count(n) <= -(-games // 2) for n in names)


def test_a_dropped_entrants_opponent_gets_a_bye():
    names = ["A", "B", "C", "D", "E", "F"]
    full = round_robin_round(names, 2)
    (gone, other), *rest = [t["entrants"] for t in full["tables"]]
    later = round_robin_round(names, 2, dropped=[gone])
    assert later["byes"] == [other]
    assert [t["entrants"] for t in later["tables"]] == rest
    assert [t["table"] for t in later["tables"]] == [1, 2]
    with pytest.raises(ValueError, match="has 5 rounds"):
        round_robin_round(names, 6)
    with pytest.raises(ValueError):
        round_robin_schedule(["A", "A", "B"])
    with pytest.raises(ValueError):
        round_robin_schedule(["A"])


def test_bracket_order_and_rounds():
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert (cut_rounds(4), cut_rounds(8)) == (2, 3)
    with pytest.raises(ValueError):
        cut_rounds(6)


@pytest.mark.parametrize("places, goes_on", [([1, 2], "S1"), ([2, 1], "S4"), ([1, 1], "S1")])
def test_knockout_winner(places, goes_on):
    seeds = ["S1", "S2", "S3", "S4"]
    # The table lists the lower seed first: a shared place still sends the higher seed on.
    result = {"table": 1, "entrants": ["S4", "S1"], "places": places[::-1]}
    assert knockout_winner(result, seeds) == goes_on


def test_a_top_8_runs_to_the_final():
    seeds = [f"S{i}" for i in range(1, 9)]
    first = cut_seating(seeds)
    assert [t["entrants"] for t in first["tables"]] == [
        ["S1", "S8"], ["S4", "S5"], ["S2", "S7"], ["S3", "S6"]]
    # The lower seed wins every table but the last (a draw: the higher seed goes on).
    results = [{"table": t["table"], "entrants": t["entrants"], "places": [2, 1]}
               for t in first["tables"][:3]]
    results.append({"table": 4, "entrants": ["S3", "S6"], "places": [1, 1]})
    semis = cut_seating(seeds, results)
    assert [t["entrants"] for t in semis["tables"]] == [["S5", "S8"], ["S3", "S7"]]
    final = cut_seating(seeds, [{"table": 1, "entrants": ["S5", "S8"], "places": [1, 2]},
                                {"table": 2, "entrants": ["S3", "S7"], "places": [2, 1]}])
    assert final == {"tables": [{"table": 1, "entrants": ["S5", "S7"]}], "byes": []}
    with pytest.raises(ValueError, match="final has been played"):
        cut_seating(seeds, [{"table": 1, "entrants": ["S5", "S7"], "places": [1, 2]}])
