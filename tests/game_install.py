"""Install a game that lives outside the app, for a test: as if its files were copied into the
checkout and its module added to ``GAME_MODULES`` (docs/ADDING-A-GAME.md), then taken out
again. Nothing of this is in the app: the app knows only its registry.

The game is laid out under ``root`` exactly like the repository (tests/toygame is one)::

    companion/rules/<slug>.py                   the rules module (``GAME``)
    companion/web/games/<slug>.py               the adapter (``UI``)
    templates/games/<slug>/                     its templates
    static/css/games/<slug>.css                 its stylesheet
    companion/translations/games/<slug>/        its catalogue (optional)

:func:`installed` puts the two modules on the packages' import path (``companion.rules.<slug>``
is then imported like any built-in game's) and adds the registry line; :func:`attach` gives an
app made meanwhile the game's templates and static files (a template loader after the app's
own, and a static folder that is a copy of the app's with the game's files added). The
catalogue needs nothing: the app derives its catalogue folders from the registry when it is
made (companion/translations).
"""
from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemLoader

import companion.rules as rules
import companion.web.games as games

TOYGAME = Path(__file__).resolve().parent / "toygame"
TOY_SLUG = "toyhearts"


@contextmanager
def installed(root: Path, slug: str) -> Iterator[rules.Game]:
    """The game under ``root`` in the registry (after the built-in games) while inside."""
    root = Path(root)
    paths = (rules.__path__[:], games.__path__[:])
    modules, registered = rules.GAME_MODULES, dict(rules.GAMES)
    try:
        rules.__path__.append(str(root / "companion" / "rules"))
        games.__path__.append(str(root / "companion" / "web" / "games"))
        rules.GAME_MODULES = (*modules, slug)                 # the one registry line
        # GAMES is one dict that every module imported: filled in place, as at start.
        rules.GAMES.update(rules.load_games(rules.GAME_MODULES))
        yield rules.GAMES[slug]
    finally:
        rules.__path__[:], games.__path__[:] = paths
        rules.GAME_MODULES = modules
        rules.GAMES.clear()
        rules.GAMES.update(registered)
        games._adapters.pop(slug, None)       # ui_for()'s cache of made adapters
        for name in (f"companion.rules.{slug}", f"companion.web.games.{slug}"):
            sys.modules.pop(name, None)


def attach(app, root: Path, folder: Path) -> None:
    """Serve the game's templates and static files from ``app`` (made while installed):
    its templates after the app's own (which always win), and a static folder made in
    ``folder`` from links to the app's files plus the game's."""
    root = Path(root)
    loader = app.jinja_loader
    app.jinja_loader = ChoiceLoader([loader, FileSystemLoader(str(root / "templates"))])
    static = Path(folder) / "static"
    shutil.copytree(app.static_folder, static, copy_function=_link)
    shutil.copytree(root / "static", static, dirs_exist_ok=True)
    app.static_folder = str(static)


def _link(source: str, target: str) -> None:
    Path(target).symlink_to(source)


def copy_layout(root: Path, into: Path, leave_out: tuple[str, ...] = ()) -> Path:
    """A copy of a game laid out under ``root``, without the paths in ``leave_out`` (e.g.
    its translations, to see a game that ships no Japanese)."""
    target = Path(into) / "game"
    shutil.copytree(root, target, ignore=shutil.ignore_patterns("__pycache__"))
    for part in leave_out:
        shutil.rmtree(target / part)
    return target
