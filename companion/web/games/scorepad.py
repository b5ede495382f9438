"""Score pad on the phone: one number box per player and a round-by-round sheet."""
from __future__ import annotations

import re
from collections.abc import Mapping

SHEET_TEMPLATE = "games/scorepad/_sheet.html"
ENTRY_TEMPLATE = "games/scorepad/_entry_fields.html"
MAX_SCORE_CHARS = 9
_SCORE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_SCORE_KEY = re.compile(r"score_(.*)", re.DOTALL)


def parse_entry(form: Mapping[str, str], names: list[str], summary: dict | None = None) -> dict:
    """Turn the entry form into a rules action; `ValueError` names the bad box in plain words.

    Boxes left empty score 0, but at least one box must be filled so an accidental
    tap on "Save" doesn't enter an empty round.
    """
    if form.get("kind") == "finish":
        return {"kind": "finish"}
    for key in form:
        match = _SCORE_KEY.fullmatch(key)
        if match and match.group(1) not in {str(pos) for pos in range(len(names))}:
            raise ValueError("That score box belongs to no seat at this table. Reload the page.")
    scores: dict[str, int] = {}
    for pos, name in enumerate(names):
        raw = (form.get(f"score_{pos}") or "").strip().replace("−", "-").replace(" ", "")
        if not raw:
            continue
        if len(raw) > MAX_SCORE_CHARS or not _SCORE.fullmatch(raw):
            raise ValueError(f"{name}'s score must be a whole number, like 12 or -5.")
        scores[name] = int(raw)
    if not scores:
        raise ValueError("Type at least one score (a 0 counts) before saving the round.")
    return {"kind": "round", "scores": scores}


def describe(payload: dict, names: list[str]) -> str:
    """One line for the history page, e.g. "Round: Ann 12, Bob -5"."""
    if payload.get("kind") == "finish":
        return "Finished the game by hand"
    scores = payload.get("scores", {})
    parts = [f"{n} {scores[n]:+d}" if scores.get(n) else f"{n} 0" for n in names if n in scores]
    return "Round: " + ", ".join(parts)


def form_values(form: Mapping[str, str], names: list[str]) -> dict[str, str]:
    """What the player had typed, to put back in the form after a refusal."""
    return {f"score_{pos}": (form.get(f"score_{pos}") or "")[:40] for pos in range(len(names))}

FINISH_TEMPLATE = "games/scorepad/_finish.html"
NEW_TABLE_HELP = None


def viewer_key(view) -> tuple:
    """The score pad's sheet and form look the same to every seated phone (fragments.py)."""
    return ("seated", view.phone.seated)
