"""docs/ADDING-A-GAME.md stays true: its hook table is GameUI's public names, its file table
is exactly the toy game's files (tests/toygame, installed and played by
tests/web/test_web_toy_game.py), it states the Setting rules the registry test checks, and
its commands exist."""
from __future__ import annotations

import importlib
import inspect
import re
import shlex
from pathlib import Path

import pytest
from game_install import TOY_SLUG, TOYGAME, installed

from companion.rules import GAMES, Setting
from companion.web.games import GameUI

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ADDING-A-GAME.md").read_text(encoding="utf-8")
CODE = re.compile(r"`([^`]+)`")


def section(title: str) -> str:
    """The text of the doc's section whose heading starts with `title`."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", DOC, re.M | re.S)
    assert match, title
    return match.group(1)


def table_rows(text: str, first_header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose first header cell is given."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def public_hooks() -> set[str]:
    return {name for name, _ in inspect.getmembers(GameUI) if not name.startswith("_")}


def test_the_hook_table_is_every_public_name_of_gameui():
    documented = set()
    for cells in table_rows(section("2. The adapter"), "Hook"):
        for code in CODE.findall(cells[0]):
            documented.add(code.split("(")[0])
    hooks = public_hooks()
    missing = sorted(hooks - documented)
    assert not missing, f"GameUI hooks missing from the doc: {missing}"
    assert not documented - hooks, f"documented hooks GameUI lacks: {sorted(documented - hooks)}"


def test_the_file_table_is_exactly_the_toy_games_files():
    listed = set()
    for cells in table_rows(DOC, "What"):
        for code in CODE.findall(cells[1]):
            listed.add(code.replace("<slug>", TOY_SLUG))
    toy = {str(p.relative_to(TOYGAME)) for p in TOYGAME.rglob("*")
           if p.is_file() and "__pycache__" not in p.parts}
    assert listed == toy, (sorted(listed - toy), sorted(toy - listed))


def test_the_toy_game_keeps_the_setting_rules_the_doc_states():
    rules = section("1. The rules module")
    assert "every `Setting` has a label, a `help` sentence" in rules
    assert "a `rule` ID that is a key of the game's `rules`" in rules
    assert "tests/rules/test_registry.py" in rules
    registry_test = (ROOT / "tests" / "rules" / "test_registry.py").read_text()
    assert "setting.label and setting.help and setting.rule" in registry_test
    assert "setting.rule in game.rules" in registry_test
    with installed(TOYGAME, TOY_SLUG) as toy:
        assert toy.lowest_wins({}) and "lower_wins=True" in DOC
        for setting in toy.settings_fields:
            assert isinstance(setting, Setting)
            assert setting.label and setting.help and setting.rule in toy.rules


def test_the_links_are_to_files_in_the_repository():
    assert "../shared" not in DOC
    for target in re.findall(r"\]\(([^)#]+)\)", DOC):
        assert (ROOT / "docs" / target).is_file() or target.startswith("http"), target
    for name in ("RULES-API.md", "RULES.md", "I18N.md"):
        assert f"]({name})" in DOC, name


def commands(title: str) -> list[list[str]]:
    block = re.search(r"```sh\n(.*?)```", section(title), re.S).group(1)
    lines = block.replace("\\\n", " ").splitlines()
    return [shlex.split(line.split("#")[0]) for line in lines if line.split("#")[0].strip()]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_check_command_names_files_that_exist(slug):
    (command,) = commands("5. Check")
    assert command[:3] == ["python", "-m", "pytest"]
    paths = [arg.replace("<slug>", slug) for arg in command if arg.endswith(".py")]
    assert paths and all((ROOT / path).is_file() for path in paths), paths


def test_the_translation_commands_exist():
    from companion.translations import __main__ as cli

    for command in commands("3. Words and translations"):
        assert command[:3] == ["python", "-m", "companion.translations"]
        assert command[3] in ("update", "init", "compile")
        importlib.import_module(command[2])
    parser_text = inspect.getsource(cli.main)
    for name in ("update", "init", "compile"):
        assert f'"{name}"' in parser_text
