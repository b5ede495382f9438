"""Zock'n'Roll's boards: the rows, their points, the circles and the dice a board takes.

Each board (``beginner``, ``advanced``) is a column of rows, top to bottom: Winner of Third
Round, the hand rows, Dropped Out First Round (RULES.md §1.2 and §1.4;
seeds/004_73b200f00e2d05f5.txt §TRANSLATED PLAYER BOARDS). A row has :data:`CIRCLES`
circles to check; :func:`final_result` scores the boards (ZNR-9). Also the small helpers
the game's sentences share (:data:`_NOBODY`, :func:`_ordinal`, :func:`_show`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from ..said import N_, Said, message

__all__ = ["BOARDS", "CIRCLES", "DROPPED", "JORG", "OWN_DICE", "WHITE_DICE", "WINNER",
           "dice_count", "final_result", "row_label", "row_points", "rows"]

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


#: "nobody" in Zock'n'Roll's sentences (join_names' word for no names).
_NOBODY = message("zocknroll", "nobody")


def _ordinal(n: int) -> Said:
    """1st, 2nd, 3rd, 4th… (a Said: each suffix is its own template)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return message("zocknroll", "{n}th", n=n)
    if n % 10 == 1:
        return message("zocknroll", "{n}st", n=n)
    if n % 10 == 2:
        return message("zocknroll", "{n}nd", n=n)
    return message("zocknroll", "{n}rd", n=n)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _jorg_key(name: Any) -> bool:
    return isinstance(name, str) and unicodedata.normalize("NFC", name.strip()).casefold() \
        == JORG.casefold()


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

