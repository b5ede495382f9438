"""The reference for bench_load.py: a bare Flask route doing one SQLite write and one read.

    gunicorn -k gevent -w 2 --worker-connections 4000 --chdir tests/perf "baseline_app:app"

with BASELINE_DB pointing at a scratch database. Not part of the app: it exists only so
the score-entry route's throughput can be given as a ratio to "Flask plus one write and
one read" measured under the same server, client and concurrency, in the same run.

`POST /write` (form: sid, score) inserts one row and reads it back, on a connection
opened per request with the app's pragmas (WAL, synchronous=NORMAL, busy_timeout,
foreign_keys) and closed at teardown: the pattern of the Flask tutorial and of
ARCHITECTURE §6. `POST /write-reused` does the same on a connection taken from a
per-worker pool of open connections and handed back at teardown (never shared by two
requests at once): the cheapest way to reach SQLite from Flask.
"""
from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone

from flask import Flask, g, request

DB = os.environ.get("BASELINE_DB", "baseline.db")
BUSY_TIMEOUT_MS = 5000

app = Flask(__name__)


def connect() -> sqlite3.Connection:
    conn = sqlite3.connect(DB, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


with connect() as _setup:
    _setup.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, sid TEXT NOT NULL "
                   "UNIQUE, score INTEGER NOT NULL, created_at TEXT NOT NULL)")
_setup.close()

_idle: list[sqlite3.Connection] = []   # this worker's open connections, not in use


def _write_and_read(conn: sqlite3.Connection) -> str:
    sid = request.form["sid"]
    score = int(request.form["score"])
    cur = conn.execute("INSERT INTO items (sid, score, created_at) VALUES (?, ?, ?)",
                       [sid, score, datetime.now(timezone.utc).isoformat()])
    row = conn.execute("SELECT id, sid, score FROM items WHERE id = ?", [cur.lastrowid]).fetchone()
    return f'<p id="item" data-id="{row["id"]}">{row["sid"]}: {row["score"]}</p>'


@app.get("/")
def index():
    return "ok"


@app.post("/write")
def write():
    if "db" not in g:
        g.db = connect()
    return _write_and_read(g.db)


@app.post("/write-reused")
def write_reused():
    g.pooled = _idle.pop() if _idle else connect()
    return _write_and_read(g.pooled)


@app.teardown_appcontext
def _close(_exc):
    db = g.pop("db", None)
    if db is not None:
        db.close()
    pooled = g.pop("pooled", None)
    if pooled is not None:
        _idle.append(pooled)
