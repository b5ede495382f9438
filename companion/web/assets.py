"""Static files as a phone should get them: few, small, and cached for good.

- **Fingerprinted URLs.** ``url_for('static', filename=...)`` adds ``?v=<hash of what is
  served>`` (a ``url_defaults`` hook, so every template gets it without a change). A request
  whose ``v`` is the current hash is answered with ``Cache-Control: public, max-age=31536000,
  immutable``: a returning phone takes it from its cache without asking. A request without
  ``v`` (the manifest's icons, an old bookmark) gets the short ``SEND_FILE_MAX_AGE_DEFAULT``;
  one with another ``v`` (a page rendered before an update) gets today's file with
  ``no-cache``, so no cache keeps it under the old address.
- **Minified and compressed once.** CSS and JavaScript are minified (rcssmin, rjsmin: comments
  and white space only, names kept) unless already ``.min``; every text file is compressed
  once, brotli at quality 11 and gzip at level 9, and kept in memory per process. A request
  gets brotli if it accepts it (Chromium offers it to https:// and localhost), else gzip.
  ``Flask-Compress`` leaves these answers alone (it skips anything with a Content-Encoding) and
  goes on compressing pages and fragments.
- **One script.** ``bundle/site.js`` holds the scripts every page loads, in order, as one file
  (SITE_SCRIPTS; event pages add js/event.js): on HTTP/1.1 every request costs a round trip and
  ~0.3 kB of headers, and the live stream already holds one of the browser's six connections.
- **Only the game's widgets.** The dice pad, the card picker and the score boxes' Enter key
  (``js/pickers.js``) are added on their games' pages only (the adapter's ``scripts``,
  ``page_scripts()``).
- **One stylesheet, with only its game's rules.** ``css/app.css`` holds the rules every page
  shares; each game's own are in ``css/games/<slug>.css`` (the card games share
  ``css/games/cards.css``, the score pad and Zock'n'Roll ``css/games/wide-sheet.css``: the
  adapter's ``styles``). A game's pages (its table, history, seats and help, its new-table
  and new-event forms, its tools) load ``bundle/<slug>.css``, the shared rules and the
  game's as one file (``game_styles()``, derived from the games registry: nothing here
  lists the games); the start page, the other event pages and the error pages load
  ``css/app.css`` (``page_stylesheet()``, templates/base.html). A Rook table doesn't
  download the other five games' rules, about half of the compressed stylesheet.
- **Inline on the table page.** The table page, a phone's first screen after the QR, carries
  its bundle in a ``<style>`` element (``inline_stylesheet()``; its hash is added to that
  response's CSP): on slow 4G a linked stylesheet is one more round trip before anything
  can be drawn (UI visible 687 → 551 ms, tests/perf/bench_page_weight.py, docs/BENCHMARKS.md). A
  reload of the table page carries the stylesheet again (~4 kB brotli): one request still.

The source files stay where they are and stay readable; nothing is generated into the
repository. Whatever is served is rebuilt when a source file changes (size or mtime), in each
process on first use (brotli at 11 takes ~0.1 s for the bundle, once). `STATIC_MINIFY = False`
in the instance's config.py serves the files as written (still bundled), for debugging.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, Response, abort, current_app, g, request, send_from_directory
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.security import safe_join

try:  # Flask-Compress depends on one of them
    import brotli
except ImportError:  # pragma: no cover - brotlicffi on PyPy
    try:
        import brotlicffi as brotli
    except ImportError:
        brotli = None

#: The query argument that carries a file's fingerprint.
VERSION_ARG = "v"
IMMUTABLE = "public, max-age=31536000, immutable"

#: Where a game's own stylesheet is, by convention (under the static folder).
GAME_STYLESHEET = "css/games/{slug}.css"
#: The scripts every page loads, as one file (templates/base.html); event pages add
#: js/event.js. Scripts are joined with ";\n" (a file that ends without a semicolon can't
#: run into the next one's opening parenthesis).
SITE_SCRIPTS: tuple[str, ...] = (
    "vendor/htmx-4.0.1/htmx.min.js",
    "js/app.js",
    "js/outbox.js",      # idles unless the page has #outbox (the table page)
)


def _default_static() -> str:
    """The app's static folder: the running app's, else where create_app() finds it."""
    try:
        folder = current_app.static_folder
    except RuntimeError:       # outside an app context (a script, a test's table)
        folder = None
    if folder is None:
        from companion import _asset_dir
        folder = _asset_dir("static")
    return folder


def _adapter(slug: str | None):
    """The game's web adapter, or None when there is no such game (or no phone screens)."""
    if slug is None:
        return None
    from .games import ui_for    # the games package imports Flask views: not at import time
    try:
        return ui_for(slug)
    except LookupError:
        return None


