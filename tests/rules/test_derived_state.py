"""Derived game state that lives in the rules (ARCHITECTURE.md §9): turn and play order, who
is waiting, the last winner, the reveal default, the other team, the RockIt board review.
The web adapters and templates only read these."""
from __future__ import annotations

import pytest

from companion.rules import rainbow_rummy, rocca, rockit, zocknroll

SEATS = ["Ann", "Bob", "Cy", "Dee"]


# ---------------------------------------------------------------- Rocca: turn order

@pytest.mark.parametrize("first, direction, still_in, expected", [
    ("Ann", 1, SEATS, ["Ann", "Bob", "Cy", "Dee"]),
    ("Cy", 1, SEATS, ["Cy", "Dee", "Ann", "Bob"]),
    ("Cy", -1, SEATS, ["Cy", "Bob", "Ann", "Dee"]),
    ("Ann", -1, ["Ann", "Cy", "Dee"], ["Ann", "Dee", "Cy"]),
    ("Bob", 1, ["Ann", "Cy"], ["Cy", "Ann"]),          # Bob is out: he is skipped
    (None, 1, ["Bob", "Dee"], ["Bob", "Dee"]),         # nobody acts: seat order
    ("Zed", 1, SEATS, SEATS),
])
def test_rocca_turn_order(first, direction, still_in, expected):
    assert rocca.turn_order(SEATS, still_in, first, direction) == expected


def test_rocca_summary_turn_order_and_queen_targets_follow_the_play():
    state = rocca.new({}, SEATS[:3])
    s = rocca.summary(state)
    assert s["turn_order"] == ["Ann", "Bob", "Cy"]
    assert s["queen_targets"] == ["Bob", "Cy"]
    state = rocca.apply(state, {"kind": "play", "player": "Ann", "card": "AH"})   # ace again
    state = rocca.apply(state, {"kind": "play", "player": "Ann", "card": "7H"})
    s = rocca.summary(state)
    assert s["current"] == "Bob" and s["turn_order"] == ["Bob", "Cy", "Ann"]
    assert s["queen_targets"] == ["Ann", "Cy"]


# ---------------------------------------------------------------- RockIt: order, waiting

@pytest.mark.parametrize("starter, expected", [
    ("Ann", ["Ann", "Bob", "Cy"]),
    ("Cy", ["Cy", "Ann", "Bob"]),
    (None, ["Ann", "Bob", "Cy"]),
])
def test_rockit_play_order(starter, expected):
    assert rockit.play_order(["Ann", "Bob", "Cy"], starter) == expected


def test_rockit_summary_waiting_last_winner_and_last_event():
    state = rockit.new({"decks": 2}, ["Ann", "Bob", "Cy"])
    s = rockit.summary(state)
    assert s["play_order"] == ["Ann", "Bob", "Cy"] and s["waiting"] == ["Ann", "Bob", "Cy"]
    assert s["last_winner"] is None and s["last_event"] is None
    state = rockit.apply(state, {"kind": "come_in", "player": "Bob",
                                 "cards": ["10H", "10S", "10D"]})
    s = rockit.summary(state)
    assert s["waiting"] == ["Ann", "Cy"]
    assert s["last_event"]["kind"] == "come_in" and s["last_event"]["player"] == "Bob"
    assert s["last_event"]["order"] == 1
    state = rockit.apply(state, {"kind": "win", "player": "Bob"})
    s = rockit.summary(state)
    assert s["last_winner"] == "Bob" and s["starter"] == "Bob"
    assert s["play_order"] == ["Bob", "Cy", "Ann"] and s["waiting"] == ["Ann", "Bob", "Cy"]
    assert s["last_event"]["kind"] == "win" and s["last_event"]["winner"] == "Bob"


# ---------------------------------------------------------------- RockIt: the board review

def test_review_layout_a_valid_board_may_say_rockit():
    review = rockit.review_layout([["5H", "6H", "7H"], ["9S", "9D", "9C"]], decks=2)
    assert review["ok"] is True and review["rockit"] is True and review["rule"] == "RID-7"
    assert [t["ok"] for t in review["tricks"]] == [True, True]
    assert (review["laid"], review["cards"], review["hand"], review["loose"]) == (2, 6, 0, 0)


