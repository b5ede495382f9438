"""Rook: the partnership bidding card game (slug ``rook``, RULES.md §2).

settings: ``variant`` picks a preset (``family`` — the seed's double-deck game, the default —
``kentucky``, ``ones_180``, ``ones_200``, ``game_140``; see :data:`VARIANTS`). Every value a
preset sets is a setting of its own that a table may override: ``target``, ``both_over``,
``min_bid``, ``max_bid`` (default: the whole hand), ``bid_step``, ``moon``, ``rook_rank``,
``rook_any_time``, ``rook_points``, ``ones``, ``one_points``, ``last_trick``, ``decks``,
``nest``, ``trump_discard``, ``all_pass`` and ``identical``. Left out (or None) means "the
preset's".

4 or 6 seats; team ``"A"`` sits in seats 0, 2, 4 and team ``"B"`` in seats 1, 3, 5.

actions:

- ``{"kind": "hand", "bidder": player, "bid": int, "points": {"A": int, "B": int},
  "discard_ok": bool = True, "played": bool = True, "trump": colour | None}`` — the points
  each team took, bonuses and the discard included. ``discard_ok: False`` is the automatic
  set for a bad discard (R-A2); add ``"played": False`` when it was caught before play (the
  points may then be left out: bidders lose the bid, the others score 0).
- ``{"kind": "redeal"}`` — everyone passed and the next dealer deals (R-A7).
- ``{"kind": "paper", "paper": {"totals": {"A": int, "B": int}}}`` — the game goes on from
  a paper sheet (:func:`from_paper`); only as a game's first action.

The rule functions take ``variant``: a preset name (``"kentucky"``), or a settings dict as
``new`` takes it (``{"variant": "family", "min_bid": 160}``), or a game state. They are
:func:`check_bid`, :func:`score_hand`, :func:`trick_winner`, :func:`check_discard`,
:func:`count_points`, :func:`hand_total` and :func:`resolve_settings`; for settling arguments
at the table, where a rule sheet in hand is slow to consult, :func:`check_bidding` (the
auction so far), :func:`check_discard_counts` (the discard by numbers), :func:`check_follow`
(did they have to follow?) and :func:`hand_size`. Rule IDs are those of
RULES.md §2 (:data:`RULES`); the choices made are written up in docs/RULES-NOTES.md.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import ROOK_COLOURS, parse_card, parse_cards, split_card
from .game import (PAPER, Game, Setting, check_seats, check_settings, describe_settings,
                   paper_totals)
from .said import N_, Said, joined, listing, message
from .text import join_names, number
from .verdict import RuleError, Verdict

__all__ = [
    "GAME",
    "RULES",
    "SETTINGS",
    "TEAMS",
    "VARIANTS",
    "COLOUR_NAMES",
    "apply",
    "card_label",
    "check_bid",
    "check_bidding",
    "check_discard",
    "check_discard_counts",
    "check_follow",
    "count_points",
    "from_paper",
    "hand_size",
    "hand_total",
    "new",
    "resolve_settings",
    "score_hand",
    "summary",
    "team_of",
    "trick_winner",
]

SLUG = "rook"
NAME = "Rook"
MIN_PLAYERS = 4
MAX_PLAYERS = 6
TEAMS = ("A", "B")
ROOK = "ROOK"
COLOURS = ROOK_COLOURS
#: The colours' names as words of a sentence ("Black is trump"): Saids, so they translate.
COLOUR_NAMES: dict[str, Said] = {
    "B": message("rook", "Black"),
    "R": message("rook", "Red"),
    "Y": message("rook", "Yellow"),
    "G": message("rook", "Green"),
}

RULES: dict[str, str] = {
    "RK-1": N_("The deck: the family game uses two Rook decks without the cards below 5 (two 4s "
               "kept for 6 players); the other variants use one deck of 5–14, with or without "
               "the 1s, and the Rook bird."),
    "RK-1b": N_("Only cards the deck has: two of each in the family game (the 4s only with 6 "
                "players, and then just two, of different colours), one of each and one Rook "
                "bird in a single deck."),
    "RK-2": N_("4 or 6 players form two teams seated alternately: team A in seats 1, 3, 5 and "
               "team B in seats 2, 4, 6."),
    "RK-3": N_("The deal passes clockwise: after every hand the next player deals."),
    "RK-4": N_("Bids lie on the grid from the minimum bid in steps of the bid step up to the "
               "highest bid, and every raise must be higher than the current bid."),
    "RK-5": N_("The bidder takes the widow and discards as many cards; the wrong number of "
               "cards, or trump when the house rules forbid it and the bidder is not forced, is "
               "an automatic set."),
    "RK-6": N_("The highest trump wins the trick, otherwise the highest card of the colour led; "
               "the Rook bird is always trump and ranks as the variant says (lowest trump in the "
               "family game). Players must follow the colour led if they can; on a trump lead "
               "the Rook bird is trump too."),
    "RK-7": N_("The points both teams took, counters plus any last-trick bonus and the discard, "
               "add up to the variant's total per hand (250 in the family game); every counter "
               "and bonus being a multiple of 5, so is each team's share (RK-7b)."),
    "RK-8": N_("The other team always scores what it took; the bidders score what they took if "
               "it reaches their bid, otherwise they lose exactly their bid."),
    "RK-9": N_("The first team to reach the target wins; if both reach it on the same hand, the "
               "house rule decides (bidder goes in the family game, the higher total in Kentucky "
               "Discard)."),
    "R-A1": N_("In the 140-point game the Rook ranks as 10½, between the 10 and the 11 of trump, "
               "and is worth 20 points."),
    "R-A2": N_("A bad discard is an automatic set: the bidders lose their bid; if the hand was "
               "played the other team keeps what it took, if it was caught before play they "
               "score 0 and the deal passes."),
    "R-A3": N_("Trump, Rooks included, may be discarded only when the bidder holds more trump "
               "than the hand size after discarding, and then only that many."),
    "R-A4": N_("Taking exactly the bid makes it."),
    "R-A5": N_("Shooting the moon counts only when the house rules say so: taking every point "
               "scores double, or a declared moon (bidding the whole hand) wins the game when "
               "made and loses it when missed."),
    "R-A6": N_("When identical cards of a double deck tie for the best card of a trick, the "
               "first one played wins (house rule: the last one)."),
    "R-A7": N_("If everyone passes, the next dealer deals again (house rule: the dealer must bid "
               "the minimum)."),
    "R-A8": N_("Scores may go below zero."),
}

_VARIANT_CHOICES = (
    ("family", N_("Family game, double deck (250 a hand)")),
    ("kentucky", N_("Kentucky Discard, official (120 a hand)")),
    ("ones_180", N_("1s high (180 a hand)")),
    ("ones_200", N_("1s high, last trick 20 (200 a hand)")),
    ("game_140", N_("140-point game, Rook 10½")),
)

#: Every value each preset sets (RULES.md §2.3). ``max_bid`` None means "the whole hand".
VARIANTS: dict[str, dict[str, Any]] = {
    "family": {
        "target": 600, "both_over": "bidder_goes", "min_bid": 150, "max_bid": None,
        "bid_step": 5, "moon": "off", "rook_rank": "low", "rook_points": 25, "ones": False,
        "one_points": 0, "last_trick": 0, "decks": 2, "nest": 6, "trump_discard": False,
        "all_pass": "redeal", "identical": "first", "rook_any_time": False,
    },
    "kentucky": {
        "target": 300, "both_over": "higher_total", "min_bid": 70, "max_bid": None,
        "bid_step": 5, "moon": "off", "rook_rank": "high", "rook_points": 20, "ones": False,
        "one_points": 0, "last_trick": 0, "decks": 1, "nest": 5, "trump_discard": True,
        "all_pass": "redeal", "identical": "first", "rook_any_time": True,
    },
    "ones_180": {
        "target": 500, "both_over": "higher_total", "min_bid": 100, "max_bid": None,
        "bid_step": 5, "moon": "off", "rook_rank": "high", "rook_points": 20, "ones": True,
        "one_points": 15, "last_trick": 0, "decks": 1, "nest": 5, "trump_discard": True,
        "all_pass": "redeal", "identical": "first", "rook_any_time": False,
    },
    "ones_200": {
        "target": 500, "both_over": "higher_total", "min_bid": 100, "max_bid": None,
        "bid_step": 5, "moon": "off", "rook_rank": "high", "rook_points": 20, "ones": True,
        "one_points": 15, "last_trick": 20, "decks": 1, "nest": 5, "trump_discard": True,
        "all_pass": "redeal", "identical": "first", "rook_any_time": False,
    },
    "game_140": {
        "target": 300, "both_over": "higher_total", "min_bid": 70, "max_bid": None,
        "bid_step": 5, "moon": "off", "rook_rank": "ten_half", "rook_points": 20,
        "ones": False, "one_points": 0, "last_trick": 20, "decks": 1, "nest": 5,
        "trump_discard": True, "all_pass": "redeal", "identical": "first", "rook_any_time": False,
    },
}
VARIANTS = {name: MappingProxyType(values) for name, values in VARIANTS.items()}  # read-only

_BOTH_OVER = (
    ("bidder_goes", N_("Bidder goes")),
    ("higher_total", N_("Higher total wins")),
    ("made_bid", N_("Only a made bid wins the game")),
)
_MOON = (
    ("off", N_("Off")),
    ("double", N_("Taking every point scores double")),
    ("declared", N_("Declared moon wins or loses the game")),
)
_ROOK_RANK = (
    ("low", N_("Lowest trump")),
    ("high", N_("Highest trump")),
    ("ten_half", N_("10½: between the 10 and the 11 of trump")),
)
_ALL_PASS = (
    ("redeal", N_("The next dealer deals again")),
    ("dealer_bids", N_("The dealer must bid the minimum")),
)
_IDENTICAL = (
    ("first", N_("The first one played wins")),
    ("last", N_("The last one played wins")),
)

SETTINGS: tuple[Setting, ...] = (
    Setting("variant", N_("Variant"), "choice", "family", choices=_VARIANT_CHOICES,
            help=N_("The rules your table plays; every value below defaults to this variant's."),
            rule="RK-1"),
    Setting("target", N_("Game target"), "int", None, 1, 100_000,
            help=N_("The first team to reach this total wins; leave empty for the variant's."),
            rule="RK-9"),
    Setting("both_over", N_("Both teams over the target"), "choice", None, choices=_BOTH_OVER,
            help=N_("Who wins when both teams reach the target on the same hand."),
            rule="RK-9"),
    Setting("min_bid", N_("Minimum bid"), "int", None, 1, 10_000,
            help=N_("The lowest opening bid; leave empty for the variant's."), rule="RK-4"),
    Setting("max_bid", N_("Highest bid"), "int", None, 1, 10_000,
            help=N_("The highest bid allowed; leave empty for the whole hand's points."),
            rule="RK-4"),
    Setting("bid_step", N_("Bid step"), "int", None, 1, 1_000,
            help=N_("Bids go up from the minimum in steps of this many points."), rule="RK-4"),
    Setting("moon", N_("Shooting the moon"), "choice", None, choices=_MOON,
            help=N_("Whether taking every point (or bidding it) counts for more."), rule="R-A5"),
    Setting("rook_rank", N_("Rook bird ranks"), "choice", None, choices=_ROOK_RANK,
            help=N_("Where the Rook bird ranks among the trumps."), rule="RK-6"),
    Setting("rook_any_time", N_("Rook bird may be played at any time"), "bool", None,
            help=N_("Even by a player who could follow the colour led (Kentucky Discard)."),
            rule="RK-6"),
    Setting("rook_points", N_("Rook bird points"), "int", None, 0, 1_000,
            help=N_("What each Rook bird is worth."), rule="RK-7"),
    Setting("ones", N_("1s in the deck"), "bool", None,
            help=N_("Play with the 1s, the highest card of each colour."), rule="RK-1"),
    Setting("one_points", N_("Points for each 1"), "int", None, 0, 1_000,
            help=N_("What each 1 is worth when the 1s are in the deck."), rule="RK-7"),
    Setting("last_trick", N_("Last-trick bonus"), "int", None, 0, 1_000,
            help=N_("Extra points for the team taking the last trick."), rule="RK-7"),
    Setting("decks", N_("Rook decks"), "int", None, 1, 2,
            help=N_("One deck, or two decks with every card twice (the family game)."),
            rule="RK-1"),
    Setting("nest", N_("Widow size"), "int", None, 1, 12,
            help=N_("Cards in the widow (nest), and so in the bidder's discard."), rule="RK-5"),
    Setting("trump_discard", N_("Trump may be discarded"), "bool", None,
            help=N_("Whether the bidder may discard trump when not forced to."), rule="RK-5"),
    Setting("all_pass", N_("Everyone passes"), "choice", None, choices=_ALL_PASS,
            help=N_("What happens when nobody bids."), rule="R-A7"),
    Setting("identical", N_("Identical cards in a trick"), "choice", None, choices=_IDENTICAL,
            help=N_("With two decks, which of two identical best cards takes the trick."),
            rule="R-A6"),
)


# ---------------------------------------------------------------------------------------
# Settings and variants.

def resolve_settings(variant: Any = "family") -> dict[str, Any]:
    """The complete settings for a preset name, a settings dict or a game state.

    Every key of :data:`SETTINGS` is filled: an override wins, otherwise the preset's value;
    ``max_bid`` defaults to the points in a hand. Raises ValueError (one plain sentence) for
    an unknown variant, an unknown key, a bad value or values that do not fit together.
    """
    if isinstance(variant, str):
        settings: Mapping[str, Any] = {"variant": variant}
    elif isinstance(variant, Mapping):
        settings = variant
        if settings.get("game") == SLUG and isinstance(settings.get("settings"), Mapping):
            settings = settings["settings"]  # a game state
    elif variant is None:
        settings = {}
    else:
        raise ValueError(N_("A Rook variant is a variant name or a dictionary of house rules."))
    name = settings.get("variant")
    if name is not None and (not isinstance(name, str) or name not in VARIANTS):
        either = message("rook", "or")
        raise ValueError(message("rook", "{name!r} is not a Rook variant: use {variants}.",
                                 name=name, variants=listing(VARIANTS, either)))
    checked = check_settings(SETTINGS, settings, NAME)
    preset = VARIANTS[checked["variant"]]
    resolved = {key: (preset[key] if checked[key] is None and key in preset else checked[key])
                for key in checked}
    total = _hand_total(resolved)
    if resolved["max_bid"] is None:
        resolved["max_bid"] = total
    _check_fit(resolved, total)
    return resolved


def _check_fit(s: dict[str, Any], total: int) -> None:
    """Refuse settings that do not work together (ValueError)."""
    if total < 1:
        raise ValueError(N_("A hand must be worth some points: give the counters a value."))
    if not s["ones"] and s["one_points"]:
        raise ValueError(N_("The 1s are not in the deck, so they cannot be worth points."))
    if s["max_bid"] > total:
        raise ValueError(message("rook", "The highest bid ({high}) is more than a hand is "
                                         "worth ({total}).",
                                 high=number(s["max_bid"]), total=number(total)))
    if s["min_bid"] > s["max_bid"]:
        raise ValueError(message("rook", "The minimum bid ({low}) is above the highest bid "
                                         "({high}).",
                                 low=number(s["min_bid"]), high=number(s["max_bid"])))
    if s["moon"] == "declared" and s["max_bid"] < total:
        raise ValueError(message("rook", "A declared moon bids the whole hand, so the highest "
                                         "bid must be {total}.", total=number(total)))


def _hand_total(s: Mapping[str, Any]) -> int:
    """Points in one hand: counters of every deck, the birds, the 1s and the bonus (RK-7)."""
    per_deck = 4 * (5 + 10 + 10) + s["rook_points"] + (4 * s["one_points"] if s["ones"] else 0)
    return s["decks"] * per_deck + s["last_trick"]


def hand_total(variant: Any = "family") -> int:
    """The points both teams take in one hand, bonuses included (RK-7): 250 in the family
    game, 120 Kentucky Discard, 180, 200 and 140 for the other presets."""
    return _hand_total(resolve_settings(variant))


def _table_settings(settings: Any) -> dict[str, Any]:
    """A table's settings: a dict (or None) resolved against its variant; ValueError else."""
    if settings is not None and not isinstance(settings, Mapping):
        raise ValueError(N_("Settings must be a dictionary of house rules."))
    return resolve_settings(settings or {})


