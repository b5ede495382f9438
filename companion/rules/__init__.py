"""The rules library: pure game logic over JSON-ready data (see RULES-API.md).

``GAMES`` maps each slug to its :class:`Game`; ``find_game(slug)`` looks one up. To add a
game, write ``companion/rules/<slug>.py`` exposing ``GAME`` and add its module name to
``GAME_MODULES`` — nothing else changes (the module name is the slug; the web adapter is
found from it). :func:`register` adds a game at runtime (tests: a toy game played through
the same contract). This package imports neither Flask nor SQLite.
"""

from __future__ import annotations

from importlib import import_module

from .game import Game, Setting
from .verdict import RuleError, Verdict

__all__ = ["GAMES", "GAME_MODULES", "Game", "RuleError", "Setting", "Verdict", "find_game",
           "register", "unregister"]

#: Module names under companion.rules, in the order games are offered.
GAME_MODULES: tuple[str, ...] = (
    "scorepad",
    "rook",
    "zocknroll",
    "rockit",
    "rocca",
    "rainbow_rummy",
)


def _load(modules: tuple[str, ...]) -> dict[str, Game]:
    games: dict[str, Game] = {}
    for module in modules:
        game = import_module(f"{__name__}.{module}").GAME
        if game.slug in games:
            raise RuntimeError(f"Two games use the slug {game.slug!r}.")
        games[game.slug] = game
    return games


GAMES: dict[str, Game] = _load(GAME_MODULES)
_BUILT_IN = frozenset(GAMES)


def find_game(slug: str) -> Game:
    """Return the game with this slug; raise LookupError for an unknown one."""
    try:
        return GAMES[slug]
    except (KeyError, TypeError):
        raise LookupError(f"There is no game called {slug!r}.") from None


def register(game: Game) -> Game:
    """Add ``game`` to :data:`GAMES` at runtime (after the built-in games); returns it.

    For tests and scripts that play a game not in ``GAME_MODULES``. ValueError when another
    game already uses its slug; registering the same game twice is harmless.
    """
    if not isinstance(game, Game):
        raise TypeError("register() takes a companion.rules.Game.")
    known = GAMES.get(game.slug)
    if known is not None and known is not game:
        raise ValueError(f"Two games use the slug {game.slug!r}.")
    GAMES[game.slug] = game
    return game


def unregister(slug: str) -> None:
    """Remove a game added with :func:`register`; the built-in games stay."""
    if slug in GAMES and slug not in _BUILT_IN:
        del GAMES[slug]
