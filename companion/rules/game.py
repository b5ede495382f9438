"""The :class:`Game` object every game module exposes, and the shared checks behind it.

A game module builds one ``Game`` (its ``GAME`` constant) from three pure functions —
``new``, ``apply`` and ``summary`` — plus a tuple of :class:`Setting` describing its house
rules. The helpers here turn HTML form strings into a settings dict, validate settings dicts
and seat lists, and describe settings in plain words, so each game writes none of that itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .said import N_, Said, listing, message
from .text import number
from .verdict import RuleError

__all__ = [
    "Game",
    "Outcome",
    "PAPER",
    "Setting",
    "MAX_NAME_LENGTH",
    "clean_name",
    "name_key",
    "check_seats",
    "check_settings",
    "describe_settings",
    "paper_action",
    "paper_totals",
    "parse_form_settings",
]

MAX_NAME_LENGTH = 32
#: Unicode categories a name never keeps: controls (NUL, escapes), format characters (zero-
#: width spaces and joiners, bidirectional overrides and isolates, the BOM, soft hyphens)
#: and lone surrogates. Whitespace among them becomes a space first (see clean_name).
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt), which no
#: category covers whole: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are letters,
#: the variation selectors and the combining grapheme joiner are marks, some are
#: unassigned. Each is drawn as nothing, so a name made of them would show blank.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _ignorable(char: str) -> bool:
    """Is ``char`` a Default_Ignorable_Code_Point (drawn as nothing)?"""
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)

_KINDS = ("int", "bool", "choice")
_TRUE_WORDS = frozenset({"on", "true", "1", "yes"})
_FALSE_WORDS = frozenset({"", "off", "false", "0", "no"})
_INT_TEXT = re.compile(r"[+-]?[0-9]+")


def _label(text: str) -> Said:
    """A setting's label (or a choice's) as a value of a sentence: the web's ``say()``
    looks it up in the catalogue as it looks up the label shown on the form."""
    return Said(text, template=text)


@dataclass(frozen=True)
class Setting:
    """One house rule a new-table form offers.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``; ``default`` None means "not set"
    (the key is then left out of parsed settings); ``minimum``/``maximum`` bound an int;
    ``choices`` holds ``(value, label)`` pairs for a choice; ``help`` is one sentence for the
    form and ``rule`` the rule ID the setting changes.
    """

    name: str
    label: str
    kind: str
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(message("rules", "Setting kind must be one of {kinds}, not "
                                     "{kind!r}.", kinds=", ".join(_KINDS), kind=self.kind))
        if self.kind == "choice" and not self.choices:
            raise ValueError(message("rules", "Choice setting {name!r} needs choices.",
                                     name=self.name))

    def problem(self) -> str:
        """The sentence shown when a value for this setting is not acceptable."""
        label = _label(self.label)
        if self.kind == "bool":
            return message("rules", "{label} must be yes or no.", label=label)
        if self.kind == "choice":
            labels = listing([_label(label) for _, label in self.choices],
                             message("rules", "or"))
            return message("rules", "{label} must be one of {labels}.", label=label,
                           labels=labels)
        if self.minimum is not None and self.maximum is not None:
            return message("rules", "{label} must be a whole number between {low} and {high}.",
                           label=label, low=number(self.minimum), high=number(self.maximum))
        if self.minimum is not None:
            return message("rules", "{label} must be a whole number of at least {low}.",
                           label=label, low=number(self.minimum))
        if self.maximum is not None:
            return message("rules", "{label} must be a whole number of at most {high}.",
                           label=label, high=number(self.maximum))
        return message("rules", "{label} must be a whole number.", label=label)

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is acceptable for this setting, else raise ValueError."""
        if self.kind == "int":
            ok = (
                isinstance(value, int)
                and not isinstance(value, bool)
                and (self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum)
            )
        elif self.kind == "bool":
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, str) and value in {v for v, _ in self.choices}
        if not ok:
            raise ValueError(self.problem())
        return value

    def parse(self, text: str) -> Any:
        """Turn one non-empty form string into a checked value, else raise ValueError."""
        text = text.strip()
        if self.kind == "int":
            if not _INT_TEXT.fullmatch(text):
                raise ValueError(self.problem())
            try:
                value = int(text)
            except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
                raise ValueError(self.problem()) from None
            return self.check(value)
        if self.kind == "bool":
            word = text.lower()
            if word in _TRUE_WORDS:
                return True
            if word in _FALSE_WORDS:
                return False
            raise ValueError(self.problem())
        return self.check(text)

    def show(self, value: Any) -> str:
        """A value of this setting in plain words ("Not set", "Yes", "100", a choice label)."""
        if value is None:
            return N_("Not set")
        if self.kind == "bool":
            return N_("Yes") if value else N_("No")
        if self.kind == "choice":
            return dict(self.choices).get(value, str(value))
        if isinstance(value, int):
            return number(value)
        return str(value)