def _describe(settings: Mapping[str, Any] | None) -> list[dict[str, str]]:
    """Every house rule in plain words, preset values filled in, plus the points per hand."""
    try:
        resolved = resolve_settings(settings or {})
    except ValueError:
        return describe_settings(SETTINGS, settings or {})
    described = describe_settings(SETTINGS, resolved)
    described.insert(1, {"name": "hand_total", "label": N_("Points per hand"),
                         "value": number(_hand_total(resolved)), "rule": "RK-7"})
    return described


@dataclass(frozen=True)
class RookGame(Game):
    """The Rook :class:`Game`: its settings are filled in from the chosen variant, so
    ``check_settings`` and ``describe_settings`` show every value the preset sets."""

    def check_settings(self, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate a settings dict and return it complete, preset values filled in."""
        return _table_settings(settings)

    def describe_settings(self, settings: Mapping[str, Any]) -> list[dict[str, str]]:
        """The house rules in plain words, the variant's values included, plus a
        ``hand_total`` row (points per hand, derived)."""
        return _describe(settings)


# ---------------------------------------------------------------------------------------
# Teams.

def team_of(seat: int) -> str:
    """The team of a seat number (0-based): "A" for even seats, "B" for odd ones (RK-2)."""
    return TEAMS[seat % 2]


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


def _team_players(seats: list[str]) -> dict[str, list[str]]:
    return {team: [name for i, name in enumerate(seats) if team_of(i) == team]
            for team in TEAMS}


def _team_name(players: list[str]) -> str:
    """ "Ann & Cid", "Ann, Cid & Eve"."""
    return join_names(players, "&")


# ---------------------------------------------------------------------------------------
# Bids and scores.

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bid_verdict(s: Mapping[str, Any], bid: Any, current: Any = None) -> Verdict:
    low, high, step = s["min_bid"], s["max_bid"], s["bid_step"]
    details: dict[str, Any] = {"bid": bid if _is_int(bid) else None, "min": low, "max": high,
                               "step": step, "current": current,
                               "moon": False, "lowest": None}
    if current is not None and not _is_int(current):
        raise ValueError(N_("The current bid must be a whole number or None."))
    top = low + (high - low) // step * step
    if current is None or current < low:
        lowest = low
    else:
        lowest = low + ((current - low) // step + 1) * step
    details["lowest"] = lowest if lowest <= top else None
    grid = {"low": number(low), "high": number(high), "step": number(step)}
    if not _is_int(bid):
        return Verdict(False, message("rook", "A bid is a whole number: bids go from {low} to "
                                              "{high} in steps of {step}.", **grid),
                       "RK-4", details)
    if bid < low:
        return Verdict(False, message("rook", "{bid} is too low: bids start at {low}.",
                                      bid=number(bid), low=number(low)), "RK-4", details)
    if bid > high:
        return Verdict(False, message("rook", "{bid} is too high: the highest bid is {high}.",
                                      bid=number(bid), high=number(high)), "RK-4", details)
    if (bid - low) % step:
        return Verdict(False, message("rook", "{bid} is not a bid: bids go from {low} to "
                                              "{high} in steps of {step}.",
                                      bid=number(bid), **grid), "RK-4", details)
    if current is not None and bid <= current:
        if lowest <= top:
            text = message("rook", "{bid} is not a raise: it must be higher than the current "
                                   "bid of {current}, and the lowest raise is {lowest}.",
                           bid=number(bid), current=number(current), lowest=number(lowest))
        else:
            text = message("rook", "{bid} is not a raise: it must be higher than the current "
                                   "bid of {current}, and nobody can bid higher.",
                           bid=number(bid), current=number(current))
        return Verdict(False, text, "RK-4", details)
    details["moon"] = s["moon"] == "declared" and bid == _hand_total(s)
    if details["moon"]:
        return Verdict(True, message("rook", "{bid} is a legal bid: it declares the moon, every "
                                             "point of the hand.", bid=number(bid)),
                       "R-A5", details)
    return Verdict(True, message("rook", "{bid} is a legal bid.", bid=number(bid)), "RK-4",
                   details)


def check_bid(variant: Any, bid: Any, current: int | None = None) -> Verdict:
    """May ``bid`` be made (over ``current``, the standing bid, if any)? (RK-4)

    Legal bids are ``min_bid + k * bid_step`` up to ``max_bid``; a raise must be higher than
    ``current``. details: ``bid``, ``min``, ``max``, ``step``, ``current``, ``lowest`` (the
    lowest legal bid now, None when nobody can bid higher) and ``moon`` (a declared moon).
    """
    return _bid_verdict(resolve_settings(variant), bid, current)


#: How many of the next legal bids :func:`check_bidding` lists (two rows of chips).
NEXT_BIDS = 8
_BID_CALL = re.compile(r"[0-9]{1,6}", re.ASCII)


def _calls(calls: Any) -> list[int | None]:
    """Bids and passes (None) from a list (ints, None, "pass") or a text "150 pass 160"."""
    if isinstance(calls, str):
        items: list[Any] = [item for item in re.split(r"[\s,]+", calls.strip()) if item]
    elif isinstance(calls, Iterable) and not isinstance(calls, (bytes, Mapping)):
        items = list(calls)
    else:
        raise ValueError(N_("The calls are a list of bids and passes."))
    made: list[int | None] = []
    for item in items:
        if item is None or (isinstance(item, str) and item.strip().lower() in ("pass", "p")):
            made.append(None)
        elif _is_int(item):
            made.append(item)
        elif isinstance(item, str) and _BID_CALL.fullmatch(item.strip()):
            made.append(int(item.strip()))
        else:
            raise ValueError(message("rook", "{call!r} is not a call: say a bid (a number) or "
                                           "pass.", call=item))
    return made


def check_bidding(variant: Any, calls: Any, players: int | None = None) -> Verdict:
    """The auction so far, for the table (RK-4, R-A7): who is high, and what may come next.

    ``calls`` in the order made: bids (whole numbers) and passes (None or "pass"), as a list
    or a text like "150 pass 160". Each bid must be legal over the high bid before it
    (:func:`check_bid`); the first that is not makes ok False (rule RK-4) with ``refused``
    its index and the details of the auction before it. With ``players`` (4 or 6), as many
    passes before any bid mean everyone passed (R-A7): a redeal, or the dealer bids the
    minimum (the ``all_pass`` house rule); under a redeal a later bid is refused.
    details: ``calls`` (the accepted calls, None for a pass), ``high`` (the high bid or
    None), ``high_call`` (its index), ``passes``, ``passes_since`` (passes after the high
    bid), ``lowest`` (the lowest legal bid now, None when nobody can bid higher), ``next``
    (up to :data:`NEXT_BIDS` legal bids from ``lowest``), ``min``, ``max``, ``step``,
    ``all_passed``, ``refused``, ``refused_call`` and ``players``.
    """
    s = resolve_settings(variant)
    _check_players(players)
    made = _calls(calls)
    high: int | None = None
    details: dict[str, Any] = {"calls": [], "high": None, "high_call": None, "passes": 0,
                               "passes_since": 0, "lowest": None, "next": [],
                               "min": s["min_bid"], "max": s["max_bid"],
                               "step": s["bid_step"], "all_passed": False, "refused": None,
                               "refused_call": None, "players": players}

    def everyone_passed() -> bool:
        return players is not None and high is None and details["passes"] >= players

    def settle(upto: int) -> None:
        lowest = _bid_verdict(s, None, high).details["lowest"]
        details.update(calls=made[:upto], high=high, lowest=lowest,
                       next=list(range(lowest, s["max_bid"] + 1, s["bid_step"])[:NEXT_BIDS])
                       if lowest is not None else [],
                       all_passed=everyone_passed())
        if details["all_passed"]:    # R-A7: the dealer bids the minimum, or nobody bids
            dealer = s["all_pass"] == "dealer_bids"
            details.update(lowest=s["min_bid"] if dealer else None,
                           next=[s["min_bid"]] if dealer else [])

    for index, call in enumerate(made):
        if call is None:
            details["passes"] += 1
            details["passes_since"] += 1
            continue
        if everyone_passed() and s["all_pass"] == "redeal":
            settle(index)
            details.update(refused=index, refused_call=call)
            return Verdict(False, N_("Everyone passed, so this deal is over: the next dealer "
                                     "deals again."), "R-A7", details)
        verdict = _bid_verdict(s, call, high)
        if not verdict:
            settle(index)
            details.update(refused=index, refused_call=call)
            return Verdict(False, verdict.reason, verdict.rule, details)
        high = call
        details.update(high_call=index, passes_since=0)
    settle(len(made))
    if details["all_passed"]:
        if s["all_pass"] == "dealer_bids":
            return Verdict(True, message("rook", "Everyone passed: the dealer must bid the "
                                               "minimum, {bid}.", bid=number(s["min_bid"])),
                           "R-A7", details)
        return Verdict(True, N_("Everyone passed: the next dealer deals again."), "R-A7",
                       details)
    if high is None:
        return Verdict(True, message("rook", "No bid yet: the opening bid is {bid} or more, in "
                                           "steps of {step}.", bid=number(s["min_bid"]),
                                     step=number(s["bid_step"])), "RK-4", details)
    if details["lowest"] is None:
        return Verdict(True, message("rook", "The high bid is {high}, the highest there is: "
                                           "nobody can bid over it.", high=number(high)),
                       "RK-4", details)
    return Verdict(True, message("rook", "The high bid is {high}: the next bid must be {bid} or "
                                       "more, in steps of {step}; or pass.",
                                 high=number(high), bid=number(details["lowest"]),
                                 step=number(s["bid_step"])), "RK-4", details)


def _points_grid(s: Mapping[str, Any]) -> int:
    """The grid every team's points lie on (RK-7b): the greatest common divisor of the
    counters (5, 10, the Rook's, the 1s') and the last-trick bonus; 5 in every preset, 1 (no
    check) when a house rule makes a counter odd."""
    values = [5, 10, s["rook_points"], s["last_trick"]] + ([s["one_points"]] if s["ones"] else [])
    return math.gcd(*values)


def _score(s: Mapping[str, Any], bid: Any, bidder_points: Any, other_points: Any,
           discard_ok: Any = True, played: Any = True, on_grid: bool = True) -> Verdict:
    """Score one hand; ``on_grid`` False skips the RK-7b check (a hand already in a table's
    log before that check existed still replays)."""
    total = _hand_total(s)
    details: dict[str, Any] = {"made": None, "bidder": None, "other": None,
                               "rules": None, "moon": None, "bid": bid, "grid": None,
                               "bidder_points": bidder_points, "other_points": other_points,
                               "total": total, "discard_ok": discard_ok, "played": played}
    bid_verdict = _bid_verdict(s, bid)
    if not bid_verdict:
        return Verdict(False, bid_verdict.reason, bid_verdict.rule, details)
    if not isinstance(discard_ok, bool):
        return Verdict(False, N_("Say whether the bidder's discard was legal (yes or no)."),
                       "RK-5", details)
    if not isinstance(played, bool):
        return Verdict(False, N_("Say whether the hand was played (yes or no)."), "R-A2",
                       details)
    declared = s["moon"] == "declared" and bid == total
    missed = "missed" if declared else None

    def lost(text: Said) -> Said:
        """The sentence, and that a missed declared moon loses the game (R-A5)."""
        if not declared:
            return text
        return joined([text, message("rook", "The declared moon is missed, which loses the "
                                             "game.")])
    if not played:
        if discard_ok:
            return Verdict(False, N_("A hand that was not played can only be a bad discard "
                                     "caught before play."), "R-A2", details)
        if any(p not in (None, 0) for p in (bidder_points, other_points)):
            return Verdict(False, N_("A hand caught before play has no points to enter."),
                           "R-A2", details)
        details.update(made=False, bidder=-bid, other=0, moon=missed,
                       rules={"bidder": "R-A2", "other": "R-A2"})
        return Verdict(True, lost(message("rook", "Automatic set, caught before play: the "
                                                  "bidders lose their bid of {bid} and the "
                                                  "other team scores 0.", bid=number(bid))),
                       "R-A2", details)
    over = [points for points in (bidder_points, other_points)
            if _is_int(points) and points > total]
    if over:
        # Said before "0 or more": typing 260 for one team leaves -10 for the other, and
        # the number that is wrong is the 260.
        return Verdict(False, message("rook", "A hand holds {total} points in all, so no team "
                                              "takes {points}. Please recount.",
                                      total=number(total), points=number(max(over))),
                       "RK-7", details)
    for points in (bidder_points, other_points):
        if not _is_int(points) or points < 0:
            return Verdict(False, N_("Points taken are whole numbers of 0 or more."), "RK-7",
                           details)
    grid = details["grid"] = _points_grid(s)
    off = [points for points in (bidder_points, other_points) if on_grid and points % grid]
    if off:
        # RK-7b: every counter and bonus is a multiple of the grid (5), so is each share.
        if len(off) == 1:
            text = message("rook", "{points} is not a multiple of {grid}: every counter and "
                                 "bonus is, so each team's points are too. Please recount.",
                           points=number(off[0]), grid=grid)
        else:
            text = message("rook", "{first} and {second} are not multiples of {grid}: every "
                                 "counter and bonus is, so each team's points are too. "
                                 "Please recount.",
                           first=number(off[0]), second=number(off[1]), grid=grid)
        return Verdict(False, text, "RK-7", details)
    if bidder_points + other_points != total:
        return Verdict(False, message("rook", "The points add up to {points}, but a hand has "
                                              "{total}: please recount.",
                                      points=number(bidder_points + other_points),
                                      total=number(total)), "RK-7", details)
    other = other_points
    if not discard_ok:
        details.update(made=False, bidder=-bid, other=other, moon=missed,
                       rules={"bidder": "R-A2", "other": "R-A2"})
        return Verdict(True, lost(message("rook", "Automatic set for a bad discard: the "
                                                  "bidders lose their bid of {bid}; the other "
                                                  "team keeps the {other} it took.",
                                          bid=number(bid), other=number(other))),
                       "R-A2", details)
    made = bidder_points >= bid
    if declared:
        details["moon"] = "made" if made else "missed"
        change = bidder_points if made else -bid
        details.update(made=made, bidder=change, other=other,
                       rules={"bidder": "R-A5", "other": "RK-8"})
        if made:
            text = message("rook", "Declared moon made: the bidders took all {total} points "
                                   "and win the game.", total=number(total))
        else:
            text = message("rook", "Declared moon missed: the bidders took {points} of {total}, "
                                   "lose {bid} and lose the game.",
                           points=number(bidder_points), total=number(total), bid=number(bid))
        return Verdict(True, text, "R-A5", details)
    if made and s["moon"] == "double" and bidder_points == total:
        details.update(made=True, bidder=2 * total, other=other, moon="double",
                       rules={"bidder": "R-A5", "other": "RK-8"})
        return Verdict(True, message("rook", "Shot the moon: the bidders took all {total} "
                                             "points and score double, {double}.",
                                     total=number(total), double=number(2 * total)),
                       "R-A5", details)
    if made:
        rule = "R-A4" if bidder_points == bid else "RK-8"
        details.update(made=True, bidder=bidder_points, other=other,
                       rules={"bidder": rule, "other": "RK-8"})
        values = {"points": number(bidder_points), "bid": number(bid), "other": number(other)}
        if bidder_points == bid:
            text = message("rook", "Made: the bidders took {points}, exactly their bid of {bid}, "
                                   "and score {points}; the other team scores {other}.", **values)
        else:
            text = message("rook", "Made: the bidders took {points}, more than their bid of "
                                   "{bid}, and score {points}; the other team scores {other}.",
                           **values)
        return Verdict(True, text, rule, details)
    details.update(made=False, bidder=-bid, other=other,
                   rules={"bidder": "RK-8", "other": "RK-8"})
    return Verdict(True, message("rook", "Set: the bidders took {points}, less than their bid "
                                         "of {bid}, and lose {bid}; the other team scores "
                                         "{other}.", points=number(bidder_points),
                                 bid=number(bid), other=number(other)), "RK-8", details)


def score_hand(variant: Any, bid: Any, bidder_points: Any, other_points: Any,
               discard_ok: bool = True, played: bool = True) -> Verdict:
    """Score one hand (RK-7, RK-8, R-A2, R-A4, R-A5).

    ``ok`` says whether the hand can be scored: False for a bid off the grid (RK-4), or
    points that do not add up to the hand's total or are not on the grid of 5 (RK-7 and
    RK-7b, "recount": 183 and 67 add up to 250 but no counters make 183). When ok,
    ``details["made"]`` says whether the bidders made their bid, ``details["bidder"]`` and
    ``details["other"]`` are the two teams' score changes, ``details["rules"]`` the rule
    behind each, and
    ``details["moon"]`` None, "double", "made" or "missed". ``discard_ok=False`` is the
    automatic set (bidders lose the bid, the others keep what they took); with
    ``played=False`` as well, it was caught before play (the others score 0).
    """
    settings = resolve_settings(variant)
    return _score(settings, bid, bidder_points, other_points, discard_ok, played)


# ---------------------------------------------------------------------------------------
# Cards: points, tricks, the discard.

def _colour(text: Any) -> str:
    """The colour letter for "R", "red" or "Red"; ValueError naming anything else."""
    if isinstance(text, str):
        word = text.strip().upper()
        if word in COLOURS:
            return word
        for letter, name in COLOURS.items():
            if word == name.upper():
                return letter
    raise ValueError(message("rook", "{text!r} is not a Rook colour: use B, R, Y or G "
                                     "(black, red, yellow or green).", text=text))


def card_label(card: str) -> Said:
    """A Rook card for people, as a Said so its colour translates: "14 Red", "Rook bird"."""
    card = parse_card(card, "rook")
    if card == ROOK:
        return message("rook", "Rook bird")
    return message("rook", "{number} {colour}", number=card[:-1], colour=COLOUR_NAMES[card[-1]])


def _check_players(players: Any, unknown: bool = True) -> None:
    """4 or 6 (or None when ``unknown`` is allowed); ValueError otherwise."""
    if (players is None and unknown) or (_is_int(players) and players in (4, 6)):
        return
    raise ValueError(N_("Rook is for 4 or 6 players."))


def _ranks(s: Mapping[str, Any], players: int | None = None) -> list[int]:
    """The numbers in this variant's deck, lowest first: the two 4s only with two decks and
    6 players (``players`` None: not known, so the 4s may be there; RK-1b)."""
    low = 4 if s["decks"] == 2 and players != 4 else 5
    return list(range(low, 15)) + ([1] if s["ones"] else [])


def _deck_problem(s: Mapping[str, Any], cards: list[str],
                  players: int | None = None) -> str | None:
    """Why these cards cannot all come from this variant's deck, or None (RK-1, RK-1b).

    Two decks hold two of each card, but only two 4s, of different colours, and those only
    when 6 play; one deck holds one of each. ``players`` None allows the 4s.
    """
    numbers = set(_ranks(s, players))
    for card in cards:
        rank, _ = split_card(card, "rook")
        if card != ROOK and int(rank) not in numbers:
            if int(rank) == 4 and s["decks"] == 2:
                return message("rook", "There is no {card} with 4 players: the two 4s are "
                                     "only dealt when 6 play.",
                               card=card_label(card))
            low = "4" if s["decks"] == 2 else "5"
            if s["ones"]:
                return message("rook", "There is no {card} in this deck: it has {low}–14 and the "
                                       "1s in each colour and the Rook bird.",
                               card=card_label(card), low=low)
            return message("rook", "There is no {card} in this deck: it has {low}–14 in each "
                                   "colour and the Rook bird.", card=card_label(card), low=low)
    fours = [card for card in cards if card != ROOK and card[:-1] == "4"]
    if len(fours) > 2:
        return N_("The 6-player deck has only two 4s.")
    if len(fours) == 2 and fours[0] == fours[1]:
        return message("rook", "There is only one {card}: the two 4s of the 6-player deck are "
                             "of different colours.", card=card_label(fours[0]))
    for card in set(cards):
        if cards.count(card) > s["decks"]:
            if s["decks"] == 1:
                return message("rook", "There is only one {card} in this deck.",
                               card=card_label(card))
            return message("rook", "There are only two {card} in this deck.",
                           card=card_label(card))
    return None


def count_points(cards: str | Iterable[str], variant: Any = "family",
                 last_trick: bool = False) -> int:
    """The counters in ``cards`` (RK-7): 5 = 5, 10 and 14 = 10, 1 and the Rook as the
    variant says, plus the last-trick bonus when ``last_trick``. ValueError for bad notation
    or a card this variant's deck does not have."""
    s = resolve_settings(variant)
    parsed = parse_cards(cards, "rook")
    problem = _deck_problem(s, parsed)
    if problem:
        raise ValueError(problem)
    values = {5: 5, 10: 10, 14: 10, 1: s["one_points"]}
    points = 0
    for card in parsed:
        if card == ROOK:
            points += s["rook_points"]
        else:
            points += values.get(int(split_card(card, "rook").rank), 0)
    return points + (s["last_trick"] if last_trick else 0)


