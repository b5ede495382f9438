"""Rocca Card Tower on the phone: a referee screen every phone shows, and a turn form.

The player whose turn it is (or any seated phone for them) taps the card just placed on
the tower, or "drew a card"; the rules move the turn (reverse, ace again, J/K stacks, queen
exchanges, joker lock, One, elimination). Every phone shows whose turn it is, the direction,
the pending stack, an open queen exchange, hand counts and a "One!" button per player.
All words go through gettext (English and Japanese); the rules' sentences are Saids that
the templates remake with ``say()``.
"""
from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext

from companion.rules import rocca
from companion.rules.cards import format_card, parse_card

SHEET_TEMPLATE = "games/rocca/_sheet.html"
ENTRY_TEMPLATE = "games/rocca/_entry_fields.html"
FINISH_TEMPLATE = None
NEW_TABLE_HELP = "games/rocca/_new_help.html"
TABLE_SWITCHES: tuple = ()
#: The new-table form asks who starts the first game (a "starts" radio on each row).
STARTER_CHOICE = True
#: A won game waits for "Deal the next game" in this entry form (the match goes on, with its
#: tally and the biggest loser starting), instead of the generic rematch button.
ENTRY_WHEN_OVER = True

SUITS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))
MAX_CARD_TEXT = 12
MAX_BON_TEXT = 40


def N_(text: str) -> str:
    """Mark a string for the catalogue; it is translated where it is shown (``tr``)."""
    return text


# Strings that come from the rules library and are shown through tr(): the house rule's
# label and help, and the words describe_settings uses.
_FROM_RULES = (N_("Rocca Card Tower"), N_("Bon (optional rule)"),
               N_("Any player may attach 2 or 3 cards of an active card's letter or number "
                  "at once, even out of turn; the effect counts once."),
               N_("Yes"), N_("No"))


def first_seat(form: Mapping[str, str], rows: list[int]) -> int:
    """Which of the filled rows starts game 1 (an index into ``rows``), from the form's
    "starts" radio. The rules start with seats[0], so the new-table form rotates the seats
    to put this row first; the seating order (who sits after whom) stays the same."""
    raw = (form.get("starter") or "").strip()
    if not raw:
        return 0
    if len(raw) > 3 or not raw.isascii() or not raw.isdigit() or int(raw) not in rows:
        raise ValueError(gettext("Tap “starts” beside the player who starts the first game "
                                 "(a row with a name)."))
    return rows.index(int(raw))


def _card(text: str | None) -> str | None:
    """One card from the picker's box, or None when it is empty; ValueError in plain words."""
    raw = (text or "").strip()
    if not raw:
        return None
    if len(raw) > MAX_CARD_TEXT or len(raw.replace(",", " ").split()) > 1:
        raise ValueError(gettext("Tap one card: a rank, then a suit (or the joker)."))
    try:
        return parse_card(raw, rocca.DECK)
    except ValueError:
        raise ValueError(gettext("“%(text)s” is not a Rocca card: tap a rank (0, A, 2–10, J, "
                                 "Q, K), then a suit, or the joker.", text=raw)) from None


def _cards(text: str | None) -> list[str]:
    raw = (text or "").strip()
    if len(raw) > MAX_BON_TEXT:
        raise ValueError(gettext("A Bon is 2 or 3 cards."))
    return [_card(item) for item in raw.replace(",", " ").split()]


def _player(form: Mapping[str, str], names: list[str], summary: dict) -> str:
    player = form.get("player") or summary.get("current") or ""
    if player not in names:
        raise ValueError(gettext("Reload the page: the form does not say whose turn it is."))
    return player


def _no_card_typed(form: Mapping[str, str]) -> None:
    if (form.get("card") or "").strip():
        raise ValueError(gettext("You tapped a card: press “Placed this card” to play it, or "
                                 "clear it (⌫) first."))


def parse_entry(form: Mapping[str, str], names: list[str], summary: dict) -> dict:
    """Turn the pressed button (``kind``, or a "One!" button) and the picker into an action."""
    one = form.get("one")
    if one is not None:
        if one not in names:
            raise ValueError(gettext("Tap the “One!” button beside the player who said it."))
        return {"kind": "one", "player": one}
    kind = form.get("kind") or ""
    if kind in ("new_game", "stock_out"):
        return {"kind": kind}
    if kind == "bon":
        return _parse_bon(form, names)
    if kind not in ("play", "draw", "accept", "cannot_play"):
        raise ValueError(gettext("Tap one of the buttons to say what happened."))
    player = _player(form, names, summary)
    if kind != "play":
        _no_card_typed(form)
        return {"kind": kind, "player": player}
    card = _card(form.get("card"))
    if card is None:
        raise ValueError(gettext("Tap the card %(player)s placed: a rank, then a suit (or the "
                                 "joker).", player=player))
    action = {"kind": "play", "player": player, "card": card}
    if card == rocca.JOKER:
        suit = form.get("suit") or ""
        if suit not in dict(SUITS):
            raise ValueError(gettext("Tap the suit %(player)s declared for the joker.",
                                     player=player))
        action["suit"] = suit
    if card.startswith("Q") and summary.get("queen") is None:
        target = form.get("to") or ""
        if target not in names or target == player:
            raise ValueError(gettext("Tap who gets a card from %(player)s's queen.",
                                     player=player))
        action["to"] = target
    return action