def test_review_layout_a_bad_layout_gets_a_valid_one():
    review = rockit.review_layout([["5H", "6H"], ["7H", "8H", "9H", "10H"]], decks=2)
    assert review["ok"] is False and review["rockit"] is False and review["rule"] == "RID-7"
    assert [t["ok"] for t in review["tricks"]] == [False, True]
    assert sorted(c for t in review["arrangement"] for c in t["cards"]) == sorted(
        ["5H", "6H", "7H", "8H", "9H", "10H"])
    assert all("jokers" in t for t in review["arrangement"])


@pytest.mark.parametrize("tricks, loose, hand, ok, rule, start", [
    ([["5H", "6H", "7H"]], [], ["8H"], True, "RID-6", "Your card can join the board"),
    ([["5H", "6H", "7H"]], [], ["KS", "2D"], False, "RID-7", "Your 2 cards cannot all join"),
    ([["5H", "6H", "7H"]], ["8H"], [], False, "RID-7", "1 card is not in a trick yet."),
    ([], ["5H", "6H", "7H"], [], True, "RID-3", "All 3 cards can be laid out"),
    ([], ["5H", "6S", "9D"], [], False, "RID-A6", "No layout of these 3 cards is valid"),
])
def test_review_layout_with_loose_and_hand_cards(tricks, loose, hand, ok, rule, start):
    review = rockit.review_layout(tricks, loose, hand, decks=2)
    assert (review["ok"], review["rule"]) == (ok, rule)
    assert review["reason"].startswith(start), review["reason"]


def test_review_layout_copies_beyond_the_decks_and_no_cards():
    review = rockit.review_layout([], ["5H", "5H"], [], decks=1)
    assert review["ok"] is False and review["rule"] == "RID-1"
    with pytest.raises(ValueError):
        rockit.review_layout([], [], [], decks=2)


# ---------------------------------------------------------------- Zock'n'Roll: reveal

def _reveal_summary(waiting, dealer="Ann"):
    return {"guided": {"waiting": waiting}, "dealer": dealer}


@pytest.mark.parametrize("waiting, viewer, expected", [
    (["Bob", "Cy"], "Cy", "Cy"),                  # my own dice first
    (["Bob", zocknroll.JORG], "Ann", zocknroll.JORG),   # Jörg's on the dealer's phone
    (["Bob", zocknroll.JORG], "Cy", "Bob"),       # else the first still to show
    (["Bob"], None, "Bob"),                       # a spectator
    ([zocknroll.JORG], None, zocknroll.JORG),
    ([], "Ann", None),
])
def test_zocknroll_reveal_default(waiting, viewer, expected):
    assert zocknroll.reveal_default(_reveal_summary(waiting), viewer) == expected


def test_zocknroll_reveal_default_for_spectators_when_nobody_deals():
    assert zocknroll.reveal_default(_reveal_summary([zocknroll.JORG, "Bob"], None),
                                    None) == zocknroll.JORG


# ---------------------------------------------------------------- Rainbow Rummy: teams

@pytest.mark.parametrize("team, other", [("A", "B"), ("B", "A")])
def test_rainbow_rummy_other_team(team, other):
    assert rainbow_rummy.other_team(team) == other


@pytest.mark.parametrize("team", ["C", "", None, "a"])
def test_rainbow_rummy_other_team_refuses_a_non_team(team):
    with pytest.raises(ValueError):
        rainbow_rummy.other_team(team)


def test_rainbow_rummy_hand_rows_name_the_team_that_does_not_score():
    state = rainbow_rummy.new({}, SEATS)
    cards = {"Ann": {"hand": [], "down": []}, "Bob": {"hand": ["5J"], "down": []},
             "Cy": {"hand": ["2E"], "down": []}, "Dee": {"hand": ["GN"], "down": []}}
    state = rainbow_rummy.apply(state, {"kind": "hand", "went_out": "Ann", "cards": cards})
    hand = rainbow_rummy.summary(state)["hands"][0]
    assert hand["scorer"] in ("A", "B")
    assert hand["loser"] == rainbow_rummy.other_team(hand["scorer"])
