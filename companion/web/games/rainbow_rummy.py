"""Rainbow Rummy 333 on the phone: the cut for deal, the end-of-hand sheet, the totals to 100.

One phone usually enters the whole hand for all four players (a kitchen table), so each
player gets a compact block: two quick point boxes (cards in hand, cards still face down)
and, folded away, the Universal Card Deck picker for those who would rather tap the cards.
The rules (``companion.rules.rainbow_rummy``) check and score everything; this module only
turns the form into a rules action and back. Every sentence is English and Japanese: the
rules' sentences are Saids, this adapter's refusals and history lines ``N_`` sentences and
``message("entry", …)`` Saids, all shown with ``say()``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from companion.rules import rainbow_rummy as rules
from companion.rules.cards import parse_cards
from companion.rules.cards import picker_deck as card_deck
from companion.rules.game import PAPER
from companion.rules.said import N_, joined, listing, message
from companion.web.i18n import said_of

from .base import EntryError, GameUI, paper_words

PARTS = ("hand", "down")
#: What each part is called on the form, and its quick-points box's upper bound (RR-3).
PART_WORDS = {"hand": message("entry", "cards in hand"),
              "down": message("entry", "face-down cards")}
MAX_POINTS = {"hand": 10 * rules.HAND_SIZE, "down": 10 * rules.STACKS}
MAX_CARD_TEXT = 400
BLOCKED = "blocked"
_POINTS = re.compile(r"[0-9]{1,3}", re.ASCII)

#: The house rules that change a play check (the checker page takes them as query args).
CHECK_SETTINGS = ("building", "empty_space", "last_card_elsewhere", "going_out_exempt",
                  "second_card_team")

#: The Universal Card Deck's words (companion/rules/cards.py) that the card picker and the
#: sheet's cards show through say(): the rank names and the suit buttons' labels.
_UCD_WORDS = (N_("Moon"), N_("Sun"), N_("Galaxy"), N_("suit E"), N_("suit J"), N_("suit M"),
              N_("suit N"), N_("suit S"), N_("suit V"))


# ---------------------------------------------------------------- form -> rules action

def _seat(form: Mapping[str, str], key: str, names: list[str]) -> int | None:
    """A seat number from a radio value "0".."3" (None when not a seat)."""
    raw = (form.get(key) or "").strip()
    if raw.isascii() and raw.isdigit() and int(raw) < len(names):
        return int(raw)
    return None


def _points(raw: str, player: str, part: str, field: str) -> int:
    """A quick point total typed in a box (`field`): a whole number within the part's range."""
    top = MAX_POINTS[part]
    if not _POINTS.fullmatch(raw) or int(raw) > top:
        raise EntryError(message("entry", "{player}'s points for {part} must be a whole "
                                          "number from 0 to {top}.", player=player,
                                 part=PART_WORDS[part], top=top), field=field)
    return int(raw)


def _part(form: Mapping[str, str], seat: int, player: str, part: str,
          went_out: bool) -> dict | None:
    """One player's hand or face-down cards: as cards, as points, or (went out) nothing;
    None when neither box is filled (an empty box is never 0 points: the caller refuses
    the hand naming every such box).

    Both boxes may be filled only when they agree, so a point total typed before the cards
    were tapped is never silently dropped.
    """
    cards_field, points_field = f"{part}_{seat}", f"{part}_pts_{seat}"
    cards_text = (form.get(cards_field) or "").strip()
    points_text = (form.get(points_field) or "").strip()
    try:
        cards = parse_cards(cards_text, rules.DECK) if cards_text else None
    except ValueError as error:
        raise EntryError(message("entry", "{player}'s {part}: {error}", player=player,
                                 part=PART_WORDS[part], error=said_of(error)),
                         field=cards_field) from None
    points = _points(points_text, player, part, points_field) if points_text else None
    if cards is not None and points is not None:
        counted = rules.count_points(cards)
        if counted != points:
            raise EntryError(message("entry", "{player}'s {part} add up to {counted}, but "
                                              "the points box says {points}: clear one of "
                                              "the two.", player=player, part=PART_WORDS[part],
                                     counted=counted, points=points), field=points_field)
        points = None
    if cards is not None:
        return {part: cards}
    if points is not None:
        return {f"{part}_points": points}
    if part == "hand" and went_out:
        return {}
    return None


def _missing(empty: list[tuple[str, str, str]]) -> EntryError:
    """The refusal of a hand with point boxes left empty: (player, part, field) each."""
    if len(empty) == 1:
        player, part, field = empty[0]
        return EntryError(message("entry", "Enter {player}'s {part}: their points (0 if "
                                           "none), or tap the cards.", player=player,
                                  part=PART_WORDS[part]), field=field)
    boxes = listing([message("entry", "{player}'s {part}", player=player,
                             part=PART_WORDS[part]) for player, part, _ in empty],
                    message("entry", "and"))
    return EntryError(message("entry", "Nothing saved: no points typed for {boxes}. Type "
                                       "them (0 if none), or tap the cards.", boxes=boxes),
                      fields=tuple(field for _, _, field in empty))


