"""Zock'n'Roll on the phone: each player's board, a guided turn on a dice pad, paper mode.

The guided turn follows the table (RULES.md §1.3): the dealer enters the white dice as they
are rolled, each player says stay or drop in turn, a dropping player enters their own dice,
and in round 3 everyone still in (and Jörg) reveals. Paper mode is for tables that won't type
dice: players tap the circles of their boards and the rules still refuse what they forbid.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from markupsafe import Markup

from companion.rules import zocknroll as rules
from companion.rules.game import PAPER
from companion.rules.said import N_, message
from companion.rules.zocknroll import JORG

from .base import EntryError, GameUI, paper_words

_DICE_TEXT = re.compile(r"[1-6](?:[\s,;/+-]*[1-6])*", re.ASCII)
MAX_DICE_TEXT = 40


def parse_dice(text: str | None, label: str) -> list[int]:
    """Dice typed or tapped as "2 5 6", "2,5,6" or "256"; ValueError in plain words.

    ``label`` names the dice in the refusal: a Said (``message("entry", ...)``), so it is
    translated with the sentence."""
    raw = (text or "").strip()
    if not raw:
        return []
    if len(raw) > MAX_DICE_TEXT or not _DICE_TEXT.fullmatch(raw):
        raise EntryError(message("entry", "{label}: tap the dice, or type numbers from 1 to 6.",
                                 label=label))
    return [int(c) for c in raw if c.isdigit()]


def _player(form: Mapping[str, str], names: list[str], jorg_ok: bool = False) -> str:
    player = form.get("player") or ""
    if player in names or (jorg_ok and player == JORG):
        return player
    raise EntryError(N_("Tap whose turn this is."))


def _dice_of(player: str) -> str:
    return message("entry", "{player}'s dice", player=player)


#: History lines by action kind (``{dice}`` is the dice shown "2, 5, 6").
# Literal message() calls, so `pybabel extract` finds each template.
_LINES = {
    "roll": lambda **v: message("entry", "White dice: {dice}", **v),
    "stay": lambda **v: message("entry", "{player} stays in", **v),
    "drop": lambda **v: message("entry", "{player} drops out in round {round}: {dice}", **v),
    "reveal": lambda **v: message("entry", "{player} reveals {dice}", **v),
    "mark": lambda **v: message("entry", "{player} checks {row} (round {round})", **v),
}


#: A tapped circle's row as the history line names it: the row key, as it always has in
#: English; the catalogue gives each key the row's name in other languages.
_ROW_KEYS = {
    "winner": message("entry", "winner"),
    "royal_pairs": message("entry", "royal_pairs"),
    "yahtzee": message("entry", "yahtzee"),
    "large_full_house": message("entry", "large_full_house"),
    "highway": message("entry", "highway"),
    "double_trips": message("entry", "double_trips"),
    "four_kind": message("entry", "four_kind"),
    "large_straight": message("entry", "large_straight"),
    "three_pairs": message("entry", "three_pairs"),
    "full_house": message("entry", "full_house"),
    "three_kind": message("entry", "three_kind"),
    "short_straight": message("entry", "short_straight"),
    "two_pair": message("entry", "two_pair"),
    "pair": message("entry", "pair"),
    "dropped_out": message("entry", "dropped_out"),
}


def _paper_rows() -> tuple:
    """Every row of either board once, as ``(key, label, only)`` (see GameUI.paper_rows):
    the advanced board's order, the beginner board's own rows (Pair) where it has them."""
    keys = {board: rules.rows(board) for board in rules.BOARDS}
    order = list(keys["advanced"])
    for at, key in enumerate(keys["beginner"]):
        if key not in order:                  # just above the beginner row that follows it
            after = keys["beginner"][at + 1]
            order.insert(order.index(after), key)
    out = []
    for key in order:
        boards = [board for board in rules.BOARDS if key in keys[board]]
        only = ("board", boards[0]) if len(boards) == 1 else None
        out.append((key, rules.row_label(boards[0], key), only))
    return tuple(out)


class ZocknrollUI(GameUI):
    """Zock'n'Roll: a guided turn on a dice pad, or paper mode (a table switch)."""
    styles = ("css/games/wide-sheet.css",)
    scripts = ("js/pickers.js",)

    slug = "zocknroll"
    fields = ("player", "white", "own", "round")
    max_field_chars = MAX_DICE_TEXT
    table_switches = (
        ("paper", N_("Paper mode: tap the circles instead of entering dice"),
         N_("For tables that won't type dice. The app still refuses what the rules forbid.")),
    )

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn the pressed button (``kind``) and the dice pad into a rules action."""
        kind = form.get("kind") or ""
        guided = summary["guided"]
        if kind == "roll":
            dice = parse_dice(form.get("white"), message("entry", "The white dice"))
            if not dice:
                raise EntryError(N_("Tap the white dice the dealer rolled."))
            return {"kind": "roll", "dice": dice}
        if kind == "stay":
            if (form.get("own") or "").strip():
                raise EntryError(N_("You tapped dice: press Drop out to drop with them, or "
                                    "clear them to stay in."))
            return {"kind": "stay", "player": _player(form, names)}
        if kind == "drop":
            player = _player(form, names)
            own = parse_dice(form.get("own"), _dice_of(player))
            if not own:
                raise EntryError(message("entry", "Tap {player}'s own dice to drop out.",
                                         player=player))
            return {"kind": "drop", "player": player, "round": guided["round"],
                    "dice": own + guided["white"]}
        if kind == "reveal":
            player = _player(form, names, jorg_ok=summary["jorg"])
            own = parse_dice(form.get("own"), _dice_of(player))
            if not own:
                raise EntryError(message("entry", "Tap {player}'s own dice.", player=player))
            return {"kind": "reveal", "player": player, "dice": own}
        if kind == "nobody":
            return {"kind": "showdown", "dice": {}}
        if form.get("mark"):  # paper mode: the tapped row button
            row = form.get("mark") or ""
            if row not in {r["key"] for r in summary["rows"]}:
                raise EntryError(N_("Tap the row to check."))
            round_no = form.get("round") or ""
            if round_no not in ("1", "2", "3"):
                raise EntryError(N_("Tap the round: dropped out in round 1 or 2, or round 3."))
            return {"kind": "mark", "player": _player(form, names), "row": row,
                    "round": int(round_no)}
        if kind == "end_turn":
            return {"kind": "end_turn"}
        raise EntryError(N_("Tap one of the buttons to say what happened."))

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page."""
        if payload.get("kind") == PAPER:
            return paper_words(payload, names)
        kind = payload.get("kind")
        dice = payload.get("dice")
        if kind in _LINES:
            shown = ", ".join(str(d) for d in dice) if isinstance(dice, list) else ""
            row = payload.get("row")
            row = _ROW_KEYS.get(row, row) if isinstance(row, str) else row
            return _LINES[kind](dice=shown, player=payload.get("player"),
                                round=payload.get("round"), row=row)
        if kind == "showdown":
            return (N_("Nobody stayed in: the turn ends") if not dice
                    else N_("Round 3 showdown"))
        if kind == "end_turn":
            return N_("End of the turn")
        return str(kind)

    # ------------------------------------------------------------ what the templates show

    #: Whose dice this phone is asked for in round 3 (the rules decide: ``reveal_default``).
    reveal_default = staticmethod(rules.reveal_default)

    #: A paper board's rows: both boards' rows, each board's own shown only while it is
    #: chosen (css/new-table.css), top to bottom as on the advanced board.
    paper_rows = _paper_rows()

    #: A board row's circles (rules.CIRCLES, 7) with the first n filled, n = 0..7
    #: (templates/games/zocknroll/_sheet.html): the same eight strings on every board, so
    #: drawn once here rather than circle by circle for every row of every board.
    CIRCLES = tuple(Markup("".join('<span class="circle on"></span>' if i < n else
                                   '<span class="circle"></span>' for i in range(rules.CIRCLES)))
                    for n in range(rules.CIRCLES + 1))

    @staticmethod
    def board_rows(summary: dict, player: str) -> list[dict]:
        """One player's board: each row with its label, points, checks and this turn's
        check."""
        marks = summary["marks"].get(player, {})
        this_turn = set(summary["checked"].get(player, []))
        return [{**row, "checks": marks.get(row["key"], 0), "new": row["key"] in this_turn,
                 "score": marks.get(row["key"], 0) * row["points"]}
                for row in summary["rows"]]


UI = ZocknrollUI
