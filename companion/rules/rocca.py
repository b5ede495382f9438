"""Rocca Card Tower: the shedding game with a tower of cards (slug ``rocca``, RULES.md §5).

The engine is a referee beside a real table: it tracks turns, direction, hand *counts*, the
stock count, pending J/K stacks, queen exchanges, the joker lock, "One" and the winner. It
does not model the tower's geometry, so a play is not checked against the tower's active
cards (that is what :func:`placements` and :func:`check_placement` are for) — except right
after a joker, when the joker is the only active card (ROC-5).

settings: ``bon`` (bool, default False): the optional Bon rule (ROC-11).

2–11 seats in seating order (ROC-A13: 11 × 5 cards + the start card leave 4 in the
stock); 5 cards each; ``seats[0]`` starts the first game and play goes clockwise
(direction 1, to the next seat). The cards held are not known, only how many; the engine
refuses a card that cannot be in anybody's hand: a suited card already on the tower this
game (each exists once) or a fifth joker.

actions (``player`` is a seat name):

- ``{"kind": "play", "player": p, "card": c, "suit": s, "to": q}`` — one card from hand.
  ``suit`` (S H D C, or ♠ ♥ ♦ ♣) is required for a joker; ``to`` names the target of an
  opening queen (an answering queen always goes back to the giver; ``to`` may then be left
  out or name the giver). Other keys are ignored.
- ``{"kind": "draw", "player": p}`` — a voluntary draw of 1 that ends the turn, or taking
  a pending J/K penalty (the whole count, or what is left of the stock: ROC-A5).
- ``{"kind": "accept", "player": p}`` — the receiver of a queen takes the cards without
  answering; play continues after the last queen's player. A give that emptied the
  giver's hand stays open until then (ROC-A12): the giver goes out only when the cards
  are taken, and an answering queen hands the giver cards again.
- ``{"kind": "one", "player": p}`` — p says "One" (exactly 1 card in hand; any time).
- ``{"kind": "bon", "player": p, "cards": [2–3 cards], "onto": c, "to": q}`` — the optional
  Bon (setting ``bon``): cards of one letter or number attached to an active card ``onto``
  of the same letter or number; ``to`` for a Bon of queens.
- ``{"kind": "stock_out"}`` — the table declares the stock empty (ROC-10). It also
  happens by itself when a draw takes the last card of the stock. From then on drawing is
  impossible and a player who cannot play is eliminated with ``cannot_play``.
- ``{"kind": "cannot_play", "player": p}`` — with the stock empty, the player to move
  cannot play and is eliminated; the last player left wins.
- ``{"kind": "new_game"}`` — after a win: new hands, and the biggest loser starts.

functions: :func:`placements`, :func:`is_start_card` (the contract's), :func:`start_card`,
:func:`check_start_card` and :func:`check_placement` (the placement checker). Player-facing
sentences are the format strings in :data:`MESSAGES` (kept in one table for translation);
each comes out as a :class:`~companion.rules.said.Said`, an ordinary ``str`` that also keeps
its key's template and values (context ``"rocca"``), so the web can say it in Japanese. A
RuleError's ``args[0]`` and the summary's ``status``/``last``/``lines`` texts are Saids.
Rule IDs are RULES.md §5's (:data:`RULES`); the choices made are in docs/RULES-NOTES.md.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .cards import format_card, parse_card, split_card
from .game import Game, Setting, check_seats, check_settings, describe_settings
from .said import joined, listing, message
from .verdict import RuleError, Verdict

__all__ = [
    "GAME",
    "MESSAGES",
    "PARTS",
    "RULES",
    "SETTINGS",
    "apply",
    "check_placement",
    "check_start_card",
    "finish_places",
    "is_start_card",
    "new",
    "placements",
    "start_card",
    "summary",
    "turn_order",
]

SLUG = "rocca"
NAME = "Rocca Card Tower"
MIN_PLAYERS = 2
MAX_PLAYERS = 11                # ROC-A13: 11 × 5 + 1 leaves 4 in the stock
DECK = "rocca"
DECK_SIZE = 60
JOKER = "JK"
JOKERS = 4
HAND_SIZE = 5
ONE_PENALTY = 3
SUITS = ("S", "H", "D", "C")
LETTERS = frozenset({"A", "J", "Q", "K"})
NUMBERS = frozenset({"0", "2", "3", "4", "5", "6", "7", "8", "9", "10"})
PARTS = ("head", "face", "profile")
PENALTY_STEP = {"J": 1, "K": 2}
_SUIT_INPUT = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

RULES: dict[str, str] = {
    "ROC-1": "The deck: 4 suits of 0, A, 2–10, J, Q, K plus 4 jokers, 60 cards; A, J, Q "
             "and K are letters, 0 and 2–10 numbers, and each suited card exists once.",
    "ROC-2": "Deal 5 cards each; the start card must be a number 2–10; the first game "
             "starts with the first seat, later games with the biggest loser.",
    "ROC-3": "A card goes on an active card's head with the same suit, on its face with the "
             "same letter, on its profile with the same number; a joker on any head.",
    "ROC-4": "Only active cards (nothing on their head) can be built on, and only at a part "
             "that is free.",
    "ROC-5": "After a joker, the next card must go on the joker's head: a card of the "
             "declared suit or another joker.",
    "ROC-6": "On your turn play one card, or draw 1 card from the stock and end your turn.",
    "ROC-7": "0 reverses play (3+ players), A plays again, J and K make the next player "
             "answer or draw 1 or 2 per card, Q gives cards back and forth, a joker "
             "declares a suit.",
    "ROC-8": "Say One when down to 1 card; going out without having said it is refused and "
             "the player draws 3.",
    "ROC-9": "The first player to go out wins the game.",
    "ROC-10": "With the stock empty, a player who cannot play on their turn is out; the "
              "last player left wins.",
    "ROC-11": "Bon (optional): anyone may attach 2–3 cards of an active card's letter or "
              "number at once; the effect counts once, never on your own card, and play "
              "goes on after the caller.",
    "ROC-A1": "The 14 ranks are 0, A, 2–10, J, Q, K; the A is a letter, never the number 1.",
    "ROC-A2": "After a joker every card goes on the joker; the earlier active cards are "
              "retired.",
    "ROC-A3": "A player who forgot One keeps the last card on the tower, its effect "
              "applies, and the player draws 3.",
    "ROC-A4": "The ace's extra turn is a normal turn: play or draw 1.",
    "ROC-A5": "When the stock is too small for a penalty, draw what is left.",
    "ROC-A6": "The biggest loser holds the most cards (a tie goes to the latest in turn "
              "order after the winner); after eliminations, the first eliminated.",
    "ROC-A7": "A drawn card cannot be played in the same turn.",
    "ROC-A8": "A pending J or K can only be answered with the same letter; nothing else may "
              "be played meanwhile.",
    "ROC-A9": "A queen gives as many cards as its player holds; a queen played as the last "
              "card (One said) wins.",
    "ROC-A10": "A Bon of jacks or kings on a pending J or K counts as one answering card.",
    "ROC-A11": "The app cannot see half-covered parts: the table marks them blocked.",
    "ROC-A12": "A queen's give that empties the giver's hand stays open: the receiver may "
               "answer with a queen or take the cards, and the giver goes out only if the "
               "cards are taken; going from 2 cards to 0 in one queen play needs no One.",
    "ROC-A13": "2 to 11 players: 11 hands of 5 and the start card leave 4 cards in the "
               "stock.",
}

SETTINGS: tuple[Setting, ...] = (
    Setting("bon", "Bon (optional rule)", "bool", False,
            help="Any player may attach 2 or 3 cards of an active card's letter or number "
                 "at once, even out of turn; the effect counts once.",
            rule="ROC-11"),
)

#: Every sentence the module shows players, as ``str.format`` templates, so that a later
#: translation layer can mark and translate them in one place.
MESSAGES: dict[str, str] = {
    # Counting and naming.
    "cards_1": "1 card",
    "cards_n": "{n} cards",
    "part_head": "head",
    "part_face": "face",
    "part_profile": "profile",
    "or": "or",
    # Refused actions.
    "not_action": "An action must be a dictionary with a kind.",
    "unknown_kind": "'{kind}' is not a Rocca action: use play, draw, accept, one, bon, "
                    "stock_out, cannot_play or new_game.",
    "no_player": "Name the player.",
    "not_seated": "'{player}' is not playing at this table.",
    "eliminated": "{player} is out of this game and cannot act until the next one.",
    "game_over": "The game is over: {winner} won, so start the next game.",
    "not_over": "A new game starts only after someone has won this one.",
    "not_turn": "It is {current}'s turn, not {player}'s.",
    "no_cards": "{player} has no cards in hand.",
    "played_twice": "{card} is already on the tower, and the deck has only one.",
    "no_jokers": "All 4 jokers are already on the tower.",
    "joker_suit": "Declare the joker's suit: S, H, D or C.",
    "lock": "After the joker declared {suit}, the next card must be a {suit} card or "
            "another joker, on the joker's head.",
    "pending_player": "{player} must first answer the {kind} with a {kind} or draw {cards}.",
    "pending_card": "{player} can only answer the {kind} with a {kind} or draw {cards}, "
                    "not play {card}.",
    "queen_player": "{receiver} must first answer {giver}'s queen with a queen or take the "
                    "cards.",
    "queen_card": "{player} can only answer the queen with a queen or take the cards, not "
                  "play {card}.",
    "queen_back": "An answering queen goes back to {giver}, who gave the cards.",
    "queen_target": "Name the player who gets the queen's card: another player still in "
                    "the game.",
    "queen_draw": "{player} must answer the queen with a queen or take the cards, not draw.",
    "stock_empty": "The stock is empty: {player} must play a card, or is out if unable to.",
    "not_stock_out": "A player is out only when the stock is empty; {player} can draw a "
                     "card instead.",
    "cannot_pending": "{player} cannot answer the {kind}, so {player} takes the penalty "
                      "with a draw (the empty stock makes it free).",
    "cannot_queen": "{player} must take the queen's cards first.",
    "already_stock_out": "The stock is already empty.",
    "no_queen": "There is no queen to answer, so nobody has cards to take.",
    "accept_other": "The queen's cards go to {receiver}, not {player}.",
    "one_count": "Say One with exactly 1 card in hand: {player} has {cards}.",
    "one_again": "{player} has already said One.",
    "bon_off": "Bon is not among this table's house rules.",
    "bon_cards": "A Bon attaches 2 or 3 cards from hand, as a list.",
    "bon_joker": "Jokers cannot be part of a Bon: they have no letter or number.",
    "bon_twice": "{card} appears twice in the Bon.",
    "bon_onto_missing": "Name the active card the Bon goes on.",
    "bon_rank": "A Bon needs cards of the same letter or number as {onto}, not {card}.",
    "bon_not_on_tower": "{onto} is not on the tower.",
    "bon_own": "{player} put {onto} on the tower, and a Bon cannot go on your own card.",
    "bon_lock": "After a joker only the joker is active, and it has no letter or number "
                "for a Bon.",
    "bon_queen": "Finish the queen exchange before a Bon.",
    "bon_pending": "While the {kind} waits for an answer, only a Bon of {kind}s can answer "
                   "it.",
    "bon_hand": "{player} holds only {cards}.",
    # What happened (one line per action).
    "played": "{player} played {card}.",
    "played_bon": "{player} called Bon: {cards} on {onto}.",
    "next": "{next} is next.",
    "reverse": "Play now goes the other way: {next} is next.",
    "no_reverse": "With 2 players a 0 does not reverse: {next} is next.",
    "again": "{player} plays again.",
    "penalty_new": "{next} must answer with a {kind} or draw {cards}.",
    "penalty_more": "That makes {cards}: {next} must answer with a {kind} or draw them.",
    "queen_open": "{player} gives {given} to {receiver}, who may answer with a queen "
                  "(giving {back} back) or accept.",
    "queen_open_out": "{player} gives {given} to {receiver} and has no cards left, but the "
                      "give is still open: {receiver} may answer with a queen (giving "
                      "{back} back) or take the cards; {player} goes out and wins if "
                      "{receiver} takes them.",
    "joker": "{player} declares {suit}: the next card goes on the joker's head, a {suit} "
             "card or another joker; {next} is next.",
    "forgot_one": "{player} had not said One, so going out is refused and {player} draws "
                  "{cards}.",
    "went_out": "{player} went out and wins game {game}.",
    "drew": "{player} drew 1 card; {next} is next.",
    "took_penalty": "{player} drew {cards} for the {kind} and loses the turn; {next} is "
                    "next.",
    "took_queen": "{player} took the cards; {next} is next.",
    "took_queen_out": "{player} took the cards, so {giver} has none left, goes out and wins "
                      "game {game}.",
    "said_one": "{player} says One.",
    "stock_now_empty": "The stock is now empty: a player who cannot play is out.",
    "declared_stock_out": "The stock is empty: a player who cannot play is out.",
    "missing": "The count expected {cards} more in the stock.",
    "cannot_play": "{player} cannot play and is out of this game.",
    "last_left": "{player} is the last player left and wins game {game}.",
    "new_game": "Game {game} begins: {player}, the biggest loser, starts.",
    # What happens now (summary "status").
    "status_over": "{winner} won game {game}; {starter} starts the next one.",
    "status_queen": "{receiver} answers {giver}'s queen with a queen (giving {back}) or "
                    "takes the cards.",
    "status_queen_out": "{receiver} answers {giver}'s queen with a queen (giving {back}) or "
                        "takes the cards; {giver} has no cards left and goes out if "
                        "{receiver} takes them.",
    "status_pending": "{player} answers the {kind} with a {kind} or draws {cards}.",
    "status_lock": "{player} to play on the joker's head: a {suit} card or another joker.",
    "status_turn": "{player} to play a card or draw 1.",
    "status_turn_empty": "{player} to play a card; the stock is empty, so unable to play "
                         "means out.",
    # The placement checker.
    "fits": "{card} may go on the {parts} of {onto}.",
    "fits_joker": "A joker may go on the head of any active card: declare its suit, and the "
                  "next card must go on the joker.",
    "fits_lock": "{card} may go on the joker's head: it is the declared suit, {suit}.",
    "fits_lock_joker": "Another joker may go on the joker's head.",
    "no_fit": "{card} fits no part of {onto}: the head takes the same suit, the face the "
              "same letter and the profile the same number.",
    "no_fit_part": "{card} does not fit the {part} of {onto}: the {part} takes {needs}.",
    "needs_head": "the same suit",
    "needs_face": "the same letter (A, J, Q or K)",
    "needs_profile": "the same number (0 or 2–10)",
    "ace_note": " The A is a letter, not the number 1.",
    "joker_head_only": "A joker goes only on the head of a card.",
    "onto_joker_part": "A joker has no letter or number: cards go only on its head.",
    "blocked_part": "The {part} of {onto} is blocked, so {card} cannot go there.",
    "all_blocked": "{card} matches the {parts} of {onto}, but the table marked that blocked.",
    "not_active": "{onto} has a card on its head: only the top card of a column can be "
                  "built on.",
    "locked_elsewhere": "A joker declared {suit} was played: every card must go on the "
                        "joker's head until one covers it, so not on {onto}.",
    "lock_suit": "Only a {suit} card or another joker may go on the joker declared {suit}, "
                 "not {card}.",
    "same_card": "There is only one {card} in the deck.",
    "joker_suit_needed": "Name the suit declared for the joker.",
    "bad_part": "A part is head, face or profile, not {part!r}.",
    # Start card.
    "start_ok": "{card} is a number card: it is the start card.",
    "start_letter": "{card} is a letter card: shuffle again and turn up a new card.",
    "start_zero": "{card} is a 0: shuffle again and turn up a new card.",
    "start_joker": "A joker cannot start: shuffle again and turn up a new card.",
}


def _say(key: str, **values: Any) -> str:
    """Fill in one of :data:`MESSAGES` (the single place sentences are built).

    The result is a Said: plain English text that remembers the template and values."""
    return message(SLUG, MESSAGES[key], **values)


def _refuse(key: str, rule: str, **values: Any) -> RuleError:
    """The RuleError for a refused action (raise the result)."""
    return RuleError(_say(key, **values), rule)


def _count(n: int) -> str:
    return _say("cards_1") if n == 1 else _say("cards_n", n=n)


def _label(card: str) -> str:
    return format_card(card, DECK)


def _rank(card: str) -> str:
    return split_card(card, DECK).rank


def _suit_of(card: str) -> str | None:
    return split_card(card, DECK).suit


# ---------------------------------------------------------------------------------------
# Cards and placement (ROC-1 … ROC-5).

def placements(card: str, onto: str, suit: str | None = None) -> set[str]:
    """The parts of ``onto`` that ``card`` may attach to by matching alone (ROC-3).

    Returns a subset of ``{"head", "face", "profile"}``: head for the same suit, face for
    the same letter (A, J, Q, K), profile for the same number (0, 2–10). A joker goes on
    any card's head. When ``onto`` is a joker, ``suit`` is the suit declared for it; left
    out, any suited card could match it, so the answer is ``{"head"}``. Activity, blocked
    parts and the joker lock are the placement checker's business (:func:`check_placement`).
    Bad notation raises ValueError.
    """
    rank, card_suit = split_card(card, DECK)
    onto_rank, onto_suit = split_card(onto, DECK)
    if card_suit is None:
        return {"head"}
    if onto_suit is None:
        declared = None if suit is None else _suit(suit)
        return {"head"} if declared in (None, card_suit) else set()
    parts = set()
    if card_suit == onto_suit:
        parts.add("head")
    if rank == onto_rank and rank in LETTERS:
        parts.add("face")
    if rank == onto_rank and rank in NUMBERS:
        parts.add("profile")
    return parts


def is_start_card(card: str) -> bool:
    """True when ``card`` may be the start card: a number card 2–10 (ROC-2).

    A, J, Q, K, a 0 or a joker is shuffled back and another card turned up. Bad notation
    raises ValueError.
    """
    rank = _rank(card)
    return rank in NUMBERS and rank != "0"


def start_card(draws: Iterable[str]) -> str | None:
    """The first card of ``draws`` (cards turned up in order) that may start, or None."""
    return next((parse_card(card, DECK) for card in draws if is_start_card(card)), None)


def check_start_card(card: str) -> Verdict:
    """Whether a turned-up card may be the start card, with the reason (ROC-2)."""
    card = parse_card(card, DECK)
    rank = _rank(card)
    ok = is_start_card(card)
    if ok:
        key = "start_ok"
    elif rank == JOKER:
        key = "start_joker"
    elif rank == "0":
        key = "start_zero"
    else:
        key = "start_letter"
    return Verdict(ok, _say(key, card=_label(card)), "ROC-2", {"card": card})


def _suit(value: Any) -> str:
    """A declared suit from ``S H D C`` (any case) or a suit symbol; ValueError otherwise."""
    if isinstance(value, str) and value.strip().upper() in _SUIT_INPUT:
        return _SUIT_INPUT[value.strip().upper()]
    raise ValueError(_say("joker_suit"))


def _parts_text(parts: Iterable[str]) -> str:
    """The parts in words, "head, face or profile" (a listing, so each word translates)."""
    return listing([_say("part_" + part) for part in PARTS if part in parts], _say("or"))


def _why_not(card: str, onto: str, part: str | None) -> str:
    """Why ``card`` does not match ``onto`` (at ``part``, or anywhere)."""
    shown, onto_shown = _label(card), _label(onto)
    if part is None:
        text = _say("no_fit", card=shown, onto=onto_shown)
    else:
        text = _say("no_fit_part", card=shown, onto=onto_shown, part=_say("part_" + part),
                    needs=_say("needs_" + part))
    ranks = {_rank(card), _rank(onto)}
    if "A" in ranks and ranks & NUMBERS:
        text = joined([text, _say("ace_note")], sep="")
    return text


def check_placement(card: str, onto: str, part: str | None = None, *,
                    suit: str | None = None, lock: str | None = None,
                    blocked: Iterable[str] = (), active: bool = True) -> Verdict:
    """May ``card`` from hand go on the tower card ``onto`` (at ``part``, or anywhere)?

    ``part`` is ``"head"``, ``"face"``, ``"profile"`` or None for "any part".
    ``lock`` is the suit declared for a joker that was just played (ROC-5): while it
    holds, ``onto`` must be that joker (``"JK"``) and the card of that suit or a joker.
    ``suit`` is the suit declared for ``onto`` when it is a joker (defaults to ``lock``).
    ``blocked`` lists parts of ``onto`` the table marked covered or half-covered (ROC-4,
    ROC-A11); ``active`` False means a card sits on ``onto``'s head.

    details: ``card``, ``onto``, ``part``, ``parts`` (the matching parts, in head, face,
    profile order), ``free`` (those not blocked) and ``lock``. Rules: ROC-3 (matching),
    ROC-4 (active card, blocked part), ROC-5 (the joker lock), ROC-1 (one copy).
    Bad notation, part or suit raises ValueError.
    """
    card, onto = parse_card(card, DECK), parse_card(onto, DECK)
    if part is not None and part not in PARTS:
        raise ValueError(_say("bad_part", part=part))
    blocked = {blocked} if isinstance(blocked, str) else set(blocked)
    if not blocked <= set(PARTS):
        raise ValueError(_say("bad_part", part=min(blocked - set(PARTS), key=repr)))
    lock = None if lock is None else _suit(lock)
    declared = None if suit is None else _suit(suit)
    if onto == JOKER:
        declared = declared or lock
        if declared is None:
            raise ValueError(_say("joker_suit_needed"))
    details: dict[str, Any] = {"card": card, "onto": onto, "part": part, "parts": [],
                               "free": [], "lock": lock}
    shown, onto_shown = _label(card), _label(onto)

    def verdict(ok: bool, reason: str, rule: str) -> Verdict:
        return Verdict(ok, reason, rule, details)

    if card == onto and card != JOKER:
        return verdict(False, _say("same_card", card=shown), "ROC-1")
    if not active:
        return verdict(False, _say("not_active", onto=onto_shown), "ROC-4")
    if lock is not None and onto != JOKER:
        return verdict(False, _say("locked_elsewhere", suit=_SYMBOL[lock], onto=onto_shown),
                       "ROC-5")
    parts = placements(card, onto, declared)
    details["parts"] = [p for p in PARTS if p in parts]
    details["free"] = [p for p in PARTS if p in parts and p not in blocked]
    if onto == JOKER and part in ("face", "profile"):
        return verdict(False, _say("onto_joker_part"), "ROC-3")
    if card == JOKER and part in ("face", "profile"):
        return verdict(False, _say("joker_head_only"), "ROC-3")
    if not parts:
        if onto == JOKER:
            return verdict(False, _say("lock_suit", suit=_SYMBOL[declared], card=shown),
                           "ROC-5")
        return verdict(False, _why_not(card, onto, part), "ROC-3")
    if part is not None and part not in parts:
        return verdict(False, _why_not(card, onto, part), "ROC-3")
    if part is not None and part in blocked:
        return verdict(False, _say("blocked_part", part=_say("part_" + part),
                                   onto=onto_shown, card=shown), "ROC-4")
    if not details["free"]:
        return verdict(False, _say("all_blocked", card=shown, onto=onto_shown,
                                   parts=_parts_text(parts)), "ROC-4")
    if onto == JOKER:
        if card == JOKER:
            return verdict(True, _say("fits_lock_joker"), "ROC-5")
        return verdict(True, _say("fits_lock", card=shown, suit=_SYMBOL[declared]), "ROC-5")
    if card == JOKER:
        return verdict(True, _say("fits_joker"), "ROC-5")
    fits = [part] if part is not None else details["free"]
    return verdict(True, _say("fits", card=shown, onto=onto_shown, parts=_parts_text(fits)),
                   "ROC-3")


# ---------------------------------------------------------------------------------------
# The game state.
#
# The state is the live table, stored directly (not as a log to fold): seats, settings,
# match tallies (wins, finished games) and the game in progress (hands, stock, tower cards,
# turn, direction, pending J/K, open queen exchange, joker lock, One flags, eliminations).

def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a match: validated settings (ValueError if bad) and 2–11 named seats in seating
    order (ROC-A13). Game 1 is dealt at once and ``seats[0]`` starts."""
    settings = check_settings(SETTINGS, settings, NAME)
    names = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, NAME)
    state = {"game": SLUG, "settings": settings, "seats": names,
             "wins": dict.fromkeys(names, 0), "games": [], "game_number": 0}
    _deal(state, names[0])
    return state


