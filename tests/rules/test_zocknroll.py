"""Zock'n'Roll (slug "zocknroll", RULES.md §1): hands, showdowns, final scoring and the sheet.

The hand checks compare the module with two definitions written here from RULES.md §1.4
and nowhere else: the count predicates of the §1.4 tables (P, T, M, M2), and a brute force
over every sub-multiset of the dice ("a hand is present if some subset of the dice forms
it"). Both are run over every multiset of 5 to 8 dice.
"""

import copy
import json
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial, prod

import pytest
from hypothesis import given, settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import GAME_MODULES, RuleError, Verdict, find_game
from companion.rules import zocknroll
from companion.rules.zocknroll import (
    RULES, best_hand, check_mark, dice_count, explain_hand, final_result, hands_present,
    row_label, row_points, rows, showdown,
)

GAME = find_game("zocknroll")
JORG = "Jörg"

# The contract's row keys, top to bottom (RULES-API.md, zocknroll).
BOARD_ROWS = {
    "beginner": "winner yahtzee four_kind large_straight full_house three_kind two_pair pair "
                "dropped_out".split(),
    "advanced": "winner royal_pairs yahtzee large_full_house highway double_trips four_kind "
                "large_straight three_pairs full_house three_kind short_straight two_pair "
                "dropped_out".split(),
}
HAND_ROWS = {board: keys[1:-1] for board, keys in BOARD_ROWS.items()}
# Points per check, RULES.md §1.4.1 / §1.4.2 (the Winner row is worth N).
POINTS = {
    "beginner": {"yahtzee": 12, "four_kind": 9, "large_straight": 6, "full_house": 5,
                 "three_kind": 4, "two_pair": 3, "pair": 2, "dropped_out": 1},
    "advanced": {"royal_pairs": 12, "yahtzee": 9, "large_full_house": 6, "highway": 6,
                 "double_trips": 6, "four_kind": 5, "large_straight": 5, "three_pairs": 4,
                 "full_house": 4, "three_kind": 3, "short_straight": 3, "two_pair": 2,
                 "dropped_out": 1},
}
# Dice a player holds: 2 own (beginner) or 3 own (advanced) + 3, 4, 5 white (§1.2).
DICE_RANGE = {"beginner": range(5, 8), "advanced": range(6, 9)}
FACES = range(1, 7)


def play(settings, seats, actions):
    """Fold apply over actions from a new game; return the final state."""
    state = GAME.new(settings, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def drop(player, rnd, dice, **extra):
    return {"kind": "drop", "player": player, "round": rnd, "dice": list(dice), **extra}


def show(hands):
    return {"kind": "showdown", "dice": {p: list(d) for p, d in hands.items()}}


def mark(player, row, rnd=None, dice=None):
    action = {"kind": "mark", "player": player, "row": row}
    if rnd is not None:
        action["round"] = rnd
    if dice is not None:
        action["dice"] = list(dice)
    return action


END_TURN = {"kind": "end_turn"}


def checks(sheet, player):
    """A player's non-zero checks."""
    return {row: n for row, n in sheet["marks"][player].items() if n}


# ---------------------------------------------------------------------------------------
# Independent hand definitions (RULES.md §1.4), written from the spec only.

def formula_rows(dice, board):
    """Rows present by the §1.4 table predicates (P, T, M, M2), top to bottom."""
    c = [sum(1 for d in dice if d == v) for v in FACES]
    m, m2 = sorted(c, reverse=True)[:2]
    p = sum(1 for x in c if x >= 2)
    t = sum(1 for x in c if x >= 3)
    faces = {v for v in FACES if c[v - 1]}
    present = {
        "royal_pairs": p >= 4,
        "yahtzee": m >= 5,
        "large_full_house": m >= 4 and m2 >= 2,
        "highway": faces == set(FACES),
        "double_trips": t >= 2,
        "four_kind": m >= 4,
        "large_straight": {1, 2, 3, 4, 5} <= faces or {2, 3, 4, 5, 6} <= faces,
        "three_pairs": p >= 3,
        "full_house": m >= 3 and m2 >= 2,
        "three_kind": m >= 3,
        "short_straight": any(set(range(a, a + 4)) <= faces for a in (1, 2, 3)),
        "two_pair": p >= 2,
        "pair": m >= 2,
    }
    return [row for row in HAND_ROWS[board] if present[row]]


# Each hand as the exact shape of the dice that form it: groups of equal dice on different
# faces (a four of a kind is one group of 4, never two pairs: Z-A4), or a run of faces.
GROUP_SHAPES = {"royal_pairs": (2, 2, 2, 2), "yahtzee": (5,), "large_full_house": (4, 2),
                "double_trips": (3, 3), "four_kind": (4,), "three_pairs": (2, 2, 2),
                "full_house": (3, 2), "three_kind": (3,), "two_pair": (2, 2), "pair": (2,)}
RUNS = {"highway": [(1, 2, 3, 4, 5, 6)],
        "large_straight": [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)],
        "short_straight": [(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)]}


@lru_cache(maxsize=None)
def forms(sub):
    """The hands a sorted tuple of dice forms exactly, as a whole."""
    shape = tuple(sorted(Counter(sub).values(), reverse=True))
    found = {row for row, sizes in GROUP_SHAPES.items() if shape == sizes}
    found |= {row for row, runs in RUNS.items() if sub in runs}
    return frozenset(found)


@lru_cache(maxsize=None)
def contained(dice):
    """Every hand some subset of the (sorted) dice forms."""
    c = Counter(dice)
    faces = sorted(c)
    found = set()
    for take in product(*(range(c[f] + 1) for f in faces)):
        found |= forms(tuple(f for f, k in zip(faces, take, strict=True) for _ in range(k)))
    return frozenset(found)


def brute_best(dice, board):
    present = contained(tuple(sorted(dice)))
    return next((row for row in HAND_ROWS[board] if row in present), None)


def all_multisets():
    for n in range(5, 9):
        yield from combinations_with_replacement(FACES, n)


def weight(dice):
    """How many of the 6**n ordered rolls give this multiset."""
    return factorial(len(dice)) // prod(factorial(k) for k in Counter(dice).values())


# ---------------------------------------------------------------------------------------
# Worked examples, RULES.md §1.6: hands.

HAND_EXAMPLES = [
    # example, board, dice, best row, points
    ("Z1", "advanced", [1, 1, 2, 2, 3, 3, 4, 4], "royal_pairs", 12),
    ("Z2", "advanced", [2, 2, 2, 2, 5, 5, 1, 3], "large_full_house", 6),
    ("Z3", "advanced", [1, 2, 3, 4, 5, 5, 5, 5], "four_kind", 5),
    ("Z4", "advanced", [1, 1, 1, 1, 1, 2, 2, 3], "yahtzee", 9),
    ("Z5", "advanced", [1, 1, 2, 4, 5, 6], None, None),
    ("Z6", "advanced", [2, 3, 4, 5, 1, 6], "highway", 6),
    ("Z7", "beginner", [4, 4, 4, 2, 2, 1], "full_house", 5),
    ("Z8", "beginner", [2, 2, 5, 5, 6, 6, 1], "two_pair", 3),
    ("Z16", "advanced", [6, 6, 6, 2, 2, 2, 1], "double_trips", 6),
    ("Z-A4", "advanced", [2, 2, 2, 2, 3, 3, 3, 3], "large_full_house", 6),
]


@pytest.mark.parametrize("board, dice, row, points", [c[1:] for c in HAND_EXAMPLES],
                         ids=[c[0] for c in HAND_EXAMPLES])
def test_worked_hands(board, dice, row, points):
    assert best_hand(dice, board) == row
    verdict = explain_hand(dice, board)
    assert isinstance(verdict, Verdict)
    assert verdict.ok is (row is not None)
    assert verdict.details["row"] == row and verdict.details["points"] == points
    assert verdict.rule in RULES
    if row is not None:
        assert row_points(board, row) == points
        assert Counter(verdict.details["dice_used"]) <= Counter(dice)


def test_z1_lower_hands_are_also_present():
    """Z1: Short Straight, Three Pairs and Two Pair are present too, but lower."""
    present = hands_present([1, 1, 2, 2, 3, 3, 4, 4], "advanced")
    assert present[0] == "royal_pairs"
    assert {"short_straight", "three_pairs", "two_pair"} <= set(present[1:])
    reason = explain_hand([1, 1, 2, 2, 3, 3, 4, 4], "advanced").reason
    assert "Royal Pairs" in reason and "Short Straight" in reason


