"""Rate limits kept in the database, so they hold across worker processes.

Flask-Limiter's in-memory storage counts per process: under `gunicorn -w 2` a client gets
twice the limit (and more with more workers). The few limits that must hold exactly (a
player registering through an event's public QR code) count here instead.
"""
from __future__ import annotations

import time

import sqlite_utils

from .db import transaction


def hit(db: sqlite_utils.Database, bucket: str, key: str, limit: int, window: float) -> bool:
    """Count one request of `key` (e.g. an address) in `bucket`; False when `limit`
    requests were already counted in the last `window` seconds (this one is then not
    counted). Old rows of the bucket are pruned on the way."""
    moment = time.time()
    with transaction(db):
        db.execute("DELETE FROM rate_hits WHERE bucket = ? AND at < ?", [bucket, moment - window])
        seen = db.execute("SELECT COUNT(*) FROM rate_hits WHERE bucket = ? AND key = ? AND at >= ?",
                          [bucket, key, moment - window]).fetchone()[0]
        if seen >= limit:
            return False
        db.execute("INSERT INTO rate_hits (bucket, key, at) VALUES (?, ?, ?)", [bucket, key, moment])
    return True


def take(db: sqlite_utils.Database, bucket: str, key: str, count: int, limit: int,
         window: float) -> bool:
    """Count `count` things made at once by `key` (e.g. the tables of a round seated from
    one address) in `bucket`; False when they would bring the last `window` seconds over
    `limit` (none of them is then counted). One row per thing, like :func:`hit`."""
    moment = time.time()
    with transaction(db):
        db.execute("DELETE FROM rate_hits WHERE bucket = ? AND at < ?", [bucket, moment - window])
        seen = db.execute("SELECT COUNT(*) FROM rate_hits WHERE bucket = ? AND key = ? AND at >= ?",
                          [bucket, key, moment - window]).fetchone()[0]
        if seen + count > limit:
            return False
        db.conn.executemany("INSERT INTO rate_hits (bucket, key, at) VALUES (?, ?, ?)",
                            [(bucket, key, moment)] * count)
    return True


def spent(db: sqlite_utils.Database, bucket: str, key: str, limit: int, window: float) -> bool:
    """Whether `limit` requests of `key` were already counted in `bucket` in the last
    `window` seconds; counts nothing (for limits that count only failures, checked before
    the attempt and hit after a failed one)."""
    seen = db.execute("SELECT COUNT(*) FROM rate_hits WHERE bucket = ? AND key = ? AND at >= ?",
                      [bucket, key, time.time() - window]).fetchone()[0]
    return seen >= limit
