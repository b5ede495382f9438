"""RockIt to Destiny: the rummy-like card game (slug ``rockit``, RULES.md §4).

settings: ``decks`` — 1 (2 players only: 54 cards, 2 jokers) or 2 (up to 5 players: 108
cards, 4 jokers); left out, it follows RID-1 (1 deck for 2 players, 2 for more). ``target``
— games to win the match (optional; without it the match runs until the table finishes it).

2–5 seats in seating order; seat 0 starts the first game (seat the player the chance method
picked first), and afterwards the previous winner starts (RID-2).

actions (the first two are the contract's):

- ``{"kind": "come_in", "player": p, "cards": [...]}`` — the player comes in with one
  trick from hand: no jokers, at least 30 points (RID-4). Once per player per game.
- ``{"kind": "win", "player": p}`` — the player went out (RID-9) and the game ends; the
  next game starts at once, the winner starting and nobody come in. Refused for a player
  who has not come in this game. ``"how": "blocked"`` (optional; the default is ``"out"``)
  records a blocked game instead (RID-A7: the draw pile is empty and everyone passed):
  the fewest cards in hand wins, whether or not that player came in. With it, optional
  ``"hands": {player: count or [cards]}`` lets the rules check that the winner holds the
  fewest cards (a tie: the fewest points, when the cards are given; see
  :func:`blocked_winners`).
- ``{"kind": "finish"}`` — the table ends the match (after at least one game): the most
  games won wins.

totals = games won. The match is over when a player reaches ``target`` games, or when the
table finishes it; until then ``winners`` is empty and ``leaders`` shows the most wins.

Rule functions (pure; cards in the notation of :mod:`companion.rules.cards`, upper case
out): :func:`check_trick`, :func:`check_come_in`, :func:`arrange`, :func:`check_board`,
:func:`review_board`, :func:`joker_identity`, :func:`check_steal`, :func:`card_points`,
:func:`check_deck`; the card-checking ones take ``decks`` (1, 2, or None = up to two
decks) for the copy limits of RID-1, and the trick checks a ``declared`` list of the cards
the jokers were declared as (RID-A5; :func:`parse_trick` reads "5♥ 6♥ JK, joker = 4♥").
:func:`blocked_winners` says who wins a blocked game (RID-A7). :func:`check_play` says
whether a player may play on the board yet. The search behind :func:`arrange` is
:mod:`companion.rules.rockit_solver`.
Rule IDs are those of RULES.md §4 (:data:`RULES`); the choices made are written up in
docs/RULES-NOTES.md.
"""

from __future__ import annotations

import copy
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .cards import format_card, parse_cards
from .game import Game, Setting, check_seats, check_settings
from .rockit_solver import N_RANKS, N_SUITS, Placed, solve
from .said import N_, Said, joined, listing, message, said_of
from .text import join_names, number
from .verdict import RuleError, Verdict

__all__ = [
    "COME_IN_POINTS",
    "GAME",
    "RULES",
    "SETTINGS",
    "apply",
    "arrange",
    "card_points",
    "check_board",
    "check_come_in",
    "check_deck",
    "check_play",
    "check_steal",
    "check_trick",
    "joker_identity",
    "blocked_winners",
    "new",
    "parse_trick",
    "play_order",
    "review_board",
    "review_layout",
    "summary",
]

SLUG = "rockit"
NAME = "RockIt to Destiny"
MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_SIZE = 14
COME_IN_POINTS = 30
JOKER = "JK"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
_RANK = {rank: i for i, rank in enumerate(RANKS)}
_SUIT = {suit: i for i, suit in enumerate(SUITS)}

RULES: dict[str, str] = {
    "RID-1": N_("Two players use one deck with 2 jokers (54 cards); up to five players use two "
                "decks with 4 jokers (108 cards)."),
    "RID-2": N_("Each player picks 14 cards face down and the rest is the draw pile; the "
                "winner of a game starts the next one."),
    "RID-3": N_("A trick is a set (3 or 4 cards of one rank, all of different suits, even "
                "with two decks) or a run (3 or more cards in a row of one suit; the Ace is "
                "high or low, and K-A-2 is a run)."),
    "RID-4": N_("To come in, a player lays one new trick from hand, without jokers, worth at "
                "least 30: Ace 1, 2 to 10 their number, J, Q and K 10, and any set 30."),
    "RID-5": N_("On a turn a player either plays (only after coming in; before that only the "
                "come-in) or draws one card; passing without drawing is not allowed."),
    "RID-6": N_("After coming in a player may lay new tricks, add to tricks (runs at either "
                "end, sets up to 4, a run split into parts of 3 or more) and rearrange the "
                "board, never taking a card back into the hand."),
    "RID-7": N_("A turn ends with \"RockIt\", and then every trick on the board must be valid, "
                "with 3 or more cards."),
    "RID-8": N_("A joker stands for one card; a joker on the board may be taken only by "
                "putting that exact card from hand in its place and using the joker at once "
                "in a new trick of hand cards."),
    "RID-9": N_("A player who has played every card, with every trick on the board valid, "
                "wins the game; games won are the only score."),
    "RID-A1": N_("Any set, of 3 or of 4 cards, counts 30 for coming in."),
    "RID-A2": N_("A come-in needs at least 30 points, not exactly 30."),
    "RID-A3": N_("A run may pass from K to A once: it never holds a rank twice, so it has at "
                 "most 13 cards (Q-K-A-2-3 is a run)."),
    "RID-A4": N_("Coming in is the whole turn: no further plays in that turn."),
    "RID-A5": N_("A joker's card is declared when it is laid; in a 3-card set either missing "
                 "suit may replace it; a joker on the board keeps its card when moved; every "
                 "trick needs at least one card that is not a joker."),
    "RID-A6": N_("\"RockIt\" is refused until the board is valid; the player may put the board "
                 "back as it was at the start of the turn."),
    "RID-A7": N_("When the draw pile is empty a player who does not play passes; if everyone "
                 "passes in turn, the fewest cards in hand wins (ties: the fewest points)."),
    "RID-A8": N_("The Ace counts 1 point even when it is played high (Q-K-A is 21)."),
}

SETTINGS: tuple[Setting, ...] = (
    Setting("decks", N_("Decks"), "int", None, 1, 2,
            help=N_("1 deck with 2 jokers is for 2 players only; 2 decks with 4 jokers for "
                    "up to 5. Leave it blank for 1 deck with 2 players and 2 decks with "
                    "more."),
            rule="RID-1"),
    Setting("target", N_("Games to win the match"), "int", None, 1, 99,
            help=N_("The match ends when a player has won this many games. Leave it blank "
                    "to play on until the table finishes the match."),
            rule="RID-9"),
)


# ---------------------------------------------------------------------------------------
# Cards.

def _cards(cards: Any) -> list[str]:
    """Canonical cards (upper case); ValueError naming a bad card."""
    return parse_cards(cards, "standard")


def _rank_suit(card: str) -> tuple[int, int]:
    return _RANK[card[:-1]], _SUIT[card[-1]]


def _card(rank: int, suit: int) -> str:
    return RANKS[rank % N_RANKS] + SUITS[suit]


def _show(cards: Iterable[str]) -> str:
    return " ".join(format_card(card) for card in cards)


def _times(count: int) -> Said:
    if count == 1:
        return message("rockit", "once")
    if count == 2:
        return message("rockit", "twice")
    return message("rockit", "{count} times", count=count)


# Counted nouns ("1 card", "3 cards"), each a Said so that a translation counts them its
# own way.

def _n_cards(count: int) -> Said:
    if count == 1:
        return message("rockit", "1 card")
    return message("rockit", "{n} cards", n=number(count))


def _n_jokers(count: int) -> Said:
    if count == 1:
        return message("rockit", "1 joker")
    return message("rockit", "{n} jokers", n=number(count))


def _n_tricks(count: int) -> Said:
    if count == 1:
        return message("rockit", "1 trick")
    return message("rockit", "{n} tricks", n=number(count))


def _n_games(count: int) -> Said:
    if count == 1:
        return message("rockit", "1 game")
    return message("rockit", "{n} games", n=number(count))


#: "nobody" in RockIt's sentences (join_names' word for no names).
_NOBODY = message("rockit", "nobody")


def _either(cards: Iterable[str]) -> Said:
    """"3♦", "Q♠ or Q♦", "Q♠, Q♥ or Q♦": cards in notation, joined with "or"."""
    return listing([format_card(card) for card in cards], message("rules", "or"))