def _hand(form: Mapping[str, str], names: list[str], summary: dict) -> dict:
    choice = (form.get("went_out") or "").strip()
    out_seat = _seat(form, "went_out", names)
    if out_seat is None and choice != BLOCKED:
        raise EntryError(N_("Tap who went out, or Blocked if nobody could."), field="went_out")
    if summary.get("cut") is None and not summary.get("hands") and _cut_typed(form, names):
        raise EntryError(N_("You entered cut cards but did not save the cut: tap Who deals? "
                            "first, or clear the cut cards."))
    went_out = None if out_seat is None else names[out_seat]
    # The house rule that the player who went out doesn't count face-down cards (RR-A1):
    # their face-down box then scores nothing, so it may stay empty.
    out_counts_down = (summary.get("settings") or {}).get("out_counts_down", True)
    cards = {}
    empty = []
    for seat, player in enumerate(names):
        entry = {}
        for part in PARTS:
            got = _part(form, seat, player, part, player == went_out)
            if got is None and part == "down" and player == went_out and not out_counts_down:
                got = {"down_points": 0}
            if got is None:
                empty.append((player, part, f"{part}_pts_{seat}"))
            else:
                entry.update(got)
        cards[player] = entry
    if empty:
        raise _missing(empty)
    return {"kind": "hand", "went_out": went_out, "cards": cards}


def _cut_typed(form: Mapping[str, str], names: list[str]) -> bool:
    return any((form.get(f"cut_{seat}") or "").strip() for seat in range(len(names)))


def _cut(form: Mapping[str, str], names: list[str]) -> dict:
    cards = {}
    for seat, player in enumerate(names):
        try:
            typed = parse_cards((form.get(f"cut_{seat}") or "").strip(), rules.DECK)
        except ValueError as error:
            raise EntryError(message("entry", "{player}'s cut card: {error}", player=player,
                                     error=said_of(error)), field=f"cut_{seat}") from None
        if len(typed) != 1:
            if not typed:
                raise EntryError(message("entry", "Each player cuts one card: {player} has no "
                                                  "card.", player=player), field=f"cut_{seat}")
            raise EntryError(message("entry", "Each player cuts one card: {player} has {count} "
                                              "cards.", player=player, count=len(typed)),
                             field=f"cut_{seat}")
        cards[player] = typed[0]
    return {"kind": "cut", "cards": cards}


# ---------------------------------------------------------------- history and refills

def _part_text(entry: Mapping, part: str) -> str:
    if f"{part}_points" in entry:
        return str(entry[f"{part}_points"])
    cards = entry.get(part)
    if isinstance(cards, list):
        try:
            points = rules.count_points(cards)
            if not cards:
                return message("entry", "{points} (none)", points=points)
            return message("entry", "{points} ({cards})", points=points, cards=" ".join(cards))
        except ValueError:  # a stored payload is shown, never re-judged here
            return " ".join(map(str, cards))
    return "—"


# ---------------------------------------------------------------- what the templates ask

def cards_typed(values: Mapping[str, str], seat: int) -> bool:
    """Whether the refilled form holds tapped cards for this seat (its picker opens)."""
    return any((values.get(f"{part}_{seat}") or "").strip() for part in PARTS)


def rank_points() -> str:
    """What each rank is worth in hand or face down (RR-11), as "1:1 2:2 … G:10": the card
    picker's running total (static/js/pickers.js) adds the picked cards up with it."""
    spec = card_deck(rules.DECK)
    suit = spec["suits"][0][0]
    return " ".join(f"{rank}:{rules.card_points(rank + suit)}" for rank, _ in spec["ranks"])


def picked_points(text: str | None) -> int | None:
    """The points of the cards in a refilled picker box (None when empty or unreadable)."""
    if not (text or "").strip():
        return None
    try:
        return rules.count_points(text)
    except ValueError:
        return None


def check_args(settings: Mapping) -> dict[str, str]:
    """The table's house rules as the checker page's query arguments."""
    args = {}
    for name in CHECK_SETTINGS:
        value = settings.get(name)
        if isinstance(value, bool):
            if value:
                args[name] = "on"
        elif value is not None:
            args[name] = str(value)
    return args


def latest_first(hands: list[dict]) -> list[dict]:
    """The hands newest first: the one just entered is what the table looks at."""
    return list(reversed(hands))


def team_rows(hand: dict) -> dict[str, list[dict]]:
    """A hand's player rows by team ("A": seats 0 and 2, "B": seats 1 and 3)."""
    return {team: [p for p in hand["players"] if p["team"] == team] for team in rules.TEAMS}


def cut_reason(summary: dict) -> str | None:
    """Why the first dealer deals: the cut's verdict (RR-2), or that the table chose them."""
    cut = summary.get("cut")
    if not cut:
        return None
    if cut.get("cards"):
        return rules.cut_for_deal(cut["cards"]).reason
    return message("entry", "The table chose {dealer} to deal the first hand.",
                   dealer=cut["dealer"])



