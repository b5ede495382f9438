"""Rainbow Rummy 333: the table checks (RR-2, RR-4 … RR-10) and every house rule (RR-A*)."""

import pytest

from companion.rules import find_game
from companion.rules.cards import all_cards
from companion.rules.rainbow_rummy import (
    RULES,
    can_build,
    can_move,
    can_play_on_bar,
    can_slip,
    check_going_out,
    check_turn,
    cut_for_deal,
    resolve_settings,
)

GAME = find_game("rainbow_rummy")
DECK = all_cards("ucd")
RANKS = "1234567MSG"


def value(card):
    return RANKS.index(card[0]) + 1


# ---------------------------------------------------------------------------------------
# Building (RR-4, RR-6) and the bar (RR-8): every pair of cards.

def test_can_build_every_pair():
    for card in DECK:
        for onto in DECK:
            verdict = can_build(card, onto)
            expected = value(onto) - value(card) == 1 and card[-1] != onto[-1]
            assert verdict.ok is expected, (card, onto)
            assert verdict.rule in ("RR-4", "RR-6")
            if not expected and value(onto) - value(card) == 1:     # same suit
                assert verdict.rule == ("RR-6" if onto[0] == "G" else "RR-4")


def test_can_build_empty_space_every_card():
    for card in DECK:
        verdict = can_build(card, None)
        assert verdict.ok is (card[0] == "G") and verdict.rule == "RR-6"
        assert verdict.details == {"card": card, "onto": None, "empty_space": True}


@pytest.mark.parametrize("card, onto, words", [
    ("5J", "7S", "only a 6 of another suit"),
    ("1E", "1J", "Nothing goes below a 1"),
    ("7E", "SN", "only a Moon of another suit"),
    ("SN", "GN", "different suits"),
])
def test_can_build_reasons(card, onto, words):
    verdict = can_build(card, onto)
    assert not verdict and words in verdict.reason


def test_can_play_on_bar_every_card():
    for card in DECK:
        start = can_play_on_bar(card, None)
        assert start.ok is (card[0] == "1") and start.rule == "RR-8"
        assert start.details["needs"] == "1" + card[-1]
        for top in DECK:
            verdict = can_play_on_bar(card, top)
            expected = card[-1] == top[-1] and value(card) == value(top) + 1
            assert verdict.ok is expected, (card, top)
            assert verdict.rule == "RR-8"
            needs = None if top[0] == "G" else RANKS[value(top)] + top[-1]
            assert verdict.details["needs"] == needs


@pytest.mark.parametrize("card, top, words", [
    ("2V", None, "The V pile on the bar starts with its 1, not with the 2 of V."),
    ("1V", "GV", "The V pile is finished: nothing goes on its Galaxy."),
    ("3V", "1V", "Only the 2 of V goes on the 1 of V, not the 3 of V."),
    ("MV", "7V", "The Moon of V goes on the 7 of V"),
])
def test_can_play_on_bar_reasons(card, top, words):
    assert words in can_play_on_bar(card, top).reason


# ---------------------------------------------------------------------------------------
# Moving columns (RR-5, RR-6, RR-A4, RR-A5).

