"""Card notation shared by the card games (ARCHITECTURE.md §4).

Input is case-insensitive and may carry surrounding whitespace; output is canonical upper
case. A card is written rank first, suit (or colour) last, so "MS" in the Universal Card
Deck is the Moon of S and "SM" the Sun of M. Decks:

- ``standard``: rank A 2..10 J Q K + suit S H D C (``10H``, ``QS``, ``AD``); joker ``JK``.
  "T" for ten is not accepted.
- ``rocca``: the standard deck plus rank 0 (``0S``).
- ``ucd`` (Universal Card Deck): rank 1..7 M (Moon) S (Sun) G (Galaxy) + suit E J M N S V.
- ``rook``: number 1..14 + colour B R Y G (``14R``, ``5Y``); the bird is ``ROOK``.

Bad notation raises ValueError whose message starts with the bad card in quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .said import N_, Said, message

__all__ = [
    "DECKS",
    "Card",
    "all_cards",
    "format_card",
    "is_joker",
    "parse_card",
    "parse_cards",
    "picker_deck",
    "rank_value",
    "split_card",
]


class Card(NamedTuple):
    """A parsed card: ``rank`` ("10", "Q", "M", "14", or "JK"/"ROOK") and ``suit`` (None for
    a joker or the Rook bird)."""

    rank: str
    suit: str | None


@dataclass(frozen=True)
class _Deck:
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    special: str | None          # the suitless card: "JK", "ROOK" or None
    hint: str                    # how to write a card, for error messages
    rank_names: dict[str, str]   # rank -> word used by format_card (and a picker's labels)
    suit_names: dict[str, str]   # suit -> symbol or word used by format_card
    suit_words: dict[str, str] | None = None  # suit -> word for people (a picker's labels)
    rank_marks: dict[str, str] | None = None  # rank -> the mark printed on the card (UCD)


_STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_STANDARD_SUITS = ("S", "H", "D", "C")
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Shown through say() by the card picker (templates/_cards.html): marked to be translated.
_SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
_FACE_NAMES = {"A": N_("Ace"), "J": N_("Jack"), "Q": N_("Queen"), "K": N_("King")}


def _word(text: str) -> Said:
    """A word for people (marked ``N_`` where it is written) as a value of a sentence: the
    web's ``say()`` looks it up in the catalogue, alone or inside another sentence."""
    return Said(text, template=text)


#: The Rook deck's four colours (rules/rook.py and the Rook screens use these).
ROOK_COLOURS = {"B": _word(N_("Black")), "R": _word(N_("Red")), "Y": _word(N_("Yellow")),
                "G": _word(N_("Green"))}

_DECKS: dict[str, _Deck] = {
    "standard": _Deck(
        ranks=_STANDARD_RANKS,
        suits=_STANDARD_SUITS,
        special="JK",
        hint=N_("write a rank A, 2–10, J, Q or K and then a suit S, H, D or C "
                "(like 10H or QS), or JK for a joker."),
        rank_names=_FACE_NAMES,
        suit_names=_SYMBOLS,
        suit_words=_SUIT_WORDS,
    ),
    "rocca": _Deck(
        ranks=("0",) + _STANDARD_RANKS,
        suits=_STANDARD_SUITS,
        special="JK",
        hint=N_("write a rank 0, A, 2–10, J, Q or K and then a suit S, H, D or C "
                "(like 0S or QH), or JK for a joker."),
        rank_names=_FACE_NAMES,
        suit_names=_SYMBOLS,
        suit_words=_SUIT_WORDS,
    ),
    "ucd": _Deck(
        ranks=("1", "2", "3", "4", "5", "6", "7", "M", "S", "G"),
        suits=("E", "J", "M", "N", "S", "V"),
        special=None,
        hint=N_("write a rank 1–7, M (Moon), S (Sun) or G (Galaxy) and then a suit "
                "E, J, M, N, S or V (like 5J or GN)."),
        rank_names={"M": _word(N_("Moon")), "S": _word(N_("Sun")), "G": _word(N_("Galaxy"))},
        rank_marks={"M": "☾", "S": "☀", "G": "✦"},
        suit_names={},
        suit_words={suit: message("rules", "suit {suit}", suit=suit)
                    for suit in ("E", "J", "M", "N", "S", "V")},
    ),
    "rook": _Deck(
        ranks=tuple(str(n) for n in range(1, 15)),
        suits=("B", "R", "Y", "G"),
        special="ROOK",
        hint=N_("write a number 1–14 and then a colour B, R, Y or G (like 14R or 5Y), "
                "or ROOK for the bird."),
        rank_names={},
        suit_names=ROOK_COLOURS,
    ),
}

DECKS: tuple[str, ...] = tuple(_DECKS)

_RANK_VALUES = {
    "standard": {rank: i + 1 for i, rank in enumerate(_STANDARD_RANKS)},
    "rocca": {"0": 0, **{rank: i + 1 for i, rank in enumerate(_STANDARD_RANKS)}},
    "ucd": {rank: i + 1 for i, rank in enumerate(_DECKS["ucd"].ranks)},
    "rook": {rank: int(rank) for rank in _DECKS["rook"].ranks},
}

_SEPARATORS = re.compile(r"[\s,]+")


