"""High card's phone screens: one card box per player. Everything else is GameUI's default
(templates from the slug, the viewer key, no switches, no starter choice)."""
from __future__ import annotations

from collections.abc import Mapping

from companion.rules.said import N_, message
from companion.web.games import GameUI

from .highcard import RANKS


class HighCardUI(GameUI):
    """Reads ``card_<seat>`` boxes; echoes them back after a refusal."""

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        cards = {}
        for pos, name in enumerate(names):
            rank = (form.get(f"card_{pos}") or "").strip().upper()
            if not rank:
                raise ValueError(message("entry", "Type {name}'s card.", name=name))
            if rank not in RANKS:
                raise ValueError(N_("A card is 2 to 10, J, Q, K or A."))
            cards[name] = rank
        return {"kind": "round", "cards": cards}

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        return {f"card_{pos}": (form.get(f"card_{pos}") or "")[:3] for pos in range(len(names))}

    def describe(self, payload: dict, names: list[str]) -> str:
        cards = payload.get("cards") or {}
        return message("entry", "Cards: {cards}",
                       cards=", ".join(f"{n} {cards.get(n, '?')}" for n in names))
