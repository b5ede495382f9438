"""How each game is seated and scored in a tournament.

A **format** is a JSON-ready dict::

    {"slug": "zocknroll", "kind": "tables", "min_table": 3, "max_table": 6,
     "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"}

``kind`` is ``"teams"`` (a table is two teams: Rook, Rainbow Rummy; pairing entrants means
pairing teams, and ``team_sizes`` lists the players a team may have), ``"head_to_head"`` (a
table is two players) or ``"tables"`` (a table seats ``min_table``..``max_table`` players,
``preferred_table`` where possible; when the players do not divide into such tables,
``odd_tables`` says whether the other tables are the sizes ``"closest"`` to it, ``"smaller"``
or ``"larger"``, see :func:`companion.tournament.pairing.table_sizes`). Pair kinds have 2
entrants per table and ``odd_tables`` None.

The limits repeat the rules library's player counts (a test keeps them in step) rather than
importing it, so this package depends on nothing else in the project. RockIt is listed
although its table game is not in the registry yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .pairing import ODD_TABLES
from .standings import match_scoring, place_scoring

__all__ = ["FORMATS", "default_scoring", "format_from_game", "tournament_format"]

_PAIR = {"min_table": 2, "max_table": 2, "preferred_table": 2, "odd_tables": None}

#: The tournament format of every game, by slug.
FORMATS: dict[str, dict[str, Any]] = {
    # The score pad keeps any game's sheet; seated as a table game by default, a director
    # running a two-player game overrides kind="head_to_head".
    "scorepad": {"slug": "scorepad", "kind": "tables", "min_table": 2, "max_table": 12,
                 "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    # Rook: 4 or 6 players, teams A/B of 2 or 3 (every table of one event the same size).
    "rook": {"slug": "rook", "kind": "teams", **_PAIR, "team_sizes": [2, 3]},
    # Rainbow Rummy 333: 4 players, two teams of two.
    "rainbow_rummy": {"slug": "rainbow_rummy", "kind": "teams", **_PAIR, "team_sizes": [2]},
    "zocknroll": {"slug": "zocknroll", "kind": "tables", "min_table": 3, "max_table": 6,
                  "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    "rockit": {"slug": "rockit", "kind": "tables", "min_table": 2, "max_table": 5,
               "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    "rocca": {"slug": "rocca", "kind": "tables", "min_table": 2, "max_table": 8,
              "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
}

_KINDS = ("teams", "head_to_head", "tables")
_OVERRIDABLE = ("kind", "min_table", "max_table", "preferred_table", "odd_tables")


def tournament_format(slug: str, **overrides: Any) -> dict[str, Any]:
    """A copy of the format of game ``slug``, with director overrides checked.

    ``overrides`` may set ``kind``, ``min_table``, ``max_table``, ``preferred_table`` and
    ``odd_tables`` (e.g. ``tournament_format("rocca", preferred_table=5,
    odd_tables="smaller")``); a table format's sizes must stay within the game's own
    limits, and ``odd_tables`` is one of "closest" (the default), "smaller", "larger" (a
    pair format accepts any of them and keeps None: its tables all seat two). Raises
    LookupError for an unknown slug and ValueError for an unacceptable override.
    """
    try:
        base = FORMATS[slug]
    except (KeyError, TypeError):
        raise LookupError(f"There is no tournament format for {slug!r}.") from None
    unknown = sorted(set(overrides) - set(_OVERRIDABLE))
    if unknown:
        raise ValueError(f"{unknown[0]!r} cannot be changed in a tournament format.")
    fmt = {**base, "team_sizes": _copy(base["team_sizes"]), **overrides}
    return _checked(fmt, base, "preferred_table" in overrides)


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _checked(fmt: dict[str, Any], base: Mapping[str, Any], chosen: bool) -> dict[str, Any]:
    if fmt["kind"] not in _KINDS:
        raise ValueError(f"A format's kind is one of {', '.join(_KINDS)}, not {fmt['kind']!r}.")
    if fmt["kind"] != base["kind"] and "teams" in (fmt["kind"], base["kind"]):
        raise ValueError("A team game stays a team game.")
    odd = fmt.get("odd_tables")
    if odd is not None and odd not in ODD_TABLES:
        raise ValueError(f"Tables for an uneven count are {', '.join(ODD_TABLES)}, "
                         f"not {odd!r}.")
    if fmt["kind"] in ("teams", "head_to_head"):
        fmt.update(_PAIR)
        return fmt
    fmt["odd_tables"] = odd or "closest"
    low, high = fmt["min_table"], fmt["max_table"]
    for value in (low, high, fmt["preferred_table"]):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("Table sizes are whole numbers.")
    if not base["min_table"] <= low <= high <= base["max_table"]:
        raise ValueError(f"Tables of this game seat {base['min_table']} to "
                         f"{base['max_table']} players.")
    if not low <= fmt["preferred_table"] <= high:
        if chosen:
            raise ValueError(f"The preferred table size must lie between {low} and {high}.")
        # Only the game's default preference fell outside new limits: follow the limits.
        fmt["preferred_table"] = min(high, max(low, fmt["preferred_table"]))
    return fmt


def format_from_game(game: Any, preferred_table: int | None = None) -> dict[str, Any]:
    """A format for any game object with ``slug``, ``min_players``, ``max_players``, ``teams``.

    For a game without an entry in :data:`FORMATS` (a new game module): a team game becomes
    two teams per table of ``min_players // 2`` to ``max_players // 2`` players each; any
    other game a table game within its player counts.
    """
    if game.teams:
        sizes = list(range(max(1, game.min_players // 2), game.max_players // 2 + 1))
        return {"slug": game.slug, "kind": "teams", **_PAIR, "team_sizes": sizes}
    preferred = preferred_table if preferred_table is not None else 4
    return {"slug": game.slug, "kind": "tables", "min_table": game.min_players,
            "max_table": game.max_players,
            "preferred_table": min(game.max_players, max(game.min_players, preferred)),
            "team_sizes": None, "odd_tables": "closest"}


def default_scoring(fmt: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring a format starts with: win 2 / draw 1 / loss 0 (bye 2) for pair kinds,
    4 / 2 / 1 / 0 by finishing place (bye 4) for table games; a director may change either."""
    if fmt["kind"] == "tables":
        return place_scoring()
    return match_scoring()
