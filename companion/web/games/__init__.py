"""How each game looks and takes input on a phone: templates and entry-form parsing.

The rules live in `companion.rules`; this registry adds only what the web needs. A
new game adds a module here and one line in `UIS`.
"""
from __future__ import annotations

from flask import abort

from companion.rules import find_game

from . import rainbow_rummy, rocca, rockit, rook, scorepad, zocknroll

UIS = {"rainbow_rummy": rainbow_rummy, "scorepad": scorepad, "rook": rook, "zocknroll": zocknroll, "rocca": rocca, "rockit": rockit}


def ui_for(slug: str):
    """The web adapter module for a game slug."""
    return UIS[slug]


def has_ui(slug: str) -> bool:
    """Whether the phone screens for this game exist yet (the rules may come first)."""
    return slug in UIS


def game_or_404(slug: str):
    """The game for a URL's slug, or 404 when there is no such game or no phone screens
    for it yet (the rules may come first)."""
    try:
        game = find_game(slug)
    except LookupError:
        abort(404)
    if not has_ui(game.slug):
        abort(404)
    return game
