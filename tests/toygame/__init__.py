"""A toy game that exists only in the tests: "high card", added through the same contract as
the real games (docs/ADDING-A-GAME.md): a rules module (:mod:`.highcard`), a web adapter
(:mod:`.ui`) and a template folder (``templates/``), registered at runtime by
:func:`register` — no file of the app is touched."""
from __future__ import annotations

from pathlib import Path

from companion.web import games

from .highcard import GAME
from .ui import HighCardUI

TEMPLATES = Path(__file__).with_name("templates")


def register() -> HighCardUI:
    """Add high card to the app's games (rules + adapter + templates); the one registry line
    a built-in game would add to ``GAME_MODULES`` instead."""
    return games.register(HighCardUI(GAME.slug, template_folder=str(TEMPLATES)), GAME)


def unregister() -> None:
    games.unregister(GAME.slug)
