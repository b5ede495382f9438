"""The director's side of standings: adjustments, points typed as text, tie-break names and
order, the standings CSV; and every tie-break recomputed naively from random results."""
from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import (
    TIEBREAK_NAMES,
    TIEBREAKS,
    match_scoring,
    parse_points_list,
    parse_tiebreak_order,
    place_scoring,
    result_points,
    score_totals,
    standings,
    standings_csv,
    tiebreak_columns,
)


def match(rnd, table, a, b, winner, scores=None):
    places = [1, 1] if winner is None else ([1, 2] if winner == a else [2, 1])
    result = {"round": rnd, "table": table, "entrants": [a, b], "places": places}
    if scores is not None:
        result["scores"] = scores
    return result


def bye(rnd, entrant):
    return {"round": rnd, "table": None, "entrants": [entrant], "bye": True}


def summary(rows, *fields):
    return [tuple(row[f] for f in ("rank", "entrant", *fields)) for row in rows]


def table(text):
    return list(csv.reader(io.StringIO(text)))


# ---------------------------------------------------------------------------
# Adjustments, by hand.
#
# Five players, win 2 / draw 1 / loss 0 / bye 2:
#   R1: A beat B, C drew D, E bye.   R2: E beat C, B beat D, A bye.
#   Results' points: A 4, E 4, B 2, C 1, D 1.
# Adjustments: A -1 (slow play, round 2), C +2, D +0.5 and -0.5.
#   Points: E 4, A 3, C 3, B 2, D 1.
#   Buchholz with the adjusted points (the opponents met; a bye adds nothing):
#   E = C 3 = 3; A = B 2 = 2; C = D 1 + E 4 = 5; B = A 3 + D 1 = 4; D = C 3 + B 2 = 5.
#   Sonneborn-Berger: E 3 (beat C); A 2 (beat B); C 0.5 (drew D); B 1 (beat D);
#   D 1.5 (drew C). A and C tie on points; C's Buchholz is higher (A's bye adds nothing).
# ---------------------------------------------------------------------------

FIVE = [match(1, 1, "A", "B", "A", [250, 120]), match(1, 2, "C", "D", None, [200, 200]),
        bye(1, "E"), match(2, 1, "E", "C", "E", [300, 180]),
        match(2, 2, "B", "D", "B", [260, 90]), bye(2, "A")]

ADJUSTMENTS = [
    {"entrant": "A", "points": -1, "reason": "slow play", "round": 2},
    {"entrant": "C", "points": 2, "reason": "director's award"},
    {"entrant": "D", "points": 0.5, "reason": "", "round": 1},
    {"entrant": "D", "points": -0.5, "reason": "undo", "round": None},
]


def test_adjustments_by_hand():
    rows = standings(list("ABCDE"), FIVE, match_scoring(), adjustments=ADJUSTMENTS)
    json.dumps(rows)
    assert summary(rows, "points", "adjustment", "buchholz", "median_buchholz",
                   "sonneborn_berger") == [
        (1, "E", 4, 0, 3, 3, 3), (2, "C", 3, 2, 5, 5, 0.5), (3, "A", 3, -1, 2, 2, 2),
        (4, "B", 2, 0, 4, 4, 1), (5, "D", 1, 0, 5, 5, 1.5)]
    by = {r["entrant"]: r for r in rows}
    assert by["A"]["adjustments"] == [{"points": -1, "reason": "slow play", "round": 2}]
    assert by["C"]["adjustments"] == [{"points": 2, "reason": "director's award",
                                       "round": None}]
    assert by["D"]["adjustments"] == [{"points": 0.5, "reason": "", "round": 1},
                                      {"points": -0.5, "reason": "undo", "round": None}]
    assert by["E"]["adjustments"] == [] and by["E"]["adjustment"] == 0
    # Results' points are untouched in the round-by-round list.
    assert [r["points"] for r in by["A"]["results"]] == [2, 2]


def test_adjustments_add_to_initial_points():
    rows = standings(["A", "L"], [], match_scoring(), initial_points={"L": 1},
                     adjustments=[{"entrant": "L", "points": 1.5, "reason": "late fee back"}])
    assert summary(rows, "points", "adjustment") == [(1, "L", 2.5, 1.5), (2, "A", 0, 0)]


