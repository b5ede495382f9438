"""htmx helpers: one view serves a full page or just its fragment."""
from __future__ import annotations

from flask import make_response, render_template, request
from flask_wtf.csrf import generate_csrf


def is_fragment_request() -> bool:
    """True for an htmx request that swaps a fragment (not a history restore)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render(page: str, fragment: str, status: int = 200, **context):
    """Render `fragment` for htmx requests and `page` otherwise; responses vary on HX-Request."""
    template = fragment if is_fragment_request() else page
    response = make_response(render_template(template, **context), status)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


def csrf_token() -> str:
    """The CSRF token for forms and for htmx's X-CSRFToken header."""
    return generate_csrf()
