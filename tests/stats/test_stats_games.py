"""Each game's own figures (docs/STATS.md, "Figures by game") from games played through the
real rules, against hand computations: Zock'n'Roll, Rainbow Rummy, RockIt and Rocca."""
from __future__ import annotations

import copy

import pytest

from companion.rules import find_game
from companion.stats import add, empty, facts_of, facts_of_summary, remove, view

# Zock'n'Roll, beginner board, white dice 1 2 3 6 6 at the showdown.
FOUR7 = [6, 6, 6, 6, 1, 2, 3]       # Four of a Kind
PAIRS7 = [5, 5, 1, 2, 3, 6, 6]      # Two Pair
TRIPS7 = [1, 1, 1, 2, 3, 6, 6]      # Three of a Kind
TWO_PAIR5 = [1, 3, 1, 3, 6]         # a round-1 drop: Two Pair


def drop(player, rnd, dice):
    return {"kind": "drop", "player": player, "round": rnd, "dice": dice}


def show(**hands):
    return {"kind": "showdown", "dice": {("Jörg" if p == "Jorg" else p): d
                                         for p, d in hands.items()}}


def played(slug, settings, seats, actions, ident, day):
    """A record as the group keeps it, from the real rules' outcome, and its facts."""
    game = find_game(slug)
    state = game.new(settings, seats)
    for action in actions:
        state = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome.over
    teams = None
    if game.teams:
        teams = [seats[0::2], seats[1::2]]
        winners = [p for i, t in enumerate(teams) for p in t if "AB"[i] in outcome.winners]
    else:
        winners = list(outcome.winners)
    record = {"id": ident, "game": slug, "table_id": "t", "players": list(seats),
              "started_at": f"2026-12-{day:02d}T19:00:00Z",
              "finished_at": f"2026-12-{day:02d}T20:00:00Z", "teams": teams,
              "scores": dict(outcome.totals), "winners": winners, "settings": settings}
    return record, facts_of(slug, settings, seats, actions)


KATE = ["Kate", "Ann", "Bob", "Cy"]
# Six turns: Kate drops in round 1 (Two Pair), Ann in round 2, Bob beats Cy at the showdown.
KATE_TURN = [drop("Kate", 1, TWO_PAIR5), drop("Ann", 2, [6, 3, 1, 3, 6, 6]),
             show(Bob=FOUR7, Cy=PAIRS7)]
THREE = ["Ann", "Bob", "Cy"]
# Eleven turns with Jörg: he loses to Bob's Four of a Kind (odd turns), then beats Bob's
# Two Pair (even turns); Bob's sixth Four of a Kind, in turn 11, ends the game (ZNR-8).
JORG_TURNS = [drop("Ann", 1, TWO_PAIR5), show(Bob=FOUR7, Cy=PAIRS7, Jorg=TRIPS7),
              drop("Cy", 1, TWO_PAIR5), show(Bob=PAIRS7, Ann=TRIPS7, Jorg=FOUR7)] * 5 \
    + [drop("Ann", 1, TWO_PAIR5), show(Bob=FOUR7, Cy=PAIRS7, Jorg=TRIPS7)]


def test_zocknroll():
    total = empty()
    add(total, *played("zocknroll", {}, KATE, KATE_TURN * 6, "z1", 1))
    add(total, *played("zocknroll", {}, THREE, JORG_TURNS, "z2", 2))
    fig = view(total)["games"]["zocknroll"]["figures"]
    assert fig["turns"] == 6 + 11
    # Game 1: Kate two_pair 6 + dropped_out 6, Ann full_house 6, Bob four_kind 6 + winner 6.
    # Game 2: Ann two_pair 6 + dropped_out 6, Cy 5 + 5, Bob four_kind 6 + winner 6.
    assert fig["rows"] == {"dropped_out": 17, "four_kind": 12, "full_house": 6,
                           "two_pair": 17, "winner": 12}
    assert (fig["drops_round_1"], fig["drops_round_2"]) == (17, 6)
    rows = {p: (r["turns"], r["drops_round_1"], r["drops_round_2"], r["drop_pct_round_1"],
                r["showdowns"], r["showdown_wins"], r["showdown_win_pct"])
            for p, r in fig["players"].items()}
    assert rows == {
        "Kate": (6, 6, 0, 100.0, 0, 0, None),
        "Ann": (17, 6, 6, 35.3, 5, 0, 0.0),      # shows down in game 2's even turns
        "Bob": (17, 0, 0, 0.0, 17, 12, 70.6),
        "Cy": (17, 5, 0, 29.4, 12, 0, 0.0),
    }
    assert fig["players"]["Bob"]["rows"] == {"four_kind": 12, "winner": 12}
    assert fig["jorg"] == {"games": 1, "turns": 11, "showdowns": 11, "showdown_wins": 5,
                           "showdown_win_pct": 45.5}