@pytest.mark.parametrize("board, dice, used", [
    ("beginner", [4, 4, 4, 2, 2, 1], [4, 4, 4, 2, 2]),
    ("beginner", [2, 2, 5, 5, 6, 6, 1], [6, 6, 5, 5]),
    ("advanced", [2, 3, 4, 5, 1, 6], [1, 2, 3, 4, 5, 6]),
    ("advanced", [1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 5, 6]),
    ("beginner", [1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6]),
    ("advanced", [1, 2, 3, 4, 1, 6], [1, 2, 3, 4]),
    ("advanced", [2, 2, 2, 2, 5, 5, 1, 3], [2, 2, 2, 2, 5, 5]),
    ("beginner", [3, 3, 3, 3, 3, 3, 1], [3, 3, 3, 3, 3]),
])
def test_dice_used(board, dice, used):
    """The explanation names exactly the dice that make the hand."""
    assert explain_hand(dice, board).details["dice_used"] == used


# ---------------------------------------------------------------------------------------
# Every multiset of 5 to 8 dice.

def test_the_two_reference_definitions_agree():
    """The §1.4 count predicates and the subset definition say the same, for every multiset."""
    for dice in all_multisets():
        for board in ("beginner", "advanced"):
            assert formula_rows(dice, board) == [
                row for row in HAND_ROWS[board] if row in contained(dice)], dice


@pytest.mark.parametrize("board", ["beginner", "advanced"])
def test_best_hand_on_every_multiset(board):
    """best_hand, hands_present and explain_hand agree with the brute force for every
    multiset of the board's dice counts (§1.4: beginner 5–7, advanced 6–8 dice), and refuse
    the other counts."""
    checked = 0
    for dice in all_multisets():
        if len(dice) not in DICE_RANGE[board]:
            with pytest.raises(ValueError):
                best_hand(dice, board)
            continue
        expected = brute_best(dice, board)
        assert best_hand(list(dice), board) == expected, dice
        assert hands_present(dice, board) == formula_rows(dice, board), dice
        verdict = explain_hand(dice, board)
        assert verdict.details["row"] == expected
        used = verdict.details["dice_used"]
        if expected is None:
            assert not verdict.ok and used == []
        else:
            # The dice shown are the player's dice and form the hand on their own.
            assert Counter(used) <= Counter(dice)
            assert expected in forms(tuple(sorted(used))), (dice, used)
        checked += 1
    assert checked == {"beginner": 252 + 462 + 792, "advanced": 462 + 792 + 1287}[board]


def probabilities(n, board):
    """P(present) per row and P(best) per row, in percent, over all 6**n rolls."""
    present, best = Counter(), Counter()
    for dice in combinations_with_replacement(FACES, n):
        w = weight(dice)
        for row in formula_rows(dice, board):
            present[row] += w
        best[brute_best(dice, board)] += w
    return ({row: 100 * k / 6 ** n for row, k in present.items()},
            {row: 100 * k / 6 ** n for row, k in best.items()})


# RULES.md §1.4.1 and §1.4.2, "P(present)" columns.
PRESENT_TABLE = {
    "advanced": {6: {"royal_pairs": 0, "yahtzee": 0.40, "large_full_house": 0.96,
                     "highway": 1.54, "double_trips": 0.64, "four_kind": 5.22,
                     "large_straight": 9.26, "three_pairs": 3.86, "full_house": 17.04,
                     "three_kind": 36.73, "short_straight": 27.01, "two_pair": 55.62},
                 7: {"royal_pairs": 0, "yahtzee": 1.20, "large_full_house": 5.10,
                     "highway": 5.40, "double_trips": 3.38, "four_kind": 10.58,
                     "large_straight": 17.40, "three_pairs": 18.00, "full_house": 39.61,
                     "three_kind": 54.09, "short_straight": 38.41, "two_pair": 80.12},
                 8: {"royal_pairs": 2.25, "yahtzee": 2.77, "large_full_house": 13.92,
                     "highway": 11.40, "double_trips": 10.17, "four_kind": 18.33,
                     "large_straight": 26.41, "three_pairs": 41.76, "full_house": 63.93,
                     "three_kind": 70.74, "short_straight": 48.70, "two_pair": 93.18}},
    "beginner": {5: {"yahtzee": 0.08, "four_kind": 2.01, "large_straight": 3.09,
                     "full_house": 3.86, "three_kind": 21.30, "two_pair": 27.01,
                     "pair": 90.74},
                 6: {"yahtzee": 0.40, "four_kind": 5.22, "large_straight": 9.26,
                     "full_house": 17.04, "three_kind": 36.73, "two_pair": 55.62,
                     "pair": 98.46},
                 7: {"yahtzee": 1.20, "four_kind": 10.58, "large_straight": 17.40,
                     "full_house": 39.61, "three_kind": 54.09, "two_pair": 80.12,
                     "pair": 100}},
}


@pytest.mark.parametrize("board, n", [("advanced", 6), ("advanced", 7), ("advanced", 8),
                                      ("beginner", 5), ("beginner", 6), ("beginner", 7)])
def test_probability_tables(board, n):
    """§1.4.1/§1.4.2: the hand definitions reproduce the spec's P(present) columns."""
    present, _ = probabilities(n, board)
    for row, percent in PRESENT_TABLE[board][n].items():
        assert present.get(row, 0) == pytest.approx(percent, abs=0.006), row


def test_best_hand_distributions():
    """§1.4.3: the best-hand distributions of the round-3 showdown, and the sanity notes."""
    _, advanced = probabilities(8, "advanced")
    expected = {"three_pairs": 30.0, "full_house": 16.0, "large_straight": 14.0,
                "large_full_house": 12.6, "highway": 11.4, "double_trips": 8.0,
                "four_kind": 3.0, "yahtzee": 2.8, "royal_pairs": 2.25}
    for row, percent in expected.items():
        assert advanced[row] == pytest.approx(percent, abs=0.051), row
    # With 8 dice the best hand is always at least Three Pairs.
    assert set(advanced) == set(expected)
    _, beginner = probabilities(7, "beginner")
    expected = {"full_house": 34.5, "two_pair": 31.5, "large_straight": 17.4,
                "four_kind": 9.4, "three_kind": 6.0, "yahtzee": 1.2}
    for row, percent in expected.items():
        assert beginner[row] == pytest.approx(percent, abs=0.051), row
    assert "pair" not in beginner and None not in beginner    # Pair is never best with 7
    _, six = probabilities(6, "advanced")
    assert six[None] == pytest.approx(7.7, abs=0.051)         # no row at all, 6 dice


@pytest.mark.parametrize("dice, board, words", [
    ([1, 2, 3, 4], "beginner", "5 to 7 dice"),
    ([1, 2, 3, 4, 5, 6, 6, 6], "beginner", "not 8"),
    ([1, 2, 3, 4, 5], "advanced", "6 to 8 dice"),
    ([1, 2, 3, 4, 5, 6, 6, 6, 6], "advanced", "not 9"),
    ([1, 2, 3, 4, 7], "beginner", "not 7"),
    ([0, 2, 3, 4, 5], "beginner", "1 to 6"),
    ([1, 2, 3, 4, "5"], "beginner", "1 to 6"),
    ([1, 2, 3, 4, True], "beginner", "1 to 6"),
    ([1, 2, 3, 4, 5.0], "beginner", "1 to 6"),
    ("12345", "beginner", "list"),
    ({1: 2}, "beginner", "list"),
    ([1, 2, 3, 4, 5], "expert", "not a Zock'n'Roll board"),
])
def test_bad_dice_and_boards(dice, board, words):
    with pytest.raises(ValueError) as error:
        best_hand(dice, board)
    assert words in str(error.value)


def test_board_may_be_named_by_settings_or_state():
    state = GAME.new({"board": "advanced"}, ["Ann", "Bob", "Cy"])
    assert best_hand([1, 1, 2, 2, 3, 3, 4, 4], state) == "royal_pairs"
    assert best_hand([1, 1, 2, 2, 3, 3, 4], {"board": "beginner"}) == "two_pair"
    assert best_hand((1, 1, 2, 2, 3), " Beginner ") == "two_pair"