def _deck(deck: str) -> _Deck:
    try:
        return _DECKS[deck]
    except (KeyError, TypeError):
        raise ValueError(message("rules", "Unknown deck {deck!r}: use {decks}.", deck=deck,
                                 decks=", ".join(DECKS))) from None


def _hint(spec: _Deck) -> Said:
    """A deck's hint as a value of a sentence (``say()`` looks it up as it is)."""
    return Said(spec.hint, template=spec.hint)


def parse_card(text: str, deck: str = "standard") -> str:
    """Return the canonical (upper-case) form of one card, or raise ValueError naming it."""
    spec = _deck(deck)
    if not isinstance(text, str):
        raise ValueError(message("rules", "{card!r} is not a card: {hint}", card=text,
                                 hint=_hint(spec)))
    card = text.strip().upper()
    if card and card == spec.special:
        return card
    if len(card) >= 2 and card[:-1] in spec.ranks and card[-1] in spec.suits:
        return card
    if deck == "standard" and len(card) == 2 and card[0] == "0" and card[1] in spec.suits:
        raise ValueError(message("rules", "'{card}' is not a card (0 is only in the Rocca "
                                 "deck): {hint}", card=text.strip(), hint=_hint(spec)))
    raise ValueError(message("rules", "'{card}' is not a card: {hint}", card=text.strip(),
                             hint=_hint(spec)))


def parse_cards(cards: str | Iterable[str], deck: str = "standard") -> list[str]:
    """Parse several cards: a list of strings, or one string separated by spaces or commas.

    Returns canonical cards in the order given (an empty input gives an empty list);
    the first bad card raises ValueError naming it.
    """
    if isinstance(cards, str):
        items = [item for item in _SEPARATORS.split(cards.strip()) if item]
    elif isinstance(cards, Iterable) and not isinstance(cards, (bytes, dict)):
        items = list(cards)
    else:
        raise ValueError(N_("Cards must be a list, or text with cards separated by spaces."))
    return [parse_card(item, deck) for item in items]


def split_card(card: str, deck: str = "standard") -> Card:
    """Split a card into ``Card(rank, suit)``; the joker/bird is ``Card("JK"/"ROOK", None)``."""
    card = parse_card(card, deck)
    if card == _DECKS[deck].special:
        return Card(card, None)
    return Card(card[:-1], card[-1])


def is_joker(card: str, deck: str = "standard") -> bool:
    """True for the joker ``JK`` (standard and Rocca decks); the Rook bird is not a joker."""
    return parse_card(card, deck) == "JK"


def rank_value(card: str, deck: str = "standard") -> int | None:
    """The rank as a number, or None for the joker and the Rook bird.

    standard: A=1, 2–10, J=11, Q=12, K=13; rocca adds 0=0; ucd: 1–7, Moon=8, Sun=9,
    Galaxy=10; rook: the card's number.
    """
    rank, suit = split_card(card, deck)
    if suit is None:
        return None
    return _RANK_VALUES[deck][rank]


def format_card(card: str, deck: str = "standard") -> str:
    """A label for people: "10♥", "Q♠", "Joker"; ucd "Moon of S", "5 of J"; rook "14 Red",
    "Rook bird"."""
    rank, suit = split_card(card, deck)
    spec = _DECKS[deck]
    # Labels with words are Saids (the web's say() shows them in the phone's language,
    # also as values of other sentences); "10♥" is notation and stays a plain str.
    if suit is None:
        return _word(N_("Joker")) if rank == "JK" else _word(N_("Rook bird"))
    if deck == "ucd":
        return message("rules", "{rank} of {suit}", rank=spec.rank_names.get(rank, rank),
                       suit=suit)
    if deck == "rook":
        return message("rules", "{rank} {colour}", rank=rank, colour=spec.suit_names[suit])
    return f"{rank}{spec.suit_names[suit]}"


def all_cards(deck: str = "standard") -> tuple[str, ...]:
    """Every distinct canonical card of a deck (one copy each), suit by suit, special last."""
    spec = _deck(deck)
    cards = tuple(rank + suit for suit in spec.suits for rank in spec.ranks)
    return cards + ((spec.special,) if spec.special else ())


def picker_deck(deck: str = "standard") -> dict:
    """What a card picker shows for `deck` (templates/_cards.html draws its buttons from it,
    and the page's hand display reads the suit symbols back from those buttons).

    ``ranks``: (code, word for people) in order; ``suits``: (code, symbol, word);
    ``symbols``: suit -> symbol; ``marks``: rank -> the mark printed on the card where it
    isn't the rank itself (Moon ☾, Sun ☀, Galaxy ✦); ``joker``: whether the deck has the
    joker ``JK``. The words are English msgids, shown through the page's ``say()``.
    """
    spec = _deck(deck)
    words = spec.suit_words or spec.suit_names
    symbols = {suit: _SYMBOLS[suit] if spec.suit_names is _SYMBOLS else suit
               for suit in spec.suits}
    return {
        "ranks": [(rank, spec.rank_names.get(rank, rank)) for rank in spec.ranks],
        "suits": [(suit, symbols[suit], words.get(suit, suit)) for suit in spec.suits],
        "symbols": symbols,
        "marks": dict(spec.rank_marks or {}),
        "joker": spec.special == "JK",
    }
