"""Errors a table operation reports to a player, each with its HTTP status."""
from __future__ import annotations

from companion.rules.said import message, said_of


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


class Stale(Conflict):
    """A write made against an old version of the sheet: another phone's change came
    first. Nothing was written and the phone keeps what it typed, so the web answers it
    as a notice to check and save again, not as an error."""


class Refused(TableError):
    """An entry the game refused (422): the web adapter's reading of the form, or the
    rules' judgement of the action. `error` is the refusal as raised, for what it says
    beyond its sentence: the form field it is about (``EntryError.field``), the rule
    (``RuleError.rule``, also kept as `rule`), a question to confirm."""

    status = 422

    def __init__(self, error: ValueError, *, rule: str | None = None):
        super().__init__(said_of(error), rule=rule)
        self.error = error


class Retired(TableError):
    """A write at a table that no longer counts: the director seated its round again."""

    status = 410


def retired_notice(reason: dict) -> str:
    """What a phone at a retired table is told (the banner and every refused write):
    `reason` is the table's stored ``retired_reason``."""
    return message("table", "This table no longer counts: the director seated round {round} "
                            "again. Open your table from the players' page.",
                   round=reason.get("round", "?"))
