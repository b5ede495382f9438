"""docs/RULES-API.md and docs/RULES.md cannot go stale.

RULES-API.md lists names after markers such as ``<!-- api companion.rules.rook -->``: each
``- `name(params) -> result`: ...`` line below a marker names something that must import from
that module, and every parameter written in it must be a parameter of the real function.
RULES.md must mention every rule ID the code cites: each module's ``RULES`` table, the rule
of every ``Setting``, and every rule ID literal in ``companion/rules/``.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import pytest

from companion.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
API_DOC = ROOT / "docs" / "RULES-API.md"
RULES_DOC = ROOT / "docs" / "RULES.md"

MARKER = re.compile(r"<!-- api ([\w.]+) -->")
ITEM = re.compile(r"- `([^`]+)`")
RULE_ID = re.compile(r"\b(?:SP|RK|R|ZNR|Z|RID|ROC|RR)-A?\d+b?\b")


def documented_names() -> list[tuple[str, str]]:
    """``(module, code span)`` for every list item under an api marker."""
    found, module = [], None
    for line in API_DOC.read_text(encoding="utf-8").splitlines():
        marker = MARKER.fullmatch(line.strip())
        if marker:
            module = marker.group(1)
            continue
        if module and line.startswith("- "):
            item = ITEM.match(line)
            assert item, f"an api list item without a code span first: {line!r}"
            found.append((module, item.group(1)))
        elif module and line.strip() and not line.startswith("  "):
            module = None                       # the list ended
    return found


def parameters(signature: str) -> list[str]:
    """The parameter names written between the first pair of brackets of ``signature``."""
    start = signature.index("(")
    depth, end = 0, None
    for at in range(start, len(signature)):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(signature[at], 0)
        if depth == 0:
            end = at
            break
    inside, parts, depth, part = signature[start + 1:end], [], 0, ""
    for char in inside:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += char
    parts.append(part)
    names = []
    for raw in parts:
        name = re.split(r"[:=]", raw.strip().lstrip("*"), maxsplit=1)[0].strip()
        if name:
            names.append(name)
    return names


def resolve(module: str, dotted: str):
    """The object ``dotted`` names in ``module``; a dataclass field counts as present."""
    target = importlib.import_module(module)
    parts = dotted.split(".")
    for at, part in enumerate(parts):
        if hasattr(target, part):
            target = getattr(target, part)
            continue
        fields = {f.name for f in dataclasses.fields(target)} if dataclasses.is_dataclass(
            target) else set()
        assert part in fields and at == len(parts) - 1, f"{module}.{dotted} does not exist"
        return None                              # a field: nothing more to check
    return target


NAMES = documented_names()

#: The games these docs cover: the ones the app ships with. A game added later keeps its
#: rules in its own files (its RULES table and docstrings: docs/ADDING-A-GAME.md), so adding
#: one never means editing these docs, and these checks don't reach it.
DOCUMENTED = ("scorepad", "rook", "zocknroll", "rainbow_rummy", "rockit", "rocca")


def documented_games():
    return [GAMES[slug] for slug in DOCUMENTED]


def test_the_api_doc_lists_names_for_every_module_it_covers():
    modules = {module for module, _ in NAMES}
    assert {"companion.rules", "companion.rules.game", "companion.rules.said",
            "companion.rules.cards"} <= modules
    assert {f"companion.rules.{slug}" for slug in DOCUMENTED if slug != "scorepad"} <= modules
    assert len(NAMES) > 80


@pytest.mark.parametrize("module, span", NAMES, ids=[span.split("(")[0] for _, span in NAMES])
def test_every_documented_name_exists_with_its_parameters(module, span):
    dotted = re.match(r"[A-Za-z_][\w.]*", span).group(0)
    obj = resolve(module, dotted)
    if obj is None or "(" not in span[len(dotted):len(dotted) + 1]:
        return
    real = inspect.signature(obj).parameters
    for name in parameters(span):
        assert name in real, f"{dotted} has no parameter {name!r} (it has {list(real)})"


def test_the_contract_names_are_all_documented():
    spans = " ".join(span for _, span in NAMES)
    for name in ("find_game", "GAMES", "Game.new", "Game.apply", "Game.summary", "RuleError",
                 "Verdict", "check_bid", "score_hand", "best_hand", "showdown", "final_result",
                 "card_points", "can_build", "can_play_on_bar", "check_trick", "check_come_in",
                 "arrange", "check_board", "placements", "is_start_card", "Game.lower_wins",
                 "Game.lowest_wins", "Game.outcome", "Game.outcome_of", "Outcome", "places_of",
                 "Setting", "N_", "message"):
        assert re.search(rf"(?<![\w.]){re.escape(name)}\b", spans), name


def test_every_setting_of_every_game_is_named_in_the_api_doc():
    text = API_DOC.read_text(encoding="utf-8")
    for game in documented_games():
        for setting in game.settings_fields:
            assert f"`{setting.name}`" in text, f"{game.slug}: {setting.name}"


def code_rule_ids() -> set[str]:
    ids = set()
    for game in documented_games():
        ids |= set(game.rules)
        ids |= {setting.rule for setting in game.settings_fields if setting.rule}
    others = set(GAMES) - set(DOCUMENTED)
    for path in (ROOT / "companion" / "rules").rglob("*.py"):    # the games' shared modules too
        if others & {path.stem, path.parent.name}:
            continue
        ids |= set(re.findall(r"[\"']((?:SP|RK|R|ZNR|Z|RID|ROC|RR)-A?\d+b?)[\"']",
                              path.read_text(encoding="utf-8")))
    return ids


def test_every_rule_id_the_code_cites_is_in_the_rules_doc():
    ids = code_rule_ids()
    assert len(ids) > 100
    documented = set(RULE_ID.findall(RULES_DOC.read_text(encoding="utf-8")))
    assert not ids - documented, f"rule IDs missing from docs/RULES.md: {sorted(ids - documented)}"


def test_the_rules_doc_has_a_row_for_every_rule_of_every_game():
    """Each rule ID the games define starts a row of a rules table: ``| RK-4 | ...``."""
    text = RULES_DOC.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| \*{0,2}([A-Z]+-A?\d+b?)\*{0,2} \|", text, re.M))
    for game in documented_games():
        assert not set(game.rules) - rows, f"{game.slug}: {sorted(set(game.rules) - rows)}"


def test_every_section_the_repository_cites_exists():
    """``RULES.md §4.5`` anywhere in the code, tests or docs names a numbered heading."""
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)*)\.? ", RULES_DOC.read_text(encoding="utf-8"),
                              re.M))
    cited = {}
    for folder in ("companion", "tests", "docs", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".md", ".html", ".js"} or not path.is_file():
                continue
            for section in re.findall(r"RULES\.md[^§\n]{0,3}§(\d+(?:\.\d+)*)",
                                      path.read_text(encoding="utf-8", errors="ignore")):
                cited.setdefault(section, path.relative_to(ROOT).as_posix())
    assert cited
    missing = {section: path for section, path in cited.items() if section not in headings}
    assert not missing, f"sections cited but not in docs/RULES.md: {missing}"
