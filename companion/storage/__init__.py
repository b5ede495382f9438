"""Storage: one SQLite database in WAL mode, reached through sqlite-utils.

Only this package, `companion.tables` and `companion.tournaments.service` (with its
`round_clock`) talk SQL; the web layer never does.
"""
from . import rates
from .db import backup_to, connect, get_db, init_app, transaction

__all__ = ["backup_to", "connect", "get_db", "init_app", "rates", "transaction"]