def test_rows_labels_points_and_dice_counts():
    assert rows("beginner") == BOARD_ROWS["beginner"]
    assert rows("advanced") == BOARD_ROWS["advanced"]
    for board, points in POINTS.items():
        for row, value in points.items():
            assert row_points(board, row) == value
        assert row_points(board, "winner") is None and row_points(board, "winner", 5) == 5
    assert row_label("advanced", "large_full_house") == "Large Full House"
    assert row_label("beginner", "dropped_out") == "Dropped Out First Round"
    with pytest.raises(ValueError):
        row_label("advanced", "pair")           # no Pair row on the advanced board
    with pytest.raises(ValueError):
        row_points("beginner", "highway")
    assert [dice_count("beginner", r) for r in (1, 2, 3)] == [5, 6, 7]
    assert [dice_count("advanced", r) for r in (1, 2, 3)] == [6, 7, 8]
    for bad in (0, 4, True, "1"):
        with pytest.raises(ValueError):
            dice_count("beginner", bad)


# ---------------------------------------------------------------------------------------
# The showdown function (ZNR-4, ZNR-5, Z-A3).

# Hands that meet in one showdown share the 5 white dice of the turn (else apply refuses
# them): the comments name the white dice and the own dice.
HIGHWAY8 = [1, 2, 3, 5, 5, 4, 6, 6]        # advanced: Highway (white 1 2 3 5 5, own 4 6 6)
TRIPS8 = [3, 3, 3, 5, 5, 5, 1, 2]          # advanced: Double Trips (white 1 2 3 5 5, own 3 3 5)
FOUR3 = [3, 3, 3, 3, 1, 2, 5, 6]           # advanced: Four of a Kind (3s; white 1 2 3 5 6)
FOUR6 = [6, 6, 6, 6, 1, 2, 3, 5]           # advanced: Four of a Kind (6s; white 1 2 3 5 6)
FULL8 = [2, 2, 2, 5, 5, 1, 4, 6]           # advanced: Full House (no 3, so no straight;
#                                            white 1 2 4 5 6, own 2 2 5)
FULL8B = [6, 6, 6, 1, 1, 2, 4, 5]          # advanced: Full House (white 1 2 4 5 6, own 1 6 6)
PAIRS8 = [1, 1, 4, 4, 6, 6, 2, 5]          # advanced: Three Pairs (white 1 2 4 5 6, own 1 4 6)
LS8 = [1, 2, 3, 4, 5, 5, 2, 1]             # advanced: Large Straight
FOUR7 = [6, 6, 6, 6, 1, 2, 3]              # beginner: Four of a Kind (white 1 2 3 6 6, own 6 6)
TWOPAIR7 = [2, 2, 5, 5, 6, 6, 1]           # beginner: Two Pair (Z8)
PAIRS7 = [5, 5, 1, 2, 3, 6, 6]             # beginner: Two Pair (white 1 2 3 6 6, own 5 5)
FULL7 = [4, 4, 4, 2, 2, 1, 6]              # beginner: Full House (white 1 2 2 4 6, own 4 4)


def test_showdown_dice_are_what_the_examples_need():
    for dice, row in [(HIGHWAY8, "highway"), (TRIPS8, "double_trips"), (FOUR3, "four_kind"),
                      (FOUR6, "four_kind"), (FULL8, "full_house"), (FULL8B, "full_house"),
                      (PAIRS8, "three_pairs"), (LS8, "large_straight")]:
        assert brute_best(dice, "advanced") == row
    for dice, row in [(FOUR7, "four_kind"), (TWOPAIR7, "two_pair"), (FULL7, "full_house"),
                      (PAIRS7, "two_pair")]:
        assert brute_best(dice, "beginner") == row


SHOWDOWNS = [
    # example, hands, board, equal_points, best, holders, winner
    ("Z9", {"A": HIGHWAY8, "B": TRIPS8}, "advanced", False, "highway", ["A"], "A"),
    ("Z9 equal points tie", {"A": HIGHWAY8, "B": TRIPS8}, "advanced", True, "highway",
     ["A", "B"], None),
    ("Z10", {"A": FOUR3, "B": FOUR6}, "advanced", False, "four_kind", ["A", "B"], None),
    ("Z11", {"Cara": FULL8, JORG: PAIRS8}, "advanced", False, "three_pairs", [JORG], JORG),
    ("Z11 equal points tie", {"Cara": FULL8, JORG: PAIRS8}, "advanced", True,
     "three_pairs", ["Cara", JORG], None),
    ("Z12", {"Cara": FULL8, JORG: FULL8B}, "advanced", False, "full_house",
     ["Cara", JORG], None),
    ("Z13", {"Dan": TWOPAIR7}, "beginner", False, "two_pair", ["Dan"], "Dan"),
    ("Z3 equal points", {"A": FOUR3, "B": LS8}, "advanced", False, "four_kind", ["A"], "A"),
    ("Z3 equal points tie", {"A": FOUR3, "B": LS8}, "advanced", True, "four_kind",
     ["A", "B"], None),
    ("three players", {"A": TWOPAIR7, "B": FOUR7, "C": FULL7}, "beginner", False,
     "four_kind", ["B"], "B"),
    ("rows instead of dice", {"A": "full_house", "B": "three_pairs", "C": None},
     "advanced", False, "three_pairs", ["B"], "B"),
    ("Z-A6 nobody", {}, "beginner", False, None, [], None),
    ("no hands at all", {"A": [1, 1, 2, 4, 5, 6]}, "advanced", False, None, [], None),
]


@pytest.mark.parametrize("hands, board, equal, best, holders, winner",
                         [c[1:] for c in SHOWDOWNS], ids=[c[0] for c in SHOWDOWNS])
def test_showdown(hands, board, equal, best, holders, winner):
    result = showdown(hands, board, equal_points=equal) if equal else showdown(hands, board)
    assert result == {"best": best, "holders": holders, "winner": winner}


def test_showdown_refuses_bad_input():
    with pytest.raises(ValueError):
        showdown([[1, 1, 2, 2, 3, 3, 4]], "beginner")
    with pytest.raises(ValueError):
        showdown({"A": "highway"}, "beginner")
    with pytest.raises(ValueError):
        showdown({"A": [1, 2, 3]}, "beginner")


# ---------------------------------------------------------------------------------------
# Final scoring (ZNR-9).

Z15 = {
    "Anna": {"winner": 2, "royal_pairs": 1, "highway": 1, "large_straight": 2,
             "three_pairs": 3, "full_house": 2, "two_pair": 1, "dropped_out": 6},
    "Ben": {"winner": 3, "yahtzee": 1, "large_full_house": 1, "double_trips": 2,
            "four_kind": 1, "three_pairs": 2, "three_kind": 2, "short_straight": 2},
}


def test_z15_tie_goes_to_more_winner_checks():
    assert final_result(Z15, "advanced", 4) == {"scores": {"Anna": 64, "Ben": 64},
                                                 "winners": ["Ben"]}


@pytest.mark.parametrize("marks, board, n, scores, winners", [
    ({"A": {"winner": 1, "pair": 2}, "B": {"yahtzee": 1}}, "beginner", 5,
     {"A": 9, "B": 12}, ["B"]),
    ({"A": {"winner": 1, "pair": 2}, "B": {"yahtzee": 1}}, "beginner", 8,
     {"A": 12, "B": 12}, ["A"]),
    ({"A": {"pair": 3}, "B": {"two_pair": 2}, "C": {}}, "beginner", 3,
     {"A": 6, "B": 6, "C": 0}, ["A", "B"]),                        # shared victory
    ({"A": {"winner": 1, "pair": 1}, "B": {"winner": 1, "pair": 1}}, "beginner", 3,
     {"A": 5, "B": 5}, ["A", "B"]),
    ({"A": {"dropped_out": 6}}, "advanced", 6, {"A": 6}, ["A"]),
    ({}, "advanced", 4, {}, []),
])
def test_final_result(marks, board, n, scores, winners):
    assert final_result(marks, board, n) == {"scores": scores, "winners": winners}


@pytest.mark.parametrize("marks, board, n", [
    ({"A": {"pair": 1}}, "advanced", 4),          # no Pair row on the advanced board
    ({"A": {"pair": -1}}, "beginner", 4),
    ({"A": {"pair": 8}}, "beginner", 4),          # 7 circles per row
    ({"A": {"pair": 1.0}}, "beginner", 4),
    ({"A": [1, 2]}, "beginner", 4),
    ([1, 2], "beginner", 4),
    ({"A": {"pair": 1}}, "beginner", 0),
    ({"A": {"pair": 1}}, "beginner", True),
])
def test_final_result_refuses_bad_marks(marks, board, n):
    with pytest.raises(ValueError):
        final_result(marks, board, n)


