"""Plain-words error pages (or fragments for htmx) for every refused request."""
from __future__ import annotations

import sqlite3

from flask import Flask, current_app, render_template, request
from markupsafe import escape
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from companion.rules.said import N_, message
from companion.storage.db import discard_db
from companion.tables import TableError

from .answers import RETRY
from .htmx import csrf_token, is_fragment_request


MESSAGES = {
    400: N_("That request didn't make sense to the app. Go back and try again."),
    403: N_("This phone isn't allowed to do that."),
    404: N_("There's nothing here. Check the link, or scan the table's QR code again."),
    405: N_("That page can't be used that way. Go back and use the buttons on the page."),
    413: N_("That was far too much text to send."),
    429: N_("Too many tries in a short time. Wait a minute, then try again."),
    500: N_("Something went wrong on the server. Your entries are safe; reload the page."),
}


#: The error page when the error page can't be drawn (see error_response).
BARE_PAGE = ('<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" '
             'content="width=device-width"><title>Table Companion</title><p role="alert">{}</p>'
             '<p><a href="{}/">Start page</a></p></html>')


# (words in SQLite's error, what is wrong, what fixes it)
STORAGE_FAULTS = (
    # A full disk also shows as SQLITE_IOERR_SHMSIZE ("disk I/O error"): a new connection
    # can't create SQLite's -shm file when no other connection holds the database open.
    (("full", "shmsize"), message("storage", "The server's disk is full"),
     message("storage", "Free some space on the server: the table works again at once, "
                        "with every earlier entry.")),
    (("readonly", "read-only", "unable to open"),
     message("storage", "The server can't write its database right now (it is read-only)"),
     message("storage", "Fix the server's storage: the table works again at once.")),
    (("locked", "busy"), message("storage", "The server is too busy right now"),
     message("storage", "Try again in a moment.")),
)


def error_response(text: str, status: int, rule: str | None = None):
    """The error as a page, or for htmx a notice in the page's #flash box.

    htmx 4 swaps error answers too: retargeting keeps the error from replacing the part
    of the page the request aimed at (the sheet and form stay usable).
    """
    headers = {"Vary": "HX-Request, Cookie"}
    if is_fragment_request():
        template = "_error.html"
        headers.update({"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"})
    else:
        template = "error.html"
    try:
        response = render_template(template, message=text, status=status, rule=rule)
    except Exception:  # noqa: BLE001 - the error page itself must never fail
        # E.g. no file descriptor left to open a template or the catalogue: a bare page in
        # plain words, still with its status, rather than the server's own bare 500.
        current_app.logger.exception("The error page failed (%s)", status)
        response = BARE_PAGE.format(escape(str(text)), escape(request.script_root))
    return response, status, headers


def _safe_gettext(text: str) -> str:
    """`text` in the page's language, or in English when even the catalogue can't be read
    (an error page has to come out whatever went wrong)."""
    try:
        return gettext(text)
    except Exception:  # noqa: BLE001
        return text


def storage_message(exc: sqlite3.Error, writing: bool = True) -> str | None:
    """Plain sentences for a storage fault the operator can fix, or None for a bug.

    A refused write says nothing was saved; a refused read says what is saved is safe.
    """
    # Python 3.11+ also names SQLite's (extended) error code, e.g. SQLITE_IOERR_SHMSIZE.
    text = f"{exc} {getattr(exc, 'sqlite_errorname', '') or ''}".lower()
    for words, problem, fix in STORAGE_FAULTS:
        if any(word in text for word in words):
            if writing:
                return message("storage", "{problem}, so nothing was saved. {fix}",
                               problem=problem, fix=fix)
            return message("storage", "{problem}; everything saved so far is safe. {fix}",
                           problem=problem, fix=fix)
    return None


def init_app(app: Flask) -> None:
    @app.errorhandler(TableError)
    def _table_error(exc: TableError):
        return error_response(exc.message, exc.status, exc.rule)

    @app.errorhandler(CSRFError)
    def _csrf_error(_exc: CSRFError):
        body, status, headers = error_response(gettext(
            "This form has expired or came from another site. Reload the page and try again; "
            "nothing was saved."), 400)
        # Nothing was stored: the phone's outbox may send the same write (same submission id)
        # once more with a fresh token, which it takes from here (static/js/outbox.js). Only
        # a page of this site can read it (a header of a same-origin answer), as it can read
        # any page's token; made for this browser's session (a new one if it had none).
        headers.update({RETRY: "csrf", "X-CSRFToken": csrf_token()})
        return body, status, headers

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if exc.response is not None:
            # Made by the view's own code for this refusal (e.g. a rate limit's on_breach
            # answer, in its own words): keep it.
            return exc.response
        status = exc.code or 500
        message = (_safe_gettext(MESSAGES[status]) if status in MESSAGES
                   else exc.description or _safe_gettext(N_("That didn't work.")))
        return error_response(message, status)

    @app.errorhandler(sqlite3.Error)
    def _storage_error(exc: sqlite3.Error):
        message = storage_message(exc, writing=request.method not in ("GET", "HEAD"))
        if message is None:
            return _unexpected(exc)
        app.logger.error("Storage fault on %s %s: %s", request.method, request.path, exc)
        if any(word in str(exc).lower() for word in ("readonly", "read-only")):
            # The next request opens the files afresh, so the app writes again as soon as
            # the condition is fixed (storage.db.discard_db). Not on a full disk: there the
            # connections held open are what keeps pages readable.
            discard_db()
        return error_response(message, 503)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if isinstance(exc, HTTPException):
            return _http_error(exc)
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        return error_response(_safe_gettext(MESSAGES[500]), 500)