def card_points(card: str) -> int:
    """A card's value for coming in (RID-4) and for the blocked-game tie-break (RID-A7):
    Ace 1 (even when high, RID-A8), 2–10 their number, J/Q/K 10, joker 0."""
    card = _cards([card])[0]
    if card == JOKER:
        return 0
    return min(_RANK[card[:-1]] + 1, 10)


def _limits(decks: int | None) -> tuple[int, int]:
    """(copies of each card, jokers) allowed with ``decks`` decks; None = two decks."""
    if decks is None:
        decks = 2
    if decks not in (1, 2) or isinstance(decks, bool):
        raise ValueError(message("rockit", "RockIt is played with 1 or 2 decks, not "
                                           "{decks!r}.", decks=decks))
    return decks, 2 * decks


def _deck_problem(cards: list[str], decks: int | None) -> Said | None:
    """A sentence if ``cards`` hold more copies of a card or more jokers than the decks
    have (RID-1), else None."""
    copies, jokers = _limits(decks)
    counts = Counter(cards)
    extra_jokers = counts.pop(JOKER, 0)
    if extra_jokers > jokers:
        if copies == 1:
            return message("rockit", "One deck has only {jokers} jokers, but there are "
                                     "{extra}.", jokers=jokers, extra=extra_jokers)
        return message("rockit", "Two decks have only {jokers} jokers, but there are "
                                 "{extra}.", jokers=jokers, extra=extra_jokers)
    for card, count in counts.items():
        if count > copies:
            if copies == 1:
                return message("rockit", "One deck has only one {card}, but it appears "
                                         "{times}.", card=format_card(card),
                               times=_times(count))
            return message("rockit", "Two decks have only 2 of each card, but {card} "
                                     "appears {times}.", card=format_card(card),
                           times=_times(count))
    return None


def check_deck(cards: Any, decks: int | None = None) -> Verdict:
    """Do these cards fit in the decks (RID-1)? With one deck: at most 1 copy of each card
    and 2 jokers; with two decks (or ``decks`` None): 2 copies and 4 jokers."""
    cards = _cards(cards)
    problem = _deck_problem(cards, decks)
    copies, jokers = _limits(decks)
    details = {"cards": cards, "copies": copies, "jokers": jokers}
    if problem:
        return Verdict(False, problem, "RID-1", details)
    if copies == 1:
        return Verdict(True, message("rockit", "These {cards} fit in one deck.",
                                     cards=_n_cards(len(cards))), "RID-1", details)
    return Verdict(True, message("rockit", "These {cards} fit in two decks.",
                                 cards=_n_cards(len(cards))), "RID-1", details)


# ---------------------------------------------------------------------------------------
# Tricks.

def _run_starts(ranks: list[int], length: int) -> list[int]:
    """Every first rank of a ``length``-card arc of the A..K cycle that holds ``ranks``."""
    return [start for start in range(N_RANKS)
            if all((rank - start) % N_RANKS < length for rank in ranks)]


def _run_in_order(cards: list[str]) -> list[str] | None:
    """The cards each position stands for, if ``cards`` lie in run order (up or down) with
    one reading only; None otherwise."""
    naturals = [(i, *_rank_suit(card)) for i, card in enumerate(cards) if card != JOKER]
    suit = naturals[0][2]
    readings = []
    for step in (1, -1):
        first = {(rank - step * i) % N_RANKS for i, rank, _ in naturals}
        if len(first) == 1:
            start = first.pop()
            readings.append([_card(start + step * i, suit) for i in range(len(cards))])
    return readings[0] if len(readings) == 1 else None


def _analyse(cards: list[str], positional: bool = True) -> dict[str, Any]:
    """Read a trick (cards already canonical).

    Returns ``ok``, ``reason``, ``rule``, ``kinds`` (the ways it is valid: "set", "run"),
    ``options`` (per joker, in trick order, the cards it may stand for), ``layout`` (a
    run's cards in order with each joker as the card it stands for, when that is clear)
    and ``wraps`` (that run passes from K to A). ``positional`` False ignores the order
    the cards were typed in (a run's jokers then list every card they could be): what a
    declared joker is checked against (RID-A5).
    """
    jokers = [i for i, card in enumerate(cards) if card == JOKER]
    naturals = [card for card in cards if card != JOKER]
    result: dict[str, Any] = {"ok": False, "kinds": [], "options": [[] for _ in jokers],
                              "layout": None, "wraps": False}

    def refuse(reason: Said, rule: str) -> dict[str, Any]:
        result.update(reason=reason, rule=rule)
        return result

    if not cards:
        return refuse(message("rockit", "A trick needs at least 3 cards; there are none."),
                      "RID-3")
    if len(cards) < 3:
        return refuse(message("rockit", "A trick needs at least 3 cards; this one has "
                                        "{count}.", count=len(cards)), "RID-3")
    if not naturals:
        return refuse(message("rockit", "Jokers alone do not make a trick: it needs at "
                                        "least one card that is not a joker."), "RID-A5")
    ranks = [_rank_suit(card)[0] for card in naturals]
    suits = [_rank_suit(card)[1] for card in naturals]
    repeated = [card for card, count in Counter(naturals).items() if count > 1]
    options: list[set[str]] = [set() for _ in jokers]
    problems: list[tuple[Said, str]] = []
    if len(set(ranks)) == 1:                      # a set: one rank, different suits
        if repeated:
            text = message("rockit", "A set needs cards of different suits, even with two "
                                     "decks: {card} appears {times}.",
                           card=format_card(repeated[0]),
                           times=_times(naturals.count(repeated[0])))
            problems.append((text, "RID-3"))
        elif len(cards) > 4:
            text = message("rockit", "A set has at most 4 cards, one of each suit; this one "
                                     "has {count}.", count=len(cards))
            problems.append((text, "RID-3"))
        else:
            result["kinds"].append("set")
            missing = [_card(ranks[0], s) for s in range(N_SUITS) if s not in suits]
            for option in options:
                option.update(missing)
    if (len(set(suits)) == 1 and len(set(ranks)) > 1) or len(naturals) == 1:
        if repeated:                               # a run: one suit, in a row
            text = message("rockit", "A run cannot hold the same card twice: {card} "
                                     "appears {times}.", card=format_card(repeated[0]),
                           times=_times(naturals.count(repeated[0])))
            problems.append((text, "RID-A3"))
        elif len(cards) > N_RANKS:
            text = message("rockit", "A run has at most 13 cards (it cannot reach a rank "
                                     "twice); this one has {count}: split it.",
                           count=len(cards))
            problems.append((text, "RID-A3"))
        else:
            starts = _run_starts(ranks, len(cards))
            if not starts:
                if jokers:
                    text = message("rockit", "These cards are not in a row, even with the "
                                             "jokers in the gaps: {cards}.",
                                   cards=_show(naturals))
                else:
                    text = message("rockit", "These cards are not in a row: {cards}.",
                                   cards=_show(naturals))
                problems.append((text, "RID-3"))
            else:
                result["kinds"].append("run")
                arcs = [[_card(start + i, suits[0]) for i in range(len(cards))]
                        for start in starts]
                ordered = _run_in_order(cards) if positional else None
                if ordered is not None:           # laid out in order: places decide
                    for n, i in enumerate(jokers):
                        options[n].add(ordered[i])
                    result["layout"] = ordered
                else:
                    for option in options:
                        option.update(c for arc in arcs for c in arc if c not in naturals)
                    if len(arcs) == 1:
                        result["layout"] = arcs[0]
                if result["layout"] is not None:
                    first = _rank_suit(result["layout"][0])[0]
                    last = _rank_suit(result["layout"][-1])[0]
                    result["wraps"] = last < first
    if not result["kinds"]:
        if problems:
            return refuse(*problems[0])
        return refuse(message("rockit", "This is neither a set (one rank, different suits) "
                                        "nor a run (one suit, in a row)."), "RID-3")
    if "set" in result["kinds"] and "run" in result["kinds"]:
        result["layout"] = None                   # 5H JK JK: a set or a run
        result["wraps"] = False
    result["options"] = [sorted(option, key=_order_key) for option in options]
    result["ok"] = True
    result["rule"] = "RID-3"
    return result


def _order_key(card: str) -> tuple[int, int]:
    rank, suit = _rank_suit(card)
    return rank, suit


def _joker_label(options: list[str]) -> Said:
    if not options:
        return message("rockit", "Joker")
    return message("rockit", "Joker ({cards})", cards=_either(options))


def _declarations(declared: Any) -> list[str]:
    """The cards declared for a trick's jokers (RID-A5): None or empty for none, one card,
    or several (text or a list); ValueError for bad notation."""
    if declared is None:
        return []
    if isinstance(declared, str):
        return _cards(declared)
    return _cards(list(declared))


