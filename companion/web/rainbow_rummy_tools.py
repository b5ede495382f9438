"""Rainbow Rummy 333 play checks on demand, with or without a table (RR-4 to RR-10).

One page, six checks: may this card go on that column (RR-4, Galaxy-only empty spaces
RR-6), may it slip behind a column (RR-7), may this column move there (RR-5), may the card
go on the bar (RR-8), are this turn's destinations legal (RR-9), is this a legal going out
(RR-10). Everything comes in the query string (a GET form), so a verdict is a link the table
can share, and the table page links here with its house rules filled in. Bad input gets a
422 with the message; nothing is stored. The labels are ``N_`` sentences and the refusals
``N_`` sentences or ``message("entry", …)`` Saids, shown with ``say()``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Blueprint, abort, render_template, request

from companion.rules import rainbow_rummy as rules
from companion.rules.cards import parse_cards
from companion.rules.said import N_, message, said_of
from companion.rules.verdict import Verdict

from .games.rainbow_rummy import CHECK_SETTINGS, check_args

bp = Blueprint("rainbow_rummy_tools", __name__)

#: (key, tab label, heading, rule) for every check the page offers.
CHECKS = (
    ("build", N_("Card on a column"), N_("Can this card go on that column?"), "RR-4"),
    ("slip", N_("Slip behind"), N_("Can this card slip behind a column?"), "RR-7"),
    ("move", N_("Move a column"), N_("Can this column move there?"), "RR-5"),
    ("bar", N_("The bar"), N_("Can this card go on the bar?"), "RR-8"),
    ("turn", N_("This turn"), N_("Are this turn's two destinations legal?"), "RR-9"),
    ("out", N_("Going out"), N_("Is this a legal going out?"), "RR-10"),
)
PLACES = (("team", N_("Own team board")), ("opponents", N_("An opponent's board")),
          ("bar", N_("The bar")))
BOARDS = (("same", N_("Onto a column of the same board (the mover's own)")),
          ("other", N_("Onto another player's board")),
          ("not_own", N_("The column is on someone else's board")))
STAGES = (("", N_("Not sure")), ("before", N_("Before the first card")),
          ("between", N_("Between the two cards")), ("after", N_("After the second card")))
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
    """The cards of a picker box; ``label`` (a Said) names the box in a refusal."""
    try:
        return parse_cards((args.get(key) or "").strip()[:400], rules.DECK)
    except ValueError as error:
        raise ValueError(message("entry", "{label}: {error}", label=label,
                                 error=said_of(error))) from None


def _card(args: Mapping[str, str], key: str, label: str, *, needed: str | None = None):
    """One card from a picker box: None when blank (or ValueError with ``needed``)."""
    cards = _cards(args, key, label)
    if len(cards) > 1:
        raise ValueError(message("entry", "{label}: pick one card, not {count}.", label=label,
                                 count=len(cards)))
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
    raise ValueError(needed or N_("Tap where the card went."))


def _build(args, settings) -> Verdict:
    card = _card(args, "card", message("entry", "The card to play"),
                 needed=N_("Pick the card you want to play."))
    onto = _card(args, "onto", message("entry", "The column's bottom card"))
    empty = _ticked(args, "empty")
    if onto and empty:
        raise ValueError(N_("You picked a bottom card and ticked Empty space: clear one of "
                            "them."))
    if not onto and not empty:
        raise ValueError(N_("Pick the bottom card of the column, or tick Empty space."))
    return rules.can_build(card, onto, settings)


def _slip(args, settings) -> Verdict:
    card = _card(args, "card", message("entry", "The card to slip"),
                 needed=N_("Pick the card you want to slip in."))
    top = _card(args, "top", message("entry", "The column's top card"),
                needed=N_("Pick the top card of the column (the end away from the players)."))
    column = (["?"] if _ticked(args, "down") else []) + [top]
    return rules.can_slip(card, column)


def _move(args, settings) -> Verdict:
    column = _cards(args, "column", message("entry", "The column moved"))
    if not column:
        raise ValueError(N_("Pick the cards of the column to move, from its top card down."))
    if len(column) > MAX_COLUMN:
        raise ValueError(message("entry", "A column holds at most {most} cards.",
                                 most=MAX_COLUMN))
    onto = _card(args, "onto", message("entry", "The receiving column's bottom card"))
    empty = _ticked(args, "empty")
    if onto and empty:
        raise ValueError(N_("You picked a bottom card and ticked Empty space: clear one of "
                            "them."))
    if not onto and not empty:
        raise ValueError(N_("Pick the bottom card of the receiving column, or tick Empty "
                            "space."))
    moving = _card(args, "pickup", message("entry", "The card it is picked up by"))
    board = args.get("board") or "same"
    if board not in dict(BOARDS):
        raise ValueError(N_("Tap whose board the columns are on."))
    stage = args.get("stage") or ""
    if stage not in dict(STAGES):
        raise ValueError(N_("Tap when in the turn the move happens."))
    down = ["?"] if _ticked(args, "down") else []
    return rules.can_move(down + column, [onto] if onto else None, moving=moving,
                          same_board=board != "other", own_board=board != "not_own",
                          stage=stage or None, settings=settings)


def _bar(args, settings) -> Verdict:
    card = _card(args, "card", message("entry", "The card to play"),
                 needed=N_("Pick the card for the bar."))
    top = _card(args, "top", message("entry", "The pile's top card"))
    if top and _ticked(args, "nopile"):
        raise ValueError(N_("You picked a top card and ticked No pile yet: clear one of them."))
    if not top and not _ticked(args, "nopile"):
        raise ValueError(message("entry", "Pick the top card of the {suit} pile, or tick No pile "
                                 "yet.", suit=card[-1]))
    return rules.can_play_on_bar(card, top)


def _turn(args, settings) -> Verdict:
    first = args.get("first") or ""
    if first not in dict(PLACES) and first != "none":
        raise ValueError(N_("Tap where the first card went (or No card)."))
    second = _place(args, "second", None)
    if first == "none" and second:
        raise ValueError(N_("A second card needs a first one: tap where the first card went."))
    places = [] if first == "none" else [first] + ([second] if second else [])
    raw = (args.get("in_hand") or "").strip()
    in_hand = None
    if raw:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 2
                and 1 <= int(raw) <= rules.HAND_SIZE):
            raise ValueError(message("rainbow_rummy", "Cards in hand is a whole number from 1 "
                                     "to {most}.", most=rules.HAND_SIZE))
        in_hand = int(raw)
    return rules.check_turn(places, first_turn=_ticked(args, "first_turn"),
                            cards_in_hand=in_hand, settings=settings)


def _out(args, settings) -> Verdict:
    last = _place(args, "last", N_("Tap where the last card went."))
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
