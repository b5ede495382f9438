"""Rule checks a player can run mid-game, with or without a table ("Who won this trick?")."""
from __future__ import annotations

import re

from flask import Blueprint, abort, render_template, request

from companion import tables
from companion.rules import rook, zocknroll
from companion.rules.said import N_, message, said_of
from companion.storage import get_db

from .cookies import phone_secret
from .games.zocknroll import MAX_DICE_TEXT, parse_dice

bp = Blueprint("tools", __name__)

MAX_TRICK = 6


def _card_options(settings: dict, players: int = 4) -> list[tuple[str, str]]:
    """Every card of the table's deck for the card boxes (RK-1b: the family game's 4s only
    when 6 play)."""
    numbers = (([1] if settings.get("ones") else [])
               + ([4] if settings.get("decks") == 2 and players == 6 else [])
               + list(range(5, 15)))
    cards = [f"{n}{colour}" for colour in rook.COLOURS for n in numbers] + ["ROOK"]
    return [(c, rook.card_label(c)) for c in cards]


def _variant_labels() -> list[tuple[str, str]]:
    """(key, label) of every Rook variant, as the new-table form names them: a player reads
    "1s high (180 a hand)", never the key "ones_180"."""
    field = next(f for f in rook.GAME.settings_fields if f.name == "variant")
    return [(key, label) for key, label in field.choices if key in rook.VARIANTS]


def _rook_rank_label(settings: dict) -> str:
    """How the table's Rook bird ranks, in the words of its house rule."""
    field = next(f for f in rook.GAME.settings_fields if f.name == "rook_rank")
    return dict(field.choices).get(settings.get("rook_rank"), settings.get("rook_rank"))


#: The parts of the Rook table help page (templates/tools/rook_trick.html), in the order of
#: a hand: the auction, the discard, the tricks, a renege.
SECTIONS = ("bidding", "discard", "trick", "follow")
MAX_CALLS_TEXT = 400     # the auction so far, carried in the page's query
MAX_HELD = 3             # "cards they still held" boxes
_COUNT = re.compile(r"[0-9]{1,3}", re.ASCII)
_BID = re.compile(r"[0-9]{1,6}", re.ASCII)


def _count(name: str, refusal: str) -> int | None:
    """A small whole number from the query (a select box), None when left empty."""
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return None
    if not _COUNT.fullmatch(raw):
        raise ValueError(refusal)
    return int(raw)


def _section() -> str | None:
    """Which part of the page was asked: a bid button is the auction; Enter in a box
    (the hidden default button, check=auto) the auction if a bid was typed, else the trick."""
    check = request.args.get("check") or ""
    if request.args.get("call"):
        return "bidding"
    if check in SECTIONS:
        return check
    if check == "auto":
        return "bidding" if (request.args.get("bid") or "").strip() else "trick"
    return "trick" if check else None


def _bidding(settings: dict, players: int, asked: bool):
    """The auction (RK-4, R-A7): the calls so far from the page, plus the one just tapped."""
    text = (request.args.get("calls") or "")[:MAX_CALLS_TEXT]
    call = request.args.get("call") or ("typed" if asked else "")
    if call == "new":
        text, new = "", None
    elif call == "pass":
        new = "pass"
    elif call == "typed":
        new = (request.args.get("bid") or "").strip()
        if not _BID.fullmatch(new):
            raise ValueError(N_("Type the bid as a whole number, or tap one."))
    elif _BID.fullmatch(call):
        new = call
    elif call:
        raise ValueError(N_("Tap a bid, or Pass."))
    else:
        new = None
    before = rook.check_bidding(settings, text, players)
    if new is None or not before.ok:
        return before
    return rook.check_bidding(settings, f"{text} {new}", players)


def _discard(settings: dict, players: int):
    """The discard by numbers (RK-5, R-A3)."""
    bad = N_("Count the cards with the boxes: whole numbers.")
    cards = _count("d_cards", bad)
    trump_out = _count("d_trump", bad) or 0
    held = _count("d_held", bad)
    if cards is None:
        raise ValueError(N_("Say how many cards the bidder discarded."))
    if held is None:
        if trump_out:
            raise ValueError(N_("Say how many trump the bidder held with the widow, the Rook "
                                "birds included."))
        held = 0
    return rook.check_discard_counts(settings, cards, trump_out, held, players)


def _follow(settings: dict, players: int, trump: str):
    """Did they have to follow? (RK-6)"""
    led = request.args.get("f_led") or ""
    played = request.args.get("f_played") or ""
    if not (trump and led and played):
        raise ValueError(N_("Pick the trump colour, the card led and the card they played."))
    held = [c for c in (request.args.get(f"f_held{i}") or ""
                        for i in range(1, MAX_HELD + 1)) if c]
    return rook.check_follow(settings, trump, led, played, held, players)


