"""Rule checks a player can run mid-game, with or without a table ("Who won this trick?")."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from companion import tables
from companion.rules import rook, zocknroll
from companion.rules.cards import format_card
from companion.rules.said import N_, said_of
from companion.storage import get_db

from .cookies import phone_secret
from .games.zocknroll import MAX_DICE_TEXT, parse_dice

bp = Blueprint("tools", __name__)

MAX_TRICK = 6


def _card_options(settings: dict) -> list[tuple[str, str]]:
    numbers = ([1] if settings.get("ones") else []) + list(range(5, 15))
    cards = [f"{n}{colour}" for colour in rook.COLOURS for n in numbers] + ["ROOK"]
    return [(c, format_card(c, "rook")) for c in cards]


def _variant_labels() -> list[tuple[str, str]]:
    """(key, label) of every Rook variant, as the new-table form names them: a player reads
    "1s high (180 a hand)", never the key "ones_180"."""
    field = next(f for f in rook.GAME.settings_fields if f.name == "variant")
    return [(key, label) for key, label in field.choices if key in rook.VARIANTS]


def _rook_rank_label(settings: dict) -> str:
    """How the table's Rook bird ranks, in the words of its house rule."""
    field = next(f for f in rook.GAME.settings_fields if f.name == "rook_rank")
    return dict(field.choices).get(settings.get("rook_rank"), settings.get("rook_rank"))


def _trick_page(settings: dict, table=None):
    played = [request.args.get(f"c{i}", "") for i in range(1, MAX_TRICK + 1)]
    trump = request.args.get("trump", "")
    verdict = error = None
    cards = [c for c in played if c]
    if request.args.get("check"):
        if not cards or not trump:
            error = N_("Pick the trump colour and at least the card that was led.")
        else:
            try:
                verdict = rook.trick_winner(cards, trump, settings)
            except ValueError as exc:
                error = said_of(exc)
    status = 422 if error else 200
    return render_template("tools/rook_trick.html", table=table, settings=settings,
                           variants=_variant_labels(), options=_card_options(settings),
                           colours=list(rook.COLOURS.items()), played=played, trump=trump,
                           rook_rank=_rook_rank_label(settings),
                           verdict=verdict, cards=cards, error=error), status


@bp.get("/rook/trick")
def rook_trick():
    """Who won this trick? For any Rook variant, without a table."""
    variant = request.args.get("variant", "family")
    if variant not in rook.VARIANTS:
        abort(404)
    return _trick_page(rook.resolve_settings(variant))


@bp.get("/t/<table_id>/trick")
def table_trick(table_id: str):
    """Who won this trick? With this table's house rules."""
    db = get_db()
    table = tables.get_table(db, table_id)
    if tables.phone_by_secret(db, table.id, phone_secret(table.id)) is None:
        raise tables.Forbidden("Open this table from its QR code or join code first.")
    if table.game_slug != "rook":
        abort(404)
    return _trick_page(rook.resolve_settings(table.settings), table)


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
            error = f"The number of {face}s must be a whole number from 0 to {MAX_PER_FACE}."
            break
        counts[face] = int(raw)
    dice = [face for face, n in counts.items() for _ in range(n)]
    if error is None and typed.strip():
        try:
            dice = parse_dice(typed, "Your dice")
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
