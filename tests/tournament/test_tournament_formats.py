"""Tournament formats per game, kept in step with the rules registry; the package is pure."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import tournament
from companion.rules import GAMES
from companion.tournament import (
    FORMATS,
    default_scoring,
    format_from_game,
    match_scoring,
    place_scoring,
    tournament_format,
)


def test_every_game_has_a_format():
    assert set(GAMES) <= set(FORMATS)
    assert set(FORMATS) == {"scorepad", "rook", "rainbow_rummy", "zocknroll", "rockit", "rocca"}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_formats_match_the_rules_library(slug):
    game, fmt = GAMES[slug], FORMATS[slug]
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
    ("rocca", "tables", 2, 8, None),
    ("scorepad", "tables", 2, 12, None),
]


@pytest.mark.parametrize("slug,kind,low,high,team_sizes", FORMAT_CASES)
def test_format_table(slug, kind, low, high, team_sizes):
    fmt = tournament_format(slug)
    assert (fmt["kind"], fmt["min_table"], fmt["max_table"], fmt["team_sizes"]) == \
        (kind, low, high, team_sizes)
    assert fmt["min_table"] <= fmt["preferred_table"] <= fmt["max_table"]


def test_overrides():
    assert tournament_format("rocca", preferred_table=5)["preferred_table"] == 5
    five = tournament_format("zocknroll", min_table=5)
    assert (five["min_table"], five["preferred_table"]) == (5, 5)  # 4 followed the limits
    duel = tournament_format("scorepad", kind="head_to_head")
    assert (duel["kind"], duel["min_table"], duel["max_table"]) == ("head_to_head", 2, 2)
    tournament_format("rook")["team_sizes"].append(9)
    assert FORMATS["rook"]["team_sizes"] == [2, 3]  # a copy, not the table itself


@pytest.mark.parametrize("slug,overrides", [
    ("rocca", {"preferred_table": 9}),
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
        tournament_format(slug, **overrides)


def test_unknown_game():
    with pytest.raises(LookupError):
        tournament_format("chess")


def test_format_from_a_new_game():
    duo = SimpleNamespace(slug="duo", min_players=4, max_players=8, teams=True)
    assert format_from_game(duo)["team_sizes"] == [2, 3, 4]
    dice = SimpleNamespace(slug="dice", min_players=2, max_players=3, teams=False)
    assert format_from_game(dice)["preferred_table"] == 3


def test_default_scoring():
    assert default_scoring(tournament_format("rook")) == match_scoring(2, 1, 0, 2)
    assert default_scoring(tournament_format("rocca")) == place_scoring([4, 2, 1, 0], 4)


_IMPORT_CHECK = """
import importlib, sys, types
stub = types.ModuleType("companion")
stub.__path__ = [sys.argv[1]]
sys.modules["companion"] = stub
importlib.import_module("companion.tournament")
bad = sorted(m for m in sys.modules
             if m.split(".")[0] in ("flask", "werkzeug", "sqlite3", "_sqlite3", "sqlite_utils")
             or (m.startswith("companion.") and not m.startswith("companion.tournament")))
print(",".join(bad))
"""


def test_package_is_pure():
    """companion.tournament pulls in no Flask, no SQLite and no other companion code.

    companion/__init__.py belongs to the web app, so a fresh interpreter replaces it with a
    bare package first (as tests/rules/test_registry.py does for the rules).
    """
    package_dir = Path(tournament.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, str(package_dir)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
