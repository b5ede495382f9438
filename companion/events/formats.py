"""How each game is seated and scored in an event (a tournament).

A **format** is a JSON-ready dict::

    {"slug": "zocknroll", "kind": "tables", "min_table": 3, "max_table": 6,
     "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"}

``kind`` is ``"teams"`` (a table is two teams: Rook, Rainbow Rummy; pairing entrants means
pairing teams, and ``team_sizes`` lists the players a team may have), ``"head_to_head"`` (a
table is two players) or ``"tables"`` (a table seats ``min_table``..``max_table`` players,
``preferred_table`` where possible; when the players do not divide into such tables,
``odd_tables`` says whether the other tables are the sizes ``"closest"`` to it, ``"smaller"``
or ``"larger"``, see :func:`companion.events.pairing.table_sizes`). Pair kinds have 2
entrants per table and ``odd_tables`` None.

There is no list of formats to keep in step with the games: a game's format follows from
its rules :class:`~companion.rules.Game` (see :func:`format_from_game`). A team game is two
teams per table, each of ``min_players // 2`` to ``max_players // 2`` players; any other
game is a table game within its player counts, four to a table where it can. A game whose
format differs says only what differs, in its ``Game.tournament`` mapping (for example
``tournament={"preferred_table": 5}``); no game needs one today. This module reads the
rules registry (pure, like this package) and nothing else of the project.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import find_game
from companion.rules.said import N_, message

from .pairing import ODD_TABLES
from .standings import match_scoring, place_scoring

__all__ = ["PREFERRED_TABLE", "default_scoring", "format_from_game", "event_format"]

_PAIR = {"min_table": 2, "max_table": 2, "preferred_table": 2, "odd_tables": None}
PREFERRED_TABLE = 4     # players per table a table game seats where it can

_KINDS = ("teams", "head_to_head", "tables")
_KEYS = ("kind", "min_table", "max_table", "preferred_table", "team_sizes", "odd_tables")
_OVERRIDABLE = ("kind", "min_table", "max_table", "preferred_table", "odd_tables")


def format_from_game(game: Any) -> dict[str, Any]:
    """The event format of ``game``: a rules ``Game``, or any object with ``slug``,
    ``min_players``, ``max_players``, ``teams`` (and optionally ``tournament``).

    A team game becomes two teams per table of ``min_players // 2`` to ``max_players // 2``
    players each; any other game a table game within its player counts, preferring tables
    of :data:`PREFERRED_TABLE` (within those counts). Then the game's own ``tournament``
    mapping replaces what differs (any key of a format but ``slug``); ValueError for a key
    that is not one.
    """
    if game.teams:
        sizes = list(range(max(1, game.min_players // 2), game.max_players // 2 + 1))
        fmt = {"slug": game.slug, "kind": "teams", **_PAIR, "team_sizes": sizes}
    else:
        fmt = {"slug": game.slug, "kind": "tables", "min_table": game.min_players,
               "max_table": game.max_players,
               "preferred_table": min(game.max_players,
                                      max(game.min_players, PREFERRED_TABLE)),
               "team_sizes": None, "odd_tables": "closest"}
    own = dict(getattr(game, "tournament", None) or {})
    unknown = sorted(set(own) - set(_KEYS))
    if unknown:
        raise ValueError(message("tournament", "{key!r} is not part of a tournament format.",
                                 key=unknown[0]))
    fmt.update(own)
    if fmt["team_sizes"] is not None:
        fmt["team_sizes"] = list(fmt["team_sizes"])
    return fmt


def event_format(game: Any, **overrides: Any) -> dict[str, Any]:
    """The format of ``game`` (a slug of the rules registry, or a ``Game``), with director
    overrides checked; a new dict every time.

    ``overrides`` may set ``kind``, ``min_table``, ``max_table``, ``preferred_table`` and
    ``odd_tables`` (e.g. ``event_format("rocca", preferred_table=5,
    odd_tables="smaller")``); a table format's sizes must stay within the game's own
    limits, and ``odd_tables`` is one of "closest" (the default), "smaller", "larger" (a
    pair format accepts any of them and keeps None: its tables all seat two). Raises
    LookupError for an unknown slug and ValueError for an unacceptable override.
    """
    if not hasattr(game, "slug"):
        try:
            game = find_game(game)
        except LookupError:
            raise LookupError(message("tournament", "There is no tournament format for {game!r}.",
                                      game=game)) from None
    base = format_from_game(game)
    unknown = sorted(set(overrides) - set(_OVERRIDABLE))
    if unknown:
        raise ValueError(message("tournament", "{key!r} cannot be changed in a tournament format.",
                                 key=unknown[0]))
    fmt = {**base, "team_sizes": _copy(base["team_sizes"]), **overrides}
    return _checked(fmt, base, "preferred_table" in overrides)


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _checked(fmt: dict[str, Any], base: Mapping[str, Any], chosen: bool) -> dict[str, Any]:
    if fmt["kind"] not in _KINDS:
        raise ValueError(message("tournament", "A format's kind is one of {kinds}, not {kind!r}.",
                                 kinds=", ".join(_KINDS), kind=fmt["kind"]))
    if fmt["kind"] != base["kind"] and "teams" in (fmt["kind"], base["kind"]):
        raise ValueError(N_("A team game stays a team game."))
    odd = fmt.get("odd_tables")
    if odd is not None and odd not in ODD_TABLES:
        raise ValueError(message("tournament", "Tables for an uneven count are {choices}, not "
                                 "{odd!r}.", choices=", ".join(ODD_TABLES), odd=odd))
    if fmt["kind"] in ("teams", "head_to_head"):
        fmt.update(_PAIR)
        return fmt
    fmt["odd_tables"] = odd or "closest"
    low, high = fmt["min_table"], fmt["max_table"]
    for value in (low, high, fmt["preferred_table"]):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(N_("Table sizes are whole numbers."))
    if not base["min_table"] <= low <= high <= base["max_table"]:
        raise ValueError(message("tournament", "Tables of this game seat {low} to {high} players.",
                                 low=base["min_table"], high=base["max_table"]))
    if not low <= fmt["preferred_table"] <= high:
        if chosen:
            raise ValueError(message("tournament", "The preferred table size must lie "
                                     "between {low} and {high}.", low=low, high=high))
        # Only the game's default preference fell outside new limits: follow the limits.
        fmt["preferred_table"] = min(high, max(low, fmt["preferred_table"]))
    return fmt


def default_scoring(fmt: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring a format starts with: win 2 / draw 1 / loss 0 (bye 2) for pair kinds,
    4 / 2 / 1 / 0 by finishing place (bye 4) for table games; a director may change either."""
    if fmt["kind"] == "tables":
        return place_scoring()
    return match_scoring()
