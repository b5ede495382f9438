"""The address phones use: the base of every QR code and every link shown to be typed.

One rule for the whole app (tables, event pages, table cards): the public URL when one is
set (`COMPANION_PUBLIC_URL`, or `companion serve --public-url`; under a path prefix it
includes the prefix, e.g. https://club.example/companion), else the address a trusted
proxy reports the phone used (`TRUSTED_PROXIES`, web/proxy.py: its forwarded scheme, host
and prefix), else the address `companion serve` printed, else this machine's LAN address
with the port the server listens on. Never the request's own Host header: a director who
opened the dashboard as http://localhost:8000 would print cards that no phone can open,
and a forged Host header must not end up in a QR code. (A trusted proxy is believed: it
is the one that answers phones at that address.)
"""
from __future__ import annotations

import time
from urllib.parse import urlsplit

from flask import current_app, request, url_for

from companion.net import is_loopback_url, lan_addresses

from .proxy import forwarded_base
from .qr import qr_url

_LAN_TTL = 60.0          # seconds a LAN address lookup is reused
_lan_cache: dict[str, tuple[float, str | None]] = {}


def public_base() -> str:
    """The base URL (scheme, host, port, path prefix; no trailing slash) phones reach
    this app at."""
    config = current_app.config
    if config.get("PUBLIC_URL"):
        public = str(config["PUBLIC_URL"]).rstrip("/")
        # A public URL without a path, for an app mounted under a prefix: the prefix.
        return public if urlsplit(public).path else public + request.script_root
    forwarded = forwarded_base()
    if forwarded:
        return forwarded
    if config.get("LAN_URL"):
        return str(config["LAN_URL"]).rstrip("/")
    # Under gunicorn: the port this worker listens on (the socket's, not the Host header's).
    port = str(request.environ.get("SERVER_PORT") or "80")
    host = _lan_address() or "127.0.0.1"
    return f"http://{host}" + ("" if port == "80" else f":{port}")


def public_url(path: str) -> str:
    """An absolute URL of `path` (e.g. url_for's answer) on the public base. The base
    carries the app's path prefix, so url_for's copy of it is dropped."""
    root = request.script_root
    if root and path.startswith(root + "/"):
        path = path[len(root):]
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


def base_mismatch() -> str | None:
    """The public base when phones would open another address than the one this request
    used (it came in over https but the base is plain http, or by another host name);
    None when they match, or when the base is loopback (warned about on its own) or this
    request came from the server itself."""
    base = public_base()
    if is_loopback_url(base):
        return None
    parts = urlsplit(base)
    if request.scheme == "https" and parts.scheme == "http":
        return base
    host = (request.host or "").lower()
    if is_loopback_url(f"http://{host}"):
        return None     # the server's own browser: phones can never use its address
    if _host_port(host, request.scheme) != _host_port(parts.netloc.lower(), parts.scheme):
        return base
    return None


def _host_port(netloc: str, scheme: str) -> str:
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


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
