"""Toy Hearts: 3 or 4 players take penalty points every hand, and the lowest total wins.

A worked example of docs/ADDING-A-GAME.md that lives in the tests (tests/toygame/, laid out
like the repository): tests/web/test_web_toy_game.py installs it with the one registry line
and plays it on a table and through a tournament round. Its rules:

- TH-1: every hand gives out 26 penalty points (a point a heart, 13 for the queen of
  spades); the table enters what each player took.
- TH-2: shooting the moon: a player who takes all 26 scores 0 and everyone else 26.
- TH-3: the game ends after the hand in which a player reaches the target (50 unless the
  table says otherwise).
- TH-4: the lowest total wins; a tie for it shares the win.

Settings ``target``; action ``{"kind": "hand", "points": {player: points}}``.
"""
from __future__ import annotations

from .game import Game, Setting, check_seats, check_settings
from .said import N_, message
from .verdict import RuleError

SLUG = "toyhearts"
NAME = N_("Toy Hearts")
HAND_POINTS = 26
RULES = {
    "TH-1": N_("Every hand gives out 26 penalty points: a point a heart, 13 for the queen "
               "of spades."),
    "TH-2": N_("A player who takes all 26 points shoots the moon: 0 for them, 26 for "
               "everyone else."),
    "TH-3": N_("The game ends after the hand in which a player reaches the target."),
    "TH-4": N_("The lowest total wins; a tie for it shares the win."),
}
SETTINGS = (
    Setting("target", N_("Points that end the game"), "int", 50, 10, 200,
            help=N_("The game ends after the hand in which a player reaches this many "
                    "points."), rule="TH-3"),
)


def new(settings: dict | None, seats: list[str]) -> dict:
    """A new game: checked settings and 3 or 4 named seats."""
    return {"settings": check_settings(SETTINGS, settings, NAME),
            "seats": check_seats(seats, 3, 4, NAME), "hands": []}


def apply(state: dict, action: dict) -> dict:
    """One hand: what every player took (TH-1). Never changes ``state``."""
    if summary(state)["over"]:
        raise RuleError(message("toyhearts", "The game is over."), "TH-3")
    points = action.get("points") if action.get("kind") == "hand" else None
    if not isinstance(points, dict):
        raise RuleError(message("toyhearts", "A hand needs every player's points."), "TH-1")
    for name in state["seats"]:
        taken = points.get(name)
        if not isinstance(taken, int) or isinstance(taken, bool) \
                or not 0 <= taken <= HAND_POINTS:
            raise RuleError(message("toyhearts", "{name}'s points must be a whole number "
                                    "from 0 to 26.", name=name), "TH-1")
    total = sum(points[name] for name in state["seats"])
    if total != HAND_POINTS:
        raise RuleError(message("toyhearts", "A hand gives out 26 points, not {total}.",
                                total=total), "TH-1")
    hand = {name: points[name] for name in state["seats"]}
    return {**state, "hands": [*state["hands"], hand]}


def scored(hand: dict[str, int]) -> tuple[dict[str, int], str | None]:
    """What each player scores for a hand, and who shot the moon (TH-2), if anyone."""
    moon = next((name for name, taken in hand.items() if taken == HAND_POINTS), None)
    if moon is None:
        return dict(hand), None
    return {name: 0 if name == moon else HAND_POINTS for name in hand}, moon


def summary(state: dict) -> dict:
    """Totals, each hand's scores, the end (TH-3) and the winners (TH-4)."""
    totals = dict.fromkeys(state["seats"], 0)
    hands = []
    for hand in state["hands"]:
        scores, moon = scored(hand)
        for name, points in scores.items():
            totals[name] += points
        hands.append({"scores": scores, "moon": moon})
    target = state["settings"]["target"]
    over = any(points >= target for points in totals.values())
    low = min(totals.values())
    winners = [name for name, points in totals.items() if points == low] if over else []
    return {"totals": totals, "hands": hands, "over": over, "winners": winners,
            "target": target}


GAME = Game(slug=SLUG, name=NAME, min_players=3, max_players=4, teams=False, new=new,
            apply=apply, summary=summary, settings_fields=SETTINGS, rules=RULES,
            lower_wins=True)
