"""The one game contract (ARCHITECTURE.md §9): every game's adapter is a GameUI found from the
rules registry, with defaults from its slug; a game laid out like the repository (the toy
game) is installed by its files and the one registry line, without editing any app file."""
from __future__ import annotations

from pathlib import Path

import pytest
from game_install import TOY_SLUG, TOYGAME, attach, installed
from web_helpers import Phone, make_app

from companion.rules import GAMES, find_game
from companion.web import games
from companion.web.games import GameUI, ui_for


def test_every_game_has_an_adapter_found_from_its_registry_entry():
    assert [g.slug for g in games.playable_games()] == list(GAMES)
    for slug in GAMES:
        ui = ui_for(slug)
        assert isinstance(ui, GameUI) and ui.slug == slug
        assert ui_for(slug) is ui                                   # made once, cached
        assert ui.sheet_template == f"games/{slug}/_sheet.html"
        assert ui.entry_template == f"games/{slug}/_entry_fields.html"
        assert isinstance(ui.table_switches, tuple)


def test_an_unknown_game_has_no_adapter():
    with pytest.raises(LookupError):
        ui_for("no_such_game")


def test_every_game_has_its_required_templates(app):
    env = app.jinja_env
    for slug in GAMES:
        ui = ui_for(slug)
        for path in (ui.sheet_template, ui.entry_template):
            env.loader.get_source(env, path)                    # TemplateNotFound otherwise


@pytest.mark.parametrize("slug", list(GAMES))
def test_optional_templates_are_used_when_they_exist(app, slug):
    ui = ui_for(slug)
    folder = Path(app.template_folder) / "games" / slug
    with app.app_context():
        assert ui.finish_template == (
            f"games/{slug}/_finish.html" if (folder / "_finish.html").is_file() else None)
        assert ui.new_table_help == (
            f"games/{slug}/_new_help.html" if (folder / "_new_help.html").is_file() else None)


def test_the_optional_templates_of_the_built_in_games(app):
    """What the built-in games have today (the test above follows the files). Rocca's
    _finish.html is its One! call beside the answer to a move."""
    with app.app_context():
        found = {slug: (ui_for(slug).finish_template is not None,
                        ui_for(slug).new_table_help is not None)
                 for slug in ("scorepad", "rook", "zocknroll", "rockit", "rocca",
                              "rainbow_rummy")}
    assert found == {"scorepad": (True, False), "rook": (True, True),
                     "zocknroll": (False, False), "rockit": (True, False),
                     "rocca": (True, True), "rainbow_rummy": (False, False)}


def test_the_defaults_of_the_base_class():
    class Plain(GameUI):
        fields = ("a", "b")

    ui = Plain("scorepad")
    assert ui.first_seat({"starter": "2"}, [0, 1, 2]) == 0          # no starter choice
    assert ui.form_values({"a": "x" * 99, "c": "y"}, []) == {"a": "x" * 40, "b": ""}
    assert ui.describe({"kind": "round"}, []) == "round"
    assert (ui.starter_choice, ui.entry_when_over, ui.table_switches) == (False, False, ())
    with pytest.raises(NotImplementedError):
        ui.parse_entry({}, [], {})


def test_the_starter_choice():
    class Starts(GameUI):
        starter_choice = True

    ui = Starts("rockit")
    assert ui.first_seat({}, [0, 2, 3]) == 0
    assert ui.first_seat({"starter": "3"}, [0, 2, 3]) == 2
    for bad in ("1", "x", "9999", "-1"):
        with pytest.raises(ValueError, match="Tap “starts”"):
            ui.first_seat({"starter": bad}, [0, 2, 3])


# ---------------------------------------------------------------- a game added by its files
# (tests/toygame's Toy Hearts, played through a table and a tournament in test_web_toy_game.py)

def test_an_installed_game_is_found_and_an_uninstalled_one_is_gone(tmp_path):
    with installed(TOYGAME, TOY_SLUG):
        app = make_app(tmp_path)
        attach(app, TOYGAME, tmp_path)
        assert find_game(TOY_SLUG).name == "Toy Hearts"
        ui = ui_for(TOY_SLUG)
        assert ui_for(TOY_SLUG) is ui and type(ui).__module__ == f"companion.web.games.{TOY_SLUG}"
        assert [g.slug for g in games.playable_games()][-1] == TOY_SLUG
        assert Phone(app, "Ann").get(f"/new/{TOY_SLUG}").status_code == 200
    assert TOY_SLUG not in GAMES
    assert Phone(make_app(tmp_path / "after"), "Ann").get(f"/new/{TOY_SLUG}").status_code == 404
    with pytest.raises(LookupError):
        ui_for(TOY_SLUG)


def test_the_app_has_no_runtime_registration():
    """Games come from GAME_MODULES only; a test installs one by its files (game_install)."""
    import companion.rules as rules

    for name in ("register", "unregister"):
        assert not hasattr(rules, name) and not hasattr(games, name)
