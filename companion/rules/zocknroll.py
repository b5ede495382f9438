"""Zock'n'Roll: the push-your-luck dice game (slug ``zocknroll``, RULES.md §1).

settings: ``board`` (``beginner`` — the default, 2 own dice — or ``advanced``, 3 own dice)
plus the house rules of RULES.md §1.7: ``end_at`` (6, or 7: the check in one row that ends
the game, Z-A1), ``jorg_counts`` (Jörg counts for the Winner multiplier in 3-player games,
Z-A2), ``equal_points`` (``board``: board order ranks hands, or ``tie``: equal points tie,
Z-A3) and ``best_forced`` (a dropping player must check the best hand, Z-A5).

3–6 seats, in seating order; seat 0 deals the first turn and the deal passes to the left (the
next seat) after every turn. With exactly 3 seats the imaginary player ``"Jörg"`` rolls too.

actions (the first two are the contract's; ``mark`` and ``end_turn`` are additions for paper
mode, where players tap the circles of their boards instead of entering dice):

- ``{"kind": "drop", "player": p, "round": 1 | 2, "dice": [own + white dice]}`` — the player
  drops out and checks the best hand (and Dropped Out First Round in round 1). With
  ``best_forced`` off, ``"row": key`` picks any row the dice make.
- ``{"kind": "showdown", "dice": {player: [dice], ...}}`` — everyone still in at round 3,
  Jörg included; ``{}`` when nobody stayed. Ends the turn.

All the dice of one turn (drops, showdown hands, checks tapped with dice) share one set of
white dice: 3 in round 1, plus a 4th in round 2, plus a 5th in round 3. Dice that cannot
share them with the rest of the turn are refused (:func:`check_white_dice`).
- ``{"kind": "mark", "player": p, "row": key, "round": 1 | 2 | 3, "dice": [...] | None}`` —
  one circle tapped. A hand row in round 1 or 2 is a drop, in round 3 the showdown's result;
  ``round`` may be left out for ``dropped_out`` (round 1) and ``winner`` (round 3). Given
  dice are checked against the row.
- ``{"kind": "end_turn"}`` — ends a turn whose round 3 was tapped by hand (or that nobody
  won: Jörg's turn, or nobody stayed).

The guided turn (the phones follow the table, RULES.md §1.5) adds three more:

- ``{"kind": "roll", "dice": [d, ...]}`` — the dealer's white dice: 3 to open the turn, then
  the 4th and the 5th once every player still in has decided.
- ``{"kind": "stay", "player": p}`` — a player stays in this round (drops are ``drop``;
  once white dice are rolled, a drop must be in the current round and include them).
- ``{"kind": "reveal", "player": p, "dice": [own dice]}`` — round 3: a player still in (or
  Jörg) shows their own dice; the last reveal settles the showdown and ends the turn.

functions: :func:`best_hand`, :func:`showdown`, :func:`final_result` (the contract's), and
:func:`explain_hand`, :func:`hands_present`, :func:`check_mark`,
:func:`check_white_dice` (one set of white dice per turn), :func:`rows`,
:func:`row_label`, :func:`row_points`, :func:`dice_count`. Rule IDs are RULES.md §1's
(:data:`RULES`); the choices made are written up in docs/RULES-NOTES.md.

Every sentence a player reads (verdict reasons, refusals, the history lines of the log, the
summary's texts, the rows' labels) is a :class:`~companion.rules.said.Said` made with
``message("zocknroll", ...)`` (an ordinary English ``str`` that remembers its template, so
the web can say it in the phone's language; docs/I18N.md), or a fixed text marked ``N_``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations_with_replacement
from types import MappingProxyType
from typing import Any

from .game import Game, Setting, check_seats, check_settings
from .said import N_, Said, joined, listing, message, said_of
from .text import number
from .verdict import RuleError, Verdict

__all__ = [
    "BOARDS",
    "GAME",
    "JORG",
    "RULES",
    "SETTINGS",
    "apply",
    "best_hand",
    "check_mark",
    "check_white_dice",
    "dice_count",
    "explain_hand",
    "final_result",
    "hands_present",
    "new",
    "reveal_default",
    "row_label",
    "row_points",
    "rows",
    "showdown",
    "summary",
]

SLUG = "zocknroll"
NAME = "Zock'n'Roll"
MIN_PLAYERS = 3
MAX_PLAYERS = 6
JORG = "Jörg"
CIRCLES = 7
BOARDS = ("beginner", "advanced")
OWN_DICE = {"beginner": 2, "advanced": 3}
WHITE_DICE = {1: 3, 2: 4, 3: 5}
WINNER = "winner"
DROPPED = "dropped_out"

RULES: dict[str, str] = {
    "ZNR-1": "3 to 6 players each use a board and dice of their colour: 2 on the beginner "
             "board, 3 on the advanced board; the dealer holds the 5 white dice.",
    "ZNR-2": "Round 1 (3 white dice): a player who drops out reveals and checks Dropped Out "
             "First Round plus the row of the best hand made with own and white dice, if "
             "the dice make one.",
    "ZNR-3": "Round 2 (4 white dice): a player who drops out checks only the row of the best "
             "hand; Dropped Out First Round cannot be checked in round 2.",
    "ZNR-4": "Round 3 (5 white dice): everyone still in reveals; whoever holds the best hand, "
             "the highest row on the board, checks it, a single holder also checks Winner of "
             "Third Round, and the others still in check nothing.",
    "ZNR-5": "Dice values never break ties: a Full House is a Full House whatever the "
             "numbers.",
    "ZNR-6": "With exactly 3 players the imaginary player Jörg rolls too, never drops out and "
             "can win or tie round 3, but he has no board and scores nothing.",
    "ZNR-7": "After every turn the deal passes to the left.",
    "ZNR-8": "When a player makes the 6th check in any one row (the 7th if the house rules "
             "say so), the turn is played to the end of round 3 and then the game ends.",
    "ZNR-9": "Final score: checks times the row's points, 1 per Dropped Out First Round check "
             "and N per Winner of Third Round check (N players); the highest total wins, a "
             "tie goes to the most Winner checks, and a tie after that shares the win.",
    "Z-A1": "The game ends at the 6th check in one row, as the rule sheet says; the house "
            "rules may make it the 7th, the last circle.",
    "Z-A2": "In a 3-player game a Winner of Third Round check is worth 3, as Jörg has no "
            "board; the house rules may count Jörg and make it 4.",
    "Z-A3": "Different hands worth the same points are ranked by their place on the board; "
            "the house rules may make equal points a tie.",
    "Z-A4": "Advanced rows: Royal Pairs is four different pairs, Large Full House four of a "
            "kind plus a pair of another number, Highway 1 to 6, Double Trips two different "
            "triples, Three Pairs three different pairs, Short Straight four in a row; a four "
            "of a kind is never two pairs.",
    "Z-A5": "A dropping player checks the row of the best hand the dice make; the house rules "
            "may allow any row the dice make.",
    "Z-A6": "If nobody stays in to round 3, nothing is checked in round 3; if only Jörg stays, "
            "nothing happens.",
    "Z-A7": "Several players making the ending check in the same turn changes nothing: the "
            "game ends after that turn.",
    "Z-A8": "The game is by Jörg von Rüden; the imaginary player Jörg is named after him.",
}

# (key, label, points) top to bottom; the Winner row's points are the multiplier (None here).
# A label is a Said: a word a player reads, on the boards and inside sentences.
_BOARD_ROWS: dict[str, tuple[tuple[str, Said, int | None], ...]] = {
    "beginner": (
        (WINNER, message("zocknroll", "Winner of Third Round"), None),
        ("yahtzee", message("zocknroll", "Yahtzee!"), 12),
        ("four_kind", message("zocknroll", "Four of a Kind"), 9),
        ("large_straight", message("zocknroll", "Large Straight"), 6),
        ("full_house", message("zocknroll", "Full House"), 5),
        ("three_kind", message("zocknroll", "Three of a Kind"), 4),
        ("two_pair", message("zocknroll", "Two Pair"), 3),
        ("pair", message("zocknroll", "Pair"), 2),
        (DROPPED, message("zocknroll", "Dropped Out First Round"), 1),
    ),
    "advanced": (
        (WINNER, message("zocknroll", "Winner of Third Round"), None),
        ("royal_pairs", message("zocknroll", "Royal Pairs"), 12),
        ("yahtzee", message("zocknroll", "Yahtzee!"), 9),
        ("large_full_house", message("zocknroll", "Large Full House"), 6),
        ("highway", message("zocknroll", "Highway"), 6),
        ("double_trips", message("zocknroll", "Double Trips"), 6),
        ("four_kind", message("zocknroll", "Four of a Kind"), 5),
        ("large_straight", message("zocknroll", "Large Straight"), 5),
        ("three_pairs", message("zocknroll", "Three Pairs"), 4),
        ("full_house", message("zocknroll", "Full House"), 4),
        ("three_kind", message("zocknroll", "Three of a Kind"), 3),
        ("short_straight", message("zocknroll", "Short Straight"), 3),
        ("two_pair", message("zocknroll", "Two Pair"), 2),
        (DROPPED, message("zocknroll", "Dropped Out First Round"), 1),
    ),
}
#: The boards' names inside sentences ("the beginner board").
_BOARD_WORDS = {"beginner": message("zocknroll", "beginner"),
                "advanced": message("zocknroll", "advanced")}
_ROWS = {board: tuple(key for key, _, _ in table) for board, table in _BOARD_ROWS.items()}
_LABELS = {board: {key: label for key, label, _ in table}
           for board, table in _BOARD_ROWS.items()}
_POINTS = {board: {key: points for key, _, points in table}
           for board, table in _BOARD_ROWS.items()}
_HAND_ROWS = {board: keys[1:-1] for board, keys in _ROWS.items()}
_INTERPRETED = frozenset({"royal_pairs", "large_full_house", "highway", "double_trips",
                          "three_pairs", "short_straight"})

SETTINGS: tuple[Setting, ...] = (
    Setting("board", N_("Board"), "choice", "beginner",
            choices=(("beginner", N_("Beginner (2 own dice)")),
                     ("advanced", N_("Advanced (3 own dice)"))),
            help=N_("The beginner side of the boards with 2 dice each, or the advanced side "
                    "with 3 dice each and more hands."),
            rule="ZNR-1"),
    Setting("end_at", N_("Check in one row that ends the game"), "int", 6, 6, 7,
            help=N_("The game ends after the turn in which someone makes this check in one "
                    "row: the 6th as the rule sheet says, or the 7th, the last circle."),
            rule="Z-A1"),
    Setting("jorg_counts", N_("Jörg counts for Winner points"), "bool", False,
            help=N_("With 3 players, each Winner of Third Round check is worth 4 points "
                    "instead of 3."),
            rule="Z-A2"),
    Setting("equal_points", N_("Different hands with equal points"), "choice", "board",
            choices=(("board", N_("The higher row wins")), ("tie", N_("They tie"))),
            help=N_("In round 3, whether a hand higher on the board beats a different hand "
                    "worth the same points, or the two tie."),
            rule="Z-A3"),
    Setting("best_forced", N_("A dropping player must check the best hand"), "bool", True,
            help=N_("Untick to let a player who drops out check any row the dice make."),
            rule="Z-A5"),
)


# ---------------------------------------------------------------------------------------
# Boards, rows and dice.

def _board(board: Any) -> str:
    """The board name from a name, a settings dict or a game state (ValueError if none)."""
    if isinstance(board, Mapping):
        inner = board.get("settings")
        board = (inner if isinstance(inner, Mapping) else board).get("board", "beginner")
    if isinstance(board, str) and board.strip().lower() in BOARDS:
        return board.strip().lower()
    raise ValueError(message("zocknroll", "{board!r} is not a Zock'n'Roll board: use beginner "
                             "or advanced.", board=board))


def rows(board: Any) -> list[str]:
    """The row keys of a board, top (Winner of Third Round) to bottom (Dropped Out)."""
    return list(_ROWS[_board(board)])


def row_label(board: Any, row: str) -> str:
    """The printed name of a row ("Large Full House", a Said); ValueError for a row not on
    the board."""
    board = _board(board)
    _check_row(board, row)
    return _LABELS[board][row]


def row_points(board: Any, row: str, n_players: int | None = None) -> int | None:
    """Points per check of a row; the Winner row is worth ``n_players`` (None if not given)."""
    board = _board(board)
    _check_row(board, row)
    return n_players if row == WINNER else _POINTS[board][row]


def dice_count(board: Any, round_no: int) -> int:
    """How many dice a player has in a round: own dice plus 3, 4 or 5 white dice."""
    board = _board(board)
    if round_no not in WHITE_DICE or isinstance(round_no, bool):
        raise ValueError(message("zocknroll", "A turn has rounds 1, 2 and 3, not {round!r}.",
                                 round=round_no))
    return OWN_DICE[board] + WHITE_DICE[round_no]


def _check_row(board: str, row: Any) -> None:
    if not isinstance(row, str) or row not in _LABELS[board]:
        keys = ", ".join(_ROWS[board])
        raise ValueError(message("zocknroll", "{row!r} is not a row of the {board} board: use "
                                 "one of {keys}.", row=row, board=_BOARD_WORDS[board],
                                 keys=keys))


def _dice(dice: Any, board: str) -> list[int]:
    """Validated dice (faces 1–6, as many as the board allows), sorted; else ValueError."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Iterable) \
            or isinstance(dice, Mapping):
        raise ValueError(N_("Dice must be a list of numbers from 1 to 6."))
    dice = list(dice)
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ValueError(message("zocknroll", "A die shows a number from 1 to 6, not "
                                     "{die!r}.", die=die))
    low, high = OWN_DICE[board] + WHITE_DICE[1], OWN_DICE[board] + WHITE_DICE[3]
    if not low <= len(dice) <= high:
        raise ValueError(message("zocknroll", "On the {board} board a player has {low} to "
                                 "{high} dice ({own} own and 3 to 5 white), not {count}.",
                                 board=_BOARD_WORDS[board], low=low, high=high,
                                 own=OWN_DICE[board], count=len(dice)))
    return sorted(dice)


