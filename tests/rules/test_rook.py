"""Rook (slug "rook"): RULES.md §2 — bids, hand scores, tricks, discards, whole games.

Every worked example of RULES.md §2.6 (R1–R16) is a test below, named after its example.
The second pass (the last section): RK-7b, RK-1b, and the arguments players have at the
table (the auction, the discard, following suit), each case citing its rule and the seed.
"""

import copy
import json
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import RuleError, Verdict, find_game, rook
from companion.rules.rook import (
    RULES,
    VARIANTS,
    check_bid,
    check_bidding,
    check_discard,
    check_discard_counts,
    check_follow,
    count_points,
    hand_size,
    hand_total,
    resolve_settings,
    score_hand,
    trick_winner,
)

GAME = find_game("rook")
FOUR = ["Ann", "Bob", "Cid", "Dee"]          # A: Ann & Cid, B: Bob & Dee
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
BIDDER = {"A": "Ann", "B": "Bob"}


def hand(bidder, bid, a, b, **extra):
    return {"kind": "hand", "bidder": bidder, "bid": bid, "points": {"A": a, "B": b}, **extra}


def team_hand(team, bid, took, total=250, **extra):
    """A hand bid by ``team`` (its first player), which took ``took`` of ``total``."""
    points = {team: took, "B" if team == "A" else "A": total - took}
    return hand(BIDDER[team], bid, points["A"], points["B"], **extra)


def play(settings, seats, actions):
    state = GAME.new(settings, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


REDEAL = {"kind": "redeal"}

# Legal family hands reaching A 590, B 440 and A 580, B 520 without ending the game (R6, R7).
TO_590_440 = [team_hand("A", 150, 70), team_hand("A", 150, 150), team_hand("A", 150, 150),
              team_hand("A", 150, 190), team_hand("A", 150, 250)]
TO_580_520 = [team_hand("A", 150, 0), team_hand("A", 150, 150), team_hand("A", 150, 150),
              team_hand("A", 150, 180), team_hand("A", 150, 250)]
# Kentucky hands reaching A 260, B 235 (R10).
TO_260_235 = [team_hand("A", 70, 35, 120), team_hand("A", 70, 70, 120),
              team_hand("A", 70, 70, 120), team_hand("A", 70, 70, 120),
              team_hand("A", 70, 120, 120)]


# ---------------------------------------------------------------------------------------
# RULES.md §2.6, worked examples R1–R16.

SCORE_EXAMPLES = [
    # example, variant, bid, bidder points, other points, discard_ok, ok, made, bidder, other
    ("R1 family made", "family", 175, 180, 70, True, True, True, 180, 70),
    ("R2 family set", "family", 200, 195, 55, True, True, False, -200, 55),
    ("R3 exactly the bid is made", "family", 150, 150, 100, True, True, True, 150, 100),
    ("R4 240 is not 250", "family", 175, 180, 60, True, False, None, None, None),
    ("R8 bad discard, hand played", "family", 175, 180, 70, False, True, False, -175, 70),
    ("R9 Kentucky set", "kentucky", 85, 80, 40, True, True, False, -85, 40),
    ("R11 200 with last trick", "ones_200", 100, 110 + 20, 70, True, True, True, 130, 70),
    ("R12 140 game", "game_140", 100, 100, 40, True, True, True, 100, 40),
]


@pytest.mark.parametrize("variant, bid, mine, theirs, discard_ok, ok, made, bidder, other",
                         [case[1:] for case in SCORE_EXAMPLES],
                         ids=[case[0] for case in SCORE_EXAMPLES])
def test_worked_scores(variant, bid, mine, theirs, discard_ok, ok, made, bidder, other):
    verdict = score_hand(variant, bid, mine, theirs, discard_ok=discard_ok)
    assert isinstance(verdict, Verdict)
    assert verdict.ok is ok
    assert verdict.rule in RULES
    assert (verdict.details["made"], verdict.details["bidder"], verdict.details["other"]) \
        == (made, bidder, other)


def test_r1_r3_verdict_rules_and_words():
    """R1/R3: made is RK-8, exactly the bid is R-A4; R2 set is RK-8; R4 recount is RK-7."""
    assert score_hand("family", 175, 180, 70).rule == "RK-8"
    exact = score_hand("family", 150, 150, 100)
    assert exact.rule == "R-A4" and exact.details["rules"] == {"bidder": "R-A4",
                                                               "other": "RK-8"}
    assert score_hand("family", 200, 195, 55).reason.startswith("Set:")
    r4 = score_hand("family", 175, 180, 60)
    assert r4.rule == "RK-7" and not r4
    assert r4.reason == "The points add up to 240, but a hand has 250: please recount."
    assert score_hand("family", 175, 180, 70, discard_ok=False).rule == "R-A2"


def test_r4_refused_on_the_sheet():
    """R4: the sheet refuses 180 + 60 with RK-7 and keeps nothing."""
    state = GAME.new({}, FOUR)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, hand("Ann", 175, 180, 60))
    assert error.value.rule == "RK-7"
    assert "recount" in str(error.value)


@pytest.mark.parametrize("bid, ok, words", [
    (155, False, "not a raise"),       # not higher than 160
    (152, False, "steps of 5"),        # off the grid (and not higher either)
    (255, False, "too high"),          # above 250
    (165, True, "legal"),
    (250, True, "legal"),
])
def test_r5_bid_sequence(bid, ok, words):
    """R5: after 150 and 160, 155 / 152 / 255 are illegal."""
    assert check_bid("family", 150)
    assert check_bid("family", 160, current=150)
    verdict = check_bid("family", bid, current=160)
    assert verdict.ok is ok and verdict.rule == "RK-4"
    assert words in verdict.reason


def test_r6_both_over_bidder_goes():
    """R6: A 590, B 440; B bids 160, takes 165, A takes 85 → both over 600, B (bidder) wins."""
    before = GAME.summary(play({}, FOUR, TO_590_440))
    assert before["totals"] == {"A": 590, "B": 440} and not before["over"]
    sheet = GAME.summary(play({}, FOUR, TO_590_440 + [hand("Bob", 160, 85, 165)]))
    assert sheet["totals"] == {"A": 675, "B": 605}
    assert sheet["over"] and sheet["winners"] == ["B"]
    assert sheet["over_reason"]["rule"] == "RK-9"
    assert "bidder goes" in sheet["over_reason"]["text"]
    assert "600" in sheet["over_reason"]["text"]


def test_r7_bidder_set_other_team_wins():
    """R7: A 580, B 520; B bids 170, takes 160 → set to 350; A takes 90 → 670 wins."""
    before = GAME.summary(play({}, FOUR, TO_580_520))
    assert before["totals"] == {"A": 580, "B": 520} and not before["over"]
    sheet = GAME.summary(play({}, FOUR, TO_580_520 + [hand("Bob", 170, 90, 160)]))
    assert sheet["totals"] == {"A": 670, "B": 350}
    assert sheet["winners"] == ["A"] and sheet["over_reason"]["rule"] == "RK-9"
    assert sheet["hands"][-1]["made"] is False


def test_r8_trump_in_the_discard_is_an_automatic_set():
    """R8: 4-handed family, 12 trump held, 6 discarded including a trump → automatic set;
    the hand is then scored bidders −bid, the others keep what they took (R-A2)."""
    verdict = check_discard("family", ["5B", "6B", "7B", "8G", "9G", "6R"], "R", 12)
    assert not verdict and verdict.rule == "RK-5"
    assert verdict.details["automatic_set"] is True
    assert verdict.details["hand_size"] == 19 and verdict.details["forced"] == 0
    sheet = GAME.summary(play({}, FOUR, [hand("Ann", 175, 180, 70, discard_ok=False)]))
    assert sheet["totals"] == {"A": -175, "B": 70}
    assert sheet["hands"][0]["rules"] == {"A": "R-A2", "B": "R-A2"}


def test_r9_kentucky_set_on_the_sheet():
    """R9: Kentucky, A bids 85, takes 80 of 120 → A −85, B +40."""
    sheet = GAME.summary(play({"variant": "kentucky"}, FOUR, [hand("Cid", 85, 80, 40)]))
    assert sheet["totals"] == {"A": -85, "B": 40}


def test_r10_kentucky_both_over_higher_total_wins():
    """R10: Kentucky, a hand leaves A 310, B 305 → A wins (higher total), though B bid."""
    actions = TO_260_235 + [hand("Bob", 70, 50, 70)]
    sheet = GAME.summary(play({"variant": "kentucky"}, FOUR, actions))
    assert sheet["totals"] == {"A": 310, "B": 305}
    assert sheet["winners"] == ["A"]
    assert "higher total" in sheet["over_reason"]["text"]
    # The same hands under "bidder goes" give the game to B.
    goes = play({"variant": "kentucky", "both_over": "bidder_goes"}, FOUR, actions)
    assert GAME.summary(goes)["winners"] == ["B"]