def _deal(state: dict, starter: str) -> None:
    """Start the next game: fresh hands and stock, play from ``starter`` clockwise."""
    seats = state["seats"]
    state.update({
        "game_number": state["game_number"] + 1,
        "starter": starter,
        "hands": dict.fromkeys(seats, HAND_SIZE),
        "stock": DECK_SIZE - HAND_SIZE * len(seats) - 1,   # 1: the start card
        "missing": 0,
        "played": [],          # cards put on the tower this game, in order
        "played_by": {},       # suited card -> the player who put it there
        "current": starter,
        "direction": 1,
        "pending": None,       # {"kind": "J"|"K", "count", "player", "by"}
        "queen": None,         # {"giver", "receiver", "count", "given", "out"}
        "lock": None,          # the suit declared for the joker just played
        "said_one": [],
        "stock_out": False,
        "eliminated": [],
        "winner": None,
        "lines": [],
    })


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError("This is not a Rocca Card Tower game.")


def _still_in(state: dict) -> list[str]:
    return [p for p in state["seats"] if p not in state["eliminated"]]


def turn_order(seats: list[str], still_in: list[str], first: str | None,
               direction: int) -> list[str]:
    """The players still in, from ``first`` (the one who acts now), in the direction of
    play (1 clockwise, -1). ``first`` not seated: the players still in, in seat order."""
    if first not in seats:
        return list(still_in)
    start = seats.index(first)
    order = [seats[(start + i * direction) % len(seats)] for i in range(len(seats))]
    return [p for p in order if p in still_in]


