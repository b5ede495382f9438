"""Standings: points per result, tie-breaks, shared places and the CSV of every result.

The worked examples are computed by hand in the comments; the 16-player Swiss in
test_pairing.py checks Buchholz, Median-Buchholz and Sonneborn-Berger over four rounds.
"""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import (
    default_scoring,
    match_scoring,
    place_scoring,
    places_from_scores,
    result_points,
    results_csv,
    score_totals,
    standings,
    event_format,
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


# ---------------------------------------------------------------------------
# Scoring one result.
# ---------------------------------------------------------------------------

PLACE_CASES = [
    # (places, points by place, expected points per entrant)
    ([1, 2, 3, 4], [4, 2, 1, 0], [4, 2, 1, 0]),
    ([1, 2, 2, 4], [4, 2, 1, 0], [4, 1.5, 1.5, 0]),       # 2nd and 3rd shared
    ([1, 1, 3, 4], [4, 2, 1, 0], [3, 3, 1, 0]),
    ([1, 1, 2], [4, 2, 1, 0], [3, 3, 1]),                  # dense ranking reads the same
    ([2, 2, 2, 2], [4, 2, 1, 0], [1.75, 1.75, 1.75, 1.75]),
    ([1, 2, 3, 4, 5, 6], [4, 2, 1, 0], [4, 2, 1, 0, 0, 0]),  # past the list: 0
    ([3, 1, 2], [5, 3, 1], [1, 5, 3]),
]


@pytest.mark.parametrize("places,points,expected", PLACE_CASES)
def test_points_by_place(places, points, expected):
    names = [f"N{k}" for k in range(len(places))]
    result = {"round": 1, "table": 1, "entrants": names, "places": places}
    assert result_points(result, place_scoring(points)) == dict(zip(names, expected, strict=True))


def test_points_by_table_size():
    scoring = place_scoring({4: [4, 2, 1, 0], "5": [5, 3, 2, 1, 0]})
    four = {"round": 1, "entrants": list("ABCD"), "places": [1, 2, 3, 4]}
    five = {"round": 1, "entrants": list("ABCDE"), "places": [1, 2, 3, 4, 5]}
    assert result_points(four, scoring) == {"A": 4, "B": 2, "C": 1, "D": 0}
    assert result_points(five, scoring) == {"A": 5, "B": 3, "C": 2, "D": 1, "E": 0}
    assert scoring["bye"] == 4  # first place at the smallest listed table
    with pytest.raises(ValueError, match="table of 3"):
        result_points({"round": 1, "entrants": list("ABC"), "places": [1, 2, 3]}, scoring)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_by_default_the_same_place_earns_the_same_points_at_every_table_size(size):
    # A table game's default scoring, with every place given (Rocca by cards left, a
    # score pad by totals): 1st 4, 2nd 2, 3rd 1, 4th and later 0, whatever the size.
    scoring = default_scoring(event_format("rocca"))
    names = [f"N{k}" for k in range(size)]
    result = {"round": 1, "table": 1, "entrants": names, "places": list(range(1, size + 1))}
    assert result_points(result, scoring) == dict(zip(names, [4, 2, 1, 0, 0, 0][:size]))


MATCH_CASES = [
    # (result, scoring, expected)
    (match(1, 1, "A", "B", "A"), match_scoring(), {"A": 2, "B": 0}),
    (match(1, 1, "A", "B", "B"), match_scoring(), {"A": 0, "B": 2}),
    (match(1, 1, "A", "B", None), match_scoring(), {"A": 1, "B": 1}),
    (match(1, 1, "A", "B", "A"), match_scoring(3, 1, 0), {"A": 3, "B": 0}),
    (match(1, 1, "A", "B", None), match_scoring(1, 0.5, 0), {"A": 0.5, "B": 0.5}),
    (bye(1, "C"), match_scoring(), {"C": 2}),
    (bye(1, "C"), match_scoring(3, 1, 0, bye=1), {"C": 1}),
    # Places follow scores when none are given (Rook: higher total wins).
    ({"round": 1, "entrants": ["Red", "Blue"], "scores": [310, 390]}, match_scoring(),
     {"Red": 0, "Blue": 2}),
    ({"round": 1, "entrants": ["Red", "Blue"], "scores": [300, 300]}, match_scoring(),
     {"Red": 1, "Blue": 1}),
]


@pytest.mark.parametrize("result,scoring,expected", MATCH_CASES)
def test_match_points(result, scoring, expected):
    assert result_points(result, scoring) == expected


def test_places_from_scores():
    assert places_from_scores([5, 9, 5]) == [2, 1, 2]
    assert places_from_scores([5, 9, 5, 1]) == [2, 1, 2, 4]
    assert places_from_scores([5, 9, 5, 1], higher_wins=False) == [2, 4, 2, 1]
    assert places_from_scores([]) == []


@pytest.mark.parametrize("result,problem", [
    ({"round": 0, "entrants": ["A", "B"], "places": [1, 2]}, "round"),
    ({"round": 1, "entrants": ["A", "A"], "places": [1, 2]}, "twice"),
    ({"round": 1, "entrants": ["A", "B"]}, "places or scores"),
    ({"round": 1, "entrants": ["A", "B"], "places": [1]}, "one value per entrant"),
    ({"round": 1, "entrants": ["A", "B"], "places": [0, 1]}, "places"),
    ({"round": 1, "entrants": ["A", "B"], "scores": ["x", 1]}, "score"),
    ({"round": 1, "entrants": ["A"], "places": [1]}, "at least two"),
    ({"round": 1, "entrants": ["A", "B"], "bye": True}, "one entrant"),
    ({"round": 1, "table": 0, "entrants": ["A", "B"], "places": [1, 2]}, "table"),
    ({"round": 1, "entrants": "AB", "places": [1, 2]}, "by name"),
    ({"round": 1, "entrants": ["A", "B", "C"], "places": [1, 2, 3]}, "tables of two"),
])
def test_bad_results_are_refused(result, problem):
    with pytest.raises(ValueError, match=problem):
        result_points(result, match_scoring())


def test_bad_scoring_is_refused():
    with pytest.raises(ValueError):
        match_scoring(win="2")
    with pytest.raises(ValueError):
        match_scoring(win=float("nan"))
    with pytest.raises(ValueError):
        place_scoring("4210")
    with pytest.raises(ValueError):
        place_scoring({"four": [4, 2]})
    with pytest.raises(ValueError):
        result_points(match(1, 1, "A", "B", "A"), {"mode": "elo"})


# ---------------------------------------------------------------------------
# Standings for pair games.
# ---------------------------------------------------------------------------

def test_exact_ties_share_a_place():
    results = [match(1, 1, "A", "B", "A"), match(1, 2, "C", "D", "C")]
    rows = standings(list("ABCD"), results, match_scoring())
    # A and C: 2 points, Buchholz 0, SB 0; B and D: 0 points, Buchholz 2, SB 0.
    assert summary(rows, "points", "buchholz") == [
        (1, "A", 2, 0), (1, "C", 2, 0), (3, "B", 0, 2), (3, "D", 0, 2)]


# Five players, win 2 / draw 1 / loss 0 / bye 2 (by hand):
#   R1: A beat B, C drew D, E bye.   R2: E beat C, B beat D, A bye.
#   Points: A 4, E 4, B 2, C 1, D 1.
#   Buchholz (the points of the opponents met; a bye adds nothing): A = B 2 = 2;
#   E = C 1 = 1; B = A 4 + D 1 = 5; C = D 1 + E 4 = 5; D = C 1 + B 2 = 3.
#   Median-Buchholz: fewer than 3 rounds played, so the same as Buchholz.
#   Sonneborn-Berger (games played only): A 2 (beat B); E 1 (beat C); B 1 (beat D);
#   C 0.5, D 0.5 (their draw).
FIVE = [match(1, 1, "A", "B", "A", [250, 120]), match(1, 2, "C", "D", None, [200, 200]),
        bye(1, "E"), match(2, 1, "E", "C", "E", [300, 180]),
        match(2, 2, "B", "D", "B", [260, 90]), bye(2, "A")]


def test_byes_and_buchholz_by_hand():
    rows = standings(list("ABCDE"), FIVE, match_scoring())
    assert summary(rows, "points", "buchholz", "median_buchholz", "sonneborn_berger") == [
        (1, "A", 4, 2, 2, 2), (2, "E", 4, 1, 1, 1), (3, "B", 2, 5, 5, 1),
        (4, "C", 1, 5, 5, 0.5), (5, "D", 1, 3, 3, 0.5)]
    a = rows[0]
    assert (a["played"], a["byes"], a["wins"], a["draws"], a["losses"]) == (1, 1, 1, 0, 0)
    assert a["results"] == [
        {"round": 1, "table": 1, "opponents": ["B"], "outcome": "win", "place": 1, "points": 2},
        {"round": 2, "table": None, "opponents": [], "outcome": "bye", "place": None,
         "points": 2}]


# A bye adds nothing to Buchholz, Median-Buchholz or Sonneborn-Berger: they count the
# opponents met. By hand:
#   Match (win 2 / draw 1 / loss 0 / bye 2), three entrants over four rounds:
#     R1 A beat B, C bye; R2 C beat A, B bye; R3 B drew C, A bye; R4 A beat C, B bye.
#     Points: A 2+0+2+2 = 6, B 0+2+1+2 = 5, C 2+2+1+0 = 5.
#     Buchholz: A = B 5 + C 5 + C 5 = 15; B = A 6 + C 5 = 11; C = A 6 + B 5 + A 6 = 17.
#     Median-Buchholz (3 rounds played or more): A 15-5-5 = 5; B 11 (2 rounds); C 17-6-5 = 6.
#     Sonneborn-Berger: A 5+5 = 10; B 5/2 = 2.5; C 6 + 5/2 = 8.5.
#   Places (4/2/1/0, bye 4), tables of three:
#     R1 A 1st, B 2nd, C 3rd, D bye; R2 B 1st, C 2nd, D 3rd, A bye.
#     Points: A 4+4 = 8, B 2+4 = 6, C 1+2 = 3, D 4+1 = 5.
#     Buchholz (table-mates' average): A (6+3)/2 = 4.5; B (8+3)/2 + (3+5)/2 = 9.5;
#     C (8+6)/2 + (6+5)/2 = 12.5; D (6+3)/2 = 4.5.
BYE_CASES = [
    ("match", list("ABC"),
     [match(1, 1, "A", "B", "A"), bye(1, "C"), match(2, 1, "C", "A", "C"), bye(2, "B"),
      match(3, 1, "B", "C", None), bye(3, "A"), match(4, 1, "A", "C", "A"), bye(4, "B")],
     match_scoring(),
     [(1, "A", 6, 15, 5, 10), (2, "C", 5, 17, 6, 8.5), (3, "B", 5, 11, 11, 2.5)]),
    ("places", list("ABCD"),
     [{"round": 1, "table": 1, "entrants": list("ABC"), "places": [1, 2, 3]}, bye(1, "D"),
      {"round": 2, "table": 1, "entrants": list("BCD"), "places": [1, 2, 3]}, bye(2, "A")],
     place_scoring(),
     [(1, "A", 8, 4.5, 4.5, None), (2, "B", 6, 9.5, 9.5, None), (3, "D", 5, 4.5, 4.5, None),
      (4, "C", 3, 12.5, 12.5, None)]),
]


@pytest.mark.parametrize("mode, names, results, scoring, expected", BYE_CASES,
                         ids=[case[0] for case in BYE_CASES])
def test_a_bye_adds_nothing_to_the_tiebreaks(mode, names, results, scoring, expected):
    rows = standings(names, results, scoring)
    assert summary(rows, "points", "buchholz", "median_buchholz",
                   "sonneborn_berger") == expected
    assert sum(r["byes"] for r in rows) == sum(1 for r in results if r.get("bye"))


def test_game_tiebreaks_come_before_buchholz():
    totals = score_totals(FIVE)
    assert totals == {"A": 250, "B": 380, "C": 380, "D": 290, "E": 300}
    rows = standings(list("ABCDE"), FIVE, match_scoring(),
                     game_tiebreaks={e: [t] for e, t in totals.items()})
    # E (300) now leads A (250); C (380) passes nobody: D has the same points but less.
    assert summary(rows, "points", "game_tiebreaks") == [
        (1, "E", 4, [300]), (2, "A", 4, [250]), (3, "B", 2, [380]), (4, "C", 1, [380]),
        (5, "D", 1, [290])]


def test_tiebreak_order_can_be_chosen():
    results = FIVE
    only_berger = standings(list("ABCDE"), results, match_scoring(),
                            order=["sonneborn_berger"])
    # A 2 > E 1, and C and D tie on SB 0.5: shared 4th.
    assert summary(only_berger, "points") == [
        (1, "A", 4), (2, "E", 4), (3, "B", 2), (4, "C", 1), (4, "D", 1)]
    nothing = standings(list("ABCDE"), results, match_scoring(), order=[])
    assert [r["rank"] for r in nothing] == [1, 1, 3, 4, 4]
    with pytest.raises(ValueError, match="not a tie-break"):
        standings(list("ABCDE"), results, match_scoring(), order=["elo"])


def test_median_buchholz_drops_best_and_worst_round():
    # Z meets W (final 6), X (2) and Y (0): Buchholz 8, Median-Buchholz 2.
    results = [match(1, 1, "Z", "W", "W"), match(1, 2, "X", "Y", "X"),
               match(2, 1, "Z", "X", "Z"), match(2, 2, "W", "Y", "W"),
               match(3, 1, "Z", "Y", "Z"), match(3, 2, "W", "X", "W")]
    rows = {r["entrant"]: r for r in standings(list("WXYZ"), results, match_scoring())}
    assert rows["W"]["points"] == 6 and rows["X"]["points"] == 2 and rows["Y"]["points"] == 0
    assert (rows["Z"]["buchholz"], rows["Z"]["median_buchholz"]) == (8, 2)


def test_late_arrival_and_dropped_entrant_keep_rows():
    results = [match(1, 1, "A", "B", "A")]
    rows = standings(["A", "B", "L"], results, match_scoring(), initial_points={"L": 1})
    assert summary(rows, "points", "played", "buchholz") == [
        (1, "A", 2, 1, 0), (2, "L", 1, 0, 0), (3, "B", 0, 1, 2)]


@pytest.mark.parametrize("kwargs,problem", [
    ({"initial_points": {"Q": 1}}, "not an entrant"),
    ({"game_tiebreaks": {"A": [1], "B": [1, 2]}}, "same number"),
    ({"game_tiebreaks": {"Q": [1]}}, "not an entrant"),
])
def test_standings_refuse_bad_extras(kwargs, problem):
    with pytest.raises(ValueError, match=problem):
        standings(["A", "B"], [match(1, 1, "A", "B", "A")], match_scoring(), **kwargs)


def test_standings_refuse_bad_results():
    with pytest.raises(ValueError, match="not an entrant"):
        standings(["A"], [match(1, 1, "A", "B", "A")], match_scoring())
    with pytest.raises(ValueError, match="two results"):
        standings(list("ABC"), [match(1, 1, "A", "B", "A"), match(1, 2, "A", "C", "A")],
                  match_scoring())
    with pytest.raises(ValueError, match="twice"):
        standings(["A", "A"], [], match_scoring())


# ---------------------------------------------------------------------------
# Standings for table games (points by place), by hand.
#
# Scoring 4 / 2 / 1 / 0.
#   R1 T1: A B C D, places 1 2 3 4  -> 4 2 1 0
#   R1 T2: E F G H, places 1 2 2 4  -> 4 1.5 1.5 0  (F and G share 2nd and 3rd)
#   R2 T1: A E B G, places 2 1 4 3  -> 2 4 0 1
#   R2 T2: C F D H, places 1 1 3 4  -> 3 3 1 0      (C and F share 1st and 2nd)
# Points: E 8, A 6, F 4.5, C 4, G 2.5, B 2, D 1, H 0 (28 = 4 tables x 7).
# Buchholz = per round the table-mates' average points, summed:
#   A: (2+4+1)/3 + (8+2+2.5)/3 = 7/3 + 25/6 = 39/6
#   B: (6+4+1)/3 + (6+8+2.5)/3 = 11/3 + 11/2 = 55/6
#   C: (6+2+1)/3 + (4.5+1+0)/3 = 3 + 11/6 = 29/6
#   D: (6+2+4)/3 + (4+4.5+0)/3 = 4 + 17/6 = 41/6
#   E: (4.5+2.5+0)/3 + (6+2+2.5)/3 = 7/3 + 7/2 = 35/6
#   F: (8+2.5+0)/3 + (4+1+0)/3 = 7/2 + 5/3 = 31/6
#   G: (8+4.5+0)/3 + (6+8+2)/3 = 25/6 + 16/3 = 57/6
#   H: (8+4.5+2.5)/3 + (4+4.5+1)/3 = 5 + 19/6 = 49/6
# Two rounds only, so Median-Buchholz equals Buchholz.
# ---------------------------------------------------------------------------

TABLE_RESULTS = [
    {"round": 1, "table": 1, "entrants": list("ABCD"), "places": [1, 2, 3, 4],
     "scores": [61, 48, 40, 22]},
    {"round": 1, "table": 2, "entrants": list("EFGH"), "places": [1, 2, 2, 4],
     "scores": [70, 51, 51, 30]},
    {"round": 2, "table": 1, "entrants": list("AEBG"), "places": [2, 1, 4, 3],
     "scores": [55, 66, 20, 41]},
    {"round": 2, "table": 2, "entrants": list("CFDH"), "places": [1, 1, 3, 4],
     "scores": [58, 58, 33, 12]},
]


def test_table_game_standings_by_hand():
    rows = standings(list("ABCDEFGH"), TABLE_RESULTS, place_scoring([4, 2, 1, 0]))
    sixths = {"A": 39, "B": 55, "C": 29, "D": 41, "E": 35, "F": 31, "G": 57, "H": 49}
    expected = [(1, "E", 8), (2, "A", 6), (3, "F", 4.5), (4, "C", 4), (5, "G", 2.5),
                (6, "B", 2), (7, "D", 1), (8, "H", 0)]
    assert summary(rows, "points") == expected
    for row in rows:
        assert row["buchholz"] == float(Fraction(sixths[row["entrant"]], 6))
        assert row["median_buchholz"] == row["buchholz"]
        assert row["sonneborn_berger"] is None and row["wins"] is None
    f = next(r for r in rows if r["entrant"] == "F")
    assert [(r["round"], r["place"], r["points"], r["outcome"]) for r in f["results"]] == [
        (1, 2, 1.5, "place"), (2, 1, 3, "place")]
    assert f["results"][1]["opponents"] == ["C", "D", "H"]


def test_table_game_ties_share_places():
    # Scoring 3 / 1 / 0, two tables of three, two rounds:
    #   R1: X P Q -> 3 1 0;  Y R S -> 3 1 0.   R2: R S X -> 3 1 0;  P Q Y -> 3 1 0.
    # Points: P 4, R 4, X 3, Y 3, Q 1, S 1.
    # Buchholz (table-mates' average per round): P (3+1)/2 + (3+1)/2 = 4, R the same;
    # X (4+1)/2 + (4+1)/2 = 5, Y the same; Q (3+4)/2 + (3+4)/2 = 7, S the same.
    # Each pair ties on everything, so each shares its place.
    results = [
        {"round": 1, "table": 1, "entrants": ["X", "P", "Q"], "places": [1, 2, 3]},
        {"round": 1, "table": 2, "entrants": ["Y", "R", "S"], "places": [1, 2, 3]},
        {"round": 2, "table": 1, "entrants": ["X", "R", "S"], "places": [3, 1, 2]},
        {"round": 2, "table": 2, "entrants": ["Y", "P", "Q"], "places": [3, 1, 2]},
    ]
    rows = standings(["X", "Y", "P", "Q", "R", "S"], results, place_scoring([3, 1, 0]))
    assert summary(rows, "points", "buchholz") == [
        (1, "P", 4, 4), (1, "R", 4, 4), (3, "X", 3, 5), (3, "Y", 3, 5), (5, "Q", 1, 7),
        (5, "S", 1, 7)]
    with pytest.raises(ValueError, match="Sonneborn-Berger"):
        standings(["X"], [], place_scoring(), order=["sonneborn_berger"])


# ---------------------------------------------------------------------------
# CSV export.
# ---------------------------------------------------------------------------

def test_csv_refuses_a_table_of_three_under_match_scoring():
    with pytest.raises(ValueError, match="tables of two"):
        results_csv([{"round": 1, "table": 1, "entrants": ["A", "B", "E"],
                      "places": [2, 1, 1]}], match_scoring())


def test_csv_rows():
    text = results_csv(FIVE, match_scoring())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [
        ["round", "table", "outcome", "entrant 1", "score 1", "place 1", "points 1",
         "entrant 2", "score 2", "place 2", "points 2"],
        ["1", "1", "A beat B", "A", "250", "1", "2", "B", "120", "2", "0"],
        ["1", "2", "C drew with D", "C", "200", "1", "1", "D", "200", "1", "1"],
        ["1", "", "bye", "E", "", "", "2", "", "", "", ""],
        ["2", "1", "E beat C", "E", "300", "1", "2", "C", "180", "2", "0"],
        ["2", "2", "B beat D", "B", "260", "1", "2", "D", "90", "2", "0"],
        ["2", "", "bye", "A", "", "", "2", "", "", "", ""],
    ]


def test_csv_for_table_games():
    text = results_csv(TABLE_RESULTS + [bye(2, "I")], place_scoring([4, 2, 1, 0], bye=2))
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows[0]) == 3 + 4 * 4
    assert rows[1][:7] == ["1", "1", "A won", "A", "61", "1", "4"]
    assert rows[2][:3] == ["1", "2", "E won"]
    assert rows[2][7:15] == ["F", "51", "2", "1.5", "G", "51", "2", "1.5"]
    assert rows[4][:3] == ["2", "2", "C and F shared first"]
    assert rows[5][:7] == ["2", "", "bye", "I", "", "", "2"]