def test_r11_counters_plus_last_trick_make_200():
    """R11: 1s high + last trick: 110 + 20 = 130 against 70, sum 200."""
    assert hand_total("ones_200") == 200
    a_cards = ["1R", "1G", "1B", "14R", "14G", "10R", "10G", "5R", "ROOK"]   # 45+20+20+5+20
    assert count_points(a_cards, "ones_200") == 110
    assert count_points(a_cards, "ones_200", last_trick=True) == 130
    assert score_hand("ones_200", 120, 130, 70)


def test_r12_the_140_game():
    """R12: 5s 10 + 10s 20 + 14s 30 + Rook 20 = 80, + last trick 20 = 100; B 40; sum 140.
    The Rook's 10½ is a rank: as points the total would not be a whole 140."""
    a_cards = ["5R", "5G", "10R", "10G", "14R", "14G", "14B", "ROOK"]
    assert count_points(a_cards, "game_140") == 80
    assert count_points(a_cards, "game_140", last_trick=True) == 100
    assert count_points(["5B", "5Y", "10B", "10Y", "14Y"], "game_140") == 40
    assert hand_total("game_140") == 140 == 20 + 40 + 40 + 20 + 20
    assert score_hand("game_140", 100, 100, 40)
    assert not score_hand("game_140", 100, 100, 30)   # 130 (or 130.5) is not 140
    assert resolve_settings("game_140")["rook_rank"] == "ten_half"


TRICK_EXAMPLES = [
    # example, variant, cards, trump, winner index, rule
    ("R13 family: Rook is the lowest trump", "family", ["14G", "5R", "ROOK", "10G"], "R",
     1, "RK-6"),
    ("R14 Kentucky: Rook is the highest trump", "kentucky", ["14G", "5R", "ROOK", "10G"], "R",
     2, "RK-6"),
    ("R15 10½: Rook beats the 10", "game_140", ["9R", "ROOK", "10R"], "R", 1, "R-A1"),
    ("R15 10½: an 11 beats the Rook", "game_140", ["9R", "ROOK", "10R", "11R"], "R", 3,
     "RK-6"),
    ("R16 double deck: first of two green 14s", "family", ["9G", "14G", "12G", "14G"], "R",
     1, "R-A6"),
]


@pytest.mark.parametrize("variant, cards, trump, winner, rule",
                         [case[1:] for case in TRICK_EXAMPLES],
                         ids=[case[0] for case in TRICK_EXAMPLES])
def test_worked_tricks(variant, cards, trump, winner, rule):
    verdict = trick_winner(cards, trump, variant)
    assert verdict.ok
    assert verdict.details["winner"] == winner
    assert verdict.details["card"] == cards[winner]
    assert verdict.rule == rule
    assert verdict.reason.endswith(".")


def test_r13_reason_names_the_lowest_trump():
    verdict = trick_winner("14G 5R ROOK 10G", "red", "family")
    assert verdict.reason == ("The 5 Red wins: it is the highest trump played "
                              "(Red is trump; the Rook bird is the lowest trump).")
    assert verdict.details["trumped"] is True and verdict.details["led"] == "G"


# ---------------------------------------------------------------------------------------
# Bids.

@pytest.mark.parametrize("variant, bid, current, ok, lowest", [
    ("family", 150, None, True, 150),
    ("family", 145, None, False, 150),
    ("family", 250, 245, True, 250),
    ("family", 250, 250, False, None),        # nobody can bid above 250
    ("family", 160, 152, True, 155),          # an off-grid current bid: next grid point
    ("kentucky", 70, None, True, 70),
    ("kentucky", 125, None, False, 70),
    ("kentucky", 72, None, False, 70),
    ("ones_180", 95, None, False, 100),
    ("ones_180", 180, None, True, 100),
    ("ones_200", 200, 195, True, 200),
    ("game_140", 140, None, True, 70),
    ({"variant": "family", "bid_step": 10}, 155, None, False, 150),
    ({"variant": "family", "bid_step": 10}, 160, 150, True, 160),
    ({"variant": "kentucky", "min_bid": 80, "max_bid": 100}, 105, None, False, 80),
    ({"min_bid": 100, "bid_step": 25}, 125, 100, True, 125),
])
def test_check_bid(variant, bid, current, ok, lowest):
    verdict = check_bid(variant, bid, current)
    assert verdict.ok is ok and verdict.rule == "RK-4"
    assert verdict.details["lowest"] == lowest


@pytest.mark.parametrize("bid", ["150", 150.0, True, None, [150]])
def test_check_bid_needs_a_whole_number(bid):
    verdict = check_bid("family", bid)
    assert not verdict and "whole number" in verdict.reason


def test_check_bid_accepts_a_game_state_and_flags_a_declared_moon():
    state = GAME.new({"variant": "kentucky", "moon": "declared"}, FOUR)
    assert check_bid(state, 120).details["moon"] is True
    assert check_bid(state, 120).rule == "R-A5"
    assert check_bid(state, 115).details["moon"] is False
    assert check_bid("kentucky", 120).details["moon"] is False


def test_check_bid_bad_current_is_a_value_error():
    with pytest.raises(ValueError):
        check_bid("family", 160, current="150")


# ---------------------------------------------------------------------------------------
# Hand scores: variants as dicts, bad discards, the moon.

def test_score_hand_takes_overrides():
    # Family with the Rooks at 20: 240 a hand, so the highest bid follows.
    assert hand_total({"rook_points": 20}) == 240
    assert resolve_settings({"rook_points": 20})["max_bid"] == 240
    assert score_hand({"rook_points": 20}, 150, 200, 40)
    assert not score_hand({"rook_points": 20}, 150, 200, 50)
    # "200 with 1 = 20" (davidrwilliams): 1s high, 1 = 20, no bonus.
    assert hand_total({"variant": "ones_180", "one_points": 20}) == 200


def test_bad_discard_caught_before_play():
    """R-A2: caught before play: bidders −bid, the others 0; no points needed."""
    verdict = score_hand("family", 175, None, None, discard_ok=False, played=False)
    assert verdict.ok and verdict.rule == "R-A2"
    assert (verdict.details["bidder"], verdict.details["other"]) == (-175, 0)
    sheet = GAME.summary(play({}, FOUR, [{"kind": "hand", "bidder": "Bob", "bid": 175,
                                          "discard_ok": False, "played": False}]))
    assert sheet["totals"] == {"A": 0, "B": -175}
    assert sheet["hands"][0]["points"] is None
    assert not score_hand("family", 175, None, None, discard_ok=True, played=False)
    assert not score_hand("family", 175, 180, 70, discard_ok=False, played=False)
    assert score_hand("family", 175, 0, 0, discard_ok=False, played=False)


@pytest.mark.parametrize("moon, bid, mine, theirs, made, bidder, other, moon_detail", [
    ("off", 200, 250, 0, True, 250, 0, None),
    ("double", 200, 250, 0, True, 500, 0, "double"),
    ("double", 200, 245, 5, True, 245, 5, None),
    ("double", 250, 240, 10, False, -250, 10, None),
    ("declared", 250, 250, 0, True, 250, 0, "made"),
    ("declared", 250, 245, 5, False, -250, 5, "missed"),
    ("declared", 200, 250, 0, True, 250, 0, None),      # not a declared moon
])
def test_moon_scores(moon, bid, mine, theirs, made, bidder, other, moon_detail):
    """R-A5: off by default; "double" doubles a hand of every point; "declared" = bid 250."""
    verdict = score_hand({"moon": moon}, bid, mine, theirs)
    assert verdict.ok
    d = verdict.details
    assert (d["made"], d["bidder"], d["other"], d["moon"]) == (made, bidder, other,
                                                             moon_detail)


@pytest.mark.parametrize("moon_hand, winner, total_a", [
    (hand("Ann", 250, 250, 0), "A", 250),
    (hand("Ann", 250, 240, 10), "B", -250),
    (hand("Ann", 250, 250, 0, discard_ok=False), "B", -250),
])
def test_declared_moon_ends_the_game(moon_hand, winner, total_a):
    sheet = GAME.summary(play({"moon": "declared"}, FOUR, [moon_hand]))
    assert sheet["over"] and sheet["winners"] == [winner]
    assert sheet["totals"]["A"] == total_a
    assert sheet["over_reason"]["rule"] == "R-A5"
    assert "R-A5" in sheet["end_rule"]["rules"]
    with pytest.raises(RuleError) as error:
        GAME.apply(play({"moon": "declared"}, FOUR, [moon_hand]), hand("Bob", 150, 0, 250))
    assert error.value.rule == "R-A5"


@pytest.mark.parametrize("args, words", [
    ((150, 200, -10), "0 or more"),
    ((150, 200.0, 50), "whole numbers"),
    ((150, True, 249), "whole numbers"),
    ((150, "200", 50), "whole numbers"),
    ((153, 200, 50), "steps of 5"),
])
def test_score_hand_refusals(args, words):
    verdict = score_hand("family", *args)
    assert not verdict and words in verdict.reason
    assert verdict.details["made"] is None and verdict.details["bidder"] is None


