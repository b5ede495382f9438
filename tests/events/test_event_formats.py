"""Tournament formats per game, derived from the rules registry; the pure modules are pure."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import events
from companion.rules import GAMES
from companion.events import (
    default_scoring,
    format_from_game,
    match_scoring,
    place_scoring,
    event_format,
)


# What each game's format was when formats were a hand-kept table: deriving them
# from the rules registry must give exactly these.
EXPECTED_BY_GAME = {
    "scorepad": {"slug": "scorepad", "kind": "tables", "min_table": 2, "max_table": 12,
                 "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    "rook": {"slug": "rook", "kind": "teams", "min_table": 2, "max_table": 2,
             "preferred_table": 2, "team_sizes": [2, 3], "odd_tables": None},
    "rainbow_rummy": {"slug": "rainbow_rummy", "kind": "teams", "min_table": 2, "max_table": 2,
                      "preferred_table": 2, "team_sizes": [2], "odd_tables": None},
    "zocknroll": {"slug": "zocknroll", "kind": "tables", "min_table": 3, "max_table": 6,
                  "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    "rockit": {"slug": "rockit", "kind": "tables", "min_table": 2, "max_table": 5,
               "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
    "rocca": {"slug": "rocca", "kind": "tables", "min_table": 2, "max_table": 11,  # ROC-A13
              "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"},
}


def test_every_game_has_a_format():
    assert set(EXPECTED_BY_GAME) <= set(GAMES)
    assert all(event_format(slug)["slug"] == slug for slug in GAMES)


@pytest.mark.parametrize("slug", sorted(EXPECTED_BY_GAME))
def test_derived_format_is_the_games_format(slug):
    assert event_format(slug) == EXPECTED_BY_GAME[slug]
    assert event_format(GAMES[slug]) == EXPECTED_BY_GAME[slug]
    assert format_from_game(GAMES[slug]) == EXPECTED_BY_GAME[slug]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_formats_match_the_rules_library(slug):
    game, fmt = GAMES[slug], event_format(slug)
    assert fmt["slug"] == slug
    if game.teams:
        assert fmt["kind"] == "teams"
        # Two teams per table: a team holds half of a table's players.
        assert fmt["team_sizes"] == [n // 2 for n in range(game.min_players,
                                                           game.max_players + 1, 2)]
    else:
        assert fmt["kind"] == "tables"
        assert (fmt["min_table"], fmt["max_table"]) == (game.min_players, game.max_players)
    assert format_from_game(game) == fmt


FORMAT_CASES = [
    ("rook", "teams", 2, 2, [2, 3]),
    ("rainbow_rummy", "teams", 2, 2, [2]),
    ("zocknroll", "tables", 3, 6, None),
    ("rockit", "tables", 2, 5, None),
    ("rocca", "tables", 2, 11, None),
    ("scorepad", "tables", 2, 12, None),
]


@pytest.mark.parametrize("slug,kind,low,high,team_sizes", FORMAT_CASES)
def test_format_table(slug, kind, low, high, team_sizes):
    fmt = event_format(slug)
    assert (fmt["kind"], fmt["min_table"], fmt["max_table"], fmt["team_sizes"]) == \
        (kind, low, high, team_sizes)
    assert fmt["min_table"] <= fmt["preferred_table"] <= fmt["max_table"]


def test_overrides():
    assert event_format("rocca", preferred_table=5)["preferred_table"] == 5
    five = event_format("zocknroll", min_table=5)
    assert (five["min_table"], five["preferred_table"]) == (5, 5)  # 4 followed the limits
    duel = event_format("scorepad", kind="head_to_head")
    assert (duel["kind"], duel["min_table"], duel["max_table"]) == ("head_to_head", 2, 2)
    event_format("rook")["team_sizes"].append(9)
    assert event_format("rook")["team_sizes"] == [2, 3]  # a copy, not the game's own


@pytest.mark.parametrize("slug,overrides", [
    ("rocca", {"preferred_table": 12}),
    ("zocknroll", {"min_table": 2}),
    ("zocknroll", {"min_table": 5, "preferred_table": 4}),
    ("rockit", {"max_table": 1}),
    ("rook", {"kind": "tables"}),
    ("rocca", {"kind": "teams"}),
    ("rocca", {"kind": "poker"}),
    ("rocca", {"team_sizes": [2]}),
    ("rocca", {"min_table": "3"}),
])
def test_bad_overrides(slug, overrides):
    with pytest.raises(ValueError):
        event_format(slug, **overrides)


def test_unknown_game():
    with pytest.raises(LookupError):
        event_format("chess")


def test_format_from_a_new_game():
    duo = SimpleNamespace(slug="duo", min_players=4, max_players=8, teams=True)
    assert format_from_game(duo)["team_sizes"] == [2, 3, 4]
    dice = SimpleNamespace(slug="dice", min_players=2, max_players=3, teams=False)
    assert format_from_game(dice)["preferred_table"] == 3


def test_a_game_overrides_only_what_differs():
    """Game.tournament changes the derived format; director overrides stay within it."""
    rocca = dataclasses.replace(GAMES["rocca"], tournament={"preferred_table": 5,
                                                           "odd_tables": "smaller"})
    fmt = format_from_game(rocca)
    assert fmt == {**EXPECTED_BY_GAME["rocca"], "preferred_table": 5, "odd_tables": "smaller"}
    assert event_format(rocca) == fmt
    assert event_format(rocca, preferred_table=3)["preferred_table"] == 3
    assert event_format(rocca, odd_tables="larger")["odd_tables"] == "larger"
    bigger = dataclasses.replace(GAMES["rook"], tournament={"team_sizes": (3,)})
    assert event_format(bigger)["team_sizes"] == [3]
    assert GAMES["rocca"].tournament == {}   # no game of the registry needs one today
    with pytest.raises(ValueError):
        format_from_game(dataclasses.replace(GAMES["rocca"], tournament={"slug": "x"}))


def test_default_scoring():
    assert default_scoring(event_format("rook")) == match_scoring(2, 1, 0, 2)
    assert default_scoring(event_format("rocca")) == place_scoring([4, 2, 1, 0], 4)


_IMPORT_CHECK = """
import importlib, sys, types
SERVICE = {"companion.events." + m for m in ("event", "entrants", "claims", "rounds", "results",
                                             "seating", "devices", "director", "round_clock")}
stub = types.ModuleType("companion")
stub.__path__ = [sys.argv[1]]
sys.modules["companion"] = stub
for name in ("", ".formats", ".pairing", ".standings", ".matching"):
    importlib.import_module("companion.events" + name)
bad = sorted(m for m in sys.modules
             if m.split(".")[0] in ("flask", "werkzeug", "sqlite3", "_sqlite3", "sqlite_utils")
             or m in SERVICE
             or (m.startswith("companion.") and not m.startswith(("companion.events",
                                                                   "companion.rules"))))
print(",".join(bad))
"""


def test_package_is_pure():
    """companion.events and its pure modules pull in no Flask, no SQLite, none of the
    service's modules and no other companion code but the (pure) rules registry their
    formats read.

    companion/__init__.py belongs to the web app, so a fresh interpreter replaces it with a
    bare package first (as tests/rules/test_registry.py does for the rules).
    """
    package_dir = Path(events.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, str(package_dir)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
