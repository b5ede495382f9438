"""Going on from a paper sheet (``Game.from_paper``): the totals written on paper start the
game, count toward its target, and are checked against each game's rules (table-driven)."""
from __future__ import annotations

import pytest

from companion.rules import GAMES, RuleError, rainbow_rummy, rook, scorepad, zocknroll
from companion.rules.game import paper_action

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def test_rook_resumes_at_340_285_and_plays_on_to_600():
    """The issue's check: team A (Ann & Cid) 340, team B (Bob & Dee) 285 on paper."""
    state = rook.GAME.start_from_paper({}, FOUR, {"totals": {"A": 340, "B": 285}})
    sheet = rook.summary(state)
    assert sheet["paper"] == {"totals": {"A": 340, "B": 285}}
    assert sheet["totals"] == {"A": 340, "B": 285} and sheet["leaders"] == ["A"]
    assert sheet["hands"] == [] and sheet["dealer"] == "Ann"
    # Bob bids 150 and makes it with 180 (RK-8): B 465, A 410.
    state = rook.apply(state, {"kind": "hand", "bidder": "Bob", "bid": 150,
                               "points": {"A": 70, "B": 180}})
    assert rook.summary(state)["totals"] == {"A": 410, "B": 465}
    assert rook.summary(state)["hands"][0]["running"] == {"A": 410, "B": 465}
    # Ann bids 190 and takes 200: A 610 reaches the target of 600 (RK-9); B 515.
    state = rook.apply(state, {"kind": "hand", "bidder": "Ann", "bid": 190,
                               "points": {"A": 200, "B": 50}})
    sheet = rook.summary(state)
    assert sheet["totals"] == {"A": 610, "B": 515}
    assert sheet["over"] and sheet["winners"] == ["A"]
    assert sheet["over_reason"]["rule"] == "RK-9"
    outcome = rook.GAME.outcome(state)
    assert outcome.places == {"A": 1, "B": 2}


def test_a_set_bidder_can_take_the_paper_total_below_zero():
    state = rook.GAME.start_from_paper({}, FOUR, {"totals": {"A": -100, "B": 20}})
    state = rook.apply(state, {"kind": "hand", "bidder": "Ann", "bid": 200,
                               "points": {"A": 100, "B": 150}})
    assert rook.summary(state)["totals"] == {"A": -300, "B": 170}      # R-A8


def test_the_paper_line_is_the_games_first_action_through_apply():
    paper = {"totals": {"A": 340, "B": 285}}
    assert (rook.apply(rook.new({}, FOUR), paper_action(paper))
            == rook.GAME.start_from_paper({}, FOUR, paper))
    played = rook.apply(rook.new({}, FOUR), {"kind": "hand", "bidder": "Ann", "bid": 150,
                                             "points": {"A": 150, "B": 100}})
    with pytest.raises(RuleError, match="before its first hand") as caught:
        rook.apply(played, paper_action(paper))
    assert caught.value.rule == "RK-9"


def test_a_rematch_starts_from_nothing():
    state = rook.GAME.start_from_paper({}, FOUR, {"totals": {"A": 340, "B": 285}})
    state = rook.apply(state, {"kind": "hand", "bidder": "Ann", "bid": 250,
                               "points": {"A": 250, "B": 0}})
    after = rook.GAME.start_after({}, FOUR, rook.summary(state))
    assert rook.summary(after)["totals"] == {"A": 0, "B": 0}
    assert rook.summary(after)["paper"] is None


