"""Running behind a reverse proxy (nginx, Caddy): trusted hops, https, a path prefix.

``TRUSTED_PROXIES`` (``COMPANION_TRUSTED_PROXIES``; ``companion serve --behind-proxy`` sets
it to 1) says how many proxies stand between the phones and this app. With N > 0 the app
believes exactly the last N hops of ``X-Forwarded-For``/``-Proto``/``-Host``/``-Prefix``
(Werkzeug's ProxyFix): the client address that rate limits, quotas and the stream cap
count, whether the request was https, the host the phone used and the path prefix the app
is mounted under (``SCRIPT_NAME``). A hop more would let a client write its own address
into the header; a hop fewer would count the proxy instead of the phone. With 0 (the
default, a server on the LAN) forwarded headers are ignored, as anyone could send them.

Also here, because they follow from https and the prefix of each request, not from a
static setting (the same server may answer https through the proxy and http on the LAN):
the ``session`` cookie is ``Secure`` whenever the request is https and its ``Path`` is the
prefix, and HSTS is sent on https answers when the public URL is https.
"""
from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

HSTS = "max-age=31536000"
#: The request headers that say a proxy forwarded the request.
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
             "HTTP_X_FORWARDED_PREFIX")


class BadSetting(ValueError):
    """A setting the server can't start with: for the operator's console, never a player."""


def trusted_hops(value) -> int:
    """The ``TRUSTED_PROXIES`` setting as a number of hops (0 or more); a BadSetting in
    plain words for anything else (a negative number, a word, a fraction)."""
    if value is None:
        return 0
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0    # COMPANION_TRUSTED_PROXIES= (set but empty): the default
        value = int(text) if text.isdigit() else text   # "-1" and "1.5" stay words
    # True is an int to Python, but not a number of proxies.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadSetting(f"TRUSTED_PROXIES (COMPANION_TRUSTED_PROXIES) must be a whole number "
                         f"of proxies in front of this server, 0 or more, not {value!r}.")
    return value


class ForwardedHeaders:
    """WSGI middleware: ProxyFix trusting ``app.config["TRUSTED_PROXIES"]`` hops, read on
    every request (``companion serve --behind-proxy`` sets it after the app is built);
    with 0 the request passes untouched."""

    def __init__(self, app: Flask):
        self.app = app
        self.inner = app.wsgi_app
        self._fixes: dict[int, ProxyFix] = {}

    def __call__(self, environ, start_response):
        hops = self.app.config.get("TRUSTED_PROXIES") or 0
        if hops <= 0:
            return self.inner(environ, start_response)
        fix = self._fixes.get(hops)
        if fix is None:
            fix = self._fixes[hops] = ProxyFix(self.inner, x_for=hops, x_proto=hops,
                                               x_host=hops, x_prefix=hops)
        return fix(environ, start_response)


def proxy_trusted() -> bool:
    """Whether this app believes a proxy's forwarded headers (TRUSTED_PROXIES > 0)."""
    return (current_app.config.get("TRUSTED_PROXIES") or 0) > 0


def forwarded_base() -> str | None:
    """The address the phone used (scheme://host + prefix) as a trusted proxy reports it;
    None when no proxy is trusted or this request did not come through one."""
    if not proxy_trusted():
        return None
    if not any(request.environ.get(name) for name in FORWARDED):
        return None
    return f"{request.scheme}://{request.host}{request.script_root}"


def cookie_path() -> str:
    """The Path of the app's cookies: the prefix the app is mounted under, else "/"."""
    return (request.script_root or "") + "/"


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, its cookie Secure on https requests and scoped to
    the app's path prefix (a static SESSION_COOKIE_SECURE would break a LAN server on
    plain http)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or _is_secure()

    def get_cookie_path(self, app: Flask) -> str:
        if app.config.get("SESSION_COOKIE_PATH"):
            return app.config["SESSION_COOKIE_PATH"]
        try:
            return cookie_path()
        except RuntimeError:     # outside a request (no script root to read)
            return app.config["APPLICATION_ROOT"]


def _is_secure() -> bool:
    try:
        return request.is_secure
    except RuntimeError:
        return False


def _hsts(response: Response) -> Response:
    public = str(current_app.config.get("PUBLIC_URL") or "")
    if request.is_secure and public.lower().startswith("https://"):
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_app(app: Flask) -> None:
    """Check TRUSTED_PROXIES (a bad value stops the start), read forwarded headers when it
    says so, and make the session cookie and HSTS follow each request's https."""
    try:
        app.config["TRUSTED_PROXIES"] = trusted_hops(app.config.get("TRUSTED_PROXIES", 0))
    except ValueError as exc:
        raise RuntimeError(str(exc)) from None
    app.wsgi_app = ForwardedHeaders(app)
    app.session_interface = SessionInterface()
    app.after_request(_hsts)
