"""How each game looks and takes input on a phone: the registry of :class:`GameUI` adapters.

There is one list of games: the rules registry (``companion.rules.GAMES``, filled from
``GAME_MODULES``). A game's adapter is found from its registry entry by convention: the
game with slug ``rook`` has its adapter in the module ``companion.web.games.rook``, which
names its :class:`GameUI` subclass ``UI``. The adapter is made once, on first use, and
cached; :func:`ui_for` returns that instance. A rules module without an adapter module yet
(the rules may come first) is a game without phone screens: its pages are 404.
"""
from __future__ import annotations

from importlib import import_module

from flask import abort

from companion.rules import GAMES, Game, find_game
from companion.rules.said import message

from .base import GameUI

__all__ = ["GameUI", "game_or_404", "playable_games", "ui_for"]

#: The adapters made so far, by slug: see ui_for().
_adapters: dict[str, GameUI] = {}


def ui_for(slug: str) -> GameUI:
    """The web adapter (a :class:`GameUI` instance) of the game with this slug.

    LookupError for an unknown game, or a game whose adapter module does not exist yet.
    """
    ui = _adapters.get(slug)
    if ui is not None:
        return ui
    game = find_game(slug)
    name = f"{__name__}.{game.slug}"
    try:
        module = import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise LookupError(message("entry", "The game {slug!r} has no phone screens yet.",
                                  slug=game.slug)) from None
    ui = module.UI(game.slug)
    if not isinstance(ui, GameUI):
        raise TypeError(f"{name}.UI is not a GameUI subclass.")
    return _adapters.setdefault(game.slug, ui)


def _has_screens(slug: str) -> bool:
    try:
        ui_for(slug)
    except LookupError:
        return False
    return True


def playable_games() -> list[Game]:
    """Every game with phone screens, in the order the rules registry offers them."""
    return [game for game in GAMES.values() if _has_screens(game.slug)]


def game_or_404(slug: str) -> Game:
    """The game for a URL's slug, or 404 when there is no such game or no phone screens
    for it yet (the rules may come first)."""
    try:
        game = find_game(slug)
        ui_for(game.slug)
    except LookupError:
        abort(404)
    return game