def _next(state: dict, player: str) -> str:
    """The next player still in after ``player`` in the current direction."""
    seats = state["seats"]
    start = seats.index(player)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step * state["direction"]) % len(seats)]
        if seat not in state["eliminated"]:
            return seat
    return player


def _set_hand(state: dict, player: str, count: int) -> None:
    """Change a hand count; a declared One lapses once the hand is not exactly 1 card."""
    state["hands"][player] = count
    if count != 1 and player in state["said_one"]:
        state["said_one"].remove(player)


def _draw(state: dict, player: str, wanted: int, lines: list[str]) -> int:
    """Draw up to ``wanted`` cards (what is left: ROC-A5); the empty stock starts ROC-10."""
    drawn = min(wanted, state["stock"])
    state["stock"] -= drawn
    _set_hand(state, player, state["hands"][player] + drawn)
    if state["stock"] == 0 and not state["stock_out"]:
        state["stock_out"] = True
        lines.append(_say("stock_now_empty"))
    return drawn


def _give(state: dict, giver: str, receiver: str, wanted: int) -> int:
    """Hand over up to ``wanted`` cards: as many as the giver holds (ROC-A9)."""
    given = min(wanted, state["hands"][giver])
    _set_hand(state, giver, state["hands"][giver] - given)
    _set_hand(state, receiver, state["hands"][receiver] + given)
    return given