# ---------------------------------------------------------------------------------------
# Worked examples on the sheet.

FOUR = ["Ann", "Bob", "Cy", "Dan"]
THREE = ["Ann", "Bob", "Cara"]


def test_z5_no_hand_banks_only_the_dropped_out_check():
    sheet = GAME.summary(play({"board": "advanced"}, FOUR, [drop("Ann", 1, [1, 1, 2, 4, 5, 6])]))
    assert checks(sheet, "Ann") == {"dropped_out": 1}
    assert sheet["totals"]["Ann"] == 1


def test_z6_highway_and_dropped_out_bank_7():
    sheet = GAME.summary(play({"board": "advanced"}, FOUR, [drop("Ann", 1, [2, 3, 4, 5, 1, 6])]))
    assert checks(sheet, "Ann") == {"highway": 1, "dropped_out": 1}
    assert sheet["totals"]["Ann"] == 7
    assert [c["rule"] for c in sheet["turns"][0]["lines"][0]["checks"]] == ["ZNR-2", "ZNR-2"]


def test_z7_round_two_gives_no_dropped_out_check():
    state = play({}, FOUR, [drop("Ann", 2, [4, 4, 4, 2, 2, 1])])
    sheet = GAME.summary(state)
    assert checks(sheet, "Ann") == {"full_house": 1}
    assert sheet["totals"]["Ann"] == 5
    with pytest.raises(RuleError) as error:        # the Dropped-out row is refused in round 2
        GAME.apply(state, mark("Ann", "dropped_out", 2))
    assert error.value.rule == "ZNR-3"
    verdict = check_mark("beginner", 2, "dropped_out")
    assert not verdict and verdict.rule == "ZNR-3"


def test_z8_beginner_has_no_three_pairs_row():
    # White dice 1 5 6, then 6, then 2; Dan's own dice are 2 and 5.
    state = play({}, FOUR, [drop("Ann", 1, [5, 3, 1, 5, 6]), drop("Bob", 1, [2, 3, 1, 5, 6]),
                            drop("Cy", 2, [1, 2, 1, 5, 6, 6]),
                            show({"Dan": [2, 2, 5, 5, 6, 6, 1]})])
    sheet = GAME.summary(state)
    assert checks(sheet, "Dan") == {"two_pair": 1, "winner": 1}


@pytest.mark.parametrize("settings, ann, bob", [
    ({"board": "advanced"}, {"highway": 1, "winner": 1}, {}),
    ({"board": "advanced", "equal_points": "tie"}, {"highway": 1}, {"double_trips": 1}),
])
def test_z9_board_order_or_equal_points(settings, ann, bob):
    # White dice 1 2 5, then 5, then 3.
    state = play(settings, FOUR, [drop("Cy", 1, [1, 1, 2, 2, 5, 6]),
                                  drop("Dan", 2, [1, 1, 2, 2, 5, 5, 6]),
                                  show({"Ann": HIGHWAY8, "Bob": TRIPS8})])
    sheet = GAME.summary(state)
    assert checks(sheet, "Ann") == ann and checks(sheet, "Bob") == bob
    assert sheet["turns"][0]["ended_by"] == "showdown"
    assert sheet["turn"] == 2 and sheet["dealer"] == "Bob"


def test_z10_equal_hands_tie_and_nobody_wins():
    state = play({"board": "advanced"}, FOUR, [
        drop("Cy", 1, [1, 1, 2, 2, 5, 6]), drop("Dan", 1, [1, 1, 2, 2, 5, 6]),
        show({"Ann": FOUR3, "Bob": FOUR6})])
    sheet = GAME.summary(state)
    assert checks(sheet, "Ann") == {"four_kind": 1} == checks(sheet, "Bob")
    line = sheet["turns"][0]["lines"][-1]
    assert "Tie" in line["text"] and line["rule"] == "ZNR-4"


@pytest.mark.parametrize("example, jorg_dice, cara", [
    ("Z11", PAIRS8, {}),
    ("Z12", FULL8B, {"full_house": 1}),
])
def test_z11_z12_jorg(example, jorg_dice, cara):
    # White dice 1 2 5, then 6, then 4.
    state = play({"board": "advanced"}, THREE, [
        drop("Ann", 1, [1, 1, 2, 2, 5, 6]), drop("Bob", 2, [1, 1, 2, 2, 5, 6, 6]),
        show({"Cara": FULL8, JORG: jorg_dice})])
    sheet = GAME.summary(state)
    assert checks(sheet, "Cara") == cara
    assert sheet["winners"] == [] and JORG not in sheet["marks"]
    assert sheet["jorg"] is True and sheet["multiplier"] == 3
    assert sheet["turns"][0]["lines"][-1]["rule"] == "ZNR-6"


def test_z13_alone_in_round_three_wins_and_winner_is_worth_n():
    seats = ["Ann", "Bob", "Cy", "Dan", "Eve"]
    # White dice 1 4 4, then 2, then 6 (FULL7 is Dan's 4 4 with them).
    state = play({}, seats, [drop("Ann", 1, [3, 3, 1, 4, 4]), drop("Bob", 1, [3, 3, 1, 4, 4]),
                             drop("Cy", 2, [3, 3, 1, 4, 4, 2]), drop("Eve", 2, [3, 3, 1, 4, 4, 2]),
                             show({"Dan": FULL7})])
    sheet = GAME.summary(state)
    assert checks(sheet, "Dan") == {"full_house": 1, "winner": 1}
    assert sheet["totals"]["Dan"] == 5 + 5 and sheet["multiplier"] == 5
    assert sheet["rows"][0] == {"key": "winner", "label": "Winner of Third Round", "points": 5}


def kate_turn(last_show=True):
    """One beginner turn: Kate drops in round 1 with Two Pair, Ann in round 2, Bob and Cy
    stay; Bob wins the showdown with Four of a Kind. White dice 1 3 6, then 6, then 2."""
    actions = [drop("Kate", 1, KATE_DICE), drop("Ann", 2, [6, 3, 1, 3, 6, 6])]
    if last_show:
        actions.append(show({"Bob": FOUR7, "Cy": PAIRS7}))
    return actions


KATE_DICE = [1, 3, 1, 3, 6]       # Two Pair: own 1 3, white 1 3 6


KATE = ["Kate", "Ann", "Bob", "Cy"]


def test_z14_sixth_check_finishes_the_turn_then_the_game_ends():
    five = [a for _ in range(5) for a in kate_turn()]
    state = play({}, KATE, five)
    sheet = GAME.summary(state)
    assert sheet["marks"]["Kate"]["dropped_out"] == 5 and sheet["end"] is None
    state = GAME.apply(state, drop("Kate", 1, KATE_DICE))
    sheet = GAME.summary(state)
    assert checks(sheet, "Kate") == {"two_pair": 6, "dropped_out": 6}
    assert sheet["over"] is False and sheet["last_turn"] is True
    end = sheet["end"]
    assert (end["player"], end["row"], end["turn"], end["rule"]) == ("Kate", "two_pair", 6,
                                                                     "ZNR-8")
    assert [t["row"] for t in end["triggers"]] == ["two_pair", "dropped_out"]
    assert "turn 6 is the last" in end["text"]
    # The others finish rounds 2 and 3 of this turn.
    state = GAME.apply(state, drop("Ann", 2, [6, 3, 1, 3, 6, 6]))
    assert GAME.summary(state)["over"] is False
    state = GAME.apply(state, show({"Bob": FOUR7, "Cy": PAIRS7}))
    sheet = GAME.summary(state)
    assert sheet["over"] is True and sheet["last_turn"] is False
    assert sheet["totals"] == {"Kate": 6 * 3 + 6, "Ann": 6 * 5, "Bob": 6 * 9 + 6 * 4, "Cy": 0}
    assert sheet["winners"] == ["Bob"] and sheet["over_reason"]["rule"] == "ZNR-8"
    assert sheet["result"] == {"text": "Bob wins with 78.", "rule": "ZNR-9"}
    assert sheet["dealer"] is None and sheet["turn"] == 6 and sheet["turns_played"] == 6
    for action in (drop("Ann", 1, [1, 1, 2, 2, 3]), mark("Ann", "pair", 1), END_TURN,
                   show({}), {"kind": "nonsense"}):
        with pytest.raises(RuleError) as error:   # a mark after the game ended, and the rest
            GAME.apply(state, action)
        assert error.value.rule == "ZNR-8"
        assert "The game is over: Bob won." in str(error.value)