def test_score_hand_needs_yes_or_no_for_the_discard():
    assert not score_hand("family", 150, 200, 50, discard_ok="no")


# ---------------------------------------------------------------------------------------
# Tricks (§2.4).

@pytest.mark.parametrize("variant, trump, order", [
    ("family", "R", ["14R", "13R", "12R", "11R", "10R", "9R", "8R", "7R", "6R", "5R", "4R",
                     "ROOK"]),
    ("kentucky", "G", ["ROOK", "14G", "13G", "12G", "11G", "10G", "9G", "8G", "7G", "6G",
                       "5G"]),
    ("ones_180", "B", ["ROOK", "1B", "14B", "13B", "12B", "11B", "10B", "9B", "8B", "7B",
                       "6B", "5B"]),
    ("game_140", "Y", ["14Y", "13Y", "12Y", "11Y", "ROOK", "10Y", "9Y", "8Y", "7Y", "6Y",
                       "5Y"]),
])
def test_trump_order(variant, trump, order):
    """§2.4: every adjacent pair of trumps, played in either order, goes to the higher."""
    assert trick_winner([order[0]], trump, variant).details["trump_order"] == order
    for high, low in pairwise(order):
        assert trick_winner([low, high], trump, variant).details["winner"] == 1
        assert trick_winner([high, low], trump, variant).details["winner"] == 0


@pytest.mark.parametrize("variant, cards, trump, winner", [
    ("family", "5G 14B 13Y 6G", "R", 3),          # off colours never win
    ("family", "5G 14B 4R 6G", "R", 2),           # 6-handed 4 of trump still trumps
    ("family", "ROOK 14G 5R", "R", 2),            # Rook led: trump led, 5R beats it
    ("family", "ROOK 14G 13G", "R", 0),           # Rook led, nobody trumped over it
    ("family", "ROOK ROOK", "R", 0),              # two Rooks: first played (R-A6)
    ("kentucky", "ROOK 14R", "R", 0),
    ("ones_180", "14G 1G 5R", "R", 2),
    ("ones_180", "14G 1G 13G", "R", 1),           # the 1 is above the 14
    ("kentucky", "9Y 10Y 14Y 11Y", "b", 2),
    ({"identical": "last"}, "9G 14G 12G 14G", "R", 3),
    ({"identical": "last"}, "ROOK 5G ROOK", "R", 2),
])
def test_more_tricks(variant, cards, trump, winner):
    assert trick_winner(cards, trump, variant).details["winner"] == winner


@pytest.mark.parametrize("variant, cards, words", [
    ("family", ["1R", "5R"], "There is no 1 Red in this deck"),
    ("family", ["3G"], "no 3 Green"),
    ("kentucky", ["4G", "5G"], "no 4 Green"),
    ("kentucky", ["1G"], "no 1 Green"),
    ("kentucky", ["14G", "14G"], "only one 14 Green"),
    ("kentucky", ["ROOK", "ROOK"], "only one Rook bird"),
    ("family", ["14G", "14G", "14G"], "only two 14 Green"),
    ("family", [], "Enter the cards"),
    ("family", ["5G"] * 2 + ["6G"] * 2 + ["7G"] * 2 + ["8G"], "at most 6 cards"),
])
def test_trick_refusals(variant, cards, words):
    verdict = trick_winner(cards, "R", variant)
    assert not verdict and words in verdict.reason
    assert verdict.details["winner"] is None


@pytest.mark.parametrize("cards, trump, words", [
    (["15R"], "R", "'15R' is not a card"),
    (["R14"], "R", "'R14' is not a card"),
    (["14R"], "P", "not a Rook colour"),
    (["14R"], None, "not a Rook colour"),
])
def test_trick_notation_errors(cards, trump, words):
    with pytest.raises(ValueError) as error:
        trick_winner(cards, trump, "family")
    assert words in str(error.value)


# ---------------------------------------------------------------------------------------
# The discard (RK-5, R-A3).

@pytest.mark.parametrize("variant, discard, trump, held, players, ok, rule", [
    ("family", "5B 6B 7B 8G 9G 6G", "R", 12, 4, True, "RK-5"),
    ("family", "5B 6B 7B 8G 9G", "R", 12, 4, False, "RK-5"),          # 5 cards, not 6
    ("family", "5B 6B 7B 8G 9G 6G 7G", "R", 12, 4, False, "RK-5"),    # 7 cards
    ("family", "5B 6B 7B 8G 9G ROOK", "R", 12, 4, False, "RK-5"),     # a Rook is trump
    ("family", "5B 6B 7B 8G 5R 6R", "R", 21, 4, True, "R-A3"),        # 21 > 19: 2 must go
    ("family", "5B 6B 7B 5R 6R 7R", "R", 21, 4, False, "R-A3"),       # 3 is one too many
    ("family", "5B 6B 7B 8G 9G 6R", "R", 14, 6, True, "R-A3"),        # 14 > 13 (6-handed)
    ("family", "5B 6B 7B 8G 9G 6R", "R", 13, 6, False, "RK-5"),
    ("kentucky", "5B 6B 7B 8G 9R", "R", 4, 4, True, "RK-5"),          # allowed here
    ("kentucky", "5B 6B 7B 8G 9G 10G", "R", 4, 4, False, "RK-5"),     # 6 is not 5
    ({"variant": "kentucky", "trump_discard": False}, "5B 6B 7B 8G 9R", "R", 4, 4, False,
     "RK-5"),
])
def test_check_discard(variant, discard, trump, held, players, ok, rule):
    verdict = check_discard(variant, discard, trump, held, players)
    assert verdict.ok is ok and verdict.rule == rule
    assert verdict.details["automatic_set"] is (not ok)


@pytest.mark.parametrize("variant, players, size", [
    ("family", 4, 19), ("family", 6, 13), ("kentucky", 4, 9), ("ones_180", 4, 10),
    ("game_140", 4, 9),
])
def test_hand_sizes(variant, players, size):
    nest = resolve_settings(variant)["nest"]
    discard = ["5B", "6B", "7B", "8B", "9B", "11B"][:nest]
    assert check_discard(variant, discard, "R", 0, players).details["hand_size"] == size


def test_check_discard_input_errors():
    with pytest.raises(ValueError):
        check_discard("family", "5R 6R 7B 8B 9B 10B", "R", 1)   # 2 trump discarded, 1 held
    with pytest.raises(ValueError):
        check_discard("family", "5B 6B 7B 8B 9B 10B", "R", 1, players=5)
    with pytest.raises(ValueError):
        check_discard("kentucky", "1B 6B 7B 8B 9B", "R", 1)


# ---------------------------------------------------------------------------------------
# Settings.

PRESETS = {
    # variant: hand total, target, min bid, max bid, both over, rook rank
    "family": (250, 600, 150, 250, "bidder_goes", "low"),
    "kentucky": (120, 300, 70, 120, "higher_total", "high"),
    "ones_180": (180, 500, 100, 180, "higher_total", "high"),
    "ones_200": (200, 500, 100, 200, "higher_total", "high"),
    "game_140": (140, 300, 70, 140, "higher_total", "ten_half"),
}


@pytest.mark.parametrize("variant", list(PRESETS))
def test_presets(variant):
    total, target, low, high, both, rank = PRESETS[variant]
    s = resolve_settings(variant)
    assert (hand_total(variant), s["target"], s["min_bid"], s["max_bid"], s["both_over"],
            s["rook_rank"], s["bid_step"], s["moon"]) == (total, target, low, high, both,
                                                         rank, 5, "off")
    assert set(VARIANTS) == set(PRESETS)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_preset_value_is_described_and_overridable(variant):
    described = {row["name"]: row for row in GAME.describe_settings({"variant": variant})}
    resolved = resolve_settings(variant)
    assert set(described) == set(resolved) | {"hand_total"}
    assert described["hand_total"]["value"] == f"{hand_total(variant):,}"
    for setting in GAME.settings_fields:
        assert described[setting.name]["value"] == setting.show(resolved[setting.name])
        assert described[setting.name]["rule"] in RULES
    assert described["target"]["value"] == f"{PRESETS[variant][1]:,}"
    # Every value the preset sets may be overridden, and the override shows.
    overrides = {"target": 777, "min_bid": 10, "max_bid": 60, "bid_step": 10,
                 "both_over": "made_bid", "moon": "double", "rook_rank": "ten_half",
                 "rook_points": 15, "last_trick": 30, "decks": 2, "nest": 4,
                 "trump_discard": True, "all_pass": "dealer_bids", "identical": "last",
                 "rook_any_time": not resolved["rook_any_time"]}
    assert set(overrides) | {"ones", "one_points", "variant"} == set(resolved)
    settings = {"variant": variant, **overrides}
    assert {k: v for k, v in GAME.check_settings(settings).items() if k in overrides} \
        == overrides
    described = {row["name"]: row["value"]
                 for row in GAME.describe_settings(settings)}
    assert described["target"] == "777" and described["identical"] == "The last one played wins"
    flipped = {"ones": not resolved["ones"], "one_points": 0}
    assert resolve_settings({"variant": variant, **flipped})["ones"] is flipped["ones"]