def game_styles(slug: str, folder: str | None = None) -> tuple[str, ...]:
    """A game's stylesheets, after css/app.css, in this order: those it shares with other
    games (its adapter's ``styles``, e.g. css/games/cards.css), then its own
    ``css/games/<slug>.css`` when the static folder has it. Empty for an unknown game."""
    ui = _adapter(slug)
    if ui is None:
        return ()
    own = GAME_STYLESHEET.format(slug=slug)
    path = safe_join(folder or _default_static(), own)
    mine = (own,) if path is not None and os.path.isfile(path) else ()
    return (*ui.styles, *(name for name in mine if name not in ui.styles))


def game_scripts(slug: str | None) -> tuple[str, ...]:
    """The scripts a game's pages add after bundle/site.js: its adapter's ``scripts`` (the
    dice pad, the card picker and the score boxes' Enter key, static/js/pickers.js, which a
    Rook table doesn't need). One more request on those pages, rather than a bundle of their
    own that would repeat htmx (12 kB) for a phone that has bundle/site.js from the start
    page."""
    ui = _adapter(slug)
    return tuple(ui.scripts) if ui is not None else ()


#: The start page's stylesheet when it lists the phone's tables: the shared rules and the
#: list's own, which the table page (carrying css/app.css inline) has no use for.
START_BUNDLE = "bundle/start.css"


def bundle_files(filename: str, folder: str | None = None) -> tuple[str, ...] | None:
    """The files a virtual ``bundle/…`` file is made of, in order, or None when
    ``filename`` is no bundle: ``bundle/site.js`` (SITE_SCRIPTS), ``bundle/start.css`` (START_BUNDLE) and, for every game with
    phone screens and stylesheets, ``bundle/<slug>.css`` (css/app.css, then
    :func:`game_styles`). Stylesheets are joined with "\n" (a stray ";" would swallow the
    next rule)."""
    if filename == "bundle/site.js":
        return SITE_SCRIPTS
    if filename == START_BUNDLE:
        return ("css/app.css", "css/start.css")
    if filename.startswith("bundle/") and filename.endswith(".css"):
        styles = game_styles(filename[len("bundle/"):-len(".css")], folder)
        if styles:
            return ("css/app.css", *styles)
    return None


