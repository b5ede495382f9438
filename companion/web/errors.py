"""Plain-words error pages (or fragments for htmx) for every refused request."""
from __future__ import annotations

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from companion.tables import TableError

from .htmx import is_fragment_request

MESSAGES = {
    400: "That request didn't make sense to the app. Go back and try again.",
    403: "This phone isn't allowed to do that.",
    404: "There's nothing here. Check the link, or scan the table's QR code again.",
    405: "That page can't be used that way. Go back and use the buttons on the page.",
    413: "That was far too much text to send.",
    429: "Too many tries in a short time. Wait a minute, then try again.",
    500: "Something went wrong on the server. Your entries are safe; reload the page.",
}


def error_response(message: str, status: int, rule: str | None = None):
    """The error as a small fragment for htmx (swapped where the request targets) or a page."""
    template = "_error.html" if is_fragment_request() else "error.html"
    response = render_template(template, message=message, status=status, rule=rule)
    return response, status, {"Vary": "HX-Request, Cookie"}


def init_app(app: Flask) -> None:
    @app.errorhandler(TableError)
    def _table_error(exc: TableError):
        return error_response(exc.message, exc.status, exc.rule)

    @app.errorhandler(CSRFError)
    def _csrf_error(_exc: CSRFError):
        return error_response("This form has expired or came from another site. Reload the page "
                              "and try again; nothing was saved.", 400)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        message = MESSAGES.get(status) or exc.description or "That didn't work."
        if status == 429:
            message = MESSAGES[429]
        return error_response(message, status)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if isinstance(exc, HTTPException):
            return _http_error(exc)
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        return error_response(MESSAGES[500], 500)