def _biggest_loser(state: dict, winner: str) -> str:
    """Who starts the next game (ROC-A6): the first eliminated, else the most cards in hand,
    a tie going to the latest in turn order after the winner."""
    if state["eliminated"]:
        return state["eliminated"][0]
    order, player = [], winner
    for _ in range(len(state["seats"]) - 1):
        player = _next(state, player)
        order.append(player)
    most = max(state["hands"][p] for p in order)
    return [p for p in order if state["hands"][p] == most][-1]


def finish_places(seats: Iterable[str], winner: str, hands: Mapping[str, int],
                  eliminated: Iterable[str]) -> dict[str, int]:
    """Every player's place in a finished game (1 = best; equal values share a place).

    The winner is 1st. The other players still in follow by cards left, fewer first, and
    equal counts share a place; the eliminated players come last, the last eliminated
    first, so the first eliminated is last of all (the "biggest loser" of ROC-A6, read as
    a ranking: the more cards left, the bigger the loss).
    """
    out = list(eliminated)
    keys = {}
    for player in seats:
        if player == winner:
            keys[player] = (0, 0)
        elif player in out:
            keys[player] = (2, -out.index(player))
        else:
            keys[player] = (1, hands[player])
    return {p: 1 + sum(1 for other in keys.values() if other < mine)
            for p, mine in keys.items()}


