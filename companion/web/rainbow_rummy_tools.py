"""Rainbow Rummy 333 play checks on demand, with or without a table (RR-4 to RR-10).

One page, six checks: may this card go on that column (RR-4, Galaxy-only empty spaces
RR-6), may it slip behind a column (RR-7), may this column move there (RR-5), may the card
go on the bar (RR-8), are this turn's destinations legal (RR-9), is this a legal going out
(RR-10). Everything comes in the query string (a GET form), so a verdict is a link the table
can share, and the table page links here with its house rules filled in. Bad input gets a
422 with the message; nothing is stored.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Blueprint, abort, render_template, request

from companion.rules import rainbow_rummy as rules
from companion.rules.cards import parse_cards
from companion.rules.said import said_of
from companion.rules.verdict import Verdict

from .games.rainbow_rummy import CHECK_SETTINGS, check_args

bp = Blueprint("rainbow_rummy_tools", __name__)

#: (key, tab label, heading, rule) for every check the page offers.
CHECKS = (
    ("build", "Card on a column", "Can this card go on that column?", "RR-4"),
    ("slip", "Slip behind", "Can this card slip behind a column?", "RR-7"),
    ("move", "Move a column", "Can this column move there?", "RR-5"),
    ("bar", "The bar", "Can this card go on the bar?", "RR-8"),
    ("turn", "This turn", "Are this turn's two destinations legal?", "RR-9"),
    ("out", "Going out", "Is this a legal going out?", "RR-10"),
)
PLACES = (("team", "Own team board"), ("opponents", "An opponent's board"), ("bar", "The bar"))
BOARDS = (("same", "Onto a column of the same board (the mover's own)"),
          ("other", "Onto another player's board"),
          ("not_own", "The column is on someone else's board"))
STAGES = (("", "Not sure"), ("before", "Before the first card"),
          ("between", "Between the two cards"), ("after", "After the second card"))
MAX_COLUMN = 10
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)
_SETTINGS = {s.name: s for s in rules.SETTINGS}


def _settings(args: Mapping[str, str]) -> dict:
    """The house rules that change a check, from the query (defaults where blank)."""
    chosen = {}
    for name in CHECK_SETTINGS:
        raw = (args.get(name) or "").strip()
        if raw:
            chosen[name] = _SETTINGS[name].parse(raw)
    return rules.resolve_settings(chosen)


def _cards(args: Mapping[str, str], key: str, label: str) -> list[str]:
    try:
        return parse_cards((args.get(key) or "").strip()[:400], rules.DECK)
    except ValueError as error:
        raise ValueError(f"{label}: {error}") from None


def _card(args: Mapping[str, str], key: str, label: str, *, needed: str | None = None):
    """One card from a picker box: None when blank (or ValueError with ``needed``)."""
    cards = _cards(args, key, label)
    if len(cards) > 1:
        raise ValueError(f"{label}: pick one card, not {len(cards)}.")
    if not cards:
        if needed:
            raise ValueError(needed)
        return None
    return cards[0]


def _ticked(args: Mapping[str, str], key: str) -> bool:
    return args.get(key) == "on"


def _place(args: Mapping[str, str], key: str, needed: str | None) -> str | None:
    raw = args.get(key) or ""
    if raw in dict(PLACES):
        return raw
    if raw in ("", "none") and needed is None:
        return None
    raise ValueError(needed or "Tap where the card went.")


def _build(args, settings) -> Verdict:
    card = _card(args, "card", "The card to play", needed="Pick the card you want to play.")
    onto = _card(args, "onto", "The column's bottom card")
    empty = _ticked(args, "empty")
    if onto and empty:
        raise ValueError("You picked a bottom card and ticked Empty space: clear one of them.")
    if not onto and not empty:
        raise ValueError("Pick the bottom card of the column, or tick Empty space.")
    return rules.can_build(card, onto, settings)


def _slip(args, settings) -> Verdict:
    card = _card(args, "card", "The card to slip", needed="Pick the card you want to slip in.")
    top = _card(args, "top", "The column's top card",
                needed="Pick the top card of the column (the end away from the players).")
    column = (["?"] if _ticked(args, "down") else []) + [top]
    return rules.can_slip(card, column)


def _move(args, settings) -> Verdict:
    column = _cards(args, "column", "The column moved")
    if not column:
        raise ValueError("Pick the cards of the column to move, from its top card down.")
    if len(column) > MAX_COLUMN:
        raise ValueError(f"A column holds at most {MAX_COLUMN} cards.")
    onto = _card(args, "onto", "The receiving column's bottom card")
    empty = _ticked(args, "empty")
    if onto and empty:
        raise ValueError("You picked a bottom card and ticked Empty space: clear one of them.")
    if not onto and not empty:
        raise ValueError("Pick the bottom card of the receiving column, or tick Empty space.")
    moving = _card(args, "pickup", "The card it is picked up by")
    board = args.get("board") or "same"
    if board not in dict(BOARDS):
        raise ValueError("Tap whose board the columns are on.")
    stage = args.get("stage") or ""
    if stage not in dict(STAGES):
        raise ValueError("Tap when in the turn the move happens.")
    down = ["?"] if _ticked(args, "down") else []
    return rules.can_move(down + column, [onto] if onto else None, moving=moving,
                          same_board=board != "other", own_board=board != "not_own",
                          stage=stage or None, settings=settings)


def _bar(args, settings) -> Verdict:
    card = _card(args, "card", "The card to play", needed="Pick the card for the bar.")
    top = _card(args, "top", "The pile's top card")
    if top and _ticked(args, "nopile"):
        raise ValueError("You picked a top card and ticked No pile yet: clear one of them.")
    if not top and not _ticked(args, "nopile"):
        raise ValueError(f"Pick the top card of the {card[-1]} pile, or tick No pile yet.")
    return rules.can_play_on_bar(card, top)


def _turn(args, settings) -> Verdict:
    first = args.get("first") or ""
    if first not in dict(PLACES) and first != "none":
        raise ValueError("Tap where the first card went (or No card).")
    second = _place(args, "second", None)
    if first == "none" and second:
        raise ValueError("A second card needs a first one: tap where the first card went.")
    places = [] if first == "none" else [first] + ([second] if second else [])
    raw = (args.get("in_hand") or "").strip()
    in_hand = None
    if raw:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 2
                and 1 <= int(raw) <= rules.HAND_SIZE):
            raise ValueError(f"Cards in hand is a whole number from 1 to {rules.HAND_SIZE}.")
        in_hand = int(raw)
    return rules.check_turn(places, first_turn=_ticked(args, "first_turn"),
                            cards_in_hand=in_hand, settings=settings)


def _out(args, settings) -> Verdict:
    last = _place(args, "last", "Tap where the last card went.")
    earlier = _place(args, "earlier", None)
    return rules.check_going_out(last, earlier, settings=settings)


CHECKERS = {"build": _build, "slip": _slip, "move": _move, "bar": _bar, "turn": _turn,
            "out": _out}


@bp.get("/rainbow-rummy/check")
def check():
    """Rainbow Rummy play checks, without a table or with a table's house rules."""
    what = request.args.get("q") or "build"
    if what not in CHECKERS:
        abort(404)
    table_id = request.args.get("t") or ""
    table_id = table_id if _TABLE_ID.fullmatch(table_id) else None
    verdict = error = None
    try:
        settings = _settings(request.args)
    except ValueError as exc:
        settings, error = rules.resolve_settings(None), said_of(exc)
    if error is None and request.args.get("check"):
        try:
            verdict = CHECKERS[what](request.args, settings)
        except ValueError as exc:
            error = said_of(exc)
    # The tabs keep the table and its house rules (only once they were understood).
    carried = {}
    if table_id:
        carried["t"] = table_id
    carried.update(check_args(settings))
    current = next(c for c in CHECKS if c[0] == what)
    return render_template("tools/rainbow_rummy_check.html", what=what, checks=CHECKS,
                           current=current,
                           places=PLACES, boards=BOARDS, stages=STAGES, settings=settings,
                           fields=[_SETTINGS[name] for name in CHECK_SETTINGS],
                           table_id=table_id, carried=carried, args=request.args,
                           verdict=verdict, error=error), 422 if error else 200
