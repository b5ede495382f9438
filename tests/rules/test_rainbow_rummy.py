"""Rainbow Rummy 333 (slug "rainbow_rummy"): RULES.md §3 — cards, plays, turns, scoring.

Every worked example of RULES.md §3.5 (RR1–RR13) is a row of a table below, named after its
example. The table checks and house rules have their own tests in
test_rainbow_rummy_checks.py.
"""

import copy
import json

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import RuleError, Verdict, find_game, rainbow_rummy
from companion.rules.cards import all_cards
from companion.rules.rainbow_rummy import (
    DECK_POINTS,
    RULES,
    SETTINGS,
    can_build,
    can_move,
    can_play_on_bar,
    can_slip,
    card_points,
    check_going_out,
    check_turn,
    count_points,
    cut_for_deal,
    score_hand,
)

GAME = find_game("rainbow_rummy")
SEATS = ["North", "East", "South", "West"]     # clockwise: A = North & South, B = East & West
FOUR = ["Ann", "Bob", "Cid", "Dee"]             # A = Ann & Cid, B = Bob & Dee


def hand(went_out, **players):
    """A hand action; each player is (hand cards, down cards) or a dict as the API takes."""
    cards = {}
    for name, value in players.items():
        if isinstance(value, dict):
            cards[name] = value
        else:
            cards[name] = {"hand": list(value[0]), "down": list(value[1])}
    return {"kind": "hand", "went_out": went_out, "cards": cards}


def points(went_out, **players):
    """A hand action in quick-points form: each player is (hand points, down points)."""
    return {"kind": "hand", "went_out": went_out,
            "cards": {name: {"hand_points": h, "down_points": d}
                      for name, (h, d) in players.items()}}


