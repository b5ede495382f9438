"""Connections, pragmas and the one way we write: BEGIN IMMEDIATE ... COMMIT."""
from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
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
    repair_sidecar_modes(path)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000,
                           isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL survives a killed process; only a power cut can drop the last commits.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys=ON")
    return sqlite_utils.Database(conn)


def repair_sidecar_modes(path: str | Path) -> None:
    """Give SQLite's -wal and -shm files at least the database file's permissions.

    SQLite creates them with the database's mode at the time. If the database was
    read-only then (``chmod 0444``), they stay read-only after the database is made
    writable again, and every later connection opens the WAL index read-only: the app
    would refuse writes for good. A sidecar lacking a permission the database has gets
    the database's mode (never more), if this process may change it; anything else is
    left for the plain "read-only" message to report.
    """
    try:
        wanted = os.stat(path).st_mode & 0o666
    except OSError:
        return
    for suffix in ("-wal", "-shm"):
        sidecar = f"{path}{suffix}"
        try:
            mode = os.stat(sidecar).st_mode & 0o777
            if mode & wanted != wanted:
                os.chmod(sidecar, wanted)
        except OSError:      # not there (the usual case), or not ours to change
            pass


class _Pool:
    """Open request connections a process keeps while it holds the database open anyway.

    Opening a connection costs more than most requests' queries (the file, the WAL
    index, the schema, the pragmas): about 0.4 ms of a worker's time per request. A
    process whose live poller keeps a connection to the database (any process with an
    open live stream, so every busy server) lends finished requests' connections to the
    next ones instead of closing them. A connection is only ever used by one request at
    a time (checked out at first use, back at teardown). A quiet process, with no
    poller, still opens and closes one connection per request, so that nothing keeps
    the database open between requests (see tests/faults).
    """

    MAX_IDLE = 16

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._held: dict[str, int] = {}
        self._idle: dict[str, list[sqlite_utils.Database]] = {}

    def _forked(self) -> None:
        if self._pid != os.getpid():   # connections never cross a fork
            self._pid = os.getpid()
            self._held, self._idle = {}, {}

    def hold(self, path: str) -> None:
        """A long-lived connection to `path` is open in this process (the live poller's)."""
        with self._lock:
            self._forked()
            self._held[path] = self._held.get(path, 0) + 1

    def release(self, path: str) -> None:
        """That connection is closed: stop keeping request connections to `path`."""
        with self._lock:
            self._forked()
            left = self._held.get(path, 0) - 1
            if left > 0:
                self._held[path] = left
                return
            self._held.pop(path, None)
            idle = self._idle.pop(path, [])
        for db in idle:
            db.conn.close()

    def drop_idle(self, path: str) -> None:
        """Close the idle connections to `path` (after a storage fault: see discard_db)."""
        with self._lock:
            self._forked()
            idle = self._idle.pop(path, [])
        for db in idle:
            db.conn.close()

    def get(self, path: str) -> sqlite_utils.Database:
        with self._lock:
            self._forked()
            idle = self._idle.get(path)
            db = idle.pop() if idle else None
        return db if db is not None else connect(path)

    def put(self, path: str, db: sqlite_utils.Database) -> None:
        if db.conn.in_transaction:     # never lend out a connection mid-transaction
            try:
                db.conn.execute("ROLLBACK")
            except sqlite3.Error:
                db.conn.close()
                return
        with self._lock:
            self._forked()
            if self._held.get(path):
                idle = self._idle.setdefault(path, [])
                if len(idle) < self.MAX_IDLE:
                    idle.append(db)
                    return
        db.conn.close()


pool = _Pool()


def get_db() -> sqlite_utils.Database:
    """The request's database connection, taken at first use and given back at teardown."""
    if "db" not in g:
        path = current_app.config["DATABASE"]
        g.db = pool.get(path)
        g.db_path = path
    return g.db


