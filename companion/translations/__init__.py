"""The gettext catalogues: the app's own, and one per game (docs/I18N.md).

Layout, under a project root (the repository, or any folder laid out like it)::

    companion/translations/messages.pot                 the app's shared words
    companion/translations/<lang>/LC_MESSAGES/messages.po, .mo
    companion/translations/games/<slug>/messages.pot    one game's words: those written
    companion/translations/games/<slug>/<lang>/LC_MESSAGES/messages.po, .mo
                                                        only in its own files

A game's own files are its rules module (``companion/rules/<slug>.py`` or a package of that
name), its adapter (``companion/web/games/<slug>.py`` or package) and its template folder
(``templates/games/<slug>/``). A message written only there goes to the game's catalogue;
one written anywhere else too stays in the app's. The web merges the app's catalogue with
every game's (:func:`catalogue_dirs`, Flask-Babel's ``BABEL_TRANSLATION_DIRECTORIES``), so
a template or a ``say()`` finds a game's words like any other.

One command keeps every catalogue in step with the code (``python -m
companion.translations update``, then ``compile``): see :func:`update` and
:func:`compile_all`. A game without a catalogue for a language shows its own words in
English in that language; :func:`missing` lists such games (``companion doctor`` and the
Japanese test report them).
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

HERE = Path(__file__).resolve().parent
#: The repository these commands work on (they read its babel.cfg): this checkout.
CHECKOUT = HERE.parent.parent
#: The languages with a catalogue, besides English (the language the code is written in).
LANGUAGES = ("ja",)
#: The gettext domain (one file name) of every catalogue.
DOMAIN = "messages"
#: How `pybabel extract` is told about the project's markers: ``N_("…")`` and
#: ``message(context, template, …)`` (companion/rules/said.py).
KEYWORDS = ("N_", "message:1c,2")
PROJECT = "Table Companion"
WIDTH = 100


def game_catalogue_dir(slug: str, package_dir: Path | None = None) -> Path:
    """Where a game's catalogue lives: ``<package>/translations/games/<slug>/``, the package
    being the one whose ``rules`` holds the game's module (this one for the built-in games)."""
    if package_dir is None:
        package_dir = _package_of(slug)
    return package_dir / "translations" / "games" / slug


def _package_of(slug: str) -> Path:
    """The ``companion`` folder holding the game's rules module (found by its file, so a
    module placed on ``companion.rules.__path__`` from elsewhere brings its own folder)."""
    from importlib import import_module

    try:
        module = import_module(f"companion.rules.{slug}")
    except ModuleNotFoundError:
        return HERE.parent
    path = Path(module.__file__).resolve()
    rules = path.parent.parent if path.name == "__init__.py" else path.parent
    return rules.parent


def catalogue_dirs(slugs: Iterable[str] | None = None) -> list[str]:
    """The app's catalogue folder, then each registered game's that exists: the folders
    Flask-Babel merges (``BABEL_TRANSLATION_DIRECTORIES``; a message is in one of them)."""
    if slugs is None:
        from companion.rules import GAMES
        slugs = list(GAMES)
    found = [str(HERE)]
    for slug in slugs:
        folder = game_catalogue_dir(slug)
        if folder.is_dir():
            found.append(str(folder))
    return found


