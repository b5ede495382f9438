"""Template filters and globals."""
from __future__ import annotations

from datetime import datetime

from flask import Flask

from companion.rules.cards import format_card, picker_deck

from .htmx import csrf_token
from .i18n import say


def local_time(iso: str, fmt: str = "%H:%M:%S") -> str:
    """An ISO UTC timestamp from the log shown in the server's local time."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime(fmt)
    except (TypeError, ValueError):
        return iso or ""


def signed(n: int) -> str:
    """A score change with its sign: +20, -5, 0."""
    return f"+{n}" if n > 0 else str(n)


def init_app(app: Flask) -> None:
    app.add_template_filter(local_time, "time")
    app.add_template_filter(lambda iso: local_time(iso, "%Y-%m-%d %H:%M:%S"), "datetime")
    app.add_template_filter(signed, "signed")
    # "14 Red", "Rook bird": words, shown in the phone's language.
    app.add_template_filter(lambda card: say(format_card(card, "rook")), "rookcard")
    app.add_template_global(csrf_token, "csrf_token")
    # Deck data lives once, in rules/cards.py: the card picker (templates/_cards.html)
    # draws its buttons from it, and the page's script reads the symbols back from those.
    app.add_template_global(picker_deck, "card_deck")