def test_new_stores_resolved_settings_and_rematches_the_same():
    state = GAME.new({"variant": "kentucky", "target": 500}, FOUR)
    assert state["settings"] == {**resolve_settings("kentucky"), "target": 500}
    again = GAME.new(state["settings"], FOUR)
    assert again["settings"] == state["settings"]
    assert GAME.new(None, FOUR)["settings"] == resolve_settings("family")


@pytest.mark.parametrize("settings, words", [
    ({"variant": "pinochle"}, "'pinochle' is not a Rook variant"),
    ({"variant": 3}, "not a Rook variant"),
    ({"target": 0}, "Game target must be a whole number between 1 and 100,000."),
    ({"target": "600"}, "Game target"),
    ({"bid_step": 0}, "Bid step"),
    ({"both_over": "coin_toss"}, "Both teams over the target must be one of"),
    ({"ones": "yes"}, "1s in the deck must be yes or no."),
    ({"colour": "red"}, "'colour' is not a setting of Rook."),
    ({"max_bid": 300}, "The highest bid (300) is more than a hand is worth (250)."),
    ({"min_bid": 200, "max_bid": 180}, "The minimum bid (200) is above the highest bid"),
    ({"one_points": 15}, "The 1s are not in the deck"),
    ({"moon": "declared", "max_bid": 200}, "A declared moon bids the whole hand"),
    ({"rook_points": 0, "decks": 1, "last_trick": 0, "variant": "kentucky"}, None),
    ("family", "dictionary"),
])
def test_bad_settings(settings, words):
    if words is None:   # a legal but odd table: counters only
        assert GAME.new(settings, FOUR)
        return
    with pytest.raises(ValueError) as error:
        GAME.new(settings, FOUR)
    assert words in str(error.value)
    assert not isinstance(error.value, RuleError)


def test_rule_functions_refuse_unknown_variants():
    with pytest.raises(ValueError):
        check_bid("nope", 150)
    with pytest.raises(ValueError):
        score_hand(42, 150, 200, 50)
    with pytest.raises(ValueError):
        trick_winner(["5R"], "R", {"target": -1})


@pytest.mark.parametrize("form, parsed", [
    ({}, {"variant": "family"}),
    ({"variant": "kentucky", "target": " 500 ", "min_bid": ""},
     {"variant": "kentucky", "target": 500}),
    ({"variant": "ones_180", "ones": "off", "one_points": "0"},
     {"variant": "ones_180", "ones": False, "one_points": 0}),
    ({"moon": "declared", "csrf_token": "x"}, {"variant": "family", "moon": "declared"}),
])
def test_parse_settings(form, parsed):
    assert GAME.parse_settings(form) == parsed
    GAME.new(parsed, FOUR)


def test_describe_unresolvable_settings_falls_back():
    rows = GAME.describe_settings({"min_bid": 300})
    assert rows[0]["name"] == "variant" and len(rows) == len(GAME.settings_fields)


# ---------------------------------------------------------------------------------------
# Seats and teams.

@pytest.mark.parametrize("seats, words", [
    (["Ann", "Bob", "Cid"], "Rook is for 4 to 6 players, not 3."),
    (["Ann", "Bob", "Cid", "Dee", "Eve"],
     "Rook is for 4 or 6 players (two equal teams), not 5."),
    (SIX + ["Gus"], "not 7"),
    (["Ann", "Bob", "ann", "Dee"], "Player names must be different"),
])
def test_bad_seats(seats, words):
    with pytest.raises(ValueError) as error:
        GAME.new({}, seats)
    assert words in str(error.value)


def test_teams_sit_alternately():
    assert GAME.teams is True and (GAME.min_players, GAME.max_players) == (4, 6)
    four = GAME.summary(GAME.new({}, FOUR))
    assert four["teams"] == {"A": ["Ann", "Cid"], "B": ["Bob", "Dee"]}
    assert four["team_names"] == {"A": "Ann & Cid", "B": "Bob & Dee"}
    assert four["seat_teams"] == ["A", "B", "A", "B"]
    six = GAME.summary(GAME.new({}, SIX))
    assert six["team_names"] == {"A": "Ann, Cid & Eve", "B": "Bob, Dee & Fay"}
    # Fay (seat 5) bids for team B.
    sheet = GAME.summary(play({}, SIX, [hand("Fay", 150, 100, 150)]))
    assert sheet["totals"] == {"A": 100, "B": 150} and sheet["hands"][0]["team"] == "B"


# ---------------------------------------------------------------------------------------
# The sheet.

def test_sheet_rows():
    actions = [hand("Ann", 175, 180, 70, trump="red"), REDEAL,
               hand("Dee", 200, 55, 195)]
    sheet = GAME.summary(play({}, FOUR, actions))
    first, passed, third = sheet["hands"]
    assert first["dealer"] == "Ann" and passed["dealer"] == "Bob" and third["dealer"] == "Cid"
    assert sheet["dealer"] == "Dee"
    assert first == {
        "kind": "hand", "deal": 1, "hand": 1, "dealer": "Ann", "next_dealer": "Bob",
        "bidder": "Ann", "team": "A",
        "bid": 175, "trump": "R", "points": {"A": 180, "B": 70}, "discard_ok": True,
        "played": True, "made": True, "moon": None, "changes": {"A": 180, "B": 70},
        "rules": {"A": "RK-8", "B": "RK-8"}, "running": {"A": 180, "B": 70}, "rule": "RK-8",
        "text": "Ann bid 175 and made it: Ann & Cid +180, Bob & Dee +70.",
        "reason": first["reason"],
    }
    assert passed["kind"] == "redeal" and passed["changes"] == {"A": 0, "B": 0}
    assert passed["rule"] == "R-A7" and passed["hand"] is None
    # Bob dealt, everyone passed, Cid deals next: the deal moves on (not "Bob dealt again").
    assert passed["next_dealer"] == "Cid" and third["next_dealer"] == "Dee"
    assert passed["text"] == "Everyone passed on Bob's deal: Cid deals next."
    assert passed["running"] == {"A": 180, "B": 70}
    assert third["hand"] == 2 and third["made"] is False
    assert third["changes"] == {"A": 55, "B": -200}
    assert third["running"] == {"A": 235, "B": -130}      # R-A8: below zero is fine
    assert third["text"] == "Dee bid 200 and was set: Ann & Cid +55, Bob & Dee -200."
    assert sheet["hand_count"] == 2 and sheet["leaders"] == ["A"]
    assert sheet["totals"] == {"A": 235, "B": -130}
    assert not sheet["over"] and sheet["winners"] == [] and sheet["result"] is None
    assert sheet["bids"] == {"min": 150, "max": 250, "step": 5}
    assert sheet["hand_total"] == 250 and sheet["variant"] == "family"
    assert sheet["house_rules"] == GAME.describe_settings({})
    assert set(sheet["rules"]) == set(RULES)
    for key in ("end_rule", "over_reason", "result"):
        if sheet[key]:
            assert sheet[key]["rule"] in RULES


def test_sheet_before_any_hand():
    sheet = GAME.summary(GAME.new({"variant": "kentucky"}, FOUR))
    assert sheet["totals"] == {"A": 0, "B": 0} and sheet["hands"] == []
    assert (sheet["over"], sheet["winners"], sheet["leaders"]) == (False, [], [])
    assert sheet["dealer"] == "Ann"
    assert sheet["end_rule"]["text"].startswith("The first team to reach 300 wins")


def test_over_sheet():
    sheet = GAME.summary(play({"target": 200}, FOUR, [hand("Bob", 150, 40, 210)]))
    assert sheet["over"] and sheet["winners"] == ["B"]
    assert sheet["over_reason"] == {"text": "Bob & Dee reached 210 (target 200).",
                                    "rule": "RK-9"}
    assert sheet["result"] == {"text": "Bob & Dee win with 210.", "rule": "RK-9"}
    assert sheet["dealer"] is None


