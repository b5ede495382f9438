"""RockIt to Destiny, second pass (RULES.md §4, docs/RULES-NOTES.md): the two rules a
first reading got wrong.

A blocked game (the draw pile empty, everyone passed) is won by the fewest cards in hand,
even by a player who never came in (RID-A7). A joker's declared card decides what it stands
for, whatever the order the cards were typed in (RID-A5, RID-8).
"""

import copy

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from companion.rules import RuleError, find_game
from companion.rules.rockit import (
    blocked_winners,
    check_steal,
    check_trick,
    joker_identity,
    parse_trick,
    review_layout,
)

GAME = find_game("rockit")
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
CARDS = [r + s for r in RANKS for s in SUITS]


def play(seats, actions, settings=None):
    state = GAME.new(settings or {}, seats)
    for action in actions:
        state = GAME.apply(state, action)
    return state


def come_in(player, cards):
    return {"kind": "come_in", "player": player, "cards": cards.split()}


def blocked(player, hands=None):
    action = {"kind": "win", "player": player, "how": "blocked"}
    if hands is not None:
        action["hands"] = hands
    return action


# ---------------------------------------------------------------------------------------
# Point 3: a blocked game (RID-A7).

BLOCKED_WINS = [
    # id, come-ins before, the win, accepted, rule, words (a refusal's)
    ("never-came-in", [], blocked("Bob"), True, "RID-A7", None),
    ("nobody-in", [], blocked("Ann", {"Ann": 3, "Bob": 7}), True, "RID-A7", None),
    ("other-came-in", ["Ann"], blocked("Bob", {"Ann": 5, "Bob": 2}), True, "RID-A7", None),
    ("came-in-too", ["Bob"], blocked("Bob", {"Ann": 5, "Bob": 2}), True, "RID-A7", None),
    ("not-fewest", ["Ann"], blocked("Bob", {"Ann": 2, "Bob": 5}), False, "RID-A7",
     "Bob holds 5 cards, but Ann holds 2 cards: the fewest cards in hand wins."),
    ("tie-by-count", [], blocked("Ann", {"Ann": 2, "Bob": 2}), True, "RID-A7", None),
    ("tie-points-win", [], blocked("Bob", {"Ann": ["KS", "2H"], "Bob": ["AS", "3C"]}), True,
     "RID-A7", None),
    ("tie-points-lose", [], blocked("Ann", {"Ann": ["KS", "2H"], "Bob": ["AS", "3C"]}), False,
     "RID-A7", "Ann and Bob both hold 2 cards, and Bob has fewer points (4 against 12)"),
    ("winner-not-counted", [], blocked("Bob", {"Ann": 3}), False, "RID-A7",
     "Count Bob's cards in hand too"),
    ("stranger", [], blocked("Bob", {"Bob": 1, "Eve": 3}), False, "RID-A7",
     "'Eve' is not playing"),
    ("bad-count", [], blocked("Bob", {"Bob": -1}), False, "RID-A7", "a number from 0 to 108"),
    ("no-hands", [], blocked("Bob", {}), False, "RID-A7", "Give each player's cards"),
    ("went-out-not-in", [], {"kind": "win", "player": "Bob"}, False, "RID-4",
     "Bob has not come in this game"),
]


@pytest.mark.parametrize("example, came_in, action, accepted, rule, words", BLOCKED_WINS,
                         ids=[row[0] for row in BLOCKED_WINS])
def test_a_blocked_game_goes_to_the_fewest_cards_come_in_or_not(example, came_in, action,
                                                                accepted, rule, words):
    """RID-A7 (RULES.md §4.5): "If every player passes in succession, the game ends and the
    fewest cards in hand wins (ties: the lowest card-point total in hand, using the come-in
    values). That player wins even if they never came in (a blocked game is not a
    going-out)." The seed (seeds/000_a31bb5430319cf88.txt) is silent on an empty draw
    pile: it wins a game only by going out (§WINNING THE GAME), after coming in
    (§COMING IN).
    """
    cards = {"Ann": "2S 2H 2D", "Bob": "KS KH KD"}
    state = play(["Ann", "Bob", "Cy"], [come_in(p, cards[p]) for p in came_in])
    before = copy.deepcopy(state)
    if not accepted:
        with pytest.raises(RuleError) as error:
            GAME.apply(state, action)
        assert error.value.rule == rule
        assert words in str(error.value)
        assert state == before
        return
    sheet = GAME.summary(GAME.apply(state, action))
    game = sheet["games"][0]
    assert (game["winner"], game["how"], game["rule"]) == (action["player"], "blocked", rule)
    assert sheet["totals"][action["player"]] == 1
    assert sheet["starter"] == action["player"] and sheet["game_number"] == 2
    assert game["hands"] == action.get("hands")
    assert sheet["come_in_order"] == []                      # nobody is in in the next game


