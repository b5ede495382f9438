"""Rocca Card Tower on the phone: a referee screen every phone shows, and a turn form.

The player whose turn it is (or any seated phone for them) taps the card just placed on
the tower, or "drew a card"; the rules move the turn (reverse, ace again, J/K stacks, queen
exchanges, joker lock, One, elimination). Every phone shows whose turn it is, the direction,
the pending stack, an open queen exchange, hand counts and a "One!" button per player.
All words are English and Japanese: the rules' sentences are Saids that the templates
remake with ``say()``; this adapter's own refusals and history lines are ``N_`` sentences
and ``message("entry", …)`` Saids (see :mod:`.base`), the card labels ``gettext``.
"""
from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext

from companion.rules import rocca
from companion.rules.cards import format_card, parse_card, picker_deck
from companion.rules.said import N_, joined, message

from .base import EntryError, GameUI

#: (suit, symbol) of the Rocca deck, from the one deck definition (rules/cards.py).
SUITS = tuple((code, symbol) for code, symbol, _word in picker_deck("rocca")["suits"])
MAX_CARD_TEXT = 12
MAX_BON_TEXT = 40

# Strings that come from the rules library and are shown through say(): the house rule's
# label and help, and the words describe_settings uses.
_FROM_RULES = (N_("Rocca Card Tower"), N_("Bon (optional rule)"),
               N_("Any player may attach 2 or 3 cards of an active card's letter or number "
                  "at once, even out of turn; the effect counts once."),
               N_("Yes"), N_("No"))


def _card(text: str | None) -> str | None:
    """One card from the picker's box, or None when it is empty; ValueError in plain words."""
    raw = (text or "").strip()
    if not raw:
        return None
    if len(raw) > MAX_CARD_TEXT or len(raw.replace(",", " ").split()) > 1:
        raise EntryError(N_("Tap one card: a rank, then a suit (or the joker)."), field="card")
    try:
        return parse_card(raw, rocca.DECK)
    except ValueError:
        raise EntryError(message("entry", "“{text}” is not a Rocca card: tap a rank (0, A, "
                                         "2–10, J, Q, K), then a suit, or the joker.",
                                 text=raw), field="card") from None


def _cards(text: str | None) -> list[str]:
    raw = (text or "").strip()
    if len(raw) > MAX_BON_TEXT:
        raise EntryError(N_("A Bon is 2 or 3 cards."), field="bon_cards")
    return [_card(item) for item in raw.replace(",", " ").split()]


def _player(form: Mapping[str, str], names: list[str], summary: dict) -> str:
    player = form.get("player") or summary.get("current") or ""
    if player not in names:
        raise EntryError(N_("Reload the page: the form does not say whose turn it is."))
    return player


def _no_card_typed(form: Mapping[str, str]) -> None:
    if (form.get("card") or "").strip():
        raise EntryError(N_("You tapped a card: press “Placed this card” to play it, or clear "
                            "it (⌫) first."), field="card")


# ---------------------------------------------------------------- card labels, the Bon

def card_label(card: str) -> str:
    """A card for people: "10♥", "Q♠", or the joker in the active language."""
    if parse_card(card, rocca.DECK) == rocca.JOKER:
        return gettext("Joker")
    return format_card(card, rocca.DECK)


def _label(card: str) -> str:
    try:
        return card_label(card)
    except ValueError:
        return str(card)


def _parse_bon(form: Mapping[str, str], names: list[str]) -> dict:
    player = form.get("bon_player") or ""
    if player not in names:
        raise EntryError(N_("Tap who called Bon."), field="bon_player")
    cards = _cards(form.get("bon_cards"))
    if not 2 <= len(cards) <= 3:
        raise EntryError(N_("Tap the 2 or 3 cards of the Bon."), field="bon_cards")
    onto = _card(form.get("bon_onto"))
    if onto is None:
        raise EntryError(N_("Tap the active card the Bon goes on."), field="bon_onto")
    action = {"kind": "bon", "player": player, "cards": cards, "onto": onto}
    if form.get("bon_to"):
        action["to"] = form.get("bon_to")
    return action


#: History lines of the actions that only name the player.
# Literal message() calls, so `pybabel extract` finds each template.
_PLAYER_LINES = {
    "draw": lambda **v: message("entry", "{player} drew", **v),
    "accept": lambda **v: message("entry", "{player} took the queen's cards", **v),
    "one": lambda **v: message("entry", "{player} said One", **v),
    "cannot_play": lambda **v: message("entry", "{player} could not play and is out", **v),
}