def _trick_page(settings: dict, table=None, players: int | None = None,
                names: list[str] | None = None):
    """The Rook table help page: the auction, the discard, who won the trick, a renege.

    A table's page knows the house rules, the number of players and their names in seating
    order (``names``): told who led, it names each card's player and the trick's winner.
    The page without a table asks for the variant and 4 or 6 players (4 unless told), and
    says where the winner sits from the leader. The trick shows one card box per player."""
    errors: dict[str, object] = {}
    if players is None:
        raw = request.args.get("players") or "4"
        players = int(raw) if raw in ("4", "6") else 4
        if raw not in ("4", "6"):
            errors["setup"] = N_("Rook is for 4 or 6 players.")
    # Every box the form may send is read (a card too many is refused by the rules), but
    # only one box per player is drawn.
    played = [request.args.get(f"c{i}", "") for i in range(1, MAX_TRICK + 1)]
    leader = request.args.get("leader", "")
    leader = (int(leader) if names and leader.isascii() and leader.isdigit()
              and int(leader) < len(names) else None)
    order = names[leader:] + names[:leader] if names and leader is not None else None
    trump = request.args.get("trump", "")
    section = _section()
    verdicts: dict[str, object] = {}
    cards = [c for c in played if c]
    try:
        auction = _bidding(settings, players, section == "bidding"
                           and request.args.get("check") == "auto")
    except ValueError as exc:
        errors["bidding"] = said_of(exc)
        auction = rook.check_bidding(settings, [], players)
    if section == "bidding" and "bidding" not in errors:
        verdicts["bidding"] = auction
    elif section == "trick":
        if not cards or not trump:
            errors["trick"] = N_("Pick the trump colour and at least the card that was led.")
        else:
            try:
                verdicts["trick"] = rook.trick_winner(cards, trump, settings, players)
            except ValueError as exc:
                errors["trick"] = said_of(exc)
    elif section in ("discard", "follow"):
        try:
            verdicts[section] = (_discard(settings, players) if section == "discard"
                                 else _follow(settings, players, trump))
        except ValueError as exc:
            errors[section] = said_of(exc)
    opened = {section} if section else {request.args.get("open") or "trick"}
    opened |= set(errors) & set(SECTIONS)
    status = 422 if errors else 200
    calls = " ".join("pass" if c is None else str(c) for c in auction.details["calls"])
    return render_template("tools/rook_trick.html", table=table, settings=settings,
                           variants=_variant_labels(), options=_card_options(settings, players),
                           colours=list(rook.COLOUR_NAMES.items()),
                           played=played[:max([players] + [i + 1 for i, c in
                                                            enumerate(played) if c])],
                           trump=trump, names=names, leader=leader, order=order,
                           card_label=rook.card_label,
                           rook_rank=_rook_rank_label(settings), players=players,
                           verdict=verdicts.get("trick"), verdicts=verdicts,
                           cards=cards, error=errors.get("trick"), errors=errors,
                           opened=opened, auction=auction, calls=calls,
                           hand_size=rook.hand_size(settings, players),
                           held=[request.args.get(f"f_held{i}", "")
                                 for i in range(1, MAX_HELD + 1)]), status


@bp.get("/rook/trick")
def rook_trick():
    """The Rook table help (who won this trick? and more), for any variant, without a
    table: the page asks for the variant and the number of players."""
    variant = request.args.get("variant", "family")
    if variant not in rook.VARIANTS:
        abort(404)
    return _trick_page(rook.resolve_settings(variant))


@bp.get("/t/<table_id>/trick")
def table_trick(table_id: str):
    """The Rook table help with this table's house rules and number of players."""
    db = get_db()
    table = tables.get_table(db, table_id)
    if tables.phone_by_secret(db, table.id, phone_secret()) is None:
        raise tables.Forbidden(N_("Open this table from its QR code or join code first."))
    if table.game_slug != "rook":
        abort(404)
    names = [seat.name for seat in tables.seats_of(db, table.id)]
    players = len(names)
    return _trick_page(rook.resolve_settings(table.settings), table,
                       players if players in (4, 6) else None,
                       names if players in (4, 6) else None)


FACES = range(1, 7)
MAX_PER_FACE = 8


@bp.get("/zocknroll/best")
def zocknroll_best():
    """What's my best hand? Dice tapped on a pad (or counted per face), on either board,
    without a table."""
    board = request.args.get("board", "beginner")
    if board not in ("beginner", "advanced"):
        abort(404)
    counts, error, verdict = {}, None, None
    typed = request.args.get("dice", "")
    for face in FACES:
        raw = request.args.get(f"d{face}", "0").strip() or "0"
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 2 or int(raw) > MAX_PER_FACE:
            error = message("zocknroll", "The number of {face}s must be a whole number from 0 "
                            "to {most}.", face=face, most=MAX_PER_FACE)
            break
        counts[face] = int(raw)
    dice = [face for face, n in counts.items() for _ in range(n)]
    if error is None and typed.strip():
        try:
            dice = parse_dice(typed, message("entry", "Your dice"))
        except ValueError as exc:
            error = said_of(exc)
    if error is None and request.args.get("check"):
        try:
            verdict = zocknroll.explain_hand(dice, board)
        except ValueError as exc:
            error = said_of(exc)
    shown = typed[:MAX_DICE_TEXT] if typed.strip() else " ".join(map(str, dice))
    return render_template("tools/zocknroll_best.html", board=board, dice=shown,
                           verdict=verdict, error=error, max_dice=8), 422 if error else 200
