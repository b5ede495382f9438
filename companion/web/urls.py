"""The address phones use: the base of every QR code and every link shown to be typed.

One rule for the whole app (tables, event pages, table cards): the public URL when one is
set (`COMPANION_PUBLIC_URL`, or `companion serve --public-url`), else the address
`companion serve` printed, else this machine's LAN address with the port the server
listens on. Never the request's Host header: a director who opened the dashboard as
http://localhost:8000 would print cards that no phone can open, and a forged Host header
must not end up in a QR code.
"""
from __future__ import annotations

import time

from flask import current_app, request, url_for

from companion.net import is_loopback_url, lan_addresses

from .qr import qr_url

_LAN_TTL = 60.0          # seconds a LAN address lookup is reused
_lan_cache: dict[str, tuple[float, str | None]] = {}


def public_base() -> str:
    """The base URL (scheme, host, port; no trailing slash) phones reach this app at."""
    config = current_app.config
    if config.get("PUBLIC_URL"):
        return str(config["PUBLIC_URL"]).rstrip("/")
    if config.get("LAN_URL"):
        return str(config["LAN_URL"]).rstrip("/")
    # Under gunicorn: the port this worker listens on (the socket's, not the Host header's).
    port = str(request.environ.get("SERVER_PORT") or "80")
    host = _lan_address() or "127.0.0.1"
    return f"http://{host}" + ("" if port == "80" else f":{port}")


def public_url(path: str) -> str:
    """An absolute URL of `path` (e.g. url_for's answer) on the public base."""
    return public_base() + path


def qr_link(path: str) -> str:
    """A QR code's URL for `path` on the public base, scheme and host in upper case (QR
    alphanumeric mode; see :func:`companion.web.qr.qr_url`)."""
    return qr_url(public_base(), path)


def join_url(token: str) -> str:
    """The URL a table's QR code (and a rejoin code) carries: ``/j#<token>`` on the public
    base. The token rides in the fragment, which a browser never sends: no request line,
    so no proxy's or server's access log, holds it. The /j page reads it and POSTs it
    (templates/join.html, static/js/join.js). The token is upper-case base32, so the QR
    keeps it in alphanumeric mode."""
    return qr_link(f"/j#{token}")


def director_url(event_id: str, token: str) -> str:
    """A director link: ``/e/<id>/director#<token>`` on the public base, the token in the
    fragment as in :func:`join_url` (the page POSTs it)."""
    return public_url(url_for("events.director_page", event_id=event_id) + "#" + token)


def base_is_loopback() -> bool:
    """Whether phones would be sent to this machine's loopback address (unreachable)."""
    return is_loopback_url(public_base())


def _lan_address() -> str | None:
    hit = _lan_cache.get("lan")
    if hit is not None and time.monotonic() - hit[0] < _LAN_TTL:
        return hit[1]
    try:
        found = lan_addresses()
    except Exception:   # noqa: BLE001 - no interface list: fall back to loopback (warned)
        found = []
    address = found[0] if found else None
    _lan_cache["lan"] = (time.monotonic(), address)
    return address
