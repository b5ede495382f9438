"""RockIt to Destiny (slug "rockit", RULES.md §4): the worked examples, the API, properties.

The worked examples RK1–RK18 of RULES.md §4.4 are tables below, one test per row. The
solver is cross-checked against a plain backtracking solver in test_rockit_solver.py.
"""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import GAME_MODULES, RuleError, Verdict, find_game
from companion.rules.rockit import (
    RULES,
    arrange,
    card_points,
    check_board,
    check_come_in,
    check_deck,
    check_play,
    check_steal,
    check_trick,
    joker_identity,
    review_board,
)

GAME = find_game("rockit")
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"


def play(settings, seats, actions):
    """Fold apply over actions from a new game; return the final state."""
    state = GAME.new(settings, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def come_in(player, cards):
    return {"kind": "come_in", "player": player, "cards": cards.split()}


def win(player, **extra):
    return {"kind": "win", "player": player, **extra}


def is_split_of(split, cards):
    """Every trick valid and together exactly the input cards."""
    flat = [card for trick in split for card in trick]
    return (Counter(flat) == Counter(c.upper() for c in cards)
            and all(check_trick(trick) for trick in split))


# ---------------------------------------------------------------------------------------
# RULES.md §4.4, worked examples.

COME_IN_EXAMPLES = [
    # id, cards, accepted, points, rule
    ("RK1", "7C 8C 9C", False, 24, "RID-4"),
    ("RK2", "2S 2H 2D", True, 30, "RID-4"),
    ("RK3", "2S 2H 2D 2C", True, 30, "RID-A1"),
    ("RK4a", "10H JH QH", True, 30, "RID-4"),
    ("RK4b", "9H 10H JH QH", True, 39, "RID-A2"),
    ("RK5a", "QD KD AD", False, 21, "RID-4"),
    ("RK5b", "JD QD KD AD 2D", True, 33, "RID-A2"),
    ("RK5c", "KS AS 2S", False, 13, "RID-4"),
    ("RK6", "9C 10C JK", False, None, "RID-4"),
]


@pytest.mark.parametrize("example, cards, accepted, points, rule", COME_IN_EXAMPLES,
                         ids=[row[0] for row in COME_IN_EXAMPLES])
def test_come_in_examples(example, cards, accepted, points, rule):
    verdict = check_come_in(cards.split())
    assert verdict.ok is accepted
    assert verdict.rule == rule
    if points is not None:
        assert verdict.details["points"] == points
    assert verdict.details["needed"] == 30
    if example == "RK6":
        assert "joker" in verdict.reason.lower()


TRICK_EXAMPLES = [
    # id, cards, decks, valid, kind, rule
    ("RK7", "QC KC AC 2C 3C", None, True, "run", "RID-3"),
    ("RK8", "7H 7H 7S", 2, False, None, "RID-3"),
    ("RK11-trick", "KS AS 2S AS", 2, False, None, "RID-A3"),
    ("RK12-one-run", "JD QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD", 2, False, None, "RID-A3"),
    ("RK13-fragment", "KD AD", None, False, None, "RID-3"),
]


@pytest.mark.parametrize("example, cards, decks, valid, kind, rule", TRICK_EXAMPLES,
                         ids=[row[0] for row in TRICK_EXAMPLES])
def test_trick_examples(example, cards, decks, valid, kind, rule):
    verdict = check_trick(cards.split(), decks)
    assert verdict.ok is valid
    assert verdict.details["kind"] == kind
    assert verdict.rule == rule


def test_rk7_passes_the_ace_once():
    verdict = check_trick("QC KC AC 2C 3C".split())
    assert verdict.details["wraps"] is True
    assert verdict.details["layout"] == ["QC", "KC", "AC", "2C", "3C"]


ARRANGE_EXAMPLES = [
    # id, cards (board + hand), arrangeable
    ("RK9", "9D 10D JD QD KD 8D AD JS JH", True),
    ("RK9-without-8D-AD", "9D 10D JD QD KD JS JH", False),
    ("RK10", "5H 6H 7H 7S 7D 7C 7H", True),
    ("RK11", "KS AS 2S AS", False),
    ("RK12", "JD QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD", True),
    ("RK13", "KD AD", False),
    ("RK14-board", "AD 2D JK 4D", True),
    ("RK16-board", "QC QH JK", True),
]


@pytest.mark.parametrize("example, cards, arrangeable", ARRANGE_EXAMPLES,
                         ids=[row[0] for row in ARRANGE_EXAMPLES])
def test_arrange_examples(example, cards, arrangeable):
    split = arrange(cards.split(), 2)
    assert (split is not None) is arrangeable
    if split is not None:
        assert is_split_of(split, cards.split())


BOARD_EXAMPLES = [
    # id, tricks, valid
    ("RK9-end", [["8D", "9D", "10D"], ["QD", "KD", "AD"], ["JD", "JS", "JH"]], True),
    ("RK10-end", [["5H", "6H", "7H"], ["7H", "7S", "7D", "7C"]], True),
    ("RK12-split", [["AD", "2D", "3D"], ["4D", "5D", "6D"], ["7D", "8D", "9D", "10D", "JD"],
                    ["JD", "QD", "KD"]], True),
    ("RK13", [["KD", "AD"]], False),
    ("RK18-final", [["10H", "JH", "QH"], ["5S", "5H", "5D"]], True),
]


@pytest.mark.parametrize("example, tricks, valid", BOARD_EXAMPLES,
                         ids=[row[0] for row in BOARD_EXAMPLES])
def test_board_examples(example, tricks, valid):
    verdict = check_board(tricks)
    assert verdict.ok is valid
    assert verdict.rule == "RID-7"
    if not valid:
        assert verdict.details["bad"][0]["index"] == 0
        assert verdict.details["bad"][0]["rule"] == "RID-3"


STEAL_EXAMPLES = [
    # id, board trick, replacement, new trick, hand, legal, rule
    ("RK14", "AD 2D JK 4D", "3D", "JK 8C 9C", "3D 8C 9C KS", True, "RID-8"),
    ("RK15", "AD 2D JK 4D", "3D", "JK 8C 9C", "3D KS", False, "RID-8"),
    ("RK16-QD", "QC QH JK", "QD", "JK 5S 5H", "QD 5S 5H", True, "RID-8"),
    ("RK16-QS", "QC QH JK", "QS", "JK 5S 5H", "QS 5S 5H", True, "RID-8"),
    ("RK16-QC", "QC QH JK", "QC", "JK 5S 5H", "QC 5S 5H", False, "RID-A5"),
]


@pytest.mark.parametrize("example, trick, replacement, new_trick, hand, legal, rule",
                         STEAL_EXAMPLES, ids=[row[0] for row in STEAL_EXAMPLES])
def test_steal_examples(example, trick, replacement, new_trick, hand, legal, rule):
    verdict = check_steal(trick.split(), replacement, new_trick.split(), hand.split())
    assert verdict.ok is legal
    assert verdict.rule == rule


def test_rk14_joker_is_the_3_of_diamonds():
    verdict = joker_identity("AD 2D JK 4D".split())
    assert verdict and verdict.details["jokers"] == [
        {"index": 2, "card": "3D", "options": ["3D"]}]


def test_rk16_joker_in_a_set_is_either_missing_suit():
    verdict = joker_identity("QC QH JK".split())
    assert verdict.rule == "RID-A5"
    assert verdict.details["jokers"][0]["card"] is None
    assert verdict.details["jokers"][0]["options"] == ["QS", "QD"]


def test_rk17_no_play_before_coming_in():
    state = GAME.new({}, ["Ann", "Bob"])
    verdict = check_play(state, "Ann")
    assert not verdict and verdict.rule == "RID-4"
    state = GAME.apply(state, come_in("Ann", "10H JH QH"))
    # Coming in is the whole turn (RID-A4): Ann plays on the board from her next turn.
    verdict = check_play(state, "Ann")
    assert not verdict and verdict.rule == "RID-A4" and verdict.details["came_in"]
    assert not check_play(state, "Bob")
    assert check_play(state, "Eve").rule == "RID-5"
    state = GAME.apply(state, come_in("Bob", "2S 2H 2D"))
    assert check_play(state, "Ann").ok


def test_rk18_win():
    state = play({}, ["Ann", "Bob"], [come_in("Ann", "10H JH QH"), win("Ann")])
    sheet = GAME.summary(state)
    assert sheet["totals"] == {"Ann": 1, "Bob": 0}
    assert sheet["games"][0]["winner"] == "Ann" and sheet["games"][0]["rule"] == "RID-9"
    assert sheet["starter"] == "Ann" and sheet["come_in"] == {"Ann": None, "Bob": None}


# ---------------------------------------------------------------------------------------
# The game: settings, seats, actions, summary.

def test_registered_after_zocknroll():
    assert "rockit" in GAME_MODULES
    assert GAME_MODULES.index("rockit") > GAME_MODULES.index("zocknroll")
    assert (GAME.slug, GAME.name, GAME.min_players, GAME.max_players, GAME.teams) == (
        "rockit", "RockIt to Destiny", 2, 5, False)
    assert set(RULES) == {f"RID-{n}" for n in range(1, 10)} | {f"RID-A{n}" for n in
                                                                 range(1, 9)}
    for setting in GAME.settings_fields:
        assert setting.rule in GAME.rules


@pytest.mark.parametrize("seats, settings, decks", [
    (["Ann", "Bob"], {}, 1),
    (["Ann", "Bob"], {"decks": 2}, 2),
    (["Ann", "Bob", "Cy"], {}, 2),
    (["A", "B", "C", "D", "E"], {"decks": 2}, 2),
    (["Ann", "Bob"], {"decks": None}, 1),
])
def test_decks_follow_rid1(seats, settings, decks):
    state = GAME.new(settings, seats)
    assert state["settings"]["decks"] == decks
    assert GAME.summary(state)["deck"] == {"copies": decks, "jokers": 2 * decks,
                                           "cards": 54 * decks}


@pytest.mark.parametrize("seats, settings, words", [
    (["Ann", "Bob", "Cy"], {"decks": 1}, "One deck is for 2 players only"),
    (["Ann", "Bob"], {"decks": 3}, "Decks"),
    (["Ann", "Bob"], {"decks": 0}, "Decks"),
    (["Ann", "Bob"], {"target": 0}, "Games to win"),
    (["Ann", "Bob"], {"colour": "red"}, "not a setting"),
    (["Ann"], {}, "2 to 5 players"),
    (["A", "B", "C", "D", "E", "F"], {}, "2 to 5 players"),
    (["Ann", "ann"], {}, "different"),
])
def test_bad_settings_and_seats(seats, settings, words):
    with pytest.raises(ValueError) as error:
        GAME.new(settings, seats)
    assert words in str(error.value)
    assert not isinstance(error.value, RuleError)


def test_parse_settings_from_a_form():
    assert GAME.parse_settings({}) == {}
    assert GAME.parse_settings({"decks": "2", "target": "3"}) == {"decks": 2, "target": 3}
    with pytest.raises(ValueError):
        GAME.parse_settings({"decks": "three"})


def test_fresh_summary():
    sheet = GAME.summary(GAME.new({}, ["Ann", "Bob", "Cy"]))
    assert sheet["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert sheet["over"] is False and sheet["winners"] == [] and sheet["leaders"] == []
    assert sheet["game_number"] == 1 and sheet["starter"] == "Ann" == sheet["turn"]
    assert sheet["come_in"] == {"Ann": None, "Bob": None, "Cy": None}
    assert sheet["games"] == [] and sheet["games_played"] == 0
    assert sheet["hand_size"] == 14 and sheet["rules"] == RULES
    json.dumps(sheet)


def test_come_in_is_recorded_with_points_and_order():
    state = play({}, ["Ann", "Bob", "Cy"], [come_in("Bob", "2s 2h 2d"),
                                             come_in("Ann", "9h 10h jh qh")])
    sheet = GAME.summary(state)
    assert sheet["come_in"]["Bob"] == {"player": "Bob", "cards": ["2S", "2H", "2D"],
                                       "points": 30, "trick": "set", "order": 1}
    assert sheet["come_in"]["Ann"]["points"] == 39 and sheet["come_in"]["Ann"]["order"] == 2
    assert sheet["come_in"]["Cy"] is None
    assert sheet["come_in_order"] == ["Bob", "Ann"]


@pytest.mark.parametrize("actions, action, rule, words", [
    ([], come_in("Ann", "7C 8C 9C"), "RID-4", "24 points"),
    ([], come_in("Ann", "9C 10C JK"), "RID-4", "Jokers"),
    ([], come_in("Ann", "5S 6H 7S"), "RID-3", "not a valid trick"),
    ([], come_in("Ann", "QQ KH AH"), "RID-4", "'QQ' is not a card"),
    ([], come_in("Eve", "2S 2H 2D"), "RID-4", "'Eve' is not playing"),
    ([], {"kind": "come_in", "cards": ["2S", "2H", "2D"]}, "RID-4", "Name the player"),
    ([come_in("Ann", "2S 2H 2D")], come_in("Ann", "3S 3H 3D"), "RID-4", "already come in"),
    ([], win("Ann"), "RID-4", "has not come in"),
    ([come_in("Ann", "2S 2H 2D"), win("Ann")], win("Ann"), "RID-4", "has not come in"),
    ([come_in("Ann", "2S 2H 2D")], win("Ann", how="luck"), "RID-9", "going out"),
    ([], {"kind": "finish"}, "RID-9", "No game has been won"),
    ([], {"kind": "draw", "player": "Ann"}, "RID-5", "'draw' is not a RockIt action"),
    ([], "come_in", "RID-5", "not a RockIt action"),
    ([come_in("Ann", "2S 2H 2D")], come_in("Bob", "2S 2H 2C"), "RID-1", "already on"),
])
def test_refused_actions(actions, action, rule, words):
    state = play({}, ["Ann", "Bob"], actions)      # 2 players: one deck
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.rule == rule
    assert words in str(error.value)
    assert state == before


def test_two_decks_allow_the_same_come_in_twice():
    state = play({"decks": 2}, ["Ann", "Bob"], [come_in("Ann", "2S 2H 2D"),
                                                 come_in("Bob", "2S 2H 2C")])
    assert GAME.summary(state)["come_in_order"] == ["Ann", "Bob"]


def test_a_win_starts_the_next_game_with_the_winner():
    actions = [come_in("Bob", "2S 2H 2D"), come_in("Ann", "3S 3H 3D"), win("Bob"),
               come_in("Cy", "4S 4H 4D"), win("Cy", how="blocked")]
    sheet = GAME.summary(play({}, ["Ann", "Bob", "Cy"], actions))
    assert sheet["totals"] == {"Ann": 0, "Bob": 1, "Cy": 1}
    assert [g["starter"] for g in sheet["games"]] == ["Ann", "Bob"]
    assert [g["winner"] for g in sheet["games"]] == ["Bob", "Cy"]
    assert [g["rule"] for g in sheet["games"]] == ["RID-9", "RID-A7"]
    assert [len(g["come_in"]) for g in sheet["games"]] == [2, 1]
    assert sheet["starter"] == "Cy" and sheet["game_number"] == 3
    assert sheet["leaders"] == ["Bob", "Cy"] and sheet["winners"] == []
    assert sheet["over"] is False


def test_target_ends_the_match():
    actions = [come_in("Ann", "2S 2H 2D"), win("Ann"), come_in("Bob", "2S 2H 2D"),
               win("Bob"), come_in("Ann", "2S 2H 2D"), win("Ann")]
    state = play({"target": 2}, ["Ann", "Bob"], actions)
    sheet = GAME.summary(state)
    assert sheet["over"] is True and sheet["winners"] == ["Ann"]
    assert sheet["totals"] == {"Ann": 2, "Bob": 1}
    assert sheet["over_reason"]["rule"] == "RID-9" and "Ann" in sheet["result"]["text"]
    assert sheet["game_number"] is None and sheet["starter"] is None
    with pytest.raises(RuleError) as error:
        GAME.apply(state, come_in("Bob", "3S 3H 3D"))
    assert error.value.rule == "RID-9" and "over" in str(error.value)
    assert not check_play(state, "Ann")


def test_finish_ends_an_open_match_with_shared_wins():
    actions = [come_in("Ann", "2S 2H 2D"), win("Ann"), come_in("Bob", "2S 2H 2D"),
               win("Bob"), {"kind": "finish"}]
    sheet = GAME.summary(play({}, ["Ann", "Bob", "Cy"], actions))
    assert sheet["over"] is True and sheet["winners"] == ["Ann", "Bob"]
    assert "share" in sheet["result"]["text"]


def test_apply_never_mutates_and_states_are_json():
    state = GAME.new({}, ["Ann", "Bob"])
    frozen = json.dumps(state)
    after = GAME.apply(state, come_in("Ann", "JD QD KD AD 2D"))
    assert json.dumps(state) == frozen
    assert json.loads(json.dumps(after)) == after
    assert json.loads(json.dumps(GAME.summary(after))) == GAME.summary(after)


def test_not_a_rockit_state():
    with pytest.raises(ValueError):
        GAME.summary({"game": "rook"})
    with pytest.raises(ValueError):
        GAME.apply(None, win("Ann"))


# ---------------------------------------------------------------------------------------
# Rule functions: tricks, jokers, decks, the board.

@pytest.mark.parametrize("cards, valid, kind, rule", [
    ("5h 6h 7h", True, "run", "RID-3"),
    ("7h 7s 7d 7c", True, "set", "RID-3"),
    ("7h 7s 7d 7c jk", False, None, "RID-3"),         # 5 cards: no set that big
    ("7h 7s", False, None, "RID-3"),
    ("", False, None, "RID-3"),
    ("jk jk jk", False, None, "RID-A5"),
    ("5h jk jk", True, None, "RID-3"),                # a set or a run
    ("5h 7h jk", True, "run", "RID-3"),
    ("5h 8h jk", False, None, "RID-3"),
    ("5h 9h jk jk jk", True, "run", "RID-3"),
    ("kh ah 2h 3h", True, "run", "RID-3"),
    ("5s 6h 7s", False, None, "RID-3"),
    ("as 2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks", True, "run", "RID-3"),
    ("as 2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks jk", False, None, "RID-A3"),
    ("7h 7h 7h", False, None, "RID-1"),               # three copies: more than 2 decks
])
def test_check_trick(cards, valid, kind, rule):
    verdict = check_trick(cards.split())
    assert isinstance(verdict, Verdict)
    assert verdict.ok is valid and verdict.details["kind"] == kind and verdict.rule == rule
    assert verdict.details["cards"] == cards.upper().split()
    assert verdict.reason.endswith(".")


def test_check_trick_deck_limits():
    assert not check_trick("7H 7H 7S".split(), decks=1)
    assert check_trick("7H 7H 7S".split(), decks=1).rule == "RID-1"
    assert check_trick("5H JK JK JK".split(), decks=1).rule == "RID-1"
    assert check_trick("5H JK JK JK".split(), decks=2)
    with pytest.raises(ValueError):
        check_trick(["5H", "6X", "7H"])
    with pytest.raises(ValueError):
        check_trick("5H 6H 7H".split(), decks=3)


def test_check_deck():
    assert check_deck("JK JK 5H".split(), 1)
    verdict = check_deck("JK JK JK 5H".split(), 1)
    assert not verdict and verdict.rule == "RID-1" and "2 jokers" in verdict.reason
    verdict = check_deck("5H 5H 5H".split())
    assert not verdict and "three times" not in verdict.reason and "3 times" in verdict.reason
    assert not check_deck("5H 5H".split(), 1)


@pytest.mark.parametrize("trick, options", [
    ("5h 6h jk", [["7H"]]),
    ("jk 5h 6h", [["4H"]]),
    ("6h 5h jk", [["4H"]]),                           # laid out downwards
    ("5h jk 6h", [["4H", "7H"]]),                     # no clear order: either end
    ("9s jk jk qs", [["10S"], ["JS"]]),
    ("qc qh qd jk", [["QS"]]),
    ("qc qh jk jk", [["QS", "QD"]] * 2),
    ("qc jk jk", [["AC", "10C", "JC", "QS", "QH", "QD", "KC"]] * 2),   # a set or a run
])
def test_joker_identity(trick, options):
    verdict = joker_identity(trick.split())
    assert verdict
    assert [j["options"] for j in verdict.details["jokers"]] == options
    assert [j["card"] for j in verdict.details["jokers"]] == [
        o[0] if len(o) == 1 else None for o in options]


def test_joker_identity_of_a_bad_trick_and_of_no_joker():
    assert not joker_identity("jk 5h 9h".split())
    verdict = joker_identity("5h 6h 7h".split())
    assert verdict and verdict.details["jokers"] == []


@pytest.mark.parametrize("args, legal, words", [
    (("5H 6H 7H", "8H", "JK 2C 3C", "8H 2C 3C"), False, "no joker"),
    (("5H 6H JK", "JK", "JK 2C 3C", "JK 2C 3C"), False, "not another joker"),
    (("5H 6H JK", "7H", "JK 2C 3C", "2C 3C"), False, "from your hand"),
    (("5H 6H JK", "7H", "2C 3C 4C", "7H 2C 3C 4C"), False, "used at once"),
    (("5H 6H JK", "7H", "JK 2C 5C", "7H 2C 5C"), False, "not valid"),
    (("5H 6H JK", "4H", "JK 2C 3C", "4H 2C 3C"), False, "stands for 7♥"),
    (("5H JK 6H", "4H", "JK 2C 3C", "4H 2C 3C"), True, "Legal"),
])
def test_check_steal_refusals(args, legal, words):
    verdict = check_steal(*(a.split() if " " in a else a for a in args))
    assert verdict.ok is legal and words in verdict.reason


def test_check_steal_with_a_declared_joker():
    trick, new, hand = "QC QH JK".split(), "JK 5S 5H".split(), "QS QD 5S 5H".split()
    assert check_steal(trick, "QS", new, hand, declared="QS")
    verdict = check_steal(trick, "QD", new, hand, declared="QS")
    assert not verdict and "Q♠" in verdict.reason
    assert check_steal(trick, "QS", new, hand, declared="QC").rule == "RID-A5"


def test_card_points():
    assert [card_points(c) for c in "AS 2H 9D 10C JS QH KD JK".split()] == [
        1, 2, 9, 10, 10, 10, 10, 0]


def test_check_board_reports_each_bad_trick():
    verdict = check_board([["5H", "6H", "7H"], ["8S", "9S"], ["JK", "JK", "JK"]])
    assert not verdict and verdict.rule == "RID-7"
    assert [(b["index"], b["rule"]) for b in verdict.details["bad"]] == [
        (1, "RID-3"), (2, "RID-A5")]
    assert "Tricks 2 and 3" in verdict.reason
    assert [t["ok"] for t in verdict.details["tricks"]] == [True, False, False]
    assert check_board([]).ok


def test_check_board_counts_copies_across_tricks():
    board = [["7H", "8H", "9H"], ["7H", "8H", "9H"]]
    assert check_board(board, decks=2)
    verdict = check_board(board, decks=1)
    assert not verdict and verdict.rule == "RID-1"
    assert not check_board(board + [["7H", "7S", "7D"]])


def test_review_board_offers_a_layout():
    verdict = review_board([["5H", "6H"], ["7H", "7S", "7D", "7C", "7H"]])
    assert not verdict and verdict.details["arrangeable"] is True
    assert is_split_of(verdict.details["arrangement"],
                       "5H 6H 7H 7S 7D 7C 7H".split())
    verdict = review_board([["KD", "AD"]])
    assert not verdict and verdict.details["arrangeable"] is False
    assert verdict.details["arrangement"] is None and verdict.rule == "RID-A6"
    verdict = review_board([["KD", "AD", "QD"]])
    assert verdict and verdict.details["arrangement"] is None


def test_arrange_refuses_more_copies_than_the_decks():
    with pytest.raises(RuleError) as error:
        arrange("5H 5H 5S 5D".split(), decks=1)
    assert error.value.rule == "RID-1"
    with pytest.raises(RuleError):
        arrange("5H 5H 5H".split())
    with pytest.raises(RuleError):
        arrange(["JK"] * 5 + ["5H"])


@pytest.mark.parametrize("cards, ok", [
    ("", True),
    ("JK JK JK", False),
    ("5S 5H 5D JK JK", False),                       # 5 cards, one rank: no split
    ("5S 5H 5D 5C JK", False),
    ("5S JK JK JK JK", True),
    ("5S 5H 5D 5C 6S 6H 6D 6C JK", True),            # 5S 6S JK + two sets of 3
    ("QS KS JK 2S 3S", True),                        # Q K A(JK) 2 3
    ("AS", False),
])
def test_arrange_small_cases(cards, ok):
    split = arrange(cards.split())
    assert (split is not None) is ok
    if split is not None:
        assert is_split_of(split, cards.split())


def test_arrange_the_full_double_deck():
    cards = [r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4
    split = arrange(cards)
    assert split is not None and is_split_of(split, cards)


def test_arrange_accepts_a_string_and_returns_upper_case():
    split = arrange("qs ks as 2s")
    assert split == [["QS", "KS", "AS", "2S"]]


def test_arrange_budget():
    with pytest.raises(TimeoutError):
        rng = random.Random(5)
        deck = [r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4
        for _ in range(200):                          # some instance takes > 0 s
            arrange(rng.sample(deck, 70), budget=0.0)


# ---------------------------------------------------------------------------------------
# Properties.

CARDS = [r + s for r in RANKS for s in SUITS]


@st.composite
def tricks(draw):
    """One random valid trick (jokers included sometimes)."""
    if draw(st.booleans()):
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
        cards = [rank + s for s in suits]
    else:
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(0, 12))
        length = draw(st.integers(3, 13))
        cards = [RANKS[(start + i) % 13] + suit for i in range(length)]
    # At most 2 of 3+ cards become jokers, so a natural card always stays (RID-A5).
    jokers = draw(st.lists(st.integers(0, len(cards) - 1), max_size=2, unique=True))
    return [("JK" if i in jokers else c) for i, c in enumerate(cards)]


@st.composite
def boards(draw):
    """Tricks that together fit in two decks (2 copies, 4 jokers)."""
    chosen = draw(st.lists(tricks(), max_size=8))
    kept, used = [], Counter()
    for trick in chosen:
        extra = Counter(trick)
        if all(used[c] + n <= (4 if c == "JK" else 2) for c, n in extra.items()) \
                and check_trick(trick):
            kept.append(trick)
            used += extra
    return kept


@hyp_settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_cards_from_valid_tricks_always_arrange(board, rnd):
    cards = [c for trick in board for c in trick]
    rnd.shuffle(cards)
    split = arrange(cards)
    assert split is not None
    assert is_split_of(split, cards)
    assert check_board(board)


@hyp_settings(max_examples=200, deadline=None)
@given(tricks(), st.randoms(use_true_random=False))
def test_trick_validity_ignores_order_and_case(trick, rnd):
    shuffled = list(trick)
    rnd.shuffle(shuffled)
    assert check_trick(shuffled).ok == check_trick(trick).ok
    lower = check_trick([c.lower() for c in trick])
    assert lower.ok == check_trick(trick).ok
    assert lower.details["cards"] == trick


def shift(card, ranks=0, suits=None):
    if card == "JK":
        return card
    rank, suit = card[:-1], card[-1]
    new_suit = suits[SUITS.index(suit)] if suits else suit
    return RANKS[(RANKS.index(rank) + ranks) % 13] + new_suit


@hyp_settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(CARDS + ["JK"]), max_size=22), st.integers(1, 12),
       st.permutations(list(SUITS)))
def test_arrangeable_is_invariant_under_rank_rotation_and_suit_renaming(cards, turn, suits):
    counts = Counter(cards)
    cards = [c for c in cards if counts[c] <= (4 if c == "JK" else 2)]
    moved = [shift(c, turn, "".join(suits)) for c in cards]
    assert (arrange(cards) is None) == (arrange(moved) is None)


@hyp_settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Ann", "Bob", "Cy"]), max_size=12),
       st.one_of(st.none(), st.integers(1, 4)))
def test_totals_count_games_won(winners, target):
    state = GAME.new({"target": target}, ["Ann", "Bob", "Cy"])
    played = 0
    for player in winners:
        if GAME.summary(state)["over"]:
            break
        state = GAME.apply(state, come_in(player, "2S 2H 2D"))
        state = GAME.apply(state, win(player))
        played += 1
    sheet = GAME.summary(state)
    assert sum(sheet["totals"].values()) == played == sheet["games_played"]
    if target is not None and sheet["over"]:
        assert max(sheet["totals"].values()) == target
        assert sheet["winners"] == [p for p, n in sheet["totals"].items() if n == target]
    else:
        assert sheet["winners"] == []
