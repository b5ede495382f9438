"""The :class:`Game` object every game module exposes, and the shared checks behind it.

A game module builds one ``Game`` (its ``GAME`` constant) from three pure functions —
``new``, ``apply`` and ``summary`` — plus a tuple of :class:`Setting` describing its house
rules. The helpers here turn HTML form strings into a settings dict, validate settings dicts
and seat lists, and describe settings in plain words, so each game writes none of that itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .text import join_names, number

__all__ = [
    "Game",
    "Setting",
    "MAX_NAME_LENGTH",
    "check_seats",
    "check_settings",
    "describe_settings",
    "parse_form_settings",
]

MAX_NAME_LENGTH = 32

_KINDS = ("int", "bool", "choice")
_TRUE_WORDS = frozenset({"on", "true", "1", "yes"})
_FALSE_WORDS = frozenset({"", "off", "false", "0", "no"})
_INT_TEXT = re.compile(r"[+-]?[0-9]+")


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
            raise ValueError(f"Setting kind must be one of {', '.join(_KINDS)}, not {self.kind!r}.")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"Choice setting {self.name!r} needs choices.")

    def problem(self) -> str:
        """The sentence shown when a value for this setting is not acceptable."""
        if self.kind == "bool":
            return f"{self.label} must be yes or no."
        if self.kind == "choice":
            labels = join_names([label for _, label in self.choices], "or")
            return f"{self.label} must be one of {labels}."
        if self.minimum is not None and self.maximum is not None:
            bound = f" between {number(self.minimum)} and {number(self.maximum)}"
        elif self.minimum is not None:
            bound = f" of at least {number(self.minimum)}"
        elif self.maximum is not None:
            bound = f" of at most {number(self.maximum)}"
        else:
            bound = ""
        return f"{self.label} must be a whole number{bound}."

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
            return "Not set"
        if self.kind == "bool":
            return "Yes" if value else "No"
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
                   game_name: str = "this game") -> dict[str, Any]:
    """Validate a settings dict and return it complete: every field, defaults filled in.

    A missing key or a None value takes the default (which may be None, "not set").
    Unknown keys and unacceptable values raise ValueError with a plain sentence.
    """
    if settings is None:
        settings = {}
    if not isinstance(settings, Mapping):
        raise ValueError("Settings must be a dictionary of house rules.")
    known = {s.name for s in fields}
    for key in settings:
        if key not in known:
            raise ValueError(f"{key!r} is not a setting of {game_name}.")
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


def check_seats(seats: Sequence[str], min_players: int, max_players: int,
                game_name: str = "This game") -> list[str]:
    """Validate player names in seating order and return them stripped.

    Each name is text of 1 to 32 characters after stripping; names differ ignoring case;
    the count lies within ``min_players``..``max_players``. Otherwise ValueError.
    """
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise ValueError("Seats must be a list of player names.")
    names = []
    for seat in seats:
        if not isinstance(seat, str):
            raise ValueError("Player names must be text.")
        name = seat.strip()
        if not name:
            raise ValueError("Every player needs a name: one name is empty.")
        if len(name) > MAX_NAME_LENGTH:
            raise ValueError(
                f"'{name}' is too long: player names have at most {MAX_NAME_LENGTH} characters.")
        names.append(name)
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            count = sum(1 for other in names if other.casefold() == key)
            times = "twice" if count == 2 else f"{count} times"
            raise ValueError(f"Player names must be different: '{seen[key]}' appears {times}.")
        seen[key] = name
    if not min_players <= len(names) <= max_players:
        if min_players == max_players:
            wanted = f"exactly {min_players}"
        else:
            wanted = f"{min_players} to {max_players}"
        raise ValueError(f"{game_name} is for {wanted} players, not {len(names)}.")
    return names


def _no_rules() -> Mapping[str, str]:
    return MappingProxyType({})


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