def test_z_a1_seventh_check_ends_with_the_house_rule():
    six = [a for _ in range(6) for a in kate_turn()]
    sheet = GAME.summary(play({"end_at": 7}, KATE, six))
    assert sheet["over"] is False and sheet["end"] is None
    assert sheet["marks"]["Kate"]["dropped_out"] == 6
    sheet = GAME.summary(play({"end_at": 7}, KATE, six + kate_turn()))
    assert sheet["over"] is True and sheet["marks"]["Kate"]["dropped_out"] == 7
    assert "7th check" in sheet["end"]["text"]


def test_z_a7_several_sixth_checks_in_one_turn():
    six = [a for _ in range(5) for a in kate_turn()] + kate_turn(last_show=False)
    sheet = GAME.summary(play({}, KATE, six))
    assert len(sheet["end"]["triggers"]) == 3       # Kate twice, Ann's Full House
    assert sheet["over"] is False
    assert GAME.summary(play({}, KATE, six + [show({"Bob": FOUR7, "Cy": PAIRS7})]))["over"]


def test_z15_tie_break_on_the_sheet():
    """Ann and Bob end level on points; Bob has more Winner checks and wins (ZNR-9)."""
    # White dice 1 2 3, then 2, then 6.
    turn = [drop("Cy", 1, [1, 2, 3, 5, 6]), drop("Dan", 1, [1, 2, 3, 5, 6]),  # no hand: 1
            drop("Ann", 2, [2, 2, 2, 2, 1, 3]),                               # Four: 9
            show({"Bob": [6, 6, 1, 2, 2, 3, 6]})]                             # Full: 5 + 4
    sheet = GAME.summary(play({}, FOUR, turn * 5))
    assert sheet["totals"] == {"Ann": 45, "Bob": 45, "Cy": 5, "Dan": 5}
    assert sheet["leaders"] == ["Bob"] and sheet["winners"] == [] and not sheet["over"]
    sheet = GAME.summary(play({}, FOUR, turn * 6))
    assert sheet["over"] and sheet["totals"] == {"Ann": 54, "Bob": 54, "Cy": 6, "Dan": 6}
    assert sheet["winners"] == ["Bob"] and sheet["tie_break"] is True
    assert sheet["result"] == {"text": "Bob wins with 54, tied with Ann but with more Winner "
                                       "of Third Round checks (6).", "rule": "ZNR-9"}
    assert len(sheet["end"]["triggers"]) == 5     # Cy, Dan, Ann's Four, Bob's two rows
    assert sheet["winners"] == final_result(sheet["marks"], "beginner", 4)["winners"]


def test_z16_paper_entry_hand_ok_dropped_out_refused():
    assert check_mark("advanced", 2, "double_trips", [6, 6, 6, 2, 2, 2, 1]).ok
    verdict = check_mark("advanced", 2, "dropped_out")
    assert not verdict and verdict.rule == "ZNR-3"
    state = play({"board": "advanced"}, FOUR,
                 [mark("Ann", "double_trips", 2, [6, 6, 6, 2, 2, 2, 1])])
    with pytest.raises(RuleError) as error:
        GAME.apply(state, mark("Ann", "dropped_out", 2))
    assert error.value.rule == "ZNR-3"
    assert checks(GAME.summary(state), "Ann") == {"double_trips": 1}


# ---------------------------------------------------------------------------------------
# check_mark (paper mode).

@pytest.mark.parametrize("board, rnd, row, dice, forced, ok, rule", [
    ("beginner", 1, "dropped_out", None, True, True, "ZNR-2"),
    ("beginner", 2, "dropped_out", None, True, False, "ZNR-3"),
    ("beginner", 3, "dropped_out", None, True, False, "ZNR-4"),
    ("beginner", 3, "winner", None, True, True, "ZNR-4"),
    ("beginner", 1, "winner", None, True, False, "ZNR-4"),
    ("advanced", 2, "winner", None, True, False, "ZNR-4"),
    ("beginner", 1, "pair", None, True, True, "ZNR-2"),
    ("beginner", 1, "pair", [5, 5, 3, 3, 1], True, False, "Z-A5"),
    ("beginner", 1, "pair", [5, 5, 3, 3, 1], False, True, "Z-A5"),
    ("beginner", 1, "two_pair", [5, 5, 3, 3, 1], True, True, "ZNR-2"),
    ("beginner", 1, "full_house", [5, 5, 3, 3, 1], False, False, "ZNR-2"),
    ("beginner", 1, "two_pair", [5, 5, 3, 3, 1, 1], True, False, "ZNR-2"),   # 6 dice
    ("beginner", 3, "pair", [2, 2, 5, 5, 6, 6, 1], False, False, "ZNR-4"),  # best forced
    ("advanced", 3, "three_pairs", PAIRS8, True, True, "ZNR-4"),
    ("advanced", 2, "double_trips", [6, 6, 6, 2, 2, 2, 1], True, True, "ZNR-3"),
])
def test_check_mark(board, rnd, row, dice, forced, ok, rule):
    verdict = check_mark(board, rnd, row, dice, best_forced=forced)
    assert (verdict.ok, verdict.rule) == (ok, rule)
    assert verdict.reason.endswith(".")


@pytest.mark.parametrize("args", [("beginner", 4, "pair"), ("beginner", 1, "highway"),
                                  ("advanced", 1, "pair"), ("beginner", 1, "pair", [9] * 5)])
def test_check_mark_bad_input(args):
    with pytest.raises(ValueError):
        check_mark(*args)


# ---------------------------------------------------------------------------------------
# Turns, dealer, drops and the sheet.

def test_new_sheet():
    sheet = GAME.summary(GAME.new({}, FOUR))
    assert sheet["board"] == "beginner" and sheet["settings"] == {
        "board": "beginner", "end_at": 6, "jorg_counts": False, "equal_points": "board",
        "best_forced": True}
    assert sheet["marks"] == {p: dict.fromkeys(BOARD_ROWS["beginner"], 0) for p in FOUR}
    assert sheet["totals"] == dict.fromkeys(FOUR, 0)
    assert (sheet["over"], sheet["winners"], sheet["leaders"]) == (False, [], [])
    assert (sheet["dealer"], sheet["turn"], sheet["turns_played"]) == ("Ann", 1, 0)
    assert sheet["dropped"] == {} and sheet["still_in"] == FOUR
    assert sheet["showdown_players"] == FOUR and sheet["jorg"] is False
    assert sheet["end"] is None and sheet["turns"] == [] and sheet["result"] is None
    assert [r["key"] for r in sheet["rows"]] == BOARD_ROWS["beginner"]
    assert sheet["end_rule"]["rule"] == "ZNR-8"
    assert set(sheet["rules"]) == set(RULES)
    three = GAME.summary(GAME.new({"board": "advanced", "jorg_counts": True}, THREE))
    assert three["showdown_players"] == THREE + [JORG] and three["multiplier"] == 4
    assert list(three["marks"]["Ann"]) == BOARD_ROWS["advanced"]


def test_dealer_passes_left_and_drops_are_tracked():
    # White dice 1 2 2, then 4, then 6 (FULL7 is Bob's and Dan's 4 4 with them).
    state = play({}, FOUR, [drop("Cy", 2, [1, 1, 2, 2, 3, 4]), drop("Ann", 1, [1, 1, 2, 2, 3])])
    sheet = GAME.summary(state)
    assert sheet["dropped"] == {"Cy": 2, "Ann": 1}
    assert sheet["still_in"] == ["Bob", "Dan"]
    assert sheet["checked"] == {"Cy": ["two_pair"], "Ann": ["two_pair", "dropped_out"]}
    assert sheet["turns"][0]["turn"] == 1 and sheet["turns"][0]["ended_by"] is None
    dealers = []
    for _ in range(5):
        dealers.append(GAME.summary(state)["dealer"])
        state = GAME.apply(state, show({p: FULL7 for p in GAME.summary(state)["still_in"]}))
    assert dealers == ["Ann", "Bob", "Cy", "Dan", "Ann"]
    sheet = GAME.summary(state)
    assert sheet["turn"] == 6 and sheet["dropped"] == {} and sheet["still_in"] == FOUR


