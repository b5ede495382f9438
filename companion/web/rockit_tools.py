"""RockIt to Destiny checks, with or without a table: the board, a joker steal, a come-in.

The board check is what ends arguments: the tricks as the players laid them out (or every
card now on the board in one box), plus the cards a player wants to add from hand. The page
says whether the board is valid, points at each bad trick with the reason and rule, names
the card each joker stands for (RID-8, RID-A5), and when the layout is wrong but the same
cards can be laid out validly, shows one such layout (RULES.md §4.6).

Everything comes in the query string (GET forms): a verdict is a link the table can share,
and nothing is stored. The table page links here with its id (``t``, only for the way back)
and its decks (``decks``: 1 or 2, for the copy limits of RID-1). Bad input: 422 with a plain
sentence, the form refilled.
"""
from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Mapping

from flask import Blueprint, abort, current_app, make_response, render_template, request
from flask_limiter.util import get_remote_address

from companion.rules import rockit as rules
from companion.rules.cards import format_card
from companion.rules.said import N_, Said, joined, message, said_of
from companion.rules.verdict import Verdict

from .errors import error_response
from .extensions import limiter
from .offload import Busy, TooSlow, run_heavy

bp = Blueprint("rockit_tools", __name__)

#: (key, tab label, heading, rule) for every check the page offers (words shown with say()).
CHECKS = (
    ("board", N_("The board"), N_("Is the board valid?"), "RID-7"),
    ("steal", N_("Take a joker"), N_("May this joker be taken?"), "RID-8"),
    ("come_in", N_("Come in"), N_("Does this trick come in?"), "RID-4"),
)
#: Two decks hold 108 cards, so at most 36 tricks; three boxes to start with.
MAX_TRICKS = 36
FIRST_SLOTS = 3
#: Enough for every card of two decks written out ("10H " x 108 is under 450 characters).
MAX_TEXT = 600
#: Seconds the arrangement search may take before the page says "not decided" (§4.6). The
#: helper process (web/offload.py) stops a job outright at the app's TOOL_POOL_CAP.
BUDGET = 2.0
JOKER = rules.JOKER
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)


# ---------------------------------------------------------------- reading the query

def _words(text: str) -> Said:
    """A sentence as a value of another one: a Said stays, a fixed ``N_`` sentence becomes
    one that ``say()`` looks up in the catalogue (rebuild() translates only Saids)."""
    return text if isinstance(text, Said) else Said(str(text), template=str(text))


def _trick(args: Mapping[str, str], key: str, label: Said) -> tuple[list[str], list[str]]:
    """The cards of one picker box (maybe none) and the cards its jokers were declared as
    ("5♥ 6♥ JK, joker = 4♥": ``rules.parse_trick``, RID-A5); ValueError naming the box."""
    raw = (args.get(key) or "").strip()
    if len(raw) > MAX_TEXT:
        raise ValueError(message("entry", "{label}: that is more cards than two decks hold.",
                                 label=label))
    try:
        return rules.parse_trick(raw)
    except ValueError as error:
        raise ValueError(message("entry", "{label}: {error}", label=label,
                                 error=_words(said_of(error)))) from None


def _cards(args: Mapping[str, str], key: str, label: Said) -> list[str]:
    """The cards of one picker box (maybe none), no joker declared; ValueError naming the
    box."""
    cards, declared = _trick(args, key, label)
    if declared:
        raise ValueError(message("entry", "{label}: a joker's card is declared only in a "
                                          "trick on the board.", label=label))
    return cards


def _one_card(args: Mapping[str, str], key: str, label: Said) -> str | None:
    cards = _cards(args, key, label)
    if len(cards) > 1:
        raise ValueError(message("entry", "{label}: tap one card, not {count}.", label=label,
                                 count=len(cards)))
    return cards[0] if cards else None


def decks_of(args: Mapping[str, str]) -> int:
    """The decks the checks count copies against (RID-1): 1 or 2, two when not given."""
    raw = args.get("decks") or "2"
    if raw not in ("1", "2"):
        raise ValueError(N_("Decks: tap one deck (2 players) or two decks."))
    return int(raw)


def slots_of(args: Mapping[str, str]) -> int:
    """How many trick boxes the board form shows: as many as asked (``n``), every filled
    one, and one more after "Add a trick"."""
    raw = args.get("n") or ""
    asked = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 2 else FIRST_SLOTS
    filled = [i for i in range(MAX_TRICKS) if (args.get(f"trick_{i}") or "").strip()]
    slots = max(asked, filled[-1] + 1 if filled else 0, 1)
    if args.get("add"):
        slots += 1
    return min(slots, MAX_TRICKS)