def _strength(s: Mapping[str, Any], number_: int | None) -> float:
    """A card's strength within its colour; the Rook's (number None) within trump."""
    if number_ is None:
        return {"low": 0, "high": 100, "ten_half": 10.5}[s["rook_rank"]]
    return 15 if number_ == 1 else number_


def _trump_order(s: Mapping[str, Any], trump: str, players: int | None = None) -> list[str]:
    """Every trump of this variant, highest first (RULES.md §2.4)."""
    cards = [(float(_strength(s, n)), f"{n}{trump}") for n in _ranks(s, players)]
    cards.append((float(_strength(s, None)), ROOK))
    return [card for _, card in sorted(cards, key=lambda item: -item[0])]


#: Why the Rook bird won a trick, by how it ranks (literal message() calls, so `pybabel
#: extract` finds each template).
_ROOK_WINS = {
    "low": lambda: message("rook", "The Rook bird wins: it is the only trump played (the Rook "
                                   "bird is the lowest trump)."),
    "high": lambda: message("rook", "The Rook bird wins: it is the highest trump."),
    "ten_half": lambda: message("rook", "The Rook bird wins: the Rook bird ranks 10½, between "
                                        "the 10 and the 11 of trump, above every other trump "
                                        "played."),
}
#: Why a trump won: (led or played, what the Rook bird in the trick is noted as).
_TRUMP_WINS = {
    ("led", ""): lambda **v: message("rook", "The {card} wins: it is the highest trump led "
                                             "({colour} is trump).", **v),
    ("played", ""): lambda **v: message("rook", "The {card} wins: it is the highest trump "
                                                "played ({colour} is trump).", **v),
    ("led", "low"): lambda **v: message("rook", "The {card} wins: it is the highest trump led "
                                                "({colour} is trump; the Rook bird is the "
                                                "lowest trump).", **v),
    ("played", "low"): lambda **v: message("rook", "The {card} wins: it is the highest trump "
                                                   "played ({colour} is trump; the Rook bird "
                                                   "is the lowest trump).", **v),
    ("led", "ten_half"): lambda **v: message("rook", "The {card} wins: it is the highest trump "
                                                     "led ({colour} is trump; the Rook bird "
                                                     "ranks 10½, between the 10 and the 11).",
                                             **v),
    ("played", "ten_half"): lambda **v: message("rook", "The {card} wins: it is the highest "
                                                        "trump played ({colour} is trump; the "
                                                        "Rook bird ranks 10½, between the 10 "
                                                        "and the 11).", **v),
}


