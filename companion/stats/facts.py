"""What a finished game's own figures need from its log, read once when it finishes.

A game's facts are a small JSON-ready dict (``{"game": slug, ...}``) the caller keeps beside
the game's record, so the running total can take the game out again (an undone or edited
last hand) without reading the log twice. They come from the rules' own summary
(:func:`facts_of_summary`), or from the game's actions folded through the rules
(:func:`facts_of`), which also sees what a summary forgets (Rocca's draws).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules import find_game
from companion.rules.zocknroll import JORG

__all__ = ["facts_of", "facts_of_summary"]


def facts_of(slug: str, settings: Mapping[str, Any] | None, names: list[str],
             actions: Iterable[Mapping[str, Any]],
             previous: Mapping[str, Any] | None = None) -> dict:
    """The facts of one finished game from its rules actions (the game's live actions in
    log order, from its start; undone ones left out): the actions are folded from
    ``Game.start_after(settings, names, previous)``, as the table folds them (`previous`:
    the summary of the table's game before this one, None for its first game). For Rocca,
    whose table deals game after game in one state, the facts are those of the last game
    the actions reach.

    Raises ValueError (RuleError included) when the rules refuse an action."""
    game = find_game(slug)
    state = game.start_after(dict(settings or {}), list(names),
                             dict(previous) if previous is not None else None)
    if slug == "rocca":
        return _rocca(game, state, actions)
    for action in actions:
        state = game.apply(state, dict(action))
    return facts_of_summary(slug, game.summary(state))


def facts_of_summary(slug: str, summary: Mapping[str, Any]) -> dict:
    """The facts of one finished game from its final summary (``Game.summary``), as a
    table keeps its earlier games. Rocca's draws are not in a summary: its facts from a
    summary carry wins only (use :func:`facts_of`)."""
    reader = _READERS.get(slug)
    return reader(summary) if reader is not None else {"game": slug}


def _teams(summary: Mapping[str, Any]) -> dict:
    return {team: list(players) for team, players in (summary.get("teams") or {}).items()}


def _rook(summary: Mapping[str, Any]) -> dict:
    """Every hand played: bidder, bidding team, bid, made, each team's change."""
    hands = []
    for row in summary.get("hands") or ():
        if row.get("kind") != "hand":
            continue    # a redeal: nobody bid
        hands.append({"bidder": row["bidder"], "team": row["team"], "bid": row["bid"],
                      "made": bool(row["made"]), "changes": dict(row["changes"])})
    return {"game": "rook", "teams": _teams(summary), "hands": hands}


def _zocknroll(summary: Mapping[str, Any]) -> dict:
    """Checks per row, each turn's drops (by round) and showdown (who was in, who won)."""
    seats = list(summary.get("seats") or ())
    jorg = bool(summary.get("jorg"))
    marks = {p: {row: n for row, n in rows.items() if n}
             for p, rows in (summary.get("marks") or {}).items()}
    turns = []
    for turn in summary.get("turns") or ():
        dropped = {p: int(r) for p, r in (turn.get("dropped") or {}).items()}
        shown = turn.get("showdown")
        winner = shown.get("winner") if isinstance(shown, Mapping) else None
        if winner is None:      # a turn tapped on paper: the Winner row's check says who
            for line in turn.get("lines") or ():
                for check in line.get("checks") or ():
                    if check.get("row") == "winner":
                        winner = check.get("player")
        into = [p for p in seats if p not in dropped] + ([JORG] if jorg else [])
        turns.append({"dropped": dropped, "showdown": into if len(into) > 1 else [],
                      "winner": winner})
    # Jörg has no board and scores nothing (RULES.md §ZNR-6): his record is his showdowns.
    return {"game": "zocknroll", "board": summary.get("board"), "jorg": jorg,
            "marks": marks, "turns": turns}


def _rainbow_rummy(summary: Mapping[str, Any]) -> dict:
    """Every hand: each team's change, who went out, whether it was blocked."""
    hands = [{"changes": dict(row.get("changes") or {}), "went_out": row.get("went_out"),
              "blocked": bool(row.get("blocked"))}
             for row in summary.get("hands") or ()]
    return {"game": "rainbow_rummy", "teams": _teams(summary), "hands": hands}


def _cards(held: Any) -> int | None:
    if isinstance(held, int) and not isinstance(held, bool):
        return held
    if isinstance(held, (list, tuple)):
        return len(held)
    return None


def _rockit(summary: Mapping[str, Any]) -> dict:
    """Every game of the match: winner, how, the order players came in, cards left."""
    games = []
    for game in summary.get("games") or ():
        hands = game.get("hands") or {}
        left = {p: _cards(h) for p, h in hands.items()} if isinstance(hands, Mapping) else {}
        games.append({"winner": game.get("winner"), "how": game.get("how"),
                      "came_in": [c.get("player") for c in game.get("come_in") or ()],
                      "cards_left": {p: n for p, n in left.items() if n is not None}})
    return {"game": "rockit", "games": games}


def _rocca_summary(summary: Mapping[str, Any]) -> dict:
    return {"game": "rocca", "winner": summary.get("winner"), "one_penalties": {},
            "drawn": {}, "complete": False}


def _rocca(game, state: dict, actions: Iterable[Mapping[str, Any]]) -> dict:
    """Rocca from its actions: One penalties and cards drawn per player (a draw, a J/K
    penalty, a forgotten One), for the last game the actions reach."""
    penalties: dict[str, int] = {}
    drawn: dict[str, int] = {}
    summary = game.summary(state)
    for action in actions:
        action = dict(action)
        before = summary.get("hands") or {}
        state = game.apply(state, action)
        summary = game.summary(state)
        if action.get("kind") == "new_game":
            penalties, drawn = {}, {}
            continue
        player, kind = action.get("player"), action.get("kind")
        if kind not in _DRAWING or player is None:
            continue
        # What the hand gained, the cards the action itself laid down added back.
        laid = 1 if kind == "play" else len(action.get("cards") or ()) if kind == "bon" else 0
        grew = ((_cards(summary["hands"].get(player)) or 0) + laid
                - (_cards(before.get(player)) or 0))
        if grew > 0:
            drawn[player] = drawn.get(player, 0) + grew
        last = summary.get("last") or {}
        if kind == "play" and last.get("rule") == "ROC-8" and grew > 0:
            # Going out without having said One: refused, and the penalty drawn (ROC-8).
            penalties[player] = penalties.get(player, 0) + 1
    return {"game": "rocca", "winner": summary.get("winner"), "one_penalties": penalties,
            "drawn": drawn, "complete": True}


#: The actions after which a player may hold more cards than before: a draw (voluntary, or
#: a J/K penalty), a play refused for a forgotten One, a stock-out's "cannot play".
_DRAWING = ("draw", "play", "cannot_play", "bon")

_READERS = {
    "rook": _rook,
    "zocknroll": _zocknroll,
    "rainbow_rummy": _rainbow_rummy,
    "rockit": _rockit,
    "rocca": _rocca_summary,
}