def test_csv_defuses_formulas():
    results = [match(1, 1, "=HYPERLINK(1)", "+Bob", "+Bob", [-5, 10])]
    rows = list(csv.reader(io.StringIO(results_csv(results, match_scoring()))))
    assert rows[1] == ["1", "1", "'+Bob beat =HYPERLINK(1)", "'=HYPERLINK(1)", "-5", "2", "0",
                       "'+Bob", "10", "1", "2"]


def test_csv_of_nothing_has_a_header():
    assert results_csv([], match_scoring()).splitlines() == [
        ("round,table,outcome,entrant 1,score 1,place 1,points 1,"
         "entrant 2,score 2,place 2,points 2")]


# ---------------------------------------------------------------------------
# Hypothesis properties.
# ---------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(places=st.lists(st.integers(1, 6), min_size=2, max_size=8),
       points=st.lists(st.integers(0, 10), max_size=8))
def test_a_table_hands_out_the_same_total_however_it_ties(places, points):
    names = [f"N{k}" for k in range(len(places))]
    got = result_points({"round": 1, "entrants": names, "places": places},
                        place_scoring(points))
    padded = points + [0] * len(places)
    assert Fraction(sum(Fraction(str(v)) for v in got.values())).limit_denominator(1000) == \
        sum(padded[:len(places)])
    # A better place never scores less when the points list falls.
    falling = sorted(points, reverse=True)
    got = result_points({"round": 1, "entrants": names, "places": places},
                        place_scoring(falling))
    for a, pa in zip(names, places, strict=True):
        for b, pb in zip(names, places, strict=True):
            if pa < pb:
                assert got[a] >= got[b]


