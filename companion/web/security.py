"""Security headers on every response (the document ones on documents), and no state-changing
request from another site."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from companion.rules.said import N_
from companion.tables import Forbidden

from .assets import style_hashes

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CROSS_SITE = N_("This came from another website, so it was refused. Use the app's own buttons.")

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")


def same_origin_only() -> None:
    """Refuse a write that a browser says comes from another site (a second wall behind CSRF).

    Browsers send `Sec-Fetch-Site` and `Origin` with every POST; a page on another site
    (or another phone's hotspot portal) can make a phone POST, but not hide where from.
    """
    if request.method not in UNSAFE_METHODS:
        return
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        raise Forbidden(CROSS_SITE)
    # Under `Referrer-Policy: no-referrer` browsers send `Origin: null` even from our own
    # pages, so "null" says nothing; a named other origin is refused.
    origin = request.headers.get("Origin")
    if origin not in (None, "null") and not _own_origin(origin):
        raise Forbidden(CROSS_SITE)


_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _own_origin(origin: str) -> bool:
    """Whether `origin` is this app: the host the request names (after a trusted proxy's
    X-Forwarded-Host), or the public URL's scheme://host[:port]. The public URL counts
    because a proxy may rewrite Host (nginx's `proxy_pass` without `Host $http_host`
    sends its upstream's address), which no phone ever sees."""
    named = _origin_of(origin)
    if named is None:
        return False
    host = request.host.lower()
    if named[1] == host or named[1] == _without_default_port(host, named[0]):
        return True
    public = current_app.config.get("PUBLIC_URL")
    return bool(public) and _origin_of(str(public)) == named


def _origin_of(url: str) -> tuple[str, str] | None:
    """(scheme, host[:port]) of a URL or Origin, lower case, without the scheme's default
    port; None for one no browser sends (e.g. "http://[")."""
    try:
        parts = urlsplit(url)
        parts.port   # noqa: B018 - raises ValueError on a port that is no number
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not scheme or not parts.netloc:
        return None
    return scheme, _without_default_port(parts.netloc.lower(), scheme)


def _without_default_port(netloc: str, scheme: str) -> str:
    port = _DEFAULT_PORTS.get(scheme)
    return netloc[: -len(port) - 1] if port and netloc.endswith(":" + port) else netloc


#: A static SVG (the icon) is a document if it is opened by itself: nothing may run or load.
STATIC_SVG_CSP = "default-src 'none'"


def is_static_file(response: Response) -> bool:
    """A file from /static (stylesheet, script, icon, 304 included), not an error page."""
    return request.endpoint == "static" and response.status_code < 400


def init_app(app: Flask) -> None:
    app.before_request(same_origin_only)

    @app.after_request
    def _headers(response: Response) -> Response:
        h = response.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        if is_static_file(response):
            # Document headers on documents, nosniff everywhere (page weight): a stylesheet, a
            # script or an image ignores the CSP, frame, referrer, permissions and opener
            # headers, which were ~400 of the ~700 header bytes of each static answer. An SVG
            # opened by itself is a document, so it keeps a CSP that allows nothing.
            if response.mimetype == "image/svg+xml":
                h.setdefault("Content-Security-Policy", STATIC_SVG_CSP)
            return response
        inline = style_hashes()
        h.setdefault("Content-Security-Policy", CSP if not inline else CSP.replace(
            "style-src 'self'", "style-src 'self' " + " ".join(sorted(inline))))
        h.setdefault("X-Frame-Options", "DENY")
        # The QR's token must never leak to another site through a Referer header.
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        h.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if response.mimetype == "text/html":
            h.setdefault("Cache-Control", "no-store")
        if "attachment" in h.get("Content-Disposition", ""):
            # A download (results, standings) is the event's state right now: never a copy
            # from a cache, and never kept by a shared computer's browser.
            h["Cache-Control"] = "no-store"
        return response