@pytest.mark.parametrize("adjustments,problem", [
    ([{"entrant": "Q", "points": 1}], "not an entrant"),
    ([{"entrant": "A", "points": "1"}], "must be a number"),
    ([{"entrant": "A"}], "must be a number"),
    ([{"entrant": "A", "points": float("inf")}], "must be a number"),
    ([{"entrant": "A", "points": 1, "round": 0}], "round"),
    ([{"entrant": "A", "points": 1, "round": True}], "round"),
    ([{"entrant": "A", "points": 1, "reason": 5}], "reason"),
    (["A+1"], "dictionary"),
    ({"entrant": "A", "points": 1}, "list"),
])
def test_bad_adjustments_are_refused(adjustments, problem):
    with pytest.raises(ValueError, match=problem):
        standings(["A", "B"], [match(1, 1, "A", "B", "A")], match_scoring(),
                  adjustments=adjustments)


# ---------------------------------------------------------------------------
# Points typed by the director.
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,values", [
    ("4, 2, 1, 0", [4, 2, 1, 0]),
    ("4 2 1 0", [4, 2, 1, 0]),
    ("  5,3 ,, 1.5\t0 ", [5, 3, 1.5, 0]),
    ("4,2,1,0,", [4, 2, 1, 0]),
    ("10", [10]),
    ("-1, -0.5, +2, .5, 2.", [-1, -0.5, 2, 0.5, 2]),
    ("3.0, 1.25", [3, 1.25]),
    ("1000, -1000", [1000, -1000]),
    ("４，２、１", None),                       # the Japanese comma is not a separator
    ("４，２ １", [4, 2, 1]),                  # full-width digits and comma
    ("1 " * 12, [1] * 12),
])
def test_parse_points_list(text, values):
    if values is None:
        with pytest.raises(ValueError):
            parse_points_list(text)
    else:
        got = parse_points_list(text)
        assert got == values
        assert [type(v) for v in got] == [int if v == int(v) else float for v in values]


