"""Languages: English and Japanese through Flask-Babel and gettext catalogues.

The catalogues live in ``companion/translations/<lang>/LC_MESSAGES/messages.po`` (compiled
to ``messages.mo`` beside it, shipped in the wheel), and each game's own words in its own
catalogue, ``companion/translations/games/<slug>/``, merged with the app's (the folders are
derived from the games registry: :func:`companion.translations.catalogue_dirs`);
docs/I18N.md says how to add strings.

The language of a request: the one chosen with the English/日本語 switch (a cookie), else
the best match of the browser's Accept-Language among :data:`LANGUAGES`, else English.

Templates get ``_()`` (gettext, for literal strings written in the template) and
``say(text)`` for every sentence that comes from code: a label or sentence marked ``N_()``
(translated if the catalogue has it, never %-formatted, always escaped) or a
:class:`~companion.rules.said.Said` built with ``message()`` by the rules, a service or a
game adapter, which is remade from its translated template. docs/I18N.md has the whole path.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, g, redirect, request
from flask_babel import Babel, get_locale, get_translations, gettext, pgettext
from markupsafe import Markup

from companion.rules.said import N_, Said, rebuild, said_of  # N_, said_of: re-exported
from companion.translations import catalogue_dirs

from .proxy import cookie_path

__all__ = ["COOKIE", "LANGUAGES", "LANGUAGE_NAMES", "N_", "current_language",
           "init_app", "said_of", "say", "select_locale"]

LANGUAGES = ("en", "ja")
LANGUAGE_NAMES = (("en", "English"), ("ja", "日本語"))
COOKIE = "lang"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365
MAX_NEXT = 2000


bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switch's choice (cookie), else the browser's best match, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=LANGUAGES[0])


def current_language() -> str:
    """The language code of this request ("en" or "ja"), for <html lang>."""
    locale = get_locale()
    return locale.language if locale is not None else LANGUAGES[0]


def _lookup(context: str, template: str) -> str:
    # No keyword arguments: Flask-Babel then returns the template without %-formatting.
    return pgettext(context, template) if context else gettext(template)


def say(text: Any) -> Any:
    """A sentence from code in the active language: a :class:`Said` is remade from its
    translated template, any other non-empty string (marked ``N_``) is looked up as it is;
    anything else (a number, None) comes back unchanged. Never %-formats."""
    if isinstance(text, Said):
        return rebuild(text, _lookup)
    if isinstance(text, Markup):
        return text     # drawn already, in the active language (e.g. web/table.py's answers)
    if not isinstance(text, str) or not text:
        return text
    return gettext(text)


def _here() -> str:
    """This page's path (under the app's path prefix, if any), for the language switch
    to come back to."""
    if request.method == "GET":
        return request.script_root + request.full_path.rstrip("?")
    return request.script_root + request.path


def _safe_next(value: str | None) -> str:
    """A path of this app to go back to; anything else (another site, a path outside the
    app's prefix, junk) is the start page."""
    root = request.script_root
    if (not value or len(value) > MAX_NEXT or not value.startswith(root + "/")
            or value[len(root):].startswith(("//", "/\\"))
            or any(ord(c) < 32 or c == "\x7f" for c in value)):
        return root + "/"
    return value


@bp.get("/language")
def choose():
    """The English/日本語 switch: remember the choice in a cookie and go back."""
    from .errors import error_response

    language = request.args.get("to", "")
    if language not in LANGUAGES:
        return error_response(gettext("Pick English or 日本語 (Japanese)."), 400)
    response = redirect(_safe_next(request.args.get("next")), 303)
    response.set_cookie(COOKIE, language, max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure, path=cookie_path())
    return response


def _translations():
    """This request's catalogue, for the templates' ``_()``: Flask-Babel's
    ``get_translations()``, remembered in ``g`` beside the locale it was found for. A page
    makes ~45 ``_()`` calls, and each of Flask-Babel's own lookups resolves the domain and
    the locale's identifier again. Looked up afresh whenever ``get_locale()`` returns
    another locale object (Flask-Babel's ``refresh()`` and ``force_locale()`` replace it),
    and outside a request."""
    locale = get_locale()
    if locale is None:                   # no request: Flask-Babel's null catalogue
        return get_translations()
    kept = g.get("companion_translations")
    if kept is not None and kept[0] is locale:
        return kept[1]
    found = get_translations()
    g.companion_translations = (locale, found)
    return found


def init_app(app: Flask) -> None:
    """Set up Flask-Babel, the template helpers and the switch's route."""
    # The app's catalogue merged with every registered game's own (companion/translations).
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(catalogue_dirs()))
    # One Babel per app: Flask-Babel keeps the loaded catalogues in its Babel object, and
    # each app merges the catalogues of the games registered when it was made.
    Babel(app, locale_selector=select_locale)
    # The templates' _(), ngettext and pgettext as Flask-Babel installs them, through the
    # per-request catalogue above.
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n))
    app.add_template_global(say, "say")
    app.add_template_global(_here, "here")

    @app.context_processor
    def _language() -> dict:
        return {"page_lang": current_language(), "languages": LANGUAGE_NAMES}

    @app.after_request
    def _vary(response: Response) -> Response:
        # The same URL answers in English or Japanese depending on these headers.
        if response.mimetype == "text/html":
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
        return response

    app.register_blueprint(bp)
