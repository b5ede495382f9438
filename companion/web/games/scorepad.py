"""Score pad on the phone: one number box per player and a round-by-round sheet."""
from __future__ import annotations

import re
from collections.abc import Hashable, Mapping

from companion.rules.said import N_, joined, message

from .base import GameUI

MAX_SCORE_CHARS = 9
_SCORE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_SCORE_KEY = re.compile(r"score_(.*)", re.DOTALL)


class ScorepadUI(GameUI):
    """Any game, round by round; ``_finish.html`` ends a game with no end set by hand."""

    slug = "scorepad"

    def parse_entry(self, form: Mapping[str, str], names: list[str],
                    summary: dict | None = None) -> dict:
        """Turn the entry form into a rules action; `ValueError` names the bad box in plain
        words.

        Boxes left empty score 0, but at least one box must be filled so an accidental
        tap on "Save" doesn't enter an empty round.
        """
        if form.get("kind") == "finish":
            return {"kind": "finish"}
        for key in form:
            match = _SCORE_KEY.fullmatch(key)
            if match and match.group(1) not in {str(pos) for pos in range(len(names))}:
                raise ValueError(N_("That score box belongs to no seat at this table. Reload "
                                    "the page."))
        scores: dict[str, int] = {}
        for pos, name in enumerate(names):
            raw = (form.get(f"score_{pos}") or "").strip().replace("−", "-").replace(" ", "")
            if not raw:
                continue
            if len(raw) > MAX_SCORE_CHARS or not _SCORE.fullmatch(raw):
                raise ValueError(message("entry", "{name}'s score must be a whole number, "
                                                  "like 12 or -5.", name=name))
            scores[name] = int(raw)
        if not scores:
            raise ValueError(N_("Type at least one score (a 0 counts) before saving the "
                                "round."))
        return {"kind": "round", "scores": scores}

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page, e.g. "Round: Ann +12, Bob -5"."""
        if payload.get("kind") == "finish":
            return N_("Finished the game by hand")
        scores = payload.get("scores", {})
        parts = [f"{n} {scores[n]:+d}" if scores.get(n) else f"{n} 0"
                 for n in names if n in scores]
        return message("entry", "Round: {scores}", scores=joined(parts, ", "))

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        """What the player had typed (one box per seat), to put back after a refusal."""
        return {f"score_{pos}": (form.get(f"score_{pos}") or "")[:self.max_field_chars]
                for pos in range(len(names))}

    def viewer_key(self, view) -> Hashable:
        """The score pad's sheet and form look the same to every seated phone."""
        return ("seated", view.phone.seated)


UI = ScorepadUI
