"""Zock'n'Roll: the push-your-luck dice game (slug ``zocknroll``, RULES.md §1).

The rules by subject: :mod:`.board` (rows, points, circles, the final scoring of the
boards), :mod:`.hands` (which hands dice make, the showdown), :mod:`.white` (one set of white
dice per turn), :mod:`.turn` (rounds 1–3, drop-outs, the showdown and Jörg as moves of a
turn) and :mod:`.game` (settings, ``new``/``apply``/``summary`` and :data:`GAME`). This
package exposes the public names of all of them, as the contract (RULES-API.md) names them.

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

# The board's constants (CIRCLES, WINNER, OWN_DICE...) are not in __all__ but stay
# importable from here, as they were from the single module: the web adapter reads them.
from .board import (BOARDS, CIRCLES, DROPPED, JORG, MAX_PLAYERS, MIN_PLAYERS, NAME, OWN_DICE,
                    SLUG, WHITE_DICE, WINNER, dice_count, final_result, row_label, row_points,
                    rows)
from .game import GAME, RULES, SETTINGS, apply, new, reveal_default, summary
from .hands import best_hand, explain_hand, hands_present, showdown
from .turn import check_mark
from .white import check_white_dice

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