def discard_db() -> None:
    """Close the request's connection instead of lending it to the next request.

    After a storage fault (a read-only database, say) the connection may keep what it
    learnt about the files when they were opened: SQLite opens the WAL index (-shm)
    read-only for good if it was read-only then. A fresh connection sees the files as
    they are now, so the app writes again as soon as the condition is fixed.
    """
    db = g.pop("db", None)
    path = g.pop("db_path", None)
    if db is not None:
        try:
            db.conn.close()
        except sqlite3.Error:
            pass
    if path is not None:
        # SQLite shares one WAL index per file among a process's connections: all of
        # them must close for it to be opened again, the live poller's included.
        pool.drop_idle(path)
        from companion.tables.live import hub     # tables sits above storage
        hub.reconnect()


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    path = g.pop("db_path", None)
    if db is not None:
        if path is None:
            db.conn.close()
        else:
            pool.put(path, db)


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Run a read-then-write under BEGIN IMMEDIATE; roll back on any error.

    A deferred BEGIN fails with "database is locked" when two workers upgrade to a
    write lock at once; IMMEDIATE takes the write lock first (waiting up to the busy
    timeout). A transaction left open after an exception would lock every later
    write, so ROLLBACK runs on every error path.
    """
    begin_immediate(db.conn)
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


def begin_immediate(conn: sqlite3.Connection, timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """`BEGIN IMMEDIATE`, waiting for another process's write lock without stalling this one.

    SQLite's own busy handler sleeps inside the C call (1, 2, 5, 10, ... ms at a time):
    under gevent that freezes every greenlet of the worker, every stream and request,
    while the other worker commits. So the lock is tried without it and the wait between
    tries is `time.sleep`, which gunicorn's gevent worker and `companion serve` make
    cooperative: the worker goes on serving meanwhile. The wait is bounded by the same
    busy timeout, after which the same "database is locked" error is raised.
    """
    conn.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + timeout_ms / 1000
        delay = 0.0005
        for _attempt in range(1_000_000):       # bounded by the deadline long before this
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                message = str(exc)
                if ("locked" not in message and "busy" not in message) or \
                        time.monotonic() >= deadline:
                    raise
            time.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 0.005)
        raise sqlite3.OperationalError("database is locked")
    finally:
        conn.execute(f"PRAGMA busy_timeout={timeout_ms}")


def init_app(app: Flask) -> None:
    """Create the database if needed, apply migrations, close connections at teardown."""
    from .migrations import migrate

    path = app.config["DATABASE"]
    Path(path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _create_private(path)
    migrate(path)
    # SQLite gives its -wal and -shm files the database file's mode: a private database
    # keeps them private too, whatever the process's umask.
    from companion import make_private
    for suffix in ("", "-wal", "-shm", ".migrate-lock"):
        make_private(f"{path}{suffix}")
    app.teardown_appcontext(close_db)


def _create_private(path: str | Path) -> None:
    """Create an empty database file readable by this user only (SQLite accepts an empty
    file as a new database); an existing file is left alone."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def backup_to(source: str | Path, target: str | Path) -> int:
    """Copy the database at `source` into the new file `target` with `VACUUM INTO`.

    SQLite writes the copy inside one read transaction, so it is consistent even while
    the server keeps writing. Refuses any existing path, a symbolic link included (even one
    pointing nowhere: writing through it would land wherever it points). Returns its size.
    """
    target = Path(target)
    if target.is_symlink():
        raise FileExistsError(f"{target} is a symbolic link; give the name of a new file.")
    if target.exists():
        raise FileExistsError(f"{target} already exists; choose a new file name.")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"The folder {target.parent} doesn't exist.")
    # Create the empty file here, refusing anything already there: O_EXCL fails on any
    # existing name, a link to nowhere included, so a link made after the checks above
    # is refused too. VACUUM INTO accepts an empty file.
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
    except FileExistsError:
        raise FileExistsError(f"{target} already exists; choose a new file name.") from None
    os.close(fd)
    db = connect(source)
    try:
        db.execute("VACUUM INTO ?", [str(target)])
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    finally:
        db.conn.close()
    return target.stat().st_size
