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

from companion.rules import RuleError
from companion.rules.game import PAPER
from companion.rules.rook import COLOUR_NAMES, TEAMS, team_of
from companion.rules.said import N_, message
from companion.rules.text import join_names

from .base import EntryError, GameUI, paper_words

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



def team_names(names: list[str]) -> dict[str, str]:
    """Each team by its players' names ("Ann & Cid"), as the sheet names them (RK-2)."""
    return {team: join_names([n for i, n in enumerate(names) if team_of(i) == team], "&")
            for team in TEAMS}


def hand_values(payload: dict, names: list[str]) -> dict:
    """A stored hand's bidder, bid and each team's points, with the teams by name, for the
    lines that put it in words (history, a change's before and after)."""
    points = payload.get("points")
    points = points if isinstance(points, Mapping) else {}
    teams = team_names(names)
    return {"bidder": payload.get("bidder"), "bid": payload.get("bid"),
            "team_a": teams["A"], "a": points.get("A"), "team_b": teams["B"], "b": points.get("B")}


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

    def invalid_fields(self, error: BaseException | None,
                       values: Mapping[str, str] | None) -> frozenset[str]:
        """As :meth:`GameUI.invalid_fields`; a refusal of the points (RK-7: more than a hand
        holds, not whole numbers, a sum that is off) marks the team boxes that were typed
        in, so the box to recount stays marked."""
        fields = super().invalid_fields(error, values)
        if fields or not isinstance(error, RuleError) or error.rule != "RK-7":
            return fields
        return frozenset(f for f in ("points_A", "points_B")
                         if ((values or {}).get(f) or "").strip())

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page, the teams by their players' names."""
        if payload.get("kind") == PAPER:
            return paper_words(payload, names)
        if payload.get("kind") == "redeal":
            return N_("Everyone passed: redeal")
        values = hand_values(payload, names)
        if payload.get("discard_ok", True):
            return message("entry", "Hand: {bidder} bid {bid}; points {team_a} {a}, "
                                    "{team_b} {b}", **values)
        return message("entry", "Hand: {bidder} bid {bid} (bad discard); points {team_a} "
                                "{a}, {team_b} {b}", **values)

    numbered = {"hand": N_("Hand %(n)s")}

    def entry_words(self, payload: dict, names: list[str], summary: dict | None = None,
                    number: int | None = None):
        """After a save (or before "Undo last"): the sheet's own line for the deal, "Hand 4:
        Ann bid 150 and made it: Ann & Cid +175, Bob & Dee +75." (the score changes, not
        just the points typed: RK-8), or the redeal's "Everyone passed on Mom's deal: Leo
        deals next." (R-A7). Without the sheet, the hand as entered."""
        rows = (summary or {}).get("hands") or []
        row = rows[-1] if rows else None
        if isinstance(row, Mapping) and row.get("kind") == payload.get("kind") \
                and row.get("text"):
            if row.get("kind") != "hand":
                return row["text"]
            return message("entry", "{label}: {what}",
                           label=self.number_label(payload, row.get("hand")), what=row["text"])
        return super().entry_words(payload, names, summary, number)

    def viewer_key(self, view) -> Hashable:
        """What Rook's live fragments show differently per phone: seated or not, and, with
        opponents confirming, which team (only the other team gets the Confirm button)."""
        team = view.sheet.team_of(view.phone.seat) if view.phone.seated else None
        return ("seated", view.phone.seated, team)

    # ------------------------------------------------------------ changing a hand in place

    def editable(self, payload: dict) -> bool:
        """A hand or a redeal may be changed in place (one into the other too: a hand
        entered for a deal everyone passed, or the other way round)."""
        return payload.get("kind") in ("hand", "redeal")

    def edit_values(self, payload: dict, names: list[str], summary: dict) -> dict[str, str]:
        """The hand form as it reads for `payload` (a redeal: an empty hand form)."""
        if payload.get("kind") != "hand":
            return {}
        bid = payload.get("bid")
        values = {"bidder": str(payload.get("bidder") or "")}
        if bid in bid_choices(summary):
            values["bid"] = str(bid)
        elif bid is not None:
            values["bid_typed"] = str(bid)
        points = payload.get("points") or {}
        for team in ("A", "B"):
            if points.get(team) is not None:
                values[f"points_{team}"] = str(points[team])
        if payload.get("trump") in dict(COLOURS):
            values["trump"] = payload["trump"]
        if payload.get("discard_ok") is False:
            values["bad_discard"] = "on"
            if payload.get("played") is False:
                values["not_played"] = "on"
        return values

    def entry_number(self, payload: dict, summary: dict) -> int | None:
        """A hand's number (a redeal takes none)."""
        if payload.get("kind") != "hand":
            return None
        return int(summary.get("hand_count") or 0) + 1

    def entry_name(self, payload: dict, number: int | None):
        """"hand 3", or "the redeal"."""
        if payload.get("kind") == "hand" and number is not None:
            return message("entry", "hand {n}", n=number)
        return N_("the redeal")

    def values_text(self, payload: dict, names: list[str]):
        """"Leo bid 150; points Mom & Cid 40, Leo & Dee 210" (the teams as the sheet names
        them), or "everyone passed"."""
        if payload.get("kind") == "redeal":
            return N_("everyone passed (redeal)")
        values = hand_values(payload, names)
        if payload.get("discard_ok", True):
            return message("entry", "{bidder} bid {bid}; points {team_a} {a}, {team_b} {b}",
                           **values)
        return message("entry", "{bidder} bid {bid} (bad discard); points {team_a} {a}, "
                                "{team_b} {b}", **values)

    # What the templates ask (ui.presets(), view.ui.bid_choices(s), view.ui.chart(s)).
    presets = staticmethod(presets)
    bid_choices = staticmethod(bid_choices)
    chart = staticmethod(chart)


UI = RookUI
