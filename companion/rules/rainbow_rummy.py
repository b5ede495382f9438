"""Rainbow Rummy 333: the Universal Card Deck team game (slug ``rainbow_rummy``, RULES.md §3).

settings: ``target`` (100: the first team to reach it wins, RR-11) plus one house rule for
each ambiguity of RULES.md §3.6 that a table may settle differently, every default being
RULES.md's chosen interpretation: ``out_counts_down`` (RR-A1), ``last_card_elsewhere``
(RR-A2), ``going_out_exempt`` (RR-A3), ``building`` (RR-A4), ``empty_space`` (RR-A5) and
``second_card_team`` (RR-A9). See :data:`SETTINGS`.

Exactly 4 seats in clockwise seating order; partners sit opposite, so team ``"A"`` is seats 0
and 2 and team ``"B"`` seats 1 and 3 (team names like "Ann & Cid"). Seat 0 deals the first
hand unless a cut says otherwise; the deal then passes to the next seat every hand.

actions:

- ``{"kind": "hand", "went_out": player | None, "cards": {player: {"hand": [cards],
  "down": [cards]}}}`` — for all four players, the cards left in hand and the cards still
  face down on their own board (``None`` = blocked, nobody went out). Instead of a card
  list, either part may be given as a point total: ``"hand_points"`` / ``"down_points"``
  (whole numbers, 0–70 and 0–40). The player who went out may leave ``"hand"`` out.
- ``{"kind": "cut", "cards": {player: card}}`` (all four cut cards; RR-2 names the dealer)
  or ``{"kind": "cut", "dealer": player}`` — who deals the first hand; only before it.
- ``{"kind": "paper", "paper": {"totals": {"A": int, "B": int}}}`` — the game goes on from
  a paper sheet (:func:`from_paper`); only before the first hand.

functions: :func:`card_points`, :func:`can_build`, :func:`can_play_on_bar` (the contract's),
and the table checks :func:`can_move` (RR-5), :func:`can_slip` (RR-7), :func:`check_turn`
(RR-9), :func:`check_going_out` (RR-10), :func:`cut_for_deal` (RR-2), plus
:func:`score_hand`, :func:`count_points`, :func:`resolve_settings` and :func:`team_of`.
Rule IDs are RULES.md §3's (:data:`RULES`); the choices made are listed in
docs/RULES-NOTES.md.

Words (docs/I18N.md): every sentence a player reads (verdict reasons, RuleError and
ValueError texts, the sheet's ``text`` lines, the house rules' labels) is a ``N_`` sentence
or a :class:`~companion.rules.said.Said` made with ``message("rainbow_rummy", …)``: plain
English for every caller, remade in the phone's language by the web's ``say()``. Card labels
("Moon of S") and the words inside sentences are Saids too; team names ("Ann & Cid") are
names, plain strings.

Board notation for the checks: a column is a list (or a space-separated string) of its
cards from the top (the stack end) to the bottom (the exposed end), with ``"?"`` (or
``"down"``) first for a face-down card: ``["?", "7M", "6N", "5E"]``. ``None`` or ``[]`` is
an empty space. Turn destinations are ``"team"`` (the player's own or partner's board),
``"opponents"`` (either opponent's board) and ``"bar"``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from .cards import all_cards, parse_card, parse_cards, rank_value
from .game import (PAPER, Game, Setting, check_seats, check_settings, describe_settings,
                   paper_totals)
from .said import N_, listing, message, said_of
from .text import join_names, number
from .verdict import RuleError, Verdict

__all__ = [
    "from_paper",
    "DECK_POINTS",
    "GAME",
    "RULES",
    "SETTINGS",
    "TEAMS",
    "apply",
    "can_build",
    "can_move",
    "can_play_on_bar",
    "can_slip",
    "card_points",
    "check_going_out",
    "check_turn",
    "count_points",
    "cut_for_deal",
    "new",
    "other_team",
    "resolve_settings",
    "score_hand",
    "summary",
    "team_of",
]

SLUG = "rainbow_rummy"
NAME = "Rainbow Rummy 333"
PLAYERS = 4
TEAMS = ("A", "B")
DECK = "ucd"
#: Suit order for the cut only, highest first (RR-2); in play the suits are equal.
CUT_SUITS = ("E", "J", "M", "N", "S", "V")
HAND_SIZE = 7          # cards dealt to each player (RR-3)
STACKS = 4             # stacks per board, one face-down card each (RR-3)
TARGET = 100
GALAXY = 10            # rank values from cards.rank_value: 1–7, Moon 8, Sun 9, Galaxy 10
STAGES = ("before", "between", "after")

RULES: dict[str, str] = {
    "RR-1": "4 players form two teams of two, partners sitting opposite: team A in seats 1 "
            "and 3, team B in seats 2 and 4.",
    "RR-2": "Cut for deal: the highest suit deals (E > J > M > N > S > V), between cards of "
            "that suit the higher rank; the player at the dealer's right cuts, and the deal "
            "passes clockwise each hand.",
    "RR-3": "Each player gets 7 cards; the other 32 make four stacks in front of each "
            "player, one card face down under one face up: that player's board.",
    "RR-4": "A card goes at the bottom of a column when it is exactly one rank lower than the "
            "bottom card and of a different suit; nothing goes below a 1.",
    "RR-5": "On their own board only, a player may move a whole face-up column onto a column "
            "whose bottom card is one rank higher and of another suit; an exposed face-down "
            "card is turned up.",
    "RR-6": "Only a Galaxy may fill an empty stack space, and a card on a Galaxy must still "
            "be of a different suit.",
    "RR-7": "Once a column has no face-down card, a card one rank higher than its top card "
            "and of a different suit may be slipped behind it.",
    "RR-8": "The bar has one pile per suit, started with its 1 and built up in the same suit "
            "to the Galaxy.",
    "RR-9": "A player plays two cards a turn if able: on the first turn card 1 goes on the "
            "own team board and card 2 on an opponent's board or the bar; never both on the "
            "bar or both on the same team board.",
    "RR-10": "Playing the last hand card on the own team board goes out and ends the hand; "
             "if nobody can go out, the hand is blocked and over.",
    "RR-11": "Hand cards count double (except for the player who went out) and face-down "
             "cards on the own board once; the team with fewer points scores the "
             "difference, and the first team to reach 100 wins.",
    "RR-A1": "The player who went out counts their own face-down cards too (house rule: "
             "they score 0).",
    "RR-A2": "A last card that cannot go on the own team board stays in hand (house rule: it "
             "may be played elsewhere, without going out).",
    "RR-A3": "Even when going out, a turn's two cards may not both go on the same team board "
             "(house rule: the going-out turn is exempt).",
    "RR-A4": "Columns are moved only between a turn's first and second card (house rule: "
             "before the first card too).",
    "RR-A5": "An empty space is filled with a Galaxy from hand or by moving a column headed "
             "by a Galaxy (house rule: only one of the two).",
    "RR-A6": "A hand is blocked when all four players pass in succession or every player is "
             "stuck; all four players are then scored.",
    "RR-A7": "When both teams have the same points, nobody scores that hand.",
    "RR-A8": "The deck has 60 cards: ranks 1–7, Moon, Sun and Galaxy in each of the suits "
             "E, J, M, N, S and V, 348 points in all.",
    "RR-A9": "The second card of every turn goes on an opponent's board or the bar, except a "
             "going-out last card (house rule: in later turns it may also go on the own team "
             "board).",
}

# The labels and hints are N_ sentences, shown through the web's say().
_BUILDING = (
    ("between", N_("Only between the first and second card")),
    ("before_too", N_("Also before the first card")),
)
_EMPTY_SPACE = (
    ("either", N_("A Galaxy from hand or a moved Galaxy column")),
    ("hand", N_("Only a Galaxy from hand")),
    ("move", N_("Only a moved column headed by a Galaxy")),
)

SETTINGS: tuple[Setting, ...] = (
    Setting("target", N_("Game target"), "int", TARGET, 1, 10_000,
            help=N_("The first team whose total reaches this wins."), rule="RR-11"),
    Setting("out_counts_down", N_("Player who went out counts face-down cards"), "bool", True,
            help=N_("If no, the player who went out scores 0 for the hand."), rule="RR-A1"),
    Setting("last_card_elsewhere", N_("Last card may go off the team board"), "bool", False,
            help=N_("If yes, a last card that fits only on the bar or an opponent's board may "
                    "be played there: the player does not go out and waits with an empty "
                    "hand."),
            rule="RR-A2"),
    Setting("going_out_exempt", N_("Going out may use the team board twice"), "bool", False,
            help=N_("If yes, a player going out may put both cards of that turn on the own "
                    "team board."), rule="RR-A3"),
    Setting("building", N_("Moving columns"), "choice", "between", choices=_BUILDING,
            help=N_("When in a turn a player may move columns on their own board."),
            rule="RR-A4"),
    Setting("empty_space", N_("Filling an empty space"), "choice", "either",
            choices=_EMPTY_SPACE, help=N_("How a Galaxy may fill an empty stack space."),
            rule="RR-A5"),
    Setting("second_card_team", N_("Later turns: second card on the own team board"), "bool",
            False, help=N_("If yes, after the first turn the second card may also go on the "
                           "own team board, when the first card went elsewhere."),
            rule="RR-A9"),
)

# Words that are values of the sentences below: Saids, so that they are translated too.
_RANK_WORDS = {8: message("rainbow_rummy", "Moon"), 9: message("rainbow_rummy", "Sun"),
               10: message("rainbow_rummy", "Galaxy")}
_PLACES = {"team": message("rainbow_rummy", "your own team board"),
           "opponents": message("rainbow_rummy", "an opponent's board"),
           "bar": message("rainbow_rummy", "the bar")}
_DESTINATION_WORDS = {
    "team": "team", "own": "team", "partner": "team",
    "opponents": "opponents", "opponent": "opponents",
    "bar": "bar",
}
_DOWN_MARKS = frozenset({"?", "down"})
_SEPARATORS = re.compile(r"[\s,]+")
_ENTRY_KEYS = frozenset({"hand", "down", "hand_points", "down_points"})
_LIMITS = {"hand": HAND_SIZE, "down": STACKS}
_WHAT = {"hand": message("rainbow_rummy", "cards in hand"),
         "down": message("rainbow_rummy", "face-down cards")}
#: "and" between the last two items of a list of names or cards.
_AND = message("rainbow_rummy", "and")


# ---------------------------------------------------------------------------------------
# Cards.

def _card(card: Any) -> str:
    """A card in canonical form; ValueError naming bad notation."""
    return parse_card(card, DECK)


def _value(card: str) -> int:
    """The rank as a number: 1–7, Moon 8, Sun 9, Galaxy 10."""
    return rank_value(card, DECK)


def _suit(card: str) -> str:
    return card[-1]


def _label(card: str) -> str:
    """ "5 of J", "Moon of S" (for "the … "): format_card's words, as a Said."""
    return message("rainbow_rummy", "{rank} of {suit}", rank=_rank_word(_value(card)),
                   suit=_suit(card))


