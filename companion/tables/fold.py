"""The sheet is derived: fold the game's `apply` over the table's log."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.lru import LRU
from companion.rules import Game, RuleError

_cache = LRU(2048)    # (table id, version) -> FoldResult


@dataclass(frozen=True)
class FoldResult:
    state: Any
    summary: dict
    past_games: list[dict]
    errors: list[str]


def fold(table_id: str, version: int | None, game: Game, settings: dict, names: list[str],
         actions) -> FoldResult:
    """Replay the live actions of a log: game actions apply, a rematch starts afresh.

    Undone actions, undo markers and entries still waiting for the other team's
    confirmation are skipped. An action the rules refuse on replay
    (which only a rules change could cause) is skipped and reported in `errors`, so a
    stored log never makes a table unreadable. Results are cached by (table, version)
    when `version` is given: the version changes with every write.
    """
    key = (table_id, version) if version is not None else None
    if key is not None:
        hit = _cache.get(key)
        if hit is not None:
            return hit
    state = game.new(settings, names)
    past: list[dict] = []
    errors: list[str] = []
    for action in actions:
        if action.undone_by is not None or getattr(action, "waiting", False):
            continue
        if action.kind == "rematch":
            past.append(game.summary(state))
            state = game.new(settings, names)
        elif action.kind == "game":
            try:
                state = game.apply(state, action.payload)
            except (RuleError, ValueError) as exc:
                errors.append(f"entry #{action.seq}: {exc}")
    result = FoldResult(state, game.summary(state), past, errors)
    if key is not None:
        _cache.put(key, result)
    return result