MOVES = [
    # id, column, onto, keyword args, ok, rule, exposes, leaves empty
    ("whole column onto a Moon", ["?", "7M", "6N", "5E"], ["?", "MS"], {}, True, "RR-5",
     True, False),
    ("text notation", "? 7m 6n 5e", "down MS", {}, True, "RR-5", True, False),
    ("moving the top card is the whole column", ["?", "7M", "6N"], ["MS"],
     {"moving": "7M"}, True, "RR-5", True, False),
    ("the only card of a column", ["6E"], ["?", "7J"], {}, True, "RR-5", False, True),
    ("only the bottom card", ["?", "7M", "6N", "5E"], ["MS"], {"moving": "5E"}, False,
     "RR-5", False, False),
    ("the bottom two cards", ["?", "7M", "6N", "5E"], ["7S"], {"moving": "6N"}, False,
     "RR-5", False, False),
    ("same suit", ["?", "7M"], ["MM"], {}, False, "RR-5", False, False),
    ("wrong rank", ["?", "7M"], ["SS"], {}, False, "RR-5", False, False),
    ("below a 1", ["?", "GM"], ["1S"], {}, False, "RR-5", False, False),
    ("Sun N on Galaxy N", ["SN", "ME"], ["GN"], {}, False, "RR-6", False, False),
    ("Galaxy column into an empty space", ["?", "GE", "SJ"], [], {}, True, "RR-6", True,
     False),
    ("Galaxy column into an empty space, None", ["GE"], None, {}, True, "RR-6", False, True),
    ("a 7 into an empty space", ["?", "7M"], None, {}, False, "RR-6", False, False),
    ("to the partner's board", ["?", "7M"], ["MS"], {"same_board": False}, False, "RR-5",
     False, False),
    ("on another player's board", ["?", "7M"], ["MS"], {"own_board": False}, False, "RR-5",
     False, False),
    ("between the two cards", ["?", "7M"], ["MS"], {"stage": "between"}, True, "RR-5", True,
     False),
    ("before the first card", ["?", "7M"], ["MS"], {"stage": "before"}, False, "RR-A4",
     False, False),
    ("after the second card", ["?", "7M"], ["MS"], {"stage": "after"}, False, "RR-A4",
     False, False),
    ("house rule: before the first card too", ["?", "7M"], ["MS"],
     {"stage": "before", "settings": {"building": "before_too"}}, True, "RR-5", True, False),
    ("house rule: still not after the second card", ["?", "7M"], ["MS"],
     {"stage": "after", "settings": {"building": "before_too"}}, False, "RR-A4", False,
     False),
    ("house rule: empty space only from hand", ["GE"], None,
     {"settings": {"empty_space": "hand"}}, False, "RR-A5", False, False),
    ("house rule: empty space only by moving", ["GE"], None,
     {"settings": {"empty_space": "move"}}, True, "RR-6", False, True),
]


@pytest.mark.parametrize("column, onto, kwargs, ok, rule, exposes, empty",
                         [case[1:] for case in MOVES], ids=[case[0] for case in MOVES])
def test_can_move(column, onto, kwargs, ok, rule, exposes, empty):
    verdict = can_move(column, onto, **kwargs)
    assert verdict.ok is ok and verdict.rule == rule
    assert verdict.details["exposes_down_card"] is exposes
    assert verdict.details["leaves_empty"] is empty
    assert verdict.reason.endswith(".")


@pytest.mark.parametrize("column, onto, kwargs", [
    (["?", "7M", "6N"], ["MS"], {"moving": "5E"}),        # not in the column
    (["7M", "5E"], ["MS"], {}),                           # impossible column
    (["7M", "6M"], ["MS"], {}),                           # same suit in a column
    (["7M", "?"], ["MS"], {}),                            # face-down card below
    (["?", "?", "7M"], ["MS"], {}),                       # two face-down cards
    (["?"], ["MS"], {}),                                  # a bare face-down card
    ([], ["MS"], {}),                                     # nothing to move
    (["?", "7M"], ["?", "7M"], {}),                       # the same card twice
    (["?", "7M"], ["MS"], {"stage": "later"}),
    (["?", "8M"], ["MS"], {}),
    (7, ["MS"], {}),
    (["?", "7M"], ["MS"], {"settings": {"building": "sometimes"}}),
])
def test_can_move_bad_input(column, onto, kwargs):
    with pytest.raises(ValueError):
        can_move(column, onto, **kwargs)


# ---------------------------------------------------------------------------------------
# Slipping behind (RR-7).

@pytest.mark.parametrize("card, column, ok, rule", [
    ("7N", ["6M"], True, "RR-7"),
    ("7N", ["6M", "5E", "4J"], True, "RR-7"),
    ("MN", ["7E"], True, "RR-7"),
    ("GN", "SE", True, "RR-7"),
    ("7M", ["6M"], False, "RR-7"),
    ("7N", ["?", "6M"], False, "RR-7"),
    ("5N", ["6M"], False, "RR-7"),
    ("1E", ["GJ"], False, "RR-7"),
    ("GE", [], False, "RR-6"),
    ("GE", None, False, "RR-6"),
])
def test_can_slip(card, column, ok, rule):
    verdict = can_slip(card, column)
    assert verdict.ok is ok and verdict.rule == rule


# ---------------------------------------------------------------------------------------
# Turns (RR-9, RR-10, RR-A2, RR-A3, RR-A9).

