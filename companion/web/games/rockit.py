"""RockIt to Destiny on the phone: who has come in, who starts, games won, and the come-in.

Players keep their real cards and lay their tricks on the real table. The app records two
things (RULES.md §4.3): each come-in (the trick a player entered with, checked against
RID-4 and accepted or refused with the rule) and each game won (RID-9); the next game then
starts with the winner. Arguments about the board go to the checker page
(``companion.web.rockit_tools``), linked from the sheet with the table's decks.
"""
from __future__ import annotations

from collections.abc import Mapping

from companion.rules import rockit as rules
from companion.rules.cards import format_card
from companion.rules.said import N_, Said, message
from companion.web.i18n import said_of

from .base import EntryError, GameUI

#: The longest run is 13 cards (RID-A3); a come-in box never needs more text than this.
MAX_CARD_TEXT = 400
MAX_TRICK = 13


# ---------------------------------------------------------------- form -> rules action

def _name(form: Mapping[str, str], key: str, names: list[str], needed: str,
          field: str | None = None) -> str:
    """The player named by the form's `key`; else `needed`, about `field` (if one box)."""
    player = form.get(key) or ""
    if player not in names:
        raise EntryError(needed, field=field)
    return player


def _come_in(form: Mapping[str, str], names: list[str]) -> dict:
    player = _name(form, "player", names, N_("Tap who comes in."), "player")
    raw = (form.get("cards") or "").strip()
    if len(raw) > MAX_CARD_TEXT:
        raise EntryError(message("entry", "A come-in is one trick: at most {count} cards.",
                                 count=MAX_TRICK), field="cards")
    try:
        cards, declared = rules.parse_trick(raw)       # "5♥ 6♥ JK, joker = 4♥" reads too
    except ValueError as error:
        said = said_of(error)           # a fixed N_ sentence is looked up as it is
        said = said if isinstance(said, Said) else Said(str(said), template=str(said))
        raise EntryError(message("entry", "{player}'s trick: {error}", player=player,
                                 error=said), field="cards") from None
    if not cards:
        raise EntryError(message("entry", "Tap the cards of {player}'s trick: a rank, then a "
                                          "suit, for each card.", player=player), field="cards")
    if declared and rules.JOKER not in cards:
        raise EntryError(message("entry", "{player}'s trick: a joker's card was declared, "
                                          "but the trick has no joker.", player=player),
                         field="cards")
    # A declared joker is still a joker: the rules refuse it in a come-in (RID-4).
    return {"kind": "come_in", "player": player, "cards": cards}


def _hands(form: Mapping[str, str], names: list[str]) -> dict[str, int]:
    """The cards in hand typed beside the players for a blocked game (optional, RID-A7):
    ``{player: count}`` for every box filled in."""
    hands = {}
    for i, player in enumerate(names):
        raw = (form.get(f"left_{i}") or "").strip()
        if not raw:
            continue
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 3
                and int(raw) <= rules.MAX_HAND):
            raise EntryError(message("entry", "{player}'s cards in hand: a number from 0 to "
                                              "{most}.", player=player, most=rules.MAX_HAND))
        hands[player] = int(raw)
    return hands


def _blocked(form: Mapping[str, str], names: list[str]) -> dict:
    """A blocked game's win (RID-A7): the player tapped (anyone, come in or not), or, with
    every player's cards in hand typed and no one tapped, the one holding the fewest."""
    if (form.get("cards") or "").strip():
        raise EntryError(N_("You tapped cards for a come-in: press Come in to save them, or "
                            "clear them (⌫) first."), field="cards")
    hands = _hands(form, names)
    player = form.get("blocked_player") or ""
    if not player and hands and len(hands) == len(names):
        verdict = rules.blocked_winners(hands)
        if not verdict:
            raise EntryError(message("entry", "{reason} Tap who wins.",
                                     reason=verdict.reason), field="blocked_player")
        player = verdict.details["winners"][0]
    if player not in names:
        raise EntryError(N_("Tap who has the fewest cards in hand."), field="blocked_player")
    action = {"kind": "win", "player": player, "how": "blocked"}
    if hands:
        action["hands"] = hands
    return action


def _shown(cards) -> str:
    try:
        return " ".join(format_card(c) for c in cards)
    except (TypeError, ValueError):   # a stored payload is shown, never re-judged here
        return " ".join(map(str, cards or []))


class RockitUI(GameUI):
    """RockIt to Destiny: come-ins and games won; the new-table form asks who starts game 1
    (RID-2: any chance method), and ``_finish.html`` ends the match."""
    styles = ("css/games/cards.css",)
    scripts = ("js/pickers.js",)

    slug = "rockit"
    rules_field = "cards"            # a come-in the rules refused (RID-4)
    #: A blocked game's win the rules refuse (the cards in hand: RID-A7) is about who won.
    rule_fields = {"RID-A7": "blocked_player"}
    #: ``left_<seat>``: a blocked game's cards in hand, one box per seat (at most 5).
    fields = ("player", "cards", "blocked_player") + tuple(
        f"left_{i}" for i in range(rules.MAX_PLAYERS))
    max_field_chars = MAX_CARD_TEXT
    starter_choice = True
    MAX_TRICK = MAX_TRICK

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn the pressed button into a rules action.

        A "won" button (``win`` = the player) records a game won by going out (RID-9);
        ``kind`` ``come_in`` takes the player chip and the picked trick (RID-4); ``blocked``
        a blocked game (RID-A7: the draw pile ran out and everyone passed): the player
        tapped, whether or not they came in, with the cards in hand typed beside the
        players (optional, ``left_<seat>``; the rules check the fewest); ``finish`` ends
        the match.
        """
        won = form.get("win")
        if won is not None:
            return {"kind": "win", "player": _name(
                form, "win", names, N_("Tap the won button beside the player who went out."))}
        kind = form.get("kind") or ""
        if kind == "come_in":
            return _come_in(form, names)
        if kind == "blocked":
            return _blocked(form, names)
        if kind == "finish":
            return {"kind": "finish"}
        raise EntryError(N_("Tap one of the buttons: Come in, or the won button of the player "
                            "who went out."))

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page."""
        kind = payload.get("kind")
        player = payload.get("player") or ""
        if kind == "come_in":
            return message("entry", "{player} came in: {cards}", player=player,
                           cards=_shown(payload.get("cards")))
        if kind == "win":
            if payload.get("how") == "blocked":
                return message("entry", "{player} won the game: fewest cards, the draw pile "
                                        "empty", player=player)
            return message("entry", "{player} won the game: went out", player=player)
        if kind == "finish":
            return N_("The table finished the match")
        return str(kind)

    # ------------------------------------------------------------ what the templates show


    @staticmethod
    def come_in_verdict(entry: dict, decks: int):
        """The RID-4 verdict of a recorded come-in (its sentence and rule, for the sheet)."""
        return rules.check_come_in(entry["cards"], decks)

    def default_player(self, view, summary: dict, values: Mapping[str, str] | None) -> str:
        """Whose chip the come-in form starts on: what was sent back after a refusal, else
        this phone's player while not in yet, else the first player not in."""
        if values and values.get("player"):
            return values["player"]
        out = summary["waiting"]
        me = self.me_name(view)
        if me in out:
            return me
        return out[0] if out else ""

    @staticmethod
    def check_args(view) -> dict[str, str]:
        """The checker page's query arguments for this table: its id (the way back) and
        decks."""
        return {"t": view.table.id, "decks": str(view.sheet.summary["decks"])}


UI = RockitUI
