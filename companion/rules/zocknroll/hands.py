"""Zock'n'Roll's hands: which rows a player's dice make, the best of them, and round 3's
showdown (RULES.md §1.4; the advanced rows as Z-A4 reads them).

A player's dice are own plus white dice; only the pattern counts, never the faces (ZNR-5).
Board order ranks the hands (Z-A3), or their points with the house rule ``equal_points``.
Each finder returns the dice that make its hand, or None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..said import N_, joined, message
from ..text import join_names
from ..verdict import Verdict
from .board import (_BOARD_WORDS, _HAND_ROWS, _INTERPRETED, _LABELS, _POINTS, _ROWS, _board,
                    _NOBODY, _dice, _show)

__all__ = ["best_hand", "explain_hand", "hands_present", "showdown"]


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

    ok False when the dice make no row (1 2 3 4 6 on the beginner board, say): the
    reason then says a player dropping out in round 1 checks only Dropped Out First Round
    (ZNR-2).
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
        lower = join_names([_LABELS[board][r] for r, _ in found[1:]], nobody=_NOBODY)
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