def trick_winner(cards: str | Iterable[str], trump: str, variant: Any = "family",
                 players: int | None = None) -> Verdict:
    """Who won this trick? (RK-6, RULES.md §2.4, R-A6)

    ``cards`` in the order played (the first was led), ``trump`` the colour named (B, R, Y,
    G or its name). The highest trump wins, else the highest card of the colour led; the
    Rook bird is always trump and ranks as the variant says (lowest, highest or 10½); 1s
    rank above 14. Of identical best cards the first played wins (``identical`` house rule).
    ``players`` (4 or 6; None: not known) is the number at the table: a trick has at most one
    card from each, and the family game's two 4s are only in the 6-player deck. ok is False
    (rule RK-1b) when the cards cannot come from the variant's deck (a card it lacks, or
    more copies than it holds); bad notation, a bad colour or a bad ``players`` raise
    ValueError. details: ``winner`` (index into ``cards``), ``card``, ``trump``,
    ``led`` (colour led), ``trumped``, ``tied`` (identical best cards) and ``trump_order``.
    """
    s = resolve_settings(variant)
    played = parse_cards(cards, "rook")
    trump = _colour(trump)
    _check_players(players)
    details: dict[str, Any] = {"winner": None, "card": None, "trump": trump, "led": None,
                               "trumped": None, "tied": False, "players": players,
                               "trump_order": _trump_order(s, trump, players)}
    if not played:
        return Verdict(False, N_("Enter the cards of the trick, the led card first."), "RK-6",
                       details)
    if len(played) > MAX_PLAYERS:
        return Verdict(False, message("rook", "A trick has at most {cards} cards, one from each "
                                              "player.", cards=MAX_PLAYERS), "RK-6", details)
    if players is not None and len(played) > players:
        return Verdict(False, message("rook", "A trick has one card from each player: at most "
                                            "{players} at this table, not {cards}.",
                                      players=players, cards=len(played)), "RK-6", details)
    problem = _deck_problem(s, played, players)
    if problem:
        return Verdict(False, problem, "RK-1b", details)

    def colour(card: str) -> str:
        return trump if card == ROOK else card[-1]

    def strength(card: str) -> float:
        return _strength(s, None if card == ROOK else int(card[:-1]))

    led = colour(played[0])
    trumped = any(colour(card) == trump for card in played)
    suit = trump if trumped else led
    contenders = [i for i, card in enumerate(played) if colour(card) == suit]
    best = max(strength(played[i]) for i in contenders)
    tops = [i for i in contenders if strength(played[i]) == best]
    winner = tops[0] if s["identical"] == "first" else tops[-1]
    card = played[winner]
    label = card_label(card)
    details.update(winner=winner, card=card, led=led, trumped=trumped, tied=len(tops) > 1)
    if card == ROOK:
        text = _ROOK_WINS[s["rook_rank"]]()
    elif trumped:
        note = s["rook_rank"] if ROOK in played and s["rook_rank"] != "high" else ""
        text = _TRUMP_WINS["led" if winner == 0 else "played", note](
            card=label, colour=COLOUR_NAMES[trump])
    else:
        text = message("rook", "The {card} wins: it is the highest card of {colour}, the "
                               "colour led, and no trump was played.",
                       card=label, colour=COLOUR_NAMES[led])
    rule = "R-A1" if card == ROOK and s["rook_rank"] == "ten_half" else "RK-6"
    if len(tops) > 1:
        which = (message("rook", "Of the identical cards played, the first one wins.")
                 if s["identical"] == "first" else
                 message("rook", "Of the identical cards played, the last one wins."))
        text = joined([text, which])
        rule = "R-A6"
    return Verdict(True, text, rule, details)


