"""Zock'n'Roll on the phone: each player's board, a guided turn on a dice pad, paper mode.

The guided turn follows the table (RULES.md §1.3): the dealer enters the white dice as they
are rolled, each player says stay or drop in turn, a dropping player enters their own dice,
and in round 3 everyone still in (and Jörg) reveals. Paper mode is for tables that won't type
dice: players tap the circles of their boards and the rules still refuse what they forbid.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from companion.rules.zocknroll import JORG

SHEET_TEMPLATE = "games/zocknroll/_sheet.html"
ENTRY_TEMPLATE = "games/zocknroll/_entry_fields.html"
FINISH_TEMPLATE = None
NEW_TABLE_HELP = None

#: Table switches offered on the new-table form: (option, label, hint).
TABLE_SWITCHES = (
    ("paper", "Paper mode: tap the circles instead of entering dice",
     "For tables that won't type dice. The app still refuses what the rules forbid."),
)

FACES = range(1, 7)
# Where the pips of each face sit on a 3 × 3 grid (cells 1–9, left to right, top down).
PIPS = {1: {5}, 2: {1, 9}, 3: {1, 5, 9}, 4: {1, 3, 7, 9}, 5: {1, 3, 5, 7, 9},
        6: {1, 3, 4, 6, 7, 9}}
_DICE_TEXT = re.compile(r"[1-6](?:[\s,;/+-]*[1-6])*", re.ASCII)
MAX_DICE_TEXT = 40


def parse_dice(text: str | None, label: str) -> list[int]:
    """Dice typed or tapped as "2 5 6", "2,5,6" or "256"; ValueError in plain words."""
    raw = (text or "").strip()
    if not raw:
        return []
    if len(raw) > MAX_DICE_TEXT or not _DICE_TEXT.fullmatch(raw):
        raise ValueError(f"{label}: tap the dice, or type numbers from 1 to 6.")
    return [int(c) for c in raw if c.isdigit()]


def _player(form: Mapping[str, str], names: list[str], jorg_ok: bool = False) -> str:
    player = form.get("player") or ""
    if player in names or (jorg_ok and player == JORG):
        return player
    raise ValueError("Tap whose turn this is.")


def parse_entry(form: Mapping[str, str], names: list[str], summary: dict) -> dict:
    """Turn the pressed button (``kind``) and the dice pad into a rules action."""
    kind = form.get("kind") or ""
    guided = summary["guided"]
    if kind == "roll":
        dice = parse_dice(form.get("white"), "The white dice")
        if not dice:
            raise ValueError("Tap the white dice the dealer rolled.")
        return {"kind": "roll", "dice": dice}
    if kind == "stay":
        if (form.get("own") or "").strip():
            raise ValueError("You tapped dice: press Drop out to drop with them, or clear "
                             "them to stay in.")
        return {"kind": "stay", "player": _player(form, names)}
    if kind == "drop":
        player = _player(form, names)
        own = parse_dice(form.get("own"), f"{player}'s dice")
        if not own:
            raise ValueError(f"Tap {player}'s own dice to drop out.")
        return {"kind": "drop", "player": player, "round": guided["round"],
                "dice": own + guided["white"]}
    if kind == "reveal":
        player = _player(form, names, jorg_ok=summary["jorg"])
        own = parse_dice(form.get("own"), f"{player}'s dice")
        if not own:
            raise ValueError(f"Tap {player}'s own dice.")
        return {"kind": "reveal", "player": player, "dice": own}
    if kind == "nobody":
        return {"kind": "showdown", "dice": {}}
    if form.get("mark"):  # paper mode: the tapped row button
        row = form.get("mark") or ""
        if row not in {r["key"] for r in summary["rows"]}:
            raise ValueError("Tap the row to check.")
        round_no = form.get("round") or ""
        if round_no not in ("1", "2", "3"):
            raise ValueError("Tap the round: dropped out in round 1 or 2, or round 3.")
        return {"kind": "mark", "player": _player(form, names), "row": row,
                "round": int(round_no)}
    if kind == "end_turn":
        return {"kind": "end_turn"}
    raise ValueError("Tap one of the buttons to say what happened.")


def describe(payload: dict, names: list[str]) -> str:
    """One line for the history page."""
    kind = payload.get("kind")
    dice = payload.get("dice")
    shown = ", ".join(str(d) for d in dice) if isinstance(dice, list) else ""
    if kind == "roll":
        return f"White dice: {shown}"
    if kind == "stay":
        return f"{payload.get('player')} stays in"
    if kind == "drop":
        return f"{payload.get('player')} drops out in round {payload.get('round')}: {shown}"
    if kind == "reveal":
        return f"{payload.get('player')} reveals {shown}"
    if kind == "showdown":
        return "Nobody stayed in: the turn ends" if not dice else "Round 3 showdown"
    if kind == "mark":
        return (f"{payload.get('player')} checks {payload.get('row')} "
                f"(round {payload.get('round')})")
    if kind == "end_turn":
        return "End of the turn"
    return str(kind)


def form_values(form: Mapping[str, str], names: list[str]) -> dict[str, str]:
    """What the player had entered, to put back in the form after a refusal."""
    keys = ("player", "white", "own", "round")
    return {key: (form.get(key) or "")[:MAX_DICE_TEXT] for key in keys}


def me_name(view) -> str | None:
    """The name of the seat this phone holds, if any."""
    me = view.me
    return me.name if me else None


def reveal_default(summary: dict, me: str | None) -> str | None:
    """Whose dice this phone is asked for in round 3: its own, else Jörg's on the dealer's."""
    waiting = summary["guided"]["waiting"]
    if me in waiting:
        return me
    if JORG in waiting and me == summary["dealer"]:
        return JORG
    return waiting[0] if waiting else None


def board_rows(summary: dict, player: str) -> list[dict]:
    """One player's board: each row with its label, points, checks and this turn's check."""
    marks = summary["marks"].get(player, {})
    this_turn = set(summary["checked"].get(player, []))
    return [{**row, "checks": marks.get(row["key"], 0), "new": row["key"] in this_turn,
             "score": marks.get(row["key"], 0) * row["points"]}
            for row in summary["rows"]]