def rr_hand(went_out, **cards):
    return {"kind": "hand", "went_out": went_out,
            "cards": {n: {"hand_points": h, "down_points": d} for n, (h, d) in cards.items()}}


RR_SEATS = ["Ann", "Bob", "Cid", "Dee"]      # A = Ann & Cid, B = Bob & Dee
RR_HANDS = [   # the team with fewer points scores the difference (A +75; B +25; B +140)
    rr_hand("Ann", Ann=(0, 0), Bob=(20, 10), Cid=(5, 0), Dee=(15, 5)),
    rr_hand(None, Ann=(10, 0), Bob=(5, 0), Cid=(10, 10), Dee=(5, 5)),
    rr_hand("Dee", Ann=(30, 20), Bob=(10, 0), Cid=(40, 0), Dee=(0, 0)),
]


def test_rainbow_rummy():
    total = empty()
    record, facts = played("rainbow_rummy", {}, RR_SEATS, RR_HANDS, "rr1", 3)
    assert record["winners"] == ["Bob", "Dee"] and record["scores"] == {"A": 75, "B": 165}
    add(total, record, facts)
    section = view(total)["games"]["rainbow_rummy"]
    assert section["teams"]["Bob & Dee"]["wins"] == 1
    assert section["teams"]["Ann & Cid"]["losses"] == 1
    fig = section["figures"]
    assert (fig["hands"], fig["blocked_hands"], fig["blocked_pct"]) == (3, 1, 33.3)
    assert fig["teams"] == {
        "Ann & Cid": {"hands": 3, "average_hand_score": 25.0, "went_out": 0,
                      "best_hand_score": 75},
        "Bob & Dee": {"hands": 3, "average_hand_score": 55.0, "went_out": 0,
                      "best_hand_score": 140},
    }
    assert {p: (r["average_hand_score"], r["went_out"]) for p, r in fig["players"].items()} \
        == {"Ann": (25.0, 1), "Bob": (55.0, 0), "Cid": (25.0, 0), "Dee": (55.0, 1)}


def come_in(player, cards):
    return {"kind": "come_in", "player": player, "cards": cards.split()}


ROCKIT = [come_in("Ann", "5S 5H 5D"), come_in("Bob", "7S 8S 9S 10S"),
          {"kind": "win", "player": "Ann"},
          come_in("Bob", "KS KH KD"), {"kind": "win", "player": "Bob"},
          come_in("Cid", "QS QH QD"),
          {"kind": "win", "player": "Cid", "how": "blocked",
           "hands": {"Ann": 4, "Bob": 6, "Cid": 2}},
          {"kind": "finish"}]


def test_rockit():
    total = empty()
    add(total, *played("rockit", {"decks": 2}, ["Ann", "Bob", "Cid"], ROCKIT, "rk1", 4))
    fig = view(total)["games"]["rockit"]["figures"]
    assert (fig["games"], fig["blocked_games"]) == (3, 1)
    rows = {p: (r["games"], r["game_wins"], r["came_in"], r["came_in_pct"],
                r["average_come_in_order"], r["average_cards_left"])
            for p, r in fig["players"].items()}
    assert rows == {"Ann": (3, 1, 1, 33.3, 1.0, 4.0),
                    "Bob": (3, 1, 2, 66.7, 1.5, 6.0),     # 2nd in game 1, 1st in game 2
                    "Cid": (3, 1, 1, 33.3, 1.0, 2.0)}


def play(player, card):
    return {"kind": "play", "player": player, "card": card}


ROCCA_1 = [play("Ann", "2S"), play("Bob", "3S"), {"kind": "draw", "player": "Ann"},
           play("Bob", "4S"), play("Ann", "5S"), play("Bob", "6S"), play("Ann", "7S"),
           play("Bob", "8S"), play("Ann", "9S"), {"kind": "one", "player": "Bob"},
           play("Bob", "10S")]
# Game 2: both go out without having said One (refused: 3 cards each, ROC-8).
ROCCA_2 = [{"kind": "new_game"}, play("Ann", "2H"), play("Bob", "3H"), play("Ann", "4H"),
           play("Bob", "5H"), play("Ann", "6H"), play("Bob", "7H"), play("Ann", "8H"),
           play("Bob", "9H"), play("Ann", "10H"), play("Bob", "2D"),
           {"kind": "draw", "player": "Ann"}, play("Bob", "3D"), play("Ann", "4D"),
           play("Bob", "5D"), play("Ann", "6D"), {"kind": "one", "player": "Bob"},
           play("Bob", "7D")]