@pytest.mark.parametrize("settings, actions, totals, winners, words", [
    ({"target": 200}, [hand("Ann", 150, 200, 50)], {"A": 200, "B": 50}, ["A"],
     "reached 200"),                                   # >= target
    ({"target": 100, "min_bid": 100}, [hand("Bob", 100, 140, 110)], {"A": 140, "B": 110},
     ["B"], "bidder goes"),                            # R6's rule: the bidder, not the higher
    ({"target": 100}, [hand("Bob", 150, 120, 130)], {"A": 120, "B": -150}, ["A"],
     "reached 120"),                                   # a set bidder cannot pass the target
    ({"target": 100}, [hand("Ann", 150, 150, 100)], {"A": 150, "B": 100}, ["A"],
     "bidder goes"),
    ({"target": 100, "both_over": "higher_total", "min_bid": 100},
     [hand("Ann", 100, 110, 140)], {"A": 110, "B": 140}, ["B"], "higher total"),  # R10's
    ({"target": 100, "both_over": "higher_total", "min_bid": 125},
     [hand("Ann", 125, 125, 125)], {"A": 125, "B": 125}, ["A"], "tie goes to the bidders"),
    ({"target": 100, "both_over": "higher_total", "min_bid": 125},
     [hand("Bob", 125, 125, 125)], {"A": 125, "B": 125}, ["B"], "tie goes to the bidders"),
    ({"target": 100, "both_over": "made_bid"}, [hand("Ann", 200, 160, 90)],
     {"A": -200, "B": 90}, [], None),                 # B passed nothing yet
    ({"target": 80, "both_over": "made_bid"}, [hand("Ann", 200, 160, 90)],
     {"A": -200, "B": 90}, [], None),                 # B over 80, but only by defending
    ({"target": 80, "both_over": "made_bid"},
     [hand("Ann", 200, 160, 90), hand("Bob", 150, 100, 150)],
     {"A": -100, "B": 240}, ["B"], "made their bid"),
])
def test_end_rules(settings, actions, totals, winners, words):
    sheet = GAME.summary(play(settings, FOUR, actions))
    assert sheet["totals"] == totals and sheet["winners"] == winners
    assert sheet["over"] is bool(winners)
    if words:
        assert words in sheet["over_reason"]["text"]


def test_end_rule_texts():
    texts = {both: GAME.summary(GAME.new({"both_over": both}, FOUR))["end_rule"]["text"]
             for both in ("bidder_goes", "higher_total", "made_bid")}
    assert "bidder goes" in texts["bidder_goes"] and "600" in texts["bidder_goes"]
    assert "higher total" in texts["higher_total"]
    assert "making its bid" in texts["made_bid"]


# ---------------------------------------------------------------------------------------
# Refused actions.

REFUSED = [
    # id, settings, earlier, action, rule, words
    ("unknown bidder", {}, [], hand("Zed", 150, 200, 50), "RK-2", "'Zed' is not playing"),
    ("no bidder", {}, [], {"kind": "hand", "bid": 150, "points": {"A": 200, "B": 50}},
     "RK-2", "Name the player who won the bid."),
    ("bid too low", {}, [], hand("Ann", 145, 200, 50), "RK-4", "bids start at 150"),
    ("bid off grid", {}, [], hand("Ann", 152, 200, 50), "RK-4", "steps of 5"),
    ("bid too high", {"max_bid": 200}, [], hand("Ann", 205, 200, 50), "RK-4",
     "the highest bid is 200"),
    ("bid as text", {}, [], hand("Ann", "150", 200, 50), "RK-4", "whole number"),
    ("points do not add up", {}, [], hand("Ann", 150, 200, 40), "RK-7", "recount"),
    ("Kentucky total", {"variant": "kentucky"}, [], hand("Ann", 70, 100, 50), "RK-7",
     "a hand has 120"),
    ("more than a hand holds", {}, [], hand("Ann", 150, 260, -10), "RK-7",
     "A hand holds 250 points in all, so no team takes 260"),
    ("negative points", {}, [], hand("Ann", 150, 200, -10), "RK-7", "0 or more"),
    ("points missing", {}, [], {"kind": "hand", "bidder": "Ann", "bid": 150}, "RK-7",
     "team A and team B"),
    ("one team only", {}, [], {"kind": "hand", "bidder": "Ann", "bid": 150,
                               "points": {"A": 250}}, "RK-7", "team A and team B"),
    ("players not teams", {}, [], {"kind": "hand", "bidder": "Ann", "bid": 150,
                                   "points": {"Ann": 250, "Bob": 0}}, "RK-7", "team A"),
    ("discard not yes/no", {}, [], hand("Ann", 150, 200, 50, discard_ok="no"), "RK-5",
     "discard"),
    ("unplayed but fine discard", {}, [], hand("Ann", 150, 200, 50, played=False), "R-A2",
     "bad discard caught before play"),
    ("unplayed with points", {}, [],
     hand("Ann", 150, 200, 50, played=False, discard_ok=False), "R-A2", "no points"),
    ("bad trump", {}, [], hand("Ann", 150, 200, 50, trump="purple"), "RK-6",
     "not a trump colour"),
    ("unknown kind", {}, [], {"kind": "undo"}, "RK-8", "'undo' is not a Rook action"),
    ("not a dict", {}, [], "hand", "RK-8", "not a Rook action"),
    ("redeal forbidden", {"all_pass": "dealer_bids"}, [hand("Ann", 150, 200, 50)], REDEAL,
     "R-A7", "the dealer, Bob, must bid the minimum of 150"),
    ("hand after the end", {"target": 200}, [hand("Ann", 150, 200, 50)],
     hand("Bob", 150, 0, 250), "RK-9",
     "The game is over: Ann & Cid win with 200. Start a rematch to play again."),
    ("redeal after the end", {"target": 200}, [hand("Ann", 150, 200, 50)], REDEAL, "RK-9",
     "The game is over"),
    ("junk after the end", {"target": 200}, [hand("Ann", 150, 200, 50)], {"kind": "x"},
     "RK-9", "The game is over"),
]


