"""The game registry and the Game contract (RULES-API.md, "Common")."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import companion.rules as rules
from companion.rules import GAMES, Game, RuleError, Setting, Verdict, find_game
from companion.rules import verdict as verdict_module
from companion.rules.game import paper_action


def test_find_scorepad():
    game = find_game("scorepad")
    assert game is GAMES["scorepad"]
    assert (game.slug, game.name) == ("scorepad", "Score pad")
    assert (game.min_players, game.max_players, game.teams) == (2, 12, False)


@pytest.mark.parametrize("slug", ["", "nope", "Scorepad", None, "rook "])
def test_unknown_slug_is_lookup_error(slug):
    with pytest.raises(LookupError):
        find_game(slug)


def test_games_is_ordered_by_slug():
    assert list(GAMES)[0] == "scorepad"
    assert all(slug == game.slug for slug, game in GAMES.items())


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_game_contract(game):
    assert isinstance(game, Game)
    assert dataclasses.is_dataclass(game)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.slug = "other"
    assert isinstance(game.slug, str) and game.slug
    assert isinstance(game.name, str) and game.name
    assert 1 <= game.min_players <= game.max_players
    assert isinstance(game.teams, bool)
    for name in ("new", "apply", "summary", "parse_settings", "describe_settings"):
        assert callable(getattr(game, name))
    assert isinstance(game.settings_fields, tuple)
    for setting in game.settings_fields:
        assert isinstance(setting, Setting)
        assert setting.kind in ("int", "bool", "choice")
        assert setting.label and setting.help and setting.rule
        assert setting.rule in game.rules
    seats = [f"P{i}" for i in range(game.min_players)]
    state = game.new(game.parse_settings({}), seats)
    result = game.summary(state)
    assert {"totals", "over", "winners"} <= set(result)
    assert result["over"] is False and result["winners"] == []


def test_reexports():
    assert rules.Verdict is Verdict is verdict_module.Verdict
    assert issubclass(RuleError, ValueError)
    error = RuleError("Nope.", "SP-1")
    assert str(error) == "Nope." and error.rule == "SP-1"


def test_verdict_truthiness_and_frozen():
    yes = Verdict(True, "Fine.", "X-1")
    no = Verdict(False, "Not fine.", "X-2", {"n": 3})
    assert yes and not no
    assert yes.details == {} and no.details == {"n": 3}
    with pytest.raises(dataclasses.FrozenInstanceError):
        yes.ok = False


_IMPORT_CHECK = """
import importlib, sys, types
stub = types.ModuleType("companion")
stub.__path__ = [sys.argv[1]]
sys.modules["companion"] = stub
rules = importlib.import_module("companion.rules")
for name in (*rules.GAME_MODULES, "cards", "verdict", "game"):
    importlib.import_module("companion.rules." + name)
bad = sorted(m for m in sys.modules
             if m.split(".")[0] in ("flask", "werkzeug", "sqlite3", "_sqlite3", "sqlite_utils")
             or (m.startswith("companion.") and not m.startswith("companion.rules")))
print(",".join(bad))
"""


def test_rules_package_imports_nothing_from_the_web_layer():
    """companion.rules pulls in no Flask, SQLite or other companion code.

    companion/__init__.py belongs to the web app, so a fresh interpreter replaces it with a
    bare package before importing companion.rules and every game module.
    """
    package_dir = Path(rules.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _IMPORT_CHECK, str(package_dir)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_game_paper_contract(game):
    """The optional paper hook: a game that offers it starts from zeros written on paper,
    the same state through ``apply`` of the paper action, shown in the summary; one that
    doesn't refuses in plain words."""
    seats = [f"P{i}" for i in range(max(game.min_players, 4 if game.teams else 2))]
    settings = game.parse_settings({})
    if game.from_paper is None:
        assert game.paper_fields == ()
        with pytest.raises(ValueError, match="paper sheet"):
            game.start_from_paper(settings, seats, {"totals": {}})
        return
    assert set(game.paper_fields) <= {"totals", "checks"} and game.paper_fields
    keys = game.paper_keys(seats)
    # Totals keyed as the summary's (players or teams); checks as a board's rows per player.
    paper = ({"totals": dict.fromkeys(keys, 0)} if "totals" in game.paper_fields
             else {"checks": {seat: {} for seat in seats}})
    state = game.start_from_paper(settings, seats, paper)
    assert game.apply(game.new(settings, seats), paper_action(paper)) == state
    result = game.summary(state)
    assert result["paper"] is not None
    assert result["totals"] == dict.fromkeys(keys, 0)
    if "totals" in game.paper_fields:
        assert result["paper"] == paper
    assert result["over"] is False and result["winners"] == []
    assert game.summary(game.new(settings, seats))["paper"] is None
    with pytest.raises(RuleError):                 # only a game's first action
        game.apply(state, paper_action(paper))
    with pytest.raises(RuleError):                 # not a paper sheet of this game
        game.start_from_paper(settings, seats, {"totals": {keys[0]: 0}} if "totals" in
                              game.paper_fields else {"checks": {"Nobody here": {}}})
