"""Errors a table operation reports to a player, each with its HTTP status."""
from __future__ import annotations


class TableError(Exception):
    """A refused table operation: `str(e)` is one plain sentence for the player."""

    status = 400

    def __init__(self, message: str, *, rule: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        if status is not None:
            self.status = status


class NotFound(TableError):
    status = 404


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    """A write made against an old version of the sheet, or a lost race for a seat."""

    status = 409