def _read(cards: list[str], declared: list[str]) -> dict[str, Any]:
    """:func:`_analyse` with the jokers' declared cards (RID-A5).

    Undeclared, a run typed in order fixes its jokers by their places. Declared, the
    declaration decides, whatever the order the cards were typed in: the trick must be
    valid (order aside) and stay valid with the declared cards in the jokers' places
    (which joker is which does not matter: jokers are alike). Jokers left undeclared list
    the cards they could still be.
    """
    if not declared:
        return _analyse(cards)
    free = _analyse(cards, positional=False)
    if not free["ok"]:
        return free
    jokers = [i for i, card in enumerate(cards) if card == JOKER]

    def refuse(reason: str) -> dict[str, Any]:
        free.update(ok=False, reason=reason, rule="RID-A5", kinds=[], layout=None,
                    wraps=False, options=[[] for _ in jokers])
        return free

    if JOKER in declared:
        return refuse(N_("A joker is declared as the card it stands for, not as a joker."))
    if not jokers:
        return refuse(N_("A joker's card was declared, but this trick has no joker."))
    if len(declared) > len(jokers):
        return refuse(message("rockit", "{declared} declared, but this trick has {jokers}.",
                              declared=_n_jokers(len(declared)),
                              jokers=_n_jokers(len(jokers))))
    rest = len(jokers) - len(declared)
    naturals = [card for card in cards if card != JOKER]
    named = _analyse(sorted(naturals + list(declared), key=_order_key) + [JOKER] * rest,
                     positional=False)
    shown = listing([format_card(card) for card in declared], message("rules", "and"))
    if not named["ok"]:
        again = [card for card in declared if card in naturals]
        if again:
            return refuse(message("rockit", "{card} is already in this trick, so a joker "
                                            "cannot stand for it.",
                                  card=format_card(again[0])))
        if len(declared) == 1:
            return refuse(message("rockit", "With the joker as {cards} the trick is not "
                                            "valid: {reason}",
                                  cards=shown, reason=_lower_first(named["reason"])))
        return refuse(message("rockit", "With the jokers as {cards} the trick is not valid: "
                                        "{reason}",
                              cards=shown, reason=_lower_first(named["reason"])))
    layout = named["layout"]
    if layout is not None:                        # a run: the declared cards in run order
        declared = sorted(declared, key=layout.index)
    options = [[card] for card in declared] + named["options"]
    named["options"] = options
    return named


#: How a typed trick declares its jokers: "5H 6H JK, joker = 4H", "jokers = 4H 7H" at the
#: end, or in place: "5H 6H JK=4H".
_DECLARE_TAIL = re.compile(r"\s*,?\s*\bjokers?\s*[=:]\s*", re.IGNORECASE)
_DECLARE_HERE = re.compile(r"\b(?:JK|joker)\s*=\s*([^\s,=]+)", re.IGNORECASE)
_SUIT_MARKS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D",
                             "♣": "C", "♧": "C", "🃏": " JK "})


def parse_trick(text: Any) -> tuple[list[str], list[str]]:
    """A trick as typed at the table: ``(cards, declared)``, both canonical.

    Cards are written as everywhere (``5H``, ``JK``), suit symbols allowed (``5♥``), and
    the word ``joker`` is a joker. Jokers may be declared (RID-A5) at the end
    (``5♥ 6♥ JK, joker = 4♥``; ``jokers = 4H 7H``) or in place (``5H 6H JK=4H``); the
    order the cards are typed in does not matter then. A list of cards is read the same
    way. ValueError naming a bad card.
    """
    if not isinstance(text, str):
        if isinstance(text, Iterable) and not isinstance(text, (bytes, Mapping)):
            text = " ".join(str(item) for item in text)
        else:
            return _cards(text), []
    text = text.translate(_SUIT_MARKS)
    head, *tails = _DECLARE_TAIL.split(text)
    declared: list[str] = []

    def here(match: re.Match) -> str:
        declared.extend(_cards([match.group(1)]))
        return " JK "

    head = _DECLARE_HERE.sub(here, head)
    head = re.sub(r"\bjoker\b", " JK ", head, flags=re.IGNORECASE)
    cards = _cards(head)
    for tail in tails:
        declared.extend(_cards(tail))
    return cards, declared


def _describe(cards: list[str], reading: dict[str, Any]) -> Said:
    """A sentence for a valid trick: "A valid run: A♦ 2♦ Joker (3♦) 4♦." """
    kinds = reading["kinds"]
    layout = reading["layout"]
    naturals = {card for card in cards if card != JOKER}
    if layout is not None:
        shown = [format_card(c) if c in naturals else _joker_label([c]) for c in layout]
    else:
        options = iter(reading["options"])
        shown = [_joker_label(next(options)) if c == JOKER else format_card(c)
                 for c in cards]
    shown = joined(shown)
    if len(kinds) == 2:
        return message("rockit", "A valid set or run: {cards}.", cards=shown)
    if kinds[0] == "set":
        return message("rockit", "A valid set: {cards}.", cards=shown)
    if reading["wraps"]:
        return message("rockit", "A valid run through the Ace: {cards}.", cards=shown)
    return message("rockit", "A valid run: {cards}.", cards=shown)


def _joker_details(cards: list[str], reading: dict[str, Any]) -> list[dict[str, Any]]:
    """Per joker of the trick: its place, the card it stands for (if only one fits) and
    every card that fits."""
    jokers = [i for i, card in enumerate(cards) if card == JOKER]
    out = []
    for n, i in enumerate(jokers):
        options = reading["options"][n] if reading["ok"] else []
        out.append({"index": i, "card": options[0] if len(options) == 1 else None,
                    "options": list(options)})
    return out


def check_trick(cards: Any, decks: int | None = None, declared: Any = None) -> Verdict:
    """Is this one valid trick (RID-3)? A set (3–4 cards of one rank, different suits) or a
    run (3–13 cards of one suit in a row, K-A-2 allowed, no rank twice: RID-A3); jokers
    fill gaps (RID-8) but a trick needs a natural card (RID-A5).

    Cards may come in any order. ``declared``: the cards the jokers were declared as
    (RID-A5; one card, or a list, at most one per joker): the verdict then follows the
    declaration whatever the order of the cards (5H 6H JK declared 4H is 4-5-6), and a
    declaration that does not fit is a RID-A5 verdict. Undeclared, a run typed in order
    fixes each joker by its place. ``details``: ``cards`` (upper case), ``kind`` ("set",
    "run", or None when invalid or when it can be read either way, e.g. 5H JK JK),
    ``kinds``, ``size``, ``jokers`` (per joker: ``index`` in the trick, ``card`` when only
    one card fits, ``options``), ``layout`` (a run's cards in order, jokers as the cards
    they stand for, when that is clear), ``wraps`` (the run passes from K to A) and
    ``declared`` (the declared cards, upper case). Bad notation raises ValueError; more
    copies than the decks have is a RID-1 verdict (a joker may be declared as any card,
    even one whose copies are all in play).
    """
    cards = _cards(cards)
    named = _declarations(declared)
    problem = _deck_problem(cards, decks)
    reading = _read(cards, named)
    details = {"cards": cards, "size": len(cards), "kinds": list(reading["kinds"]),
               "kind": reading["kinds"][0] if len(reading["kinds"]) == 1 else None,
               "jokers": _joker_details(cards, reading), "layout": reading["layout"],
               "wraps": reading["wraps"], "declared": named}
    if problem:
        return Verdict(False, problem, "RID-1", details)
    if not reading["ok"]:
        return Verdict(False, reading["reason"], reading["rule"], details)
    return Verdict(True, _describe(cards, reading), "RID-3", details)


