"""Live notification: wake the streams waiting on a table when its version changes.

A write in this process wakes its waiters at once (`publish`). Writes made by other
worker processes reach this one through the `changes` table, which one poller thread
per process reads every `interval` seconds. Under gevent (the `serve` command and
gunicorn's gevent worker patch `threading`) the poller and every waiting stream are
greenlets, so thousands of idle streams cost little.
"""
from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone


class LiveHub:
    """Per-process registry of table versions and the events streams wait on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[str, threading.Event] = {}
        self._versions: dict[str, int] = {}
        self._poller: threading.Thread | None = None
        self._db_path: str | None = None
        self.interval = 0.05

    def publish(self, table_id: str, version: int) -> None:
        """Record a table's new version and wake everything waiting on it."""
        with self._lock:
            if version <= self._versions.get(table_id, -1):
                return
            self._versions[table_id] = version
            event = self._events.pop(table_id, None)
        if event is not None:
            event.set()
            # Under gevent this yields, so the woken streams send their event now rather
            # than after the writer has rendered its own answer.
            time.sleep(0)

    def wait(self, table_id: str, known: int, timeout: float) -> int | None:
        """Block until the table's version differs from `known` or `timeout` passes.

        Returns the newest version this process knows of, or None if none is known.
        """
        with self._lock:
            current = self._versions.get(table_id)
            if current is not None and current > known:
                return current
            event = self._events.get(table_id)
            if event is None:
                event = self._events[table_id] = threading.Event()
        event.wait(timeout)
        with self._lock:
            return self._versions.get(table_id)

    def ensure_poller(self, db_path: str, interval: float = 0.05) -> None:
        """Start this process's poller of the `changes` table (once per process)."""
        with self._lock:
            if self._poller is not None and self._poller.is_alive() and self._db_path == db_path:
                return
            self._db_path = db_path
            self.interval = interval
            self._poller = threading.Thread(target=self._poll, args=(db_path,),
                                            name="companion-live-poller", daemon=True)
            self._poller.start()

    def _poll(self, db_path: str) -> None:
        from companion.storage import connect  # storage sits below tables; import lazily

        db = None
        last_id = None
        last_prune = time.monotonic()
        while self._db_path == db_path:
            try:
                if db is None:
                    db = connect(db_path)
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
                if db is not None:
                    try:
                        db.conn.close()
                    except Exception:
                        pass
                db = None
                time.sleep(1)
            time.sleep(self.interval)


hub = LiveHub()


def publish(table_id: str, version: int) -> None:
    """Tell this process's waiting streams that a table changed."""
    hub.publish(table_id, version)
