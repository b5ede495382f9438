"""The guided Zock'n'Roll turn: white dice as rolled, stay/drop in order, round-3 reveals."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, find_game

GAME = find_game("zocknroll")
SEATS = ["Ann", "Bob", "Cid"]


def play(actions, seats=SEATS, board="beginner"):
    state = GAME.new({"board": board}, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def refused(state, action, rule, words):
    with pytest.raises(RuleError) as info:
        GAME.apply(state, action)
    assert info.value.rule == rule, info.value
    assert words in str(info.value)


ONE_TURN = [
    {"kind": "roll", "dice": [2, 2, 5]},
    {"kind": "drop", "player": "Bob", "round": 1, "dice": [2, 6, 2, 2, 5]},
    {"kind": "stay", "player": "Cid"},
    {"kind": "stay", "player": "Ann"},
    {"kind": "roll", "dice": [4]},
    {"kind": "stay", "player": "Cid"},
    {"kind": "drop", "player": "Ann", "round": 2, "dice": [5, 5, 2, 2, 5, 4]},
    {"kind": "roll", "dice": [5]},
    {"kind": "reveal", "player": "Cid", "dice": [1, 3]},
    {"kind": "reveal", "player": "Jörg", "dice": [6, 6]},
]


def test_a_whole_guided_turn_with_jorg():
    phases = []
    state = GAME.new({"board": "beginner"}, SEATS)
    for action in ONE_TURN:
        guided = GAME.summary(state)["guided"]
        phases.append((guided["phase"], guided["next"] or guided["roll_count"]))
        state = GAME.apply(state, action)
    assert phases == [
        ("roll", 3), ("decide", "Bob"), ("decide", "Cid"), ("decide", "Ann"),
        ("roll", 1), ("decide", "Cid"), ("decide", "Ann"), ("roll", 1),
        ("reveal", 0), ("reveal", 0),
    ]
    s = GAME.summary(state)
    marks = s["marks"]
    assert marks["Bob"]["three_kind"] == 1 and marks["Bob"]["dropped_out"] == 1
    assert marks["Ann"]["full_house"] == 1 and marks["Ann"]["dropped_out"] == 0
    # Cid: 1,2,2,3,4,5,5 holds a Large Straight; Jörg's 2,2,4,5,5,6,6 only Two Pair.
    assert marks["Cid"]["large_straight"] == 1 and marks["Cid"]["winner"] == 1
    assert s["turns_played"] == 1 and s["dealer"] == "Bob"
    assert s["guided"]["phase"] == "roll" and s["guided"]["order"] == ["Cid", "Ann", "Bob"]
    last = s["turns"][0]["lines"][-1]
    assert last["kind"] == "showdown" and "Cid wins round 3" in last["text"]
    assert s["totals"] == {"Ann": 5, "Bob": 5, "Cid": 6 + 3}


def test_reveal_waits_for_every_player_and_jorg():
    state = play(ONE_TURN[:-1])
    g = GAME.summary(state)["guided"]
    assert g["phase"] == "reveal" and g["waiting"] == ["Jörg"]
    assert g["revealed"] == {"Cid": [1, 3]} and g["white"] == [2, 2, 5, 4, 5]


@pytest.mark.parametrize("upto, action, rule, words", [
    (0, {"kind": "roll", "dice": [2, 2]}, "ZNR-2", "3 white dice"),
    (0, {"kind": "roll", "dice": [2, 2, 7]}, "ZNR-2", "from 1 to 6"),
    (0, {"kind": "stay", "player": "Bob"}, "ZNR-2", "rolls the white dice first"),
    (0, {"kind": "reveal", "player": "Bob", "dice": [1, 2]}, "ZNR-4", "round 3"),
    (1, {"kind": "roll", "dice": [4]}, "ZNR-2", "Bob, Cid and Ann must say stay or drop"),
    (1, {"kind": "drop", "player": "Bob", "round": 1, "dice": [1, 1, 3, 4, 6]}, "ZNR-2",
     "must include the white dice 2, 2, 5"),
    (1, {"kind": "drop", "player": "Bob", "round": 2, "dice": [2, 2, 5, 1, 1, 1]}, "ZNR-3",
     "this is round 1, not round 2"),
    (3, {"kind": "stay", "player": "Cid"}, "ZNR-2", "already stayed in for round 1"),
    (3, {"kind": "drop", "player": "Cid", "round": 1, "dice": [2, 2, 5, 1, 1]}, "ZNR-2",
     "already stayed in for round 1"),
    (2, {"kind": "stay", "player": "Bob"}, "ZNR-2", "already dropped out in round 1"),
    (4, {"kind": "roll", "dice": [4, 4, 4]}, "ZNR-3", "the 4th white die"),
    (8, {"kind": "roll", "dice": [4]}, "ZNR-4", "All 5 white dice"),
    (8, {"kind": "reveal", "player": "Bob", "dice": [1, 2]}, "ZNR-4", "dropped out in round 1"),
    (8, {"kind": "reveal", "player": "Cid", "dice": [1, 2, 3]}, "ZNR-1", "2 own dice"),
    (8, {"kind": "stay", "player": "Cid"}, "ZNR-4", "no staying or dropping"),
    (9, {"kind": "reveal", "player": "Cid", "dice": [1, 2]}, "ZNR-4", "already in"),
])
def test_the_guided_turn_refuses(upto, action, rule, words):
    refused(play(ONE_TURN[:upto]), action, rule, words)


def test_jorg_reveals_only_at_a_three_player_table():
    seats = ["Ann", "Bob", "Cid", "Dan"]
    state = play([{"kind": "roll", "dice": [1, 2, 3]}]
                 + [{"kind": "stay", "player": p} for p in ("Bob", "Cid", "Dan", "Ann")]
                 + [{"kind": "roll", "dice": [4]}]
                 + [{"kind": "stay", "player": p} for p in ("Bob", "Cid", "Dan", "Ann")]
                 + [{"kind": "roll", "dice": [6]}], seats=seats)
    assert GAME.summary(state)["guided"]["waiting"] == ["Bob", "Cid", "Dan", "Ann"]
    refused(state, {"kind": "reveal", "player": "Jörg", "dice": [1, 1]}, "ZNR-4",
            "not playing at this table")


def test_everyone_drops_then_the_turn_ends_with_an_empty_showdown():
    state = play([{"kind": "roll", "dice": [1, 1, 2]}]
                 + [{"kind": "drop", "player": p, "round": 1, "dice": [1, 1, 2, 3, 3]}
                    for p in ("Bob", "Cid", "Ann")])
    assert GAME.summary(state)["guided"]["phase"] == "empty"
    state = GAME.apply(state, {"kind": "showdown", "dice": {}})
    s = GAME.summary(state)
    assert s["turns_played"] == 1 and s["dealer"] == "Bob"
    assert all(s["marks"][p]["two_pair"] == 1 for p in SEATS)


def test_advanced_board_reveals_three_own_dice():
    state = play([{"kind": "roll", "dice": [1, 2, 3]},
                  {"kind": "stay", "player": "Bob"}, {"kind": "stay", "player": "Cid"},
                  {"kind": "stay", "player": "Ann"}, {"kind": "roll", "dice": [4]},
                  {"kind": "stay", "player": "Bob"}, {"kind": "stay", "player": "Cid"},
                  {"kind": "stay", "player": "Ann"}, {"kind": "roll", "dice": [5]}],
                 board="advanced")
    for player, own in (("Bob", [6, 6, 6]), ("Cid", [1, 1, 1]), ("Ann", [2, 2, 3])):
        state = GAME.apply(state, {"kind": "reveal", "player": player, "dice": own})
    state = GAME.apply(state, {"kind": "reveal", "player": "Jörg", "dice": [6, 1, 6]})
    s = GAME.summary(state)
    # Everyone holds 1-2-3-4-5 plus their own: Bob 6,6,6 + 1..5 makes a Highway (1-6),
    # Jörg too (1..6): a tie on Highway, so nobody checks Winner.
    assert s["marks"]["Bob"]["highway"] == 1 and s["marks"]["Bob"]["winner"] == 0
    assert s["turns_played"] == 1


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_guided_turn_ends_and_passes_the_deal(data):
    """Random stay/drop choices and dice: the turn always reaches its end in order."""
    state = GAME.new({"board": data.draw(st.sampled_from(["beginner", "advanced"]))}, SEATS)
    die = st.integers(1, 6)
    for _ in range(40):
        g = GAME.summary(state)["guided"]
        if GAME.summary(state)["turns_played"] == 1:
            break
        if g["phase"] == "roll":
            action = {"kind": "roll", "dice": data.draw(st.lists(die, min_size=g["roll_count"],
                                                                 max_size=g["roll_count"]))}
        elif g["phase"] == "decide":
            if data.draw(st.booleans()):
                action = {"kind": "stay", "player": g["next"]}
            else:
                own = data.draw(st.lists(die, min_size=g["own_dice"], max_size=g["own_dice"]))
                action = {"kind": "drop", "player": g["next"], "round": g["round"],
                          "dice": own + g["white"]}
        elif g["phase"] == "reveal":
            own = data.draw(st.lists(die, min_size=g["own_dice"], max_size=g["own_dice"]))
            action = {"kind": "reveal", "player": g["waiting"][0], "dice": own}
        else:
            assert g["phase"] == "empty"
            action = {"kind": "showdown", "dice": {}}
        state = GAME.apply(state, action)
    s = GAME.summary(state)
    assert s["turns_played"] == 1 and s["dealer"] == "Bob"
    assert sum(s["totals"].values()) == sum(
        n * (s["multiplier"] if row == "winner" else next(r["points"] for r in s["rows"]
                                                          if r["key"] == row))
        for marks in s["marks"].values() for row, n in marks.items())
