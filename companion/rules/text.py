"""Small helpers for the plain-English sentences the rules produce."""

from __future__ import annotations

from collections.abc import Iterable

from .said import listing, message

__all__ = ["join_names", "number", "plural"]


def join_names(names: Iterable[str], word: str = "and") -> str:
    """Join names for a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy" (or ``word``).

    The result is a Said (see said.py): "and", "or" and "nobody" are shown in the phone's
    language, the names as they are."""
    names = list(names)
    if not names:
        return message("rules", "nobody")
    if len(names) == 1:
        return names[0]
    conj = {"and": lambda: message("rules", "and"),
            "or": lambda: message("rules", "or")}.get(word, lambda: word)()
    return listing(names, conj)


def number(value: int) -> str:
    """Format a whole number for players: 1000000 -> "1,000,000", -5 -> "-5"."""
    return f"{value:,}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """Count a noun: plural(1, "round") -> "1 round", plural(3, "round") -> "3 rounds"."""
    return f"{number(count)} {word if count == 1 else (many or word + 's')}"
