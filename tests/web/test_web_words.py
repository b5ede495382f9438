"""One path for words (docs/I18N.md): a sentence written in Python is a `Said` made with
`message(context, template, ...)` or a fixed sentence marked `N_()`, kept all the way to the
page, where `say()` shows it in the phone's language with its values (a code, a name) kept.

Here end to end with the Japanese catalogue: a refused join code and tournament refusals
come back in Japanese with the typed code or the player's name in them; `say()` never
translates a player's name; and no service, rules or adapter module hands a bare English
literal or f-string straight to an exception (which would bypass the catalogue).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import render_template_string

from companion.rules.said import N_, message
from companion.web.i18n import say
from helpers import text_of

JA = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"


def _shown(response) -> str:
    return text_of(response.get_data(as_text=True))


# ---------------------------------------------------------------- end to end, in Japanese

def test_a_refused_join_code_shows_in_japanese_with_the_code_kept(new_phone):
    phone = new_phone("Newcomer")
    r = phone.post("/join", {"code": "qzqzqz"}, headers=JA)
    assert r.status_code == 404
    shown = _shown(r)
    assert "コードQZQZQZのテーブルはありません。" in shown, shown[:1500]
    assert "No table has the code" not in shown
    # The same refusal in English for an English phone, byte for byte the service's text.
    r = phone.post("/join", {"code": "qzqzqz"})
    assert "No table has the code QZQZQZ. Check the letters on the host's screen." in _shown(r)


def test_the_language_switch_cookie_chooses_japanese_too(new_phone):
    phone = new_phone("Newcomer")
    phone.client.set_cookie("lang", "ja")
    r = phone.post("/join", {"code": "QZQZQZ"})
    assert "コードQZQZQZのテーブルはありません。" in _shown(r)


def _create_event(director, players=("Ann", "Bob", "Cy", "Dee"), **extra) -> str:
    data = {"event_name": "Club night", "event_rounds": "2", "entrants": "\n".join(players),
            "rounds": "1", **extra}
    r = director.post("/events/new/scorepad", data)
    assert r.status_code == 303, _shown(r)[:1500]
    match = re.fullmatch(r"/e/([\w-]+)", urlsplit(r.headers["Location"]).path)
    assert match
    return match.group(1)


def test_a_tournament_refusal_shows_in_japanese_with_the_name_kept(new_phone):
    director = new_phone("Director")
    event_id = _create_event(director)
    r = director.post(f"/e/{event_id}/entrants", {"action": "add", "name": "Bob"}, headers=JA)
    assert r.status_code == 422
    shown = _shown(r)
    assert "Bobはすでに一覧にあります。別の人なら、名字かイニシャルを加えてください。" in shown, \
        shown[:2000]
    r = director.post(f"/e/{event_id}/entrants", {"action": "add", "name": "Bob"})
    assert ("Bob is already on the list. If that's somebody else, add a last name or an "
            "initial.") in _shown(r)


def test_a_fixed_tournament_refusal_shows_in_japanese(new_phone):
    director = new_phone("Director")
    event_id = _create_event(director)          # registration stays closed
    player = new_phone("Eve's phone")
    r = player.post(f"/e/{event_id}/register", {"member_0": "Eve"}, headers=JA)
    assert r.status_code == 422
    assert "登録は締め切られました。主催者に追加してもらってください。" in _shown(r)
    r = player.post(f"/e/{event_id}/register", {"member_0": "Eve"})
    assert "Registration is closed. Ask the director to add you." in _shown(r)


def test_an_untranslated_sentence_stays_english_with_its_values(ja_request):
    """A sentence the catalogue has no Japanese for shows its English, values and all (every
    sentence of the app has Japanese: tests/web/test_web_japanese.py; this one is made up)."""
    said = message("tournament", "Round {round} is in no catalogue, {name}.", round=1,
                   name="Ann")
    assert say(said) == "Round 1 is in no catalogue, Ann."
    assert say(N_("A label no catalogue has.")) == "A label no catalogue has."


# ---------------------------------------------------------------- say() and names

@pytest.fixture
def ja_request(app):
    with app.test_request_context("/", headers=JA):
        yield


def test_say_leaves_a_players_name_alone(ja_request):
    # "Finished" has a Japanese translation (a room status word): as a name it stays.
    assert say(N_("Finished")) != "Finished"
    said = message("tournament", "{name} is already on the list. If that's somebody else, "
                   "add a last name or an initial.", name="Finished")
    shown = say(said)
    assert shown.startswith("Finishedはすでに一覧にあります。"), shown
    # A name that looks like a format field or markup is kept as typed, then escaped.
    odd = message("tournament", "{name} is already on the list. If that's somebody else, "
                  "add a last name or an initial.", name="{code} <b>&")
    assert say(odd).startswith("{code} <b>&はすでに")
    page = render_template_string("{{ say(text) }}", text=odd)
    assert page.startswith("{code} &lt;b&gt;&amp;はすでに"), page


def test_say_of_a_said_in_english_is_the_same_text(app):
    said = message("table", "No table has the code {code}. Check the letters on the host's "
                   "screen.", code="ABCDEF")
    with app.test_request_context("/"):
        assert say(said) == str(said)


# ---------------------------------------------------------------- the regime holds

#: Modules whose exceptions carry player-facing sentences: every one must be a Said or N_.
SCANNED = sorted({
    PACKAGE / "tables" / "service.py",
    *(PACKAGE / "events").glob("*.py"),
    *(PACKAGE / "web" / "games").glob("*.py"), *(PACKAGE / "web").glob("*.py"),
    PACKAGE / "rules" / "game.py",
    PACKAGE / "rules" / "cards.py",
    *(PACKAGE / "rules" / "zocknroll").glob("*.py"),
    PACKAGE / "rules" / "rockit.py", PACKAGE / "rules" / "scorepad.py",
    PACKAGE / "rules" / "rainbow_rummy.py",
    PACKAGE / "rules" / "rook.py",
    *(PACKAGE / "web" / "events").glob("*.py"),
})


def _bare_text(node: ast.AST) -> bool:
    """A literal sentence built in place: "text", f"text {x}", "a" + b, "%s" % x,
    "{}".format(x)."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp):
        return _bare_text(node.left) or _bare_text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _bare_text(node.func.value)
    return False