def test_nobody_stays_z_a6():
    actions = [drop(p, 1, [1, 1, 2, 2, 3]) for p in FOUR] + [show({})]
    sheet = GAME.summary(play({}, FOUR, actions))
    assert sheet["turn"] == 2
    assert sheet["turns"][0]["lines"][-1]["rule"] == "Z-A6"
    three = [drop(p, 1, [1, 1, 2, 2, 3]) for p in THREE]
    for last in (show({}), show({JORG: FULL7})):          # Jörg alone: nothing happens
        sheet = GAME.summary(play({}, THREE, three + [last]))
        assert sheet["turn"] == 2 and sheet["totals"] == dict.fromkeys(THREE, 3 + 1)
        assert sheet["turns"][0]["lines"][-1]["rule"] == "Z-A6"


def test_drops_in_any_order_within_the_turn():
    # White dice 2 3 4, then 1: Ann own 1 3, Bob 4 4, Cy 1 5.
    a = [drop("Ann", 2, [1, 1, 2, 3, 3, 4]), drop("Bob", 1, [4, 4, 4, 2, 3]),
         drop("Cy", 1, [1, 2, 3, 4, 5])]
    b = [a[2], a[0], a[1]]
    assert GAME.summary(play({}, FOUR, a))["marks"] == GAME.summary(play({}, FOUR, b))["marks"]


def test_free_choice_of_row_z_a5():
    dice = [5, 5, 5, 3, 3]                       # Full House, also Three of a Kind...
    state = play({"best_forced": False}, FOUR, [drop("Ann", 1, dice, row="pair")])
    assert checks(GAME.summary(state), "Ann") == {"pair": 1, "dropped_out": 1}
    with pytest.raises(RuleError) as error:
        play({}, FOUR, [drop("Ann", 1, dice, row="pair")])
    assert error.value.rule == "Z-A5"
    state = play({}, FOUR, [drop("Ann", 1, dice, row="full_house")])   # naming the best: fine
    assert checks(GAME.summary(state), "Ann") == {"full_house": 1, "dropped_out": 1}


def test_jorg_names():
    with pytest.raises(ValueError) as error:
        GAME.new({}, ["Ann", "jörg", "Bob"])
    assert "Jörg" in str(error.value)
    GAME.new({}, ["Ann", "Jörg", "Bob", "Cy"])   # a real Jörg in a 4-player game is fine
    state = play({}, ["Ann", "Jörg", "Bob", "Cy"], [
        drop("Ann", 1, [1, 1, 2, 2, 3]), drop("Bob", 1, [1, 1, 2, 2, 3]),
        drop("Cy", 1, [1, 1, 2, 2, 3]), show({"Jörg": FULL7})])
    assert checks(GAME.summary(state), "Jörg") == {"full_house": 1, "winner": 1}
    # Jörg's key may come decomposed (o + combining diaeresis).
    state = play({}, THREE, [drop("Ann", 1, [1, 1, 2, 2, 3]), drop("Bob", 1, [1, 1, 2, 2, 3]),
                             show({"Cara": PAIRS7, "Jo\u0308rg": FOUR7})])
    assert checks(GAME.summary(state), "Cara") == {}


# ---------------------------------------------------------------------------------------
# Paper mode: tapping circles.

def test_paper_turns():
    actions = [
        mark("Ann", "dropped_out"), mark("Ann", "pair", 1),
        mark("Bob", "full_house", 2),
        mark("Cy", "four_kind", 3), mark("Cy", "winner"),
        END_TURN,
        mark("Ann", "two_pair", 3), mark("Dan", "two_pair", 3),    # a tie: no winner
        mark("Bob", "pair", 2), mark("Cy", "dropped_out", 1),
        END_TURN,
    ]
    sheet = GAME.summary(play({}, FOUR, actions))
    assert checks(sheet, "Ann") == {"dropped_out": 1, "pair": 1, "two_pair": 1}
    assert checks(sheet, "Bob") == {"full_house": 1, "pair": 1}
    assert checks(sheet, "Cy") == {"four_kind": 1, "winner": 1, "dropped_out": 1}
    assert checks(sheet, "Dan") == {"two_pair": 1}
    assert sheet["turn"] == 3 and sheet["dealer"] == "Cy"
    assert [t["ended_by"] for t in sheet["turns"]] == ["end_turn", "end_turn"]


def test_paper_with_jorg():
    # Jörg won round 3: the turn ends with nobody's round-3 check.
    sheet = GAME.summary(play({}, THREE, [mark("Ann", "pair", 1), END_TURN]))
    assert sheet["turn"] == 2
    # Cara tied with Jörg: a round-3 hand without Winner.
    sheet = GAME.summary(play({}, THREE, [mark("Cara", "pair", 3), END_TURN]))
    assert checks(sheet, "Cara") == {"pair": 1}


