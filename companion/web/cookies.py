"""One cookie per phone.

A phone holds one secret in one HttpOnly cookie, ``tc``, whatever the number of tables and
events it opened; the database keeps, per table (and per event, as its director or as a
player's pass), a hash of that secret scoped to it (`tokens.scoped_hash`). The Cookie
header stays under 100 bytes after a thousand tables: with a cookie per table, a director
who had opened ~134 tables passed gunicorn's 8 KB header limit and every page, the start
page included, answered 431.

Phones from before this carry one cookie per table (``tc_<id>``), director's event
(``te_<id>``) and player's pass (``tp_<id>``). The first request that brings them moves
their rows over to the phone's one secret and deletes them (`adopt_old_cookies`).
"""
from __future__ import annotations

import re

from flask import Flask, Response, g, request

from ..storage import get_db
from ..tables import service as tables
from ..tables import tokens
from ..tournaments import service as tournaments

COOKIE = "tc"
MAX_AGE = 60 * 60 * 24 * 365
# What tokens.new_secret() makes (32 random bytes, URL-safe base64): anything else in the
# cookie is junk and is replaced, never hashed into a lookup.
_WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{40,64}")
# The cookies of before: one per table, director's event and player's pass.
_OLD = re.compile(r"(tc|te|tp)_([A-Za-z0-9_-]{1,64})")


def phone_secret() -> str | None:
    """This phone's secret, if its cookie holds a well-formed one."""
    value = g.get("new_phone_secret") or request.cookies.get(COOKIE, "")
    return value if _WELL_FORMED.fullmatch(value) else None


def own_secret() -> str:
    """This phone's secret, for a service about to remember the phone (joining a table,
    creating one, directing or registering): a browser without one gets a new secret,
    sent in this response's cookie."""
    secret = phone_secret()
    if secret is None:
        secret = g.new_phone_secret = tokens.new_secret()
    return secret


def adopt_old_cookies() -> None:
    """Move the rows an old per-table/per-event cookie proves onto the phone's one secret
    (same seat, same director's role, same pass) and drop those cookies."""
    old = [(name, m.group(1), m.group(2)) for name in request.cookies
           if (m := _OLD.fullmatch(name))]
    if not old:
        return
    secret, db = own_secret(), get_db()
    for _name, kind, key in old:
        value = request.cookies[_name]
        if kind == "tc":
            tables.adopt_phone(db, key, value, secret)
        else:
            tournaments.adopt_secret(db, key, value, secret, director=kind == "te")
    g.old_cookies = [name for name, _kind, _key in old]


def send_cookies(response: Response) -> Response:
    """Set the phone's cookie when this request gave it its secret and was answered
    (a refused request remembers nothing); delete old ones."""
    secret = g.get("new_phone_secret")
    if secret and response.status_code < 400:
        response.set_cookie(COOKIE, secret, max_age=MAX_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure, path="/")
    for name in g.get("old_cookies", ()):
        response.delete_cookie(name, path="/", httponly=True, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    """Adopt old cookies before any view reads the phone, send the cookie after it."""
    app.before_request(adopt_old_cookies)
    app.after_request(send_cookies)