#: A programmer's mistake (a wrong type, a method left out), or a setting the server can't
#: start with (printed on the operator's console): never shown to a player.
NOT_FOR_PLAYERS = {"TypeError", "NotImplementedError", "AssertionError", "BadSetting"}


def bare_raises(source: str) -> list[tuple[int, str]]:
    """(line, exception) of each `raise SomeError(<a bare literal or f-string>)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        if ast.unparse(call.func) in NOT_FOR_PLAYERS:
            continue
        given = list(call.args) + [k.value for k in call.keywords if k.arg == "message"]
        if any(_bare_text(arg) for arg in given):
            found.append((node.lineno, ast.unparse(call.func)))
    return found


def test_the_scanner_finds_bare_sentences():
    source = '''
def f(x):
    raise ValueError("plain")
    raise ValueError(f"with {x}")
    raise errors.NotFound("dotted " + x) from None
    raise TableError(message="kw {x}".format(x=x))
    raise ValueError(N_("marked"))
    raise ValueError(message("ctx", "made {x}", x=x))
    raise ValueError(said_of(x))
    raise AssertionError
    raise NotImplementedError(f"{x}.parse_entry")
'''
    assert [line for line, _name in bare_raises(source)] == [3, 4, 5, 6]


def test_no_exception_gets_a_bare_english_sentence():
    assert len(SCANNED) > 10
    offenders = []
    for path in SCANNED:
        for line, name in bare_raises(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(ROOT)}:{line}: raise {name}(...)")
    assert not offenders, ("use message(context, template, ...) or N_(...):\n"
                           + "\n".join(offenders))