def parse_form_settings(fields: Sequence[Setting], form: Mapping[str, Any]) -> dict[str, Any]:
    """Turn raw HTML form strings into a settings dict, one key per field.

    A missing or blank value takes the field's default, and the key is left out when that
    default is None. Keys in ``form`` that name no field (CSRF token, seats…) are ignored.
    A bool checkbox that defaults to True needs a hidden "off" input so unticking it counts.
    Raises ValueError with a sentence naming the field when a value is not acceptable.
    """
    settings: dict[str, Any] = {}
    for setting in fields:
        raw = form.get(setting.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            value = setting.default
        else:
            value = setting.parse(str(raw))
        if value is not None:
            settings[setting.name] = value
    return settings


def check_settings(fields: Sequence[Setting], settings: Mapping[str, Any] | None,
                   game_name: str = message("rules", "this game")) -> dict[str, Any]:
    """Validate a settings dict and return it complete: every field, defaults filled in.

    A missing key or a None value takes the default (which may be None, "not set").
    Unknown keys and unacceptable values raise ValueError with a plain sentence.
    """
    if settings is None:
        settings = {}
    if not isinstance(settings, Mapping):
        raise ValueError(N_("Settings must be a dictionary of house rules."))
    known = {s.name for s in fields}
    for key in settings:
        if key not in known:
            raise ValueError(message("rules", "{key!r} is not a setting of {game}.", key=key,
                                     game=game_name))
    result: dict[str, Any] = {}
    for setting in fields:
        value = settings.get(setting.name)
        if value is None:
            value = setting.default
        result[setting.name] = None if value is None else setting.check(value)
    return result


def describe_settings(fields: Sequence[Setting],
                      settings: Mapping[str, Any]) -> list[dict[str, str]]:
    """The house rules in plain words, in form order: ``{"name", "label", "value", "rule"}``."""
    described = []
    for setting in fields:
        value = settings.get(setting.name, setting.default)
        described.append({
            "name": setting.name,
            "label": setting.label,
            "value": setting.show(value),
            "rule": setting.rule,
        })
    return described


def clean_name(raw: str) -> str:
    """A name as people will read it: control characters (NUL included), zero-width,
    bidirectional-override and other invisible format characters and every default-ignorable
    code point (Hangul fillers, variation selectors, tags...) removed, any run of spaces or
    line breaks made one space, the ends trimmed, composed to NFC.

    A name that is blank after this is no name (the callers refuse it).
    """
    kept = []
    for char in raw:
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char) not in _INVISIBLE and not _ignorable(char):
            kept.append(char)
    return unicodedata.normalize("NFC", " ".join("".join(kept).split()))


def name_key(name: str) -> str:
    """What makes two names the same at one table or event: NFKC (so "Ａｎｎ" is "Ann" and
    "ﬁ" is "fi"), invisible characters removed, case folded."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


def check_seats(seats: Sequence[str], min_players: int, max_players: int,
                game_name: str = message("rules", "This game")) -> list[str]:
    """Validate player names in seating order and return them stripped.

    Each name is cleaned (:func:`clean_name`) and is then text of 1 to 32 characters;
    names differ by :func:`name_key` (case, width, invisible characters); the count lies
    within ``min_players``..``max_players``. Otherwise ValueError.
    """
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise ValueError(N_("Seats must be a list of player names."))
    names = []
    for seat in seats:
        if not isinstance(seat, str):
            raise ValueError(N_("Player names must be text."))
        name = clean_name(seat)
        if not name:
            raise ValueError(N_("Every player needs a name: one name is empty."))
        if len(name) > MAX_NAME_LENGTH:
            raise ValueError(message("rules", "'{name}' is too long: player names have at most "
                                     "{most} characters.", name=name, most=MAX_NAME_LENGTH))
        names.append(name)
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            count = sum(1 for other in names if name_key(other) == key)
            if count == 2:
                raise ValueError(message("rules", "Player names must be different: '{name}' "
                                         "appears twice.", name=seen[key]))
            raise ValueError(message("rules", "Player names must be different: '{name}' "
                                     "appears {count} times.", name=seen[key], count=count))
        seen[key] = name
    if not min_players <= len(names) <= max_players:
        if min_players == max_players:
            raise ValueError(message("rules", "{game} is for exactly {count} players, not "
                                     "{given}.", game=game_name, count=min_players,
                                     given=len(names)))
        raise ValueError(message("rules", "{game} is for {low} to {high} players, not {given}.",
                                 game=game_name, low=min_players, high=max_players,
                                 given=len(names)))
    return names


#: The game action that starts a game from the totals written on a paper sheet:
#: ``{"kind": PAPER, "paper": {...}}`` (see :meth:`Game.start_from_paper`).
PAPER = "paper"

#: The largest total a paper sheet may carry, either way: beyond any real game.
MAX_PAPER_TOTAL = 1_000_000_000


def paper_action(paper: Mapping[str, Any]) -> dict:
    """The log's action for a game started from a paper sheet: a game's ``apply`` takes
    it as the game's first action and gives the state ``from_paper`` gives."""
    return {"kind": PAPER, "paper": dict(paper) if isinstance(paper, Mapping) else paper}