def _rank_word(value: int) -> str:
    return _RANK_WORDS.get(value, str(value))


def card_points(card: str) -> int:
    """What a card left in hand or face down is worth (RULES.md §3.2): Galaxy, Sun and Moon
    10 each, a number card its number. Bad notation raises ValueError naming the card."""
    value = _value(_card(card))
    return 10 if value >= 8 else value


def count_points(cards: str | Iterable[str]) -> int:
    """The points of several cards (a list, or one string separated by spaces or commas),
    not doubled. Bad notation raises ValueError naming the card."""
    return sum(card_points(card) for card in parse_cards(cards, DECK))


#: Every card of the deck counted once (RR-A8): 6 suits × (10 + 10 + 10 + 28) = 348.
DECK_POINTS = sum(card_points(card) for card in all_cards(DECK))


# ---------------------------------------------------------------------------------------
# Settings and teams.

def resolve_settings(settings: Any = None) -> dict[str, Any]:
    """The complete house rules from a settings dict (or None, the defaults) or a game
    state. ValueError (one plain sentence) for an unknown key or a bad value."""
    if settings is None:
        settings = {}
    if not isinstance(settings, Mapping):
        raise ValueError(N_("Settings must be a dictionary of house rules."))
    if settings.get("game") == SLUG and isinstance(settings.get("settings"), Mapping):
        settings = settings["settings"]  # a game state
    return check_settings(SETTINGS, settings, NAME)


def team_of(seat: int) -> str:
    """The team of a seat number (0-based): "A" for seats 0 and 2, "B" for 1 and 3 (RR-1)."""
    return TEAMS[seat % 2]


def other_team(team: str) -> str:
    """The team that is not ``team`` ("A" -> "B", "B" -> "A"); ValueError for anything
    else."""
    if team not in TEAMS:
        raise ValueError(message("rainbow_rummy", "There is no team {team!r}: the teams are A "
                                 "and B.", team=team))
    return TEAMS[1 - TEAMS.index(team)]


def _team_players(seats: Sequence[str]) -> dict[str, list[str]]:
    return {team: [name for i, name in enumerate(seats) if team_of(i) == team]
            for team in TEAMS}