BLOCKED_WINNERS = [
    # id, hands, ok, winners, tie_break, words
    ("fewest", {"Ann": 4, "Bob": 1, "Cy": 6}, True, ["Bob"], False,
     "Bob holds the fewest cards (1) and wins."),
    ("tie-counts", {"Ann": 2, "Bob": 2, "Cy": 6}, False, ["Ann", "Bob"], False,
     "Ann and Bob hold the fewest cards (2): the fewest points in hand wins"),
    ("tie-points", {"Ann": "KS QH", "Bob": "AS 2H JK", "Cy": "9C 9D"}, True, ["Cy"], True,
     "Ann and Cy hold the fewest cards (2); Cy has the fewest points (18) and wins."),
    ("joker-0", {"Ann": "JK 2S", "Bob": "AS 2H"}, True, ["Ann"], True, "Ann has the fewest"),
    ("ace-1-face-10", {"Ann": "AS KS", "Bob": "5H 7D"}, True, ["Ann"], True, "(11)"),
    ("still-tied", {"Ann": "AS 2H", "Bob": "2S AH"}, False, ["Ann", "Bob"], True,
     "the same points (3): still a tie"),
    ("count-and-cards", {"Ann": 2, "Bob": "AS AH"}, False, ["Ann", "Bob"], False,
     "the fewest points in hand wins"),
]


@pytest.mark.parametrize("example, hands, ok, winners, tie_break, words", BLOCKED_WINNERS,
                         ids=[row[0] for row in BLOCKED_WINNERS])
def test_blocked_winners(example, hands, ok, winners, tie_break, words):
    """RID-A7: "the fewest cards in hand wins (ties: the lowest card-point total in hand,
    using the come-in values)". The come-in values are the seed's
    (seeds/000_a31bb5430319cf88.txt §COMING IN).
    """
    verdict = blocked_winners(hands)
    assert verdict.ok is ok and verdict.rule == "RID-A7"
    assert verdict.details["winners"] == winners
    assert verdict.details["tie_break"] is tie_break
    assert words in verdict.reason


@pytest.mark.parametrize("hands, words", [
    ({}, "Give each player's cards"),
    ([3, 4], "Give each player's cards"),
    ({"Ann": 109}, "a number from 0 to 108"),
    ({"Ann": True}, "a number, or the cards"),
    ({"Ann": "ZZ"}, "'ZZ' is not a card"),
])
def test_blocked_winners_refuses_bad_hands(hands, words):
    """RID-A7 needs every hand as a number of cards, or the cards themselves."""
    with pytest.raises(ValueError) as error:
        blocked_winners(hands)
    assert words in str(error.value)


def test_blocked_winners_counts_copies_against_the_decks():
    """RID-1: "Two people can play with one standard deck of 52 cards + 2 jokers"."""
    verdict = blocked_winners({"Ann": "AS", "Bob": "AS 2S"}, decks=1)
    assert not verdict and verdict.rule == "RID-1"


# ---------------------------------------------------------------------------------------
# Point 4: a declared joker, whatever the typing order (RID-A5, RID-8).