def paper_totals(paper: Any, keys: Sequence[str], *, rule: str,
                 names: Mapping[str, str] | None = None, low: int | None = None,
                 below: int | None = None, step: int = 1) -> dict[str, int]:
    """The ``"totals"`` of a paper sheet, checked: a whole number for every key (players,
    or teams, as the game's summary keys its totals), at least ``low`` (None: negatives
    allowed), a multiple of ``step``, and short of ``below`` (a target reached would have
    ended that game). ``names`` are what the sentences call each key ("Ann & Cid").
    RuleError citing ``rule`` otherwise."""
    if not isinstance(paper, Mapping) or not isinstance(paper.get("totals"), Mapping):
        raise RuleError(N_("Write down the totals from the paper sheet."), rule=rule)
    given = paper["totals"]
    unknown = [key for key in given if key not in keys]
    if unknown:
        raise RuleError(message("rules", "'{key}' is not playing at this table.",
                                key=str(unknown[0])), rule=rule)
    names = names or {}
    totals: dict[str, int] = {}
    for key in keys:
        who = names.get(key, key)
        value = given.get(key)
        if value is None:
            raise RuleError(message("rules", "Enter the total of {who} from the paper sheet.",
                                    who=who), rule=rule)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(message("rules", "The total of {who} must be a whole number.",
                                    who=who), rule=rule)
        if abs(value) > MAX_PAPER_TOTAL:
            raise RuleError(message("rules", "The total of {who} is too large for a paper "
                                    "sheet.", who=who), rule=rule)
        if low is not None and value < low:
            raise RuleError(message("rules", "The total of {who} can't be below {low} in this "
                                    "game.", who=who, low=number(low)), rule=rule)
        if step > 1 and value % step:
            raise RuleError(message("rules", "The total of {who} must be a multiple of "
                                    "{step}: {total} is not.", who=who, step=number(step),
                                    total=number(value)), rule=rule)
        if below is not None and value >= below:
            raise RuleError(message("rules", "The total of {who}, {total}, already reaches the "
                                    "target of {target}: that game is over, so start a new "
                                    "one.", who=who, total=number(value),
                                    target=number(below)), rule=rule)
        totals[key] = value
    return totals


def _no_rules() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Outcome:
    """Where a game stands, typed: what every place, table result and standings row is read
    from, so no caller guesses which way a game's scores go.

    ``totals`` and ``places`` are keyed as the summary's totals are (players, or teams "A"
    and "B"); a place is 1 for first, and equal places are shared. ``lower_wins`` is the
    game's direction (fixed, or a house rule such as the score pad's "lowest total wins").
    """

    totals: Mapping[str, Any]
    places: Mapping[str, int]
    winners: tuple[str, ...]
    lower_wins: bool
    over: bool


def places_of(totals: Mapping[str, Any], winners: Sequence[str], lower_wins: bool,
              given: Any = None) -> dict[str, int]:
    """Every key's place (1 = first, equal values share): the places a game gives itself
    (``given``, when it holds a whole number from 1 for every key, as Rocca's cards left
    do), else the winners first whatever their totals (Rook's bidder going out can win on
    the lower total) and the others by their totals in the game's direction."""
    keys = list(totals)
    if isinstance(given, Mapping):
        out = {k: given.get(k) for k in keys}
        if all(isinstance(p, int) and not isinstance(p, bool) and p >= 1 for p in out.values()):
            return out

    def rank(key: str) -> tuple[int, float]:
        value = totals[key]
        value = value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
        return (0 if key in winners else 1, value if lower_wins else -value)

    ranked = {k: rank(k) for k in keys}
    return {k: 1 + sum(1 for other in ranked.values() if other < mine)
            for k, mine in ranked.items()}