def joker_identity(trick: Any, decks: int | None = None, declared: Any = None) -> Verdict:
    """Which card each joker of a trick stands for (RID-8, RID-A5).

    A declared joker (``declared``, as for :func:`check_trick`) stands for its declared
    card, whatever the order the cards were typed in. Otherwise a run laid out in order
    (up or down) fixes every joker by its place: A♦ 2♦ JK 4♦ makes the joker 3♦. In a set,
    a joker is one of the missing suits (either one in a 3-card set, unless the player
    declared a suit); a joker at the end of a run in no clear order (5♥ JK 6♥) may be
    either end, and must be declared. ``details["jokers"]``: per joker, ``index`` in the
    trick, ``card`` (None while more than one card fits) and ``options``. Not ok when the
    trick is not valid, or the declaration does not fit it.
    """
    verdict = check_trick(trick, decks, declared)
    jokers = verdict.details["jokers"]
    details = {"cards": verdict.details["cards"], "jokers": jokers,
               "kind": verdict.details["kind"]}
    if not verdict:
        return Verdict(False, verdict.reason, verdict.rule, details)
    if not jokers:
        return Verdict(True, message("rockit", "There is no joker in this trick."), "RID-8",
                       details)
    parts = []
    for joker in jokers:
        place = joker["index"] + 1
        first = not parts                   # the sentence starts with a capital letter
        if joker["card"]:
            card = format_card(joker["card"])
            parts.append(message("rockit", "The joker in place {place} is {card}",
                                 place=place, card=card) if first else
                         message("rockit", "the joker in place {place} is {card}",
                                 place=place, card=card))
        else:
            choices = _either(joker["options"])
            parts.append(message("rockit", "The joker in place {place} may be {cards} (the "
                                           "player declares which)",
                                 place=place, cards=choices) if first else
                         message("rockit", "the joker in place {place} may be {cards} (the "
                                           "player declares which)",
                                 place=place, cards=choices))
    rule = "RID-8" if all(j["card"] for j in jokers) else "RID-A5"
    return Verdict(True, message("rockit", "{clauses}.", clauses=joined(parts, "; ")), rule,
                   details)


def check_come_in(cards: Any, decks: int | None = None) -> Verdict:
    """May a player come in with these cards (RID-4)? One valid trick, no jokers, worth at
    least 30 (RID-A2): any set counts 30 (RID-A1), a run the sum of its cards (Ace 1 even
    high, RID-A8; J/Q/K 10). ``details``: ``points`` (0 when not a trick), ``needed`` (30),
    ``kind``, ``cards``."""
    cards = _cards(cards)
    trick = check_trick([card for card in cards if card != JOKER] if JOKER in cards
                        else cards, decks)
    kind = trick.details["kind"] or (trick.details["kinds"][0] if trick.details["kinds"]
                                     else None)
    points = 0
    if trick:
        points = COME_IN_POINTS if kind == "set" else sum(card_points(c) for c in cards)
    details = {"cards": cards, "points": points, "needed": COME_IN_POINTS, "kind": kind}
    if JOKER in cards:
        return Verdict(False, message("rockit", "Jokers are not allowed in the come-in "
                                                "trick."), "RID-4", details)
    if not trick:
        return Verdict(False, message("rockit", "That is not a valid trick, so it cannot come "
                                                "in: {reason}",
                                      reason=_lower_first(trick.reason)), trick.rule, details)
    if points < COME_IN_POINTS:
        if kind == "set":
            text = message("rockit", "This set is worth {points} points; coming in needs at "
                                     "least {needed}.", points=points, needed=COME_IN_POINTS)
        else:
            text = message("rockit", "This run is worth {points} points; coming in needs at "
                                     "least {needed}.", points=points, needed=COME_IN_POINTS)
        return Verdict(False, text, "RID-4", details)
    if kind == "set":
        rule = "RID-A1" if len(cards) == 4 else "RID-4"
        return Verdict(True, message("rockit", "Comes in: any set counts {points}.",
                                     points=COME_IN_POINTS), rule, details)
    rule = "RID-A2" if points > COME_IN_POINTS else "RID-4"
    return Verdict(True, message("rockit", "Comes in: this run is worth {points} points (at "
                                           "least {needed} needed).",
                                 points=points, needed=COME_IN_POINTS), rule, details)


# ---------------------------------------------------------------------------------------
# The board: arranging and checking.

def _tricks(tricks: Any) -> list[list[str]]:
    if isinstance(tricks, (str, bytes, Mapping)) or not isinstance(tricks, Iterable):
        raise ValueError(N_("The board must be a list of tricks, each a list of cards."))
    return [_cards(trick) for trick in tricks]


def _arrangement(tricks: list[list[Placed]]) -> list[list[str]]:
    """The solver's tricks as cards (jokers as JK): runs in order, sorted by suit and first
    rank, then sets by rank with suits in S H D C order."""
    runs, sets = [], []
    for trick in tricks:
        ranks = {card.rank for card in trick}
        cards = [JOKER if card.joker else _card(card.rank, card.suit) for card in trick]
        if len(ranks) == 1 and len(trick) > 1:
            order = sorted(range(len(trick)), key=lambda i: (trick[i].joker, trick[i].suit))
            sets.append((trick[0].rank, [cards[i] for i in order]))
        else:
            runs.append(((trick[0].suit, trick[0].rank), cards))
    runs.sort(key=lambda item: item[0])
    sets.sort(key=lambda item: item[0])
    return [cards for _, cards in runs] + [cards for _, cards in sets]


def arrange(cards: Any, decks: int | None = None,
            budget: float | None = None) -> list[list[str]] | None:
    """Split the cards into valid tricks (jokers wild, K-A-2 runs allowed) and return one
    such split, or None when there is none (RULES.md §4.6).

    Every card is used exactly once; runs come in order, jokers written JK. Raises
    RuleError (RID-1) when the cards hold more copies than the decks have (one deck: 1
    copy of each card and 2 jokers; two decks or None: 2 copies and 4 jokers), ValueError
    for bad notation, and TimeoutError when ``budget`` seconds run out ("not decided").
    """
    cards = _cards(cards)
    problem = _deck_problem(cards, decks)
    if problem:
        raise RuleError(problem, rule="RID-1")
    cnt = [[0] * N_SUITS for _ in range(N_RANKS)]
    jokers = 0
    for card in cards:
        if card == JOKER:
            jokers += 1
        else:
            rank, suit = _rank_suit(card)
            cnt[rank][suit] += 1
    deadline = None if budget is None else time.monotonic() + budget
    tricks = solve(cnt, jokers, deadline)
    return None if tricks is None else _arrangement(tricks)


def _declared_per_trick(declared: Any, count: int) -> list[Any]:
    """One declaration (None: none) per trick of the board."""
    if declared is None:
        return [None] * count
    if isinstance(declared, (str, bytes, Mapping)) or not isinstance(declared, Iterable):
        raise ValueError(N_("Declared jokers must be a list with one entry per trick."))
    declared = list(declared)
    if len(declared) > count:
        raise ValueError(N_("Declared jokers must be a list with one entry per trick."))
    return declared + [None] * (count - len(declared))


def check_board(tricks: Any, decks: int | None = None, declared: Any = None) -> Verdict:
    """Is every trick on the board valid, so "RockIt" may be said (RID-7)?

    ``tricks`` is a list of tricks, each a list of cards; ``declared`` (optional) a list
    with one entry per trick: the cards that trick's jokers were declared as (None: none;
    see :func:`check_trick`, RID-A5). Not ok when a trick is invalid
    (a fragment of 1–2 cards included: RID-A6) or the board holds more copies than the
    decks (RID-1). ``details``: ``bad`` — one ``{"index", "cards", "reason", "rule"}`` per
    bad trick (index from 0) — ``tricks`` (every trick's verdict as a dict), ``count``
    (cards on the board).
    """
    board = _tricks(tricks)
    named = _declared_per_trick(declared, len(board))
    every = [card for trick in board for card in trick]
    results = []
    bad = []
    for index, trick in enumerate(board):
        verdict = check_trick(trick, declared=named[index])
        results.append({"index": index, "cards": trick, "ok": verdict.ok,
                        "reason": verdict.reason, "rule": verdict.rule,
                        "kind": verdict.details["kind"], "jokers": verdict.details["jokers"],
                        "layout": verdict.details["layout"]})
        if not verdict:
            bad.append({"index": index, "cards": trick, "reason": verdict.reason,
                        "rule": verdict.rule})
    details = {"bad": bad, "tricks": results, "count": len(every)}
    problem = _deck_problem(every, decks)
    if problem:
        return Verdict(False, problem, "RID-1", details)
    if len(bad) == 1:
        return Verdict(False, message("rockit", "Trick {number} is not valid: {reason}",
                                      number=bad[0]["index"] + 1,
                                      reason=_lower_first(bad[0]["reason"])), "RID-7", details)
    if bad:
        numbers = join_names([str(b["index"] + 1) for b in bad], nobody=_NOBODY)
        return Verdict(False, message("rockit", "Tricks {numbers} are not valid; the first: "
                                                "{reason}", numbers=numbers,
                                      reason=_lower_first(bad[0]["reason"])), "RID-7", details)
    return Verdict(True, message("rockit", "The board is valid: {tricks}, {cards}.",
                                 tricks=_n_tricks(len(board)), cards=_n_cards(len(every))),
                   "RID-7", details)


