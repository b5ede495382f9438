"""Rook on the phone: tap the bidder and the bid, type one team's points, see hand by hand.

All words are English and Japanese: the rules' sentences and labels are Saids and ``N_``
texts the templates show with ``say()``; this adapter's refusals are ``N_`` sentences and its
history lines ``message("entry", …)`` Saids (see :mod:`.base`).
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Mapping

from flask_babel import gettext
from markupsafe import Markup, escape

from companion.rules.rook import COLOUR_NAMES
from companion.rules.said import N_, message

from .base import EntryError, GameUI

#: (letter, colour) of the Rook deck, for the trump buttons (deck data: rules/cards.py); the
#: colour is a Said the templates show with ``say()``.
COLOURS = tuple(COLOUR_NAMES.items())
_INT = re.compile(r"[+-]?[0-9]{1,6}", re.ASCII)


def _int(form: Mapping[str, str], key: str, refusal: str) -> int | None:
    raw = (form.get(key) or "").strip().replace("−", "-")
    if not raw:
        return None
    if not _INT.fullmatch(raw):
        raise EntryError(refusal)
    return int(raw)


def presets() -> list[tuple[str, list[dict]]]:
    """Every variant preset with all the values it sets, for the new-table form."""
    from companion.rules import rook as rules

    field = next(f for f in rules.GAME.settings_fields if f.name == "variant")
    return [(label, rules.GAME.describe_settings({"variant": value})[1:])
            for value, label in field.choices]


#: At most this many bid buttons (four rows on a 375 px phone); a house rule with more
#: legal bids (a bid step of 1) gets the typed bid box instead.
MAX_BID_CHIPS = 24


def bid_choices(summary: dict) -> list[int]:
    """Every legal bid, for the quick buttons (RK-4); none when there are too many to tap."""
    bids = summary["bids"]
    choices = range(bids["min"], bids["max"] + 1, bids["step"])
    return list(choices) if len(choices) <= MAX_BID_CHIPS else []


def chart(summary: dict, width: int = 340, height: int = 150) -> Markup:
    """Both teams' totals after each hand as a small inline SVG line chart (no JS)."""
    hands = [h for h in summary.get("hands", []) if "running" in h]
    target = summary["settings"]["target"]
    points = [{"A": 0, "B": 0}] + [h["running"] for h in hands]
    values = [v for p in points for v in p.values()] + [target, 0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    pad = 8

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / max(len(points) - 1, 1))

    def y(v: int) -> float:
        return pad + (height - 2 * pad) * (1 - (v - low) / span)

    label = escape(gettext("Totals by hand"))
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{label}">',
             f'<line class="target" x1="{pad}" x2="{width - pad}" y1="{y(target):.1f}" '
             f'y2="{y(target):.1f}"/>',
             f'<line class="zero" x1="{pad}" x2="{width - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>']
    for team in ("A", "B"):
        coords = " ".join(f"{x(i):.1f},{y(p[team]):.1f}" for i, p in enumerate(points))
        parts.append(f'<polyline class="team-{team.lower()}" points="{coords}"/>')
    parts.append(f'<text class="target-label" x="{width - pad}" y="{y(target) + 12:.1f}" '
                 f'text-anchor="end">{escape(target)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))



class RookUI(GameUI):
    """Rook: ``_finish.html`` is the "everyone passed: redeal" button, ``_new_help.html`` the
    variant presets; with opponents confirming, the two teams see different fragments."""

    slug = "rook"
    fields = ("bidder", "bid", "bid_typed", "trump", "points_A", "points_B", "bad_discard",
              "not_played")
    COLOURS = COLOURS

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn the hand form into a rules action.

        The bid is one value: a tapped chip (``bid``) or the typed box (``bid_typed``);
        both filled with different bids is refused rather than guessed. Only one team's
        points are needed: the other's default to the hand total minus them
        (RK-7), and a typed value overrides that for a recount (the rules then check the sum).
        """
        if form.get("kind") == "redeal":
            return {"kind": "redeal"}
        bidder = form.get("bidder") or ""
        if bidder not in names:
            raise EntryError(N_("Tap who won the bid."))
        bad_bid = N_("The bid must be a whole number.")
        typed = _int(form, "bid_typed", bad_bid)
        chip = _int(form, "bid", bad_bid)
        if typed is not None and chip is not None and typed != chip:
            # The page keeps one of the two (the last touched, app.js); a form holding both
            # came without that script, and neither may silently win.
            raise EntryError(message("entry", "Two bids: the {chip} button and {typed} typed. "
                                              "Tap one bid, or clear the typed box.",
                                     chip=chip, typed=typed), field="bid_typed")
        bid = typed if typed is not None else chip
        if bid is None:
            raise EntryError(N_("Tap the winning bid (or type it)."))
        bad_points = N_("The points must be a whole number.")
        points_a = _int(form, "points_A", bad_points)
        points_b = _int(form, "points_B", bad_points)
        total = summary["hand_total"]
        if points_a is None and points_b is None:
            raise EntryError(N_("Type the points one team took."))
        if points_a is None:
            points_a = total - points_b
        if points_b is None:
            points_b = total - points_a
        action = {"kind": "hand", "bidder": bidder, "bid": bid,
                  "points": {"A": points_a, "B": points_b},
                  "discard_ok": form.get("bad_discard") != "on"}
        if form.get("bad_discard") == "on" and form.get("not_played") == "on":
            action["played"] = False
        trump = form.get("trump") or ""
        if trump in dict(COLOURS):
            action["trump"] = trump
        return action

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page."""
        if payload.get("kind") == "redeal":
            return N_("Everyone passed: redeal")
        points = payload.get("points", {})
        values = {"bidder": payload.get("bidder"), "bid": payload.get("bid"),
                  "a": points.get("A"), "b": points.get("B")}
        if payload.get("discard_ok", True):
            return message("entry", "Hand: {bidder} bid {bid}; points A {a}, B {b}", **values)
        return message("entry", "Hand: {bidder} bid {bid} (bad discard); points A {a}, B {b}",
                       **values)

    def viewer_key(self, view) -> Hashable:
        """What Rook's live fragments show differently per phone: seated or not, and, with
        opponents confirming, which team (only the other team gets the Confirm button)."""
        team = view.sheet.team_of(view.phone.seat) if view.phone.seated else None
        return ("seated", view.phone.seated, team)

    # What the templates ask (ui.presets(), view.ui.bid_choices(s), view.ui.chart(s)).
    presets = staticmethod(presets)
    bid_choices = staticmethod(bid_choices)
    chart = staticmethod(chart)


UI = RookUI
