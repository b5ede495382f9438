"""How each game looks and takes input on a phone: the registry of :class:`GameUI` adapters.

There is one list of games: the rules registry (``companion.rules.GAMES``, filled from
``GAME_MODULES``). A game's adapter is found from its registry entry by convention: the
game with slug ``rook`` has its adapter in the module ``companion.web.games.rook``, which
names its :class:`GameUI` subclass ``UI``. The adapter is made once, on first use, and
cached; :func:`ui_for` returns that instance. A rules module without an adapter module yet
(the rules may come first) is a game without phone screens: its pages are 404.

Tests (and only tests) add a game at runtime with :func:`register`: the rules ``Game``,
an adapter instance and, with ``template_folder``, the folder holding its templates::

    games.register(HighCardUI("highcard", template_folder=FOLDER), HIGH_CARD_GAME)
    ...
    games.unregister("highcard")
"""
from __future__ import annotations

from importlib import import_module

from flask import Flask, abort
from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound

from companion.rules import GAMES, Game, find_game
from companion.rules import register as register_rules
from companion.rules import unregister as unregister_rules
from companion.rules.said import message

from .base import GameUI

__all__ = ["GameUI", "game_or_404", "init_app", "playable_games", "register", "ui_for",
           "unregister"]

#: The adapters made so far (or registered), by slug: see ui_for().
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


def register(ui: GameUI, game: Game | None = None) -> GameUI:
    """Add a game's adapter at runtime (tests): with ``game``, its rules too.

    ``ui.template_folder`` (if set) holds the game's templates (``_sheet.html``,
    ``_entry_fields.html``…), served as ``games/<slug>/`` by the loader :func:`init_app`
    installs. ValueError when the slugs differ or another game already has the slug.
    """
    if not isinstance(ui, GameUI):
        raise TypeError("register() takes a GameUI instance.")
    if game is not None:
        if game.slug != ui.slug:
            raise ValueError(message("entry", "The adapter is for {adapter!r}, the game is "
                                     "{game!r}.", adapter=ui.slug, game=game.slug))
        register_rules(game)
    else:
        find_game(ui.slug)
    known = _adapters.get(ui.slug)
    if known is not None and known is not ui:
        raise ValueError(message("entry", "The game {slug!r} already has an adapter.",
                                 slug=ui.slug))
    _adapters[ui.slug] = ui
    return ui


def unregister(slug: str) -> None:
    """Remove a game added with :func:`register` (adapter and rules); a no-op otherwise."""
    ui = _adapters.get(slug)
    if ui is not None and ui.template_folder is not None:
        del _adapters[slug]
        unregister_rules(slug)


class _RegisteredTemplates(BaseLoader):
    """Serves ``games/<slug>/<file>`` from a registered adapter's ``template_folder``."""

    def get_source(self, environment: Environment, template: str):
        parts = template.split("/", 2)
        if len(parts) == 3 and parts[0] == "games":
            ui = _adapters.get(parts[1])
            if ui is not None and ui.template_folder is not None:
                return FileSystemLoader(ui.template_folder).get_source(environment, parts[2])
        raise TemplateNotFound(template)


def init_app(app: Flask) -> None:
    """Let the app's templates include a registered game's own template folder (after the
    app's own templates, which always win)."""
    loader = app.jinja_loader
    extra = _RegisteredTemplates()
    app.jinja_loader = ChoiceLoader([loader, extra]) if loader is not None else extra