def _places(game: Mapping, seats: list[str]) -> dict[str, int]:
    """A finished game's places (recomputed for a game recorded without them)."""
    if "places" in game:
        return dict(game["places"])
    return finish_places(seats, game["winner"], game["hands"], game["eliminated"])


def _finish(state: dict, winner: str, how: str) -> None:
    """End the game: tally the win and record it for the match."""
    state["winner"] = winner
    state["wins"][winner] += 1
    state["games"].append({
        "game": state["game_number"], "winner": winner, "how": how,
        "starter": state["starter"], "eliminated": list(state["eliminated"]),
        "hands": dict(state["hands"]), "loser": _biggest_loser(state, winner),
        "places": finish_places(state["seats"], winner, state["hands"], state["eliminated"]),
    })
    state.update(current=None, pending=None, queen=None, lock=None)


def _log(state: dict, kind: str, player: str | None, lines: list[str], rule: str,
         card: str | None = None, cards: list[str] | None = None) -> None:
    entry: dict[str, Any] = {"kind": kind, "player": player, "text": joined(lines),
                             "rule": rule}
    if card is not None:
        entry["card"] = card
    if cards is not None:
        entry["cards"] = cards
    state["lines"].append(entry)


# ---------------------------------------------------------------------------------------
# Checks shared by the actions.

def _game_rule(state: dict) -> str:
    return "ROC-10" if state["games"][-1]["how"] == "last" else "ROC-9"


def _actor(state: dict, action: Mapping, key: str = "player") -> str:
    """The seated player still in the game named by ``action[key]``."""
    name = action.get(key)
    if not isinstance(name, str) or not name:
        raise _refuse("no_player", "ROC-6")
    if name not in state["seats"]:
        raise _refuse("not_seated", "ROC-6", player=name)
    if name in state["eliminated"]:
        raise _refuse("eliminated", "ROC-10", player=name)
    return name


def _action_card(value: Any, rule: str = "ROC-1") -> str:
    try:
        return parse_card(value, DECK)
    except ValueError as error:
        raise RuleError(str(error), rule) from None


def _check_available(state: dict, player: str, cards: list[str]) -> None:
    """Refuse cards ``player`` cannot hold: more than the hand, or already on the tower."""
    hand = state["hands"][player]
    if hand == 0:
        raise _refuse("no_cards", "ROC-6", player=player)
    if len(cards) > hand:
        raise _refuse("bon_hand", "ROC-11", player=player, cards=_count(hand))
    jokers = state["played"].count(JOKER)
    for card in cards:
        if card == JOKER:
            jokers += 1
            if jokers > JOKERS:
                raise _refuse("no_jokers", "ROC-1")
        elif card in state["played"]:
            raise _refuse("played_twice", "ROC-1", card=_label(card))


def _target(state: dict, player: str, value: Any) -> str:
    """The receiver of an opening queen: another player still in the game (ROC-7)."""
    if not isinstance(value, str) or value not in _still_in(state) or value == player:
        raise _refuse("queen_target", "ROC-7")
    return value


def _pending_text(pending: dict) -> dict[str, str]:
    return {"player": pending["player"], "kind": pending["kind"],
            "cards": _count(pending["count"])}