def _parse_bon(form: Mapping[str, str], names: list[str]) -> dict:
    player = form.get("bon_player") or ""
    if player not in names:
        raise ValueError(gettext("Tap who called Bon."))
    cards = _cards(form.get("bon_cards"))
    if not 2 <= len(cards) <= 3:
        raise ValueError(gettext("Tap the 2 or 3 cards of the Bon."))
    onto = _card(form.get("bon_onto"))
    if onto is None:
        raise ValueError(gettext("Tap the active card the Bon goes on."))
    action = {"kind": "bon", "player": player, "cards": cards, "onto": onto}
    if form.get("bon_to"):
        action["to"] = form.get("bon_to")
    return action


def _label(card: str) -> str:
    try:
        return card_label(card)
    except ValueError:
        return str(card)


def card_label(card: str) -> str:
    """A card for people: "10♥", "Q♠", or the joker in the active language."""
    if parse_card(card, rocca.DECK) == rocca.JOKER:
        return gettext("Joker")
    return format_card(card, rocca.DECK)


def describe(payload: dict, names: list[str]) -> str:
    """One line for the history page, in the active language."""
    kind = payload.get("kind")
    player = payload.get("player") or ""
    if kind == "play":
        line = gettext("%(player)s placed %(card)s", player=player,
                       card=_label(payload.get("card", "")))
        if payload.get("suit"):
            line += " " + gettext("(declared %(suit)s)", suit=dict(SUITS).get(payload["suit"], ""))
        if payload.get("to"):
            line += " " + gettext("→ %(player)s", player=payload["to"])
        return line
    if kind == "draw":
        return gettext("%(player)s drew", player=player)
    if kind == "accept":
        return gettext("%(player)s took the queen's cards", player=player)
    if kind == "one":
        return gettext("%(player)s said One", player=player)
    if kind == "bon":
        cards = ", ".join(_label(c) for c in payload.get("cards") or [])
        return gettext("%(player)s called Bon: %(cards)s on %(onto)s", player=player, cards=cards,
                       onto=_label(payload.get("onto", "")))
    if kind == "stock_out":
        return gettext("The stock ran out")
    if kind == "cannot_play":
        return gettext("%(player)s could not play and is out", player=player)
    if kind == "new_game":
        return gettext("The next game was dealt")
    return str(kind)


def form_values(form: Mapping[str, str], names: list[str]) -> dict[str, str]:
    """What the player had entered, to put back in the form after a refusal."""
    keys = ("player", "card", "suit", "to", "bon_player", "bon_cards", "bon_onto", "bon_to")
    return {key: (form.get(key) or "")[:MAX_BON_TEXT] for key in keys}


# ---------------------------------------------------------------- what the templates show

def me_name(view) -> str | None:
    """The name of the seat this phone holds, if any."""
    me = view.me
    return me.name if me else None


def entry_folded(view, summary: dict, values: Mapping[str, str] | None) -> bool:
    """Whether this phone shows the current player's move form folded: it is someone else's
    turn and that player has a phone of their own (they tap it there). A phone can still
    open it to enter the move for them; it stays open after a refusal."""
    current = summary["current"]
    if summary["over"] or current is None or current == me_name(view):
        return False
    if values and any(values.get(key) for key in ("card", "suit", "to")):
        return False
    return any(seat.name == current and seat.has_phone for seat in view.seats)


def turn_order(summary: dict) -> list[str]:
    """The players still in, from the one who acts now, in the direction of play."""
    seats, still_in = summary["seats"], summary["still_in"]
    current = summary["current"] or summary["starter"]
    if current not in seats:
        return list(still_in)
    start, step = seats.index(current), summary["direction"]
    order = [seats[(start + i * step) % len(seats)] for i in range(len(seats))]
    return [p for p in order if p in still_in]


def seat_rows(summary: dict, me: str | None) -> list[dict]:
    """One row per seat for the referee screen: hand count, tally and what applies now."""
    pending, queen = summary["pending"], summary["queen"]
    rows = []
    for name in summary["seats"]:
        hand = summary["hands"][name]
        out = name in summary["eliminated"]
        rows.append({
            "name": name, "hand": hand, "wins": summary["totals"].get(name, 0),
            "me": name == me, "now": name == summary["current"], "out": out,
            "said_one": name in summary["said_one"],
            "must_say_one": name in summary["must_say_one"],
            "can_say_one": not out and not summary["over"] and hand == 1
            and name not in summary["said_one"],
            "owes": pending if pending and pending["player"] == name else None,
            "gets_queen": queen if queen and queen["receiver"] == name else None,
            "winner": name == summary["winner"],
        })
    return rows


def queen_targets(summary: dict) -> list[str]:
    """Who an opening queen can go to: the other players still in."""
    return [p for p in summary["still_in"] if p != summary["current"]]
