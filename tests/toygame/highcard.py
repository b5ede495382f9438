"""High card (tests only): each round every player turns one card; the highest card wins
the round's point, a tie for the highest scores nobody (HC-2); the first to the target
(3 points unless the table says otherwise) wins (HC-3).

Pure like every rules module: settings ``target``; action ``{"kind": "round", "cards":
{player: rank}}`` with ranks 2–10, J, Q, K, A.
"""
from __future__ import annotations

from companion.rules import Game, RuleError, Setting
from companion.rules.game import check_seats, check_settings
from companion.rules.said import message

SLUG = "highcard"
NAME = "High card"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RULES = {
    "HC-1": "Every player turns one card each round, ranked 2 (low) to A (high).",
    "HC-2": "The highest card wins the round's point; a tie for the highest scores nobody.",
    "HC-3": "The first player to the target wins.",
}
SETTINGS = (Setting("target", "Points to win", "int", 3, 1, 20,
                    help="The first to this many points wins.", rule="HC-3"),)


def new(settings: dict | None, seats: list[str]) -> dict:
    """A new game: validated settings and 2–4 named seats."""
    return {"settings": check_settings(SETTINGS, settings, NAME),
            "seats": check_seats(seats, 2, 4, NAME), "rounds": []}


def apply(state: dict, action: dict) -> dict:
    """One round: every player's card (HC-1); refuses a missing or unknown card."""
    if summary(state)["over"]:
        raise RuleError(message("highcard", "The game is over."), "HC-3")
    cards = action.get("cards") if action.get("kind") == "round" else None
    if not isinstance(cards, dict):
        raise RuleError(message("highcard", "A round needs every player's card."), "HC-1")
    for name in state["seats"]:
        if cards.get(name) not in RANKS:
            raise RuleError(message("highcard", "{name} needs a card from 2 to A.", name=name),
                            "HC-1")
    round_ = {name: cards[name] for name in state["seats"]}
    return {**state, "rounds": [*state["rounds"], round_]}


def round_winner(cards: dict[str, str]) -> str | None:
    """Who takes the round's point: the one highest card, else nobody (HC-2)."""
    best = max(RANKS.index(rank) for rank in cards.values())
    top = [name for name, rank in cards.items() if RANKS.index(rank) == best]
    return top[0] if len(top) == 1 else None


def summary(state: dict) -> dict:
    """Totals, each round's winner, and the end (HC-3)."""
    totals = dict.fromkeys(state["seats"], 0)
    rounds = []
    for cards in state["rounds"]:
        winner = round_winner(cards)
        if winner is not None:
            totals[winner] += 1
        rounds.append({"cards": cards, "winner": winner})
    target = state["settings"]["target"]
    winners = [name for name, points in totals.items() if points >= target]
    return {"totals": totals, "rounds": rounds, "over": bool(winners), "winners": winners,
            "target": target}


GAME = Game(slug=SLUG, name=NAME, min_players=2, max_players=4, teams=False, new=new,
            apply=apply, summary=summary, settings_fields=SETTINGS, rules=RULES)