@pytest.mark.parametrize("settings, earlier, action, rule, words",
                         [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_refused_actions(settings, earlier, action, rule, words):
    state = play(settings, FOUR, earlier)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.rule == rule and rule in RULES
    assert words in str(error.value)
    message = str(error.value)
    assert message.endswith(".") and not message[0].islower()
    assert message.count(". ") <= 1          # one sentence (two after the game is over)
    assert state == before


def test_foreign_state():
    with pytest.raises(ValueError):
        GAME.summary({"game": "scorepad"})
    with pytest.raises(ValueError):
        GAME.apply({"game": "scorepad"}, REDEAL)


def test_apply_is_pure():
    state = play({}, FOUR, [hand("Ann", 175, 180, 70)])
    before = copy.deepcopy(state)
    after = GAME.apply(state, hand("Bob", 150, 100, 150))
    assert state == before
    after["deals"][0]["points"]["A"] = 0
    after["settings"]["target"] = 1
    assert state == before
    sheet = GAME.summary(state)
    sheet["hands"][0]["changes"]["A"] = 999
    sheet["settings"]["target"] = 1
    assert state == before and GAME.summary(state)["totals"] == {"A": 180, "B": 70}


# ---------------------------------------------------------------------------------------
# Properties.

def expected_hand(s, total, team, bid, mine, discard_ok, played):
    """Reference scoring (RK-8, R-A2, R-A5): (bidder change, other change, moon end)."""
    theirs = total - mine
    declared = s["moon"] == "declared" and bid == total
    if not played:
        return -bid, 0, ("other" if declared else None)
    if not discard_ok:
        return -bid, theirs, ("other" if declared else None)
    if declared:
        return (mine, theirs, "bidder") if mine == total else (-bid, theirs, "other")
    if mine < bid:
        return -bid, theirs, None
    if s["moon"] == "double" and mine == total:
        return 2 * total, theirs, None
    return mine, theirs, None


def expected_winner(s, totals, team, made, moon_end):
    """Reference end of game (RK-9, R-A5): the winning team or None."""
    other = "B" if team == "A" else "A"
    if moon_end:
        return team if moon_end == "bidder" else other
    reached = [t for t in "AB" if totals[t] >= s["target"]]
    if s["both_over"] == "made_bid":
        return team if made and team in reached else None
    if len(reached) == 1:
        return reached[0]
    if not reached:
        return None
    if s["both_over"] == "bidder_goes" or totals["A"] == totals["B"]:
        return team
    return max("AB", key=lambda t: totals[t])


@st.composite
def games(draw):
    variant = draw(st.sampled_from(list(VARIANTS)))
    settings = {"variant": variant,
                "target": draw(st.sampled_from([None, 50, 60, 100, 150, 300])),
                "both_over": draw(st.sampled_from([None, "bidder_goes", "higher_total",
                                                   "made_bid"])),
                "moon": draw(st.sampled_from(["off", "off", "double", "declared"])),
                "bid_step": draw(st.sampled_from([None, 5, 10]))}
    seats = FOUR if draw(st.booleans()) else SIX
    s = resolve_settings(settings)
    total = hand_total(s)
    grid = list(range(s["min_bid"], s["max_bid"] + 1, s["bid_step"]))
    actions = []
    for _ in range(draw(st.integers(0, 14))):
        if draw(st.integers(0, 9)) == 0:
            actions.append(REDEAL)
            continue
        bid = draw(st.sampled_from(grid))
        # On the grid of 5 (RK-7b): every preset's counters and totals are multiples of 5.
        mine = draw(st.integers(0, total // 5).map(lambda k: 5 * k)
                    | st.sampled_from([bid, total, total // 2]))
        mine = min(mine, total)
        discard_ok = draw(st.integers(0, 11)) > 0
        played = discard_ok or draw(st.booleans())
        bidder = draw(st.sampled_from(seats))
        team = "A" if seats.index(bidder) % 2 == 0 else "B"
        points = {team: mine, "B" if team == "A" else "A": total - mine}
        action = {"kind": "hand", "bidder": bidder, "bid": bid, "discard_ok": discard_ok}
        if played:
            action["points"] = points
        else:
            action["played"] = False
        actions.append(action)
    return settings, seats, actions


@hyp_settings(max_examples=150, deadline=None)
@given(games())
def test_totals_and_end_follow_the_rules(game):
    """For any sequence of legal hands: totals are the sums of the scored changes (and match
    a reference scorer); the game ends exactly when the variant's end rule says, and then
    refuses every further hand."""
    settings, seats, actions = game
    state = GAME.new(settings, seats)
    s = state["settings"]
    total = hand_total(s)
    totals, deals = {"A": 0, "B": 0}, 0
    for action in actions:
        sheet = GAME.summary(state)
        if sheet["over"]:
            with pytest.raises(RuleError) as error:
                GAME.apply(state, action)
            assert error.value.rule == sheet["over_reason"]["rule"]
            return
        state = GAME.apply(state, action)
        deals += 1
        sheet = GAME.summary(state)
        assert sheet["dealer"] in (None, seats[deals % len(seats)])
        if action["kind"] == "redeal":
            assert sheet["totals"] == totals and not sheet["over"]
            continue
        team = "A" if seats.index(action["bidder"]) % 2 == 0 else "B"
        other = "B" if team == "A" else "A"
        mine = action["points"][team] if action.get("points") else 0
        change, other_change, moon_end = expected_hand(
            s, total, team, action["bid"], mine, action["discard_ok"],
            action.get("played", True))
        totals = {team: totals[team] + change, other: totals[other] + other_change}
        assert sheet["totals"] == totals
        assert {t: sum(row["changes"][t] for row in sheet["hands"]) for t in "AB"} == totals
        assert sheet["hands"][-1]["running"] == totals
        assert all(rule in RULES for row in sheet["hands"] for rule in row["rules"].values())
        made = change >= 0 and action["discard_ok"] and action.get("played", True)
        winner = expected_winner(s, totals, team, made, moon_end)
        assert sheet["over"] is (winner is not None)
        assert sheet["winners"] == ([winner] if winner else [])
        if winner:
            assert sheet["dealer"] is None and sheet["over_reason"]["rule"] in RULES
            for refused in (action, REDEAL, hand(seats[0], s["min_bid"], total, 0)):
                with pytest.raises(RuleError):
                    GAME.apply(state, refused)
            return


@hyp_settings(max_examples=40, deadline=None)
@given(games())
def test_state_and_summary_are_json_and_prefixes_replay(game):
    settings, seats, actions = game
    state, sheets, kept = GAME.new(settings, seats), [], []
    sheets.append(GAME.summary(state))
    for action in actions:
        try:
            state = GAME.apply(state, action)
        except RuleError:
            break
        kept.append(action)
        sheets.append(GAME.summary(state))
    assert json.loads(json.dumps(state)) == state
    assert json.loads(json.dumps(sheets[-1])) == sheets[-1]
    assert GAME.summary(json.loads(json.dumps(state))) == sheets[-1]
    # Undo = fold the log without its last action: the earlier sheet comes back.
    if kept:
        assert GAME.summary(play(settings, seats, kept[:-1])) == sheets[-2]


@hyp_settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.data())
def test_trick_winner_properties(variant, data):
    """Any legal trick: the winner is a trump when one was played (and then the highest in
    the variant's order), else a card of the colour led."""
    s = resolve_settings(variant)
    trump = data.draw(st.sampled_from("BRYG"))
    ranks = list(range(4 if s["decks"] == 2 else 5, 15)) + ([1] if s["ones"] else [])
    deck = [f"{n}{c}" for n in ranks for c in "BRYG"] + ["ROOK"]
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=1, max_size=6)
                      .filter(lambda cs: all(cs.count(c) <= s["decks"] for c in cs))
                      # RK-1b: at most two 4s, of different colours.
                      .filter(lambda cs: len([c for c in cs if c[:-1] == "4"])
                              == len({c for c in cs if c[:-1] == "4"}) <= 2))
    verdict = trick_winner(cards, trump, variant)
    assert verdict.ok
    won = cards[verdict.details["winner"]]
    order = verdict.details["trump_order"]
    trumps = [c for c in cards if c == "ROOK" or c[-1] == trump]
    if trumps:
        assert won in trumps
        assert order.index(won) == min(order.index(c) for c in trumps)
        assert verdict.details["winner"] == cards.index(won)     # the first identical card
    else:
        def strength(card):
            return 15 if card[:-1] == "1" else int(card[:-1])
        assert won[-1] == cards[0][-1]
        assert strength(won) == max(strength(c) for c in cards if c[-1] == won[-1])
        assert verdict.details["winner"] == cards.index(won)


def test_module_exports():
    for name in rook.__all__:
        assert hasattr(rook, name)


# ---------------------------------------------------------------------------------------
# Second pass: points on the grid of 5 (RK-7b), cards that exist (RK-1b), and arguments
# settled at the table: the auction (RK-4, R-A7), the discard (RK-5, R-A3) and "did they
# have to follow?" (RK-6). The seed is seeds/003_48662a7a4c721847.txt (§Rules of Play).

GRID_CASES = [
    # variant, bid, bidder points, other points, ok, words in the reason
    ("family", 150, 183, 67, False, "183 and 67 are not multiples of 5"),
    ("family", 150, 185, 65, True, None),
    ("family", 150, 183, 70, False, "183 is not a multiple of 5"),     # sum 253 too
    ("family", 150, 250, 0, True, None),
    ("kentucky", 70, 72, 48, False, "72 and 48"),
    ("ones_180", 100, 103, 77, False, "103 and 77"),
    ("ones_200", 100, 135, 65, True, None),
    ("game_140", 70, 95, 45, True, None),
    ("game_140", 70, 96, 44, False, "96 and 44"),
    # A house rule with a 12-point Rook has no grid of 5: only the sum is checked.
    ({"variant": "kentucky", "rook_points": 12}, 70, 73, 39, True, None),
]


@pytest.mark.parametrize("variant, bid, mine, theirs, ok, words", GRID_CASES)
def test_rk7b_points_lie_on_the_grid_of_5(variant, bid, mine, theirs, ok, words):
    """RK-7b: every counter and bonus is a multiple of 5, so each team's points are.

    Seed: the point cards, 14s and 10s worth 10, 5s worth 5, each Rook 25, 250 a hand
    (seeds/003_48662a7a4c721847.txt §What You Need/Setup).
    """
    verdict = score_hand(variant, bid, mine, theirs)
    assert verdict.ok is ok
    if not ok:
        assert verdict.rule == "RK-7"                      # RULES.md: "refused with RK-7 cited"
        assert words in verdict.reason and "recount" in verdict.reason.lower()
        assert verdict.details["grid"] == 5 and verdict.details["bidder"] is None


def test_rk7b_a_miscount_is_refused_on_the_sheet_and_old_logs_still_replay():
    """183/67 adds up to 250 but no counters make 183: the hand action is refused (RK-7).
    A table whose log already holds such a hand (entered before the check) still replays."""
    state = GAME.new({}, FOUR)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, hand("Ann", 150, 183, 67))
    assert error.value.rule == "RK-7" and "recount" in str(error.value).lower()
    old = {**state, "deals": [{"kind": "hand", "bidder": "Ann", "bid": 150,
                               "points": {"A": 183, "B": 67}, "discard_ok": True,
                               "played": True, "trump": None}]}
    assert GAME.summary(old)["totals"] == {"A": 183, "B": 67}
    assert GAME.summary(GAME.apply(old, hand("Bob", 150, 70, 180)))["totals"] \
        == {"A": 253, "B": 247}


@hyp_settings(max_examples=80, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.data())
def test_rk7b_every_pair_off_the_grid_is_refused(variant, data):
    """Any split of the hand's total with a share off the grid of 5 is refused (RK-7,
    "recount"); any split on the grid is scored."""
    total = hand_total(variant)
    bid = resolve_settings(variant)["min_bid"]
    mine = data.draw(st.integers(0, total))
    verdict = score_hand(variant, bid, mine, total - mine)
    assert verdict.ok is (mine % 5 == 0)
    if mine % 5:
        assert verdict.rule == "RK-7" and "recount" in verdict.reason.lower()


TRICKS_THAT_EXIST = [
    # variant, trick, players, ok, words in a refusal
    ("family", "4R 5R", 4, False, "There is no 4 Red with 4 players"),
    ("family", "5G 4G", 6, True, None),
    ("family", "4R 4G", 6, True, None),
    ("family", "4R 4R", 6, False, "only one 4 Red"),
    ("family", "4R 4G 4B", 6, False, "only two 4s"),
    ("family", "4R 5R", None, True, None),                    # players not known: 4s may be
    ("family", "14G 14G", 4, True, None),
    ("family", "14G 14G 14G", 4, False, "only two 14 Green"),
    ("family", "ROOK ROOK", 4, True, None),
    ("family", "ROOK ROOK ROOK", 6, False, "only two Rook bird"),
    ("family", "1G", 4, False, "There is no 1 Green"),
    ("kentucky", "14G 14G", 4, False, "only one 14 Green"),
    ("kentucky", "ROOK ROOK", 4, False, "only one Rook bird"),
    ("kentucky", "4G", 6, False, "There is no 4 Green"),
    ("ones_180", "1G 1G", 4, False, "only one 1 Green"),
    ("ones_180", "1G 14G", 4, True, None),
]


@pytest.mark.parametrize("variant, cards, players, ok, words", TRICKS_THAT_EXIST)
def test_rk1b_the_trick_checker_knows_the_deck(variant, cards, players, ok, words):
    """RK-1b: a trick holding a card the deck lacks, or too many copies, is refused.

    Seed: 82 cards (two of each 14 down to 5 in every colour, two Rooks), 84 with the two
    4s of a 6-handed game (seeds/003_48662a7a4c721847.txt §What You Need/Setup).
    """
    verdict = trick_winner(cards, "R", variant, players)
    assert verdict.ok is ok
    if not ok:
        assert verdict.rule == "RK-1b" and words in verdict.reason
        assert verdict.details["winner"] is None


def test_rk1b_players_shape_the_trick_and_the_trump_order():
    """A trick has one card from each player; the 4 of trump is a trump only when 6 play."""
    verdict = trick_winner("5G 6G 7G 8G 9G", "R", "family", 4)
    assert not verdict and verdict.rule == "RK-6" and "at most 4" in verdict.reason
    assert trick_winner("5G 6G 7G 8G 9G", "R", "family", 6)
    assert "4R" not in trick_winner("5R", "R", "family", 4).details["trump_order"]
    assert trick_winner("5R", "R", "family", 6).details["trump_order"][-2:] == ["4R", "ROOK"]
    for bad in (5, 0, "4", True):
        with pytest.raises(ValueError):
            trick_winner("5R", "R", "family", bad)


def physical_deck(variant, players, four_colours=("R", "G")):
    """Every card of the deck on the table, each copy once (RK-1, RK-1b)."""
    s = resolve_settings(variant)
    numbers = list(range(5, 15)) + ([1] if s["ones"] else [])
    deck = [f"{n}{c}" for n in numbers for c in "BRYG"] * s["decks"] + ["ROOK"] * s["decks"]
    if s["decks"] == 2 and players == 6:
        deck += [f"4{c}" for c in four_colours]
    return deck


@hyp_settings(max_examples=80, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.sampled_from([4, 6]), st.data())
def test_rk1b_cards_from_the_deck_pass_and_one_copy_too_many_is_refused(variant, players,
                                                                        data):
    colours = data.draw(st.lists(st.sampled_from("BRYG"), min_size=2, max_size=2,
                                 unique=True))
    deck = physical_deck(variant, players, colours)
    picks = data.draw(st.lists(st.integers(0, len(deck) - 1), min_size=1,
                               max_size=players, unique=True))
    assert trick_winner([deck[i] for i in picks], "Y", variant, players).ok
    card = data.draw(st.sampled_from(deck))
    copies = deck.count(card)
    if copies < players:
        verdict = trick_winner([card] * (copies + 1), "Y", variant, players)
        assert not verdict and verdict.rule == "RK-1b"


AUCTIONS = [
    # variant, calls, players, ok, rule, high, lowest, first next bids
    ("family", [], None, True, "RK-4", None, 150, [150, 155]),
    ("family", [150, None, 160], None, True, "RK-4", 160, 165, [165, 170]),
    ("family", "150 pass 175", None, True, "RK-4", 175, 180, [180, 185]),   # a jump
    ("family", [150, 160, 155], None, False, "RK-4", 160, 165, [165, 170]),  # R5: not higher
    ("family", [150, 160, 160], None, False, "RK-4", 160, 165, [165, 170]),
    ("family", [150, 160, 152], None, False, "RK-4", 160, 165, [165, 170]),  # R5: off grid
    ("family", [150, 255], None, False, "RK-4", 150, 155, [155, 160]),       # R5: > 250
    ("family", [145], None, False, "RK-4", None, 150, [150, 155]),
    ("family", [150, 250], None, True, "RK-4", 250, None, []),
    ("kentucky", [70, None, 75, 120], None, True, "RK-4", 120, None, []),
    ("family", [None, None, None], 4, True, "RK-4", None, 150, [150, 155]),
    ("family", [None] * 4, None, True, "RK-4", None, 150, [150, 155]),      # players unknown
    ("family", [None] * 4, 4, True, "R-A7", None, None, []),                 # redeal
    ("family", [None] * 4 + [150], 4, False, "R-A7", None, None, []),
    ({"all_pass": "dealer_bids"}, [None] * 6, 6, True, "R-A7", None, 150, [150]),
    ({"all_pass": "dealer_bids"}, [None] * 4 + [150], 4, True, "RK-4", 150, 155, [155, 160]),
]


@pytest.mark.parametrize("variant, calls, players, ok, rule, high, lowest, following",
                         AUCTIONS)
def test_rk4_bidding_helper(variant, calls, players, ok, rule, high, lowest, following):
    """RK-4: the high bid, a pass, the next legal bids; a raise that does not beat the bid
    is refused. R-A7: everyone passed.

    Seed: bidding starts at 150 and rises by at least 5
    (seeds/003_48662a7a4c721847.txt §Bidding).
    """
    verdict = check_bidding(variant, calls, players)
    d = verdict.details
    assert (verdict.ok, verdict.rule, d["high"], d["lowest"], d["next"][:2]) \
        == (ok, rule, high, lowest, following)
    assert verdict.reason and (d["refused"] is None) is ok
    if not ok:
        assert d["calls"] == list(calls)[:d["refused"]]
        assert d["refused_call"] == list(calls)[d["refused"]]


def test_rk4_bidding_words():
    assert check_bidding("family", "150 pass 160").reason \
        == "The high bid is 160: the next bid must be 165 or more, in steps of 5; or pass."
    refused = check_bidding("family", [150, 160, 155])
    assert "155 is not a raise" in refused.reason and "the lowest raise is 165" in refused.reason
    assert check_bidding("family", [None] * 4, 4).reason \
        == "Everyone passed: the next dealer deals again."
    assert check_bidding("family", [250]).reason.startswith("The high bid is 250, the highest")
    verdict = check_bidding("family", ["150", "P", "Pass", None, 155])
    assert verdict.details["calls"] == [150, None, None, None, 155]
    assert verdict.details["passes"] == 3 and verdict.details["passes_since"] == 0


@pytest.mark.parametrize("calls, players", [("150 abc", None), ([150.0], None),
                                             ({"a": 1}, None), ([150], 5)])
def test_rk4_bidding_helper_input_errors(calls, players):
    with pytest.raises(ValueError):
        check_bidding("family", calls, players)


@hyp_settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.data())
def test_rk4_every_legal_raise_is_accepted_and_nothing_else(variant, data):
    """Over any high bid on the grid: every bid on the grid above it (up to the highest) is
    accepted and becomes the high bid; any bid off the grid, not higher, or out of range is
    refused with RK-4. The offered next bids are the first legal ones."""
    s = resolve_settings(variant)
    grid = list(range(s["min_bid"], s["max_bid"] + 1, s["bid_step"]))
    current = data.draw(st.sampled_from(grid))
    bid = data.draw(st.integers(s["min_bid"] - 20, s["max_bid"] + 20))
    verdict = check_bidding(variant, [current, None, bid])
    legal = bid in grid and bid > current
    assert verdict.ok is legal
    if legal:
        assert verdict.details["high"] == bid and verdict.details["high_call"] == 2
    else:
        assert verdict.rule == "RK-4" and verdict.details["refused"] == 2
        assert verdict.details["high"] == current
    above = [b for b in grid if b > current]
    offered = check_bidding(variant, [current]).details["next"]
    assert offered == above[:rook.NEXT_BIDS]
    assert all(check_bidding(variant, [current, b]) for b in offered)


DISCARDS = [
    # variant, cards discarded, trump among them, trump held, players, ok, rule
    ("family", 6, 0, 12, 4, True, "RK-5"),
    ("family", 5, 0, 12, 4, False, "RK-5"),            # too few
    ("family", 7, 0, 12, 4, False, "RK-5"),            # too many
    ("family", 6, 1, 12, 4, False, "RK-5"),            # R8: trump, not forced
    ("family", 6, 1, 19, 4, False, "RK-5"),            # 19 trump fit in a 19-card hand
    ("family", 6, 1, 20, 4, True, "R-A3"),             # "more than 19 trump": 1 must go
    ("family", 6, 2, 20, 4, False, "R-A3"),            # ...but only 1
    ("family", 6, 1, 14, 6, True, "R-A3"),             # 6-handed: 13 cards kept
    ("family", 6, 1, 13, 6, False, "RK-5"),
    ("kentucky", 5, 2, 4, 4, True, "RK-5"),            # these house rules let trump go
    ("kentucky", 6, 0, 4, 4, False, "RK-5"),
    ({"variant": "kentucky", "trump_discard": False}, 5, 1, 4, 4, False, "RK-5"),
]


@pytest.mark.parametrize("variant, cards, trump_out, held, players, ok, rule", DISCARDS)
def test_rk5_discard_check(variant, cards, trump_out, held, players, ok, rule):
    """RK-5 / R-A3: exactly the widow's size goes down, and no trump unless forced.

    Seed: the bidder discards six, no trump unless forced; a wrong discard is an automatic
    set (seeds/003_48662a7a4c721847.txt §Bidding).
    """
    verdict = check_discard_counts(variant, cards, trump_out, held, players)
    assert (verdict.ok, verdict.rule) == (ok, rule)
    assert verdict.details["automatic_set"] is (not ok)
    assert verdict.details["nest"] == resolve_settings(variant)["nest"]


def test_rk5_discard_counts_agree_with_the_cards():
    """The same verdict from the cards (check_discard) as from counting them."""
    cards = "5B 6B 7B 8G 5R ROOK"
    by_cards = check_discard("family", cards, "R", 21)
    by_counts = check_discard_counts("family", 6, 2, 21)
    assert (by_cards.ok, by_cards.rule, by_cards.reason, by_cards.details) \
        == (by_counts.ok, by_counts.rule, by_counts.reason, by_counts.details)


@pytest.mark.parametrize("args, words", [
    (("family", 6, 7, 10), "Only 6 cards were discarded, so not 7 trump"),
    (("family", 6, 0, 23), "Nobody can hold 23 trump: the deck has only 22"),
    (("family", 6, 0, 23, 6), None),                   # 6-handed: one 4 may be trump
    (("family", 6, 0, 20, 6), "the bidder holds 19 cards, so not 20 trump"),
    (("family", 6, 0, 21), "at least 2 trump must be in the discard"),
    (("family", -1, 0, 10), "whole numbers"),
    (("family", 6, 0, "12"), "whole number"),
    (("family", 6, 0, 12, 5), "4 or 6 players"),
])
def test_rk5_discard_counts_that_cannot_be(args, words):
    if words is None:
        with pytest.raises(ValueError) as error:
            check_discard_counts(*args)
        assert "19 cards" in str(error.value)   # 13 + 6: the hand limits it before the deck
        return
    with pytest.raises(ValueError) as error:
        check_discard_counts(*args)
    assert words in str(error.value)


def test_rk1b_a_4_in_a_four_handed_discard_is_refused():
    with pytest.raises(ValueError, match="no 4 Green with 4 players"):
        check_discard("family", "4G 5B 6B 7B 8B 9B", "R", 0, 4)
    assert check_discard("family", "4G 5B 6B 7B 8B 9B", "R", 0, 6)


@pytest.mark.parametrize("variant, players, size", [
    ("family", 4, 19), ("family", 6, 13), ("kentucky", 4, 9), ("kentucky", 6, 6),
    ("ones_180", 4, 10), ("game_140", 4, 9),
])
def test_hand_size(variant, players, size):
    assert hand_size(variant, players) == size


FOLLOWS = [
    # variant, trump, led, played, held, ok (no renege), followed, words
    ("family", "R", "14G", "5G", "", True, True, "follows Green"),
    ("family", "R", "14G", "5B", "9G", False, False, "Renege: Green was led and they held "
                                                     "the 9 Green"),
    ("family", "R", "14G", "5B", "9B 10Y", True, False, "none of the cards they held"),
    ("family", "R", "14G", "5B", "", True, False, "legal only if they held no Green"),
    ("family", "R", "14G", "5R", "6G", False, False, "had to follow Green"),    # no trump-in
    ("family", "R", "14G", "5R", "6B", True, False, "could play any card"),     # trumping in
    ("family", "R", "14G", "ROOK", "6G", False, False, "had to follow Green"),  # Rook = trump
    ("family", "R", "14G", "ROOK", "6B", True, False, "could play any card"),
    ("family", "R", "14R", "ROOK", "", True, True, "follows a trump lead"),
    ("family", "R", "14R", "5G", "ROOK 5B", False, False, "held the Rook bird, which is "
                                                          "trump: they had to play it"),
    ("family", "R", "ROOK", "5G", "9R", False, False, "trump (Red) was led and they held "
                                                      "the 9 Red"),
    ("family", "R", "red", "5G", "ROOK", False, False, "they had to play it"),
    ("family", "R", "G", "5G", "", True, True, "follows Green"),
    ("kentucky", "R", "14G", "ROOK", "6G", True, False, "at any time"),
    ("kentucky", "R", "14R", "5G", "ROOK", False, False, "they had to play it"),
    ("kentucky", "R", "ROOK", "5R", "", True, True, "follows Red"),
    ({"variant": "family", "rook_any_time": True}, "R", "14G", "ROOK", "6G", True, False,
     "at any time"),
]


@pytest.mark.parametrize("variant, trump, led, played, held, ok, followed, words", FOLLOWS)
def test_rk6_did_they_have_to_follow(variant, trump, led, played, held, ok, followed, words):
    """RK-6: a player holding the colour led (or, on a trump lead, only the Rook) must play
    it; one who has none may play anything, trump included.

    Seed: follow the colour led if possible, else play anything or trump in; on a trump
    lead the Rook must follow when no trump colour is left
    (seeds/003_48662a7a4c721847.txt §Hand Play).
    """
    verdict = check_follow(variant, trump, led, played, held)
    assert verdict.rule == "RK-6"
    assert verdict.ok is ok and verdict.details["renege"] is (not ok)
    assert verdict.details["followed"] is followed
    assert words in verdict.reason


@pytest.mark.parametrize("args, words", [
    (("family", "R", "14G", "15G"), "'15G' is not a card"),
    (("family", "P", "14G", "5G"), "not a Rook colour"),
    (("family", "R", "purple", "5G"), "'purple' is not a card"),
    (("family", "R", "14G", "4G", (), 4), "no 4 Green with 4 players"),
    (("kentucky", "R", "14G", "5B", "5B"), "only one 5 Black"),
    (("family", "R", "14G", "5B", (), 3), "4 or 6 players"),
])
def test_rk6_follow_input_errors(args, words):
    with pytest.raises(ValueError) as error:
        check_follow(*args)
    assert words in str(error.value)


@hyp_settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(VARIANTS)), st.sampled_from("BRYG"), st.data())
def test_rk6_a_renege_is_exactly_holding_the_colour_led_and_not_playing_it(variant, trump,
                                                                          data):
    s = resolve_settings(variant)
    deck = sorted(set(physical_deck(variant, 4)))
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=2, max_size=6, unique=True))
    led, played, held = cards[0], cards[1], cards[2:]

    def colour(card):
        return trump if card == "ROOK" else card[-1]

    led_colour = colour(led)
    followed = colour(played) == led_colour
    free = played == "ROOK" and s["rook_any_time"]
    renege = not followed and not free and any(colour(c) == led_colour for c in held)
    verdict = check_follow(variant, trump, led, played, held)
    assert verdict.ok is (not renege) and verdict.details["followed"] is followed
    assert verdict.rule == "RK-6"


def test_table_argument_sentences_go_through_the_words_path():
    """New sentences are Saids (message("rook", ...)) or N_-marked constants."""
    from companion.rules.said import Said
    for verdict in (check_bidding("family", [150]), score_hand("family", 150, 183, 67),
                    check_follow("family", "R", "14G", "5B", "9G"),
                    trick_winner("4R", "R", "family", 4)):
        assert isinstance(verdict.reason, Said) and verdict.reason.context == "rook"


def test_rook_any_time_is_a_house_rule():
    assert resolve_settings("family")["rook_any_time"] is False
    assert resolve_settings("kentucky")["rook_any_time"] is True
    rows = {row["name"]: row for row in GAME.describe_settings({"variant": "kentucky"})}
    assert rows["rook_any_time"]["rule"] == "RK-6"