TURNS = [
    # id, destinations, keyword args, ok, rule, going out
    ("no card", [], {}, True, "RR-9", False),
    ("one card on the team board", ["team"], {}, True, "RR-9", False),
    ("one card on the bar", ["bar"], {}, True, "RR-9", False),
    ("opponents then bar", ["opponents", "bar"], {}, True, "RR-9", False),
    ("bar then opponents", ["bar", "opponents"], {}, True, "RR-9", False),
    ("team then bar", ["team", "bar"], {}, True, "RR-9", False),
    ("team then opponents", ["partner", "Opponent"], {}, True, "RR-9", False),
    ("team then bar, 3 cards held", ["team", "bar"], {"cards_in_hand": 3}, True, "RR-9",
     False),
    ("both on the bar", ["bar", "bar"], {}, False, "RR-9", False),
    ("both on the opponents' board", ["opponents", "opponents"], {}, False, "RR-9", False),
    ("both on the team board", ["own", "partner"], {}, False, "RR-9", False),
    ("card 2 on the team board", ["bar", "team"], {}, False, "RR-A9", False),
    ("card 2 on the team board, house rule", ["bar", "team"],
     {"settings": {"second_card_team": True}}, True, "RR-A9", False),
    ("house rule still forbids the team board twice", ["team", "team"],
     {"settings": {"second_card_team": True}}, False, "RR-9", False),
    ("three cards", ["bar", "opponents", "team"], {}, False, "RR-9", False),
    ("more cards than held", ["bar", "team"], {"cards_in_hand": 1}, False, "RR-9", False),
    ("going out with one card", ["team"], {"cards_in_hand": 1}, True, "RR-10", True),
    ("going out as card 2", ["opponents", "team"], {"cards_in_hand": 2}, True, "RR-10",
     True),
    ("last card on the bar", ["bar"], {"cards_in_hand": 1}, False, "RR-A2", False),
    ("last card on the bar as card 2", ["team", "bar"], {"cards_in_hand": 2}, False,
     "RR-A2", False),
    ("last card on the bar, house rule", ["team", "bar"],
     {"cards_in_hand": 2, "settings": {"last_card_elsewhere": True}}, True, "RR-A2", False),
    ("going out on the team board twice", ["team", "team"], {"cards_in_hand": 2}, False,
     "RR-A3", False),
    ("going out on the team board twice, house rule", ["team", "team"],
     {"cards_in_hand": 2, "settings": {"going_out_exempt": True}}, True, "RR-A3", True),
    ("first turn: team then bar", ["team", "bar"], {"first_turn": True}, True, "RR-9", False),
    ("first turn: team then opponents", ["team", "opponents"],
     {"first_turn": True, "cards_in_hand": 7}, True, "RR-9", False),
    ("first turn: one card", ["team"], {"first_turn": True}, True, "RR-9", False),
    ("first turn: no card", [], {"first_turn": True}, True, "RR-9", False),
    ("first turn: card 1 on the opponents' board", ["opponents", "bar"],
     {"first_turn": True}, False, "RR-9", False),
    ("first turn: both on the team board", ["team", "team"], {"first_turn": True}, False,
     "RR-9", False),
    ("first turn: house rule RR-A9 is for later turns", ["team", "team"],
     {"first_turn": True, "settings": {"second_card_team": True}}, False, "RR-9", False),
]


@pytest.mark.parametrize("destinations, kwargs, ok, rule, going_out",
                         [case[1:] for case in TURNS], ids=[case[0] for case in TURNS])
def test_check_turn(destinations, kwargs, ok, rule, going_out):
    verdict = check_turn(destinations, **kwargs)
    assert verdict.ok is ok and verdict.rule == rule
    assert verdict.details["going_out"] is going_out
    assert all(place in ("team", "opponents", "bar")
               for place in verdict.details["destinations"])
    assert verdict.reason.endswith(".") and verdict.reason[0].isupper()


@pytest.mark.parametrize("destinations, kwargs", [
    (["left"], {}), ([""], {}), ([None], {}), ("team", {}), (None, {}),
    (["team"], {"cards_in_hand": 0}), (["team"], {"cards_in_hand": 8}),
    (["team"], {"cards_in_hand": True}), (["team"], {"first_turn": "yes"}),
    (["team"], {"first_turn": True, "cards_in_hand": 3}),
])
def test_check_turn_bad_input(destinations, kwargs):
    with pytest.raises(ValueError):
        check_turn(destinations, **kwargs)


