"""`GET /healthz`: can this process write its database, and is its schema current?

For a load balancer, a container's health check or a monitoring script. The answer is a
small JSON object with no secrets (no path, no key, no table), never rate limited and never
sets a cookie: 200 `{"ok": true, "database": "writable", "migrations": "current"}`, or 503
`{"ok": false, ..., "reason": "<one plain sentence>"}`.

"Writable" means SQLite granted a write lock (`BEGIN IMMEDIATE`, then `ROLLBACK`): a
read-only file, folder or file system, or a lock held past the busy timeout, all fail
there. A full disk is not seen (nothing is written); every refused save says so itself.
"""
from __future__ import annotations

import sqlite3

from flask import Blueprint, current_app, jsonify

from companion.storage import get_db
from companion.storage.db import begin_immediate, discard_db

from .extensions import limiter

bp = Blueprint("health", __name__)

#: Waiting longer than this for another process's write lock means "not writable now":
#: a health check is asked often and must answer quickly.
HEALTH_LOCK_WAIT_MS = 2000


@bp.get("/healthz")
@limiter.exempt
def healthz():
    """200 when the database takes a write lock and every migration is applied, else 503."""
    from companion.storage.migrations import migrations

    body = {"ok": True, "database": "writable", "migrations": "unknown"}
    reason = None
    try:
        db = get_db()
        pending = migrations.pending(db)
        body["migrations"] = "pending" if pending else "current"
        if pending:
            reason = f"{len(pending)} database migration(s) not applied; restart the server."
        try:
            begin_immediate(db.conn, HEALTH_LOCK_WAIT_MS)
            # BEGIN IMMEDIATE alone succeeds on a database opened read-only: a statement
            # that writes (to no row) is where SQLite checks.
            db.conn.execute("DELETE FROM changes WHERE 0")
        finally:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        text = f"{exc} {getattr(exc, 'sqlite_errorname', '') or ''}".lower()
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            discard_db()      # the next check opens the files as they are then
            body["database"] = "read-only"
            reason = "The database can't be written (read-only file, folder or disk)."
        elif "locked" in text or "busy" in text:
            body["database"] = "busy"
            reason = "The database stayed locked by another process."
        else:
            body["database"] = "error"
            reason = "The database can't be opened or written."
        current_app.logger.warning("Health check failed: %s", exc)
    if reason is not None:
        body["ok"] = False
        body["reason"] = reason
    response = jsonify(body)
    response.status_code = 200 if body["ok"] else 503
    response.headers["Cache-Control"] = "no-store"
    return response