def _put_on_tower(state: dict, player: str, cards: list[str]) -> None:
    state["played"].extend(cards)
    for card in cards:
        if card != JOKER:
            state["played_by"][card] = player
    _set_hand(state, player, state["hands"][player] - len(cards))


# ---------------------------------------------------------------------------------------
# Effects (ROC-7), shared by plays and Bons.

def _effect(state: dict, player: str, rank: str, lines: list[str], *, answer: bool,
            declared: str | None = None, target: str | None = None,
            may_go_out: bool = True) -> str:
    """Apply the effect of one card (or one Bon) of ``rank``; return the line's rule.

    ``may_go_out``: a queen's give that empties the hand leaves the player out if the
    receiver takes the cards (False after a refused going out, ROC-8)."""
    if rank == "A":
        state["current"] = player
        lines.append(_say("again", player=player))
        return "ROC-7"
    if rank == "0":
        if len(_still_in(state)) >= 3:
            state["direction"] = -state["direction"]
            lines.append(_say("reverse", next=_next(state, player)))
        else:
            lines.append(_say("no_reverse", next=_next(state, player)))
        state["current"] = _next(state, player)
        return "ROC-7"
    if rank in PENALTY_STEP:
        before = state["pending"]["count"] if state["pending"] else 0
        nxt = _next(state, player)
        count = before + PENALTY_STEP[rank]
        state["pending"] = {"kind": rank, "count": count, "player": nxt, "by": player}
        state["current"] = nxt
        key = "penalty_more" if before else "penalty_new"
        lines.append(_say(key, next=nxt, kind=rank, cards=_count(count)))
        return "ROC-7"
    if rank == "Q":
        return _queen(state, player, target, lines, answer, may_go_out)
    if rank == JOKER:
        state["lock"] = declared
        state["current"] = _next(state, player)
        lines.append(_say("joker", player=player, suit=_SYMBOL[declared],
                          next=state["current"]))
        return "ROC-5"
    state["current"] = _next(state, player)
    lines.append(_say("next", next=state["current"]))
    return "ROC-6"


def _queen(state: dict, player: str, target: str, lines: list[str], answer: bool,
           may_go_out: bool = True) -> str:
    """Open or continue a queen exchange: give 1, then 1 more per answering queen.

    A give that empties the giver's hand stays open like any other (ROC-A12): the receiver
    may still answer, and ``out`` records that the giver goes out if the cards are taken
    (:func:`_accept`)."""
    wanted = state["queen"]["count"] + 1 if answer else 1
    given = _give(state, player, target, wanted)
    out = may_go_out and given > 0 and state["hands"][player] == 0
    state["queen"] = {"giver": player, "receiver": target, "count": wanted, "given": given,
                      "out": out}
    state["current"] = target
    lines.append(_say("queen_open_out" if out else "queen_open", player=player,
                      given=_count(given), receiver=target, back=_count(wanted + 1)))
    return "ROC-A12" if out else "ROC-7"


def _goes_out(state: dict, player: str, start_hand: int, had_said: bool) -> bool:
    """Whether an emptied hand goes out (ROC-8/9): One said, or the hand never rested at
    exactly 1 card (a Bon emptied it in one move). A queen's give that empties the hand
    is not this: it waits for the receiver (ROC-A12, :func:`_queen`)."""
    return state["hands"][player] == 0 and (had_said or start_hand != 1)


# ---------------------------------------------------------------------------------------
# The actions.

def _play(state: dict, action: Mapping) -> None:
    player = _actor(state, action)
    card = _action_card(action.get("card"))
    rank = _rank(card)
    queen, pending, lock = state["queen"], state["pending"], state["lock"]
    answer = False
    target = None
    if queen is not None:
        if player != queen["receiver"]:
            raise _refuse("queen_player", "ROC-7", receiver=queen["receiver"],
                          giver=queen["giver"])
        if rank != "Q":
            raise _refuse("queen_card", "ROC-7", player=player, card=_label(card))
        if action.get("to") not in (None, queen["giver"]):
            raise _refuse("queen_back", "ROC-7", giver=queen["giver"])
        answer, target = True, queen["giver"]
    elif pending is not None:
        if player != pending["player"]:
            raise _refuse("pending_player", "ROC-A8", **_pending_text(pending))
        if rank != pending["kind"]:
            raise _refuse("pending_card", "ROC-A8", card=_label(card),
                          **_pending_text(pending))
        answer = True
    else:
        if player != state["current"]:
            raise _refuse("not_turn", "ROC-6", current=state["current"], player=player)
        if lock is not None and card != JOKER and _suit_of(card) != lock:
            raise _refuse("lock", "ROC-5", suit=_SYMBOL[lock])
    _check_available(state, player, [card])
    declared = None
    if card == JOKER:
        try:
            declared = _suit(action.get("suit"))
        except ValueError as error:
            raise RuleError(error.args[0], "ROC-3") from None    # args[0]: the Said
    if rank == "Q" and not answer:
        target = _target(state, player, action.get("to"))

    had_said = player in state["said_one"]
    lines = [_say("played", player=player, card=_label(card))]
    _put_on_tower(state, player, [card])
    state["lock"] = None                     # any card played covers the joker's head
    if state["hands"][player] == 0:
        if had_said:
            lines.append(_say("went_out", player=player, game=state["game_number"]))
            _log(state, "play", player, lines, "ROC-9", card=card)
            _finish(state, player, "out")
            return
        drawn = _draw(state, player, ONE_PENALTY, lines)
        lines.insert(1, _say("forgot_one", player=player, cards=_count(drawn)))
        rule = "ROC-8"
        refused = True
    else:
        rule, refused = None, False
    # Only a queen's give can empty the hand now; it stays open for the receiver (ROC-A12).
    # The hand held 2 or more before this card, so no One was due (a refused going out
    # never goes out).
    effect_rule = _effect(state, player, rank, lines, answer=answer, declared=declared,
                          target=target, may_go_out=not refused)
    _log(state, "play", player, lines, rule or effect_rule, card=card)


