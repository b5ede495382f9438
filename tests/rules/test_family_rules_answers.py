"""Rules answers a family met at the table, each row citing the rule it settles (RULES.md):
the best hand of dice that make none (ZNR-2), playing in the come-in turn (RID-A4), more
points than a Rook hand holds (RK-7), names of invisible characters (SECURITY.md), and
the Zock'n'Roll turn result with every reveal logged (ZNR-4, ZNR-6)."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import find_game
from companion.rules.game import _IGNORABLE, check_seats, clean_name, name_key
from companion.rules.rockit import check_play
from companion.rules.rook import score_hand
from companion.rules.zocknroll import explain_hand

ZNR = find_game("zocknroll")
ROCKIT = find_game("rockit")


@pytest.mark.parametrize("board, dice, ok, rule, words", [
    ("beginner", [1, 2, 3, 4, 6], False, "ZNR-2",
     "make no hand on the beginner board: a player who drops out in round 1 checks only "
     "Dropped Out First Round."),
    ("beginner", [1, 2, 3, 5, 6, 4], True, "ZNR-4", "Large Straight"),
    ("advanced", [1, 2, 3, 5, 6, 6], False, "ZNR-2", "make no hand on the advanced board"),
])
def test_znr2_best_hand_of_dice_that_make_none(board, dice, ok, rule, words):
    verdict = explain_hand(dice, board)
    assert verdict.ok is ok and verdict.rule == rule and words in verdict.reason
    assert (verdict.details["row"] is None) is (not ok)


def _come_in(player, cards):
    return {"kind": "come_in", "player": player, "cards": cards.split()}


@pytest.mark.parametrize("moves, player, ok, rule, words", [
    ([], "Ann", False, "RID-4", "has not come in yet"),
    ([("Ann", "10H JH QH")], "Ann", False, "RID-A4",
     "Ann has just come in: coming in is the whole turn, so Ann plays on the board from the "
     "next turn."),
    ([("Ann", "10H JH QH")], "Bob", False, "RID-4", "has not come in yet"),
    ([("Ann", "10H JH QH"), ("Bob", "2S 2H 2D")], "Ann", True, "RID-6",
     "came in on an earlier turn"),
    ([("Ann", "10H JH QH"), ("Bob", "2S 2H 2D")], "Bob", False, "RID-A4", "just come in"),
])
def test_rid_a4_coming_in_is_the_whole_turn(moves, player, ok, rule, words):
    state = ROCKIT.new({}, ["Ann", "Bob", "Cid"])
    for who, cards in moves:
        state = ROCKIT.apply(state, _come_in(who, cards))
    verdict = check_play(state, player)
    assert verdict.ok is ok and verdict.rule == rule and words in verdict.reason


@pytest.mark.parametrize("variant, bid, bidder, other, rule, words", [
    ("family", 150, 260, -10, "RK-7", "A hand holds 250 points in all, so no team takes 260."),
    ("family", 150, -10, 260, "RK-7", "A hand holds 250 points in all, so no team takes 260."),
    ("family", 150, 255, 0, "RK-7", "A hand holds 250 points in all, so no team takes 255."),
    ("kentucky", 70, 130, -10, "RK-7", "A hand holds 120 points in all, so no team takes 130."),
    ("family", 150, 200, -10, "RK-7", "Points taken are whole numbers of 0 or more."),
])
def test_rk7_a_hand_holds_its_total_in_all(variant, bid, bidder, other, rule, words):
    verdict = score_hand(variant, bid, bidder, other)
    assert not verdict and verdict.rule == rule and verdict.reason.startswith(words)


IGNORABLE = [chr(c) for low, high in _IGNORABLE for c in range(low, min(high, low + 40) + 1)]


@pytest.mark.parametrize("raw, clean", [
    ("\u3164", ""), ("\u3164\u3164 \u3164", ""), ("\u115f\u1160", ""), ("\uffa0", ""),
    ("\u034f\u17b4\u17b5\u180b\u180f", ""), ("\U000e0041\U000e007f\U000e0fff", ""),
    ("\u2060\u206f\ufe00\ufe0f\u00ad", ""),
    ("A\u3164nn", "Ann"), ("Ann\ufe0f", "Ann"), ("\u3164Bob\u3164", "Bob"),
])
def test_security_names_drop_default_ignorable_characters(raw, clean):
    """docs/SECURITY.md "Names are names": invisible characters removed, a blank name
    refused."""
    assert clean_name(raw) == clean
    if not clean:
        with pytest.raises(ValueError, match="one name is empty"):
            check_seats(["Ann", raw], 2, 4)


def _visible(name: str) -> bool:
    return any(not ch.isspace() and ch not in IGNORABLE_SET
               and unicodedata.category(ch) not in ("Cc", "Cf", "Cs") for ch in name)


IGNORABLE_SET = {chr(c) for low, high in _IGNORABLE for c in range(low, high + 1)}


@given(st.lists(st.one_of(st.sampled_from(IGNORABLE + [" ", "\n", "\u200b", "\u2028"]),
                          st.characters()), max_size=12).map("".join))
def test_no_stored_name_is_blank_after_cleaning(raw):
    """Whatever is typed, a name that check_seats keeps has something to see, and no
    default-ignorable character is left in it or in its key."""
    name = clean_name(raw)
    assert not any(ch in IGNORABLE_SET for ch in name)
    assert not any(ch in IGNORABLE_SET for ch in name_key(raw))
    try:
        kept = check_seats([raw, "Zz9"], 2, 4)[0]
    except ValueError:
        return
    assert kept and _visible(kept)


ZNR_TURN = [
    {"kind": "roll", "dice": [2, 2, 5]},
    {"kind": "drop", "player": "Bob", "round": 1, "dice": [2, 6, 2, 2, 5]},
    {"kind": "stay", "player": "Cid"}, {"kind": "stay", "player": "Ann"},
    {"kind": "roll", "dice": [4]}, {"kind": "stay", "player": "Cid"},
    {"kind": "stay", "player": "Ann"}, {"kind": "roll", "dice": [5]},
    {"kind": "reveal", "player": "Cid", "dice": [1, 3]},
    {"kind": "reveal", "player": "Ann", "dice": [1, 2]},
    {"kind": "reveal", "player": "Jörg", "dice": [6, 6]},
]


@pytest.mark.parametrize("player, own, label, best, winner", [
    ("Cid", [1, 3], "Large Straight", True, True),
    ("Ann", [1, 2], "Full House", False, False),
    ("Jörg", [6, 6], "Two Pair", False, False),
])
def test_znr4_the_turn_result_shows_every_hand_until_the_next_roll(player, own, label, best,
                                                                    winner):
    state = ZNR.new({}, ["Ann", "Bob", "Cid"])
    for action in ZNR_TURN:
        state = ZNR.apply(state, action)
    s = ZNR.summary(state)
    result = s["turn_result"]
    assert result["turn"] == 1 and result["rule"] == "ZNR-4"
    assert "Cid wins round 3 with Large Straight" in result["text"]
    hand = next(h for h in result["hands"] if h["player"] == player)
    assert (hand["own"], hand["label"], hand["best"], hand["winner"]) == (own, label, best,
                                                                           winner)
    assert result["drops"] == [{"player": "Bob", "round": 1, "dice": [2, 2, 2, 5, 6],
                                "own": [2, 6], "row": "three_kind",
                                "label": "Three of a Kind"}]
    # Every reveal is in the turn log with its dice, the last one (Jörg's, ZNR-6) too.
    lines = [(line["text"], line["rule"]) for line in s["turns"][0]["lines"]]
    assert ("Cid revealed 1, 3.", "ZNR-4") in lines and ("Ann revealed 1, 2.", "ZNR-4") in lines
    assert lines[-2] == ("Jörg revealed 6, 6.", "ZNR-6") and lines[-1][1] == "ZNR-4"
    # The next roll starts turn 2: the result leaves the top.
    state = ZNR.apply(state, {"kind": "roll", "dice": [1, 1, 1]})
    assert ZNR.summary(state)["turn_result"] is None


def test_znr4_a_turn_tapped_on_paper_says_who_won_round_three():
    state = ZNR.new({}, ["Ann", "Bob", "Cid", "Dan"])
    for action in [{"kind": "mark", "player": "Bob", "row": "pair", "round": 1},
                   {"kind": "mark", "player": "Bob", "row": "dropped_out", "round": 1},
                   {"kind": "mark", "player": "Cid", "row": "full_house", "round": 3},
                   {"kind": "mark", "player": "Cid", "row": "winner", "round": 3},
                   {"kind": "end_turn"}]:
        state = ZNR.apply(state, action)
    result = ZNR.summary(state)["turn_result"]
    assert result["text"] == "Cid won round 3: Winner of Third Round." and result["rule"] == "ZNR-4"
    assert [(h["player"], h["label"], h["winner"]) for h in result["hands"]] == [
        ("Cid", "Full House", True)]
    assert [(d["player"], d["round"], d["label"]) for d in result["drops"]] == [
        ("Bob", 1, "Pair")]
