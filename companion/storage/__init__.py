"""Storage: one SQLite database in WAL mode, reached through sqlite-utils.

Only this package and `companion.tables` talk SQL; the web layer never does.
"""
from .db import connect, get_db, transaction, init_app

__all__ = ["connect", "get_db", "transaction", "init_app"]