# ---------------------------------------------------------------- cards for the page

def _stands(joker: dict) -> str | None:
    """What a joker stands for, in words: "3♦", or "Q♠ or Q♦" while it is not declared."""
    if joker.get("card"):
        return format_card(joker["card"])
    if joker.get("options"):
        words: list = []
        for card in joker["options"]:
            if words:
                words.append(message("rules", "or"))
            words.append(format_card(card))
        return joined(words)
    return None


def card_views(cards: list[str], jokers: list[dict], hand: Counter | None = None) -> list[dict]:
    """A trick for the template: per card, the card, what a joker stands for, and whether it
    is one of the cards from hand (taken off ``hand`` as they are marked)."""
    stands = {j["index"]: _stands(j) for j in jokers}
    out = []
    for i, card in enumerate(cards):
        from_hand = bool(hand) and hand[card] > 0
        if from_hand:
            hand[card] -= 1
        out.append({"card": card, "stands": stands.get(i), "hand": from_hand})
    return out


def _arrangement(split: list[dict], hand: list[str]) -> list[list[dict]]:
    """The rules' valid layout for the template, the hand's cards marked."""
    pool = Counter(hand)
    return [card_views(trick["cards"], trick["jokers"], pool) for trick in split]


# ---------------------------------------------------------------- the checks

def board_answer(args: Mapping[str, str], decks: int, slots: int) -> dict:
    """The board check's answer (``rules.review_layout``) for the template: ``ok`` (None:
    not decided), ``reason``, ``rule``, ``rows`` (one per trick as laid out, numbered as on
    the form) and ``arrangement``."""
    laid = []
    for i in range(slots):
        cards, declared = _trick(args, f"trick_{i}", message("entry", "Trick {number}",
                                                             number=i + 1))
        if cards:
            laid.append((i + 1, cards, declared or None))
    loose = _cards(args, "all", message("entry", "Every card on the board"))
    hand = _cards(args, "hand", message("entry", "Cards from hand"))
    if not laid and not loose and not hand:
        raise ValueError(N_("Tap the cards of each trick on the board (or every card on the "
                            "board in one box), then Check the board."))
    review = rules.review_layout([cards for _, cards, _ in laid], loose, hand, decks,
                                 budget=BUDGET, declared=[named for _, _, named in laid])
    rows = [{"number": number, "ok": trick["ok"], "reason": trick["reason"],
             "rule": trick["rule"], "cards": card_views(cards, trick["jokers"])}
            for (number, cards, _), trick in zip(laid, review["tricks"])]
    arrangement = review["arrangement"]
    return {**{key: review[key] for key in ("ok", "reason", "rule", "rockit", "laid",
                                            "cards", "hand", "loose")},
            "rows": rows,
            "arrangement": _arrangement(arrangement, hand) if arrangement else None}


def _steal(args: Mapping[str, str], decks: int) -> tuple[Verdict, Verdict | None]:
    """The steal's verdict (RID-8) and what the board trick's jokers stand for."""
    trick, named = _trick(args, "trick", message("entry", "The board trick"))
    if not trick:
        raise ValueError(N_("Tap the board trick that holds the joker, as it lies."))
    replacement = _one_card(args, "replacement",
                            message("entry", "The card put in the joker's place"))
    if replacement is None:
        raise ValueError(N_("Tap the card put in the joker's place."))
    source = args.get("source") or "hand"
    if source not in ("hand", "board"):
        raise ValueError(N_("Tap where the card put in the joker's place came from: your hand "
                            "or the board."))
    new_trick = _cards(args, "new_trick", message("entry", "The new trick"))
    if not new_trick:
        raise ValueError(N_("Tap the new trick the joker goes into, joker included."))
    taken = _cards(args, "taken", message("entry", "Cards taken from the board"))
    declared = _one_card(args, "declared", message("entry", "The card the joker was declared "
                                                            "as"))
    # Declared in its own box or in the trick ("5♥ 6♥ JK, joker = 4♥"): the declaration
    # decides what the joker stands for, whatever the order of the trick (RID-A5).
    declared = named if declared is None and named else declared
    rest = list(new_trick)
    if JOKER in rest:
        rest.remove(JOKER)          # the joker taken; every other card is hand or board
    pool = Counter(rest)
    for card in taken:
        if pool[card] < 1:
            raise ValueError(message("entry", "{card} is not in the new trick: tap only the "
                                              "new trick's cards that came from the board.",
                                     card=format_card(card)))
        pool[card] -= 1
    hand = ([replacement] if source == "hand" else []) + list(pool.elements())
    said = [declared] if isinstance(declared, str) else declared
    identity = rules.joker_identity(trick, decks, said) if JOKER in trick else None
    return rules.check_steal(trick, replacement, new_trick, hand, declared=declared,
                             decks=decks), identity


