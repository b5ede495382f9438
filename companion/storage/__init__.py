"""Storage: one SQLite database in WAL mode, reached through sqlite-utils.

Only this package, `companion.tables` and the event service (the modules of
`companion.events` other than its pure ones) talk SQL; the web layer never does.
"""
from . import rates
from .db import backup_to, connect, get_db, init_app, transaction

__all__ = ["backup_to", "connect", "get_db", "init_app", "rates", "transaction"]
