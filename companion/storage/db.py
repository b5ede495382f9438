"""Connections, pragmas and the one way we write: BEGIN IMMEDIATE ... COMMIT."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import sqlite_utils
from flask import Flask, current_app, g

BUSY_TIMEOUT_MS = 5000


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open the database at `path` with the pragmas every connection needs.

    `isolation_level=None` puts the sqlite3 module in autocommit mode, so the only
    transactions are the explicit ones opened by `transaction()`.
    """
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000,
                           isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL survives a killed process; only a power cut can drop the last commits.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys=ON")
    return sqlite_utils.Database(conn)


def get_db() -> sqlite_utils.Database:
    """The request's database, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Run a read-then-write under BEGIN IMMEDIATE; roll back on any error.

    A deferred BEGIN fails with "database is locked" when two workers upgrade to a
    write lock at once; IMMEDIATE takes the write lock first (waiting up to the busy
    timeout). A transaction left open after an exception would lock every later
    write, so ROLLBACK runs on every error path.
    """
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


def init_app(app: Flask) -> None:
    """Create the database if needed, apply migrations, close connections at teardown."""
    from .migrations import migrate

    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)


def backup_to(source: str | Path, target: str | Path) -> int:
    """Copy the database at `source` into the new file `target` with `VACUUM INTO`.

    SQLite writes the copy inside one read transaction, so it is consistent even while
    the server keeps writing. Refuses to overwrite an existing file. Returns its size.
    """
    target = Path(target)
    if target.exists():
        raise FileExistsError(f"{target} already exists; choose a new file name.")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"The folder {target.parent} doesn't exist.")
    db = connect(source)
    try:
        db.execute("VACUUM INTO ?", [str(target)])
    finally:
        db.conn.close()
    return target.stat().st_size