@pytest.mark.parametrize("text,problem", [
    ("", "Enter the points"),
    (" , ", "Enter the points"),
    ("4, two, 1", "'two' is not a number"),
    ("1e3", "not a number"),
    ("nan", "not a number"),
    ("4;2", "not a number"),
    ("1 " * 13, "at most 12"),
    ("1001", "between -1000 and 1000"),
    ("-1000.5", "between -1000 and 1000"),
    (None, "typed as text"),
    ([4, 2], "typed as text"),
])
def test_parse_points_list_refuses(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_points_list(text)


def test_parsed_points_make_a_scoring():
    scoring = place_scoring(parse_points_list("5, 3, 1.5"))
    assert scoring == {"mode": "places", "points": [5, 3, 1.5], "bye": 5}


# ---------------------------------------------------------------------------
# Tie-break names and order.
# ---------------------------------------------------------------------------

def test_tiebreak_names_and_columns():
    assert TIEBREAK_NAMES == {"game": "Game score", "buchholz": "Buchholz",
                              "median_buchholz": "Median-Buchholz",
                              "sonneborn_berger": "Sonneborn-Berger"}
    assert set(TIEBREAK_NAMES) == set(TIEBREAKS)
    assert tiebreak_columns(None, "match") == TIEBREAKS
    assert tiebreak_columns(None, "places") == ("game", "buchholz", "median_buchholz")
    assert tiebreak_columns(["buchholz"], "places") == ("buchholz",)
    assert tiebreak_columns([], "match") == ()
    with pytest.raises(ValueError, match="Sonneborn-Berger"):
        tiebreak_columns(["sonneborn_berger"], "places")
    with pytest.raises(ValueError, match="not a tie-break"):
        tiebreak_columns(["elo"], "match")


@pytest.mark.parametrize("values,mode,order", [
    (["buchholz", "", "game"], "match", ("buchholz", "game")),
    (["", None, "  "], "match", ()),
    ([], "places", ()),
    ([" sonneborn_berger ", "median_buchholz"], "match", ("sonneborn_berger", "median_buchholz")),
    (["Median-Buchholz", "game score"], "places", ("median_buchholz", "game")),
    (("game", "buchholz", "median_buchholz", "sonneborn_berger"), "match", TIEBREAKS),
])
def test_parse_tiebreak_order(values, mode, order):
    assert parse_tiebreak_order(values, mode) == order


@pytest.mark.parametrize("values,mode,problem", [
    (["buchholz", "buchholz"], "match", "Buchholz is chosen twice"),
    (["buchholz", "Buchholz"], "match", "chosen twice"),
    (["elo"], "match", "'elo' is not a tie-break"),
    (["sonneborn_berger"], "places", "Sonneborn-Berger needs match scoring"),
    ([3], "match", "not a tie-break"),
    ("buchholz", "match", "a list"),
])
def test_parse_tiebreak_order_refuses(values, mode, problem):
    with pytest.raises(ValueError, match=problem):
        parse_tiebreak_order(values, mode)


def test_chosen_order_ranks_the_standings():
    order = parse_tiebreak_order(["sonneborn_berger", ""], "match")
    rows = standings(list("ABCDE"), FIVE, match_scoring(), order=order)
    assert summary(rows, "points") == [
        (1, "A", 4), (2, "E", 4), (3, "B", 2), (4, "C", 1), (4, "D", 1)]


# ---------------------------------------------------------------------------
# Standings CSV.
# ---------------------------------------------------------------------------

HEADER = ["place", "entrant", "members", "points", "played", "wins", "draws", "losses",
          "byes", "adjustment"]


def test_standings_csv_for_match_scoring():
    rows = standings(list("ABCDE"), FIVE, match_scoring(), adjustments=ADJUSTMENTS)
    text = standings_csv(rows, TIEBREAKS, members={"A": ["Ann", "Al"], "B": []},
                         dropped=["D"])
    assert table(text) == [
        HEADER + ["Game score", "Buchholz", "Median-Buchholz", "Sonneborn-Berger", "dropped"],
        ["1", "E", "", "4", "1", "1", "0", "0", "1", "0", "", "3", "3", "3", ""],
        ["2", "C", "", "3", "2", "0", "1", "1", "0", "2", "", "5", "5", "0.5", ""],
        ["3", "A", "Ann & Al", "3", "1", "1", "0", "0", "1", "-1", "", "2", "2", "2", ""],
        ["4", "B", "", "2", "2", "1", "0", "1", "0", "0", "", "4", "4", "1", ""],
        ["5", "D", "", "1", "2", "0", "1", "1", "0", "0", "", "5", "5", "1.5", "yes"],
    ]
    # None: the default order of the rows' scoring; final changes nothing.
    assert standings_csv(rows, None, members={"A": ["Ann", "Al"]}, dropped=["D"],
                         final=True) == text


def test_standings_csv_shows_only_the_chosen_tiebreaks_in_order():
    totals = score_totals(FIVE)
    order = ("sonneborn_berger", "game")
    rows = standings(list("ABCDE"), FIVE, match_scoring(), order=order,
                     game_tiebreaks={e: [t] for e, t in totals.items()})
    got = table(standings_csv(rows, order))
    assert got[0] == HEADER + ["Sonneborn-Berger", "Game score", "dropped"]
    assert got[1] == ["1", "A", "", "4", "1", "1", "0", "0", "1", "0", "2", "250", ""]
    # Several game values: one column each.
    rows = standings(list("AB"), [match(1, 1, "A", "B", "A")], match_scoring(), order=["game"],
                     game_tiebreaks={"A": [3, 1], "B": [2, 7]})
    got = table(standings_csv(rows, ["game"]))
    assert got[0][-3:] == ["Game score", "Game score 2", "dropped"]
    assert got[1][-3:] == ["3", "1", ""]


def test_standings_csv_for_place_scoring():
    results = [{"round": 1, "table": 1, "entrants": list("ABC"), "places": [1, 2, 2]},
               bye(1, "D")]
    rows = standings(list("ABCD"), results, place_scoring([4, 2, 1], bye=2))
    got = table(standings_csv(rows, None))
    assert got[0] == HEADER + ["Game score", "Buchholz", "Median-Buchholz", "dropped"]
    # B and C share 2nd and 3rd (1.5 each); A's table-mates average 1.5.
    assert got[1] == ["1", "A", "", "4", "1", "", "", "", "0", "0", "", "1.5", "1.5", ""]
    assert got[2][:4] == ["2", "D", "", "2"]
    assert [row[0] for row in got[1:]] == ["1", "2", "3", "3"]


def test_standings_csv_defuses_formulas():
    rows = standings(["=1+1", "@me"], [match(1, 1, "=1+1", "@me", None)], match_scoring())
    got = table(standings_csv(rows, ["buchholz"], members={"=1+1": ["-Ann", "=Bo"]}))
    assert [row[1] for row in got[1:]] == ["'=1+1", "'@me"]
    assert got[1][2] == "'-Ann & =Bo"


def test_standings_csv_of_nothing_has_a_header():
    assert table(standings_csv([], ["buchholz"])) == [HEADER + ["Buchholz", "dropped"]]
    with pytest.raises(ValueError, match="not a tie-break"):
        standings_csv([], ["elo"])


# ---------------------------------------------------------------------------
# Hypothesis: every number of the standings recomputed naively.
# ---------------------------------------------------------------------------

@st.composite
def events(draw):
    mode = draw(st.sampled_from(["match", "places"]))
    n = draw(st.integers(2, 9))
    names = [f"M{k}" for k in range(n)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    rounds = draw(st.integers(1, 5))
    results = []
    for rnd in range(1, rounds + 1):
        # A few sit the round out entirely (late arrivals, drops): no result, no bye.
        present = [e for e in names if rng.random() > 0.15]
        rng.shuffle(present)
        k = 0
        table_no = 1
        while len(present) - k >= 2:
            size = 2 if mode == "match" else min(len(present) - k, rng.randint(2, 4))
            seats = present[k:k + size]
            k += size
            places = [rng.randint(1, size) for _ in seats]
            results.append({"round": rnd, "table": table_no, "entrants": seats,
                            "places": places})
            table_no += 1
        results += [bye(rnd, e) for e in present[k:]]
    rng.shuffle(results)  # standings read results in any order
    adjustments = [{"entrant": rng.choice(names), "points": rng.choice([-2, -1, -0.5, 1, 3]),
                    "reason": "r", "round": rng.choice([None, 1, 2])}
                   for _ in range(draw(st.integers(0, 4)))]
    scoring = match_scoring(3, 1, 0, bye=rng.choice([None, 1])) if mode == "match" else \
        place_scoring(rng.choice([[4, 2, 1, 0], [5, 3, 1.5]]), bye=rng.choice([None, 1]))
    return names, results, adjustments, scoring


def exact(value):
    return Fraction(str(value))


@settings(max_examples=120, deadline=None)
@given(events())
def test_tiebreaks_recomputed_from_results(event):
    """(f) points = the results' points + adjustments; Buchholz = per round the opponents'
    (average) final points over the rounds played, a bye adding nothing; Median-Buchholz
    without the best and worst round played (3 or more); Sonneborn-Berger = points of opponents beaten
    plus half of those drawn."""
    names, results, adjustments, scoring = event
    rows = standings(names, results, scoring, adjustments=adjustments)
    json.dumps(rows)
    points = {e: Fraction(0) for e in names}
    for result in results:
        for entrant, value in result_points(result, scoring).items():
            points[entrant] += exact(value)
    extra = {e: sum((exact(a["points"]) for a in adjustments if a["entrant"] == e),
                    Fraction(0)) for e in names}
    for e in names:
        points[e] += extra[e]
    by = {r["entrant"]: r for r in rows}
    for e in names:
        mine = [r for r in results if e in r["entrants"]]
        per_round = []
        berger = Fraction(0)
        for r in mine:
            if r.get("bye"):
                continue
            others = [o for o in r["entrants"] if o != e]
            per_round.append(sum(points[o] for o in others) / len(others))
            if scoring["mode"] == "match":
                (other,) = others
                me, them = (r["places"][r["entrants"].index(x)] for x in (e, other))
                berger += points[other] if me < them else points[other] / 2 if me == them \
                    else 0
        buchholz = sum(per_round, Fraction(0))
        median = buchholz - max(per_round) - min(per_round) if len(per_round) >= 3 \
            else buchholz
        row = by[e]
        assert row["points"] == pytest.approx(float(points[e]), abs=1e-9)
        assert row["adjustment"] == pytest.approx(float(extra[e]), abs=1e-9)
        assert row["buchholz"] == pytest.approx(float(buchholz), abs=1e-9)
        assert row["median_buchholz"] == pytest.approx(float(median), abs=1e-9)
        if scoring["mode"] == "match":
            assert row["sonneborn_berger"] == pytest.approx(float(berger), abs=1e-9)
        else:
            assert row["sonneborn_berger"] is None
        assert row["played"] + row["byes"] == len(mine)
    # Best first by points, then the default tie-breaks (no game values here).
    keys = [(r["points"], r["buchholz"], r["median_buchholz"], r["sonneborn_berger"] or 0)
            for r in rows]
    assert keys == sorted(keys, reverse=True)
    # The CSV has one line per row plus the header, whatever the numbers.
    assert len(table(standings_csv(rows, None))) == len(rows) + 1