DECLARED = [
    # id, trick as typed, declared, valid, rule, what the jokers stand for (sorted)
    ("typed-in-order", "5H 6H JK", "4H", True, "RID-3", ["4H"]),
    ("joker-first", "JK 5H 6H", "4H", True, "RID-3", ["4H"]),
    ("joker-between", "5H JK 6H", "4H", True, "RID-3", ["4H"]),
    ("high-end", "JK 5H 6H", "7H", True, "RID-3", ["7H"]),
    ("undeclared-place", "5H 6H JK", None, True, "RID-3", ["7H"]),
    ("not-in-a-row", "5H 6H JK", "8H", False, "RID-A5", []),
    ("already-there", "5H 6H JK", "5H", False, "RID-A5", []),
    ("other-suit", "5H 6H JK", "4S", False, "RID-A5", []),
    ("through-the-ace", "2S KS JK", "AS", True, "RID-3", ["AS"]),
    ("two-ends", "5H 6H JK JK", ["7H", "4H"], True, "RID-3", ["4H", "7H"]),
    ("two-ends-typed-first", "JK JK 5H 6H", ["4H", "7H"], True, "RID-3", ["4H", "7H"]),
    ("two-gaps", "QS JK 9S JK", ["JS", "10S"], True, "RID-3", ["10S", "JS"]),
    ("two-not-together", "5H 6H JK JK", ["3H", "7H"], False, "RID-A5", []),
    ("one-of-two", "JK 9S QS JK", ["JS"], True, "RID-3", ["10S", "JS"]),
    ("set-suit", "QC QH JK", "QS", True, "RID-3", ["QS"]),
    ("set-suit-taken", "JK QC QH", "QC", False, "RID-A5", []),
    ("set-two-jokers", "JK QC JK", ["QH", "QS"], True, "RID-3", ["QH", "QS"]),
    ("set-or-run-as-run", "QC JK JK", ["KC", "AC"], True, "RID-3", ["AC", "KC"]),
    ("too-many", "5H 6H JK", ["4H", "7H"], False, "RID-A5", []),
    ("no-joker", "5H 6H 7H", "4H", False, "RID-A5", []),
    ("declared-joker", "5H 6H JK", "JK", False, "RID-A5", []),
    ("bad-trick-anyway", "5H 9H JK", "4H", False, "RID-3", []),
]


@pytest.mark.parametrize("example, trick, declared, valid, rule, stands", DECLARED,
                         ids=[row[0] for row in DECLARED])
def test_a_declared_joker_decides_in_any_order(example, trick, declared, valid, rule, stands):
    """RID-A5 (RULES.md §4.5): "The player declares the represented card when laying a joker
    ("played in place of a specific card")"; "A joker at a run's end must be declared
    (5♥6♥JK = 4♥ or 7♥)." A joker stands for one specific card
    (seeds/000_a31bb5430319cf88.txt §PLAYING A JOKER).
    """
    verdict = check_trick(trick.split(), declared=declared)
    assert verdict.ok is valid, verdict.reason
    assert verdict.rule == rule
    assert sorted(j["card"] for j in verdict.details["jokers"] if j["card"]) == stands
    if valid and declared is not None:
        named = [declared] if isinstance(declared, str) else declared
        assert sorted(verdict.details["declared"]) == sorted(named)
        identity = joker_identity(trick.split(), declared=declared)
        assert identity and all(j["card"] for j in identity.details["jokers"])


@pytest.mark.parametrize("trick", ["5H 6H JK", "JK 5H 6H", "5H JK 6H", "6H JK 5H"])
def test_a_steal_follows_the_declaration(trick):
    """RID-8: a board joker is taken by putting the card it stands for in its place; what it
    stands for is what was declared, not where it was typed
    (seeds/000_a31bb5430319cf88.txt §HOW TO PLAY).
    """
    new, hand = "JK 2C 3C".split(), "4H 7H 2C 3C".split()
    verdict = check_steal(trick.split(), "4H", new, hand, declared="4H")
    assert verdict and verdict.rule == "RID-8" and verdict.details["stands_for"] == "4H"
    refused = check_steal(trick.split(), "7H", new, hand, declared="4H")
    assert not refused and "stands for 4♥" in refused.reason
    assert check_steal(trick.split(), "4H", new, hand, declared="8H").rule == "RID-A5"


def test_a_declared_joker_in_two_jokers_steal():
    """RID-8 with two jokers: the one declared J♠ is taken with J♠, the other with 10♠."""
    new, hand = "JK 2C 3C".split(), "10S JS 2C 3C".split()
    assert check_steal("9S JK JK QS".split(), "JS", new, hand, declared="JS")
    assert check_steal("9S JK JK QS".split(), "10S", new, hand, declared=["JS"])
    assert check_steal("9S JK JK QS".split(), "JS", new, hand, index=2, declared="JS")