def missing(language: str = "ja", slugs: Iterable[str] | None = None) -> list[str]:
    """The registered games without a compiled catalogue in ``language``: their own words
    show in English on a phone in that language."""
    if slugs is None:
        from companion.rules import GAMES
        slugs = list(GAMES)
    return [slug for slug in slugs
            if not (game_catalogue_dir(slug) / language / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()]


# ---------------------------------------------------------------- updating and compiling
# Only the update/compile commands need Babel's extraction API: imported there.

def _owner(path: str, games: Iterable[str]) -> str | None:
    """The game whose own files hold ``path`` (relative to the root, "/" separated)."""
    for slug in games:
        for prefix in (f"companion/rules/{slug}", f"companion/web/games/{slug}"):
            if path == f"{prefix}.py" or path.startswith(f"{prefix}/"):
                return slug
        if path.startswith(f"templates/games/{slug}/"):
            return slug
    return None


def _extract(root: Path, config: Path) -> list[tuple[str, int, object, list, str | None]]:
    """Every marked message under ``root``, as `pybabel extract -F <config>` finds them."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_keywords, parse_mapping_cfg

    with open(config, encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh, filename=str(config))
    # said_tables is an entry point of this project (pyproject.toml): named here by its
    # function, so extraction works without `pip install -e .`.
    method_map = [(pattern, "companion.rules.said:extract" if method == "said_tables"
                   else method) for pattern, method in method_map]
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(list(KEYWORDS))}
    return [(filename.replace(os.sep, "/"), lineno, message, comments, context)
            for filename, lineno, message, comments, context
            in extract_from_dir(str(root), method_map, options_map, keywords=keywords)]


def _template(entries) -> Catalog:
    from babel.messages.catalog import Catalog

    catalog = Catalog(project=PROJECT, charset="utf-8")
    for filename, lineno, message, comments, context in entries:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def _write(path: Path, catalog, **options) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        write_po(fh, catalog, include_lineno=False, sort_output=True, width=WIDTH, **options)


def _read(path: Path, language: str | None = None):
    from babel.messages.pofile import read_po

    with open(path, "rb") as fh:
        return read_po(fh, locale=language)


def _memory(folders: Iterable[Path], language: str) -> dict:
    """Every translation any catalogue in ``language`` has, by (context, msgid): a message
    that moves from one catalogue to another keeps its translation."""
    known = {}
    for folder in folders:
        po = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.is_file():
            for m in _read(po, language):
                if m.id and not m.fuzzy and all(_forms(m.string)):
                    known[(m.context, m.id)] = m.string
    return known


def _forms(value) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def split(root: Path | None = None, games: Iterable[str] | None = None,
          main: bool = True, config: Path | None = None) -> dict[Path, list]:
    """Every marked message under ``root`` (the repository by default), extracted, by the
    catalogue folder it belongs to: a game's when it is written only in that game's own
    files, else the app's (``main``; without it, a game laid out elsewhere leaves out the
    words the app's catalogue already has, as it would once its files are in the
    repository). A game with no words of its own has no entry. ``config`` is the extraction
    settings (babel.cfg; by default the one of ``root``, or of the checkout for a game laid
    out elsewhere: an installed app has none, so its tests name the repository's)."""
    root = Path(root or CHECKOUT).resolve()
    if games is None:
        from companion.rules import GAME_MODULES
        games = GAME_MODULES
    games = tuple(games)
    app_folder = (root if main else CHECKOUT) / "companion" / "translations"
    entries = _extract(root, Path(config) if config else (root if main else CHECKOUT) / "babel.cfg")
    if not main:
        shared = {(m.context, _key(m.id)) for m in _read(app_folder / f"{DOMAIN}.pot") if m.id}
        entries = [e for e in entries if (e[4], _key(e[2])) not in shared]
    owners: dict = {}
    for entry in entries:
        owners.setdefault((entry[4], _key(entry[2])), set()).add(_owner(entry[0], games))
    buckets: dict[Path, list] = {app_folder: []} if main else {}
    for entry in entries:
        who = owners[(entry[4], _key(entry[2]))]
        slug = next(iter(who)) if len(who) == 1 else None      # shared: the app's catalogue
        folder = app_folder if slug is None else game_catalogue_dir(slug, root / "companion")
        if slug is not None or main:
            buckets.setdefault(folder, []).append(entry)
    return buckets


def update(root: Path | None = None, games: Iterable[str] | None = None,
           main: bool = True, say=print) -> None:
    """Extract (:func:`split`) into the app's template (``main``) and each game's
    ``messages.pot``, then bring each language's ``.po`` in step: new messages are added
    (with the translation another catalogue already has, if any), gone ones dropped. A game
    gets a ``.po`` in a language when it has none yet and some of its messages already have
    a translation; otherwise it stays English (see :func:`missing`) until someone runs
    ``init``."""
    root = Path(root or CHECKOUT).resolve()
    buckets = split(root, games, main)
    templates = {}
    for folder, entries in buckets.items():
        templates[folder] = _template(entries)
        _write(folder / f"{DOMAIN}.pot", templates[folder])
    everything = {CHECKOUT / "companion" / "translations", *buckets,
                  *(root / "companion" / "translations" / "games").glob("*")}
    for language in LANGUAGES:
        memory = _memory(everything, language)
        for folder, template in templates.items():
            po = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            if po.is_file():
                catalog = _read(po, language)
                catalog.update(template, no_fuzzy_matching=True)
            else:
                if not any((m.context, m.id) in memory for m in template if m.id):
                    say(f"{folder.name}: no {language} catalogue (its words show in English); "
                        f"`python -m companion.translations init {folder.name} {language}` "
                        "makes one.")
                    continue
                catalog = _new(template, language)
            filled = 0
            for m in catalog:
                if m.id and not all(_forms(m.string)) and (m.context, m.id) in memory:
                    m.string = memory[(m.context, m.id)]
                    m.flags.discard("fuzzy")
                    filled += 1
            _write(po, catalog, ignore_obsolete=True)
            empty = sum(1 for m in catalog if m.id and not all(_forms(m.string)))
            say(f"{po.relative_to(root) if po.is_relative_to(root) else po}: "
                f"{len(catalog)} messages, {empty} to translate"
                + (f" ({filled} taken from another catalogue)" if filled else ""))


def _key(message):
    return tuple(message) if isinstance(message, (list, tuple)) else message


def _new(template, language: str):
    """A fresh catalogue in ``language`` from a template (what `pybabel init` writes)."""
    from copy import deepcopy

    from babel import Locale

    catalog = deepcopy(template)
    catalog.locale = Locale.parse(language)
    catalog.revision_date = datetime.now(timezone.utc)
    catalog.fuzzy = False
    return catalog


def init(slug: str, language: str, root: Path | None = None, say=print) -> Path:
    """Start a game's catalogue in ``language`` from its template (run ``update`` first)."""
    root = Path(root or CHECKOUT).resolve()
    folder = game_catalogue_dir(slug, root / "companion")
    template = _read(folder / f"{DOMAIN}.pot")
    po = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        raise SystemExit(f"{po} exists already.")
    _write(po, _new(template, language))
    say(f"{po}: translate its messages, then compile.")
    return po


def compile_all(root: Path | None = None, say=print) -> list[Path]:
    """Compile every ``.po`` under the root's catalogues into its ``.mo`` (what `pybabel
    compile` does: fuzzy and untranslated messages are left out)."""
    from babel.messages.mofile import write_mo

    root = Path(root or CHECKOUT).resolve()
    made = []
    for po in sorted((root / "companion" / "translations").glob(f"**/LC_MESSAGES/{DOMAIN}.po")):
        catalog = _read(po, po.parent.parent.name)
        with open(po.with_suffix(".mo"), "wb") as fh:
            write_mo(fh, catalog)
        made.append(po.with_suffix(".mo"))
        done = sum(1 for m in catalog if m.id and all(_forms(m.string)) and not m.fuzzy)
        say(f"{po.with_suffix('.mo').relative_to(root)}: {done} of "
            f"{sum(1 for m in catalog if m.id)} messages translated")
    return made