def test_rocca():
    seats = ["Ann", "Bob"]
    one = facts_of("rocca", {}, seats, ROCCA_1)
    two = facts_of("rocca", {}, seats, ROCCA_1 + ROCCA_2)   # the last game only
    assert one == {"game": "rocca", "winner": "Bob", "one_penalties": {}, "drawn": {"Ann": 1},
                   "complete": True}
    assert two == {"game": "rocca", "winner": "Bob", "one_penalties": {"Ann": 1, "Bob": 1},
                   "drawn": {"Ann": 4, "Bob": 3}, "complete": True}
    total = empty()
    base = {"game": "rocca", "table_id": "t", "players": seats, "teams": None,
            "winners": ["Bob"], "settings": {}}
    add(total, {**base, "id": "g1", "finished_at": "2026-12-05T20:00:00Z",
                "scores": {"Ann": 0, "Bob": 1}}, one)
    add(total, {**base, "id": "g2", "finished_at": "2026-12-05T20:30:00Z",
                "scores": {"Ann": 0, "Bob": 1}}, two)
    section = view(total)["games"]["rocca"]
    assert section["players"]["Bob"]["wins"] == 2
    assert section["figures"] == {"games_counted": 2, "players": {
        "Ann": {"games": 2, "one_penalties": 1, "cards_drawn": 5, "average_cards_drawn": 2.5},
        "Bob": {"games": 2, "one_penalties": 1, "cards_drawn": 3, "average_cards_drawn": 1.5}}}


def test_rocca_from_a_summary_counts_wins_only():
    facts = facts_of_summary("rocca", {"winner": "Bob"})
    assert facts["complete"] is False
    total = empty()
    add(total, {"id": 1, "game": "rocca", "players": ["Ann", "Bob"], "winners": ["Bob"],
                "scores": {"Ann": 0, "Bob": 1}, "finished_at": "2026-12-06T20:00:00Z"}, facts)
    assert view(total)["games"]["rocca"]["figures"] == {"games_counted": 0, "players": {}}


def test_a_summary_gives_the_same_facts_as_the_actions():
    game = find_game("rook")
    seats = ["Ann", "Bob", "Cid", "Dee"]
    actions = [{"kind": "hand", "bidder": "Bob", "bid": 150, "points": {"A": 100, "B": 150}},
               {"kind": "redeal"}]
    state = game.new({}, seats)
    for action in actions:
        state = game.apply(state, action)
    assert facts_of_summary("rook", game.summary(state)) == facts_of("rook", {}, seats, actions)
    assert facts_of_summary("scorepad", {}) == {"game": "scorepad"}


@pytest.mark.parametrize("slug,settings,seats,actions", [
    ("zocknroll", {}, KATE, KATE_TURN * 6),
    ("rainbow_rummy", {}, RR_SEATS, RR_HANDS),
    ("rockit", {"decks": 2}, ["Ann", "Bob", "Cid"], ROCKIT),
])
def test_every_game_comes_out_as_it_went_in(slug, settings, seats, actions):
    total = empty()
    add(total, *played("rook", {}, ["Ann", "Bob", "Cid", "Dee"],
                       [{"kind": "hand", "bidder": "Ann", "bid": 250,
                         "points": {"A": 250, "B": 0}}] * 3, "r", 1))
    before = copy.deepcopy(total)
    record, facts = played(slug, settings, seats, actions, "x", 2)
    add(total, record, facts)
    remove(total, record, facts)
    assert total == before


def test_facts_of_folds_from_the_game_before_at_the_table():
    """A table's later game starts from the one before it (``Game.start_after``): the
    facts read its actions from there, as the table folds them (Rook: the deal moves on)."""
    game = find_game("rook")
    seats = ["Ann", "Bob", "Cid", "Dee"]
    first = [{"kind": "hand", "bidder": "Ann", "bid": 250, "points": {"A": 250, "B": 0}}] * 3
    state = game.new({}, seats)
    for action in first:
        state = game.apply(state, action)
    previous = game.summary(state)
    second = [{"kind": "hand", "bidder": "Bob", "bid": 150, "points": {"A": 100, "B": 150}}]
    state = game.start_after({}, seats, previous)
    for action in second:
        state = game.apply(state, action)
    assert facts_of("rook", {}, seats, second, previous) == \
        facts_of_summary("rook", game.summary(state))