def _team_name(players: list[str]) -> str:
    """ "Ann & Cid": a name, shown as it is in every language (a plain str, not a Said)."""
    return str(join_names(players, "&"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------
# Single cards: building, the bar, slipping behind.

def _below(card: str, onto: str, rule: str) -> Verdict:
    """May ``card`` lie directly below ``onto`` (one rank lower, another suit)? RR-4/5/6."""
    details = {"card": card, "onto": onto}
    c, o = _label(card), _label(onto)
    if _value(onto) == 1:
        return Verdict(False, message("rainbow_rummy", "Nothing goes below a 1, so the {card} "
                                      "cannot go on the {onto}.", card=c, onto=o),
                       rule, details)
    needed = _rank_word(_value(onto) - 1)
    if _value(card) != _value(onto) - 1:
        return Verdict(False, message("rainbow_rummy", "The {card} is not one rank lower than "
                                      "the {onto}: only a {needed} of another suit goes there.",
                                      card=c, onto=o, needed=needed), rule, details)
    if _suit(card) == _suit(onto):
        # The seed states the different-suit rule again for Galaxies (RR-6).
        same_rule = "RR-6" if _value(onto) == GALAXY else rule
        return Verdict(False, message("rainbow_rummy", "The {card} may not go on the {onto}: "
                                      "the two cards must be of different suits.", card=c,
                                      onto=o), same_rule, details)
    return Verdict(True, message("rainbow_rummy", "The {card} may go on the {onto}: it is one "
                                 "rank lower and of a different suit.", card=c, onto=o),
                   rule, details)


def can_build(card: str, onto: str | None, settings: Any = None) -> Verdict:
    """May ``card`` be played from hand at the bottom of a column ending in ``onto``? (RR-4)

    ``onto`` None is an empty stack space, which only a Galaxy may fill (RR-6; the
    ``empty_space`` house rule may forbid filling it from hand, RR-A5). ``settings`` (a
    settings dict or a game state) only matters for that house rule. details: ``card``,
    ``onto``, ``empty_space``. Bad notation raises ValueError naming the card.
    """
    s = resolve_settings(settings)
    card = _card(card)
    if onto is not None:
        verdict = _below(card, _card(onto), "RR-4")
        return Verdict(verdict.ok, verdict.reason, verdict.rule,
                       {**verdict.details, "empty_space": False})
    details = {"card": card, "onto": None, "empty_space": True}
    c = _label(card)
    if _value(card) != GALAXY:
        return Verdict(False, message("rainbow_rummy", "Only a Galaxy may fill an empty space, "
                                      "not the {card}.", card=c), "RR-6", details)
    if s["empty_space"] == "move":
        return Verdict(False, N_("By your house rules an empty space is filled only by moving "
                                 "a column headed by a Galaxy, not from hand."), "RR-A5",
                       details)
    return Verdict(True, message("rainbow_rummy", "The {card} may fill the empty space: only a "
                                 "Galaxy may.", card=c), "RR-6", details)


def can_play_on_bar(card: str, top: str | None) -> Verdict:
    """May ``card`` go on the bar pile whose top card is ``top``? (RR-8)

    ``top`` None means the card's suit has no pile yet, so only its 1 may start one. A pile
    builds up in its own suit, 1 to 7, Moon, Sun, Galaxy. details: ``card``, ``top``,
    ``needs`` (the card that would fit, None on a finished pile). Bad notation raises
    ValueError naming the card.
    """
    card = _card(card)
    c, suit = _label(card), _suit(card)
    if top is None:
        details = {"card": card, "top": None, "needs": f"1{suit}"}
        if _value(card) == 1:
            return Verdict(True, message("rainbow_rummy", "The {card} starts the {suit} pile on "
                                         "the bar.", card=c, suit=suit), "RR-8", details)
        return Verdict(False, message("rainbow_rummy", "The {suit} pile on the bar starts with "
                                      "its 1, not with the {card}.", suit=suit, card=c),
                       "RR-8", details)
    top = _card(top)
    t = _label(top)
    needs = None if _value(top) == GALAXY else _rank_of(_value(top) + 1) + _suit(top)
    details = {"card": card, "top": top, "needs": needs}
    if _suit(top) != suit:
        return Verdict(False, message("rainbow_rummy", "The bar builds up in the same suit: the "
                                      "{card} cannot go on the {top}.", card=c, top=t),
                       "RR-8", details)
    if needs is None:
        return Verdict(False, message("rainbow_rummy", "The {suit} pile is finished: nothing "
                                      "goes on its Galaxy.", suit=suit), "RR-8", details)
    if card != needs:
        return Verdict(False, message("rainbow_rummy", "Only the {needs} goes on the {top}, not "
                                      "the {card}.", needs=_label(needs), top=t, card=c),
                       "RR-8", details)
    return Verdict(True, message("rainbow_rummy", "The {card} goes on the {top}: the bar "
                                 "builds up in the same suit.", card=c, top=t), "RR-8", details)


def _rank_of(value: int) -> str:
    """The rank letter of a value: 8 → "M", 9 → "S", 10 → "G", else the digit."""
    return {8: "M", 9: "S", 10: "G"}.get(value, str(value))


def _column(column: Any, what: str | None = None) -> tuple[int, list[str]]:
    """Parse a column: (face-down cards 0 or 1, face-up cards from top to bottom).

    ``what`` names the column in the refusals (a Said; default "column").

    ValueError for bad notation or a column that cannot occur in play: a face-down card
    anywhere but first, or face-up cards that are not each one rank lower than the card
    above and of another suit (every way a card joins a column keeps that order).
    """
    if what is None:
        what = message("rainbow_rummy", "column")
    if column is None:
        return 0, []
    if isinstance(column, str):
        items: list[Any] = [item for item in _SEPARATORS.split(column.strip()) if item]
    elif isinstance(column, Sequence):
        items = list(column)
    else:
        raise ValueError(message("rainbow_rummy", "Write the {what} as a list of cards from "
                                 "top to bottom, with ? first for a face-down card.", what=what))
    down, cards = 0, []
    for item in items:
        if isinstance(item, str) and item.strip().lower() in _DOWN_MARKS:
            if cards or down:
                raise ValueError(message("rainbow_rummy", "The {what} can have only one "
                                         "face-down card, and it lies at the top, under the "
                                         "face-up cards.", what=what))
            down = 1
        else:
            cards.append(_card(item))
    if down and not cards:
        raise ValueError(message("rainbow_rummy", "The {what} has a face-down card with "
                                 "nothing on it: that card is turned face up, so enter it as a "
                                 "face-up card.", what=what))
    for upper, lower in pairwise(cards):
        if _value(lower) != _value(upper) - 1 or _suit(lower) == _suit(upper):
            raise ValueError(message("rainbow_rummy", "That {what} cannot occur: the {lower} "
                                     "cannot lie below the {upper}.", what=what,
                                     lower=_label(lower), upper=_label(upper)))
    if len(set(cards)) != len(cards):
        raise ValueError(message("rainbow_rummy", "The {what} holds the same card twice.",
                                 what=what))
    return down, cards


def can_slip(card: str, column: Any) -> Verdict:
    """May ``card`` be slipped behind the top card of ``column``? (RR-7)

    Only once the column has no face-down card, and only a card one rank higher than the
    top card and of a different suit. ``column`` as in the module notes. details: ``card``,
    ``top``, ``down``. ValueError for bad notation or an impossible column.
    """
    card = _card(card)
    down, cards = _column(column)
    details = {"card": card, "top": cards[0] if cards else None, "down": down}
    c = _label(card)
    if not cards:
        return Verdict(False, N_("There is no card to slip behind: the space is empty, and "
                                 "only a Galaxy may fill it."), "RR-6", details)
    top = cards[0]
    t = _label(top)
    if down:
        return Verdict(False, message("rainbow_rummy", "The column still has its face-down "
                                      "card: cards may be slipped behind the {top} only once "
                                      "that card has been turned over.", top=t),
                       "RR-7", details)
    if _value(top) == GALAXY:
        return Verdict(False, message("rainbow_rummy", "Nothing ranks above a Galaxy, so "
                                      "nothing slips behind the {top}.", top=t),
                       "RR-7", details)
    if _value(card) != _value(top) + 1:
        return Verdict(False, message("rainbow_rummy", "Only a {rank} of another suit slips "
                                      "behind the {top}, not the {card}.",
                                      rank=_rank_word(_value(top) + 1), top=t, card=c),
                       "RR-7", details)
    if _suit(card) == _suit(top):
        return Verdict(False, message("rainbow_rummy", "The {card} may not slip behind the "
                                      "{top}: the two cards must be of different suits.",
                                      card=c, top=t), "RR-7", details)
    return Verdict(True, message("rainbow_rummy", "The {card} may slip behind the {top}: the "
                                 "column's down card is turned and it is one rank higher, of a "
                                 "different suit.", card=c, top=t), "RR-7", details)


# ---------------------------------------------------------------------------------------
# Moving columns (RR-5).

def can_move(column: Any, onto: Any, *, moving: str | None = None, same_board: bool = True,
             own_board: bool = True, stage: str | None = None,
             settings: Any = None) -> Verdict:
    """May cards of ``column`` be moved onto the column ``onto``? (RR-5, RR-6, RR-A4, RR-A5)

    ``column`` and ``onto`` in the module's notation (``onto`` None or ``[]`` is an empty
    space). ``moving`` is the top card of the part picked up (default: the column's top
    face-up card, the whole face-up column). ``same_board`` False means ``onto`` is on
    another player's board, ``own_board`` False that the column is not on the mover's own
    board; both are refused. ``stage`` says when in the turn: ``"before"`` the first card,
    ``"between"`` the two cards or ``"after"`` the second (None: not checked, RR-A4).
    details: ``moving`` (the cards moved), ``top``, ``onto`` (the receiving bottom card or
    None), ``exposes_down_card`` (the face-down card is then turned up), ``leaves_empty``.
    ValueError for bad notation, impossible columns or a ``moving`` card not in the column.
    """
    s = resolve_settings(settings)
    down, cards = _column(column, message("rainbow_rummy", "column moved"))
    _, onto_cards = _column(onto, message("rainbow_rummy", "receiving column"))
    if set(cards) & set(onto_cards):
        raise ValueError(N_("The two columns hold the same card."))
    if stage is not None and stage not in STAGES:
        raise ValueError(N_("The stage is before, between or after (the turn's two cards)."))
    if not cards:
        raise ValueError(N_("The column moved has no face-up card."))
    start = 0 if moving is None else cards.index(_known(_card(moving), cards))
    moved = cards[start:]
    details = {"moving": moved, "top": moved[0],
               "onto": onto_cards[-1] if onto_cards else None,
               "exposes_down_card": False, "leaves_empty": False}
    if not own_board:
        return Verdict(False, N_("A player moves columns only on their own board."), "RR-5",
                       details)
    if not same_board:
        return Verdict(False, N_("Cards never move to another player's board, not even the "
                                 "partner's."), "RR-5", details)
    timing = _stage_problem(s, stage)
    if timing:
        return Verdict(False, timing, "RR-A4", details)
    if start:
        if len(moved) == 1:
            text = message("rainbow_rummy", "A single card may not be detached from a column "
                           "unless it is the only card in it, so the {card} stays.",
                           card=_label(moved[0]))
        else:
            text = message("rainbow_rummy", "Only a whole face-up column moves: pick it up by "
                           "its top card, the {card}.", card=_label(cards[0]))
        return Verdict(False, text, "RR-5", details)
    top = moved[0]
    if onto_cards:
        verdict = _below(top, onto_cards[-1], "RR-5")
        ok, text, rule = verdict.ok, verdict.reason, verdict.rule
        if ok:
            text = message("rainbow_rummy", "The column headed by the {card} may move onto the "
                           "{onto}: one rank lower and of a different suit.", card=_label(top),
                           onto=_label(onto_cards[-1]))
    elif _value(top) != GALAXY:
        ok, rule = False, "RR-6"
        text = message("rainbow_rummy", "Only a Galaxy may fill an empty space, and this column "
                       "starts with the {card}.", card=_label(top))
    elif s["empty_space"] == "hand":
        ok, rule = False, "RR-A5"
        text = N_("By your house rules an empty space is filled only with a Galaxy from hand, "
                  "not by moving a column.")
    else:
        ok, rule = True, "RR-6"
        text = message("rainbow_rummy", "The column headed by the {card} may fill the empty "
                       "space.", card=_label(top))
    if ok:
        details.update(exposes_down_card=bool(down), leaves_empty=not down)
        if down:
            text = message("rainbow_rummy", "{move} The face-down card it uncovers is turned "
                           "face up.", move=text)
    return Verdict(ok, text, rule, details)


def _known(card: str, cards: list[str]) -> str:
    if card not in cards:
        raise ValueError(message("rainbow_rummy", "The {card} is not a face-up card of that "
                                 "column.", card=_label(card)))
    return card


def _stage_problem(s: Mapping[str, Any], stage: str | None) -> str | None:
    """Why building may not happen at this point of the turn (RR-A4), or None."""
    if stage == "after":
        return N_("The second card ends the turn, so columns are moved before it.")
    if stage == "before" and s["building"] == "between":
        return N_("Columns are moved after the turn's first card is played, before the second.")
    return None


# ---------------------------------------------------------------------------------------
# Turns and going out (RR-9, RR-10).

def _destination(place: Any) -> str:
    """ "team", "opponents" or "bar" for a destination word; ValueError for anything else."""
    if isinstance(place, str) and place.strip().lower() in _DESTINATION_WORDS:
        return _DESTINATION_WORDS[place.strip().lower()]
    raise ValueError(message("rainbow_rummy", "{place!r} is not a destination: use team (your "
                             "own or your partner's board), opponents or bar.", place=place))


def check_turn(destinations: Sequence[str], *, first_turn: bool = False,
               cards_in_hand: int | None = None, settings: Any = None) -> Verdict:
    """Are the destinations of this turn's cards legal? (RR-9, RR-10, RR-A2, RR-A3, RR-A9)

    ``destinations`` lists where the turn's cards went, in the order played (0 to 2 of
    ``"team"``, ``"opponents"``, ``"bar"``). ``first_turn`` is the player's first turn of the
    hand; ``cards_in_hand`` the cards held before the turn (None: unknown, so the turn is
    taken not to empty the hand). Whether a card could have been played at all is not known
    to the check. details: ``destinations`` (canonical), ``first_turn``, ``cards_in_hand``,
    ``empties_hand`` and ``going_out`` (this turn ends the hand). ValueError for a bad word.
    """
    s = resolve_settings(settings)
    if isinstance(destinations, str) or not isinstance(destinations, Sequence):
        raise ValueError(N_("List where the turn's cards went, in order: team, opponents or "
                            "bar."))
    places = [_destination(place) for place in destinations]
    if not isinstance(first_turn, bool):
        raise ValueError(N_("Say whether this is the player's first turn (yes or no)."))
    if cards_in_hand is not None and (not _is_int(cards_in_hand)
                                      or not 1 <= cards_in_hand <= HAND_SIZE):
        raise ValueError(message("rainbow_rummy", "Cards in hand is a whole number from 1 to "
                                 "{most}.", most=HAND_SIZE))
    if first_turn and cards_in_hand not in (None, HAND_SIZE):
        raise ValueError(message("rainbow_rummy", "On their first turn a player holds all "
                                 "{count} cards.", count=HAND_SIZE))
    empties = None if cards_in_hand is None else len(places) == cards_in_hand
    details: dict[str, Any] = {"destinations": places, "first_turn": first_turn,
                               "cards_in_hand": cards_in_hand, "empties_hand": empties,
                               "going_out": False}
    problem = _turn_problem(s, places, first_turn, cards_in_hand, bool(empties))
    if problem:
        return Verdict(False, problem[0], problem[1], details)
    going_out = bool(empties) and places[-1] == "team"
    details["going_out"] = going_out
    return Verdict(True, *_turn_ok(s, places, first_turn, going_out, bool(empties)), details)


def _turn_problem(s: Mapping[str, Any], places: list[str], first_turn: bool,
                  cards_in_hand: int | None, empties: bool) -> tuple[str, str] | None:
    """Why these destinations break the turn rules, as (sentence, rule), or None."""
    if len(places) > 2:
        return N_("A player plays at most two cards a turn."), "RR-9"
    if cards_in_hand is not None and len(places) > cards_in_hand:
        return N_("You cannot play more cards than you hold."), "RR-9"
    if not places:
        return None
    if first_turn:
        if places[0] != "team":
            return (message("rainbow_rummy", "On your first turn the first card goes on your "
                            "own team board, not on {place}.", place=_PLACES[places[0]]),
                    "RR-9")
        if len(places) == 2 and places[1] == "team":
            return (N_("On your first turn the second card goes on an opponent's board or the "
                       "bar, not on your own team board."), "RR-9")
        return None
    if empties and places[-1] != "team" and not s["last_card_elsewhere"]:
        return (N_("Your last card may go only on your own team board, where it takes you "
                   "out: keep it, and play continues."), "RR-A2")
    if len(places) == 2:
        first, second = places
        if first == second == "bar":
            return N_("The two cards of a turn may not both go on the bar."), "RR-9"
        if first == second == "opponents":
            return (N_("The two cards of a turn may not both go on the same team board, here "
                       "the opponents'."), "RR-9")
        if first == second == "team":
            if not empties:
                return (N_("The two cards of a turn may not both go on the same team board, "
                           "here your own."), "RR-9")
            if not s["going_out_exempt"]:
                return (N_("Even when going out, the two cards of a turn may not both go on "
                           "your own team board: play one now and go out later."), "RR-A3")
        if second == "team" and not empties and not s["second_card_team"]:
            return (N_("The second card goes on an opponent's board or the bar; only a last "
                       "card, going out, goes on your own team board."), "RR-A9")
    return None


def _turn_ok(s: Mapping[str, Any], places: list[str], first_turn: bool, going_out: bool,
             empties: bool) -> tuple[str, str]:
    """The sentence and rule for a legal turn."""
    if not places:
        return (N_("No card played: that ends the turn, which is right only when no card can "
                   "be played."), "RR-9")
    if len(places) == 1:
        where = message("rainbow_rummy", "one card on {place}", place=_PLACES[places[0]])
    else:   # two places: _turn_problem refuses more
        where = message("rainbow_rummy", "one on {first} and one on {second}",
                        first=_PLACES[places[0]], second=_PLACES[places[1]])
    if going_out:
        rule = "RR-A3" if places == ["team", "team"] else "RR-10"
        return message("rainbow_rummy", "Legal, and you go out: {where}, the last on your own "
                       "team board, which ends the hand.", where=where), rule
    if empties:
        return (message("rainbow_rummy", "Legal by your house rules: {where}; your hand is "
                        "empty but you did not go out, so play continues.", where=where),
                "RR-A2")
    if len(places) == 1:
        return (message("rainbow_rummy", "Legal: {where} (one card only when no second card "
                        "can be played).", where=where), "RR-9")
    if not first_turn and places[1] == "team":
        return message("rainbow_rummy", "Legal by your house rules: {where}.",
                       where=where), "RR-A9"
    if first_turn:
        return message("rainbow_rummy", "Legal first turn: {where}.", where=where), "RR-9"
    return message("rainbow_rummy", "Legal turn: {where}.", where=where), "RR-9"


def check_going_out(destination: str, earlier: str | None = None, *,
                    settings: Any = None) -> Verdict:
    """Does playing the last hand card to ``destination`` go out? (RR-10, RR-A2, RR-A3)

    ``earlier`` is where this turn's other card went before it (None when the last card is
    the turn's first or only card). ok True means the player goes out and the hand ends.
    details: ``destination``, ``earlier``, ``goes_out``, ``may_play`` (whether the last card
    may be played there at all: by default only on the own team board, RR-A2) and
    ``play_reason``/``play_rule`` (the turn check behind ``may_play``).
    """
    s = resolve_settings(settings)
    place = _destination(destination)
    before = None if earlier is None else _destination(earlier)
    places = [place] if before is None else [before, place]
    turn = check_turn(places, cards_in_hand=len(places), settings=s)
    details = {"destination": place, "earlier": before, "goes_out": turn.details["going_out"],
               "may_play": turn.ok, "play_reason": turn.reason, "play_rule": turn.rule}
    if details["goes_out"]:
        return Verdict(True, N_("You go out: your last card goes on your own team board, "
                                "which ends the hand."), turn.rule, details)
    if place == "team":
        return Verdict(False, turn.reason, turn.rule, details)
    if turn.ok:
        text = N_("Not a go-out: a last card ends the hand only on your own team board; by "
                  "your house rules you may still play it there, and play continues.")
    else:
        text = N_("Not a go-out: a last card ends the hand only on your own team board, so you "
                  "keep it and play continues.")
    return Verdict(False, text, "RR-10", details)


# ---------------------------------------------------------------------------------------
# The cut for deal (RR-2).

def cut_for_deal(cuts: Mapping[Any, str] | Sequence[str]) -> Verdict:
    """Who deals, from each player's cut card? (RR-2)

    ``cuts`` maps each player to their card, or lists the cards (players are then the list
    positions). The highest suit deals (E > J > M > N > S > V); between cards of that suit
    the higher rank (Galaxy > Sun > Moon > 7 … 1). Every card is in the deck once, so there is
    no full tie. details: ``dealer`` (the player), ``card``, ``suit``, ``tied_on_suit`` (the
    players who cut that suit) and ``ranking`` (every player, the dealer first).
    ValueError for fewer than two cards, bad notation or a card cut twice.
    """
    if isinstance(cuts, Mapping):
        items = list(cuts.items())
    elif isinstance(cuts, Sequence) and not isinstance(cuts, str):
        items = list(enumerate(cuts))
    else:
        raise ValueError(N_("Give each player's cut card, as a dictionary or a list."))
    if len(items) < 2:
        raise ValueError(N_("A cut for deal needs at least two cards."))
    cards = [(who, _card(card)) for who, card in items]
    seen: set[str] = set()
    for _, card in cards:
        if card in seen:
            raise ValueError(message("rainbow_rummy", "The {card} was cut twice, but the deck "
                                     "has only one.", card=_label(card)))
        seen.add(card)
    ranking = sorted(cards, key=lambda item: (CUT_SUITS.index(_suit(item[1])),
                                              -_value(item[1])))
    dealer, card = ranking[0]
    suit = _suit(card)
    tied = [(who, c) for who, c in cards if _suit(c) == suit]
    name = (dealer if isinstance(dealer, str)
            else message("rainbow_rummy", "The player with the {card}", card=_label(card)))
    if len(tied) == 1:
        text = message("rainbow_rummy", "{name} deals: the {card} is of {suit}, the highest "
                       "suit cut (E > J > M > N > S > V).", name=name, card=_label(card),
                       suit=suit)
    else:
        others = listing([message("rainbow_rummy", "the {card}", card=_label(c))
                          for _, c in tied if c != card], _AND)
        text = message("rainbow_rummy", "{name} deals: {suit} is the highest suit cut, and the "
                       "{card} outranks {others}.", name=name, suit=suit, card=_label(card),
                       others=others)
    details = {"dealer": dealer, "card": card, "suit": suit,
               "tied_on_suit": [who for who, _ in tied], "ranking": [who for who, _ in ranking]}
    return Verdict(True, text, "RR-2", details)


# ---------------------------------------------------------------------------------------
# Scoring a hand (RR-11).

def _part(player: str, data: Mapping[str, Any], part: str, went_out: bool,
          seen: dict[str, str]) -> tuple[list[str] | None, int]:
    """One part of a player's entry ("hand" or "down"): (cards or None, points)."""
    points_key = f"{part}_points"
    what = _WHAT[part]
    limit = _LIMITS[part]
    listed, total = data.get(part), data.get(points_key)
    if listed is not None and total is not None:
        raise RuleError(message("rainbow_rummy", "Enter {player}'s {what} as cards or as points, "
                                "not both.", player=player, what=what), rule="RR-11")
    if listed is None and total is None:
        if part == "hand" and went_out:
            return [], 0
        raise RuleError(message("rainbow_rummy", "Enter {player}'s {what}, as cards or as a "
                                "point total.", player=player, what=what), rule="RR-11")
    if total is not None:
        if not _is_int(total) or not 0 <= total <= 10 * limit:
            raise RuleError(message("rainbow_rummy", "{player}'s points for {what} must be a "
                                    "whole number from 0 to {most}.", player=player, what=what,
                                    most=10 * limit), rule="RR-3")
        return None, total
    if not isinstance(listed, (list, tuple, str)):
        raise RuleError(message("rainbow_rummy", "Enter {player}'s {what} as a list of cards.",
                                player=player, what=what), rule="RR-11")
    try:
        cards = parse_cards(listed, DECK)
    except ValueError as error:
        raise RuleError(said_of(error), rule="RR-A8") from None
    if len(cards) > limit:
        most = (message("rainbow_rummy", "a player holds at most {count}", count=HAND_SIZE)
                if part == "hand"
                else message("rainbow_rummy", "a board has only {count}", count=STACKS))
        raise RuleError(message("rainbow_rummy", "{player} has {count} {what}, but {most}.",
                                player=player, count=len(cards), what=what, most=most), rule="RR-3")
    for card in cards:
        if card in seen:
            where = (message("rainbow_rummy", "twice") if seen[card] == player
                     else message("rainbow_rummy", "for {first} and {second}", first=seen[card],
                                  second=player))
            raise RuleError(message("rainbow_rummy", "The {card} is entered {where}, but the deck "
                                    "has only one.", card=_label(card), where=where), rule="RR-A8")
        seen[card] = player
    return cards, sum(card_points(card) for card in cards)


def _entry(s: Mapping[str, Any], seats: list[str], went_out: Any, cards: Any) -> dict:
    """Validate a hand's entry and return what the state keeps (RuleError if illegal)."""
    if went_out is not None and (not isinstance(went_out, str) or went_out not in seats):
        raise RuleError(message("rainbow_rummy", "{player!r} is not playing at this table: "
                                "name the player who went out, or nobody if the hand was "
                                "blocked.", player=went_out), rule="RR-10")
    if not isinstance(cards, Mapping):
        raise RuleError(N_("Enter the cards left for all four players."), rule="RR-11")
    for name in cards:
        if name not in seats:
            raise RuleError(message("rainbow_rummy", "{player!r} is not playing at this table.",
                                    player=name), rule="RR-1")
    missing = [name for name in seats if name not in cards]
    if missing:
        raise RuleError(message("rainbow_rummy", "Enter the cards left for {players} too.",
                                players=listing(missing, _AND)), rule="RR-11")
    seen: dict[str, str] = {}
    players = {}
    for name in seats:
        data = cards[name]
        if not isinstance(data, Mapping):
            raise RuleError(message("rainbow_rummy", "Enter {player}'s cards in hand and face "
                                    "down.", player=name), rule="RR-11")
        unknown = sorted(str(key) for key in data if key not in _ENTRY_KEYS)
        if unknown:
            raise RuleError(message("rainbow_rummy", "{key!r} is not part of a hand entry: enter "
                                    "hand and down cards, or hand_points and down_points.",
                                    key=unknown[0]), rule="RR-11")
        out = name == went_out
        hand, hand_points = _part(name, data, "hand", out, seen)
        down, down_points = _part(name, data, "down", out, seen)
        if out and hand_points:
            raise RuleError(message("rainbow_rummy", "{player} went out, so {player} has no "
                                    "cards left in hand.", player=name), rule="RR-10")
        players[name] = {"hand": hand, "down": down, "hand_points": hand_points,
                         "down_points": down_points}
    if not s["last_card_elsewhere"]:
        # By default a last card may only go on the own team board, where it goes out
        # (RR-A2): so an empty hand means that player went out.
        for name in seats:
            if name != went_out and players[name]["hand_points"] == 0:
                if went_out is None:
                    text = message("rainbow_rummy", "{player} has no cards left in hand, so "
                                   "{player} went out: name {player} as the player who went "
                                   "out.", player=name)
                else:
                    text = message("rainbow_rummy", "{player} has no cards left in hand, but "
                                   "{out} went out: going out ends the hand, so only one "
                                   "player can.", player=name, out=went_out)
                raise RuleError(text, rule="RR-A2")
    return {"went_out": went_out, "cards": players}


def _breakdown(s: Mapping[str, Any], seats: list[str], entry: dict) -> dict:
    """Score a validated entry: every player's numbers, the team totals and who scores."""
    went_out = entry["went_out"]
    raw = dict.fromkeys(TEAMS, 0)
    players = []
    for seat, name in enumerate(seats):
        e = entry["cards"][name]
        out = name == went_out
        doubled = 0 if out else 2 * e["hand_points"]
        counted = 0 if out and not s["out_counts_down"] else e["down_points"]
        team = team_of(seat)
        raw[team] += doubled + counted
        players.append({
            "player": name, "seat": seat, "team": team, "went_out": out,
            "hand": None if e["hand"] is None else list(e["hand"]),
            "down": None if e["down"] is None else list(e["down"]),
            "hand_points": e["hand_points"], "doubled": doubled,
            "down_points": e["down_points"], "down_counted": counted,
            "total": doubled + counted,
            "rules": {"hand": "RR-11", "down": "RR-A1" if out else "RR-11",
                      "total": "RR-11"},
        })
    if raw["A"] == raw["B"]:
        scorer, rule = None, "RR-A7"
    else:
        scorer, rule = min(TEAMS, key=lambda team: raw[team]), "RR-11"
    difference = abs(raw["A"] - raw["B"])
    changes = {team: difference if team == scorer else 0 for team in TEAMS}
    return {"went_out": went_out, "blocked": went_out is None, "players": players,
            "raw": raw, "raw_rule": "RR-11", "scorer": scorer,
            "loser": None if scorer is None else other_team(scorer),
            "difference": difference, "changes": changes,
            "rule": rule, "rules": dict.fromkeys(TEAMS, rule)}


def _hand_text(result: dict, names: Mapping[str, str]) -> str:
    """One line for the sheet: who went out, the team totals and who scores."""
    went_out = result["went_out"]
    opening = (message("rainbow_rummy", "{player} went out.", player=went_out) if went_out
               else message("rainbow_rummy", "Blocked: nobody could go out."))
    raw = result["raw"]
    teams = message("rainbow_rummy", "{team_a} {points_a}, {team_b} {points_b}",
                    team_a=names["A"], points_a=number(raw["A"]), team_b=names["B"],
                    points_b=number(raw["B"]))
    if result["scorer"] is None:
        return message("rainbow_rummy", "{opening} {teams}: a tie, so nobody scores.",
                       opening=opening, teams=teams)
    scorer = result["scorer"]
    return message("rainbow_rummy", "{opening} {teams}: {team} score the difference, "
                   "{difference}.", opening=opening, teams=teams, team=names[scorer],
                   difference=number(result["difference"]))


def score_hand(seats: Any, went_out: str | None, cards: Mapping[str, Any],
               settings: Any = None) -> Verdict:
    """Score one hand (RR-11, RR-A1, RR-A7) without recording it.

    ``seats`` are the four names in seating order, or a game state (its seats, and its
    settings unless ``settings`` is given). ``went_out`` and ``cards`` are as in the hand
    action. ok False (with the reason and rule the sheet would refuse it with) when the
    entry is not acceptable, bad card notation included. When ok, details: ``players`` (in
    seat order: ``player``, ``seat``, ``team``, ``went_out``, ``hand``, ``down``,
    ``hand_points``, ``doubled``, ``down_points``, ``down_counted``, ``total``, ``rules``),
    ``raw`` (each team's points), ``scorer`` (the team with fewer points, None on a tie),
    ``loser`` (the other team, None on a tie), ``difference``, ``changes`` ({"A", "B"}), ``rules``, ``went_out`` and ``blocked``.
    """
    if isinstance(seats, Mapping) and seats.get("game") == SLUG:
        s = resolve_settings(seats if settings is None else settings)
        names = list(seats["seats"])
    else:
        s = resolve_settings(settings)
        names = check_seats(seats, PLAYERS, PLAYERS, NAME)
    try:
        entry = _entry(s, names, went_out, cards)
    except RuleError as error:
        return Verdict(False, said_of(error), error.rule, {})
    result = _breakdown(s, names, entry)
    team_names = {team: _team_name(players) for team, players in _team_players(names).items()}
    return Verdict(True, _hand_text(result, team_names), result["rule"], result)


# ---------------------------------------------------------------------------------------
# The game: new, apply, summary.

def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a game: validated house rules (ValueError if bad) and exactly 4 named seats in
    clockwise order; team A is seats 0 and 2, team B seats 1 and 3."""
    if settings is not None and not isinstance(settings, Mapping):
        raise ValueError(N_("Settings must be a dictionary of house rules."))
    resolved = check_settings(SETTINGS, settings, NAME)
    names = check_seats(seats, PLAYERS, PLAYERS, NAME)
    return {"game": SLUG, "settings": resolved, "seats": names, "cut": None, "hands": []}


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a Rainbow Rummy 333 game."))


def _dealer(seats: list[str], name: Any) -> str:
    if not isinstance(name, str) or name not in seats:
        raise RuleError(message("rainbow_rummy", "{player!r} is not playing at this table: name "
                                "the dealer.", player=name), rule="RR-2")
    return name


def _cut_entry(state: dict, action: Mapping[str, Any]) -> dict:
    """Validate a cut action and return what the state keeps (RuleError if illegal)."""
    seats = state["seats"]
    if state["hands"]:
        raise RuleError(N_("The cut for deal comes before the first hand; after that the deal "
                           "rotates."), rule="RR-2")
    if state["cut"] is not None:
        raise RuleError(message("rainbow_rummy", "The cut is already recorded: {dealer} deals "
                                "the first hand.", dealer=state["cut"]["dealer"]), rule="RR-2")
    cards, dealer = action.get("cards"), action.get("dealer")
    if (cards is None) == (dealer is None):
        raise RuleError(N_("Enter either each player's cut card or the dealer."), rule="RR-2")
    if dealer is not None:
        return {"cards": None, "dealer": _dealer(seats, dealer)}
    if not isinstance(cards, Mapping) or set(cards) != set(seats):
        raise RuleError(N_("Enter the card each of the four players cut."), rule="RR-2")
    try:
        verdict = cut_for_deal({name: cards[name] for name in seats})
    except ValueError as error:
        raise RuleError(said_of(error), rule="RR-2") from None
    return {"cards": {name: parse_card(cards[name], DECK) for name in seats},
            "dealer": verdict.details["dealer"]}


def _paper_entry(state: dict, paper: Any) -> dict:
    """A paper sheet's team totals, checked: never below zero (only the lower team scores a
    hand, and it scores a difference) and short of the target, which ends the game (RR-11)."""
    names = {team: _team_name(players) for team, players in _team_players(state["seats"]).items()}
    return {"totals": paper_totals(paper, TEAMS, rule="RR-11", names=names, low=0,
                                   below=state["settings"]["target"])}


def from_paper(settings: dict | None, seats: list[str], paper: Any) -> dict:
    """A game that goes on from a paper sheet: ``paper`` is ``{"totals": {"A": int, "B":
    int}}``, the teams' totals so far (RuleError when they can't be)."""
    state = new(settings, seats)
    state["paper"] = _paper_entry(state, paper)
    return state


def _set_paper(state: dict, fresh: dict, action: Mapping) -> None:
    """The paper sheet's totals, before the first hand (RR-11: they count toward the
    target)."""
    if state["hands"] or state.get("paper"):
        raise RuleError(N_("A paper sheet's totals can only start a game, before its "
                           "first hand."), rule="RR-11")
    fresh["paper"] = _paper_entry(state, action.get("paper"))


def _first_dealer(state: dict) -> int:
    cut = state["cut"]
    return 0 if cut is None else state["seats"].index(cut["dealer"])


def _fold(state: dict) -> dict:
    """Replay every hand: the rows, the totals, the next dealer and how the game ended."""
    s, seats = state["settings"], state["seats"]
    players = _team_players(seats)
    names = {team: _team_name(players[team]) for team in TEAMS}
    first = _first_dealer(state)
    paper = state.get("paper")
    totals = dict(paper["totals"]) if paper else dict.fromkeys(TEAMS, 0)
    rows, winner = [], None
    for number_, entry in enumerate(state["hands"], start=1):
        result = _breakdown(s, seats, entry)
        totals = {team: totals[team] + result["changes"][team] for team in TEAMS}
        reached = [team for team in TEAMS if totals[team] >= s["target"]]
        if reached:  # only one team scores a hand, so only one can newly reach the target
            winner = max(reached, key=lambda team: totals[team])
        rows.append({"hand": number_, "dealer": seats[(first + number_ - 1) % PLAYERS],
                     **result, "running": dict(totals), "running_rule": "RR-11",
                     "ends_game": winner is not None,
                     "text": _hand_text(result, names)})
        if winner:
            break
    over_reason = result_ = None
    if winner:
        over_reason = {"text": message("rainbow_rummy", "{team} reached {total} (target "
                                       "{target}).", team=names[winner],
                                       total=number(totals[winner]),
                                       target=number(s["target"])), "rule": "RR-11"}
        result_ = {"text": message("rainbow_rummy", "{team} win with {total}.",
                                   team=names[winner], total=number(totals[winner])),
                   "rule": "RR-11"}
    dealer = None if winner else (first + len(state["hands"])) % PLAYERS
    return {"names": names, "players": players, "totals": totals, "rows": rows,
            "winner": winner, "over_reason": over_reason, "result": result_, "dealer": dealer}


def _add_hand(state: dict, fresh: dict, action: Mapping) -> None:
    """A hand was played: its scored entry joins ``fresh`` (the state's copy)."""
    fresh["hands"].append(_entry(state["settings"], state["seats"],
                                 action.get("went_out"), action.get("cards")))


def _set_cut(state: dict, fresh: dict, action: Mapping) -> None:
    """The cut for deal: who deals the first hand, kept in ``fresh`` (the state's copy)."""
    fresh["cut"] = _cut_entry(state, action)


#: Each move's kind to the function that writes it into the state's copy
#: (``(state, fresh, action)``).
_MOVES = {
    "hand": _add_hand,
    "cut": _set_cut,
    PAPER: _set_paper,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action`` (a hand or the cut); ``state`` is left untouched.

    Raises RuleError after the game is over, for an unknown action, an unknown player,
    bad or impossible cards, or a cut after the first hand.
    """
    _check_state(state)
    sheet = _fold(state)
    if sheet["over_reason"] is not None:
        raise RuleError(message("rainbow_rummy", "The game is over: {result} Start a rematch "
                                "to play again.", result=sheet["result"]["text"]), rule="RR-11")
    kind = action.get("kind") if isinstance(action, Mapping) else None
    move = _MOVES.get(kind) if isinstance(kind, str) else None
    if move is None:
        if isinstance(kind, str) and kind:
            raise RuleError(message("rainbow_rummy", "'{kind}' is not a Rainbow Rummy action: "
                                    "enter a hand, or the cut for deal.", kind=kind), rule="RR-11")
        raise RuleError(N_("That is not a Rainbow Rummy action: enter a hand, or the cut for "
                           "deal."), rule="RR-11")
    fresh = copy.deepcopy(state)
    move(state, fresh, action)
    return fresh


def summary(state: dict) -> dict:
    """The score sheet.

    Keys: game, seats, settings, house_rules, target, teams (players of each team),
    team_names ("Ann & Cid"), seat_teams, totals, over, winners, leaders, cut (None or
    ``{"cards", "dealer"}``), hands, hand_count, dealer / cutter / first_player (for the
    next hand; None once over), paper (``{"totals"}`` the game went on from, else None),
    end_rule, over_reason, result, deck_points, rules.

    Each ``hands`` row: hand (1, 2, …), dealer, went_out, blocked, players (seat order:
    player, seat, team, went_out, hand, down, hand_points, doubled, down_points,
    down_counted, total, rules {hand, down, total}), raw {"A", "B"}, raw_rule, scorer (None
    on a tie), loser (the team that does not score: the other team; None on a tie),
    difference, changes {"A", "B"}, rule, rules {"A", "B"}, running {"A", "B"},
    running_rule, ends_game and text.
    """
    _check_state(state)
    s, seats = state["settings"], state["seats"]
    sheet = _fold(state)
    totals = sheet["totals"]
    best = max(totals.values())
    paper = state.get("paper")
    leaders = [team for team in TEAMS if totals[team] == best] if sheet["rows"] or paper else []
    dealer = sheet["dealer"]
    return {
        "game": SLUG,
        "seats": list(seats),
        "settings": dict(s),
        "house_rules": describe_settings(SETTINGS, s),
        "target": s["target"],
        "teams": sheet["players"],
        "team_names": sheet["names"],
        "seat_teams": [team_of(i) for i in range(len(seats))],
        "totals": dict(totals),
        "over": sheet["winner"] is not None,
        "winners": [sheet["winner"]] if sheet["winner"] else [],
        "leaders": leaders,
        "cut": copy.deepcopy(state["cut"]),
        "hands": sheet["rows"],
        "hand_count": len(sheet["rows"]),
        "paper": {"totals": dict(paper["totals"])} if paper else None,
        "dealer": None if dealer is None else seats[dealer],
        "cutter": None if dealer is None else seats[(dealer - 1) % PLAYERS],
        "first_player": None if dealer is None else seats[(dealer + 1) % PLAYERS],
        "end_rule": {"text": message("rainbow_rummy", "The first team to reach {target} or "
                                     "more wins; only one team scores a hand.",
                                     target=number(s["target"])), "rule": "RR-11"},
        "over_reason": sheet["over_reason"],
        "result": sheet["result"],
        "deck_points": DECK_POINTS,
        "rules": dict(RULES),
    }


GAME = Game(
    slug=SLUG,
    name=NAME,
    min_players=PLAYERS,
    max_players=PLAYERS,
    teams=True,
    new=new,
    apply=apply,
    summary=summary,
    settings_fields=SETTINGS,
    rules=MappingProxyType(RULES),
    from_paper=from_paper,
    paper_fields=("totals",),
)