def _show(dice: Iterable[int]) -> str:
    return ", ".join(str(die) for die in dice)


def _said(text: str) -> Said:
    """A fixed sentence (marked ``N_``) as a value of another sentence: a Said that the
    web looks up in the catalogue as it is (only Said values are translated)."""
    return text if isinstance(text, Said) else Said(text, template=text)


def _names(names: Iterable[Any]) -> Said:
    """Names (or Saids) for a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy"; "nobody"."""
    names = list(names)
    if not names:
        return message("zocknroll", "nobody")
    return listing(names, message("zocknroll", "and"))


def _ordinal(n: int) -> Said:
    """1st, 2nd, 3rd, 4th… (a Said: each suffix is its own template)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return message("zocknroll", "{n}th", n=n)
    if n % 10 == 1:
        return message("zocknroll", "{n}st", n=n)
    if n % 10 == 2:
        return message("zocknroll", "{n}nd", n=n)
    return message("zocknroll", "{n}rd", n=n)


# ---------------------------------------------------------------------------------------
# Hands (§1.4). Each finder returns the dice that make its hand, or None.

def _groups(*sizes: int):
    """A hand of groups of equal dice on *different* faces, e.g. (4, 2) for 4 + a pair.

    Sizes come largest first; each group takes the highest face that still has enough
    dice. Taking the largest group first never blocks a smaller one (any face able to hold
    a larger group also holds a smaller one), so greedy finds a hand whenever one exists.
    """
    def find(counts: dict[int, int]) -> list[int] | None:
        used: list[int] = []
        taken: set[int] = set()
        for size in sizes:
            face = next((f for f in range(6, 0, -1)
                         if f not in taken and counts.get(f, 0) >= size), None)
            if face is None:
                return None
            taken.add(face)
            used.extend([face] * size)
        return used
    return find


def _runs(*runs: tuple[int, int]):
    """A straight: any of the runs ``(low, high)`` of faces, the first present wins."""
    def find(counts: dict[int, int]) -> list[int] | None:
        for low, high in runs:
            if all(counts.get(face, 0) for face in range(low, high + 1)):
                return list(range(low, high + 1))
        return None
    return find


_FINDERS = {
    "royal_pairs": _groups(2, 2, 2, 2),
    "yahtzee": _groups(5),
    "large_full_house": _groups(4, 2),
    "highway": _runs((1, 6)),
    "double_trips": _groups(3, 3),
    "four_kind": _groups(4),
    "large_straight": _runs((2, 6), (1, 5)),
    "three_pairs": _groups(2, 2, 2),
    "full_house": _groups(3, 2),
    "three_kind": _groups(3),
    "short_straight": _runs((3, 6), (2, 5), (1, 4)),
    "two_pair": _groups(2, 2),
    "pair": _groups(2),
}


def _tally(dice: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for die in dice:
        counts[die] = counts.get(die, 0) + 1
    return counts


def _found(dice: list[int], board: str) -> list[tuple[str, list[int]]]:
    """Every hand row the dice make, top to bottom, with the dice that make it."""
    counts = _tally(dice)
    found = []
    for row in _HAND_ROWS[board]:
        used = _FINDERS[row](counts)
        if used is not None:
            found.append((row, used))
    return found


def _best(dice: list[int], board: str) -> tuple[str, list[int]] | None:
    counts = _tally(dice)
    for row in _HAND_ROWS[board]:
        used = _FINDERS[row](counts)
        if used is not None:
            return row, used
    return None


def best_hand(dice: Iterable[int], board: Any) -> str | None:
    """The highest row on the board that the dice make, or None when they make none.

    ``dice`` are all the player's dice, own and white: 5 to 7 on the beginner board, 6 to 8
    on the advanced board (ValueError otherwise, or for a face outside 1–6). Board order
    decides, not points (Z-A3); dice values never matter (ZNR-5).
    """
    board = _board(board)
    best = _best(_dice(dice, board), board)
    return None if best is None else best[0]


def hands_present(dice: Iterable[int], board: Any) -> list[str]:
    """Every hand row the dice make, top to bottom (the first is :func:`best_hand`)."""
    board = _board(board)
    return [row for row, _ in _found(_dice(dice, board), board)]


def explain_hand(dice: Iterable[int], board: Any) -> Verdict:
    """Which hand the dice make, and which dice make it.

    ok False when the dice make no row (possible only with 6 dice on the advanced board).
    details: ``row`` (None when none), ``label``, ``points``, ``dice_used`` (the dice that
    make the hand: groups highest face first, straights low to high; ``[]`` when none),
    ``dice`` (sorted), ``board`` and ``present`` (every row the dice make, top to bottom).
    Rule: Z-A4 for the advanced rows RULES.md interprets, else ZNR-4 (the best hand is the
    highest row), ZNR-2 when there is no hand.
    """
    board = _board(board)
    dice = _dice(dice, board)
    found = _found(dice, board)
    details: dict[str, Any] = {"row": None, "label": None, "points": None, "dice_used": [],
                               "dice": dice, "board": board,
                               "present": [row for row, _ in found]}
    if not found:
        return Verdict(False, message("zocknroll", "{dice} make no hand on the {board} "
                                      "board: a player who drops out in round 1 checks only "
                                      "Dropped Out First Round.", dice=_show(dice),
                                      board=_BOARD_WORDS[board]), "ZNR-2", details)
    row, used = found[0]
    label, points = _LABELS[board][row], _POINTS[board][row]
    details.update(row=row, label=label, points=points, dice_used=used)
    reason = message("zocknroll", "The best hand is {row} ({points} points), made by {dice}.",
                     row=label, points=points, dice=_show(used))
    if len(found) > 1:
        lower = _names([_LABELS[board][r] for r, _ in found[1:]])
        also = (message("zocknroll", "{rows} is also there but lower.", rows=lower)
                if len(found) == 2
                else message("zocknroll", "{rows} are also there but lower.", rows=lower))
        reason = joined([reason, also])
    rule = "Z-A4" if board == "advanced" and row in _INTERPRETED else "ZNR-4"
    return Verdict(True, reason, rule, details)


def _rank(row: str | None, board: str, equal_points: bool) -> int:
    """A sort key, bigger is better: the place on the board, or the points with
    ``equal_points`` (Z-A3); -1 for no hand."""
    if row is None:
        return -1
    return _POINTS[board][row] if equal_points else len(_ROWS[board]) - _ROWS[board].index(row)


def showdown(hands: Mapping[str, Any], board: Any, equal_points: bool = False) -> dict:
    """Round 3 (ZNR-4): who holds the best hand, and who wins.

    ``hands`` maps each player still in (Jörg included) to their dice (7 beginner / 8
    advanced in play; any count :func:`best_hand` takes is accepted) or directly to a row
    key (or None). Returns ``{"best": row | None, "holders": [players], "winner": player |
    None}``: ``holders`` hold the best hand, in the order given; ``winner`` is the single
    holder, None on a tie or when nobody holds a hand. With ``equal_points`` (house rule
    Z-A3) different hands worth the same points tie, and ``best`` is the highest of them.
    """
    board = _board(board)
    if not isinstance(hands, Mapping):
        raise ValueError(N_("The showdown needs each player's dice, by player."))
    best_rows: dict[str, str | None] = {}
    for player, hand in hands.items():
        if hand is None or isinstance(hand, str):
            if hand is not None and hand not in _HAND_ROWS[board]:
                raise ValueError(message("zocknroll", "{row!r} is not a hand row of the {board} "
                                         "board.", row=hand, board=_BOARD_WORDS[board]))
            best_rows[player] = hand
        else:
            best_rows[player] = best_hand(hand, board)
    ranks = {player: _rank(row, board, equal_points) for player, row in best_rows.items()}
    top = max(ranks.values(), default=-1)
    holders = [p for p, rank in ranks.items() if rank == top and best_rows[p] is not None]
    best = min((best_rows[p] for p in holders), key=_ROWS[board].index, default=None)
    return {"best": best, "holders": holders,
            "winner": holders[0] if len(holders) == 1 else None}


def _final(marks: Mapping[str, Mapping[str, int]], board: str,
           n_players: int) -> dict[str, Any]:
    if not _is_int(n_players) or n_players < 1:
        raise ValueError(N_("The Winner multiplier (the number of players) must be a whole "
                            "number of at least 1."))
    if not isinstance(marks, Mapping):
        raise ValueError(N_("Marks must map each player to their checks per row."))
    scores: dict[str, int] = {}
    wins: dict[str, int] = {}
    for player, checks in marks.items():
        if not isinstance(checks, Mapping):
            raise ValueError(message("zocknroll", "{player}'s marks must map rows to checks.",
                                     player=player))
        total = 0
        for row, count in checks.items():
            _check_row(board, row)
            if not _is_int(count) or not 0 <= count <= CIRCLES:
                raise ValueError(message("zocknroll", "{player}'s checks in {row} must be a "
                                         "whole number from 0 to {most}, not {count!r}.",
                                         player=player, row=_LABELS[board][row],
                                         most=CIRCLES, count=count))
            total += count * (n_players if row == WINNER else _POINTS[board][row])
        scores[player] = total
        wins[player] = checks.get(WINNER, 0)
    best = max(scores.values(), default=0)
    tied = [p for p, score in scores.items() if score == best]
    most = max((wins[p] for p in tied), default=0)
    winners = [p for p in tied if wins[p] == most]
    return {"scores": scores, "winners": winners, "tied": tied, "wins": wins,
            "tie_break": len(tied) > 1 and len(winners) < len(tied)}


def final_result(marks: Mapping[str, Mapping[str, int]], board: Any, n_players: int) -> dict:
    """The final scoring (ZNR-9): ``{"scores": {player: int}, "winners": [players]}``.

    ``marks`` maps each player to ``{row_key: checks}`` (rows left out count 0);
    ``n_players`` is the Winner multiplier, the number of players with a board (Z-A2).
    Highest score wins; a tie goes to the most Winner checks; a tie after that shares the win.
    """
    result = _final(marks, _board(board), n_players)
    return {"scores": result["scores"], "winners": result["winners"]}


def check_mark(board: Any, round_no: int, row: str, dice: Iterable[int] | None = None,
               best_forced: bool = True) -> Verdict:
    """May a player check this row in this round (with these dice, when given)? (Paper mode.)

    Dropped Out First Round only in round 1 (ZNR-2; refused in round 2, ZNR-3, and round 3,
    ZNR-4); Winner of Third Round only in round 3 (ZNR-4); a hand row in any round. With
    dice (as many as the round gives: :func:`dice_count`) the row must be one they make,
    and their best one in round 3 or when ``best_forced`` (Z-A5). Whether the player may
    still drop out, or holds the single best hand, depends on the table: ``apply`` checks it.
    details: ``row``, ``round``, ``best`` and ``present`` (None without dice).
    """
    board = _board(board)
    _check_row(board, row)
    wanted = dice_count(board, round_no)
    label = _LABELS[board][row]
    details: dict[str, Any] = {"row": row, "round": round_no, "best": None, "present": None}
    rule = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}[round_no]
    if row == DROPPED:
        if round_no == 1:
            return Verdict(True, N_("A player who drops out in round 1 checks Dropped Out "
                                    "First Round."), "ZNR-2", details)
        if round_no == 2:
            return Verdict(False, N_("Dropping out in round 2 gives no check in Dropped Out "
                                     "First Round: check only the hand."), "ZNR-3", details)
        return Verdict(False, N_("Players still in at round 3 did not drop out: no check in "
                                 "Dropped Out First Round."), "ZNR-4", details)
    if row == WINNER:
        if round_no == 3:
            return Verdict(True, N_("Winner of Third Round goes to the only player holding "
                                    "the best hand in round 3."), "ZNR-4", details)
        return Verdict(False, message("zocknroll", "Winner of Third Round is checked only in "
                                      "round 3, not in round {round}.", round=round_no),
                       "ZNR-4", details)
    if dice is None:
        return Verdict(True, message("zocknroll", "{row} may be checked in round {round} by a "
                                     "player whose dice make it.", row=label, round=round_no),
                       rule, details)
    dice = _dice(dice, board)
    found = _found(dice, board)
    present = [r for r, _ in found]
    best = present[0] if present else None
    details.update(best=best, present=present)
    if len(dice) != wanted:
        return Verdict(False, message("zocknroll", "In round {round} of the {board} game a "
                                      "player has {wanted} dice ({own} own and {white} "
                                      "white), not {count}.", round=round_no,
                                      board=_BOARD_WORDS[board], wanted=wanted,
                                      own=OWN_DICE[board], white=WHITE_DICE[round_no],
                                      count=len(dice)), rule, details)
    if row not in present:
        return Verdict(False, message("zocknroll", "{dice} do not make {row}.",
                                      dice=_show(dice), row=label), rule, details)
    if row != best and (round_no == 3 or best_forced):
        best_label = _LABELS[board][best]
        return Verdict(False, message("zocknroll", "{dice} make {best}, which is higher than "
                                      "{row}: the best hand is the row to check.",
                                      dice=_show(dice), best=best_label, row=label),
                       "ZNR-4" if round_no == 3 else "Z-A5", details)
    if row != best:
        return Verdict(True, message("zocknroll", "{dice} make {row} ({points} points); the "
                                     "house rules allow it below the best hand, {best}.",
                                     dice=_show(dice), row=label,
                                     points=_POINTS[board][row], best=_LABELS[board][best]),
                       "Z-A5", details)
    return Verdict(True, message("zocknroll", "{dice} make {row}: check it ({points} points).",
                                 dice=_show(dice), row=label, points=_POINTS[board][row]),
                   rule, details)


# ---------------------------------------------------------------------------------------
# One turn, one set of white dice (RULES.md §1.3 ZNR-2..4, §1.5 "Per turn"): 3 white dice
# in round 1, the same 3 plus a 4th in round 2, those 4 plus a 5th in round 3. Every drop
# and every showdown hand of a turn is its player's own dice plus its round's white dice.

_ROUND_RULE = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}
_NO_LIMIT = (WHITE_DICE[3],) * 6


def _counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face 1–6."""
    counts = [0] * 6
    for die in dice:
        counts[die - 1] += 1
    return tuple(counts)