def check_follow(variant: Any, trump: str, led: str, played: str,
                 held: str | Iterable[str] = (), players: int | None = None) -> Verdict:
    """Did they have to follow? (RK-6, RULES.md §2.4)

    ``trump`` the trump colour; ``led`` the colour led (B, R, Y, G or its name) or the card
    led (a led Rook bird is a trump lead); ``played`` the card the player played; ``held``
    the cards they still held then (shown later, or played to later tricks). Players must
    follow the colour led if they can. The Rook bird is trump: on a trump lead a player
    whose only trump is the Rook must play it; and unless the ``rook_any_time`` house rule
    (Kentucky Discard) says so, it does not follow another colour. ok False is a renege:
    the player held a card of the colour led (``details["could_follow"]``) and played
    another. With nothing in ``held`` a card off the colour led cannot be proved wrong (ok,
    ``details["known"]`` False). Bad notation, or cards the deck has not got (RK-1b,
    with ``players``), raise ValueError.
    details: ``led`` (colour), ``trump``, ``played``, ``followed``, ``renege``,
    ``could_follow``, ``known``, ``rook_any_time``.
    """
    s = resolve_settings(variant)
    trump = _colour(trump)
    _check_players(players)
    led_card = None
    try:
        led_colour = _colour(led)
    except ValueError:
        led_card = parse_card(led, "rook")
        led_colour = trump if led_card == ROOK else led_card[-1]
    card = parse_card(played, "rook")
    kept = parse_cards(held, "rook")
    problem = _deck_problem(s, ([led_card] if led_card else []) + [card] + kept, players)
    if problem:
        raise ValueError(problem)

    def colour_of(c: str) -> str:
        return trump if c == ROOK else c[-1]

    free = bool(s["rook_any_time"])
    name, label = COLOUR_NAMES[led_colour], card_label(card)
    details: dict[str, Any] = {"led": led_colour, "trump": trump, "played": card,
                               "followed": False, "renege": False, "could_follow": [],
                               "known": True, "rook_any_time": free}
    if colour_of(card) == led_colour:
        details["followed"] = True
        if card == ROOK:
            return Verdict(True, N_("Legal: the Rook bird is trump, so it follows a trump "
                                    "lead."), "RK-6", details)
        return Verdict(True, message("rook", "Legal: the {card} follows {colour}, the colour "
                                           "led.", card=label, colour=name), "RK-6", details)
    if card == ROOK and free:
        return Verdict(True, message("rook", "Legal: under these house rules the Rook bird may "
                                           "be played at any time, even holding {colour}.",
                                     colour=name), "RK-6", details)
    could = [c for c in kept if colour_of(c) == led_colour]
    details["could_follow"] = could
    if could:
        details["renege"] = True
        if led_colour == trump and all(c == ROOK for c in could):
            text = message("rook", "Renege: trump ({colour}) was led and they held the Rook "
                                 "bird, which is trump: they had to play it.", colour=name)
        elif led_colour == trump:
            text = message("rook", "Renege: trump ({colour}) was led and they held the {card}: "
                                 "they had to play trump.", colour=name,
                           card=card_label(could[0]))
        else:
            text = message("rook", "Renege: {colour} was led and they held the {card}: they "
                                 "had to follow {colour}.", colour=name,
                           card=card_label(could[0]))
        return Verdict(False, text, "RK-6", details)
    if not kept:
        details["known"] = False
        return Verdict(True, message("rook", "The {card} does not follow {colour}: that is legal "
                                           "only if they held no {colour}. Add the cards they "
                                           "still held to check.", card=label, colour=name),
                       "RK-6", details)
    return Verdict(True, message("rook", "Legal: none of the cards they held is {colour}, so "
                                       "they could play any card.", colour=name),
                   "RK-6", details)


