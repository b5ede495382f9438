"""Rocca Card Tower checks, with or without a table: where may this card go, is this a start
card, and the rule sheet (in English or Japanese).

The table screen links here with the joker lock it knows (``lock``) and its id (``table``,
only for the way back: nothing of the table is read, so no table cookie is needed).
"""
from __future__ import annotations

import re

from flask import Blueprint, render_template, request
from flask_babel import gettext, pgettext

from companion.rules import rocca
from companion.rules.cards import parse_card

from .games.rocca import SUITS, card_label
from .i18n import said_of

bp = Blueprint("rocca_tools", __name__)

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
MAX_CARD_TEXT = 12


def _card(name: str, label: str) -> str | None:
    """One card from the query (a picker box), or None; ValueError in plain words."""
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return None
    if len(raw) > MAX_CARD_TEXT or len(raw.replace(",", " ").split()) > 1:
        raise ValueError(gettext("%(what)s: tap one card, a rank and then a suit.", what=label))
    try:
        return parse_card(raw, rocca.DECK)
    except ValueError:
        raise ValueError(gettext("%(what)s: “%(text)s” is not a Rocca card. Tap a rank (0, A, "
                                 "2–10, J, Q, K), then a suit, or the joker.",
                                 what=label, text=raw)) from None


def _suit(name: str, label: str) -> str | None:
    raw = request.args.get(name) or ""
    if not raw:
        return None
    if raw not in dict(SUITS):
        raise ValueError(gettext("%(what)s: tap ♠, ♥, ♦ or ♣.", what=label))
    return raw


def _placement(form: dict):
    """The placement checker's Verdict, or None before "check"; fills ``form`` with what
    was asked (to show it again). Bad input raises ValueError with a plain sentence."""
    card = _card("card", gettext("Card in hand"))
    onto = _card("onto", gettext("Card on the tower"))
    part = request.args.get("part") or ""
    if part and part not in rocca.PARTS:
        raise ValueError(gettext("Tap head, face or profile (or “any part”)."))
    blocked = request.args.getlist("blocked")
    if any(b not in rocca.PARTS for b in blocked):
        raise ValueError(gettext("Blocked parts are head, face or profile."))
    suit = _suit("suit", gettext("The joker’s declared suit"))
    lock = _suit("lock", gettext("The joker lock"))
    form.update(card=card or "", onto=onto or "", part=part, blocked=blocked, suit=suit or "",
                lock=lock or "", inactive=request.args.get("inactive") == "on")
    if not request.args.get("check"):
        return None
    if card is None or onto is None:
        raise ValueError(gettext("Tap the card in your hand and the active card on the tower."))
    if onto == rocca.JOKER and suit is None and lock is None:
        raise ValueError(gettext("The card on the tower is a joker: tap the suit it declared."))
    return rocca.check_placement(card, onto, part or None, suit=suit, lock=lock,
                                 blocked=blocked, active=not form["inactive"])


@bp.get("/rocca/check")
def check():
    """May this card go there (which part: head, face, profile; or why not), is this a
    start card, and the rule sheet. Bad input: 422 with a plain sentence."""
    form: dict = {"card": "", "onto": "", "part": "", "blocked": [], "suit": "", "lock": "",
                  "inactive": False}
    error = verdict = start_verdict = None
    try:
        verdict = _placement(form)
    except ValueError as exc:
        error = said_of(exc)
    start = (request.args.get("start") or "").strip()
    if start and error is None:
        try:
            card = _card("start", gettext("Start card"))
            start_verdict = rocca.check_start_card(card)
        except ValueError as exc:
            error = said_of(exc)
    table = request.args.get("table") or ""
    rules = [(rid, pgettext("rocca-rule", text)) for rid, text in rocca.RULES.items()]
    return render_template("tools/rocca_check.html", form=form, verdict=verdict, error=error,
                           start=start[:MAX_CARD_TEXT], start_verdict=start_verdict,
                           table=table if _TABLE_ID.fullmatch(table) else None,
                           suits=SUITS, rules=rules, card_label=card_label), \
        422 if error else 200