@st.composite
def match_events(draw):
    n = draw(st.integers(2, 9))
    names = [f"M{k}" for k in range(n)]
    rounds = draw(st.integers(1, 5))
    results = []
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(names))
        for k in range(0, n - 1, 2):
            a, b = order[k], order[k + 1]
            results.append(match(rnd, k // 2 + 1, a, b,
                                 draw(st.sampled_from([a, b, None]))))
        if n % 2:
            results.append(bye(rnd, order[-1]))
    return names, results


@settings(max_examples=150, deadline=None)
@given(match_events())
def test_standings_properties(event):
    names, results = event
    rows = standings(names, results, match_scoring())
    json.dumps(rows)
    assert sorted(r["entrant"] for r in rows) == sorted(names)
    # Points are the results' points, and every win/draw/loss/bye is counted.
    total = sum(sum(result_points(r, match_scoring()).values()) for r in results)
    assert sum(r["points"] for r in rows) == total
    for row in rows:
        assert row["wins"] + row["draws"] + row["losses"] == row["played"]
    # Buchholz counts each entrant's points once per game played against it; a bye adds
    # nothing.
    points = {r["entrant"]: r["points"] for r in rows}
    assert sum(r["buchholz"] for r in rows) == pytest.approx(
        sum(points[r["entrant"]] * r["played"] for r in rows))
    # Ranks: 1 for the first row, shared exactly when everything compared is equal,
    # otherwise the row's position.
    key = [(r["points"], r["buchholz"], r["median_buchholz"], r["sonneborn_berger"])
           for r in rows]
    assert rows[0]["rank"] == 1
    for k in range(1, len(rows)):
        assert key[k] <= key[k - 1]
        assert rows[k]["rank"] == (rows[k - 1]["rank"] if key[k] == key[k - 1] else k + 1)