def _draw_action(state: dict, action: Mapping) -> None:
    player = _actor(state, action)
    queen, pending = state["queen"], state["pending"]
    if queen is not None:
        if player == queen["receiver"]:
            raise _refuse("queen_draw", "ROC-7", player=player)
        raise _refuse("queen_player", "ROC-7", receiver=queen["receiver"],
                      giver=queen["giver"])
    if pending is not None:
        if player != pending["player"]:
            raise _refuse("pending_player", "ROC-A8", **_pending_text(pending))
        lines: list[str] = []
        drawn = _draw(state, player, pending["count"], lines)
        state["pending"] = None
        state["current"] = _next(state, player)
        lines.insert(0, _say("took_penalty", player=player, cards=_count(drawn),
                             kind=pending["kind"], next=state["current"]))
        _log(state, "draw", player, lines, "ROC-A5" if drawn < pending["count"] else "ROC-7")
        return
    if player != state["current"]:
        raise _refuse("not_turn", "ROC-6", current=state["current"], player=player)
    if state["stock"] == 0:
        raise _refuse("stock_empty", "ROC-10", player=player)
    lines = []
    _draw(state, player, 1, lines)
    state["current"] = _next(state, player)
    lines.insert(0, _say("drew", player=player, next=state["current"]))
    _log(state, "draw", player, lines, "ROC-6")


def _accept(state: dict, action: Mapping) -> None:
    player = _actor(state, action)
    queen = state["queen"]
    if queen is None:
        raise _refuse("no_queen", "ROC-7")
    if player != queen["receiver"]:
        raise _refuse("accept_other", "ROC-7", receiver=queen["receiver"], player=player)
    giver = queen["giver"]
    state["queen"] = None
    if queen.get("out") and state["hands"][giver] == 0:
        # The give emptied the giver's hand and nobody answered: the giver is out (ROC-A12).
        _log(state, "accept", player, [_say("took_queen_out", player=player, giver=giver,
                                            game=state["game_number"])], "ROC-A12")
        _finish(state, giver, "out")
        return
    state["current"] = _next(state, giver)             # after the last queen's player
    _log(state, "accept", player, [_say("took_queen", player=player, next=state["current"])],
         "ROC-7")


def _one(state: dict, action: Mapping) -> None:
    player = _actor(state, action)
    hand = state["hands"][player]
    if hand != 1:
        raise _refuse("one_count", "ROC-8", player=player, cards=_count(hand))
    if player in state["said_one"]:
        raise _refuse("one_again", "ROC-8", player=player)
    state["said_one"].append(player)
    _log(state, "one", player, [_say("said_one", player=player)], "ROC-8")


def _stock_out(state: dict, action: Mapping) -> None:
    if state["stock_out"]:
        raise _refuse("already_stock_out", "ROC-10")
    lines = [_say("declared_stock_out")]
    if state["stock"]:
        # The table's stock ran out before the count: write the difference off, so hands +
        # tower + stock + missing still make the whole deck.
        lines.append(_say("missing", cards=_count(state["stock"])))
        state["missing"] += state["stock"]
        state["stock"] = 0
    state["stock_out"] = True
    _log(state, "stock_out", None, lines, "ROC-10")


def _cannot_play(state: dict, action: Mapping) -> None:
    player = _actor(state, action)
    if state["queen"] is not None:
        if player == state["queen"]["receiver"]:
            raise _refuse("cannot_queen", "ROC-7", player=player)
        raise _refuse("queen_player", "ROC-7", receiver=state["queen"]["receiver"],
                      giver=state["queen"]["giver"])
    pending = state["pending"]
    if pending is not None and player != pending["player"]:
        raise _refuse("pending_player", "ROC-A8", **_pending_text(pending))
    if pending is None and player != state["current"]:
        raise _refuse("not_turn", "ROC-6", current=state["current"], player=player)
    if not state["stock_out"]:
        raise _refuse("not_stock_out", "ROC-10", player=player)
    if pending is not None:
        raise _refuse("cannot_pending", "ROC-A5", player=player, kind=pending["kind"])
    nxt = _next(state, player)
    state["eliminated"].append(player)
    lines = [_say("cannot_play", player=player)]
    left = _still_in(state)
    if len(left) == 1:
        lines.append(_say("last_left", player=left[0], game=state["game_number"]))
        _log(state, "cannot_play", player, lines, "ROC-10")
        _finish(state, left[0], "last")
        return
    state["current"] = nxt
    lines.append(_say("next", next=nxt))
    _log(state, "cannot_play", player, lines, "ROC-10")


def _bon_cards(action: Mapping) -> list[str]:
    raw = action.get("cards")
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (list, tuple)) \
            or not 2 <= len(raw) <= 3:
        raise _refuse("bon_cards", "ROC-11")
    cards = [_action_card(card) for card in raw]
    if JOKER in cards:
        raise _refuse("bon_joker", "ROC-11")
    for card in cards:
        if cards.count(card) > 1:
            raise _refuse("bon_twice", "ROC-11", card=_label(card))
    return cards


def _bon(state: dict, action: Mapping) -> None:
    if not state["settings"]["bon"]:
        raise _refuse("bon_off", "ROC-11")
    player = _actor(state, action)
    if state["queen"] is not None:
        raise _refuse("bon_queen", "ROC-7")
    if state["lock"] is not None:
        raise _refuse("bon_lock", "ROC-5")
    cards = _bon_cards(action)
    if action.get("onto") is None:
        raise _refuse("bon_onto_missing", "ROC-11")
    onto = _action_card(action.get("onto"))
    rank = _rank(onto)
    if onto == JOKER:
        raise _refuse("bon_lock", "ROC-5")
    for card in cards:
        if _rank(card) != rank:
            raise _refuse("bon_rank", "ROC-11", onto=_label(onto), card=_label(card))
    # The start card is not recorded, so a possible start card counts as on the tower.
    if onto not in state["played"] and not is_start_card(onto):
        raise _refuse("bon_not_on_tower", "ROC-11", onto=_label(onto))
    if state["played_by"].get(onto) == player:
        raise _refuse("bon_own", "ROC-11", player=player, onto=_label(onto))
    pending = state["pending"]
    if pending is not None and rank != pending["kind"]:
        raise _refuse("bon_pending", "ROC-A8", kind=pending["kind"])
    _check_available(state, player, cards)
    target = None
    if rank == "Q":
        target = _target(state, player, action.get("to"))

    start_hand, had_said = state["hands"][player], player in state["said_one"]
    lines = [_say("played_bon", player=player, onto=_label(onto),
                  cards=", ".join(_label(card) for card in cards))]
    _put_on_tower(state, player, cards)
    if _goes_out(state, player, start_hand, had_said):
        lines.append(_say("went_out", player=player, game=state["game_number"]))
        _log(state, "bon", player, lines, "ROC-9", cards=cards)
        _finish(state, player, "out")
        return
    answer = pending is not None                 # a Bon on a pending J/K answers it once
    # A Bon of queens whose give empties the hand stays open for the receiver (ROC-A12).
    effect_rule = _effect(state, player, rank, lines, answer=answer, target=target)
    rule = "ROC-A10" if answer else "ROC-A12" if effect_rule == "ROC-A12" else "ROC-11"
    _log(state, "bon", player, lines, rule, cards=cards)


