"""Rocca Card Tower under random legal play (a Hypothesis state machine).

Each step picks one legal action, worked out here from the rules (RULES.md §5.3) and the
public summary, and applies it. The engine must accept it, and the invariants must hold:
hand counts never go negative, the player to act is a seated player still in the game,
and hands + tower + stock (+ cards written off by a declared stock-out) stay 60. Probes
check that actions by the wrong player, or with a card already on the tower, are refused
without changing anything. Tables of 2 to 11 players (ROC-A13). A queen's give that empties
a hand stays open (ROC-A12): the giver holds 0 cards and the game goes on until the
receiver answers (the giver holds cards again) or takes the cards (the giver wins).
"""

import copy
import json

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.rules import RuleError, find_game

GAME = find_game("rocca")
RANKS = ("0", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITED = [rank + suit for suit in "SHDC" for rank in RANKS]
DECK_SIZE = 60

# How often each kind of move is picked when it is available (weights by repetition):
# "one" is likely so that games are won, not only refused by the One rule.
WEIGHTS = {"play": 6, "draw": 2, "one": 6, "accept": 2, "bon": 2, "cannot_play": 2,
           "stock_out": 1, "new_game": 1}


def rank_of(card):
    return "JK" if card == "JK" else card[:-1]


def _after(summary, player):
    """The next player still in after ``player`` in the summary's direction."""
    seats, step = summary["seats"], summary["direction"]
    index = seats.index(player)
    for i in range(1, len(seats) + 1):
        seat = seats[(index + i * step) % len(seats)]
        if seat in summary["still_in"]:
            return seat
    return player


class RoccaMachine(RuleBasedStateMachine):
    """Random legal play of whole matches."""

    @initialize(n=st.integers(2, 11), bon=st.booleans())
    def start(self, n, bon):
        self.seats = [f"P{i}" for i in range(1, n + 1)]
        self.state = GAME.new({"bon": bon}, self.seats)
        self.games = 0

    # -- what is legal now, from the rules -------------------------------------------------

    def unplayed(self):
        played = self.state["played"]
        cards = [card for card in SUITED if card not in played]
        return cards + ["JK"] * (4 - played.count("JK"))

    def play_options(self, data, player, cards):
        """Play actions for ``player`` with one of ``cards`` (suit / target filled in)."""
        s = self.summary
        others = [p for p in s["still_in"] if p != player]
        options = []
        for card in cards:
            action = {"kind": "play", "player": player, "card": card}
            if card == "JK":
                action["suit"] = data.draw(st.sampled_from("SHDC"), label="declared")
            if rank_of(card) == "Q" and s["queen"] is None:
                action["to"] = data.draw(st.sampled_from(others), label="queen target")
            options.append(action)
        return options

    def bon_options(self, data):
        s = self.summary
        if not s["settings"]["bon"] or s["queen"] is not None or s["lock"] is not None:
            return []
        pending = s["pending"]
        free = self.unplayed()
        options = []
        for onto in set(self.state["played"]) - {"JK"}:
            rank = rank_of(onto)
            if pending is not None and rank != pending["kind"]:
                continue
            same = [card for card in free if card != "JK" and rank_of(card) == rank]
            for player in s["still_in"]:
                size = min(3, len(same), s["hands"][player])
                if size < 2 or self.state["played_by"].get(onto) == player:
                    continue
                action = {"kind": "bon", "player": player, "cards": same[:size],
                          "onto": onto}
                if rank == "Q":
                    others = [p for p in s["still_in"] if p != player]
                    action["to"] = data.draw(st.sampled_from(others), label="bon target")
                options.append(action)
        return options

    def legal(self, data):
        """Every kind of move available now, with its legal actions."""
        s = self.summary
        if s["over"]:
            return {"new_game": [{"kind": "new_game"}]}
        moves = {}
        moves["one"] = [{"kind": "one", "player": p} for p in s["must_say_one"]]
        if not s["stock_out"] and s["stock"] <= 5:      # the real stock ran out early
            moves["stock_out"] = [{"kind": "stock_out"}]
        queen, pending, lock = s["queen"], s["pending"], s["lock"]
        free = self.unplayed()
        if queen is not None:
            receiver = queen["receiver"]
            moves["accept"] = [{"kind": "accept", "player": receiver}]
            if s["hands"][receiver]:
                queens = [card for card in free if rank_of(card) == "Q"]
                moves["play"] = self.play_options(data, receiver, queens)
        elif pending is not None:
            player = pending["player"]
            moves["draw"] = [{"kind": "draw", "player": player}]
            if s["hands"][player]:
                same = [card for card in free if rank_of(card) == pending["kind"]]
                moves["play"] = self.play_options(data, player, same)
        else:
            player = s["current"]
            if s["stock"]:
                moves["draw"] = [{"kind": "draw", "player": player}]
            if s["stock_out"]:
                moves["cannot_play"] = [{"kind": "cannot_play", "player": player}]
            if s["hands"][player]:
                if lock is not None:
                    free = [c for c in free if c == "JK" or c.endswith(lock["suit"])]
                picks = data.draw(st.lists(st.sampled_from(free), max_size=4, unique=True),
                                  label="cards") if free else []
                moves["play"] = self.play_options(data, player, picks)
        moves["bon"] = self.bon_options(data)
        return {kind: actions for kind, actions in moves.items() if actions}

    # -- steps ---------------------------------------------------------------------------

    @property
    def summary(self):
        return GAME.summary(self.state)

    @rule(data=st.data())
    def legal_move(self, data):
        moves = self.legal(data)
        kinds = [kind for kind in moves for _ in range(WEIGHTS[kind])]
        kind = data.draw(st.sampled_from(kinds), label="kind")
        action = data.draw(st.sampled_from(moves[kind]), label="action")
        prior, before, old = self.state, copy.deepcopy(self.state), self.summary
        self.state = GAME.apply(prior, action)            # a legal move is never refused
        assert prior == before                            # apply did not change its input
        new = GAME.summary(self.state)
        self.check_step(old, action, new)
        event(f"move: {kind}")                            # --hypothesis-show-statistics
        if new["over"] and not old["over"]:
            event(f"game won: {new['games'][-1]['how']}")

    def check_step(self, old, action, new):
        """What a few simple moves must do to the counts."""
        kind = action["kind"]
        if kind == "draw" and old["pending"] is None:
            player = action["player"]
            assert new["hands"][player] == old["hands"][player] + 1
            assert new["stock"] == old["stock"] - 1
            assert new["current"] != player or len(new["still_in"]) == 1
        if kind == "play":
            assert new["tower"] == old["tower"] + 1 or new["game_number"] > old["game_number"]
        if kind == "one":
            assert action["player"] in new["said_one"]
        if kind == "new_game":
            assert new["game_number"] == old["game_number"] + 1
            assert new["current"] == old["next_starter"]
            assert new["totals"] == old["totals"]
        if kind == "cannot_play":
            assert new["eliminated"][-1] == action["player"]
        if kind == "accept":
            # ROC-A12: taking the cards of a give that emptied the giver's hand ends the
            # game with that giver out; any other accept goes on after the giver.
            giver = old["queen"]["giver"]
            if old["queen"]["out"]:
                assert new["over"] and new["winner"] == giver
                assert new["last"]["rule"] == "ROC-A12"
            else:
                assert not new["over"] and new["current"] == _after(old, giver)
        if kind in ("play", "bon") and new["queen"] is not None and new["queen"]["out"]:
            # ROC-A12: the emptying give is open, not a win.
            assert not new["over"] and new["hands"][action["player"]] == 0
            assert new["current"] == new["queen"]["receiver"]
            assert new["last"]["rule"] == "ROC-A12"
            event("a queen's give emptied a hand")
        if kind == "play" and old["queen"] is not None and old["queen"]["out"]:
            # The receiver answered: the emptied giver holds cards again (ROC-A12).
            giver = old["queen"]["giver"]
            assert not new["over"] or new["winner"] == action["player"]
            if not new["over"]:
                assert new["hands"][giver] > 0
            event("an emptying give was answered")

    @rule(data=st.data())
    def wrong_player_is_refused(self, data):
        s = self.summary
        if s["over"]:
            return
        acting = {s["current"]}
        others = [p for p in self.seats if p not in acting]
        if not others:
            return
        player = data.draw(st.sampled_from(others), label="wrong player")
        card = data.draw(st.sampled_from(self.unplayed()), label="card")
        self.expect_refusal({"kind": "play", "player": player, "card": card, "suit": "S",
                             "to": s["current"]})

    @rule(data=st.data())
    def played_card_is_refused(self, data):
        s = self.summary
        suited = [card for card in self.state["played"] if card != "JK"]
        if s["over"] or not suited or s["pending"] or s["queen"]:
            return
        card = data.draw(st.sampled_from(suited), label="played card")
        self.expect_refusal({"kind": "play", "player": s["current"], "card": card})

    def expect_refusal(self, action):
        before = copy.deepcopy(self.state)
        try:
            GAME.apply(self.state, action)
        except RuleError as error:
            assert error.rule in GAME.rules
            assert str(error).endswith(".")
        else:
            raise AssertionError(f"{action} was accepted")
        assert self.state == before

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def hands_never_negative(self):
        assert all(count >= 0 for count in self.state["hands"].values())
        assert self.state["stock"] >= 0

    @invariant()
    def current_is_seated(self):
        s = self.summary
        if s["over"]:
            assert s["current"] is None and s["winners"] == [s["winner"]]
            assert s["winner"] in self.seats
        else:
            assert s["current"] in self.seats and s["current"] in s["still_in"]
            assert s["winners"] == []
            if s["pending"] is not None:
                assert s["current"] == s["pending"]["player"]
            if s["queen"] is not None:
                assert s["current"] == s["queen"]["receiver"]
                assert s["queen"]["giver"] in s["still_in"]

    @invariant()
    def an_emptying_give_waits_for_the_receiver(self):
        s = self.summary
        if s["queen"] is not None and s["queen"]["out"]:
            assert not s["over"] and s["hands"][s["queen"]["giver"]] == 0

    @invariant()
    def cards_are_conserved(self):
        s = self.summary
        assert sum(s["hands"].values()) + s["tower"] + s["stock"] + s["missing"] == DECK_SIZE

    @invariant()
    def bookkeeping(self):
        s = self.summary
        assert s["direction"] in (1, -1)
        assert all(s["hands"][p] == 1 for p in s["said_one"])
        assert sum(s["totals"].values()) == len(s["games"])
        assert s["game_number"] == len(s["games"]) + (0 if s["over"] else 1)
        assert s["stock"] > 0 or s["stock_out"] or s["over"]
        assert json.loads(json.dumps(self.state)) == self.state


RoccaMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TestRoccaMachine = pytest.mark.slow(RoccaMachine.TestCase)