REFUSED = [
    # (game slug, settings, totals, rule, words in the sentence)
    ("rook", {}, {"A": 343, "B": 285}, "RK-7", "multiple of 5"),
    ("rook", {}, {"A": 600, "B": 285}, "RK-9", "already reaches the target of 600"),
    ("rook", {}, {"A": 340, "B": 725}, "RK-9", "Bob & Dee, 725"),
    ("rook", {"variant": "kentucky"}, {"A": 300, "B": 0}, "RK-9", "target of 300"),
    ("rook", {}, {"A": 340}, "RK-9", "Enter the total of Bob & Dee"),
    ("rook", {}, {"A": 340, "B": "285"}, "RK-9", "whole number"),
    ("rook", {}, {"A": 340, "B": True}, "RK-9", "whole number"),
    ("rook", {}, {"A": 340, "B": 285, "C": 5}, "RK-9", "'C' is not playing"),
    ("rook", {}, {"A": 10 ** 12, "B": 0}, "RK-9", "too large"),
    ("rainbow_rummy", {}, {"A": -5, "B": 20}, "RR-11", "can't be below 0"),
    ("rainbow_rummy", {}, {"A": 40, "B": 100}, "RR-11", "target of 100"),
    ("rainbow_rummy", {"target": 150}, {"A": 40, "B": 150}, "RR-11", "target of 150"),
    ("scorepad", {"target": 100}, {"Ann": 100, "Bob": 0, "Cid": 0, "Dee": 0}, "SP-2",
     "Ann, 100, already reaches"),
    ("scorepad", {}, {"Ann": 1, "Bob": 2, "Cid": 3}, "SP-2", "Enter the total of Dee"),
    ("scorepad", {}, {"Ann": 1.5, "Bob": 2, "Cid": 3, "Dee": 4}, "SP-2", "whole number"),
]


@pytest.mark.parametrize("slug, settings, totals, rule, words", REFUSED)
def test_a_paper_sheet_that_cannot_be_is_refused_citing_the_rule(slug, settings, totals,
                                                                  rule, words):
    game = GAMES[slug]
    with pytest.raises(RuleError) as caught:
        game.start_from_paper(settings, FOUR, {"totals": totals})
    assert caught.value.rule == rule
    assert words in str(caught.value)


@pytest.mark.parametrize("paper", [None, [], "340", {"totals": [340, 285]}, {}])
def test_a_paper_sheet_that_is_not_one_is_refused(paper):
    with pytest.raises(RuleError, match="Write down the totals"):
        rook.GAME.start_from_paper({}, FOUR, paper)


ACCEPTED = [
    ("rook", {}, {"A": 595, "B": -595}),
    ("rook", {"both_over": "made_bid"}, {"A": 650, "B": 0}),   # only a made bid wins (RK-9)
    ("rainbow_rummy", {}, {"A": 0, "B": 99}),
    ("scorepad", {}, {"Ann": -40, "Bob": 10 ** 9, "Cid": 0, "Dee": 7}),
    ("scorepad", {"target": 100, "low_wins": True}, {"Ann": 99, "Bob": 3, "Cid": 0, "Dee": 7}),
]


@pytest.mark.parametrize("slug, settings, totals", ACCEPTED)
def test_a_paper_sheet_within_the_rules_starts_the_game(slug, settings, totals):
    game = GAMES[slug]
    sheet = game.summary(game.start_from_paper(settings, FOUR, {"totals": totals}))
    assert sheet["totals"] == totals and not sheet["over"]


def test_score_pad_paper_counts_toward_the_target_and_the_running_totals():
    state = scorepad.GAME.start_from_paper({"target": 100}, ["Ann", "Bob"],
                                           {"totals": {"Ann": 90, "Bob": 40}})
    state = scorepad.apply(state, {"kind": "round", "scores": {"Ann": 5, "Bob": 30}})
    assert scorepad.summary(state)["running"] == [{"Ann": 95, "Bob": 70}]
    state = scorepad.apply(state, {"kind": "round", "scores": {"Ann": 5, "Bob": 0}})
    sheet = scorepad.summary(state)
    assert sheet["over"] and sheet["winners"] == ["Ann"] and sheet["totals"]["Ann"] == 100
    assert sheet["round_count"] == 2