REFUSED = [
    # id, settings, seats, earlier actions, refused action, rule, words
    ("second drop, same round", {}, FOUR, [drop("Ann", 1, [1, 1, 2, 2, 3])],
     drop("Ann", 1, [1, 1, 2, 2, 3]), "ZNR-2", "already dropped out in round 1"),
    ("second drop, round 2", {}, FOUR, [drop("Ann", 1, [1, 1, 2, 2, 3])],
     drop("Ann", 2, [1, 1, 2, 2, 3, 3]), "ZNR-3", "at most once per turn"),
    ("drop after a round-2 drop", {}, FOUR, [drop("Ann", 2, [1, 1, 2, 2, 3, 3])],
     drop("Ann", 1, [1, 1, 2, 2, 3]), "ZNR-2", "already dropped out in round 2"),
    ("drop in round 3", {}, FOUR, [], drop("Ann", 3, FULL7), "ZNR-4", "showdown"),
    ("drop without a round", {}, FOUR, [], drop("Ann", None, [1, 1, 2, 2, 3]), "ZNR-2",
     "round 1 or round 2"),
    ("too few dice", {}, FOUR, [], drop("Ann", 1, [1, 1, 2, 2]), "ZNR-2", "5 to 7 dice"),
    ("wrong count for the round", {}, FOUR, [], drop("Ann", 1, [1, 1, 2, 2, 3, 3]), "ZNR-2",
     "has 5 dice (2 own and 3 white), not 6"),
    ("round 2 advanced count", {"board": "advanced"}, FOUR, [],
     drop("Ann", 2, [1, 1, 2, 2, 3, 3]), "ZNR-3", "has 7 dice (3 own and 4 white)"),
    ("a seven", {}, FOUR, [], drop("Ann", 1, [1, 1, 2, 2, 7]), "ZNR-2", "not 7"),
    ("unknown player", {}, FOUR, [], drop("Zed", 1, [1, 1, 2, 2, 3]), "ZNR-2",
     "'Zed' is not playing"),
    ("no player", {}, FOUR, [], drop(None, 1, [1, 1, 2, 2, 3]), "ZNR-2", "Name the player"),
    ("Jörg drops", {}, THREE, [], drop(JORG, 1, [1, 1, 2, 2, 3]), "ZNR-6", "never drops"),
    ("row not made", {"best_forced": False}, FOUR, [],
     drop("Ann", 1, [1, 1, 2, 2, 3], row="yahtzee"), "ZNR-2", "do not make Yahtzee!"),
    ("row not a hand", {"best_forced": False}, FOUR, [],
     drop("Ann", 1, [1, 1, 2, 2, 3], row="winner"), "ZNR-2", "not a hand"),
    ("not the best", {}, FOUR, [], drop("Ann", 2, [4, 4, 4, 2, 2, 1], row="pair"), "Z-A5",
     "best hand"),
    ("showdown misses a player", {}, FOUR, [drop("Ann", 1, [1, 1, 2, 2, 3])],
     show({"Bob": FULL7, "Cy": FULL7}), "ZNR-4", "Dan stayed in to round 3"),
    ("showdown misses everyone", {}, FOUR, [], show({}), "ZNR-4",
     "Ann, Bob, Cy and Dan stayed in"),
    ("showdown with a dropped player", {}, FOUR, [drop("Ann", 1, [1, 1, 2, 2, 3])],
     show({p: FULL7 for p in FOUR}), "ZNR-4", "Ann dropped out in round 1"),
    ("showdown with a stranger", {}, FOUR, [],
     show({"Zed": FULL7, **{p: FULL7 for p in FOUR}}), "ZNR-4", "'Zed' is not playing"),
    ("showdown: 6 dice", {}, FOUR, [], show({p: [1, 1, 2, 2, 3, 3] for p in FOUR}), "ZNR-4",
     "has 7 dice (2 own and 5 white), not 6"),
    ("showdown needs Jörg", {}, THREE, [], show({p: FULL7 for p in THREE}), "ZNR-6",
     "Jörg always stays"),
    ("no Jörg with 4", {}, FOUR, [], show({JORG: FULL7, **{p: FULL7 for p in FOUR}}),
     "ZNR-6", "exactly 3 players"),
    ("Jörg's dice", {}, THREE, [], show({JORG: [1], **{p: FULL7 for p in THREE}}), "ZNR-6",
     "Jörg's dice"),
    ("showdown not a dict", {}, FOUR, [], {"kind": "showdown", "dice": [FULL7]}, "ZNR-4",
     "by player"),
    ("showdown after paper round 3", {}, FOUR, [mark("Ann", "pair", 3)],
     show({p: FULL7 for p in FOUR}), "ZNR-4", "end the turn"),
    ("unknown kind", {}, FOUR, [], {"kind": "undo"}, "ZNR-1",
     "'undo' is not a Zock'n'Roll action"),
    ("not a dict", {}, FOUR, [], "drop", "ZNR-1", "not a Zock'n'Roll action"),
    # Paper mode.
    ("dropped out in round 2", {}, FOUR, [], mark("Ann", "dropped_out", 2), "ZNR-3",
     "Dropping out in round 2"),
    ("dropped out after a round-2 drop", {}, FOUR, [mark("Ann", "pair", 2)],
     mark("Ann", "dropped_out", 1), "ZNR-2", "already dropped out in round 2"),
    ("dropped out after a dice drop", {}, FOUR, [drop("Ann", 1, [1, 2, 3, 4, 6])],
     mark("Ann", "pair", 1), "ZNR-2", "already dropped out"),
    ("dropped out twice", {}, FOUR, [mark("Ann", "dropped_out")],
     mark("Ann", "dropped_out"), "ZNR-2", "already checked Dropped Out First Round"),
    ("two hands in one drop", {}, FOUR, [mark("Ann", "pair", 1)], mark("Ann", "two_pair", 1),
     "ZNR-2", "one hand"),
    ("drop after round-3 check", {}, FOUR, [mark("Ann", "pair", 3)],
     mark("Ann", "pair", 2), "ZNR-4", "stayed in to round 3"),
    ("drop after round-3 check (dice)", {}, FOUR, [mark("Ann", "pair", 3)],
     drop("Ann", 2, [1, 1, 2, 3, 4, 6]), "ZNR-4", "stayed in to round 3"),
    ("other drop after round-3 check", {}, FOUR, [mark("Ann", "pair", 3)],
     mark("Ann", "dropped_out"), "ZNR-4", "round-3 checks"),
    ("hand row without round", {}, FOUR, [], mark("Ann", "pair"), "ZNR-4", "Name the round"),
    ("row not on the board", {}, FOUR, [], mark("Ann", "highway", 1), "ZNR-1",
     "not a row of the beginner board"),
    ("winner in round 2", {}, FOUR, [], mark("Ann", "winner", 2), "ZNR-4", "only in round 3"),
    ("winner after dropping", {}, FOUR, [mark("Ann", "pair", 1)], mark("Ann", "winner"),
     "ZNR-4", "dropped out in round 1"),
    ("two winners", {}, FOUR, [mark("Ann", "winner")], mark("Bob", "winner"), "ZNR-4",
     "only one player"),
    ("winner on a tie", {}, FOUR, [mark("Ann", "pair", 3), mark("Bob", "pair", 3)],
     mark("Ann", "winner"), "ZNR-4", "Bob also checked"),
    ("hand after someone won", {}, FOUR, [mark("Ann", "winner")], mark("Bob", "pair", 3),
     "ZNR-4", "Ann won round 3 alone"),
    ("round 3 different rows", {}, FOUR, [mark("Ann", "pair", 3)],
     mark("Bob", "two_pair", 3), "ZNR-4", "only the best hand scores"),
    ("round 3 different points, tie rule", {"board": "advanced", "equal_points": "tie"}, FOUR,
     [mark("Ann", "highway", 3)], mark("Bob", "four_kind", 3), "Z-A3", "only the best hand"),
    ("two round-3 hands", {}, FOUR, [mark("Ann", "pair", 3)], mark("Ann", "two_pair", 3),
     "ZNR-4", "already checked Pair in round 3"),
    ("round-3 mark after dropping", {}, FOUR, [drop("Ann", 2, [1, 1, 2, 3, 4, 6])],
     mark("Ann", "pair", 3), "ZNR-4", "checks nothing in round 3"),
    ("mark with wrong dice", {}, FOUR, [], mark("Ann", "pair", 1, [1, 1, 2, 3, 4, 6]),
     "ZNR-2", "has 5 dice"),
    ("mark with a lower row", {}, FOUR, [], mark("Ann", "pair", 1, [1, 1, 2, 2, 3]),
     "Z-A5", "Two Pair, which is higher"),
    ("mark by Jörg", {}, THREE, [], mark(JORG, "pair", 3), "ZNR-6", "no board"),
    ("end turn: nobody checked round 3", {}, FOUR, [mark("Ann", "pair", 1)], END_TURN,
     "ZNR-4", "Bob, Cy and Dan stayed in to round 3"),
    ("end turn: lone holder without winner", {}, FOUR, [mark("Ann", "pair", 3)], END_TURN,
     "ZNR-4", "also checks Winner"),
    ("end turn: winner without a hand", {}, FOUR, [mark("Ann", "winner")], END_TURN,
     "ZNR-4", "no hand"),
    ("end turn: winner without a hand, 3 players", {}, THREE, [mark("Ann", "winner")],
     END_TURN, "ZNR-4", "no hand"),
]


