"""A finished sheet as data for a picture: static/js/sheet-image.js draws it on a canvas
(with the phone's own fonts, so any script's names show) and shares it as a PNG, or
downloads it where the phone can't share files.

A page offers the picture with a button ``data-sheet-image="<id>"`` and the data in
``<script type="application/json" id="<id>">`` (``templates/_sheet_image.html`` makes
both from :func:`image_data`), loading the script only there: the table page's first
screen stays as light as it is. Every word is put in the phone's language here.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext

from .filters import local_time
from .i18n import say

__all__ = ["image_data"]


def _keys_and_labels(summary: Mapping[str, Any], names: Sequence[str]) -> tuple[list, list]:
    """Whose totals the sheet holds (its summary's totals' keys) and what to call them:
    a team game's "Ann & Cid", else the players."""
    totals = summary.get("totals") or {}
    teams = summary.get("team_names") or {}
    keys = list(totals) or list(names)
    return keys, [str(teams.get(key, key)) for key in keys]


def _ints(values: Any, keys: list) -> list[int | None]:
    values = values if isinstance(values, Mapping) else {}
    return [v if isinstance(v, int) and not isinstance(v, bool) else None
            for v in (values.get(k) for k in keys)]


def _rounds(summary: Mapping[str, Any], keys: list) -> list[dict]:
    """Every round or hand line: its label, each key's change and running total. Rook and
    Rainbow Rummy keep ``hands`` (changes, running), the score pad ``rounds`` and
    ``running``; a game whose sheet has neither (its lines are turns or cards) shows its
    final totals only."""
    rows: list[dict] = []
    paper = summary.get("paper")
    if isinstance(paper, Mapping):
        totals = _ints(paper.get("totals"), keys)
        rows.append({"label": gettext("From the paper sheet"), "note": "",
                     "changes": [None] * len(keys), "running": totals})
    hands = summary.get("hands")
    if isinstance(hands, list) and all(isinstance(h, Mapping) and "running" in h
                                       for h in hands):
        for hand in hands:
            if hand.get("kind") == "redeal":
                label, note = gettext("Redeal: everyone passed"), ""
            else:
                label = gettext("Hand %(n)s", n=hand.get("hand"))
                note = ""
                if hand.get("bidder") is not None and hand.get("bid") is not None:
                    note = gettext("%(name)s bid %(bid)s", name=hand["bidder"], bid=hand["bid"])
                elif hand.get("went_out"):
                    note = gettext("Out: %(name)s", name=hand["went_out"])
            rows.append({"label": label, "note": note,
                         "changes": _ints(hand.get("changes"), keys),
                         "running": _ints(hand.get("running"), keys)})
        return rows
    rounds, running = summary.get("rounds"), summary.get("running")
    if isinstance(rounds, list) and isinstance(running, list):
        for number, (scores, sums) in enumerate(zip(rounds, running), start=1):
            rows.append({"label": gettext("Round %(n)s", n=number), "note": "",
                         "changes": _ints(scores, keys), "running": _ints(sums, keys)})
    return rows


def image_data(game, summary: Mapping[str, Any], names: Sequence[str], when: str | None,
               code: str = "") -> dict:
    """What the picture of a finished sheet shows, JSON-ready and in the phone's language:
    ``title`` (the game's name), ``date``, ``columns`` (players or teams), ``players``
    (a team game's seats), ``rows`` (each round's label, note, changes and running
    totals), ``totals``, ``winners`` (the words of the game-over line), ``words`` (the
    picture's own labels) and ``filename``."""
    keys, labels = _keys_and_labels(summary, names)
    winners = [labels[keys.index(w)] if w in keys else str(w)
               for w in summary.get("winners") or []]
    title = str(say(game.name))
    date = local_time(when, "%Y-%m-%d %H:%M") if when else ""
    if len(winners) == 1:
        result = gettext("Game over — winner") + ": " + winners[0]
    elif winners:
        result = gettext("Game over — shared win") + ": " + " & ".join(winners)
    else:
        result = ""
    slug = re.sub(r"[^a-z0-9]+", "-", game.slug.lower()).strip("-") or "sheet"
    day = (date[:10] if date else "").replace(":", "-")
    return {
        "title": title,
        "date": date,
        "code": code,
        "players": list(names) if summary.get("team_names") else [],
        "columns": labels,
        "rows": _rounds(summary, keys),
        "totals": _ints(summary.get("totals"), keys),
        "winners": winners,
        "result": result,
        "words": {"total": gettext("Total"), "share": gettext("Share the sheet"),
                  "players": gettext("Players")},
        "filename": f"{slug}-{day}.png" if day else f"{slug}.png",
    }
