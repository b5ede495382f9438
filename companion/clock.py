"""The time as the database stores it: one helper for every module that writes a timestamp."""
from __future__ import annotations

from datetime import datetime, timezone

__all__ = ["now"]


def now() -> str:
    """The current UTC time as stored in the database (ISO 8601, milliseconds)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
