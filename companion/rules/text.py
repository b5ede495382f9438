"""Small helpers for the plain-English sentences the rules produce."""

from __future__ import annotations

from collections.abc import Iterable

from .said import listing, message

__all__ = ["join_names", "number"]


def join_names(names: Iterable[str], word: str = "and", nobody: str | None = None) -> str:
    """Join names for a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy" (or ``word``).

    The result is a Said (see said.py): "and", "or" and "nobody" are shown in the phone's
    language, the names as they are. ``nobody`` is what no names at all say (a game may
    pass its own word, translated in its own context); the rules' "nobody" by default."""
    names = list(names)
    if not names:
        return message("rules", "nobody") if nobody is None else nobody
    if len(names) == 1:
        return names[0]
    conj = {"and": lambda: message("rules", "and"),
            "or": lambda: message("rules", "or")}.get(word, lambda: word)()
    return listing(names, conj)


def number(value: int) -> str:
    """Format a whole number for players: 1000000 -> "1,000,000", -5 -> "-5"."""
    return f"{value:,}"