class _Derived(Mapping):
    """A read-only mapping computed from the games registry on every use (no second list
    of games to keep in step)."""

    def __init__(self, keys, value):
        self._keys, self._value = keys, value

    def __getitem__(self, key):
        found = self._value(key) if key in self._keys() else None
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self):
        return iter([key for key in self._keys() if self._value(key) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _game_slugs() -> list[str]:
    from companion.rules import GAMES
    return list(GAMES)


#: Each game's stylesheets after css/app.css (see game_styles), by slug: derived.
GAME_STYLES: Mapping[str, tuple[str, ...]] = _Derived(
    _game_slugs, lambda slug: game_styles(slug) or None)
#: Each game's extra scripts (see game_scripts), by slug: derived.
GAME_SCRIPTS: Mapping[str, tuple[str, ...]] = _Derived(
    _game_slugs, lambda slug: game_scripts(slug) or None)
#: Virtual files made of several static files, in order (see bundle_files): derived.
BUNDLES: Mapping[str, tuple[str, ...]] = _Derived(
    lambda: ["bundle/site.js", START_BUNDLE, *(f"bundle/{slug}.css" for slug in _game_slugs())],
    bundle_files)

TEXT_TYPES = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".txt": "text/plain",
}
#: A compressed copy is kept if it is smaller than this fraction of the plain body.
WORTH_COMPRESSING = 0.9


@dataclass
class Built:
    """One static file (or bundle) as served: body, fingerprint, compressed copies."""

    key: tuple
    body: bytes
    mimetype: str
    version: str
    encoded: dict[str, bytes | None] = field(default_factory=dict)   # None: not worth it
    inline: tuple[Markup, str] | None = None   # a stylesheet's text and CSP hash, once inlined
    lock: threading.Lock = field(default_factory=threading.Lock)

    def encoding_for(self, accept) -> str | None:
        """The best encoding the request accepts ("br", "gzip"), or None for the plain body."""
        for name in ("br", "gzip"):
            if accept[name] and (name != "br" or brotli is not None):
                body = self.compressed(name)
                if body is not None:
                    return name
        return None

    def compressed(self, name: str) -> bytes | None:
        with self.lock:
            if name not in self.encoded:
                if name == "br":
                    data = brotli.compress(self.body, quality=11)
                else:
                    data = gzip.compress(self.body, 9, mtime=0)
                self.encoded[name] = data if len(data) < len(self.body) * WORTH_COMPRESSING else None
            return self.encoded[name]


_cache: dict[tuple[str, str], Built] = {}          # (static folder, filename) -> what is served
_cache_lock = threading.Lock()
_binary_versions: dict[str, tuple[tuple, str]] = {}  # path -> ((path, size, mtime), fingerprint)


def _minify(name: str, text: bytes) -> bytes:
    if name.endswith((".min.js", ".min.css")):
        return text
    if name.endswith(".css"):
        import rcssmin
        return rcssmin.cssmin(text.decode("utf-8")).encode("utf-8")
    if name.endswith(".js"):
        import rjsmin
        return rjsmin.jsmin(text.decode("utf-8")).encode("utf-8")
    return text


def _sources(folder: str, filename: str) -> list[str] | None:
    """The files `filename` is made of (one, or a bundle's), or None if there is no such file."""
    names = bundle_files(filename, folder) or (filename,)
    paths = []
    for name in names:
        path = safe_join(folder, name)
        if path is None or not os.path.isfile(path):
            return None
        paths.append(path)
    return paths


def built(folder: str, filename: str, minify: bool = True) -> Built | None:
    """What `/static/<filename>` serves, rebuilt when a source changes; None if not a file."""
    paths = _sources(folder, filename)
    if paths is None:
        return None
    try:
        key = (minify, *((p, s.st_size, s.st_mtime_ns) for p in paths for s in [os.stat(p)]))
    except OSError:
        return None
    found = _cache.get((folder, filename))
    if found is not None and found.key == key:
        return found
    ext = Path(filename).suffix.lower()
    parts = []
    for path in paths:
        data = Path(path).read_bytes()
        if minify and ext in (".css", ".js"):
            data = _minify(path, data)
        parts.append(data)
    if bundle_files(filename, folder) is not None:
        end = b";\n" if ext == ".js" else b"\n"
        body = b"".join(part.rstrip() + end for part in parts)
    else:
        body = parts[0]
    mimetype = TEXT_TYPES.get(ext) or "application/octet-stream"
    version = hashlib.sha256(body).hexdigest()[:12]
    result = Built(key, body, mimetype, version)
    with _cache_lock:
        _cache[(folder, filename)] = result
    return result


def is_text(filename: str) -> bool:
    """Whether a static file is served as text: minified, precompressed, fingerprinted."""
    return filename.startswith("bundle/") or Path(filename).suffix.lower() in TEXT_TYPES


def version_of(filename: str) -> str | None:
    """The fingerprint of a static file (a hash of what is served), or None if there is none."""
    app = current_app
    folder = app.static_folder
    if folder is None:
        return None
    if is_text(filename):
        found = built(folder, filename, app.config.get("STATIC_MINIFY", True))
        return found.version if found else None
    paths = _sources(folder, filename)
    if paths is None:
        return None
    stat = os.stat(paths[0])
    key = (paths[0], stat.st_size, stat.st_mtime_ns)
    found = _binary_versions.get(paths[0])
    if found is None or found[0] != key:
        found = (key, hashlib.sha256(Path(paths[0]).read_bytes()).hexdigest()[:12])
        _binary_versions[paths[0]] = found
    return found[1]


def _cache_control(filename: str, current: str | None) -> str:
    """A year for today's fingerprint; no-cache for another; Flask's default without one."""
    asked = request.args.get(VERSION_ARG)
    if asked is None:
        max_age = current_app.get_send_file_max_age(filename)   # SEND_FILE_MAX_AGE_DEFAULT
        return "no-cache" if max_age is None else f"public, max-age={max_age}"
    if asked == current:
        return IMMUTABLE
    return "no-cache"


def serve_static(filename: str):
    """The `static` endpoint: fingerprint-aware caching, minified and precompressed text."""
    app = current_app
    folder = app.static_folder
    if folder is None:
        abort(404)
    if not is_text(filename):
        if _sources(folder, filename) is None:
            abort(404)
        response = send_from_directory(folder, filename, max_age=None)
        response.headers["Cache-Control"] = _cache_control(filename, version_of(filename))
        response.headers.pop("Expires", None)
        return response
    found = built(folder, filename, app.config.get("STATIC_MINIFY", True))
    if found is None:
        abort(404)
    encoding = found.encoding_for(request.accept_encodings)
    response = Response(found.encoded[encoding] if encoding else found.body,
                        mimetype=found.mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = _cache_control(filename, found.version)
    response.set_etag(f"{found.version}-{encoding or 'identity'}")
    return response.make_conditional(request)


def _page_game(context) -> str | None:
    """The game a page belongs to: the table's on a table's pages (``view``), the one being
    set up on the new-table and new-event forms (``game``: their house rules show the game's
    help), or the one a template names with ``{% set page_game = "<slug>" %}`` (the tools'
    pages); None elsewhere (the start page, errors, the other event pages)."""
    slug = context.get("page_game")
    if slug is None:
        table = getattr(context.get("view"), "table", None)
        slug = getattr(table, "game_slug", None)
    if slug is None:
        slug = getattr(context.get("game"), "slug", None)
    return slug


@pass_context
def page_stylesheet(context) -> str:
    """The stylesheet a page links (templates/base.html): its game's bundle, else css/app.css."""
    if context.get("page_bundle") == START_BUNDLE:
        return START_BUNDLE
    slug = _page_game(context)
    return f"bundle/{slug}.css" if slug is not None and game_styles(slug) else "css/app.css"


@pass_context
def inline_stylesheet(context) -> Markup:
    """The page's stylesheet (:func:`page_stylesheet`) as text, for a page that carries it in
    a <style> element instead of linking it (templates/base.html, ``inline_style``): the
    table page, a phone's first screen after the QR, on which a linked stylesheet costs a
    round trip before anything is drawn (~150 ms on slow 4G). Its hash is added to this
    response's Content-Security-Policy (``style_hashes()``, web/security.py)."""
    app = current_app
    found = built(app.static_folder, page_stylesheet(context),
                  app.config.get("STATIC_MINIFY", True))
    if found is None:
        return Markup("")
    if found.inline is None:
        # "</" can't be in a stylesheet outside a string or a comment; escaped there, it
        # can't end the <style> element early.
        text = found.body.decode("utf-8").replace("</", "<\\/")
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
        found.inline = (Markup(text), f"'sha256-{digest}'")
    text, source = found.inline
    g.setdefault("style_hashes", set()).add(source)
    return text


def style_hashes() -> set[str]:
    """The CSP sources of the stylesheets this response carries inline."""
    return g.get("style_hashes") or set()


@pass_context
def page_scripts(context) -> tuple[str, ...]:
    """The scripts a page adds after bundle/site.js (templates/base.html): its game's."""
    return game_scripts(_page_game(context))


def init_app(app: Flask) -> None:
    """Fingerprint every static URL and serve /static/ through `serve_static`."""
    app.config.setdefault("STATIC_MINIFY", True)
    if "static" in app.view_functions:
        app.view_functions["static"] = serve_static
    app.jinja_env.globals.update(page_stylesheet=page_stylesheet, page_scripts=page_scripts,
                                 inline_stylesheet=inline_stylesheet)

    @app.url_defaults
    def _fingerprint(endpoint: str, values: dict) -> None:
        if endpoint == "static" and VERSION_ARG not in values and values.get("filename"):
            version = version_of(values["filename"])
            if version:
                values[VERSION_ARG] = version