def _come_in(args: Mapping[str, str], decks: int) -> Verdict:
    cards, declared = _trick(args, "cards", message("entry", "The trick"))
    if not cards:
        raise ValueError(N_("Tap the cards of the trick: a rank, then a suit, for each card."))
    if declared and JOKER not in cards:
        raise ValueError(N_("The trick: a joker's card was declared, but the trick has no "
                            "joker."))
    return rules.check_come_in(cards, decks)      # a declared joker is still a joker: RID-4


# ---------------------------------------------------------------- the page

def _tool_limit() -> str:
    return current_app.config["TOOL_RATE_LIMIT"]


def _not_checking() -> bool:
    """Only a check computes: showing the form, adding a trick box or switching tabs is free."""
    return not request.args.get("check")


def _too_many(limit) -> object:
    """The per-address limit's answer: 429 in plain words, after TOOL_LIMIT_DELAY seconds.

    The wait is what keeps a flood cheap: a refusal costs the worker a few milliseconds,
    so a script that asks again at once would make refusals its new load; held for a
    second (under gevent the wait holds no other request), each of its connections gets
    one answer a second."""
    time.sleep(current_app.config.get("TOOL_LIMIT_DELAY", 1.0))
    return make_response(error_response(message(
        "rockit", "That's many board checks in a short time from one network: at most "
                  "{count} in {seconds} seconds. Wait a little, then check again.",
        count=limit.limit.amount, seconds=limit.limit.get_expiry()), 429))


def _busy():
    """The helper process holds as many checks as it may: 503 in plain words, nothing kept."""
    return make_response(error_response(N_("The board checker is busy with other tables' "
                                           "checks. Wait a few seconds, then check again."),
                                        503))


@bp.get("/rockit/check")
@limiter.limit(_tool_limit, key_func=get_remote_address, exempt_when=_not_checking,
               on_breach=_too_many)
def check():
    """The board check (valid? bad tricks, joker identities, a valid layout of the same
    cards), the joker steal check and the come-in check, without a table or with a table's
    decks."""
    what = request.args.get("q") or "board"
    if what not in {c[0] for c in CHECKS}:
        abort(404)
    args = request.args
    table_id = args.get("t") or ""
    table_id = table_id if _TABLE_ID.fullmatch(table_id) else None
    slots = slots_of(args)
    error = board = verdict = identity = None
    try:
        decks = decks_of(args)
    except ValueError as exc:
        decks, error = 2, said_of(exc)
    if error is None and args.get("check"):
        try:
            if what == "board":
                board = run_heavy(current_app.config, board_answer, args.to_dict(),
                                  decks, slots)
            elif what == "steal":
                verdict, identity = _steal(args, decks)
            else:
                verdict = _come_in(args, decks)
        except ValueError as exc:
            error = said_of(exc)
        except Busy:
            return _busy()
        except TooSlow:
            error = message("rockit", "This board took too long to check and the check was "
                                      "stopped. Check fewer cards at a time.")
    carried = {"decks": str(decks)}
    if table_id:
        carried["t"] = table_id
    current = next(c for c in CHECKS if c[0] == what)
    return render_template("tools/rockit_check.html", what=what, checks=CHECKS,
                           current=current, carried=carried, table_id=table_id, decks=decks,
                           args=args, slots=slots, open_slot=_open_slot(args, slots),
                           board=board, verdict=verdict, identity=identity, error=error,
                           rules=list(rules.RULES.items()), max_text=MAX_TEXT), \
        422 if error else 200


def _open_slot(args: Mapping[str, str], slots: int) -> int | None:
    """The trick box shown open: the one just added, else the first empty one."""
    if args.get("add"):
        return slots - 1
    for i in range(slots):
        if not (args.get(f"trick_{i}") or "").strip():
            return i
    return None