def play(settings, seats, actions):
    state = GAME.new(settings, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


# RR11: South goes out; North 7 + Sun in hand, 3 down; South a Moon down; East Galaxy + 1 in
# hand, 5 + 6 down; West a 2 in hand, a Sun down.
RR11 = hand("South", North=(["7E", "SJ"], ["3M"]), East=(["GN", "1S"], ["5E", "6J"]),
            South=([], ["MV"]), West=(["2N"], ["SE"]))


# ---------------------------------------------------------------------------------------
# RULES.md §3.5, worked examples RR1–RR13.

CHECK_EXAMPLES = [
    # example, function, args, keyword args, ok, rule
    ("RR1 5J on 6S", can_build, ("5J", "6S"), {}, True, "RR-4"),
    ("RR2 5J on 6J", can_build, ("5J", "6J"), {}, False, "RR-4"),
    ("RR3 Sun N on Galaxy N", can_build, ("SN", "GN"), {}, False, "RR-6"),
    ("RR3 Sun V on Galaxy N", can_build, ("SV", "GN"), {}, True, "RR-4"),
    ("RR3 7E on Moon M", can_build, ("7E", "MM"), {}, True, "RR-4"),
    ("RR4 1V on the empty bar", can_play_on_bar, ("1V", None), {}, True, "RR-8"),
    ("RR4 2V on 1V", can_play_on_bar, ("2V", "1V"), {}, True, "RR-8"),
    ("RR4 2E on 1V", can_play_on_bar, ("2E", "1V"), {}, False, "RR-8"),
    ("RR5 Galaxy S on an empty space", can_build, ("GS", None), {}, True, "RR-6"),
    ("RR5 Sun S on an empty space", can_build, ("SS", None), {}, False, "RR-6"),
    ("RR6 only 5E from [down][7M][6N][5E]", can_move, (["?", "7M", "6N", "5E"], ["?", "MS"]),
     {"moving": "5E"}, False, "RR-5"),
    ("RR6 whole 7M-6N-5E onto Moon S", can_move, (["?", "7M", "6N", "5E"], ["?", "MS"]), {},
     True, "RR-5"),
    ("RR7 first turn: card 1 on the bar", check_turn, (["bar"],), {"first_turn": True},
     False, "RR-9"),
    ("RR7 first turn: card 1 on the bar, card 2 on the team board", check_turn,
     (["bar", "team"],), {"first_turn": True}, False, "RR-9"),
    ("RR8 later turn: both on the bar", check_turn, (["bar", "bar"],), {}, False, "RR-9"),
    ("RR8 later turn: both on the opponents' board", check_turn,
     (["opponents", "opponents"],), {}, False, "RR-9"),
    ("RR9 last card only fits an opponent's board", check_going_out, ("opponents",), {},
     False, "RR-10"),
    ("RR10 7M behind 6M, down card turned", can_slip, ("7M", ["6M"]), {}, False, "RR-7"),
    ("RR10 7N behind 6M, down card not turned", can_slip, ("7N", ["?", "6M"]), {}, False,
     "RR-7"),
    ("RR13 cut 3E, Galaxy J, 7E, Moon S", cut_for_deal, (["3E", "GJ", "7E", "MS"],), {},
     True, "RR-2"),
]


@pytest.mark.parametrize("function, args, kwargs, ok, rule",
                         [case[1:] for case in CHECK_EXAMPLES],
                         ids=[case[0] for case in CHECK_EXAMPLES])
def test_worked_checks(function, args, kwargs, ok, rule):
    verdict = function(*args, **kwargs)
    assert isinstance(verdict, Verdict)
    assert verdict.ok is ok and bool(verdict) is ok
    assert verdict.rule == rule and rule in RULES
    assert verdict.reason.endswith(".") and verdict.reason[0].isupper()
    json.dumps(verdict.details)


def test_rr6_the_uncovered_down_card_is_turned_up():
    verdict = can_move(["?", "7M", "6N", "5E"], ["?", "MS"])
    assert verdict.details["moving"] == ["7M", "6N", "5E"]
    assert verdict.details["exposes_down_card"] is True
    assert verdict.details["leaves_empty"] is False
    assert "turned face up" in verdict.reason
    # Moving only the 6N-5E part is just as illegal as only the 5E.
    assert not can_move(["?", "7M", "6N", "5E"], ["MS"], moving="6N")


def test_rr9_the_card_stays_in_hand_and_play_continues():
    verdict = check_going_out("opponents")
    assert verdict.details["goes_out"] is False and verdict.details["may_play"] is False
    assert "keep it" in verdict.reason and "play continues" in verdict.reason
    turn = check_turn(["opponents"], cards_in_hand=1)
    assert not turn and turn.rule == "RR-A2"
    # ...while the same card on the own team board goes out.
    assert check_going_out("team").details["goes_out"] is True
    assert check_turn(["team"], cards_in_hand=1).details["going_out"] is True


def test_rr13_seven_of_e_deals():
    verdict = cut_for_deal({"North": "3E", "East": "GJ", "South": "7E", "West": "MS"})
    assert verdict.details["dealer"] == "South" and verdict.details["card"] == "7E"
    assert verdict.details["tied_on_suit"] == ["North", "South"]
    assert verdict.details["ranking"] == ["South", "North", "East", "West"]
    assert verdict.reason == ("South deals: E is the highest suit cut, and the 7 of E "
                              "outranks the 3 of E.")
    assert cut_for_deal(["3E", "GJ", "7E", "MS"]).details["dealer"] == 2


SCORE_EXAMPLES = [
    # example, settings, raw A (NS), raw B (EW), scorer, change, rule
    ("RR11 default: the player who went out counts their down cards", {}, 47, 47, None, 0,
     "RR-A7"),
    ("RR11 switch: the going-out player's down cards ignored", {"out_counts_down": False},
     37, 47, "A", 10, "RR-11"),
]


@pytest.mark.parametrize("settings, raw_a, raw_b, scorer, change, rule",
                         [case[1:] for case in SCORE_EXAMPLES],
                         ids=[case[0] for case in SCORE_EXAMPLES])
def test_rr11_scoring(settings, raw_a, raw_b, scorer, change, rule):
    verdict = score_hand(SEATS, RR11["went_out"], RR11["cards"], settings)
    assert verdict.ok and verdict.rule == rule
    d = verdict.details
    assert d["raw"] == {"A": raw_a, "B": raw_b}
    assert d["scorer"] == scorer and d["difference"] == change
    assert d["changes"] == {"A": change if scorer == "A" else 0, "B": 0}
    by_name = {row["player"]: row for row in d["players"]}
    # North: hand 7 + Sun = 17 → 34, down 3 → 37; East 11 → 22 + 11 = 33; West 2 → 4 + 10.
    assert (by_name["North"]["hand_points"], by_name["North"]["doubled"],
            by_name["North"]["down_points"], by_name["North"]["total"]) == (17, 34, 3, 37)
    assert (by_name["East"]["doubled"], by_name["East"]["down_counted"],
            by_name["East"]["total"]) == (22, 11, 33)
    assert (by_name["West"]["doubled"], by_name["West"]["total"]) == (4, 14)
    south = by_name["South"]
    assert south["went_out"] and south["doubled"] == 0 and south["down_points"] == 10
    assert south["down_counted"] == (10 if not settings else 0)
    assert south["rules"]["down"] == "RR-A1"
    # The sheet shows the same hand.
    sheet = GAME.summary(play(settings, SEATS, [RR11]))
    assert sheet["totals"] == {"A": change if scorer == "A" else 0, "B": 0}
    row = sheet["hands"][0]
    assert row["raw"] == {"A": raw_a, "B": raw_b} and row["rule"] == rule
    assert row["rules"] == {"A": rule, "B": rule}


def test_rr11_sheet_text():
    sheet = GAME.summary(play({}, SEATS, [RR11]))
    assert sheet["hands"][0]["text"] == ("South went out. North & South 47, East & West 47: "
                                         "a tie, so nobody scores.")
    switched = GAME.summary(play({"out_counts_down": False}, SEATS, [RR11]))
    assert switched["hands"][0]["text"] == ("South went out. North & South 37, East & West "
                                            "47: North & South score the difference, 10.")


def test_rr12_95_plus_10_wins():
    # Team A scores 40 + 40 + 15 = 95: North goes out, South keeps a 1 (2 points); team B
    # keeps 1 + 20 in hand (2 + 40), then 1 + 1 in hand and 13 face down (2 + 2 + 13).
    to_95 = [points("North", North=(0, 0), East=(1, 0), South=(1, 0), West=(20, 0)),
             points("North", North=(0, 0), East=(1, 0), South=(1, 0), West=(20, 0)),
             points("North", North=(0, 0), East=(1, 13), South=(1, 0), West=(1, 0))]
    before = GAME.summary(play({}, SEATS, to_95))
    assert before["totals"] == {"A": 95, "B": 0} and not before["over"]
    by_10 = points("South", North=(1, 0), East=(1, 0), South=(0, 0), West=(5, 0))
    sheet = GAME.summary(play({}, SEATS, to_95 + [by_10]))
    assert sheet["hands"][-1]["difference"] == 10
    assert sheet["totals"] == {"A": 105, "B": 0}
    assert sheet["over"] and sheet["winners"] == ["A"]
    assert sheet["over_reason"] == {"text": "North & South reached 105 (target 100).",
                                    "rule": "RR-11"}
    assert sheet["result"]["text"] == "North & South win with 105."
    assert sheet["dealer"] is None and sheet["hands"][-1]["ends_game"]


# ---------------------------------------------------------------------------------------
# Cards.

def expected_points(card):
    return 10 if card[0] in "MSG" else int(card[0])


@pytest.mark.parametrize("card", all_cards("ucd"))
def test_card_points_every_card(card):
    assert card_points(card) == expected_points(card)
    assert card_points(card.lower()) == card_points(f"  {card} ") == expected_points(card)


def test_deck():
    cards = all_cards("ucd")
    assert len(cards) == len(set(cards)) == 60
    assert sum(card_points(card) for card in cards) == DECK_POINTS == 348
    assert count_points(cards) == 348
    assert count_points("7e SJ") == 17 and count_points([]) == 0
    for suit in "EJMNSV":
        assert count_points([rank + suit for rank in "1234567MSG"]) == 58


@pytest.mark.parametrize("bad", ["8J", "5X", "GG1", "", "10E", "JK", None, 5])
def test_card_points_bad_notation(bad):
    with pytest.raises(ValueError):
        card_points(bad)


def test_bad_notation_names_the_card():
    with pytest.raises(ValueError, match="'8J'"):
        can_build("8J", "6S")
    with pytest.raises(ValueError, match="'QS'"):
        can_play_on_bar("5S", "QS")


# ---------------------------------------------------------------------------------------
# The API (RULES-API.md, "Common" and "rainbow_rummy").

def test_registry_entry():
    assert GAME.slug == "rainbow_rummy" and GAME.name == "Rainbow Rummy 333"
    assert (GAME.min_players, GAME.max_players, GAME.teams) == (4, 4, True)
    assert GAME is rainbow_rummy.GAME
    assert GAME.settings_fields == SETTINGS
    assert all(setting.rule in RULES for setting in SETTINGS)
    assert set(RULES) == {f"RR-{n}" for n in range(1, 12)} | {f"RR-A{n}" for n in range(1, 10)}


def test_new_game_summary():
    sheet = GAME.summary(GAME.new({}, [" Ann ", "Bob", "Cid", "Dee"]))
    assert sheet["seats"] == FOUR
    assert sheet["totals"] == {"A": 0, "B": 0}
    assert sheet["over"] is False and sheet["winners"] == [] and sheet["leaders"] == []
    assert sheet["teams"] == {"A": ["Ann", "Cid"], "B": ["Bob", "Dee"]}
    assert sheet["team_names"] == {"A": "Ann & Cid", "B": "Bob & Dee"}
    assert sheet["seat_teams"] == ["A", "B", "A", "B"]
    assert (sheet["dealer"], sheet["cutter"], sheet["first_player"]) == ("Ann", "Dee", "Bob")
    assert sheet["hands"] == [] and sheet["hand_count"] == 0 and sheet["cut"] is None
    assert sheet["target"] == 100 and sheet["deck_points"] == 348
    assert sheet["rules"] == RULES
    assert [row["name"] for row in sheet["house_rules"]] == [s.name for s in SETTINGS]
    assert sheet["house_rules"][1] == {"name": "out_counts_down",
                                       "label": "Player who went out counts face-down cards",
                                       "value": "Yes", "rule": "RR-A1"}
    assert sheet["settings"] == {"target": 100, "out_counts_down": True,
                                 "last_card_elsewhere": False, "going_out_exempt": False,
                                 "building": "between", "empty_space": "either",
                                 "second_card_team": False}


@pytest.mark.parametrize("seats", [FOUR[:3], FOUR + ["Eve"], ["Ann", "ann", "Cid", "Dee"],
                                   ["Ann", "", "Cid", "Dee"], "AnnBobCidDee"])
def test_new_refuses_bad_seats(seats):
    with pytest.raises(ValueError):
        GAME.new({}, seats)


@pytest.mark.parametrize("settings", [{"target": 0}, {"target": "100"}, {"colour": "red"},
                                      {"out_counts_down": "yes"}, {"building": "never"},
                                      {"empty_space": None, "x": 1}, ["target"]])
def test_new_refuses_bad_settings(settings):
    with pytest.raises(ValueError):
        GAME.new(settings, FOUR)


def test_parse_settings_form():
    assert GAME.parse_settings({}) == {"target": 100, "out_counts_down": True,
                                       "last_card_elsewhere": False,
                                       "going_out_exempt": False, "building": "between",
                                       "empty_space": "either", "second_card_team": False}
    form = GAME.parse_settings({"target": "150", "out_counts_down": "off",
                                "empty_space": "hand"})
    assert (form["target"], form["out_counts_down"], form["empty_space"]) == (150, False,
                                                                              "hand")


def test_dealer_rotates_each_hand():
    blocked = points(None, Ann=(5, 0), Bob=(5, 0), Cid=(5, 0), Dee=(5, 0))   # a tie
    state = GAME.new({}, FOUR)
    dealers = []
    for _ in range(6):
        state = GAME.apply(state, blocked)
        dealers.append(GAME.summary(state)["hands"][-1]["dealer"])
    assert dealers == ["Ann", "Bob", "Cid", "Dee", "Ann", "Bob"]
    sheet = GAME.summary(state)
    assert (sheet["dealer"], sheet["cutter"], sheet["first_player"]) == ("Cid", "Bob", "Dee")


def test_cut_sets_the_first_dealer():
    cut = {"kind": "cut", "cards": {"Ann": "3e", "Bob": "GJ", "Cid": "7E", "Dee": "MS"}}
    state = play({}, FOUR, [cut])
    sheet = GAME.summary(state)
    assert sheet["cut"] == {"cards": {"Ann": "3E", "Bob": "GJ", "Cid": "7E", "Dee": "MS"},
                            "dealer": "Cid"}
    assert (sheet["dealer"], sheet["cutter"], sheet["first_player"]) == ("Cid", "Bob", "Dee")
    state = GAME.apply(state, points(None, Ann=(5, 0), Bob=(5, 0), Cid=(5, 0), Dee=(5, 0)))
    sheet = GAME.summary(state)
    assert sheet["hands"][0]["dealer"] == "Cid" and sheet["dealer"] == "Dee"
    quick = GAME.summary(play({}, FOUR, [{"kind": "cut", "dealer": "Dee"}]))
    assert quick["dealer"] == "Dee" and quick["cut"] == {"cards": None, "dealer": "Dee"}


def test_quick_points_and_card_lists_agree():
    cards = GAME.summary(play({}, SEATS, [RR11]))
    quick = points("South", North=(17, 3), East=(11, 11), South=(0, 10), West=(2, 10))
    sheet = GAME.summary(play({}, SEATS, [quick]))
    row, card_row = sheet["hands"][0], cards["hands"][0]
    assert row["raw"] == card_row["raw"] == {"A": 47, "B": 47}
    for mine, theirs in zip(row["players"], card_row["players"], strict=True):
        assert mine["hand"] is None and mine["down"] is None
        for key in ("hand_points", "doubled", "down_points", "down_counted", "total"):
            assert mine[key] == theirs[key]
    # Forms may be mixed per part; the player who went out may leave "hand" out.
    mixed = {"kind": "hand", "went_out": "South", "cards": {
        "North": {"hand": ["7E", "SJ"], "down_points": 3},
        "East": {"hand_points": 11, "down": ["5E", "6J"]},
        "South": {"down": ["MV"]},
        "West": {"hand": "2n", "down": ["se"]}}}
    sheet = GAME.summary(play({}, SEATS, [mixed]))
    assert sheet["hands"][0]["raw"] == {"A": 47, "B": 47}
    assert sheet["hands"][0]["players"][3]["hand"] == ["2N"]


def test_blocked_hand_doubles_everyone():
    """RR-A6: nobody went out, so all four hands count double."""
    blocked = hand(None, Ann=(["GE"], ["1J"]), Bob=(["2E", "3J"], []),
                   Cid=(["1M"], ["SN", "MN"]), Dee=(["7V"], ["4S"]))
    sheet = GAME.summary(play({}, FOUR, [blocked]))
    row = sheet["hands"][0]
    assert row["blocked"] is True and row["went_out"] is None
    assert [p["doubled"] for p in row["players"]] == [20, 10, 2, 14]
    assert row["raw"] == {"A": 20 + 1 + 2 + 20, "B": 10 + 14 + 4}
    assert row["scorer"] == "B" and row["difference"] == 43 - 28
    assert sheet["totals"] == {"A": 0, "B": 15} and sheet["leaders"] == ["B"]
    assert row["text"] == ("Blocked: nobody could go out. Ann & Cid 43, Bob & Dee 28: "
                           "Bob & Dee score the difference, 15.")


def test_target_setting():
    sheet = GAME.summary(play({"target": 15}, FOUR,
                              [points(None, Ann=(5, 0), Bob=(1, 0), Cid=(5, 0), Dee=(1, 0))]))
    assert sheet["totals"] == {"A": 0, "B": 16} and sheet["winners"] == ["B"]
    assert sheet["end_rule"]["text"].startswith("The first team to reach 15 or more wins")


REFUSED = [
    # id, earlier actions, action, rule, words
    ("unknown kind", [], {"kind": "undo"}, "RR-11", "'undo' is not a Rainbow Rummy action"),
    ("not a dict", [], ["hand"], "RR-11", "not a Rainbow Rummy action"),
    ("unknown went_out", [], hand("Zed", Ann=([], []), Bob=(["1E"], []), Cid=(["1J"], []),
                                  Dee=(["1M"], [])), "RR-10", "'Zed' is not playing"),
    ("missing player", [], hand("Ann", Ann=([], []), Bob=(["1E"], []), Cid=(["1J"], [])),
     "RR-11", "Enter the cards left for Dee too."),
    ("stranger", [], hand("Ann", Ann=([], []), Bob=(["1E"], []), Cid=(["1J"], []),
                          Dee=(["1M"], []), Zed=([], [])), "RR-1", "'Zed' is not playing"),
    ("no cards", [], {"kind": "hand", "went_out": None}, "RR-11", "all four players"),
    ("bad card", [], hand(None, Ann=(["8E"], []), Bob=(["1E"], []), Cid=(["1J"], []),
                          Dee=(["1M"], [])), "RR-A8", "'8E' is not a card"),
    ("card twice", [], hand(None, Ann=(["5E"], []), Bob=(["1E"], []), Cid=(["1J"], ["5e"]),
                            Dee=(["1M"], [])), "RR-A8",
     "The 5 of E is entered for Ann and Cid, but the deck has only one."),
    ("eight in hand", [], hand(None, Ann=(["1E", "2E", "3E", "4E", "5E", "6E", "7E", "ME"], []),
                               Bob=(["1J"], []), Cid=(["1M"], []), Dee=(["1N"], [])),
     "RR-3", "Ann has 8 cards in hand, but a player holds at most 7."),
    ("five down", [], hand(None, Ann=(["1E"], ["2E", "3E", "4E", "5E", "6E"]),
                           Bob=(["1J"], []), Cid=(["1M"], []), Dee=(["1N"], [])),
     "RR-3", "Ann has 5 face-down cards, but a board has only 4."),
    ("points too high", [], points(None, Ann=(71, 0), Bob=(1, 0), Cid=(1, 0), Dee=(1, 0)),
     "RR-3", "from 0 to 70"),
    ("points not whole", [], points(None, Ann=(1, 2.5), Bob=(1, 0), Cid=(1, 0), Dee=(1, 0)),
     "RR-3", "from 0 to 40"),
    ("points and cards", [], {"kind": "hand", "went_out": None, "cards": {
        "Ann": {"hand": ["1E"], "hand_points": 1, "down": []}, "Bob": {"hand": ["1J"],
        "down": []}, "Cid": {"hand": ["1M"], "down": []}, "Dee": {"hand": ["1N"], "down": []}}},
     "RR-11", "as cards or as points, not both"),
    ("typo key", [], {"kind": "hand", "went_out": None, "cards": {
        "Ann": {"hands": ["1E"], "down": []}, "Bob": {"hand": ["1J"], "down": []},
        "Cid": {"hand": ["1M"], "down": []}, "Dee": {"hand": ["1N"], "down": []}}},
     "RR-11", "'hands' is not part of a hand entry"),
    ("down missing", [], {"kind": "hand", "went_out": None, "cards": {
        "Ann": {"hand": ["1E"]}, "Bob": {"hand": ["1J"], "down": []},
        "Cid": {"hand": ["1M"], "down": []}, "Dee": {"hand": ["1N"], "down": []}}},
     "RR-11", "Enter Ann's face-down cards"),
    ("went out holding cards", [], hand("Ann", Ann=(["1E"], []), Bob=(["1J"], []),
                                        Cid=(["1M"], []), Dee=(["1N"], [])),
     "RR-10", "Ann went out, so Ann has no cards left in hand."),
    ("empty hand, blocked", [], hand(None, Ann=([], []), Bob=(["1J"], []), Cid=(["1M"], []),
                                     Dee=(["1N"], [])),
     "RR-A2", "Ann has no cards left in hand, so Ann went out"),
    ("two empty hands", [], hand("Ann", Ann=([], []), Bob=([], []), Cid=(["1M"], []),
                                 Dee=(["1N"], [])),
     "RR-A2", "Bob has no cards left in hand, but Ann went out"),
    ("cut after a hand", [points(None, Ann=(5, 0), Bob=(5, 0), Cid=(5, 0), Dee=(5, 0))],
     {"kind": "cut", "dealer": "Bob"}, "RR-2", "before the first hand"),
    ("second cut", [{"kind": "cut", "dealer": "Bob"}], {"kind": "cut", "dealer": "Cid"},
     "RR-2", "already recorded: Bob deals"),
    ("cut card twice", [], {"kind": "cut", "cards": {"Ann": "1E", "Bob": "1e", "Cid": "2E",
                                                     "Dee": "3E"}}, "RR-2", "cut twice"),
    ("cut missing a player", [], {"kind": "cut", "cards": {"Ann": "1E", "Bob": "2E"}}, "RR-2",
     "each of the four players"),
    ("cut unknown dealer", [], {"kind": "cut", "dealer": "Zed"}, "RR-2",
     "'Zed' is not playing"),
    ("cut with both", [], {"kind": "cut", "dealer": "Ann", "cards": {}}, "RR-2", "either"),
    ("hand after the end", [points(None, Ann=(60, 0), Bob=(5, 0), Cid=(0 + 1, 0), Dee=(5, 0))],
     points(None, Ann=(5, 0), Bob=(5, 0), Cid=(5, 0), Dee=(5, 0)), "RR-11",
     "The game is over: Bob & Dee win with 102. Start a rematch to play again."),
    ("cut after the end", [points(None, Ann=(60, 0), Bob=(5, 0), Cid=(1, 0), Dee=(5, 0))],
     {"kind": "cut", "dealer": "Ann"}, "RR-11", "The game is over"),
]


@pytest.mark.parametrize("earlier, action, rule, words", [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_refused_actions(earlier, action, rule, words):
    state = play({}, FOUR, earlier)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert isinstance(error.value, ValueError)
    assert error.value.rule == rule and rule in RULES
    message = str(error.value)
    assert words in message
    assert message.endswith(".") and not message[0].islower()
    assert message.count(". ") <= 1          # one sentence (two once the game is over)
    assert state == before


def test_score_hand_reports_problems_as_verdicts():
    verdict = score_hand(FOUR, "Ann", {"Ann": {"hand": ["1E"], "down": []}})
    assert not verdict and verdict.rule == "RR-11"
    assert not score_hand(FOUR, None, {p: {"hand": ["9E"], "down": []} for p in FOUR})
    state = GAME.new({"out_counts_down": False}, SEATS)
    assert score_hand(state, RR11["went_out"], RR11["cards"]).details["scorer"] == "A"
    assert score_hand(state, RR11["went_out"], RR11["cards"], {}).details["scorer"] is None
    with pytest.raises(ValueError):
        score_hand(FOUR[:3], None, {})


def test_foreign_state():
    with pytest.raises(ValueError):
        GAME.summary({"game": "rook"})
    with pytest.raises(ValueError):
        GAME.apply({"game": "rook"}, RR11)


def test_apply_is_pure_and_state_is_json():
    state = play({}, SEATS, [{"kind": "cut", "dealer": "East"}, RR11])
    before = copy.deepcopy(state)
    action = copy.deepcopy(RR11)
    after = GAME.apply(state, action)
    assert state == before
    action["cards"]["North"]["hand"].append("1V")
    after["hands"][0]["cards"]["North"]["hand"].append("1V")
    after["settings"]["target"] = 1
    assert state == before
    assert GAME.summary(after)["hands"][1]["players"][0]["hand"] == ["7E", "SJ"]
    sheet = GAME.summary(state)
    sheet["hands"][0]["players"][0]["hand"].append("2V")
    sheet["cut"]["dealer"] = "North"
    assert state == before
    assert json.loads(json.dumps(state)) == state
    assert json.loads(json.dumps(sheet)) == sheet
    assert GAME.summary(json.loads(json.dumps(state))) == GAME.summary(state)


def test_module_exports():
    for name in rainbow_rummy.__all__:
        assert hasattr(rainbow_rummy, name)


# ---------------------------------------------------------------------------------------
# Properties.

DECK = all_cards("ucd")


@st.composite
def hands(draw, seats, settings):
    """One legal hand entry for these seats and house rules (cards or points per part)."""
    cards = list(draw(st.permutations(DECK)))
    went_out = draw(st.sampled_from(list(seats) + [None]))
    entry = {}
    for name in seats:
        out = name == went_out
        low = 0 if out or settings.get("last_card_elsewhere") else 1
        in_hand = 0 if out else draw(st.integers(low, 7))
        down = draw(st.integers(0, 4))
        held, cards = cards[:in_hand], cards[in_hand:]
        face_down, cards = cards[:down], cards[down:]
        player = {}
        if draw(st.booleans()):
            player["hand"] = held
        else:
            player["hand_points"] = sum(expected_points(c) for c in held)
        if draw(st.booleans()):
            player["down"] = face_down
        else:
            player["down_points"] = sum(expected_points(c) for c in face_down)
        entry[name] = player
    return {"kind": "hand", "went_out": went_out, "cards": entry}


def reference_raw(action, seats, settings):
    """RR-11 by hand: each team's points for this hand."""
    raw = {"A": 0, "B": 0}
    for seat, name in enumerate(seats):
        player = action["cards"][name]
        in_hand = player.get("hand_points", sum(expected_points(c) for c in
                                                 player.get("hand", [])))
        down = player.get("down_points", sum(expected_points(c) for c in
                                              player.get("down", [])))
        out = name == action["went_out"]
        if out and not settings.get("out_counts_down", True):
            down = 0
        raw["AB"[seat % 2]] += (0 if out else 2 * in_hand) + down
    return raw


@st.composite
def games(draw):
    settings = {"out_counts_down": draw(st.booleans()),
                "last_card_elsewhere": draw(st.booleans()),
                "target": draw(st.sampled_from([100, 100, 30, 250]))}
    actions = draw(st.lists(hands(FOUR, settings), max_size=14))
    return settings, actions


@hyp_settings(max_examples=120, deadline=None)
@given(games())
def test_one_team_scores_the_difference_and_the_game_ends_at_the_target(game):
    """For any legal hands: only one team scores a hand, the lower one, and exactly the
    difference of the raw totals; totals are the sums of the changes; the game ends exactly
    when a team reaches the target, and then refuses every further hand."""
    settings, actions = game
    state = GAME.new(settings, FOUR)
    target = settings["target"]
    totals = {"A": 0, "B": 0}
    for action in actions:
        state = GAME.apply(state, action)
        sheet = GAME.summary(state)
        row = sheet["hands"][-1]
        raw = reference_raw(action, FOUR, settings)
        assert row["raw"] == raw
        assert sum(1 for change in row["changes"].values() if change) <= 1
        assert sum(row["changes"].values()) == row["difference"] == abs(raw["A"] - raw["B"])
        if raw["A"] == raw["B"]:
            assert row["scorer"] is None and row["rule"] == "RR-A7"
        else:
            scorer = "A" if raw["A"] < raw["B"] else "B"
            assert row["scorer"] == scorer and row["changes"][scorer] == row["difference"]
        assert sum(p["total"] for p in row["players"]) == raw["A"] + raw["B"]
        totals = {team: totals[team] + row["changes"][team] for team in "AB"}
        assert sheet["totals"] == totals == row["running"]
        assert {t: sum(r["changes"][t] for r in sheet["hands"]) for t in "AB"} == totals
        reached = [team for team in "AB" if totals[team] >= target]
        assert len(reached) <= 1
        assert sheet["over"] is bool(reached)
        assert sheet["winners"] == reached
        assert all(rule in RULES for r in sheet["hands"] for p in r["players"]
                   for rule in p["rules"].values())
        if reached:
            assert sheet["dealer"] is None and row["ends_game"]
            with pytest.raises(RuleError) as error:
                GAME.apply(state, action)
            assert error.value.rule == "RR-11"
            return
        assert sheet["dealer"] == FOUR[len(sheet["hands"]) % 4]


@hyp_settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=6, unique=True))
def test_cut_dealer_has_the_best_card(cards):
    verdict = cut_for_deal(cards)
    best = cards[verdict.details["dealer"]]
    order = "EJMNSV"

    def strength(card):
        return (-order.index(card[-1]), "1234567MSG".index(card[0]))

    assert strength(best) == max(strength(card) for card in cards)
    assert sorted(verdict.details["ranking"]) == list(range(len(cards)))