PARSED = [
    # typed, cards, declared
    ("5♥ 6♥ JK, joker = 4♥", ["5H", "6H", "JK"], ["4H"]),
    ("5h 6h jk joker=4h", ["5H", "6H", "JK"], ["4H"]),
    ("5H 6H JK=4H", ["5H", "6H", "JK"], ["4H"]),
    ("JK = 4H 5H 6H", ["JK", "5H", "6H"], ["4H"]),
    ("5H 6H Joker, joker: 4H", ["5H", "6H", "JK"], ["4H"]),
    ("5H 6H JK JK, jokers = 4H 7H", ["5H", "6H", "JK", "JK"], ["4H", "7H"]),
    ("5H 6H JK JK, joker = 4H, joker = 7H", ["5H", "6H", "JK", "JK"], ["4H", "7H"]),
    ("10♣ J♣ 🃏", ["10C", "JC", "JK"], []),
    ("7H 8H 9H", ["7H", "8H", "9H"], []),
    ("", [], []),
    (["5H", "6H", "JK=4H"], ["5H", "6H", "JK"], ["4H"]),
]


@pytest.mark.parametrize("typed, cards, declared", PARSED, ids=[str(row[0]) for row in PARSED])
def test_parse_trick(typed, cards, declared):
    """RID-A5: the joker is "played in place of a specific card" — the table writes which,
    e.g. "5♥ 6♥ JK, joker = 4♥"."""
    assert parse_trick(typed) == (cards, declared)


@pytest.mark.parametrize("typed, words", [
    ("5H 6H JK, joker = 4X", "'4X' is not a card"),
    ("5H 6H JK =", "'=' is not a card"),
    ("5H 6Z JK", "'6Z' is not a card"),
])
def test_parse_trick_names_a_bad_card(typed, words):
    """Card notation (RULES-API.md): "bad notation raises `ValueError` naming the card"."""
    with pytest.raises(ValueError) as error:
        parse_trick(typed)
    assert words in str(error.value)


def test_the_board_check_follows_each_tricks_declaration():
    """RID-7 with RID-A5: "Remember, when you end your turn, ALL tricks on the board must be
    valid tricks of 3 or more cards." A declared joker is checked as declared."""
    review = review_layout([["5H", "6H", "JK"], ["QC", "QH", "JK"]],
                           declared=[["4H"], ["QC"]])
    assert review["ok"] is False
    first, second = review["tricks"]
    assert first["ok"] and first["jokers"][0]["card"] == "4H"
    assert not second["ok"] and second["rule"] == "RID-A5"
    assert review_layout([["5H", "6H", "JK"]], declared=[["4H"]])["rockit"] is True


# ---------------------------------------------------------------------------------------
# Property: the typing order never changes a declared joker's verdict.

@st.composite
def declared_tricks(draw):
    """A valid trick with 1 or 2 cards turned into jokers; the declaration is either those
    cards (right) or any cards (maybe wrong)."""
    if draw(st.booleans()):
        rank = draw(st.sampled_from(RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
        natural = [rank + s for s in suits]
    else:
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(0, 12))
        length = draw(st.integers(3, 13))
        natural = [RANKS[(start + i) % 13] + suit for i in range(length)]
    count = draw(st.integers(1, 2))
    places = draw(st.lists(st.integers(0, len(natural) - 1), min_size=count, max_size=count,
                           unique=True))
    truth = [natural[i] for i in places]
    cards = ["JK" if i in places else card for i, card in enumerate(natural)]
    declared = draw(st.one_of(st.permutations(truth),
                              st.lists(st.sampled_from(CARDS), min_size=1, max_size=count)))
    return cards, list(declared), truth


def _seen(verdict):
    return (verdict.ok, verdict.rule, verdict.details["kind"],
            sorted(j["card"] or "-" for j in verdict.details["jokers"]))


@hyp_settings(max_examples=300, deadline=None)
@given(declared_tricks(), st.randoms(use_true_random=False))
def test_a_declared_jokers_verdict_ignores_the_typing_order(case, rnd):
    """RID-A5: "The player declares the represented card when laying a joker" (jokers are
    wild: seeds/000_a31bb5430319cf88.txt §PLAYING A JOKER). Any order of the typed cards (and of
    the declared ones) gives the same verdict; the right declaration is always accepted,
    each joker standing for a declared card.
    """
    cards, declared, truth = case
    expected = _seen(check_trick(cards, declared=declared))
    typed, named = list(cards), list(declared)
    rnd.shuffle(typed)
    rnd.shuffle(named)
    assert _seen(check_trick(typed, declared=named)) == expected
    if sorted(declared) == sorted(truth):
        assert expected[0] is True and expected[3] == sorted(truth)
