"""The rules library: pure game logic over JSON-ready data (docs/RULES-API.md).

``GAMES`` maps each slug to its :class:`Game`; ``find_game(slug)`` looks one up. To add a
game, write ``companion/rules/<slug>.py`` exposing ``GAME`` and add its module name to
``GAME_MODULES`` — the one registry line (the module name is the slug; the web adapter,
templates, stylesheet and catalogue are found from it: docs/ADDING-A-GAME.md). This package
imports neither Flask nor SQLite.
"""

from __future__ import annotations

from importlib import import_module

from .game import Game, Setting
from .verdict import RuleError, Verdict

__all__ = ["GAMES", "GAME_MODULES", "Game", "RuleError", "Setting", "Verdict", "find_game",
           "load_games"]

#: Module names under companion.rules, in the order games are offered.
GAME_MODULES: tuple[str, ...] = (
    "scorepad",
    "rook",
    "zocknroll",
    "rockit",
    "rocca",
    "rainbow_rummy",
)


def load_games(modules: tuple[str, ...]) -> dict[str, Game]:
    """Each module's ``GAME`` (modules under companion.rules), by slug, in this order.

    RuntimeError when two games use one slug."""
    games: dict[str, Game] = {}
    for module in modules:
        game = import_module(f"{__name__}.{module}").GAME
        if game.slug in games:
            raise RuntimeError(f"Two games use the slug {game.slug!r}.")
        games[game.slug] = game
    return games


GAMES: dict[str, Game] = load_games(GAME_MODULES)


def find_game(slug: str) -> Game:
    """Return the game with this slug; raise LookupError for an unknown one."""
    try:
        return GAMES[slug]
    except (KeyError, TypeError):
        raise LookupError(f"There is no game called {slug!r}.") from None
