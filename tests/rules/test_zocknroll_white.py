"""Zock'n'Roll, one turn, one set of white dice (RULES.md §1.3 ZNR-2, ZNR-3, ZNR-4 and §1.5
"Per turn").

Every drop and every showdown hand of a turn is its player's own dice plus the white dice of
its round: 3 in round 1, the same 3 plus a 4th in round 2, those 4 plus a 5th in round 3.
Own dice are hidden and may show anything, so dice entered for a turn fit when some white
dice W1 ⊂ W2 ⊂ W3 (3, 4, 5 dice) lie in every round-r hand. The rules refuse a drop, a
showdown, a tapped check with dice or a dealer's roll that leaves no such white dice, citing
the rule of the refused hand's round (docs/RULES-NOTES.md, Zock'n'Roll).

The reference here is a brute force written from that definition only: every 5 white dice
and every order in which the 4th and the 5th could have joined.
"""
from __future__ import annotations

import copy
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, find_game
from companion.rules.zocknroll import RULES, check_white_dice

GAME = find_game("zocknroll")
JORG = "Jörg"
FOUR = ["Ann", "Bob", "Cy", "Dan"]
THREE = ["Ann", "Bob", "Cara"]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
OWN = {"beginner": 2, "advanced": 3}
ROUND_RULE = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}

# The rule sheet (seeds/004_73b200f00e2d05f5.txt): three rounds per turn, a white die added
# in rounds 2 and 3 (§GAME OVERVIEW); a drop checks the best hand of own plus white dice
# (§First Round); round 3's best hand of own plus 5 white dice wins (§Third Round).


def shares_white(hands) -> bool:
    """Brute force: is there a W3 of 5 dice, a 5th and a 4th die taken off it in turn, such
    that every round-r hand holds W_r?"""
    for w3 in combinations_with_replacement(range(1, 7), 5):
        for fifth in range(5):
            w2 = w3[:fifth] + w3[fifth + 1:]
            for fourth in range(4):
                w1 = w2[:fourth] + w2[fourth + 1:]
                white = {1: Counter(w1), 2: Counter(w2), 3: Counter(w3)}
                if all(white[r] <= Counter(dice) for _, r, dice in hands):
                    return True
    return False