#: The sentences a verdict quotes after a colon ("Trick 2 is not valid: a set needs…"), by
#: their English template: each with its lower-case start written out, so that a
#: translation finds it too (see :func:`_lower_first`).
_LOWERED = {
    "A trick needs at least 3 cards; there are none.":
        lambda: message("rockit", "a trick needs at least 3 cards; there are none."),
    "A trick needs at least 3 cards; this one has {count}.":
        lambda count: message("rockit", "a trick needs at least 3 cards; this one has "
                                        "{count}.", count=count),
    "Jokers alone do not make a trick: it needs at least one card that is not a joker.":
        lambda: message("rockit", "jokers alone do not make a trick: it needs at least one "
                                  "card that is not a joker."),
    "A set needs cards of different suits, even with two decks: {card} appears {times}.":
        lambda card, times: message("rockit", "a set needs cards of different suits, even "
                                              "with two decks: {card} appears {times}.",
                                    card=card, times=times),
    "A set has at most 4 cards, one of each suit; this one has {count}.":
        lambda count: message("rockit", "a set has at most 4 cards, one of each suit; this "
                                        "one has {count}.", count=count),
    "A run cannot hold the same card twice: {card} appears {times}.":
        lambda card, times: message("rockit", "a run cannot hold the same card twice: {card} "
                                              "appears {times}.", card=card, times=times),
    "A run has at most 13 cards (it cannot reach a rank twice); this one has {count}: "
    "split it.":
        lambda count: message("rockit", "a run has at most 13 cards (it cannot reach a rank "
                                        "twice); this one has {count}: split it.",
                              count=count),
    "These cards are not in a row, even with the jokers in the gaps: {cards}.":
        lambda cards: message("rockit", "these cards are not in a row, even with the jokers "
                                        "in the gaps: {cards}.", cards=cards),
    "These cards are not in a row: {cards}.":
        lambda cards: message("rockit", "these cards are not in a row: {cards}.",
                              cards=cards),
    "This is neither a set (one rank, different suits) nor a run (one suit, in a row).":
        lambda: message("rockit", "this is neither a set (one rank, different suits) nor a "
                                  "run (one suit, in a row)."),
    "One deck has only {jokers} jokers, but there are {extra}.":
        lambda jokers, extra: message("rockit", "one deck has only {jokers} jokers, but "
                                                "there are {extra}.",
                                      jokers=jokers, extra=extra),
    "Two decks have only {jokers} jokers, but there are {extra}.":
        lambda jokers, extra: message("rockit", "two decks have only {jokers} jokers, but "
                                                "there are {extra}.",
                                      jokers=jokers, extra=extra),
    "One deck has only one {card}, but it appears {times}.":
        lambda card, times: message("rockit", "one deck has only one {card}, but it appears "
                                              "{times}.", card=card, times=times),
    "Two decks have only 2 of each card, but {card} appears {times}.":
        lambda card, times: message("rockit", "two decks have only 2 of each card, but "
                                              "{card} appears {times}.",
                                    card=card, times=times),
    "A joker is declared as the card it stands for, not as a joker.":
        lambda: message("rockit", "a joker is declared as the card it stands for, not as a "
                                  "joker."),
    "A joker's card was declared, but this trick has no joker.":
        lambda: message("rockit", "a joker's card was declared, but this trick has no "
                                  "joker."),
    "With the joker as {cards} the trick is not valid: {reason}":
        lambda cards, reason: message("rockit", "with the joker as {cards} the trick is not "
                                                "valid: {reason}", cards=cards, reason=reason),
    "With the jokers as {cards} the trick is not valid: {reason}":
        lambda cards, reason: message("rockit", "with the jokers as {cards} the trick is not "
                                                "valid: {reason}", cards=cards, reason=reason),
}


def _lower_first(sentence: str) -> str:
    """"A trick needs…" -> "a trick needs…" to follow a colon; "7♥ appears…" stays.

    A Said of :data:`_LOWERED` becomes its lower-case twin (a Said too, translated like
    the original); any other sentence is lowered as text."""
    if len(sentence) > 1 and sentence[0].isupper() and (sentence[1].islower()
                                                         or sentence[1] == " "):
        template = getattr(sentence, "template", None) or str(sentence)
        twin = _LOWERED.get(template)
        if twin is not None and (template == str(sentence) or isinstance(sentence, Said)):
            values = sentence.values if isinstance(sentence, Said) else {}
            return twin(**values)
        return sentence[0].lower() + sentence[1:]
    return sentence


def review_board(tricks: Any, decks: int | None = None,
                 budget: float | None = 1.0, declared: Any = None) -> Verdict:
    """:func:`check_board` plus a way out for the table: when the layout is not valid but
    the same cards can be split into valid tricks, ``details["arrangement"]`` holds such a
    split (else None) and ``details["arrangeable"]`` says whether one exists (None when the
    search ran out of ``budget`` seconds: "not decided"). ``declared``: the jokers'
    declared cards per trick, as for :func:`check_board`. Never raises for bad tricks."""
    verdict = check_board(tricks, decks, declared)
    details = dict(verdict.details, arrangement=None, arrangeable=None)
    if verdict:
        details["arrangeable"] = True
        return Verdict(True, verdict.reason, verdict.rule, details)
    if verdict.rule == "RID-1":
        return Verdict(False, verdict.reason, verdict.rule, details)
    cards = [card for trick in details["tricks"] for card in trick["cards"]]
    try:
        split = arrange(cards, decks, budget)
    except TimeoutError:
        return Verdict(False, message("rockit", "{reason} Whether these cards can be laid out "
                                                "validly was not decided in time.",
                                      reason=verdict.reason), "RID-A6", details)
    details["arrangeable"] = split is not None
    details["arrangement"] = split
    if split is None:
        return Verdict(False, message("rockit", "{reason} No layout of these cards is valid: "
                                                "put the board back as it was at the start "
                                                "of the turn.", reason=verdict.reason),
                       "RID-A6", details)
    return Verdict(False, message("rockit", "{reason} The same cards can be laid out validly, "
                                            "as {tricks}.", reason=verdict.reason,
                                  tricks=_n_tricks(len(split))), "RID-7", details)


def _with_jokers(split: list[list[str]] | None, decks: int | None) -> list[dict] | None:
    """A split's tricks with what each joker stands for (its place in the trick fixes it)."""
    if not split:
        return None
    return [{"cards": list(trick), "jokers": joker_identity(trick, decks).details["jokers"]}
            for trick in split]


def _layout_words(found: bool, total: int, hand: int, loose: int,
                  laid: bool) -> tuple[Said, str]:
    """The sentence and rule of a layout check with cards not yet in a trick."""
    one = hand == 1
    if hand and found:
        if one:
            return (message("rockit", "Your card can join the board: all {total} cards fit "
                                      "in valid tricks, one way shown below.", total=total),
                    "RID-6")
        return (message("rockit", "Your {count} cards can join the board: all {total} cards "
                                  "fit in valid tricks, one way shown below.",
                        count=hand, total=total), "RID-6")
    if hand:
        if one:
            return (message("rockit", "Your card cannot join the board: no layout of these "
                                      "{total} cards is valid. Keep it in hand.", total=total),
                    "RID-7")
        return (message("rockit", "Your {count} cards cannot all join the board: no layout "
                                  "of these {total} cards is valid. Keep them in hand, or lay "
                                  "fewer.", count=hand, total=total), "RID-7")
    left = None
    if laid:
        left = (message("rockit", "1 card is not in a trick yet.") if loose == 1
                else message("rockit", "{count} cards are not in a trick yet.", count=loose))
    if found:
        text = message("rockit", "All {total} cards can be laid out in valid tricks, one way "
                                 "shown below.", total=total)
        rule = "RID-7" if left else "RID-3"
    else:
        text = message("rockit", "No layout of these {total} cards is valid: put the board "
                                 "back as it was at the start of the turn.", total=total)
        rule = "RID-A6"
    return (joined([left, text]) if left else text), rule