GOING_OUT = [
    # id, destination, earlier, settings, ok, rule, may play
    ("own team board", "team", None, {}, True, "RR-10", True),
    ("partner's board after the bar", "partner", "bar", {}, True, "RR-10", True),
    ("after the opponents' board", "team", "opponents", {}, True, "RR-10", True),
    ("team board twice", "team", "team", {}, False, "RR-A3", False),
    ("team board twice, house rule", "team", "team", {"going_out_exempt": True}, True,
     "RR-A3", True),
    ("the bar", "bar", None, {}, False, "RR-10", False),
    ("opponents after the bar", "opponents", "bar", {}, False, "RR-10", False),
    ("the bar, house rule", "bar", "team", {"last_card_elsewhere": True}, False, "RR-10",
     True),
    ("the bar twice, house rule", "bar", "bar", {"last_card_elsewhere": True}, False,
     "RR-10", False),
]


@pytest.mark.parametrize("destination, earlier, settings, ok, rule, may_play",
                         [case[1:] for case in GOING_OUT],
                         ids=[case[0] for case in GOING_OUT])
def test_check_going_out(destination, earlier, settings, ok, rule, may_play):
    verdict = check_going_out(destination, earlier, settings=settings)
    assert verdict.ok is ok and verdict.rule == rule
    assert verdict.details["goes_out"] is ok
    assert verdict.details["may_play"] is may_play
    if may_play and not ok:
        assert "house rules" in verdict.reason


# ---------------------------------------------------------------------------------------
# The cut (RR-2).

def test_cut_suit_beats_rank():
    verdict = cut_for_deal({"Ann": "GJ", "Bob": "1E", "Cid": "SV", "Dee": "7M"})
    assert verdict.details["dealer"] == "Bob" and verdict.details["tied_on_suit"] == ["Bob"]
    assert verdict.reason == ("Bob deals: the 1 of E is of E, the highest suit cut "
                              "(E > J > M > N > S > V).")
    assert verdict.details["ranking"] == ["Bob", "Ann", "Dee", "Cid"]


def test_cut_by_list_names_the_card():
    verdict = cut_for_deal(["3E", "7E"])
    assert verdict.details["dealer"] == 1
    assert verdict.reason.startswith("The player with the 7 of E deals:")


@pytest.mark.parametrize("cuts", [["3E"], [], ["3E", "3e"], ["3E", "8E"], "3E 7E", None])
def test_cut_bad_input(cuts):
    with pytest.raises(ValueError):
        cut_for_deal(cuts)


# ---------------------------------------------------------------------------------------
# House rules: the checks read a settings dict or a game state.

def test_checks_read_a_game_state():
    state = GAME.new({"empty_space": "move", "second_card_team": True}, list("ABCD"))
    assert resolve_settings(state)["empty_space"] == "move"
    assert not can_build("GE", None, state) and can_build("GE", None, state).rule == "RR-A5"
    assert can_build("GE", None) and can_build("GE", None, {"empty_space": "hand"})
    assert check_turn(["bar", "team"], settings=state)
    with pytest.raises(ValueError):
        can_build("GE", None, {"empty_space": "never"})
    with pytest.raises(ValueError):
        check_turn([], settings="strict")


def test_last_card_elsewhere_allows_an_empty_hand_on_the_sheet():
    """RR-A2 switched: a player may play the last card elsewhere without going out, so an
    empty hand is accepted for a player who did not go out (and scores 0 for the hand)."""
    action = {"kind": "hand", "went_out": "Ann", "cards": {
        "Ann": {"hand": [], "down": []}, "Bob": {"hand": [], "down": ["GE"]},
        "Cid": {"hand": ["1E"], "down": []}, "Dee": {"hand": ["2E"], "down": []}}}
    state = GAME.new({"last_card_elsewhere": True}, ["Ann", "Bob", "Cid", "Dee"])
    sheet = GAME.summary(GAME.apply(state, action))
    assert sheet["hands"][0]["raw"] == {"A": 2, "B": 14}
    assert sheet["totals"] == {"A": 12, "B": 0}


def test_every_ambiguity_that_changes_play_or_score_has_a_setting():
    rules = {setting.rule for setting in GAME.settings_fields}
    assert {"RR-A1", "RR-A2", "RR-A3", "RR-A4", "RR-A5", "RR-A9", "RR-11"} == rules
    assert rules <= set(RULES)