def play(settings_, seats, actions):
    state = GAME.new(settings_, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def drop(player, rnd, dice):
    return {"kind": "drop", "player": player, "round": rnd, "dice": list(dice)}


def show(hands):
    return {"kind": "showdown", "dice": {p: list(d) for p, d in hands.items()}}


def mark(player, row, rnd, dice):
    return {"kind": "mark", "player": player, "row": row, "round": rnd, "dice": list(dice)}


def roll(*dice):
    return {"kind": "roll", "dice": list(dice)}


# ---------------------------------------------------------------------------------------
# check_white_dice: the hands of one turn, (player, round, dice) in the order entered.

SHARED = [
    # id, hands, rolled, ok, rule, words
    ("round 1: the same 3 white dice", [("Ann", 1, [2, 6, 2, 2, 5]), ("Bob", 1, [1, 3, 2, 2, 5])],
     [], True, "ZNR-2", "share the white dice 2, 2, 5"),
    ("round 1, advanced: 3 own dice each", [("Ann", 1, [1, 1, 1, 4, 5, 6]),
                                           ("Bob", 1, [6, 6, 6, 4, 5, 6])],
     [], True, "ZNR-2", "share the white dice 4, 5, 6"),
    ("rounds 1-3: the earlier white dice stay", [("Ann", 1, [1, 1, 2, 3, 4]),
                                                 ("Bob", 2, [6, 6, 2, 3, 4, 5]),
                                                 ("Cy", 3, [6, 6, 2, 3, 4, 5, 6])],
     [], True, "ZNR-4", "share the white dice 2, 3, 4, 5, 6"),
    ("the dealer's roll", [("Ann", 1, [6, 6, 2, 2, 5])], [2, 2, 5], True, "ZNR-2",
     "share the white dice 2, 2, 5"),
    ("nothing entered", [], [], True, "ZNR-2", "No dice are entered"),
    ("round 1: one die in common", [("Bob", 1, [5, 5, 6, 6, 2]), ("Ann", 1, [1, 1, 2, 3, 4])],
     [], False, "ZNR-2", "Ann's dice 1, 1, 2, 3, 4 and Bob's dice 2, 5, 5, 6, 6 have only the "
                         "die 2 in common, but both must hold the 3 white dice of round 1"),
    ("round 1: no die in common", [("Bob", 1, [5, 5, 6, 6, 2]), ("Ann", 1, [1, 1, 3, 3, 4])],
     [], False, "ZNR-2", "have no die in common"),
    ("round 1: two drops pin the white dice", [("Bo", 1, [5, 5, 6, 1, 2]),
                                               ("Cid", 1, [5, 5, 6, 3, 4]),
                                               ("Ann", 1, [1, 1, 2, 3, 4])],
     [], False, "ZNR-2", "Ann's dice 1, 1, 2, 3, 4 don't hold the white dice 5, 5, 6 that the "
                         "dice entered for Bo and Cid show for round 1"),
    ("round 1: three drops, no white dice for all", [("A", 1, [1, 2, 2, 3, 4]),
                                                     ("B", 1, [2, 2, 3, 4, 4]),
                                                     ("C", 1, [1, 3, 3, 4, 4])],
     [], False, "ZNR-2", "C's dice 1, 3, 3, 4, 4 can't share one set of white dice with the "
                         "dice entered for A and B"),
    ("round 2: two different 4th dice", [("Ann", 2, [1, 2, 3, 4, 6, 6]),
                                         ("Cy", 2, [1, 2, 3, 5, 5, 5])],
     [], False, "ZNR-3", "have only the dice 1, 2, 3 in common, but both must hold the 4 "
                         "white dice of round 2"),
    ("round 3 against a round-2 drop", [("Ann", 2, [1, 2, 3, 6, 6, 6]),
                                        ("Cy", 3, [1, 2, 3, 4, 4, 5, 5])],
     [], False, "ZNR-4", "4 white dice of round 2"),
    ("round 2 against a round-1 drop", [("Ann", 1, [1, 1, 5, 5, 6]),
                                        ("Bob", 2, [2, 2, 3, 3, 4, 5])],
     [], False, "ZNR-3", "3 white dice of round 1"),
    ("not the dealer's roll", [("Bob", 1, [1, 3, 4, 6, 6])], [2, 2, 5], False, "ZNR-2",
     "Bob's dice 1, 3, 4, 6, 6 must include the white dice 2, 2, 5 the dealer rolled"),
    ("not the dealer's 4th die", [("Cy", 2, [1, 1, 2, 2, 5, 6])], [2, 2, 5, 4], False,
     "ZNR-3", "must include the white dice 2, 2, 5, 4"),
]


@pytest.mark.parametrize("hands, rolled, ok, rule, words", [c[1:] for c in SHARED],
                         ids=[c[0] for c in SHARED])
def test_one_set_of_white_dice_per_turn(hands, rolled, ok, rule, words):
    """ZNR-2/ZNR-3/ZNR-4. The seed (seeds/004_73b200f00e2d05f5.txt): a white die joins in each later
    round (§GAME OVERVIEW), and a drop's hand is own dice plus the white dice (§First Round).
    """
    verdict = check_white_dice(hands, rolled)
    assert (verdict.ok, verdict.rule) == (ok, rule), verdict.reason
    assert words in verdict.reason and verdict.reason.endswith(".")
    if not rolled:
        assert verdict.ok is shares_white(hands)
    if ok:
        white = verdict.details["white"]
        assert all(Counter(white[:2 + r]) <= Counter(dice) for _, r, dice in hands)
    else:
        assert "Check" in verdict.reason           # what the table should check
        assert verdict.details["player"] == hands[-1][0]


@pytest.mark.parametrize("hands, rolled", [
    ("Ann 1 12345", []),
    ([("Ann", 4, [1, 2, 3, 4, 5])], []),
    ([("Ann", 1, [1, 2])], []),                      # fewer than the 3 white dice
    ([("Ann", 1, [1, 2, 3, 4, 7])], []),
    ([("Ann", 1)], []),
    ([], [1, 2]),                                    # the dealer rolls 3 dice first
    ([], [1, 2, 3, 4, 5, 6]),
])
def test_check_white_dice_refuses_malformed_input(hands, rolled):
    with pytest.raises(ValueError):
        check_white_dice(hands, rolled)


# ---------------------------------------------------------------------------------------
# The game refuses what cannot share the white dice; nothing changes.

REFUSED = [
    # id, settings, seats, earlier actions, refused action, rule, words
    ("second drop against the first drop's white dice", {}, FOUR,
     [drop("Ann", 1, [2, 6, 2, 2, 5])], drop("Bob", 1, [1, 1, 3, 4, 4]), "ZNR-2",
     "Bob's dice 1, 1, 3, 4, 4 and Ann's dice 2, 2, 2, 5, 6 have no die in common"),
    ("round-2 drop without round 1's white dice", {}, FOUR,
     [drop("Ann", 1, [2, 6, 2, 2, 5])], drop("Bob", 2, [1, 1, 3, 4, 6, 2]), "ZNR-3",
     "3 white dice of round 1"),
    ("a third drop against two that pin the white dice", {}, FOUR,
     [drop("Ann", 1, [1, 2, 5, 5, 6]), drop("Bob", 1, [3, 4, 5, 5, 6])],
     drop("Cy", 1, [1, 1, 2, 3, 4]), "ZNR-2",
     "don't hold the white dice 5, 5, 6 that the dice entered for Ann and Bob show"),
    ("showdown hand against a drop", {"board": "advanced"}, FOUR,
     [drop("Ann", 1, [1, 2, 3, 4, 5, 6]), drop("Bob", 2, [1, 2, 3, 4, 4, 4, 4])],
     show({"Cy": [1, 2, 3, 4, 6, 6, 6, 6], "Dan": [5, 5, 5, 1, 2, 3, 6, 6]}), "ZNR-4",
     "Dan's dice 1, 2, 3, 5, 5, 5, 6, 6 don't hold the white dice 1, 2, 3, 4, 6 that the dice "
     "entered for Ann, Bob and Cy show for round 3"),
    ("two showdown hands that share 4 dice", {}, FOUR,
     [drop("Ann", 1, [1, 2, 3, 4, 5]), drop("Bob", 1, [1, 2, 3, 6, 6])],
     show({"Cy": [1, 2, 3, 4, 4, 5, 5], "Dan": [1, 2, 3, 4, 6, 6, 6]}), "ZNR-4",
     "have only the dice 1, 2, 3, 4 in common, but both must hold the 5 white dice of "
     "round 3"),
    ("Jörg's dice count", {}, THREE,
     [drop("Ann", 1, [1, 1, 2, 3, 4]), drop("Bob", 2, [5, 5, 2, 3, 4, 6])],
     show({"Cara": [6, 6, 2, 3, 4, 6, 1], JORG: [1, 1, 2, 3, 4, 5, 5]}), "ZNR-4",
     "Jörg's dice 1, 1, 2, 3, 4, 5, 5"),
    ("a tapped check with dice", {}, FOUR,
     [drop("Ann", 1, [2, 6, 2, 2, 5])], mark("Bob", "two_pair", 1, [1, 1, 3, 3, 4]), "ZNR-2",
     "have no die in common"),
    ("the dealer's roll against a drop entered before it", {}, FOUR,
     [drop("Bob", 1, [2, 6, 2, 2, 5])], roll(1, 1, 3), "ZNR-2",
     "The white dice 1, 1, 3 don't fit the dice already entered this turn. Bob's dice 2, 2, "
     "2, 5, 6 must include the white dice 1, 1, 3 the dealer rolled"),
    ("the 4th white die against a round-2 drop", {}, FOUR,
     [drop("Cy", 2, [1, 1, 2, 2, 5, 6]), roll(2, 2, 5)]
     + [{"kind": "stay", "player": p} for p in ("Bob", "Dan", "Ann")], roll(4), "ZNR-3",
     "must include the white dice 2, 2, 5, 4"),
]


@pytest.mark.parametrize("settings_, seats, earlier, action, rule, words",
                         [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_dice_that_cannot_share_the_white_dice_are_refused(settings_, seats, earlier, action,
                                                            rule, words):
    """ZNR-2/ZNR-3/ZNR-4, Jörg included (ZNR-6). The seed
    (seeds/004_73b200f00e2d05f5.txt): round 3's hands are own dice plus the 5 white dice
    (§Third Round), a white die joining in each later round (§GAME OVERVIEW).
    """
    state = play(settings_, seats, earlier)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.rule == rule and rule in RULES
    assert words in str(error.value), str(error.value)
    assert str(error.value).endswith(".") and "Check" in str(error.value)
    assert state == before


ACCEPTED = [
    # id, settings, seats, actions
    ("drops in both rounds and a showdown", {}, FOUR,
     [drop("Dan", 2, [1, 6, 2, 2, 5, 4]), drop("Ann", 1, [3, 3, 2, 2, 5]),
      show({"Bob": [6, 6, 2, 2, 5, 4, 1], "Cy": [1, 2, 2, 2, 5, 4, 1]})]),
    ("Jörg shares the white dice", {"board": "advanced"}, THREE,
     [drop("Ann", 1, [1, 1, 1, 2, 3, 4]),
      show({"Bob": [6, 6, 6, 2, 3, 4, 5, 5], "Cara": [1, 2, 2, 2, 3, 4, 5, 5],
            JORG: [4, 4, 4, 2, 3, 4, 5, 5]})]),
    ("a guided turn: the roll fits a drop entered before it", {}, FOUR,
     [drop("Bob", 1, [2, 6, 2, 2, 5]), roll(5, 2, 2)]),
    ("paper taps without dice are not dice", {}, FOUR,
     [drop("Ann", 1, [2, 6, 2, 2, 5]), mark("Bob", "two_pair", 1, [6, 6, 2, 2, 5]),
      {"kind": "mark", "player": "Cy", "row": "pair", "round": 3}]),
]


@pytest.mark.parametrize("settings_, seats, actions", [c[1:] for c in ACCEPTED],
                         ids=[c[0] for c in ACCEPTED])
def test_dice_that_share_the_white_dice_are_accepted(settings_, seats, actions):
    """ZNR-2/ZNR-3/ZNR-4. The seed: a drop's hand is own dice plus the white dice
    (seeds/004_73b200f00e2d05f5.txt §First Round).
    """
    state = play(settings_, seats, actions)
    assert len(state["log"]) == len(actions)


def test_each_turn_has_its_own_white_dice():
    """ZNR-7: the white dice are rolled again for every turn, so dice of two turns are never
    compared."""
    state = play({}, FOUR, [drop(p, 1, [1, 1, 2, 2, 3]) for p in FOUR] + [show({})])
    state = GAME.apply(state, drop("Ann", 1, [6, 6, 5, 5, 4]))
    assert GAME.summary(state)["turn"] == 2


# ---------------------------------------------------------------------------------------
# Properties: turns rolled like at the table, then one white die changed.

DIE = st.integers(1, 6)


@st.composite
def table_turns(draw):
    """One turn as rolled at a table: 5 white dice, own dice for everyone, each player drops
    in round 1 or 2 or stays to round 3 (Jörg too at 3 seats); drops in any order. Each
    hand's dice are its own dice first, then the white dice (the tests shuffle them)."""
    board = draw(st.sampled_from(["beginner", "advanced"]))
    seats = NAMES[:draw(st.integers(3, 6))]
    own = OWN[board]
    white = draw(st.lists(DIE, min_size=5, max_size=5))

    def hand(rnd):
        return draw(st.lists(DIE, min_size=own, max_size=own)) + white[:2 + rnd]

    fate = {p: draw(st.sampled_from([1, 2, 3])) for p in seats}
    drops = [(p, fate[p], hand(fate[p])) for p in seats if fate[p] < 3]
    drops = draw(st.permutations(drops))
    still = [p for p in seats if fate[p] == 3]
    showdown = {p: hand(3) for p in still}
    if len(seats) == 3 and still:
        showdown[JORG] = hand(3)
    return board, seats, own, drops, showdown


def actions_of(drops, showdown):
    return [drop(p, r, d) for p, r, d in drops] + [show(showdown)]


def hands_of(drops, showdown):
    return list(drops) + [(p, 3, d) for p, d in showdown.items()]


@settings(max_examples=80, deadline=None)
@given(table_turns(), st.randoms(use_true_random=False))
def test_turns_rolled_at_a_table_are_always_accepted(turn, rnd):
    """ZNR-2/ZNR-3/ZNR-4: dice that are own dice plus the turn's white dice are accepted,
    whatever order the drops come in; check_white_dice agrees in any order of the hands."""
    board, seats, _own, drops, showdown = turn
    drops = [(p, r, rnd.sample(d, len(d))) for p, r, d in drops]
    showdown = {p: rnd.sample(d, len(d)) for p, d in showdown.items()}
    state = play({"board": board}, seats, actions_of(drops, showdown))
    assert GAME.summary(state)["turns_played"] == 1
    hands = hands_of(drops, showdown)
    rnd.shuffle(hands)
    verdict = check_white_dice(hands)
    assert verdict.ok, verdict.reason
    white = verdict.details["white"]
    assert all(Counter(white[:2 + r]) <= Counter(d) for _, r, d in hands)


@settings(max_examples=60, deadline=None)
@given(table_turns(), st.data())
def test_one_changed_white_die_is_refused(turn, data):
    """ZNR-2/ZNR-3/ZNR-4: change one white die in one hand so that no white dice fit every
    hand any more (the brute force says so): the game refuses that hand, or the first one
    after it that can no longer share them, and changes nothing; check_white_dice refuses
    the turn in any order."""
    board, seats, own, drops, showdown = turn
    hands = hands_of(drops, showdown)
    assume(len(hands) >= 2)
    index = data.draw(st.integers(0, len(hands) - 1))
    player, rnd_no, dice = hands[index]
    changed = list(dice)
    position = data.draw(st.integers(own, len(dice) - 1))       # one of its white dice
    changed[position] = data.draw(DIE.filter(lambda face: face != dice[position]))
    hands[index] = (player, rnd_no, changed)
    assume(not shares_white(hands))
    hands = [(p, r, data.draw(st.permutations(d))) for p, r, d in hands]
    verdict = check_white_dice(data.draw(st.permutations(hands)))
    assert not verdict.ok and verdict.rule in ("ZNR-2", "ZNR-3", "ZNR-4")
    new_drops = [h for h in hands if h[1] < 3]
    new_show = {p: d for p, r, d in hands if r == 3}
    state = GAME.new({"board": board}, seats)
    for action in actions_of(new_drops, new_show):
        before = copy.deepcopy(state)
        try:
            state = GAME.apply(state, action)
        except RuleError as error:
            rule = ROUND_RULE[action["round"]] if action["kind"] == "drop" else "ZNR-4"
            assert error.rule == rule, str(error)
            assert state == before
            break
    else:
        pytest.fail("a turn whose dice share no white dice was accepted")