def _hand_size(s: Mapping[str, Any], players: int) -> int:
    """Cards each player holds after the bidder's discard (RK-3): (deck − widow) ÷ players."""
    deck = s["decks"] * (4 * len([n for n in _ranks(s) if n != 4]) + 1)
    if s["decks"] == 2 and players == 6:
        deck += 2  # the two 4s of the family game's 6-handed deal
    return (deck - s["nest"]) // players


def hand_size(variant: Any = "family", players: int = 4) -> int:
    """Cards each player holds after the bidder's discard (RK-3): 19 / 13 in the family game
    with 4 / 6 players, 9 in Kentucky Discard, 10 with the 1s. ValueError for a bad
    ``players``."""
    _check_players(players, unknown=False)
    return _hand_size(resolve_settings(variant), players)


def _trump_in_deck(s: Mapping[str, Any], players: int) -> int:
    """How many trump the deck holds, Rook birds included (one 4 of trump at most)."""
    numbers = [n for n in _ranks(s, players) if n != 4]
    fours = 1 if 4 in _ranks(s, players) else 0
    return s["decks"] * (len(numbers) + 1) + fours


def check_discard(variant: Any, discard: str | Iterable[str], trump: str, trump_held: int,
                  players: int = 4, hand_size: int | None = None) -> Verdict:
    """Is the bidder's discard legal? (RK-5, R-A3)

    ``discard`` the cards put down, ``trump`` the trump colour, ``trump_held`` how many trump
    (Rook birds included) the bidder held with the widow, before discarding. ``hand_size``
    (cards kept after discarding) defaults to the deal for ``players`` (4 or 6): 19 / 13 in
    the family game. The discard must hold exactly ``nest`` cards; unless the house rules
    allow discarding trump, trump may go only when the bidder holds more trump than
    ``hand_size``, and only that many. ok False means an automatic set (see R-A2).
    details: ``automatic_set``, ``cards``, ``nest``, ``trump_discarded``, ``trump_held``,
    ``hand_size``, ``forced`` (trump that must go), ``trump_may_go`` (the house rule).
    Cards the deck does not have (RK-1b: a 4 with 4 players) raise ValueError.
    """
    s = resolve_settings(variant)
    cards = parse_cards(discard, "rook")
    trump = _colour(trump)
    _check_players(players, unknown=False)
    problem = _deck_problem(s, cards, players)
    if problem:
        raise ValueError(problem)
    discarded = sum(1 for card in cards if card == ROOK or card[-1] == trump)
    return _discard_verdict(s, len(cards), discarded, trump_held, players, hand_size)


def check_discard_counts(variant: Any, cards: int, trump_discarded: int, trump_held: int,
                         players: int = 4, hand_size: int | None = None) -> Verdict:
    """:func:`check_discard` by numbers, as a table counts a face-down discard (RK-5, R-A3):
    ``cards`` put down, ``trump_discarded`` of them trump (Rook birds included) and
    ``trump_held``, the trump the bidder held with the widow. Same verdict and details.
    ValueError for counts that cannot be (negative, more trump discarded than held or than
    cards discarded, more trump than the deck has)."""
    s = resolve_settings(variant)
    _check_players(players, unknown=False)
    for value in (cards, trump_discarded):
        if not _is_int(value) or value < 0:
            raise ValueError(N_("Count the cards: whole numbers of 0 or more."))
    if trump_discarded > cards:
        raise ValueError(message("rook", "Only {cards} cards were discarded, so not {trump} "
                                       "trump.", cards=cards, trump=trump_discarded))
    return _discard_verdict(s, cards, trump_discarded, trump_held, players, hand_size)


