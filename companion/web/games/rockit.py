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
from companion.rules.cards import format_card, parse_cards

SHEET_TEMPLATE = "games/rockit/_sheet.html"
ENTRY_TEMPLATE = "games/rockit/_entry_fields.html"
FINISH_TEMPLATE = "games/rockit/_finish.html"
NEW_TABLE_HELP = None
TABLE_SWITCHES: tuple = ()
#: The new-table form asks who starts the first game (RID-2: any chance method); the rows
#: turn round to put that player first, since the rules start with seat 0.
STARTER_CHOICE = True

#: The longest run is 13 cards (RID-A3); a come-in box never needs more text than this.
MAX_CARD_TEXT = 400
MAX_TRICK = 13


def first_seat(form: Mapping[str, str], rows: list[int]) -> int:
    """Which of the filled rows starts game 1 (an index into ``rows``), from the new-table
    form's "starts" radio; ValueError in plain words for a row without a name."""
    raw = (form.get("starter") or "").strip()
    if not raw:
        return 0
    if len(raw) > 3 or not raw.isascii() or not raw.isdigit() or int(raw) not in rows:
        raise ValueError("Tap “starts” beside the player who starts the first game (a row "
                         "with a name).")
    return rows.index(int(raw))


# ---------------------------------------------------------------- form -> rules action

def _name(form: Mapping[str, str], key: str, names: list[str], needed: str) -> str:
    player = form.get(key) or ""
    if player not in names:
        raise ValueError(needed)
    return player


def _come_in(form: Mapping[str, str], names: list[str]) -> dict:
    player = _name(form, "player", names, "Tap who comes in.")
    raw = (form.get("cards") or "").strip()
    if len(raw) > MAX_CARD_TEXT:
        raise ValueError(f"A come-in is one trick: at most {MAX_TRICK} cards.")
    try:
        cards = parse_cards(raw, "standard")
    except ValueError as error:
        raise ValueError(f"{player}'s trick: {error}") from None
    if not cards:
        raise ValueError(f"Tap the cards of {player}'s trick: a rank, then a suit, for "
                         f"each card.")
    return {"kind": "come_in", "player": player, "cards": cards}


def parse_entry(form: Mapping[str, str], names: list[str], summary: dict) -> dict:
    """Turn the pressed button into a rules action.

    A "won" button (``win`` = the player) records a game won by going out (RID-9);
    ``kind`` ``come_in`` takes the player chip and the picked trick (RID-4); ``blocked``
    the player with the fewest cards when the draw pile ran out (RID-A7); ``finish`` ends
    the match.
    """
    won = form.get("win")
    if won is not None:
        return {"kind": "win", "player": _name(form, "win", names,
                                              "Tap the won button beside the player who "
                                              "went out.")}
    kind = form.get("kind") or ""
    if kind == "come_in":
        return _come_in(form, names)
    if kind == "blocked":
        if (form.get("cards") or "").strip():
            raise ValueError("You tapped cards for a come-in: press Come in to save them, "
                             "or clear them (⌫) first.")
        player = _name(form, "blocked_player", names,
                       "Tap who has the fewest cards in hand.")
        return {"kind": "win", "player": player, "how": "blocked"}
    if kind == "finish":
        return {"kind": "finish"}
    raise ValueError("Tap one of the buttons: Come in, or the won button of the player who "
                     "went out.")


# ---------------------------------------------------------------- history and refills

def _shown(cards) -> str:
    try:
        return " ".join(format_card(c) for c in cards)
    except (TypeError, ValueError):   # a stored payload is shown, never re-judged here
        return " ".join(map(str, cards or []))


def describe(payload: dict, names: list[str]) -> str:
    """One line for the history page."""
    kind = payload.get("kind")
    player = payload.get("player") or ""
    if kind == "come_in":
        return f"{player} came in: {_shown(payload.get('cards'))}"
    if kind == "win":
        if payload.get("how") == "blocked":
            return f"{player} won the game: fewest cards, the draw pile empty"
        return f"{player} won the game: went out"
    if kind == "finish":
        return "The table finished the match"
    return str(kind)


def form_values(form: Mapping[str, str], names: list[str]) -> dict[str, str]:
    """What the player had entered, to put back in the form after a refusal."""
    return {key: (form.get(key) or "")[:MAX_CARD_TEXT]
            for key in ("player", "cards", "blocked_player")}


# ---------------------------------------------------------------- what the templates show

def me_name(view) -> str | None:
    """The name of the seat this phone holds, if any."""
    me = view.me
    return me.name if me else None


def play_order(summary: dict) -> list[str]:
    """The players from the one who starts this game, clockwise (seating order)."""
    seats, starter = summary["seats"], summary["starter"]
    if starter not in seats:
        return list(seats)
    start = seats.index(starter)
    return seats[start:] + seats[:start]


def come_in_verdict(entry: dict, decks: int):
    """The RID-4 verdict of a recorded come-in (its sentence and rule, for the sheet)."""
    return rules.check_come_in(entry["cards"], decks)


def waiting(summary: dict) -> list[str]:
    """The players who have not come in yet this game, in seating order."""
    return [p for p in summary["seats"] if summary["come_in"].get(p) is None]


def default_player(view, summary: dict, values: Mapping[str, str] | None) -> str:
    """Whose chip the come-in form starts on: what was sent back after a refusal, else this
    phone's player while not in yet, else the first player not in."""
    if values and values.get("player"):
        return values["player"]
    out = waiting(summary)
    me = me_name(view)
    if me in out:
        return me
    return out[0] if out else ""


def last_event(summary: dict) -> dict | None:
    """What happened last, for the line at the top: the latest come-in of this game, else
    the last game won (a win starts a new game with nobody in)."""
    if summary["come_in_order"]:
        return {"kind": "come_in", **summary["come_in"][summary["come_in_order"][-1]]}
    if summary["games"]:
        return {"kind": "win", **summary["games"][-1]}
    return None


def last_winner(summary: dict) -> str | None:
    """The winner of the last game, who starts this one (RID-2); None in game 1."""
    return summary["games"][-1]["winner"] if summary["games"] else None


def check_args(view) -> dict[str, str]:
    """The checker page's query arguments for this table: its id (the way back) and decks."""
    return {"t": view.table.id, "decks": str(view.sheet.summary["decks"])}
