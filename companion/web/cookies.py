"""One cookie per phone, holding a key only the server issues.

A phone holds one key in one HttpOnly cookie, ``tc``, whatever the number of tables and
events it opened. The server issued that key and keeps its hash in ``phone_keys``, with the
phone's *identity* (its secret) masked by the key: the database keeps, per table (and per
event, as its director or as a player's pass), a hash of that identity scoped to it
(`tokens.scoped_hash`). A cookie value the server never issued is replaced, never adopted,
and the key is **rotated** (a new key, the old one dead) whenever the phone gains a host's
or director's rights, so a cookie planted on the phone earlier shares none of them; the
identity stays, so everything the phone held still works for it. The Cookie
header stays under 100 bytes after a thousand tables: with a cookie per table, a director
who had opened ~134 tables passed gunicorn's 8 KB header limit and every page, the start
page included, answered 431.

Phones from before this carry one cookie per table (``tc_<id>``), director's event
(``te_<id>``) and player's pass (``tp_<id>``). The first request that brings them moves
their rows over to the phone's one secret and deletes them (`adopt_old_cookies`).
"""
from __future__ import annotations

import hashlib
import re

from flask import Flask, Response, g, request

from ..clock import now
from ..storage import get_db, transaction
from ..tables import service as tables
from ..tables import tokens
from ..events.event import adopt_secret
from .proxy import cookie_path

COOKIE = "tc"
MAX_AGE = 60 * 60 * 24 * 365
# What tokens.new_secret() makes (32 random bytes, URL-safe base64): anything else in the
# cookie is junk and is replaced, never hashed into a lookup.
_WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{40,64}")
# The cookies of before: one per table, director's event and player's pass.
_OLD = re.compile(r"(tc|te|tp)_([A-Za-z0-9_-]{1,64})")


# ---------------------------------------------------------------- keys and identities

def key_hash(key: str) -> str:
    """What ``phone_keys`` keeps of a key (the cookie's value)."""
    return hashlib.sha256(f"phone-key\n{key}".encode("utf-8")).hexdigest()


def _mask(key: str, identity: bytes) -> bytes:
    stream = hashlib.shake_256(f"phone-identity\n{key}".encode("utf-8")).digest(len(identity))
    return bytes(a ^ b for a, b in zip(identity, stream))


def identity_of(db, key: str | None) -> str | None:
    """The identity (phone secret) a live key stands for; None for a key the server never
    issued, a retired one, or no key."""
    if not key or not _WELL_FORMED.fullmatch(key):
        return None
    row = db.execute("SELECT identity FROM phone_keys WHERE key_hash = ? AND retired_at IS NULL",
                     [key_hash(key)]).fetchone()
    if row is None or row[0] is None:
        return None
    return _mask(key, bytes.fromhex(row[0])).decode("utf-8")


def _known(db, key: str) -> bool:
    """Whether the server issued (or converted) this key at some time, live or retired."""
    return db.execute("SELECT 1 FROM phone_keys WHERE key_hash = ?",
                      [key_hash(key)]).fetchone() is not None


def _legacy_allowed(db) -> bool:
    """Whether this install had phones before keys were issued (see migration m012)."""
    return db.execute("SELECT 1 FROM app_flags WHERE name = 'legacy_secrets'"
                      ).fetchone() is not None


def _resolve() -> str | None:
    value = request.cookies.get(COOKIE, "")
    if not _WELL_FORMED.fullmatch(value):
        return None
    db = get_db()
    identity = identity_of(db, value)
    if identity is not None:
        g.phone_key = value
        return identity
    if _known(db, value) or not _legacy_allowed(db):
        return None     # retired, or never issued here: this browser is a new phone
    # A secret from before keys, on an install that had phones then: it stays this
    # phone's identity, under a new key; the old value is retired when this answer is sent,
    # so whoever else holds it (a planted copy) is a new phone from then on.
    g.legacy_secret = value
    g.new_phone_key = tokens.new_secret()
    return value


def phone_secret() -> str | None:
    """This phone's secret (its identity), if its cookie holds a key the server issued."""
    if "phone_identity" not in g:
        g.phone_identity = _resolve()
    return g.phone_identity


def known_secret() -> str | None:
    """This phone's secret if its cookie holds a live key the server issued; unlike
    `phone_secret`, never converts an older secret into a key (for a page that only reads,
    like the start page, which sets no cookie)."""
    if "phone_identity" in g:
        return g.phone_identity
    return identity_of(get_db(), request.cookies.get(COOKIE))


def own_secret() -> str:
    """This phone's secret, for a service about to remember the phone (joining a table,
    creating one, directing or registering): a browser without one gets a new identity and
    key, the key sent in this response's cookie."""
    secret = phone_secret()
    if secret is None:
        secret = g.phone_identity = tokens.new_secret()
        g.new_phone_key = tokens.new_secret()
    return secret


def rotate_secret(done: tuple[str, list] | None = None) -> None:
    """Give this phone a new key for the same identity and retire the key it came with
    (when this answer is sent, below 400): call it where the phone gains a host's or
    director's rights. A phone whose key was issued in this very request already has a
    fresh one. `done`: one SQL statement run in the same transaction (e.g. clearing a
    "rotate" mark)."""
    if phone_secret() is None:
        return
    if done is not None:
        g.rotate_done = done
    if g.get("new_phone_key"):
        return
    g.new_phone_key = tokens.new_secret()
    g.retire_key = g.get("phone_key")


def _store_key(key: str) -> bool:
    """Record the key issued in this request (and retire the one it replaces); False when
    another request converted the same old secret or renewed the same key first (this one
    then sets no cookie)."""
    db, stamp = get_db(), now()
    identity = g.phone_identity.encode("utf-8")
    with transaction(db):
        legacy = g.get("legacy_secret")
        if legacy:
            cur = db.execute("INSERT OR IGNORE INTO phone_keys (key_hash, identity, created_at,"
                             " retired_at) VALUES (?, NULL, ?, ?)", [key_hash(legacy), stamp, stamp])
            if cur.rowcount == 0:
                return False
        old = g.get("retire_key")
        if old:
            cur = db.execute("UPDATE phone_keys SET retired_at = ?, identity = NULL WHERE"
                             " key_hash = ? AND retired_at IS NULL", [stamp, key_hash(old)])
            if cur.rowcount == 0:
                # Another request renewed this key meanwhile: one renewal per key, so two
                # browsers sharing a key never both come away with a live one. (The same
                # browser's other request set the new key already.)
                return False
        db.execute("INSERT INTO phone_keys (key_hash, identity, created_at) VALUES (?, ?, ?)",
                   [key_hash(key), _mask(key, identity).hex(), stamp])
        done = g.get("rotate_done")
        if done:
            db.execute(*done)
    return True


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
            adopt_secret(db, key, value, secret, director=kind == "te")
    g.old_cookies = [name for name, _kind, _key in old]


def send_cookies(response: Response) -> Response:
    """Record and set the phone's new key when this request issued one and was answered
    (a refused request remembers nothing); delete old cookies."""
    key = g.get("new_phone_key")
    if key and response.status_code < 400 and _store_key(key):
        # Secure on https (after a trusted proxy's X-Forwarded-Proto, web/proxy.py), and
        # only for the path the app is mounted under.
        response.set_cookie(COOKIE, key, max_age=MAX_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure, path=cookie_path())
    for name in g.get("old_cookies", ()):
        response.delete_cookie(name, path="/", httponly=True, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    """Adopt old cookies before any view reads the phone, send the cookie after it."""
    app.before_request(adopt_old_cookies)
    app.after_request(send_cookies)