def _discard_verdict(s: Mapping[str, Any], count: int, discarded: int, trump_held: Any,
                     players: int, hand_size: int | None) -> Verdict:
    """The discard rule (RK-5, R-A3) on counts: ``count`` cards, ``discarded`` trump."""
    if hand_size is None:
        hand_size = _hand_size(s, players)
    elif not _is_int(hand_size) or hand_size < 1:
        raise ValueError(N_("The hand size is a whole number of 1 or more."))
    if not _is_int(trump_held) or trump_held < 0:
        raise ValueError(N_("The trump held is a whole number of 0 or more."))
    in_deck = _trump_in_deck(s, players)
    if trump_held > in_deck:
        raise ValueError(message("rook", "Nobody can hold {held} trump: the deck has only "
                                       "{deck}, the Rook birds included.",
                                 held=trump_held, deck=in_deck))
    if trump_held > hand_size + s["nest"]:
        raise ValueError(message("rook", "With the widow the bidder holds {cards} cards, so not "
                                       "{held} trump.", cards=hand_size + s["nest"],
                                 held=trump_held))
    if discarded > trump_held:
        raise ValueError(message("rook", "The discard holds {trump} trump, more than the "
                                         "{held} the bidder held.",
                                 trump=discarded, held=trump_held))
    forced = max(0, trump_held - hand_size)
    details = {"automatic_set": False, "cards": count, "nest": s["nest"],
               "trump_discarded": discarded, "trump_held": trump_held,
               "hand_size": hand_size, "forced": forced,
               "trump_may_go": s["trump_discard"]}
    if count != s["nest"]:
        details["automatic_set"] = True
        return Verdict(False, message("rook", "Automatic set: the bidder must discard exactly "
                                              "{nest} cards, not {cards}.",
                                      nest=s["nest"], cards=count), "RK-5", details)
    if discarded < forced:
        raise ValueError(message("rook", "Holding {held} trump for a {size}-card hand, at least "
                                       "{forced} trump must be in the discard.",
                                 held=trump_held, size=hand_size, forced=forced))
    if discarded > forced and not s["trump_discard"]:
        details["automatic_set"] = True
        if forced:
            text = message("rook", "Automatic set: holding {held} trump for a {size}-card "
                                   "hand, the bidder may discard only {forced} trump, not "
                                   "{trump}.", held=trump_held, size=hand_size, forced=forced,
                           trump=discarded)
            return Verdict(False, text, "R-A3", details)
        text = message("rook", "Automatic set: the bidder discarded trump while holding only "
                               "{held} trump, which fit in the {size}-card hand.",
                       held=trump_held, size=hand_size)
        return Verdict(False, text, "RK-5", details)
    if forced and discarded:
        return Verdict(True, message("rook", "The discard is legal: with {held} trump for a "
                                             "{size}-card hand, {forced} trump had to go.",
                                     held=trump_held, size=hand_size, forced=forced),
                       "R-A3", details)
    if discarded:
        return Verdict(True, message("rook", "The discard is legal: {cards} cards; the house "
                                           "rules let the bidder discard trump.",
                                     cards=count), "RK-5", details)
    return Verdict(True, message("rook", "The discard is legal: {cards} cards.", cards=count),
                   "RK-5", details)


# ---------------------------------------------------------------------------------------
# The game: new, apply, summary.

def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a Rook game: settings resolved against the variant (ValueError if bad) and 4 or 6
    named seats, teams alternating."""
    resolved = _table_settings(settings)
    names = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, NAME)
    if len(names) not in (4, 6):
        raise ValueError(message("rook", "Rook is for 4 or 6 players (two equal teams), not "
                                         "{players}.", players=len(names)))
    return {"game": SLUG, "settings": resolved, "seats": names, "deals": []}


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a Rook game."))


def _first_dealer(state: dict) -> int:
    """The seat that deals the game's first deal: 0, or where a rematch passed it on."""
    first = state.get("first_dealer", 0)
    ok = isinstance(first, int) and not isinstance(first, bool)
    return first % len(state["seats"]) if ok else 0


def next_game(settings: dict | None, seats: list[str], previous: Mapping[str, Any]) -> dict:
    """A rematch's new game: the deal passes on from the game before (``previous``, its
    summary), as it does from deal to deal (RULES.md §RK-3: deal and dealer rotate
    clockwise): the player after the last deal's dealer deals first."""
    state = new(settings, seats)
    rows = previous.get("hands") or []
    last = rows[-1] if rows and isinstance(rows[-1], Mapping) else None
    after = last.get("next_dealer") if last is not None else previous.get("dealer")
    if after in state["seats"]:
        state["first_dealer"] = state["seats"].index(after)
    return state


def _paper_entry(state: dict, paper: Any) -> dict:
    """A paper sheet's team totals, checked: on the points grid every hand keeps (RK-7b;
    a set loses its bid, which lies on the bid grid: RK-4, RK-8), below zero allowed
    (R-A8), and short of the target, which would have ended that game (RK-9), unless only a
    made bid wins (then a total over the target is still a game in play)."""
    s = state["settings"]
    step = math.gcd(_points_grid(s), s["bid_step"], s["min_bid"])
    names = {team: _team_name(players) for team, players in _team_players(state["seats"]).items()}
    below = None if s["both_over"] == "made_bid" else s["target"]
    paper_totals(paper, TEAMS, rule="RK-9", names=names, below=below)
    totals = paper_totals(paper, TEAMS, rule="RK-7", names=names, step=step)
    return {"totals": totals}


def from_paper(settings: dict | None, seats: list[str], paper: Mapping[str, Any]) -> dict:
    """A game that goes on from a paper sheet: ``paper`` is ``{"totals": {"A": int, "B":
    int}}``, the teams' totals so far (RuleError when they can't be: see _paper_entry).
    The first deal is seat 0's, as in a new game."""
    state = new(settings, seats)
    state["paper"] = _paper_entry(state, paper)
    return state


def _hand_entry(state: dict, sheet: dict, action: dict) -> dict:
    """Validate a hand action and return what the state keeps (RuleError if illegal); the
    hand stands on its own, so ``sheet`` (the game so far) is not needed."""
    s, seats = state["settings"], state["seats"]
    bidder = action.get("bidder")
    if not isinstance(bidder, str) or not bidder:
        raise RuleError(N_("Name the player who won the bid."), rule="RK-2")
    if bidder not in seats:
        raise RuleError(message("rook", "'{bidder}' is not playing at this table: name the "
                                        "player who won the bid.", bidder=bidder), rule="RK-2")
    team = team_of(seats.index(bidder))
    discard_ok = action.get("discard_ok")
    discard_ok = True if discard_ok is None else discard_ok
    played = action.get("played")
    played = True if played is None else played
    trump = action.get("trump")
    if trump is not None:
        try:
            trump = _colour(trump)
        except ValueError:
            raise RuleError(message("rook", "{trump!r} is not a trump colour: use black, red, "
                                            "yellow or green.", trump=trump),
                            rule="RK-6") from None
    points = action.get("points")
    if played is False and points is None:
        bidder_points = other_points = None
        points = None
    else:
        if not isinstance(points, dict) or set(points) != set(TEAMS):
            raise RuleError(N_("Enter the points each team took, for team A and team B."),
                            rule="RK-7")
        bidder_points, other_points = points[team], points[_other(team)]
        points = {"A": points["A"], "B": points["B"]}
    verdict = _score(s, action.get("bid"), bidder_points, other_points, discard_ok, played)
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)
    return {"kind": "hand", "bidder": bidder, "bid": action["bid"], "points": points,
            "discard_ok": discard_ok, "played": played, "trump": trump}


def _redeal_entry(state: dict, sheet: dict, action: dict) -> dict:
    """Everyone passed and the cards are dealt again, unless the dealer must bid (R-A7)."""
    s = state["settings"]
    if s["all_pass"] == "dealer_bids":
        raise RuleError(message("rook", "Everyone passed, so the dealer, {dealer}, must "
                                        "bid the minimum of {bid}.",
                                dealer=sheet["dealer"], bid=number(s["min_bid"])),
                        rule="R-A7")
    return {"kind": "redeal"}