def test_rainbow_rummy_paper_counts_toward_the_target():
    state = rainbow_rummy.GAME.start_from_paper({}, FOUR, {"totals": {"A": 95, "B": 60}})
    sheet = rainbow_rummy.summary(state)
    assert sheet["totals"] == {"A": 95, "B": 60} and sheet["leaders"] == ["A"]
    state = rainbow_rummy.apply(state, {"kind": "hand", "went_out": "Ann", "cards": {
        "Ann": {"down_points": 0}, "Bob": {"hand_points": 5, "down_points": 0},
        "Cid": {"hand_points": 5, "down_points": 0},
        "Dee": {"hand_points": 5, "down_points": 0}}})
    sheet = rainbow_rummy.summary(state)
    assert sheet["totals"] == {"A": 105, "B": 60}
    assert sheet["over"] and sheet["winners"] == ["A"] and sheet["over_reason"]["rule"] == "RR-11"


def test_zocknroll_goes_on_from_the_paper_boards_checks():
    """A paper board holds each player's checked circles per row; they count in the final
    score (ZNR-9) and toward the end (ZNR-8): Ann's 6th Pair check ends the game."""
    boards = {"Ann": {"winner": 2, "pair": 5}, "Bob": {"yahtzee": 1}}
    state = zocknroll.GAME.start_from_paper({}, ["Ann", "Bob", "Cy"], {"checks": boards})
    sheet = zocknroll.summary(state)
    assert sheet["marks"]["Ann"]["pair"] == 5 and sheet["marks"]["Cy"]["pair"] == 0
    assert sheet["totals"] == {"Ann": 2 * 3 + 5 * 2, "Bob": 12, "Cy": 0}
    assert sheet["paper"]["checks"]["Bob"]["yahtzee"] == 1
    assert sheet["paper"]["totals"] == {"Ann": 16, "Bob": 12, "Cy": 0}
    state = zocknroll.apply(state, {"kind": "mark", "player": "Ann", "row": "pair", "round": 2})
    assert zocknroll.summary(state)["last_turn"]
    state = zocknroll.apply(state, {"kind": "end_turn"})
    sheet = zocknroll.summary(state)
    assert sheet["over"] and sheet["winners"] == ["Ann"] and sheet["totals"]["Ann"] == 18
    assert sheet["over_reason"]["rule"] == "ZNR-8"


ZNR_REFUSED = [
    # (settings, boards, rule, words)
    ({}, {"Ann": {"pair": 6}}, "ZNR-8", "check 6 in one row ends the game"),
    ({"end_at": 7}, {"Ann": {"pair": 7}}, "ZNR-8", "check 7 in one row"),
    ({}, {"Jörg": {}}, "ZNR-1", "'Jörg' has no board"),
    ({}, {"Ann": {"royal_pairs": 1}}, "ZNR-9", "Royal Pairs is not a row of the beginner board"),
    ({}, {"Ann": {"nine": 1}}, "ZNR-9", "nine is not a row"),
    ({}, {"Ann": {"pair": -1}}, "ZNR-9", "whole number of 0 or more"),
    ({}, {"Ann": {"pair": "2"}}, "ZNR-9", "whole number of 0 or more"),
    ({}, {"Ann": [1, 2]}, "ZNR-9", "must list rows"),
    ({}, None, "ZNR-9", "Write down each player's checks"),
]


@pytest.mark.parametrize("settings, boards, rule, words", ZNR_REFUSED)
def test_a_paper_board_that_cannot_be_is_refused_citing_the_rule(settings, boards, rule,
                                                                  words):
    with pytest.raises(RuleError) as caught:
        zocknroll.GAME.start_from_paper(settings, ["Ann", "Bob", "Cy"], {"checks": boards})
    assert caught.value.rule == rule and words in str(caught.value)


def test_seven_checks_to_end_allow_six_on_paper():
    state = zocknroll.GAME.start_from_paper({"end_at": 7}, ["Ann", "Bob", "Cy"],
                                            {"checks": {"Ann": {"pair": 6}}})
    assert not zocknroll.summary(state)["over"]


@pytest.mark.parametrize("slug", ["rockit", "rocca"])
def test_games_whose_state_paper_does_not_hold_are_not_offered(slug):
    game = GAMES[slug]
    assert game.from_paper is None
    with pytest.raises(ValueError, match="can't start from a paper sheet"):
        game.start_from_paper({}, FOUR[:game.min_players], {"totals": {}})