def review_layout(tricks: Any = (), loose: Any = (), hand: Any = (), decks: int | None = None,
                  budget: float | None = 1.0, declared: Any = None) -> dict[str, Any]:
    """The whole board check that ends an argument at the table (RULES.md §4.6), composed
    from :func:`check_board`, :func:`review_board`, :func:`check_deck` and :func:`arrange`.

    ``tricks``: the tricks as the players laid them out; ``loose``: cards on the board not
    in a trick yet; ``hand``: cards a player wants to add from hand; ``declared``: the
    jokers' declared cards, one entry per trick (RID-A5, see :func:`check_board`). Returns
    a dict:

    - ``ok``: True (valid / the cards fit), False, or None when not decided in ``budget``
      seconds; ``reason`` (a sentence) and ``rule``;
    - ``rockit``: the board as laid out is valid ("RockIt" may be said; no loose or hand
      cards);
    - ``tricks``: one entry per laid-out trick, in order (:func:`check_board`'s
      ``details["tricks"]``: ``ok``, ``reason``, ``rule``, ``cards``, ``jokers``…);
    - ``arrangement``: None, or a valid layout of all the cards: ``[{"cards", "jokers"}]``,
      each joker's stand-in fixed by its place (:func:`joker_identity`);
    - ``laid``, ``cards``, ``hand``, ``loose``: how many tricks and cards were given.

    ValueError for bad notation or when no card was given at all.
    """
    board = _tricks(tricks)
    pairs = [(trick, named) for trick, named in
             zip(board, _declared_per_trick(declared, len(board))) if trick]
    laid = [trick for trick, _ in pairs]
    declared = [named for _, named in pairs]
    loose, hand = _cards(loose), _cards(hand)
    every = [card for trick in laid for card in trick] + loose + hand
    if not every:
        raise ValueError(N_("There are no cards to check."))
    result: dict[str, Any] = {"ok": None, "reason": "", "rule": "", "rockit": False,
                              "tricks": [], "arrangement": None, "laid": len(laid),
                              "cards": len(every), "hand": len(hand), "loose": len(loose)}
    if laid:
        result["tricks"] = check_board(laid, decks, declared).details["tricks"]
    if not loose and not hand:
        verdict = review_board(laid, decks, budget=budget, declared=declared)
        decided = (verdict.ok or verdict.details["arrangeable"] is not None
                   or verdict.rule == "RID-1")
        result.update(ok=verdict.ok if decided else None, reason=verdict.reason,
                      rule=verdict.rule, rockit=verdict.ok,
                      arrangement=_with_jokers(verdict.details["arrangement"], decks))
        return result
    deck = check_deck(every, decks)
    if not deck:
        result.update(ok=False, reason=deck.reason, rule=deck.rule)
        return result
    try:
        split = arrange(every, decks, budget)
    except TimeoutError:
        result.update(ok=None, rule="RID-7",
                      reason=message("rockit", "Whether these {count} cards can be laid out "
                                               "in valid tricks was not decided in time.",
                                     count=len(every)))
        return result
    # Loose cards beside tricks laid out: the board is not finished (RID-7) even when they
    # fit; cards from hand ask only whether they can join.
    unfinished = bool(laid) and bool(loose) and not hand
    reason, rule = _layout_words(split is not None, len(every), len(hand), len(loose),
                                 bool(laid))
    result.update(ok=split is not None and not unfinished, reason=reason, rule=rule,
                  arrangement=_with_jokers(split, decks))
    return result


def check_steal(trick: Any, replacement: str, new_trick: Any, hand: Any,
                index: int | None = None, declared: Any = None,
                decks: int | None = None) -> Verdict:
    """May a player take the joker from a board trick (RID-8)?

    ``trick`` is the board trick holding the joker (as laid out); ``replacement`` the card
    put in the joker's place; ``new_trick`` the new trick the joker goes into at once;
    ``hand`` the player's hand before the steal. ``index`` picks the joker when the trick
    has several (its place, from 0); ``declared`` is the card the joker was declared as
    (RID-A5), if any, or the cards the trick's jokers were declared as (as for
    :func:`check_trick`): the declaration decides, whatever the order the trick was typed
    in (5♥ 6♥ JK declared 4♥ gives the joker to 4♥, not 7♥). Legal when the replacement is
    exactly the card the joker stands for and comes from the hand, and the new trick is
    valid and made only of hand cards (the replacement excepted) plus the joker.
    """
    cards = _cards(trick)
    replacement = _cards([replacement])[0]
    new_cards = _cards(new_trick)
    hand_cards = _cards(hand)
    details: dict[str, Any] = {"trick": cards, "replacement": replacement,
                               "new_trick": new_cards, "index": index, "stands_for": None}
    jokers = [i for i, card in enumerate(cards) if card == JOKER]
    if not jokers:
        return Verdict(False, message("rockit", "There is no joker in that trick to take."),
                       "RID-8", details)
    board = check_trick(cards, decks)
    if not board:
        return Verdict(False, message("rockit", "The trick holding the joker is not valid: "
                                                "{reason}", reason=_lower_first(board.reason)),
                       board.rule, details)
    if replacement == JOKER:
        return Verdict(False, message("rockit", "A joker is taken by putting the card it "
                                                "stands for in its place, not another joker."),
                       "RID-8", details)
    named = _declarations(declared)
    if named:                                   # the declaration decides (RID-A5)
        board = check_trick(cards, decks, named)
        if not board:
            if len(named) == 1 and JOKER not in named:
                return Verdict(False, message("rockit", "That joker cannot stand for {card} "
                                                        "in this trick.",
                                              card=format_card(named[0])), "RID-A5", details)
            return Verdict(False, board.reason, board.rule, details)
    options = {j["index"]: j["options"] for j in board.details["jokers"]}
    if index is not None and index not in jokers:
        return Verdict(False, message("rockit", "There is no joker in place {place} of that "
                                                "trick.", place=index + 1), "RID-8", details)
    if len(named) == 1 and index is not None:   # the joker taken is the declared one
        options[index] = named
    if index is None:
        index = next((i for i in jokers if replacement in options[i]), jokers[0])
    details["index"] = index
    fits = options[index]
    details["stands_for"] = fits[0] if len(fits) == 1 else list(fits)
    if replacement not in fits:
        said = _either(fits)
        if replacement in cards:
            reason = message("rockit", "{card} is already in that trick: the joker stands for "
                                       "{cards}.", card=format_card(replacement), cards=said)
        elif len(fits) == 1:
            reason = message("rockit", "The joker stands for {cards}, so only that card can "
                                       "take its place.", cards=said)
        else:
            reason = message("rockit", "The joker stands for {cards}, so only one of those can "
                                       "take its place.", cards=said)
        return Verdict(False, reason, "RID-A5" if len(fits) > 1 else "RID-8", details)
    after = cards[:index] + [replacement] + cards[index + 1:]
    if not check_trick(after, decks):
        return Verdict(False, message("rockit", "With {card} in the joker's place the trick "
                                                "is no longer valid.",
                                      card=format_card(replacement)), "RID-8", details)
    details["trick_after"] = after
    pool = Counter(hand_cards)
    if pool[replacement] < 1:
        return Verdict(False, message("rockit", "The replacement, {card}, must come from "
                                                "your hand.", card=format_card(replacement)),
                       "RID-8", details)
    pool[replacement] -= 1
    if JOKER not in new_cards:
        return Verdict(False, message("rockit", "The joker taken must be used at once, in the "
                                                "new trick."), "RID-8", details)
    rest = list(new_cards)
    rest.remove(JOKER)
    missing = []
    for card in rest:
        if pool[card] > 0:
            pool[card] -= 1
        else:
            missing.append(card)
    if missing:
        shown = join_names([format_card(c) for c in missing], nobody=_NOBODY)
        if len(missing) == 1:
            reason = message("rockit", "The new trick must be only cards from your hand plus "
                                       "the joker: {cards} is not from your hand.", cards=shown)
        else:
            reason = message("rockit", "The new trick must be only cards from your hand plus "
                                       "the joker: {cards} are not from your hand.",
                             cards=shown)
        return Verdict(False, reason, "RID-8", details)
    fresh = check_trick(new_cards, decks)
    if not fresh:
        return Verdict(False, message("rockit", "The new trick with the joker is not valid: "
                                                "{reason}", reason=_lower_first(fresh.reason)),
                       fresh.rule, details)
    return Verdict(True, message("rockit", "Legal: {card} takes the joker's place and the "
                                           "joker goes into a new trick from your hand.",
                                 card=format_card(replacement)), "RID-8", details)


# ---------------------------------------------------------------------------------------
# A blocked game (RID-A7).

#: The most cards one hand can hold: every card of two decks.
MAX_HAND = 108


def _hand_of(player: str, held: Any) -> tuple[int, list[str] | None]:
    """(cards in hand, the cards or None) from a count or a list of cards."""
    if isinstance(held, int) and not isinstance(held, bool):
        if not 0 <= held <= MAX_HAND:
            raise ValueError(message("rockit", "{player}'s cards in hand: a number from 0 to "
                                               "{most}.", player=player, most=MAX_HAND))
        return held, None
    if isinstance(held, (str, Iterable)) and not isinstance(held, (bytes, Mapping)):
        cards = _cards(held)
        return len(cards), cards
    raise ValueError(message("rockit", "{player}'s cards in hand: a number, or the cards.",
                             player=player))