class RainbowRummyUI(GameUI):
    """Rainbow Rummy 333: one phone usually enters the whole hand for all four players."""
    styles = ("css/games/cards.css",)
    scripts = ("js/pickers.js",)

    slug = "rainbow_rummy"
    max_field_chars = MAX_CARD_TEXT

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn the pressed button (``kind``) and the form into a rules action.

        ``hand``: who went out (a seat, or "blocked") and each player's cards in hand and
        face down, as cards or quick points. ``cut``: each player's cut card (RR-2).
        ``dealer``: the first dealer chosen without cutting.
        """
        kind = form.get("kind") or ""
        if kind == "hand":
            return _hand(form, names, summary)
        if kind == "cut":
            return _cut(form, names)
        if kind == "dealer":
            seat = _seat(form, "dealer", names)
            if seat is None:
                raise EntryError(N_("Tap who deals the first hand."), field="dealer")
            return {"kind": "cut", "dealer": names[seat]}
        raise EntryError(N_("Tap one of the buttons: save the hand, or the cut for deal."))

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page."""
        if payload.get("kind") == PAPER:
            return paper_words(payload, names)
        if payload.get("kind") == "cut":
            if payload.get("dealer") is not None:
                return message("entry", "First dealer: {dealer}", dealer=payload.get("dealer"))
            cards = payload.get("cards") or {}
            shown = ", ".join(f"{name} {cards.get(name)}" for name in names if name in cards)
            return message("entry", "Cut for deal: {cards}", cards=shown)
        if payload.get("kind") != "hand":
            return str(payload.get("kind"))
        went_out = payload.get("went_out")
        cards = payload.get("cards") or {}
        players = []
        for name in names:
            entry = cards.get(name)
            if isinstance(entry, Mapping):
                hand = (message("entry", "out") if name == went_out and "hand" not in entry
                        else _part_text(entry, "hand"))
                players.append(message("entry", "{player} hand {hand}, down {down}",
                                       player=name, hand=hand, down=_part_text(entry, "down")))
        # A Said, not N_: as a part of joined() only Saids are translated.
        opening = (message("entry", "Hand: {player} went out", player=went_out) if went_out
                   else message("entry", "Hand: blocked"))
        return joined([opening, *players], "; ") if players else opening

    numbered = {"hand": N_("Hand %(n)s")}

    def entry_words(self, payload: dict, names: list[str], summary: dict | None = None,
                    number: int | None = None):
        """After a save: "Hand 2: Ann went out. Ann & Cid 85, Bob & Dee 30: Ann & Cid score
        the difference, 55." (the sheet's own line for the hand, RR-11); else the default."""
        rows = (summary or {}).get("hands") or []
        row = rows[-1] if rows and payload.get("kind") == "hand" else None
        if isinstance(row, Mapping) and row.get("text") and row.get("hand"):
            return message("entry", "{label}: {what}",
                           label=self.number_label(payload, row["hand"]), what=row["text"])
        return super().entry_words(payload, names, summary, number)

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        """What the player had entered (per seat: cards, points, cut), to put back in the
        form after a refusal."""
        keys = ["went_out", "dealer"]
        for seat in range(len(names)):
            keys += [f"hand_{seat}", f"down_{seat}", f"hand_pts_{seat}", f"down_pts_{seat}",
                     f"cut_{seat}"]
        return {key: (form.get(key) or "")[:self.max_field_chars] for key in keys}

    # ------------------------------------------------------------ changing a hand in place

    def editable(self, payload: dict) -> bool:
        """A hand may be changed in place (not the cut for deal)."""
        return payload.get("kind") == "hand"

    def edit_values(self, payload: dict, names: list[str], summary: dict) -> dict[str, str]:
        """Who went out, and each player's cards or points as they were entered."""
        went_out = payload.get("went_out")
        values = {"went_out": str(names.index(went_out)) if went_out in names else BLOCKED}
        cards = payload.get("cards") or {}
        for seat, player in enumerate(names):
            entry = cards.get(player) or {}
            for part in PARTS:
                if isinstance(entry.get(part), list):
                    values[f"{part}_{seat}"] = " ".join(map(str, entry[part]))
                elif entry.get(f"{part}_points") is not None:
                    values[f"{part}_pts_{seat}"] = str(entry[f"{part}_points"])
        return values

    def entry_number(self, payload: dict, summary: dict) -> int | None:
        return int(summary.get("hand_count") or 0) + 1

    def entry_name(self, payload: dict, number: int | None):
        """"hand 3"."""
        if number is None:
            return N_("the hand")
        return message("entry", "hand {n}", n=number)

    # What the templates ask (ui.cards_typed(values, i), ui.cut_reason(s)...).
    cards_typed = staticmethod(cards_typed)
    rank_points = staticmethod(rank_points)
    picked_points = staticmethod(picked_points)
    check_args = staticmethod(check_args)
    latest_first = staticmethod(latest_first)
    team_rows = staticmethod(team_rows)
    cut_reason = staticmethod(cut_reason)


UI = RainbowRummyUI
