"""Toy Hearts on the phone: one points box per player. Everything else is GameUI's default
(templates and stylesheet found from the slug, one copy of the live fragments per seat)."""
from __future__ import annotations

from collections.abc import Mapping

from companion.rules.said import N_, message

from .base import EntryError, GameUI

MAX_POINTS_CHARS = 3


class ToyHeartsUI(GameUI):
    """Reads ``points_<seat>`` boxes; echoes them back after a refusal."""

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """One hand: every player's points, a whole number each (the rules check the sum)."""
        points = {}
        for pos, name in enumerate(names):
            raw = (form.get(f"points_{pos}") or "").strip()
            if not raw:
                raise EntryError(message("entry", "Type {name}'s points.", name=name),
                                 field=f"points_{pos}")
            if len(raw) > 2 or not raw.isascii() or not raw.isdigit():
                raise EntryError(N_("Points are a whole number from 0 to 26."),
                                 field=f"points_{pos}")
            points[name] = int(raw)
        return {"kind": "hand", "points": points}

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        """The points boxes as typed, one per seat."""
        return {f"points_{pos}": (form.get(f"points_{pos}") or "")[:MAX_POINTS_CHARS]
                for pos in range(len(names))}

    def describe(self, payload: dict, names: list[str]) -> str:
        """"Hand: Ann 5, Bob 13, Cy 8"."""
        points = payload.get("points") or {}
        return message("entry", "Hand: {points}",
                       points=", ".join(f"{n} {points.get(n, '?')}" for n in names))


UI = ToyHeartsUI