@pytest.mark.parametrize("settings, seats, earlier, action, rule, words",
                         [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_actions(settings, seats, earlier, action, rule, words):
    state = play(settings, seats, earlier)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.rule == rule and rule in RULES
    assert words in str(error.value)
    assert str(error.value).endswith(".")
    assert state == before


# ---------------------------------------------------------------------------------------
# Settings and seats.

@pytest.mark.parametrize("settings, words", [
    ({"board": "expert"}, "Board must be one of"),
    ({"end_at": 5}, "between 6 and 7"),
    ({"end_at": 8}, "between 6 and 7"),
    ({"jorg_counts": "yes"}, "yes or no"),
    ({"equal_points": "points"}, "must be one of"),
    ({"best_forced": 1}, "yes or no"),
    ({"colour": "red"}, "'colour' is not a setting of Zock'n'Roll."),
    ("board=advanced", "dictionary"),
])
def test_bad_settings(settings, words):
    with pytest.raises(ValueError) as error:
        GAME.new(settings, FOUR)
    assert words in str(error.value)
    assert not isinstance(error.value, RuleError)


@pytest.mark.parametrize("seats, words", [
    (["Ann", "Bob"], "Zock'n'Roll is for 3 to 6 players, not 2."),
    ([f"P{i}" for i in range(7)], "not 7"),
    (["Ann", "Bob", "ann"], "appears twice"),
])
def test_bad_seats(seats, words):
    with pytest.raises(ValueError) as error:
        GAME.new({}, seats)
    assert words in str(error.value)


def test_game_object_and_forms():
    assert (GAME.slug, GAME.name) == ("zocknroll", "Zock'n'Roll")
    assert (GAME.min_players, GAME.max_players, GAME.teams) == (3, 6, False)
    assert "zocknroll" in GAME_MODULES and GAME_MODULES.index("zocknroll") >= 2
    parsed = GAME.parse_settings({"board": "advanced", "end_at": "7", "best_forced": "off"})
    assert parsed == {"board": "advanced", "end_at": 7, "jorg_counts": False,
                      "equal_points": "board", "best_forced": False}
    GAME.new(parsed, FOUR)
    described = {d["name"]: d for d in GAME.describe_settings(GAME.check_settings({}))}
    assert described["board"]["value"] == "Beginner (2 own dice)"
    assert described["end_at"] == {"name": "end_at", "label": "Check in one row that ends "
                                   "the game", "value": "6", "rule": "Z-A1"}
    assert all(rule in RULES for rule in ("ZNR-1", "ZNR-9", "Z-A1", "Z-A8"))
    for name in zocknroll.__all__:
        assert hasattr(zocknroll, name)


def test_foreign_state():
    with pytest.raises(ValueError):
        GAME.summary({"game": "rook"})
    with pytest.raises(ValueError):
        GAME.apply({"game": "rook"}, END_TURN)


def test_apply_is_pure_and_shares_nothing():
    state = play({}, FOUR, [drop("Ann", 1, [1, 1, 2, 2, 3])])
    before = copy.deepcopy(state)
    after = GAME.apply(state, drop("Bob", 2, [4, 4, 4, 2, 2, 1]))
    assert state == before
    after["log"][0]["dice"].append(6)
    after["seats"].append("Zed")
    after["settings"]["board"] = "advanced"
    assert state == before
    sheet = GAME.summary(state)
    sheet["marks"]["Ann"]["pair"] = 5
    sheet["turns"][0]["lines"][0]["checks"].clear()
    assert state == before and GAME.summary(state)["marks"]["Ann"]["pair"] == 0


# ---------------------------------------------------------------------------------------
# Properties over random games.

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@st.composite
def games(draw):
    """A game: settings, seats and a list of candidate actions — mostly legal turns (drops
    with dice, or taps on the board), now and then something the rules refuse. Dice are
    rolled like at the table: each turn has one set of 5 white dice (3, then 4, then 5 in
    play) and each hand is own dice plus them (as apply requires); now and then a hand is
    random."""
    board = draw(st.sampled_from(["beginner", "advanced"]))
    settings = {"board": board, "end_at": draw(st.sampled_from([6, 6, 7])),
                "jorg_counts": draw(st.booleans()),
                "equal_points": draw(st.sampled_from(["board", "tie"])),
                "best_forced": draw(st.booleans())}
    seats = NAMES[:draw(st.integers(3, 6))]
    own = 2 if board == "beginner" else 3
    white = []

    def dice(rnd):
        if draw(st.integers(0, 20)) == 0:        # noise: dice that may not share the white
            return draw(st.lists(st.integers(1, 6), min_size=own + 2 + rnd,
                                 max_size=own + 2 + rnd))
        return draw(st.lists(st.integers(1, 6), min_size=own, max_size=own)) + white[:2 + rnd]

    actions = []
    for _ in range(draw(st.integers(1, 16))):
        white[:] = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
        paper = draw(st.integers(0, 3)) == 0
        stayed = []
        for player in seats:
            choice = draw(st.sampled_from([1, 1, 2, 3]))
            if choice == 3:
                stayed.append(player)
            elif paper:
                row = draw(st.sampled_from(HAND_ROWS[board]))
                if choice == 1:
                    actions.append(mark(player, "dropped_out"))
                actions.append(mark(player, row, choice))
            else:
                actions.append(drop(player, choice, dice(choice)))
            if draw(st.integers(0, 15)) == 0:      # noise: a second drop, a bad mark...
                actions.append(draw(st.sampled_from([
                    drop(player, 2, dice(2)), mark(player, "dropped_out", 2),
                    mark(player, "winner", 1), {"kind": "drop"}, END_TURN])))
        if paper:
            holders = draw(st.lists(st.sampled_from(stayed), unique=True, max_size=2)) \
                if stayed else []
            row = draw(st.sampled_from(HAND_ROWS[board]))
            actions.extend(mark(p, row, 3) for p in holders)
            if len(holders) == 1 and draw(st.integers(0, 5)):
                actions.append(mark(holders[0], "winner"))
            actions.append(END_TURN)
        else:
            hands = {p: dice(3) for p in stayed}
            if len(seats) == 3 and (stayed or draw(st.booleans())):
                hands[JORG] = dice(3)
            actions.append(show(hands))
    return settings, seats, actions


def reference_checks(settings, seats, state, action):
    """The checks an accepted action adds, by the rules written here (independent oracle)."""
    board = settings["board"]
    added = Counter()
    kind = action["kind"]
    if kind == "drop":
        row = action.get("row") or brute_best(action["dice"], board)
        if row:
            added[(action["player"], row)] += 1
        if action["round"] == 1:
            added[(action["player"], "dropped_out")] += 1
    elif kind == "mark":
        added[(action["player"], action["row"])] += 1
    elif kind == "showdown":
        best = {p: brute_best(d, board) for p, d in action["dice"].items()}

        def strength(row):
            if settings["equal_points"] == "tie":
                return POINTS[board][row]
            return -HAND_ROWS[board].index(row)
        if best:
            top = max(strength(r) for r in best.values())
            holders = [p for p, r in best.items() if strength(r) == top]
            for p in holders:
                if p in seats and not (len(seats) == 3 and p == JORG):
                    added[(p, best[p])] += 1
            if len(holders) == 1 and holders[0] in seats and not (
                    len(seats) == 3 and holders[0] == JORG):
                added[(holders[0], "winner")] += 1
    return added


@pytest.mark.slow
@hyp_settings(max_examples=150, deadline=None)
@given(games())
def test_random_games_follow_the_rules(game):
    """For any sequence of actions: refused actions change nothing; marks only grow, by
    exactly what the rules give; totals are final_result's scores; the game ends after the
    turn in which a row reached the end check, and then refuses everything; the dealer
    passes left after every turn; state and sheet survive a JSON round trip."""
    settings, seats, actions = game
    state = GAME.new(settings, seats)
    board = settings["board"]
    multiplier = len(seats) + (1 if len(seats) == 3 and settings["jorg_counts"] else 0)
    sheet = GAME.summary(state)
    turns_ended = 0
    for action in actions:
        before = json.dumps(state, sort_keys=True)
        if sheet["over"]:
            with pytest.raises(RuleError) as error:
                GAME.apply(state, action)
            assert error.value.rule == "ZNR-8"
            assert json.dumps(state, sort_keys=True) == before
            continue
        try:
            new_state = GAME.apply(state, action)
        except RuleError as error:
            assert error.rule in RULES
            assert json.dumps(state, sort_keys=True) == before
            continue
        assert json.dumps(state, sort_keys=True) == before        # apply never mutates
        new_sheet = GAME.summary(new_state)
        added = reference_checks(settings, seats, state, action)
        for player in seats:
            for row in BOARD_ROWS[board]:
                grown = new_sheet["marks"][player][row] - sheet["marks"][player][row]
                assert grown == added[(player, row)] >= 0, (player, row, action)
                assert new_sheet["marks"][player][row] <= settings["end_at"]
        result = final_result(new_sheet["marks"], board, multiplier)
        assert new_sheet["totals"] == result["scores"]
        if action["kind"] in ("showdown", "end_turn"):
            turns_ended += 1
            reached = any(n >= settings["end_at"] for p in seats
                          for n in new_sheet["marks"][p].values())
            assert new_sheet["over"] is reached
        else:
            assert new_sheet["over"] is False
        assert new_sheet["turns_played"] == turns_ended
        if new_sheet["over"]:
            assert new_sheet["winners"] == result["winners"] != []
            assert new_sheet["dealer"] is None and new_sheet["result"]["rule"] == "ZNR-9"
        else:
            assert new_sheet["winners"] == []
            assert new_sheet["dealer"] == seats[turns_ended % len(seats)]
            assert new_sheet["turn"] == turns_ended + 1
        state, sheet = new_state, new_sheet
    assert json.loads(json.dumps(state)) == state
    assert json.loads(json.dumps(sheet)) == sheet
    assert GAME.summary(json.loads(json.dumps(state))) == sheet


@hyp_settings(max_examples=40, deadline=None)
@given(games())
def test_undo_is_folding_the_shorter_log(game):
    """Dropping the last accepted action (undo) brings back the sheet shown before it, and
    a state rebuilt from JSON folds to the same sheet."""
    settings, seats, actions = game
    state, kept, sheets = GAME.new(settings, seats), [], []
    sheets.append(GAME.summary(state))
    for action in actions:
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue
        kept.append(action)
        sheets.append(GAME.summary(state))
    if kept:
        assert GAME.summary(play(settings, seats, kept[:-1])) == sheets[-2]
    assert GAME.summary(play(settings, seats, kept)) == sheets[-1]
    rebuilt = json.loads(json.dumps(state, ensure_ascii=False))
    assert rebuilt == state and GAME.summary(rebuilt) == sheets[-1]