#: Each move's kind to the function that makes its entry (``(state, sheet, action)``).
_MOVES = {
    "hand": _hand_entry,
    "redeal": _redeal_entry,
}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action`` (a hand or a redeal); ``state`` is left untouched.

    Raises RuleError after the game is over, for an unknown action or player, a bid off the
    grid, points that do not add up to the hand, or a redeal the house rules forbid.
    """
    _check_state(state)
    sheet = _fold(state)
    if sheet["over_reason"] is not None:
        raise RuleError(message("rook", "The game is over: {result} Start a rematch to play "
                                        "again.", result=sheet["result"]["text"]),
                        rule=sheet["over_reason"]["rule"])
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == PAPER:
        if state["deals"] or state.get("paper"):
            raise RuleError(N_("A paper sheet's totals can only start a game, before its "
                               "first hand."), rule="RK-9")
        fresh = copy.deepcopy(state)
        fresh["paper"] = _paper_entry(state, action.get("paper"))
        return fresh
    move = _MOVES.get(kind) if isinstance(kind, str) else None
    if move is None:
        if isinstance(kind, str) and kind:
            text = message("rook", "'{kind}' is not a Rook action: enter a hand, or a redeal "
                                   "when everyone passed.", kind=kind)
        else:
            text = N_("That is not a Rook action: enter a hand, or a redeal when everyone "
                      "passed.")
        raise RuleError(text, rule="RK-8")
    entry = move(state, sheet, action)
    fresh = copy.deepcopy(state)
    fresh["deals"].append(entry)
    return fresh


def _end(s: Mapping[str, Any], totals: dict[str, int], bidding: str, verdict: Verdict,
         names: dict[str, str]) -> dict | None:
    """Whether this hand ended the game: ``{"winner", "text", "rule"}`` or None (RK-9)."""
    target = s["target"]
    moon = verdict.details["moon"]
    other = _other(bidding)
    if moon == "made":
        return {"winner": bidding, "rule": "R-A5",
                "text": message("rook", "{team} declared the moon and made it, which wins the "
                                        "game.", team=names[bidding])}
    if moon == "missed":
        return {"winner": other, "rule": "R-A5",
                "text": message("rook", "{team} declared the moon and missed it, which loses "
                                        "the game.", team=names[bidding])}
    reached = [team for team in TEAMS if totals[team] >= target]
    goal = number(target)
    if s["both_over"] == "made_bid":
        if verdict.details["made"] and bidding in reached:
            return {"winner": bidding, "rule": "RK-9",
                    "text": message("rook", "{team} made their bid and reached {total} "
                                            "(target {goal}): only a made bid wins the game.",
                                    team=names[bidding], total=number(totals[bidding]),
                                    goal=goal)}
        return None
    if len(reached) == 1:
        team = reached[0]
        return {"winner": team, "rule": "RK-9",
                "text": message("rook", "{team} reached {total} (target {goal}).",
                                team=names[team], total=number(totals[team]), goal=goal)}
    if not reached:
        return None
    if s["both_over"] == "bidder_goes":
        return {"winner": bidding, "rule": "RK-9",
                "text": message("rook", "Both teams passed {goal} on the same hand: bidder "
                                        "goes, so {team} win.", goal=goal,
                                team=names[bidding])}
    if totals["A"] == totals["B"]:
        return {"winner": bidding, "rule": "RK-9",
                "text": message("rook", "Both teams passed {goal} on the same hand with equal "
                                        "totals: the tie goes to the bidders, {team}.",
                                goal=goal, team=names[bidding])}
    team = max(TEAMS, key=lambda t: totals[t])
    return {"winner": team, "rule": "RK-9",
            "text": message("rook", "Both teams passed {goal} on the same hand: the higher "
                                    "total wins, so {team} win with {total}.", goal=goal,
                            team=names[team], total=number(totals[team]))}


def _fold(state: dict) -> dict:
    """Replay every deal: the rows, the totals, the next dealer and how the game ended."""
    s, seats = state["settings"], state["seats"]
    first = _first_dealer(state)
    players = _team_players(seats)
    names = {team: _team_name(players[team]) for team in TEAMS}
    paper = state.get("paper")
    totals = {team: paper["totals"][team] if paper else 0 for team in TEAMS}
    rows, outcome, hand_no = [], None, 0
    for deal_no, entry in enumerate(state["deals"], start=1):
        dealer = seats[(first + deal_no - 1) % len(seats)]
        row: dict[str, Any] = {
            "kind": entry["kind"], "deal": deal_no, "hand": None, "dealer": dealer,
            "next_dealer": seats[(first + deal_no) % len(seats)],
            "bidder": None, "team": None, "bid": None, "trump": None, "points": None,
            "discard_ok": None, "played": None, "made": None, "moon": None,
        }
        if entry["kind"] == "redeal":
            row.update(changes={"A": 0, "B": 0}, rules={"A": "R-A7", "B": "R-A7"},
                       running=dict(totals), rule="R-A7",
                       text=message("rook", "Everyone passed on {dealer}'s deal: {next} deals "
                                            "next.", dealer=dealer, next=row["next_dealer"]),
                       reason=RULES["R-A7"])
            rows.append(row)
            continue
        hand_no += 1
        bidding = team_of(seats.index(entry["bidder"]))
        other = _other(bidding)
        points = entry["points"]
        verdict = _score(s, entry["bid"],
                         None if points is None else points[bidding],
                         None if points is None else points[other],
                         entry["discard_ok"], entry["played"], on_grid=False)
        d = verdict.details
        changes = {bidding: d["bidder"], other: d["other"]}
        totals = {team: totals[team] + changes[team] for team in TEAMS}
        values = {"bidder": entry["bidder"], "bid": number(entry["bid"]), "a": names["A"],
                  "a_change": f"{changes['A']:+,}", "b": names["B"],
                  "b_change": f"{changes['B']:+,}"}
        if d["made"]:
            text = message("rook", "{bidder} bid {bid} and made it: {a} {a_change}, {b} "
                                   "{b_change}.", **values)
        else:
            text = message("rook", "{bidder} bid {bid} and was set: {a} {a_change}, {b} "
                                   "{b_change}.", **values)
        row.update(hand=hand_no, bidder=entry["bidder"], team=bidding, bid=entry["bid"],
                   trump=entry["trump"], points=None if points is None else dict(points),
                   discard_ok=entry["discard_ok"], played=entry["played"], made=d["made"],
                   moon=d["moon"], changes={"A": changes["A"], "B": changes["B"]},
                   rules={team: d["rules"]["bidder" if team == bidding else "other"]
                          for team in TEAMS},
                   running=dict(totals), rule=verdict.rule, text=text, reason=verdict.reason)
        rows.append(row)
        outcome = _end(s, totals, bidding, verdict, names)
        if outcome is not None:
            break
    deals = len(state["deals"])
    dealer = None if outcome else seats[(first + deals) % len(seats)]
    result = None
    if outcome:
        winner = outcome["winner"]
        result = {"text": message("rook", "{team} win with {total}.", team=names[winner],
                                  total=number(totals[winner])),
                  "rule": outcome["rule"]}
    return {"names": names, "players": players, "totals": totals, "rows": rows,
            "over_reason": None if outcome is None else
            {"text": outcome["text"], "rule": outcome["rule"]},
            "winner": None if outcome is None else outcome["winner"],
            "result": result, "dealer": dealer}


def _end_rule(s: Mapping[str, Any]) -> dict:
    goal = number(s["target"])
    if s["both_over"] == "bidder_goes":
        text = message("rook", "The first team to reach {goal} wins; if both reach it on the "
                               "same hand, the bidders win (bidder goes).", goal=goal)
    elif s["both_over"] == "higher_total":
        text = message("rook", "The first team to reach {goal} wins; if both reach it on the "
                               "same hand, the higher total wins (a tie goes to the bidders).",
                       goal=goal)
    else:
        text = message("rook", "A team wins by making its bid with a total of {goal} or more; "
                               "points taken against the bid never end the game.", goal=goal)
    rules = ["RK-9"]
    if s["moon"] == "declared":
        text = joined([text, message("rook", "A declared moon wins the game when made and "
                                             "loses it when missed.")])
        rules.append("R-A5")
    return {"text": text, "rule": "RK-9", "rules": rules}


def summary(state: dict) -> dict:
    """The score sheet.

    Keys: game, variant, seats, settings, house_rules, hand_total, bids (min, max, step),
    teams (players of each team), team_names ("Ann & Cid"), seat_teams, totals, over,
    winners, leaders, hands (one row per deal: kind, deal, hand (the hand's number, None for
    a redeal), dealer (who dealt it), next_dealer (who deals the deal after it), bidder,
    team, bid, trump, points, made, changes, rules, running, text, rule), hand_count, paper
    (``{"totals"}`` the game went on from, None for a game begun here), dealer
    (the next dealer, None once over), end_rule, over_reason, result, rules.
    """
    _check_state(state)
    s, seats = state["settings"], state["seats"]
    sheet = _fold(state)
    totals = sheet["totals"]
    hands = [row for row in sheet["rows"] if row["kind"] == "hand"]
    best = max(totals.values())
    paper = state.get("paper")
    leaders = [team for team in TEAMS if totals[team] == best] if hands or paper else []
    return {
        "game": SLUG,
        "variant": s["variant"],
        "seats": list(seats),
        "settings": dict(s),
        "house_rules": _describe(s),
        "hand_total": _hand_total(s),
        "bids": {"min": s["min_bid"], "max": s["max_bid"], "step": s["bid_step"]},
        "teams": sheet["players"],
        "team_names": sheet["names"],
        "seat_teams": [team_of(i) for i in range(len(seats))],
        "totals": dict(totals),
        "over": sheet["over_reason"] is not None,
        "winners": [sheet["winner"]] if sheet["winner"] else [],
        "leaders": leaders,
        "hands": sheet["rows"],
        "hand_count": len(hands),
        "paper": {"totals": dict(paper["totals"])} if paper else None,
        "dealer": sheet["dealer"],
        "end_rule": _end_rule(s),
        "over_reason": sheet["over_reason"],
        "result": sheet["result"],
        "rules": dict(RULES),
    }


GAME = RookGame(
    slug=SLUG,
    name=NAME,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    teams=True,
    new=new,
    apply=apply,
    summary=summary,
    settings_fields=SETTINGS,
    rules=MappingProxyType(RULES),
    next_game=next_game,
    from_paper=from_paper,
    paper_fields=("totals",),
)
