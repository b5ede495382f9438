"""Live notification: wake the streams waiting on a table when its version changes.

A write in this process wakes its waiters at once (`publish`). Writes made by other
worker processes reach this one through the `changes` table, which one poller thread
per process reads every `interval` seconds. Under gevent (the `serve` command and
gunicorn's gevent worker patch `threading`) the poller and every waiting stream are
greenlets, so thousands of idle streams cost little.

On Linux a writer also nudges the other processes' pollers to read the `changes` table
at once (a one-byte datagram to each of a few abstract Unix sockets named after the
database), so a change reaches phones held by another worker in about a millisecond
instead of half a poll interval on average. The nudge is only a hint: the `changes`
table stays the one source of truth, and the poll every `interval` catches anything a
lost nudge (or a platform without abstract sockets) misses.
"""
from __future__ import annotations

import gc
import hashlib
import os
import socket
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

NUDGE_SLOTS = 16      # processes per database that can be nudged (others just poll)


class _Nudge:
    """Wake the pollers of the other processes serving the same database (Linux only)."""

    def __init__(self, db_path: str, wake: threading.Event) -> None:
        digest = hashlib.sha256(os.path.realpath(db_path).encode()).hexdigest()[:20]
        self.names = [f"\0companion-live-{digest}-{slot}".encode() for slot in range(NUDGE_SLOTS)]
        self.wake = wake
        self.sock: socket.socket | None = None
        self.own = -1
        self.closed = False
        if not sys.platform.startswith("linux"):
            return
        for slot, name in enumerate(self.names):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                sock.bind(name)
            except OSError:       # another process holds this slot
                sock.close()
                continue
            self.sock, self.own = sock, slot
            break
        self.sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sender.setblocking(False)
        if self.sock is not None:
            threading.Thread(target=self._listen, name="companion-live-nudge", daemon=True).start()

    def _listen(self) -> None:
        sock = self.sock
        while not self.closed:
            try:
                sock.recv(64)
            except OSError:
                return
            self.wake.set()

    def send(self) -> None:
        """Tell every other process's poller to look now (best effort, never blocks)."""
        if not hasattr(self, "sender"):
            return
        for slot, name in enumerate(self.names):
            if slot == self.own:
                continue
            try:
                self.sender.sendto(b"!", name)
            except OSError:       # nobody there, or its queue is full: it will poll anyway
                pass

    def close(self) -> None:
        self.closed = True
        for sock in (self.sock, getattr(self, "sender", None)):
            if sock is not None:
                try:
                    sock.close()
                except OSError:
                    pass


def _freeze_startup_objects() -> None:
    """Take the app itself out of the garbage collector's full passes, once per process.

    A worker holding a thousand streams has a few hundred thousand live objects, and
    CPython's full collection (every half minute or so under load) walks all of them:
    about 100 ms during which the worker answers nobody. Everything alive when the
    first stream opens is the app (modules, routes, compiled templates), which lives as
    long as the process; `gc.freeze()` moves it out of those passes. Garbage is
    collected first, so nothing unreachable is kept.
    """
    gc.collect()
    gc.freeze()


