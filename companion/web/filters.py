"""Template filters and globals."""
from __future__ import annotations

from datetime import datetime

from flask import Flask, current_app
from markupsafe import Markup

from companion.rules.cards import format_card, picker_deck

from .htmx import csrf_token
from .i18n import say
from .qr import shown_url


def local_time(iso: str, fmt: str = "%H:%M:%S") -> str:
    """An ISO UTC timestamp from the log shown in the server's local time."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime(fmt)
    except (TypeError, ValueError):
        return iso or ""


def signed(n: int) -> str:
    """A score change with its sign: +20, -5, 0."""
    return f"+{n}" if n > 0 else str(n)


_card_keys: dict[tuple, Markup] = {}


def card_keys(deck: str, joker: bool = True) -> Markup:
    """The card picker's rank and suit buttons for `deck` (templates/_card_keys.html), the
    same in every picker of that deck: drawn once per deck, joker and language, not once
    per picker per answer (a Rainbow Rummy entry form has a picker per player and box, and
    these buttons were most of its drawing time)."""
    from .i18n import current_language

    key = (deck, bool(joker), current_language())
    found = _card_keys.get(key)
    if found is None:
        template = current_app.jinja_env.get_template("_card_keys.html")
        found = _card_keys[key] = Markup(template.render(d=picker_deck(deck), joker=joker))
    return found


def longest_word(name: str) -> int:
    """The length of the longest piece of `name` between spaces and hyphens: a score tile
    gives a name with a long piece ("Maximilian-Alexander": 10) two tiles' width, so the
    name breaks where a person would, never inside a word."""
    return max((len(part) for part in name.replace("-", " ").split()), default=0)


#: A name piece longer than this doesn't fit one score tile on a 375 px phone at any font
#: size (the tiles are sized in rem, so they grow with the text).
TILE_WORD = 8


def init_app(app: Flask) -> None:
    app.add_template_filter(local_time, "time")
    app.add_template_filter(lambda iso: local_time(iso, "%Y-%m-%d %H:%M:%S"), "datetime")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(lambda name: longest_word(name) > TILE_WORD, "long_word")
    # The link printed under a QR code, in the case a phone shows it (web/qr.py).
    app.add_template_filter(shown_url, "shown_url")
    # "14 Red", "Rook bird": words, shown in the phone's language.
    app.add_template_filter(lambda card: say(format_card(card, "rook")), "rookcard")
    app.add_template_global(csrf_token, "csrf_token")
    # Deck data lives once, in rules/cards.py: the card picker (templates/_cards.html)
    # draws its buttons from it, and the page's script reads the symbols back from those.
    app.add_template_global(picker_deck, "card_deck")
    app.add_template_global(card_keys, "card_keys")