def blocked_winners(hands: Any, decks: int | None = None) -> Verdict:
    """Who wins a blocked game (RID-A7): the draw pile is empty and every player passed in
    turn, so the fewest cards in hand wins, whether or not that player came in; a tie goes
    to the fewest points in hand (the come-in values of RID-4: A 1, 2–10 their number, J Q
    K 10, joker 0).

    ``hands``: ``{player: count}`` or ``{player: [cards]}`` (a count cannot break a tie:
    the points need the cards). ``ok`` when one player wins; ``details``: ``winners`` (one
    name, or every player still tied), ``fewest``, ``counts``, ``points`` (None where only
    a count was given) and ``tie_break`` (the points decided). ValueError for no hands, a
    bad count or bad notation; more cards than the decks hold is a RID-1 verdict.
    """
    if not isinstance(hands, Mapping) or not hands:
        raise ValueError(N_("Give each player's cards in hand: a number, or the cards."))
    counts: dict[str, int] = {}
    points: dict[str, int | None] = {}
    held: list[str] = []
    for player, cards in hands.items():
        count, known = _hand_of(str(player), cards)
        counts[str(player)] = count
        points[str(player)] = None if known is None else sum(card_points(c) for c in known)
        held.extend(known or [])
    fewest = min(counts.values())
    tied = [p for p, count in counts.items() if count == fewest]
    details: dict[str, Any] = {"winners": tied, "fewest": fewest, "counts": counts,
                               "points": points, "tie_break": False}
    problem = _deck_problem(held, decks)
    if problem:
        return Verdict(False, problem, "RID-1", details)
    cards = fewest
    if len(tied) == 1:
        return Verdict(True, message("rockit", "{player} holds the fewest cards ({cards}) and "
                                               "wins.", player=tied[0], cards=cards),
                       "RID-A7", details)
    names = listing(tied, message("rules", "and"))
    if any(points[p] is None for p in tied):
        return Verdict(False, message("rockit", "{players} hold the fewest cards ({cards}): "
                                                "the fewest points in hand wins (A 1, 2–10 "
                                                "their number, J Q K 10, joker 0).",
                                      players=names, cards=cards), "RID-A7", details)
    lowest = min(points[p] for p in tied)
    best = [p for p in tied if points[p] == lowest]
    details.update(winners=best, tie_break=True)
    if len(best) == 1:
        return Verdict(True, message("rockit", "{players} hold the fewest cards ({cards}); "
                                               "{player} has the fewest points ({points}) "
                                               "and wins.",
                                     players=names, cards=cards, player=best[0],
                                     points=lowest), "RID-A7", details)
    return Verdict(False, message("rockit", "{players} hold the fewest cards ({cards}) and "
                                            "the same points ({points}): still a tie.",
                                  players=listing(best, message("rules", "and")),
                                  cards=cards, points=lowest), "RID-A7", details)


# ---------------------------------------------------------------------------------------
# The game: new, apply, summary.

def play_order(seats: list[str], starter: str | None) -> list[str]:
    """The players from ``starter``, clockwise (seating order); the seating order when
    ``starter`` is not seated (None once the match is over)."""
    if starter not in seats:
        return list(seats)
    start = seats.index(starter)
    return list(seats[start:] + seats[:start])