class LiveHub:
    """Per-process registry of table versions and the wake-ups live streams wait on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wakeups: dict[str, threading.Event] = {}
        self._versions: dict[str, int] = {}
        self._poller: threading.Thread | None = None
        self._db_path: str | None = None
        self._wake = threading.Event()
        self._nudge: _Nudge | None = None
        self._reconnect = False
        self.interval = 0.05

    def reconnect(self) -> None:
        """Have the poller close its connection and open a new one at its next read (after
        a storage fault, so it no longer holds the files as they were; see
        companion.storage.db.discard_db)."""
        self._reconnect = True
        self._wake.set()

    def changed(self, table_id: str, version: int) -> None:
        """A write in this process committed: nudge the other processes, wake our streams."""
        nudge = self._nudge
        if nudge is not None:
            nudge.send()
        self.publish(table_id, version)

    def publish(self, table_id: str, version: int) -> None:
        """Record a table's new version and wake everything waiting on it."""
        with self._lock:
            if version <= self._versions.get(table_id, -1):
                return
            self._versions[table_id] = version
            wakeup = self._wakeups.pop(table_id, None)
        if wakeup is not None:
            wakeup.set()
            # Under gevent this yields, so the woken streams send their message now rather
            # than after the writer has rendered its own answer.
            time.sleep(0)

    def known(self, key: str) -> int | None:
        """The newest version this process knows of under `key` (None: none)."""
        with self._lock:
            return self._versions.get(key)

    def wake_all(self) -> None:
        """Wake every waiting stream now (the process is stopping; see web/streams.py)."""
        with self._lock:
            wakeups, self._wakeups = list(self._wakeups.values()), {}
        for wakeup in wakeups:
            wakeup.set()

    def wait(self, table_id: str, known: int, timeout: float) -> int | None:
        """Block until the table's version differs from `known` or `timeout` passes.

        Returns the newest version this process knows of, or None if none is known.
        """
        with self._lock:
            current = self._versions.get(table_id)
            if current is not None and current > known:
                return current
            wakeup = self._wakeups.get(table_id)
            if wakeup is None:
                wakeup = self._wakeups[table_id] = threading.Event()
        wakeup.wait(timeout)
        with self._lock:
            return self._versions.get(table_id)

    def ensure_poller(self, db_path: str, interval: float = 0.05) -> None:
        """Start this process's poller of the `changes` table (once per process)."""
        with self._lock:
            if self._poller is not None and self._poller.is_alive() and self._db_path == db_path:
                return
            if self._poller is None:
                _freeze_startup_objects()
            self._db_path = db_path
            self.interval = interval
            if self._nudge is not None:
                self._nudge.close()
            try:
                self._nudge = _Nudge(db_path, self._wake)
            except OSError:
                self._nudge = None
            self._poller = threading.Thread(target=self._poll, args=(db_path,),
                                            name="companion-live-poller", daemon=True)
            self._poller.start()

    def _poll(self, db_path: str) -> None:
        from companion.storage import connect  # storage sits below tables; import lazily
        from companion.storage.db import pool

        db = None
        last_id = None
        last_prune = time.monotonic()
        opened_as = None

        def drop() -> None:
            nonlocal db
            if db is not None:
                try:
                    db.conn.close()
                except Exception:
                    pass
                db = None
                # While the poller holds the database open, request connections are
                # kept open too (companion.storage.db._Pool); not any more.
                pool.release(db_path)

        try:
            while self._db_path == db_path:
                self._wake.clear()     # a nudge from now on means "look again"
                if self._reconnect or (db is not None and _file_state(db_path) != opened_as):
                    # After a storage fault, or once the database file's mode changed
                    # (made writable again, say): SQLite shares one WAL index among a
                    # process's connections and opened it as the files were then, so
                    # every connection of the process closes and opens afresh.
                    self._reconnect = False
                    drop()
                try:
                    if db is None:
                        opened_as = _file_state(db_path)
                        db = connect(db_path)
                        pool.hold(db_path)
                        last_id = db.execute("SELECT COALESCE(MAX(id), 0) FROM changes").fetchone()[0]
                    rows = db.execute("SELECT id, table_id, version FROM changes WHERE id > ? ORDER BY id",
                                      [last_id]).fetchall()
                    for row in rows:
                        last_id = row["id"]
                        self.publish(row["table_id"], row["version"])
                    if time.monotonic() - last_prune > 600:
                        last_prune = time.monotonic()
                        cutoff = (datetime.now(timezone.utc) - timedelta(hours=1)).isoformat()
                        db.execute("DELETE FROM changes WHERE created_at < ?", [cutoff])
                except Exception:  # a locked or vanished database: reconnect and go on
                    drop()
                    time.sleep(1)
                self._wake.wait(self.interval)
        finally:
            drop()


def _file_state(path: str) -> tuple[int, int] | None:
    """The database file's mode and inode (None while it can't be read)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mode, st.st_ino


hub = LiveHub()


def publish(table_id: str, version: int) -> None:
    """After a committed write: wake the table's streams here and in the other workers."""
    hub.changed(table_id, version)