class RoccaUI(GameUI):
    """Rocca Card Tower: a referee screen on every phone, a turn form; the new-table form
    asks who starts, and a won game waits for "Deal the next game" in this entry form (the
    match goes on, with its tally and the biggest loser starting)."""
    styles = ("css/games/cards.css",)
    scripts = ("js/pickers.js",)

    slug = "rocca"
    rules_field = "card"             # a card the rules refused
    fields = ("player", "card", "suit", "to", "bon_player", "bon_cards", "bon_onto", "bon_to")
    max_field_chars = MAX_BON_TEXT
    starter_choice = True
    entry_when_over = True
    SUITS = SUITS

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn the pressed button (``kind``, or a "One!" button) and the picker into an
        action."""
        one = form.get("one")
        if one is not None:
            if one not in names:
                raise EntryError(N_("Tap the “One!” button beside the player who said it."))
            return {"kind": "one", "player": one}
        kind = form.get("kind") or ""
        if kind in ("new_game", "stock_out"):
            return {"kind": kind}
        if kind == "bon":
            return _parse_bon(form, names)
        if kind not in ("play", "draw", "accept", "cannot_play"):
            raise EntryError(N_("Tap one of the buttons to say what happened."))
        player = _player(form, names, summary)
        if kind != "play":
            _no_card_typed(form)
            return {"kind": kind, "player": player}
        card = _card(form.get("card"))
        if card is None:
            raise EntryError(message("entry", "Tap the card {player} placed: a rank, then a "
                                              "suit (or the joker).", player=player), field="card")
        action = {"kind": "play", "player": player, "card": card}
        if card == rocca.JOKER:
            suit = form.get("suit") or ""
            if suit not in dict(SUITS):
                raise EntryError(message("entry", "Tap the suit {player} declared for the "
                                                  "joker.", player=player), field="suit")
            action["suit"] = suit
        if card.startswith("Q") and summary.get("queen") is None:
            target = form.get("to") or ""
            if target not in names or target == player:
                raise EntryError(message("entry", "Tap who gets a card from {player}'s queen.",
                                         player=player), field="to")
            action["to"] = target
        return action

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page (card labels in the active language)."""
        kind = payload.get("kind")
        player = payload.get("player") or ""
        if kind == "play":
            parts = [message("entry", "{player} placed {card}", player=player,
                             card=_label(payload.get("card", "")))]
            if payload.get("suit"):
                parts.append(message("entry", "(declared {suit})",
                                     suit=dict(SUITS).get(payload["suit"], "")))
            if payload.get("to"):
                parts.append(message("entry", "→ {player}", player=payload["to"]))
            return joined(parts) if len(parts) > 1 else parts[0]
        if kind in _PLAYER_LINES:
            return _PLAYER_LINES[kind](player=player)
        if kind == "bon":
            cards = ", ".join(_label(c) for c in payload.get("cards") or [])
            return message("entry", "{player} called Bon: {cards} on {onto}", player=player,
                           cards=cards, onto=_label(payload.get("onto", "")))
        if kind == "stock_out":
            return N_("The stock ran out")
        if kind == "new_game":
            return N_("The next game was dealt")
        return str(kind)

    # ------------------------------------------------------------ what the templates show

    def entry_folded(self, view, summary: dict, values: Mapping[str, str] | None) -> bool:
        """Whether this phone shows the current player's move form folded: it is someone
        else's turn and that player has a phone of their own (they tap it there). A phone
        can still open it to enter the move for them; it stays open after a refusal."""
        current = summary["current"]
        if summary["over"] or current is None or current == self.me_name(view):
            return False
        if values and any(values.get(key) for key in ("card", "suit", "to")):
            return False
        return any(seat.name == current and seat.has_phone for seat in view.seats)


    @staticmethod
    def seat_rows(summary: dict, me: str | None) -> list[dict]:
        """One row per seat for the referee screen: hand count, tally and what applies
        now."""
        pending, queen = summary["pending"], summary["queen"]
        rows = []
        for name in summary["seats"]:
            hand = summary["hands"][name]
            out = name in summary["eliminated"]
            rows.append({
                "name": name, "hand": hand, "wins": summary["totals"].get(name, 0),
                "me": name == me, "now": name == summary["current"], "out": out,
                "said_one": name in summary["said_one"],
                # Once the game is over nobody has to say One (nor can): the tag goes.
                "must_say_one": name in summary["must_say_one"] and not summary["over"],
                "can_say_one": not out and not summary["over"] and hand == 1
                and name not in summary["said_one"],
                "owes": pending if pending and pending["player"] == name else None,
                "gets_queen": queen if queen and queen["receiver"] == name else None,
                # A give that emptied this hand is still open: out if the cards are taken
                # (ROC-A12).
                "out_if_taken": bool(queen and queen.get("out") and queen["giver"] == name),
                "winner": name == summary["winner"],
            })
        return rows


UI = RoccaUI