def _new_game(state: dict, action: Mapping) -> None:
    if state["winner"] is None:
        raise _refuse("not_over", "ROC-9")
    starter = state["games"][-1]["loser"]
    _deal(state, starter)
    _log(state, "new_game", None, [_say("new_game", game=state["game_number"],
                                        player=starter)], "ROC-A6")


_ACTIONS = {
    "play": _play,
    "draw": _draw_action,
    "accept": _accept,
    "one": _one,
    "bon": _bon,
    "stock_out": _stock_out,
    "cannot_play": _cannot_play,
    "new_game": _new_game,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after one action (the input is not changed).

    An illegal action raises RuleError: one sentence and the rule ID that refused it. Once a
    game has a winner only ``new_game`` is accepted.
    """
    _check_state(state)
    if not isinstance(action, Mapping) or not isinstance(action.get("kind"), str):
        raise _refuse("not_action", "ROC-6")
    kind = action["kind"]
    handler = _ACTIONS.get(kind)
    if handler is None:
        raise _refuse("unknown_kind", "ROC-6", kind=kind)
    if state["winner"] is not None and kind != "new_game":
        raise _refuse("game_over", _game_rule(state), winner=state["winner"])
    result = copy.deepcopy(state)
    handler(result, action)
    return result


# ---------------------------------------------------------------------------------------
# The summary.

def _status(state: dict) -> dict[str, str]:
    """What happens now, as one sentence and its rule."""
    if state["winner"] is not None:
        last = state["games"][-1]
        return {"text": _say("status_over", winner=last["winner"], game=last["game"],
                             starter=last["loser"]), "rule": _game_rule(state)}
    queen, pending, lock = state["queen"], state["pending"], state["lock"]
    player = state["current"]
    if queen is not None:
        out = bool(queen.get("out"))
        return {"text": _say("status_queen_out" if out else "status_queen",
                             receiver=queen["receiver"], giver=queen["giver"],
                             back=_count(queen["count"] + 1)),
                "rule": "ROC-A12" if out else "ROC-7"}
    if pending is not None:
        return {"text": _say("status_pending", **_pending_text(pending)), "rule": "ROC-7"}
    if lock is not None:
        return {"text": _say("status_lock", player=player, suit=_SYMBOL[lock]),
                "rule": "ROC-5"}
    if state["stock_out"]:
        return {"text": _say("status_turn_empty", player=player), "rule": "ROC-10"}
    return {"text": _say("status_turn", player=player), "rule": "ROC-6"}


def summary(state: dict) -> dict:
    """The referee screen for the game in progress and the match tally.

    Keys: ``game`` ("rocca"), ``seats``, ``settings``, ``house_rules``, ``game_number``,
    ``starter``; ``current`` (the player who must act next: the player to move, the player
    owing a J/K answer, or the receiver of a queen; None once the game is over),
    ``direction`` (1 clockwise, -1), ``pending`` (None or ``{"kind": "J"|"K", "count",
    "player", "by"}``), ``queen`` (None or ``{"giver", "receiver", "count", "given", "out"}``:
    the last queen asked ``count`` cards and ``given`` were handed over; ``out``: the give
    emptied the giver's hand, so the giver goes out if the receiver takes the cards,
    ROC-A12), ``lock`` (None or
    ``{"suit", "symbol"}``), ``hands`` (cards in each hand), ``stock``, ``tower`` (cards
    on the tower, the start card included), ``missing``, ``stock_out``, ``said_one``,
    ``must_say_one`` (1 card and no One yet), ``eliminated`` (in order, first = worst),
    ``still_in``, ``turn_order`` (the players still in, from the one who acts now, or the
    starter once over, in the direction of play), ``queen_targets`` (who an opening queen
    can go to: the other players still in), ``status`` ({"text", "rule"}: what happens now), ``last`` (the latest
    line, {"kind", "player", "text", "rule", "card"/"cards"}, or None), ``lines`` (this
    game's lines), ``totals`` (games won), ``over`` (this game has a winner and awaits
    ``new_game``), ``winners`` ([that winner] once over, else []), ``winner``,
    ``places`` (once over, every player's place in this game, ``{player: 1..}``, see
    :func:`finish_places`; None before), ``next_starter`` (the biggest loser once over),
    ``games`` (finished games: game, winner, how "out"|"last", starter, eliminated, hands,
    loser, places) and ``rules``.
    """
    _check_state(state)
    over = state["winner"] is not None
    lock = state["lock"]
    still_in = _still_in(state)
    return {
        "game": SLUG,
        "seats": list(state["seats"]),
        "settings": dict(state["settings"]),
        "house_rules": describe_settings(SETTINGS, state["settings"]),
        "game_number": state["game_number"],
        "starter": state["starter"],
        "current": state["current"],
        "direction": state["direction"],
        "pending": None if state["pending"] is None else dict(state["pending"]),
        "queen": None if state["queen"] is None else dict(state["queen"]),
        "lock": None if lock is None else {"suit": lock, "symbol": _SYMBOL[lock]},
        "hands": dict(state["hands"]),
        "stock": state["stock"],
        "tower": len(state["played"]) + 1,
        "missing": state["missing"],
        "stock_out": state["stock_out"],
        "said_one": list(state["said_one"]),
        "must_say_one": [p for p in still_in
                         if state["hands"][p] == 1 and p not in state["said_one"]],
        "eliminated": list(state["eliminated"]),
        "still_in": still_in,
        "turn_order": turn_order(state["seats"], still_in,
                                 state["current"] or state["starter"], state["direction"]),
        "queen_targets": [p for p in still_in if p != state["current"]],
        "status": _status(state),
        "last": copy.deepcopy(state["lines"][-1]) if state["lines"] else None,
        "lines": copy.deepcopy(state["lines"]),
        "totals": dict(state["wins"]),
        "over": over,
        "winners": [state["winner"]] if over else [],
        "places": _places(state["games"][-1], state["seats"]) if over else None,
        "winner": state["winner"],
        "next_starter": state["games"][-1]["loser"] if over else None,
        "games": copy.deepcopy(state["games"]),
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