def _table_settings(settings: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    resolved = check_settings(SETTINGS, settings, NAME)
    if resolved["decks"] is None:
        resolved["decks"] = 1 if players == 2 else 2
    if resolved["decks"] == 1 and players > 2:
        raise ValueError(message("rockit", "One deck is for 2 players only: with {players} "
                                           "players use 2 decks.", players=players))
    return resolved


def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a match: validated settings (ValueError if bad; ``decks`` filled in from the
    number of players when left out) and 2–5 named seats; seat 0 starts the first game."""
    names = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, NAME)
    return {"game": SLUG, "settings": _table_settings(settings, len(names)), "seats": names,
            "log": []}


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a RockIt to Destiny game."))


def _player(state: dict, name: Any, rule: str) -> str:
    if isinstance(name, str) and name in state["seats"]:
        return name
    if not isinstance(name, str) or not name:
        raise RuleError(N_("Name the player."), rule)
    raise RuleError(message("rockit", "'{name}' is not playing at this table.", name=name),
                    rule)


def _fold(state: dict) -> dict:
    """Replay the log: games won, the game in progress, and how the match ended."""
    seats = state["seats"]
    target = state["settings"]["target"]
    totals = {p: 0 for p in seats}
    games: list[dict] = []
    current = {"game": 1, "starter": seats[0], "come_in": []}
    over_reason = None
    for entry in state["log"]:
        if entry["kind"] == "come_in":
            current["come_in"].append({k: copy.deepcopy(entry[k])
                                       for k in ("player", "cards", "points", "trick")})
        elif entry["kind"] == "win":
            winner = entry["player"]
            totals[winner] += 1
            how = entry.get("how", "out")
            games.append({"game": current["game"], "winner": winner,
                          "starter": current["starter"], "how": how,
                          "rule": "RID-A7" if how == "blocked" else "RID-9",
                          "hands": copy.deepcopy(entry.get("hands")),
                          "come_in": current["come_in"]})
            current = {"game": current["game"] + 1, "starter": winner, "come_in": []}
            if target is not None and totals[winner] >= target:
                over_reason = {"text": message("rockit", "{winner} has won {games}, the "
                                                         "target.",
                                               winner=winner, games=_n_games(target)),
                               "rule": "RID-9"}
        elif entry["kind"] == "finish":
            over_reason = {"text": message("rockit", "The table finished the match."),
                           "rule": "RID-9"}
    return {"totals": totals, "games": games, "current": current, "over_reason": over_reason}


def _best(totals: dict[str, int], seats: list[str]) -> list[str]:
    best = max(totals.values())
    return [p for p in seats if totals[p] == best] if best > 0 else []


def check_play(state: dict, player: str) -> Verdict:
    """May ``player`` play on the board now (RID-4, RID-5)? Only after coming in this game,
    and not in the turn of the come-in (RID-A4: coming in is the whole turn): before that,
    the only play is the come-in (or a draw).

    The log records come-ins and wins, not every turn, so "the turn of the come-in" is read
    off it as: the player's come-in is still the newest move of the game. Once another
    player's come-in follows it, the turn has passed.
    ``details``: ``came_in`` (bool), ``this_turn`` (the come-in is the newest move),
    ``game`` (the game in progress)."""
    _check_state(state)
    sheet = _fold(state)
    if sheet["over_reason"] is not None:
        return Verdict(False, message("rockit", "The match is over."), "RID-9",
                       {"came_in": False, "this_turn": False, "game": None})
    current = sheet["current"]
    details = {"came_in": False, "this_turn": False, "game": current["game"]}
    if not isinstance(player, str) or player not in state["seats"]:
        return Verdict(False, message("rockit", "'{name}' is not playing at this table.",
                                      name=player), "RID-5", details)
    if any(entry["player"] == player for entry in current["come_in"]):
        details["came_in"] = True
        if current["come_in"][-1]["player"] == player:
            details["this_turn"] = True
            return Verdict(False, message("rockit", "{player} has just come in: coming in is "
                                                    "the whole turn, so {player} plays on the "
                                                    "board from the next turn.",
                                          player=player), "RID-A4", details)
        return Verdict(True, message("rockit", "{player} came in on an earlier turn, so "
                                               "{player} may play on the board.",
                                     player=player), "RID-6", details)
    return Verdict(False, message("rockit", "{player} has not come in yet: the only play is a "
                                            "come-in trick of at least 30 from hand, or else "
                                            "draw a card.", player=player), "RID-4", details)


def _blocked_hands(state: dict, player: str, hands: Any) -> dict[str, Any]:
    """The cards in hand given with a blocked game's win, checked (RID-A7): seated players
    only, the winner among them, and the winner holds the fewest cards (a tie: the fewest
    points, when the cards were given). Returned as stored in the log."""
    if not isinstance(hands, Mapping) or not hands:
        raise RuleError(N_("Give each player's cards in hand: a number, or the cards."),
                        rule="RID-A7")
    for name in hands:
        _player(state, name, "RID-A7")
    if player not in hands:
        raise RuleError(message("rockit", "Count {player}'s cards in hand too: the fewest "
                                          "cards wins.", player=player), rule="RID-A7")
    try:
        verdict = blocked_winners(hands, state["settings"]["decks"])
    except ValueError as error:
        raise RuleError(said_of(error), rule="RID-A7") from None
    if verdict.rule == "RID-1":
        raise RuleError(verdict.reason, verdict.rule)
    winners = verdict.details["winners"]
    if player not in winners:
        counts, points = verdict.details["counts"], verdict.details["points"]
        best = winners[0]
        if counts[player] > counts[best]:
            raise RuleError(message("rockit", "{player} holds {cards}, but {best} holds "
                                              "{fewest}: the fewest cards in hand wins.",
                                    player=player, cards=_n_cards(counts[player]),
                                    best=best, fewest=_n_cards(counts[best])), rule="RID-A7")
        raise RuleError(message("rockit", "{player} and {best} both hold {cards}, and {best} "
                                          "has fewer points ({fewest} against {points}): "
                                          "{best} wins.",
                                player=player, best=best, cards=_n_cards(counts[best]),
                                fewest=points[best], points=points[player]), rule="RID-A7")
    return {name: (held if isinstance(held, int) else _cards(held))
            for name, held in hands.items()}


def _came_in(sheet: dict) -> set[str]:
    """The players who have come in during the game in progress."""
    return {entry["player"] for entry in sheet["current"]["come_in"]}


def _come_in_entry(state: dict, sheet: dict, action: dict) -> dict:
    """A player comes in: a trick of at least 30 from hand, once per game (RID-4)."""
    current = sheet["current"]
    decks = state["settings"]["decks"]
    player = _player(state, action.get("player"), "RID-4")
    if player in _came_in(sheet):
        raise RuleError(message("rockit", "{player} has already come in this game.",
                                player=player), rule="RID-4")
    try:
        cards = _cards(action.get("cards"))
    except ValueError as error:
        raise RuleError(said_of(error), rule="RID-4") from None
    verdict = check_come_in(cards, decks)
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)
    on_board = [card for entry in current["come_in"] for card in entry["cards"]]
    problem = _deck_problem(on_board + cards, decks)
    if problem:
        raise RuleError(message("rockit", "Those cards are already on the board: "
                                          "{problem}", problem=problem), rule="RID-1")
    return {"kind": "come_in", "player": player, "cards": cards,
            "points": verdict.details["points"], "trick": verdict.details["kind"]}


def _win_entry(state: dict, sheet: dict, action: dict) -> dict:
    """A player wins the game in progress: by going out (after coming in) or, in a blocked
    game, by the fewest cards in hand (RID-9, RID-A7)."""
    player = _player(state, action.get("player"), "RID-9")
    how = action.get("how", "out")
    if how not in ("out", "blocked"):
        raise RuleError(N_("A game is won by going out, or by the fewest cards when "
                           "everyone passed with the draw pile empty."), rule="RID-9")
    if player not in _came_in(sheet) and how != "blocked":     # a blocked game: RID-A7
        raise RuleError(message("rockit", "{player} has not come in this game, so "
                                          "{player} cannot have won it: a player must "
                                          "come in first.", player=player), rule="RID-4")
    entry = {"kind": "win", "player": player, "how": how}
    if how == "blocked" and action.get("hands") is not None:
        entry["hands"] = _blocked_hands(state, player, action["hands"])
    return entry


def _finish_entry(state: dict, sheet: dict, action: dict) -> dict:
    """The table ends the match early, once at least one game was won (RID-9)."""
    if not sheet["games"]:
        raise RuleError(N_("No game has been won yet, so there is no match to finish."),
                        rule="RID-9")
    return {"kind": "finish"}


#: Each move's kind to the function that makes its log entry (``(state, sheet, action)``).
_MOVES = {
    "come_in": _come_in_entry,
    "win": _win_entry,
    "finish": _finish_entry,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action``; ``state`` is left untouched.

    Raises RuleError once the match is over (RID-9), for an unknown action or player, a
    second come-in by the same player in one game, a come-in the rules refuse (RID-4,
    RID-3, RID-1), a win by going out by a player who has not come in this game (RID-4; a
    blocked game's win needs no come-in, RID-A7), a blocked game's ``hands`` where the
    winner does not hold the fewest cards (RID-A7), or finishing a match before any game
    was won.
    """
    _check_state(state)
    sheet = _fold(state)
    if sheet["over_reason"] is not None:
        winners = _best(sheet["totals"], state["seats"])
        raise RuleError(message("rockit", "The match is over: {winners} won. Start a "
                                          "rematch to play again.",
                                winners=join_names(winners, nobody=_NOBODY)), rule="RID-9")
    kind = action.get("kind") if isinstance(action, dict) else None
    move = _MOVES.get(kind) if isinstance(kind, str) else None
    if move is None:
        if isinstance(kind, str) and kind:
            raise RuleError(message("rockit", "'{kind}' is not a RockIt action: enter a "
                                              "come-in, a win or the end of the match.",
                                    kind=kind), rule="RID-5")
        raise RuleError(N_("That is not a RockIt action: enter a come-in, a win or the end of "
                           "the match."), rule="RID-5")
    entry = move(state, sheet, action)
    fresh = copy.deepcopy(state)
    fresh["log"].append(entry)
    return fresh


def summary(state: dict) -> dict:
    """The score sheet.

    Keys: game, seats, settings, house_rules, decks, target, deck (copies, jokers, cards),
    hand_size, totals (games won), over, winners (empty until over), leaders (most games
    won; empty before the first win), game_number (the game in progress; None once over),
    starter and turn (who starts the game in progress: seat 0, then the last winner; None
    once over — the engine does not track single turns), come_in (the game in progress:
    ``{player: None | {"cards", "points", "trick", "order"}}`` for every seat),
    come_in_order (players in the order they came in), play_order (every player from the
    starter, clockwise in seating order; the seating order once over), waiting (the players
    not come in yet this game, in seating order), last_winner (the winner of the last game,
    who starts this one; None in game 1), last_event (what happened last: the latest
    come-in of this game as ``{"kind": "come_in", **come_in entry}``, else the last game
    won as ``{"kind": "win", **games entry}``, else None), games (history: one
    ``{"game", "winner", "starter", "how", "rule", "hands", "come_in": [...]}`` per game
    won; ``hands`` is what a blocked game's win gave, else None),
    games_played, end_rule, over_reason, result, rules.
    """
    _check_state(state)
    s, seats = state["settings"], state["seats"]
    sheet = _fold(state)
    totals = sheet["totals"]
    over = sheet["over_reason"] is not None
    current = None if over else sheet["current"]
    come_in: dict[str, Any] = {p: None for p in seats}
    order = []
    if current is not None:
        for n, entry in enumerate(current["come_in"], start=1):
            come_in[entry["player"]] = {**copy.deepcopy(entry), "order": n}
            order.append(entry["player"])
    leaders = _best(totals, seats)
    winners = leaders if over else []
    result = None
    if over:
        wins = (_n_games(totals[winners[0]]) if winners
                else message("rockit", "no games"))
        if len(winners) == 1:
            text = message("rockit", "{winner} wins the match with {games} won.",
                           winner=winners[0], games=wins)
        else:
            text = message("rockit", "{winners} share the match with {games} won each.",
                           winners=join_names(winners, nobody=_NOBODY), games=wins)
        result = {"text": text, "rule": "RID-9"}
    target = s["target"]
    end_text = (message("rockit", "The first player to win {games} wins the match.",
                        games=_n_games(target))
                if target is not None else
                message("rockit", "No target: the table plays games until it finishes the "
                                  "match; the most games won wins."))
    copies = s["decks"]
    starter = None if current is None else current["starter"]
    games = sheet["games"]
    if order:
        last_event = {"kind": "come_in", **copy.deepcopy(come_in[order[-1]])}
    elif games:
        last_event = {"kind": "win", **copy.deepcopy(games[-1])}
    else:
        last_event = None
    return {
        "game": SLUG,
        "seats": list(seats),
        "settings": dict(s),
        "house_rules": GAME.describe_settings(s),
        "decks": copies,
        "target": target,
        "deck": {"copies": copies, "jokers": 2 * copies, "cards": 54 * copies},
        "hand_size": HAND_SIZE,
        "totals": dict(totals),
        "over": over,
        "winners": list(winners),
        "leaders": list(leaders),
        "game_number": None if current is None else current["game"],
        "starter": None if current is None else current["starter"],
        "turn": None if current is None else current["starter"],
        "come_in": come_in,
        "come_in_order": order,
        "play_order": play_order(seats, starter),
        "waiting": [p for p in seats if come_in[p] is None],
        "last_winner": games[-1]["winner"] if games else None,
        "last_event": last_event,
        "games": copy.deepcopy(sheet["games"]),
        "games_played": len(sheet["games"]),
        "end_rule": {"text": end_text, "rule": "RID-9"},
        "over_reason": sheet["over_reason"],
        "result": result,
        "rules": dict(RULES),
    }


GAME = Game(
    slug=SLUG,
    name=NAME,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    teams=False,
    new=new,
    apply=apply,
    summary=summary,
    settings_fields=SETTINGS,
    rules=MappingProxyType(RULES),
)