def _within(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """Is ``small`` a sub-multiset of ``big`` (both as counts per face)?"""
    return all(a <= b for a, b in zip(small, big, strict=True))


def _faces(counts: tuple[int, ...]) -> list[int]:
    return [face for face in range(1, 7) for _ in range(counts[face - 1])]


def _plus(counts: tuple[int, ...], index: int) -> tuple[int, ...]:
    return counts[:index] + (counts[index] + 1,) + counts[index + 1:]


def _white_chains(hands: list[tuple[str, int, list[int]]], rolled: list[int] = ()
                  ) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every choice of the turn's white dice that fits ``hands``: ``(W1, W2, W3)`` as counts
    per face, W1 the 3 dice of round 1, W2 = W1 + the 4th, W3 = W2 + the 5th, such that each
    round-r hand holds W_r and the dice the dealer rolled (``rolled``, in order) come first.

    Only the dice every hand of a round shares can be white, so W_r is searched under the
    common dice of the round-r (and later) hands: at most 56 × 6 × 6 candidates.
    """
    caps = {1: _NO_LIMIT, 2: _NO_LIMIT, 3: _NO_LIMIT}
    for _who, round_no, dice in hands:
        caps[round_no] = tuple(map(min, caps[round_no], _counts(dice)))
    cap3 = caps[3]
    cap2 = tuple(map(min, caps[2], cap3))
    cap1 = tuple(map(min, caps[1], cap2))
    known = {r: _counts(rolled[:n]) for r, n in WHITE_DICE.items() if len(rolled) >= n}
    firsts = ([known[1]] if 1 in known else
              [_counts(c) for c in combinations_with_replacement(range(1, 7), WHITE_DICE[1])])
    for w1 in firsts:
        if not _within(w1, cap1):
            continue
        for fourth in range(6):
            w2 = _plus(w1, fourth)
            if (2 in known and w2 != known[2]) or not _within(w2, cap2):
                continue
            for fifth in range(6):
                w3 = _plus(w2, fifth)
                if (3 in known and w3 != known[3]) or not _within(w3, cap3):
                    continue
                yield w1, w2, w3


def _fits(hands: list[tuple[str, int, list[int]]], rolled: list[int] = ()) -> bool:
    return next(_white_chains(hands, rolled), None) is not None


def _common(a: list[int], b: list[int]) -> list[int]:
    return _faces(tuple(map(min, _counts(a), _counts(b))))


def _white_refusal(hand: tuple[str, int, list[int]],
                   earlier: list[tuple[str, int, list[int]]], rolled: list[int]) -> str:
    """Why ``hand`` cannot share the white dice with the ``earlier`` hands (which can), and
    what the table should check: the most precise of four sentences."""
    who, round_no, dice = hand
    shown = _show(sorted(dice))
    known = list(rolled[:WHITE_DICE[round_no]])
    if known and not _within(_counts(known), _counts(dice)):
        return message("zocknroll", "{player}'s dice {dice} must include the white dice {white} "
                       "the dealer rolled. Check {player}'s own dice and the white dice on "
                       "the table.", player=who, dice=shown, white=_show(known))
    others = listing(dict.fromkeys(w for w, _, _ in earlier), message("zocknroll", "and"))
    options = {chain[round_no - 1] for chain in _white_chains(earlier, rolled)}
    if len(options) == 1 and earlier:
        return message("zocknroll", "{player}'s dice {dice} don't hold the white dice {white} "
                       "that the dice entered for {others} show for round {round}. Check "
                       "those dice: everyone's dice this turn are their own dice plus the "
                       "same white dice.", player=who, dice=shown,
                       white=_show(_faces(options.pop())), others=others, round=round_no)
    for other, other_round, other_dice in earlier:
        if _fits([(other, other_round, other_dice), hand]):
            continue
        common = _common(dice, other_dice)
        if not common:
            shared = message("zocknroll", "no die")
        elif len(common) == 1:
            shared = message("zocknroll", "only the die {die}", die=common[0])
        else:
            shared = message("zocknroll", "only the dice {dice}", dice=_show(common))
        return message("zocknroll", "{player}'s dice {dice} and {other}'s dice {other_dice} "
                       "have {shared} in common, but both must hold the {count} white dice "
                       "of round {round}. Check the dice entered for {player} and {other}: "
                       "everyone's dice this turn are their own dice plus the same white "
                       "dice.", player=who, dice=shown, other=other,
                       other_dice=_show(sorted(other_dice)), shared=shared,
                       count=WHITE_DICE[min(round_no, other_round)],
                       round=min(round_no, other_round))
    return message("zocknroll", "{player}'s dice {dice} can't share one set of white dice "
                   "with the dice entered for {others}: no white dice fit them all. Check "
                   "those dice: everyone's dice this turn are their own dice plus the same "
                   "white dice.", player=who, dice=shown, others=others)


def _hand_entries(hands: Any) -> list[tuple[str, int, list[int]]]:
    """Validated ``(player, round, dice)`` triples (ValueError in plain words)."""
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Iterable):
        raise ValueError(N_("The hands must be a list of (player, round, dice)."))
    checked = []
    for item in hands:
        if isinstance(item, (str, bytes, Mapping)) or not isinstance(item, Iterable) \
                or len(item := list(item)) != 3:
            raise ValueError(message("zocknroll", "Each hand is (player, round, dice), not "
                                     "{item!r}.", item=item))
        who, round_no, dice = item
        if not _is_int(round_no) or round_no not in WHITE_DICE:
            raise ValueError(message("zocknroll", "A turn has rounds 1, 2 and 3, not "
                                     "{round!r}.", round=round_no))
        dice = _white_list(dice)
        if len(dice) < WHITE_DICE[round_no]:
            raise ValueError(message("zocknroll", "{player}'s dice {dice} are fewer than the "
                                     "{count} white dice of round {round}.", player=who,
                                     dice=_show(dice), count=WHITE_DICE[round_no],
                                     round=round_no))
        checked.append((who, round_no, dice))
    return checked


def _white_list(dice: Any) -> list[int]:
    if isinstance(dice, (str, bytes, Mapping)) or not isinstance(dice, Iterable):
        raise ValueError(N_("Dice must be a list of numbers from 1 to 6."))
    dice = list(dice)
    for die in dice:
        if not _is_int(die) or not 1 <= die <= 6:
            raise ValueError(message("zocknroll", "A die shows a number from 1 to 6, not "
                                     "{die!r}.", die=die))
    return dice


def check_white_dice(hands: Iterable[Any], rolled: Iterable[int] = ()) -> Verdict:
    """Can all the hands of one turn share the turn's white dice? (ZNR-2, ZNR-3, ZNR-4)

    ``hands``: ``(player, round, dice)`` for each drop (round 1 or 2: own + 3 or 4 white
    dice), each round-3 hand of the showdown (own + 5 white; Jörg's too) and each tapped
    check that came with dice, in the order they were entered. ``rolled``: the white dice the
    dealer rolled, in order, when the phones follow them (a guided turn; up to 5).

    Own dice may show anything; the white dice are one set for the whole turn: 3 in round 1,
    the same 3 plus a 4th in round 2, those 4 plus a 5th in round 3. So the hands fit when
    there are white dice W1 ⊂ W2 ⊂ W3 (3, 4, 5 dice, the rolled ones first) with every
    round-r hand holding W_r. ok True then, ``details["white"]`` one such set in rolling
    order, as many dice as the latest round entered has (or the dealer rolled, if more).
    Otherwise the reason names the first hand, in the order given, that cannot share the
    white dice with the hands before it (and the dealer's roll) and says what the table
    should check; the rule is that hand's round's (ZNR-2, ZNR-3 or ZNR-4) and
    ``details`` has its ``player`` and ``round``. ValueError for malformed hands or dice.
    """
    entries = _hand_entries(hands)
    rolled = _white_list(rolled)
    if len(rolled) not in (0, *WHITE_DICE.values()):
        raise ValueError(message("zocknroll", "The dealer rolls 3 white dice, then a 4th and "
                                 "a 5th: {count} white dice cannot have been rolled.",
                                 count=len(rolled)))
    chain = next(_white_chains(entries, rolled), None)
    if chain is not None:
        last = max((r for _, r, _ in entries), default=0)
        need = max(WHITE_DICE.get(last, 0), len(rolled))
        white = list(rolled) or _faces(chain[0])
        for before, after in zip(chain, chain[1:]):
            if len(white) < min(need, sum(after)):
                white.append(next(f for f in range(1, 7) if after[f - 1] > before[f - 1]))
        white = white[:need]
        reason = (message("zocknroll", "The dice entered this turn share the white dice "
                          "{white}.", white=_show(white)) if white
                  else N_("No dice are entered this turn yet."))
        return Verdict(True, reason,
                       _ROUND_RULE[max(last, 1)],
                       {"white": white, "player": None, "round": None})
    for index, hand in enumerate(entries):
        if not _fits(entries[:index + 1], rolled):
            reason = _white_refusal(hand, entries[:index], rolled)
            return Verdict(False, reason, _ROUND_RULE[hand[1]],
                           {"white": None, "player": hand[0], "round": hand[1]})
    raise AssertionError("unreachable: the hands fit one by one but not together")


def _check_turn_white(cur: dict, new_hands: list[tuple[str, int, list[int]]]) -> None:
    """Refuse (RuleError) hands that cannot share the white dice of the turn so far."""
    verdict = check_white_dice(list(cur["hands"]) + list(new_hands), cur["white"])
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)


# ---------------------------------------------------------------------------------------
# The game: new, apply, summary.

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _jorg_key(name: Any) -> bool:
    return isinstance(name, str) and unicodedata.normalize("NFC", name.strip()).casefold() \
        == JORG.casefold()


def new(settings: dict | None, seats: list[str]) -> dict:
    """Start a game: validated settings (ValueError if bad) and 3–6 named seats in seating
    order. With 3 seats Jörg joins, so no player may be called Jörg."""
    settings = check_settings(SETTINGS, settings, NAME)
    names = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS, NAME)
    if len(names) == 3 and any(_jorg_key(name) for name in names):
        raise ValueError(N_("With 3 players the imaginary player Jörg joins the game: please "
                            "give the player called Jörg another name."))
    return {"game": SLUG, "settings": settings, "seats": names, "log": []}


def _check_state(state: Any) -> None:
    if not isinstance(state, dict) or state.get("game") != SLUG:
        raise ValueError(N_("This is not a Zock'n'Roll game."))


def _multiplier(settings: Mapping[str, Any], seats: list[str]) -> int:
    """Points per Winner check: the players with a board, plus Jörg if he counts (Z-A2)."""
    return len(seats) + (1 if len(seats) == 3 and settings["jorg_counts"] else 0)


def _new_turn(number_: int, seats: list[str]) -> dict:
    return {"turn": number_, "dealer": seats[(number_ - 1) % len(seats)], "dropped": {},
            "dice_drops": [], "checked": {}, "round3": {}, "winner": None, "lines": [],
            "showdown": None, "ended_by": None, "white": [], "stayed": {}, "revealed": {},
            "hands": []}


def _order(seats: list[str], dealer: str) -> list[str]:
    """Decision order: from the dealer's left, clockwise, the dealer last (ZNR-2)."""
    start = seats.index(dealer) + 1
    return seats[start:] + seats[:start]


def _guided_round(cur: dict) -> int | None:
    """The round the rolled white dice open (3, 4, 5 dice → 1, 2, 3); None before a roll."""
    return {3: 1, 4: 2, 5: 3}.get(len(cur["white"]))


def _undecided(cur: dict, seats: list[str]) -> list[str]:
    """Players still in who have not yet said stay or drop in the current round."""
    round_no = _guided_round(cur)
    if round_no not in (1, 2):
        return []
    return [p for p in _order(seats, cur["dealer"])
            if p not in cur["dropped"] and cur["stayed"].get(p, 0) < round_no]


def _to_reveal(cur: dict, seats: list[str]) -> list[str]:
    """Round 3 of a guided turn: who still has to show their dice (Jörg last)."""
    if _guided_round(cur) != 3:
        return []
    still_in = [p for p in _order(seats, cur["dealer"]) if p not in cur["dropped"]]
    waiting = [p for p in still_in if p not in cur["revealed"]]
    if len(seats) == 3 and still_in and JORG not in cur["revealed"]:
        waiting.append(JORG)
    return waiting


def _fold(state: dict) -> dict:
    """Replay the log: marks, the turns played, the turn in progress and the end."""
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    marks = {p: dict.fromkeys(_ROWS[board], 0) for p in seats}
    turns: list[dict] = []
    cur = _new_turn(1, seats)
    triggers: list[dict] = []
    over = False
    for entry in state["log"]:
        kind = entry["kind"]
        player = entry.get("player")
        if kind == "drop":
            cur["dropped"][player] = entry["round"]
            cur["dice_drops"].append(player)
            cur["hands"].append((player, entry["round"], entry["dice"]))
        elif kind == "mark":
            row, rnd = entry["row"], entry["round"]
            if entry.get("dice") is not None:
                cur["hands"].append((player, rnd, entry["dice"]))
            if row == WINNER:
                cur["winner"] = player
            elif rnd == 3:
                cur["round3"][player] = row
            else:
                cur["dropped"][player] = rnd
        elif kind == "showdown":
            cur["showdown"] = {key: entry[key] for key in
                               ("dice", "rows", "best", "holders", "winner")}
            cur["hands"].extend((who, 3, dice) for who, dice in entry["dice"].items())
        elif kind == "roll":
            cur["white"].extend(entry["dice"])
        elif kind == "stay":
            cur["stayed"][player] = entry["round"]
        elif kind == "reveal":
            cur["revealed"][player] = entry["dice"]
        for who, row, _rule in entry["checks"]:
            marks[who][row] += 1
            cur["checked"].setdefault(who, []).append(row)
            if marks[who][row] == s["end_at"]:
                triggers.append({"player": who, "row": row, "label": _LABELS[board][row],
                                 "turn": cur["turn"], "checks": s["end_at"]})
        cur["lines"].append({"kind": kind, "text": entry["text"], "rule": entry["rule"],
                             "checks": [{"player": who, "row": row, "rule": rule}
                                        for who, row, rule in entry["checks"]]})
        if kind in ("showdown", "end_turn"):
            cur["ended_by"] = kind
            turns.append(cur)
            if triggers:
                over = True
                break
            cur = _new_turn(cur["turn"] + 1, seats)
    return {"marks": marks, "turns": turns, "current": None if over else cur,
            "triggers": triggers, "over": over}


def _player(state: dict, name: Any, rule: str) -> str:
    seats = state["seats"]
    if isinstance(name, str) and name in seats:
        return name
    if len(seats) == 3 and _jorg_key(name):
        raise RuleError(N_("Jörg never drops out and has no board: he only reveals his dice "
                           "in round 3."), rule="ZNR-6")
    if not isinstance(name, str) or not name:
        raise RuleError(N_("Name the player."), rule)
    raise RuleError(message("zocknroll", "'{name}' is not playing at this table.", name=name),
                    rule)


def _round(value: Any, allowed: tuple[int, ...], rule: str) -> int:
    if not _is_int(value) or value not in allowed:
        if allowed == (1, 2) and value == 3 and _is_int(value):
            raise RuleError(N_("Nobody drops out in round 3: everyone still in reveals (enter "
                               "the showdown)."), rule="ZNR-4")
        if allowed == (1, 2):
            raise RuleError(N_("A player drops out in round 1 or round 2; in round 3 everyone "
                               "still in reveals (enter the showdown)."), rule)
        raise RuleError(N_("Name the round: 1, 2 or 3."), rule)
    return value


def _action_dice(board: str, round_no: int, dice: Any, who: str, rule: str) -> list[int]:
    """The dice of one player in one round, or RuleError naming the player."""
    try:
        dice = _dice(dice, board)
    except ValueError as error:
        raise RuleError(message("zocknroll", "{player}'s dice: {error}", player=who,
                                error=_said(said_of(error))), rule) from None
    wanted = dice_count(board, round_no)
    if len(dice) != wanted:
        raise RuleError(message("zocknroll", "In round {round} of the {board} game {player} "
                                "has {wanted} dice ({own} own and {white} white), not "
                                "{count}.", round=round_no, board=_BOARD_WORDS[board],
                                player=who, wanted=wanted, own=OWN_DICE[board],
                                white=WHITE_DICE[round_no], count=len(dice)), rule)
    return dice


def _not_out_again(cur: dict, player: str, round_no: int) -> None:
    """Refuse a second drop (or a drop after round-3 checks) by the same player."""
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    dropped = cur["dropped"].get(player)
    if dropped is not None:
        raise _dropped_once(player, dropped, rule)
    if player in cur["round3"] or cur["winner"] == player:
        raise _stayed_in(player)


def _dropped_once(player: str, dropped: int, rule: str) -> RuleError:
    """The refusal of a second drop by ``player`` in one turn (raise it)."""
    return RuleError(message("zocknroll", "{player} already dropped out in round {round} of "
                             "this turn: a player drops out at most once per turn.",
                             player=player, round=dropped), rule)


def _stayed_in(player: str) -> RuleError:
    """The refusal of a drop by a player with round-3 checks (raise it)."""
    return RuleError(message("zocknroll", "{player} has round-3 checks this turn, so {player} "
                             "stayed in to round 3 and cannot drop out.", player=player),
                     rule="ZNR-4")


def _stayed_already(player: str, round_no: int, rule: str) -> RuleError:
    """The refusal of a second stay (or a drop after a stay) in one round (raise it)."""
    return RuleError(message("zocknroll", "{player} already stayed in for round {round}.",
                             player=player, round=round_no), rule)


def _check_guided_drop(cur: dict, player: str, round_no: int, dice: list[int]) -> None:
    """Once white dice are rolled, a drop belongs to the current round and uses them."""
    current = _guided_round(cur)
    if current is None:
        return  # dice not followed on the phones: drops come in any order (RULES-API)
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    if current != round_no:
        raise RuleError(message("zocknroll", "The dealer has rolled {count} white dice, so "
                                "this is round {current}, not round {round}.",
                                count=len(cur["white"]), current=current, round=round_no),
                        rule)
    if cur["stayed"].get(player, 0) >= round_no:
        raise _stayed_already(player, round_no, rule)
    # That the dice include the rolled white dice is check_white_dice's job (_drop_entry).


def _roll_entry(state: dict, sheet: dict, action: dict) -> dict:
    """The dealer rolls white dice: 3 to open the turn, then one at a time."""
    cur = sheet["current"]
    seats = state["seats"]
    rolled = len(cur["white"])
    if rolled >= WHITE_DICE[3]:
        raise RuleError(N_("All 5 white dice are rolled: round 3 is the showdown."), rule="ZNR-4")
    waiting = _undecided(cur, seats)
    if waiting:
        raise RuleError(message("zocknroll", "{players} must say stay or drop before the dealer "
                                "rolls again.", players=_names(waiting)),
                        "ZNR-3" if rolled == 4 else "ZNR-2")
    wanted = WHITE_DICE[1] if rolled == 0 else 1
    rule = {0: "ZNR-2", 3: "ZNR-3", 4: "ZNR-4"}[rolled]
    dice = action.get("dice")
    if isinstance(dice, int) and not isinstance(dice, bool):
        dice = [dice]
    if (not isinstance(dice, list) or len(dice) != wanted
            or any(not _is_int(d) or not 1 <= d <= 6 for d in dice)):
        if wanted == 3:
            raise RuleError(N_("The dealer rolls 3 white dice: enter 3 numbers from 1 to 6."),
                            rule)
        raise RuleError(message("zocknroll", "The dealer rolls the {ordinal} white die: enter 1 "
                                "number from 1 to 6.", ordinal=_ordinal(rolled + 1)), rule)
    fit = check_white_dice(cur["hands"], cur["white"] + list(dice))
    if not fit:
        raise RuleError(message("zocknroll", "The white dice {white} don't fit the dice "
                                "already entered this turn. {reason}",
                                white=_show(cur["white"] + list(dice)), reason=fit.reason),
                        rule)
    if rolled == 0:
        text = message("zocknroll", "{dealer} rolled the white dice: {dice}. Round 1.",
                       dealer=cur["dealer"], dice=_show(dice))
    else:
        text = message("zocknroll", "{dealer} rolled the {ordinal} white die: {die}. Round "
                       "{round}.", dealer=cur["dealer"], ordinal=_ordinal(rolled + 1),
                       die=dice[0], round=_guided_round({"white": cur["white"] + dice}))
    return {"kind": "roll", "dice": list(dice), "checks": [], "text": text, "rule": rule}


def _stay_entry(state: dict, sheet: dict, action: dict) -> dict:
    """A player stays in for the current round of a guided turn."""
    cur = sheet["current"]
    round_no = _guided_round(cur)
    if round_no is None:
        raise RuleError(N_("The dealer rolls the white dice first."), rule="ZNR-2")
    if round_no == 3:
        raise RuleError(N_("In round 3 everyone still in reveals: there is no staying or "
                           "dropping."), rule="ZNR-4")
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    player = _player(state, action.get("player"), rule)
    if player in cur["dropped"]:
        raise RuleError(message("zocknroll", "{player} already dropped out in round {round} of "
                                "this turn.", player=player, round=cur["dropped"][player]),
                        rule)
    if cur["stayed"].get(player, 0) >= round_no:
        raise _stayed_already(player, round_no, rule)
    return {"kind": "stay", "player": player, "round": round_no, "checks": [],
            "text": message("zocknroll", "{player} stays in (round {round}).", player=player,
                            round=round_no),
            "rule": rule}


def _reveal_entry(state: dict, sheet: dict, action: dict) -> dict:
    """Round 3 of a guided turn: one player's own dice; the last one settles the showdown."""
    seats, board = state["seats"], state["settings"]["board"]
    cur = sheet["current"]
    if _guided_round(cur) != 3:
        raise RuleError(N_("Dice are revealed in round 3, once the dealer has rolled all 5 "
                           "white dice."), rule="ZNR-4")
    waiting = _to_reveal(cur, seats)
    name = action.get("player")
    if _jorg_key(name) and len(seats) == 3:
        player = JORG
    else:
        player = _player(state, name, "ZNR-4")
    if player not in waiting:
        if player in cur["dropped"]:
            raise _no_showdown_dice(player, cur["dropped"][player])
        raise RuleError(message("zocknroll", "{player}'s dice are already in.", player=player),
                        rule="ZNR-4")
    own = action.get("dice")
    if (not isinstance(own, list) or len(own) != OWN_DICE[board]
            or any(not _is_int(d) or not 1 <= d <= 6 for d in own)):
        raise RuleError(message("zocknroll", "On the {board} board {player} has {own} own "
                                "dice: enter {own} numbers from 1 to 6.",
                                board=_BOARD_WORDS[board], player=player, own=OWN_DICE[board]),
                        rule="ZNR-1")
    own = sorted(own)
    revealed = {**cur["revealed"], player: own}
    if len(waiting) > 1:
        return {"kind": "reveal", "player": player, "dice": own, "checks": [],
                "text": message("zocknroll", "{player} revealed {dice}.", player=player,
                                dice=_show(own)),
                "rule": "ZNR-6" if player == JORG else "ZNR-4"}
    hands = {p: sorted(d + cur["white"]) for p, d in revealed.items()}
    entry = _showdown_entry(state, sheet, {"kind": "showdown", "dice": hands})
    entry["revealed"] = {"player": player, "dice": own}
    return entry


def _no_showdown_dice(player: str, dropped: int) -> RuleError:
    """The refusal of showdown dice from a player who dropped out (raise it)."""
    return RuleError(message("zocknroll", "{player} dropped out in round {round} of this turn, "
                             "so {player} has no dice in the showdown.", player=player,
                             round=dropped), rule="ZNR-4")


def _drop_entry(state: dict, sheet: dict, action: dict) -> dict:
    s = state["settings"]
    board = s["board"]
    cur = sheet["current"]
    round_no = _round(action.get("round"), (1, 2), "ZNR-2")
    rule = "ZNR-2" if round_no == 1 else "ZNR-3"
    player = _player(state, action.get("player"), rule)
    _not_out_again(cur, player, round_no)
    dice = _action_dice(board, round_no, action.get("dice"), player, rule)
    _check_guided_drop(cur, player, round_no, dice)
    _check_turn_white(cur, [(player, round_no, dice)])
    present = [row for row, _ in _found(dice, board)]
    best = present[0] if present else None
    row = action.get("row")
    if row is None:
        row = best
    else:
        if row not in _HAND_ROWS[board]:
            raise RuleError(message("zocknroll", "{row!r} is not a hand on the {board} board.",
                                    row=row, board=_BOARD_WORDS[board]), rule)
        if row not in present:
            raise RuleError(message("zocknroll", "{player}'s dice {dice} do not make {row}.",
                                    player=player, dice=_show(dice),
                                    row=_LABELS[board][row]), rule)
        if row != best and s["best_forced"]:
            raise RuleError(message("zocknroll", "{player}'s dice {dice} make {best}, which is "
                                    "higher than {row}: a dropping player checks the best "
                                    "hand.", player=player, dice=_show(dice),
                                    best=_LABELS[board][best], row=_LABELS[board][row]),
                            rule="Z-A5")
    checks = []
    hand_rule = "Z-A5" if row is not None and row != best else rule
    if row is not None:
        checks.append([player, row, hand_rule])
    if round_no == 1:
        checks.append([player, DROPPED, "ZNR-2"])
    if row is None:
        text = message("zocknroll", "{player} dropped out in round 1 with no hand ({dice}): "
                       "Dropped Out First Round only.", player=player, dice=_show(dice))
    elif round_no == 1:
        text = message("zocknroll", "{player} dropped out in round 1 with {row} ({dice}) and "
                       "checks Dropped Out First Round.", player=player,
                       row=_LABELS[board][row], dice=_show(dice))
    else:
        text = message("zocknroll", "{player} dropped out in round {round} with {row} "
                       "({dice}).", player=player, round=round_no, row=_LABELS[board][row],
                       dice=_show(dice))
    return {"kind": "drop", "player": player, "round": round_no, "dice": dice, "row": row,
            "checks": checks, "text": text, "rule": hand_rule if row else rule}


def _showdown_entry(state: dict, sheet: dict, action: dict) -> dict:
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    cur = sheet["current"]
    jorg = len(seats) == 3
    if cur["round3"] or cur["winner"]:
        raise RuleError(N_("Round 3 of this turn was already checked by hand: end the turn "
                           "instead of entering a showdown."), rule="ZNR-4")
    given = action.get("dice")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError(N_("The showdown needs the dice of each player still in, by "
                           "player."), rule="ZNR-4")
    still_in = [p for p in seats if p not in cur["dropped"]]
    hands: dict[str, list[int]] = {}
    jorg_dice = None
    for name, dice in given.items():
        if isinstance(name, str) and name in seats:
            if name not in still_in:
                raise _no_showdown_dice(name, cur["dropped"][name])
            hands[name] = _action_dice(board, 3, dice, name, "ZNR-4")
        elif _jorg_key(name):
            if not jorg:
                raise RuleError(N_("Jörg plays only when there are exactly 3 players."),
                                rule="ZNR-6")
            jorg_dice = _action_dice(board, 3, dice, JORG, "ZNR-6")
        else:
            raise RuleError(message("zocknroll", "'{name}' is not playing at this table.",
                                    name=name), rule="ZNR-4")
    missing = [p for p in still_in if p not in hands]
    if len(missing) > 1:
        raise RuleError(message("zocknroll", "{players} stayed in to round 3, so the showdown "
                                "needs their dice.", players=_names(missing)), rule="ZNR-4")
    if missing:
        raise RuleError(message("zocknroll", "{player} stayed in to round 3, so the showdown "
                                "needs the dice.", player=missing[0]), rule="ZNR-4")
    if jorg and still_in and jorg_dice is None:
        raise RuleError(N_("Jörg always stays in to round 3: enter his dice too."), rule="ZNR-6")
    ordered = {p: hands[p] for p in still_in}
    if jorg_dice is not None:
        ordered[JORG] = jorg_dice
    _check_turn_white(cur, [(p, 3, d) for p, d in ordered.items()])
    equal = s["equal_points"] == "tie"
    result = showdown(ordered, board, equal_points=equal)
    row_of = {p: _best(d, board)[0] for p, d in ordered.items()}
    checks, holders, winner = [], result["holders"], result["winner"]
    mixed = len({row_of[p] for p in holders}) > 1
    for p in holders:
        if p != JORG or not jorg:
            checks.append([p, row_of[p], "Z-A3" if mixed else "ZNR-4"])
    if winner is not None and winner in seats:
        checks.append([winner, WINNER, "ZNR-4"])
    label = _LABELS[board]
    if not ordered:
        text, rule = N_("Nobody stayed in to round 3: nothing is checked."), "Z-A6"
    elif not still_in:
        text, rule = N_("Only Jörg stayed in to round 3: nothing happens."), "Z-A6"
    elif winner == JORG and jorg:
        text, rule = (message("zocknroll", "Jörg wins round 3 with {row}: nobody checks "
                              "anything.", row=label[result["best"]]), "ZNR-6")
    elif winner is not None:
        text, rule = (message("zocknroll", "{player} wins round 3 with {row} and checks it and "
                              "Winner of Third Round.", player=winner,
                              row=label[result["best"]]), "ZNR-4")
    else:
        hands_text = _names(message("zocknroll", "{player} ({row})", player=p,
                                    row=label[row_of[p]]) for p in holders)
        scoring = [p for p in holders if p != JORG or not jorg]
        if len(scoring) == 1:
            text = message("zocknroll", "Tie in round 3: {hands}. {player} checks the hand; "
                           "nobody checks Winner of Third Round.", hands=hands_text,
                           player=scoring[0])
        else:
            text = message("zocknroll", "Tie in round 3: {hands}. {players} check the hand; "
                           "nobody checks Winner of Third Round.", hands=hands_text,
                           players=_names(scoring))
        rule = "Z-A3" if mixed else ("ZNR-6" if jorg and JORG in holders else "ZNR-4")
    return {"kind": "showdown", "dice": ordered, "rows": row_of, "best": result["best"],
            "holders": holders, "winner": winner, "checks": checks, "text": text,
            "rule": rule}


def _mark_entry(state: dict, sheet: dict, action: dict) -> dict:
    s = state["settings"]
    board = s["board"]
    cur = sheet["current"]
    row = action.get("row")
    if not isinstance(row, str) or row not in _LABELS[board]:
        raise RuleError(message("zocknroll", "{row!r} is not a row of the {board} board.",
                                row=row, board=_BOARD_WORDS[board]), rule="ZNR-1")
    round_no = action.get("round")
    if round_no is None and row in (DROPPED, WINNER):
        round_no = 1 if row == DROPPED else 3
    round_no = _round(round_no, (1, 2, 3), "ZNR-4")
    rule = {1: "ZNR-2", 2: "ZNR-3", 3: "ZNR-4"}[round_no]
    player = _player(state, action.get("player"), rule)
    dice = action.get("dice")
    if dice is not None:
        dice = _action_dice(board, round_no, dice, player, rule)
    verdict = check_mark(board, round_no, row, dice, s["best_forced"])
    if not verdict:
        raise RuleError(verdict.reason, verdict.rule)
    label = _LABELS[board]
    dropped = cur["dropped"].get(player)
    r3 = cur["round3"]
    if round_no in (1, 2):
        if dropped is not None and (dropped != round_no or player in cur["dice_drops"]):
            raise _dropped_once(player, dropped, rule)
        if player in r3 or cur["winner"] == player:
            raise _stayed_in(player)
        if row != DROPPED and any(r in _HAND_ROWS[board]
                                  for r in cur["checked"].get(player, [])):
            raise RuleError(message("zocknroll", "{player} already checked a hand this turn: a "
                                    "dropping player checks one hand.", player=player), rule)
        text = message("zocknroll", "{player} dropped out in round {round}: {row}.",
                       player=player, round=round_no, row=label[row])
    else:
        if dropped is not None:
            raise RuleError(message("zocknroll", "{player} dropped out in round {round} of this "
                                    "turn and checks nothing in round 3.", player=player,
                                    round=dropped), rule="ZNR-4")
        if row == WINNER:
            if cur["winner"] is not None:
                raise RuleError(message("zocknroll", "{player} already checked Winner of Third "
                                        "Round this turn: only one player can win round 3.",
                                        player=cur["winner"]), rule="ZNR-4")
            others = [p for p in r3 if p != player]
            if others:
                raise RuleError(message("zocknroll", "{players} also checked a round-3 hand: a "
                                        "tie gives nobody Winner of Third Round.",
                                        players=_names(others)), rule="ZNR-4")
            text = message("zocknroll", "{player} won round 3: Winner of Third Round.",
                           player=player)
        else:
            if player in r3:
                raise RuleError(message("zocknroll", "{player} already checked {row} in round "
                                        "3: one hand per player.", player=player,
                                        row=label[r3[player]]), rule="ZNR-4")
            if cur["winner"] is not None and cur["winner"] != player:
                raise RuleError(message("zocknroll", "{player} won round 3 alone, so nobody "
                                        "else checks a hand in round 3.",
                                        player=cur["winner"]), rule="ZNR-4")
            equal = s["equal_points"] == "tie"
            for other, other_row in r3.items():
                if _rank(other_row, board, equal) != _rank(row, board, equal):
                    raise RuleError(
                        message("zocknroll", "{other} checked {other_row} in round 3: only the "
                                "best hand scores, so {player} can check a hand only on a tie "
                                "with it.", other=other, other_row=label[other_row],
                                player=player),
                        "Z-A3" if equal else "ZNR-4")
            text = message("zocknroll", "{player} checked {row} in round 3.", player=player,
                           row=label[row])
    if row in cur["checked"].get(player, []):
        raise RuleError(message("zocknroll", "{player} already checked {row} this turn: a row "
                                "is checked at most once per turn.", player=player,
                                row=label[row]), rule)
    if dice is not None:
        _check_turn_white(cur, [(player, round_no, dice)])
    hand_rule = verdict.rule
    return {"kind": "mark", "player": player, "row": row, "round": round_no, "dice": dice,
            "checks": [[player, row, hand_rule]], "text": text, "rule": hand_rule}


def _end_turn_entry(state: dict, sheet: dict) -> dict:
    seats = state["seats"]
    cur = sheet["current"]
    jorg = len(seats) == 3
    r3, winner = cur["round3"], cur["winner"]
    still_in = [p for p in seats if p not in cur["dropped"]]
    if winner is not None and winner not in r3:
        raise RuleError(message("zocknroll", "{player} checked Winner of Third Round but no "
                                "hand: check the row of the hand too.", player=winner),
                        rule="ZNR-4")
    if not jorg:
        if still_in and not r3:
            raise RuleError(message("zocknroll", "{players} stayed in to round 3, so the best "
                                    "hand among them must be checked before the turn ends.",
                                    players=_names(still_in)), rule="ZNR-4")
        if len(r3) == 1 and winner is None:
            alone = next(iter(r3))
            raise RuleError(message("zocknroll", "{player} alone holds the best hand of round "
                                    "3, so {player} also checks Winner of Third Round.",
                                    player=alone), rule="ZNR-4")
    dealer = cur["dealer"]
    return {"kind": "end_turn", "checks": [], "rule": "ZNR-7",
            "text": message("zocknroll", "Turn {turn} ({dealer} dealt) is over.",
                            turn=cur["turn"], dealer=dealer)}


def apply(state: dict, action: dict) -> dict:
    """Return the state after ``action``; ``state`` is left untouched.

    Raises RuleError after the game is over (ZNR-8), for an unknown action or player,
    a second drop by one player in a turn, dice that do not fit the round, dice (or a roll)
    that cannot share one set of white dice with the rest of the turn (:func:`check_white_dice`),
    a showdown that leaves out (or adds) a player, or a tapped circle the rules forbid.
    """
    _check_state(state)
    sheet = _fold(state)
    if sheet["over"]:
        winners = _final(sheet["marks"], state["settings"]["board"],
                         _multiplier(state["settings"], state["seats"]))["winners"]
        raise RuleError(message("zocknroll", "The game is over: {players} won. Start a "
                                "rematch to play again.", players=_names(winners)), rule="ZNR-8")
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == "drop":
        entry = _drop_entry(state, sheet, action)
    elif kind == "showdown":
        entry = _showdown_entry(state, sheet, action)
    elif kind == "mark":
        entry = _mark_entry(state, sheet, action)
    elif kind == "end_turn":
        entry = _end_turn_entry(state, sheet)
    elif kind == "roll":
        entry = _roll_entry(state, sheet, action)
    elif kind == "stay":
        entry = _stay_entry(state, sheet, action)
    elif kind == "reveal":
        entry = _reveal_entry(state, sheet, action)
    else:
        if isinstance(kind, str) and kind:
            raise RuleError(message("zocknroll", "'{kind}' is not a Zock'n'Roll action: enter a "
                                    "roll, a stay, a drop, a reveal, a showdown, a mark or the "
                                    "end of a turn.", kind=kind), rule="ZNR-1")
        raise RuleError(N_("That is not a Zock'n'Roll action: enter a roll, a stay, a drop, a "
                           "reveal, a showdown, a mark or the end of a turn."), rule="ZNR-1")
    # A JSON copy (the state stays JSON-ready and apply never mutates), keeping the history
    # lines' Saids, which a JSON round trip would turn into plain English strings.
    fresh = json.loads(json.dumps(state))
    _keep_texts(state["log"], fresh["log"])
    fresh["log"].append(json.loads(json.dumps(entry)) | {"text": entry["text"]})
    return fresh


def _keep_texts(original: list, copied: list) -> list:
    """``copied``, a JSON copy of the dicts ``original``, with their ``text`` Saids put back
    (a history line keeps its template, so the web can say it in the phone's language)."""
    for old, new in zip(original, copied):
        if isinstance(old, Mapping) and isinstance(new, dict) \
                and isinstance(old.get("text"), Said):
            new["text"] = old["text"]
    return copied


def _end_rule(s: Mapping[str, Any], multiplier: int) -> dict:
    text = message("zocknroll", "The turn in which someone makes the {ordinal} check in one "
                   "row is the last. Then each check scores its row's points (Winner of Third "
                   "Round {multiplier}); the highest total wins, ties go to the most Winner "
                   "checks.", ordinal=_ordinal(s["end_at"]), multiplier=multiplier)
    return {"text": text, "rule": "ZNR-8", "rules": ["ZNR-8", "ZNR-9", "Z-A1"]}


def _guided_summary(cur: dict | None, seats: list[str], board: str) -> dict:
    """Where the guided turn stands, for the phones.

    ``phase``: ``roll`` (the dealer rolls ``roll_count`` white dice), ``decide`` (``next``
    says stay or drop; ``waiting`` lists everyone still to decide), ``reveal`` (``waiting``
    still show their dice in round 3), ``empty`` (nobody is left in: end the turn) or
    ``over``. Also ``round`` (None before the first roll), ``white`` (the white dice),
    ``order`` (decision order), ``stayed`` and ``revealed`` (own dice by player).
    """
    if cur is None:
        return {"phase": "over", "round": None, "white": [], "order": [], "next": None,
                "waiting": [], "roll_count": 0, "stayed": {}, "revealed": {},
                "own_dice": OWN_DICE[board]}
    round_no = _guided_round(cur)
    still_in = [p for p in seats if p not in cur["dropped"]]
    waiting = _undecided(cur, seats) if round_no in (1, 2) else _to_reveal(cur, seats)
    if round_no is None:
        phase = "roll"
    elif not still_in:
        phase = "empty"
    elif round_no == 3:
        phase = "reveal"
    else:
        phase = "decide" if waiting else "roll"
    return {"phase": phase, "round": round_no, "white": list(cur["white"]),
            "order": _order(seats, cur["dealer"]),
            "next": waiting[0] if phase == "decide" else None,
            "waiting": waiting if phase in ("decide", "reveal") else [],
            "roll_count": (3 if round_no is None else 1) if phase == "roll" else 0,
            "stayed": dict(cur["stayed"]),
            "revealed": {p: list(d) for p, d in cur["revealed"].items()},
            "own_dice": OWN_DICE[board]}


def reveal_default(summary: dict, viewer: str | None) -> str | None:
    """Whose dice a phone held by ``viewer`` (a player's name, or None for a spectator) is
    asked for first in the round-3 reveal of a guided turn (``summary`` is
    :func:`summary`'s result): the viewer's own while they still have to show them, else
    Jörg's on the dealer's phone, else the first player still to show; None when nobody
    is waiting."""
    waiting = summary["guided"]["waiting"]
    if viewer in waiting:
        return viewer
    if JORG in waiting and viewer is not None and viewer == summary["dealer"]:
        return JORG
    return waiting[0] if waiting else None


def summary(state: dict) -> dict:
    """The score sheet.

    Keys: game, board, seats, settings, house_rules, jorg (Jörg plays), multiplier, rows
    (``[{"key", "label", "points"}]`` top to bottom), marks (``{player: {row: checks}}``, every
    row), totals, over, winners, leaders, tie_break, dealer (of the turn in progress; None
    once over), turn (its number; once over, the last turn's), turns_played, dropped (this
    turn: ``{player: round}``), still_in (players who have not dropped this turn),
    showdown_players (still_in plus Jörg), checked (this turn: ``{player: [rows]}``),
    last_turn (the end was announced), guided (the guided turn: see
    :func:`_guided_summary`), end (the announcement: ``{"player", "row", "label",
    "turn", "checks", "text", "rule", "triggers"}`` or None), turns (every turn: number,
    dealer, dropped, showdown, ended_by, lines), end_rule, over_reason, result, rules.
    """
    _check_state(state)
    s, seats = state["settings"], state["seats"]
    board = s["board"]
    sheet = _fold(state)
    multiplier = _multiplier(s, seats)
    final = _final(sheet["marks"], board, multiplier)
    totals = final["scores"]
    over = sheet["over"]
    cur = sheet["current"]
    turns = sheet["turns"] + ([cur] if cur is not None and cur["lines"] else [])
    any_checks = any(any(row.values()) for row in sheet["marks"].values())
    triggers = sheet["triggers"]
    end = None
    if triggers:
        first = triggers[0]
        parts = [message("zocknroll", "{player} made the {ordinal} check in {row}: turn "
                         "{turn} is the last.", player=first["player"],
                         ordinal=_ordinal(first["checks"]), row=first["label"],
                         turn=first["turn"])]
        if len(triggers) > 1:
            others = _names(message("zocknroll", "{player} ({row})", player=t["player"],
                                    row=t["label"]) for t in triggers[1:])
            parts.append(message("zocknroll", "Also a {ordinal} check: {others}.",
                                 ordinal=_ordinal(first["checks"]), others=others))
        parts.append(message("zocknroll", "The game is scored.") if over
                     else message("zocknroll", "Play it to the end of round 3, then the game "
                                  "is scored."))
        text = joined(parts)
        end = {**{k: first[k] for k in ("player", "row", "label", "turn", "checks")},
               "text": text, "rule": "ZNR-8", "triggers": [dict(t) for t in triggers]}
    winners = final["winners"] if over else []
    over_reason = result = None
    if over:
        over_reason = {"text": message("zocknroll", "{player} made the {ordinal} check in "
                                       "{row}, and turn {turn} has been played out.",
                                       player=triggers[0]["player"],
                                       ordinal=_ordinal(triggers[0]["checks"]),
                                       row=triggers[0]["label"], turn=triggers[0]["turn"]),
                       "rule": "ZNR-8"}
        score = number(totals[winners[0]])
        if len(winners) == 1 and final["tie_break"]:
            beaten = _names(p for p in final["tied"] if p != winners[0])
            text = message("zocknroll", "{player} wins with {score}, tied with {others} but "
                           "with more Winner of Third Round checks ({wins}).",
                           player=winners[0], score=score, others=beaten,
                           wins=final["wins"][winners[0]])
        elif len(winners) == 1:
            text = message("zocknroll", "{player} wins with {score}.", player=winners[0],
                           score=score)
        else:
            text = message("zocknroll", "{players} share the win with {score}.",
                           players=_names(winners), score=score)
        result = {"text": text, "rule": "ZNR-9"}
    still_in = [] if cur is None else [p for p in seats if p not in cur["dropped"]]
    jorg = len(seats) == 3
    guided = _guided_summary(cur, seats, board)
    return {
        "game": SLUG,
        "board": board,
        "seats": list(seats),
        "settings": dict(s),
        "house_rules": GAME.describe_settings(s),
        "jorg": jorg,
        "multiplier": multiplier,
        "rows": [{"key": key, "label": label,
                  "points": multiplier if key == WINNER else points}
                 for key, label, points in _BOARD_ROWS[board]],
        "marks": {p: dict(row) for p, row in sheet["marks"].items()},
        "totals": dict(totals),
        "over": over,
        "winners": list(winners),
        "leaders": list(final["winners"]) if any_checks else [],
        "tie_break": bool(over and final["tie_break"]),
        "dealer": None if cur is None else cur["dealer"],
        "turn": turns[-1]["turn"] if cur is None else cur["turn"],
        "turns_played": len(sheet["turns"]),
        "dropped": {} if cur is None else dict(cur["dropped"]),
        "still_in": still_in,
        "showdown_players": still_in + ([JORG] if jorg and cur is not None else []),
        "checked": {} if cur is None else {p: list(r) for p, r in cur["checked"].items()},
        "last_turn": bool(triggers) and not over,
        "guided": guided,
        "end": end,
        "turns": [{"turn": t["turn"], "dealer": t["dealer"], "dropped": dict(t["dropped"]),
                   "showdown": json.loads(json.dumps(t["showdown"])),
                   "ended_by": t["ended_by"],
                   "lines": _keep_texts(t["lines"], json.loads(json.dumps(t["lines"])))}
                  for t in turns],
        "end_rule": _end_rule(s, multiplier),
        "over_reason": over_reason,
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