@dataclass(frozen=True)
class Game:
    """A game the app can keep a sheet for.

    ``new(settings, seats) -> state``, ``apply(state, action) -> state`` and
    ``summary(state) -> dict`` are pure functions over JSON-ready data (see RULES-API.md).
    ``settings_fields`` describes the house rules a new-table form offers and ``rules`` maps
    each rule ID the game uses to one sentence.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    teams: bool
    new: Callable[[dict, list[str]], dict] = field(repr=False, compare=False)
    apply: Callable[[dict, dict], dict] = field(repr=False, compare=False)
    summary: Callable[[dict], dict] = field(repr=False, compare=False)
    settings_fields: tuple[Setting, ...] = ()
    rules: Mapping[str, str] = field(default_factory=_no_rules, repr=False, compare=False)
    #: What differs from the tournament format derived from the fields above (see
    #: ``companion.events.formats``): e.g. ``{"preferred_table": 5}``. Empty for most.
    tournament: Mapping[str, Any] = field(default_factory=_no_rules, repr=False, compare=False)
    #: Which way the scores go: True when the lowest total wins. A fixed bool, or a function
    #: of the table's checked settings for a game where a house rule decides (the score pad).
    lower_wins: bool | Callable[[Mapping[str, Any]], bool] = field(default=False,
                                                                   compare=False)
    #: ``next_game(settings, seats, previous) -> state``: a rematch's new game where the
    #: game passes something on from the one before (``previous``: its summary), as Rook
    #: passes the deal on (RULES.md §RK-3). None: every game starts as ``new`` does.
    next_game: Callable[[dict, list[str], Mapping[str, Any]], dict] | None = field(
        default=None, repr=False, compare=False)
    #: ``from_paper(settings, seats, paper) -> state``: a game that starts from the totals
    #: (and, where the game has them, checks) written on a paper sheet, or ValueError /
    #: RuleError in plain words. ``paper`` holds the fields named in ``paper_fields``:
    #: ``"totals"`` is keyed as the summary's totals are (players, or teams "A" and "B").
    #: The game's ``apply`` takes ``paper_action(paper)`` as a game's first action and
    #: gives the same state (so a table keeps it in its log, entered by someone), and its
    #: summary shows it as ``summary["paper"]``. None: the game is not offered from paper.
    from_paper: Callable[[dict, list[str], Mapping[str, Any]], dict] | None = field(
        default=None, repr=False, compare=False)
    #: The paper sheet's fields ``from_paper`` takes, e.g. ``("totals",)``; empty when
    #: ``from_paper`` is None.
    paper_fields: tuple[str, ...] = ()

    def start_from_paper(self, settings: dict, seats: list[str],
                         paper: Mapping[str, Any]) -> dict:
        """The state a game starts from when it goes on from a paper sheet (``from_paper``);
        ValueError when the game can't (its state can't be written on paper)."""
        if self.from_paper is None:
            raise ValueError(message("rules", "{game} can't start from a paper sheet.",
                                     game=self.name))
        return self.from_paper(settings, seats, paper)

    def paper_keys(self, seats: Sequence[str]) -> list[str]:
        """Whose totals a paper sheet holds: the teams ("A", "B") or the players."""
        return ["A", "B"] if self.teams else list(seats)

    def start_after(self, settings: dict, seats: list[str],
                    previous: Mapping[str, Any] | None) -> dict:
        """The state a game starts from at a table: after ``previous`` (the summary of the
        game before it, None for the table's first game) through ``next_game``, else
        ``new``."""
        if previous is not None and self.next_game is not None:
            return self.next_game(settings, seats, previous)
        return self.new(settings, seats)

    def lowest_wins(self, settings: Mapping[str, Any] | None) -> bool:
        """Whether the lowest total wins under these house rules (see ``lower_wins``)."""
        if callable(self.lower_wins):
            return bool(self.lower_wins(self.check_settings(settings)))
        return bool(self.lower_wins)

    def outcome(self, state: dict) -> Outcome:
        """Where the game in ``state`` stands: totals, places, winners, direction, over."""
        return self.outcome_of(self.summary(state), state.get("settings"))

    def outcome_of(self, summary: Mapping[str, Any],
                   settings: Mapping[str, Any] | None) -> Outcome:
        """:meth:`outcome` from a summary already made (and the table's settings)."""
        totals = dict(summary.get("totals") or {})
        winners = tuple(summary.get("winners") or ())
        lower = self.lowest_wins(settings)
        return Outcome(totals=totals, places=places_of(totals, winners, lower,
                                                       summary.get("places")),
                       winners=winners, lower_wins=lower, over=bool(summary.get("over")))

    def parse_settings(self, form: Mapping[str, str]) -> dict[str, Any]:
        """Turn raw form strings into a settings dict for ``new`` (see parse_form_settings)."""
        return parse_form_settings(self.settings_fields, form)

    def check_settings(self, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate a settings dict and return it with every default filled in."""
        return check_settings(self.settings_fields, settings, self.name)

    def describe_settings(self, settings: Mapping[str, Any]) -> list[dict[str, str]]:
        """The house rules in plain words: ``[{"name", "label", "value", "rule"}, ...]``."""
        return describe_settings(self.settings_fields, settings)

    def check_seats(self, seats: Sequence[str]) -> list[str]:
        """Validate player names for this game and return them stripped."""
        return check_seats(seats, self.min_players, self.max_players, self.name)
