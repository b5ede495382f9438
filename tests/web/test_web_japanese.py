"""Japanese on every screen: a phone that chose 日本語 sees no English sentence.

Every page and live fragment of every registered game (its tour: ``JAPANESE`` in its own
tests/web/test_web_<slug>.py, tests/web/japanese_tour.py) is rendered in
Japanese after real entries, one of them refused: the new-table form with its house rules
(and a refused one), the table page for the host, a seated guest and a spectator, the live
fragments, the answers to each entry, seats, history, the host's tools (rejoin QR, removing
a phone, passing the host role), the game's tool pages (with a verdict and with bad input)
and the game's new-event form. Then the shared pages: the start page, the game chooser,
error pages, and a whole tournament (dashboard, standings, projector, players' page, table
cards, pairings, corrections, penalties, the clock, registration), with refusals.

The check reads each page as a player does: its visible text (no scripts or styles) and the
attributes players read or hear (placeholder, title, aria-label, alt, hx-confirm, the value
of a button or a text box, and the data-* words the page's script shows). A run of two or
more ASCII words of two or more letters, or one common English word on its own, is English;
every offending text of every page is reported at once.

Allowed to stay as they are (ALLOWED, NAMES below; keep the lists short): game names, the
players' names this test types, "English" (the language switch), rule IDs (RK-7, ROC-A12,
RID-A7, RR-A1…), card notation and codes (upper-case tokens: KQWMTR, 10H, JK, ROOK),
numbers, URLs, and the few things an operator types (a command, an environment variable).

The catalogues themselves (the app's and each game's, companion/translations): every message
has Japanese (no empty msgstr, no fuzzy entry), keeps its msgid's {fields} and %(fields)s,
is in one catalogue only, and each compiled messages.mo matches its messages.po. A game
without a Japanese catalogue is named in a warning (its words show in English).
"""
from __future__ import annotations

import re
import string
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion import translations
from companion.rules import GAMES as REGISTERED
from helpers import Node, attr, form_block, parse, select, text_of
from japanese_tour import tour_of
from web_helpers import Phone, claim_code, create_game_table, local_link

#: Every Japanese catalogue: the app's, each registered game's, and the toy game's
#: (tests/toygame, which the app doesn't register).
REPOSITORY = Path(__file__).resolve().parent.parent.parent
TOYGAME = REPOSITORY / "tests" / "toygame"
CATALOGUES = {
    Path(folder).name if folder != str(translations.HERE) else "app":
        Path(folder) / "ja" / "LC_MESSAGES"
    for folder in [*translations.catalogue_dirs(REGISTERED),
                   *map(str, (TOYGAME / "companion" / "translations" / "games").glob("*"))]
}

# ---------------------------------------------------------------- what may stay as it is

#: Players' names this test types (names are never translated).
NAMES = ("Ann", "Bob", "Cy", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Jörg")
#: Text that stays as it is on a Japanese screen: game names, the language switch's
#: "English", and what a server's operator types (shown to the host on a local server).
ALLOWED = (
    "Rocca Card Tower", "RockIt to Destiny", "RockIt", "Rainbow Rummy 333", "Rainbow Rummy",
    "Zock'n'Roll", "Rook",
    "English",
    "companion serve --host", "companion serve", "gunicorn -b", "COMPANION_PUBLIC_URL",
    "Wi-Fi", "Ctrl+P",
    # card notation a player types: RockIt's declared jokers ("5♥ 6♥ JK, joker = 4♥")
    "jokers =", "joker =",
)
#: Removed before looking for words: URLs and rule IDs (RK-7b, ZNR-2, ROC-A12, RID-A7).
NOT_WORDS = re.compile(r"https?://\S+|\b[A-Z]{1,4}(?:-[A-Z]{0,2}\d+[a-z]?)+\b")
#: A word: ASCII letters (an apostrophe inside, as in "isn't"), two or more, not all upper
#: case (upper case is card notation, a join code or an abbreviation like QR, CSV, UTC).
WORD = re.compile(r"[A-Za-z][A-Za-z']*[A-Za-z]")
#: English words that are English even on their own.
COMMON = frozenset("""
    the an and or of to in on at for with by from is are was were be been it its this that
    these those you your yours me my we our us he she they them their his her not no yes all
    any some each every new game games table tables player players round rounds score scores
    points point seat seats entry entries host join save saved undo cards card hand hands
    turn wins win won lost draw drew drawn start starts next back page name names team teams
    rules rule total over live offline online polling connecting reconnecting help check
    pick tap open close lock locked tie bye dropped late event events standings pairings
    director spectator watching watch phone phones code minutes min left done ok cancel
    confirm reject strike restore rematch bid made set trick trump dealer deals deal joker
    dice die roll rolled stay drop reveal out one played place places result results
""".split())
#: Attributes a player reads (or hears from a screen reader).
READ_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt", "hx-confirm", "data-live",
                   "data-polling", "data-reconnecting", "data-offline", "data-entry",
                   "data-up", "data-format", "data-empty")
TEXT_INPUTS = ("", "text", "search", "submit", "button", "reset")
SKIPPED = frozenset({"script", "style", "svg", "template"})
_NAMES = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in NAMES) + r")\b")


def english_runs(text: str) -> list[str]:
    """The English in one piece of text: runs of 2+ words, or one common English word."""
    text = text.replace("’", "'").replace("‘", "'")
    for phrase in ALLOWED:
        text = text.replace(phrase, " ")
    text = NOT_WORDS.sub(" ", _NAMES.sub(" ", text))
    runs, run, last_end = [], [], 0
    for match in WORD.finditer(text):
        word = match.group()
        if word.isupper():
            between = "·"                   # a code or notation ends a run
        else:
            between = text[last_end:match.start()]
        # Words are one run while only ASCII (spaces, punctuation, digits) separates them.
        if run and not between.isascii():
            runs.append(run)
            run = []
        if not word.isupper():
            run.append(word)
        last_end = match.end()
    if run:
        runs.append(run)
    return [" ".join(r) for r in runs
            if len(r) >= 2 or r[0].lower().strip("'") in COMMON]


def _texts(node: Node, where: str = ""):
    """(text, where) of every text node and every attribute a player reads, in order."""
    if isinstance(node, str):
        yield node, where
        return
    if node.tag in SKIPPED:
        for name in ("aria-label", "title"):
            if node.get(name):
                yield node.get(name), f"<{node.tag} {name}>"
        return
    here = f"<{node.tag}" + (f" id={node.id}" if node.id else "") + ">"
    for name in READ_ATTRIBUTES:
        if node.get(name):
            yield node.get(name), f"{here} {name}="
    if node.tag == "input" and (node.get("type") or "").lower() in TEXT_INPUTS \
            and node.get("value"):
        yield node.get("value"), f"{here} value="
    for child in node.children:
        yield from _texts(child, here if isinstance(child, str) else where)


def english_in(page: str) -> list[str]:
    """Every English run of a page or fragment, with where it stands."""
    found = []
    for text, where in _texts(parse(page)):
        for run in english_runs(text):
            found.append(f"{run!r} in {where} {' '.join(text.split())[:160]!r}")
    return found


def test_the_english_finder_finds_english_and_leaves_the_rest():
    assert english_runs("Your turn") == ["Your turn"]
    assert english_runs("Annの番") == []
    assert english_runs("Ann drew a card.") == ["drew card"]
    assert english_runs("記録 #3 を取り消した") == []
    assert english_runs("live") == ["live"]
    assert english_runs("RK-7 · ROC-A12 · RID-A7 · 10H QS JK ROOK · KQWMTR · QR · CSV") == []
    assert english_runs("Zock’n’Roll：一番いい役は？ Rocca Card Tower · English") == []
    assert english_runs("Jörg · Ann & Cid · http://192.168.1.23:8000/j/AB") == []
    assert english_runs("ラウンド1 of 2") == ["of"]
    assert english_runs("勝ち点 Buchholz") == []          # one uncommon word: not flagged
    assert english_runs("Median-Buchholz スコア") == ["Median Buchholz"]
    page = ('<html><head><title>x</title><script>var a = "not shown";</script></head><body>'
            '<p>参加 <b>Ann</b></p><input placeholder="Type your name"><button title="記録">'
            '保存</button><input type="hidden" name="kind" value="come in">'
            '<span data-live="live">ライブ</span></body></html>')
    found = english_in(page)
    assert len(found) == 2 and "Type your name" in found[0] and "'live'" in found[1], found


# ---------------------------------------------------------------- visiting pages

#: A refusal whose exact status another test checks.
REFUSED = tuple(range(400, 500))


class Screens:
    """Every page a test shows, with the English found on it (reported all at once)."""

    def __init__(self):
        self.english: dict[str, list[str]] = {}
        self.count = 0

    def check(self, label: str, response, status: int | tuple = 200) -> str:
        body = response.get_data(as_text=True)
        wanted = status if isinstance(status, tuple) else (status,)
        assert response.status_code in wanted, (label, response.status_code, text_of(body)[:800])
        if response.mimetype == "text/html" and body.strip():
            self.count += 1
            if body.lstrip().lower().startswith("<!doctype"):
                assert '<html lang="ja"' in body, (label, body[:300])
            found = english_in(body)
            if found:
                self.english.setdefault(label, []).extend(found)
        return body

    def follow(self, label: str, phone: Phone, response, status: int = 200) -> str:
        """A 303 and the page it leads to."""
        assert response.status_code in (302, 303), (label, response.status_code,
                                                    text_of(response.get_data(as_text=True))[:800])
        location = urlsplit(response.headers["Location"])
        path = location.path + (f"?{location.query}" if location.query else "")
        return self.check(label, phone.get(path), status)

    def assert_japanese(self) -> None:
        assert self.count, "no page was checked"
        report = "\n".join(f"{label}:\n    " + "\n    ".join(found)
                           for label, found in self.english.items())
        assert not self.english, (f"English on {len(self.english)} of {self.count} Japanese "
                                  f"screens:\n{report}")


def japanese_phone(app, name: str) -> Phone:
    phone = Phone(app, name)
    phone.client.set_cookie("lang", "ja")
    return phone


def press(phone: Phone, table_id: str, marker: str, fields: dict):
    """Press a button of a form on the table page as it stands now: the form's hidden
    fields (csrf, sid, version…) as a browser sends them, plus `fields`, posted the way
    htmx does to the form's action."""
    page = phone.page(table_id)
    form = parse(form_block(page, marker)).select_one("form")
    data = {n.get("name"): n.get("value", "") for n in form.select('input[type="hidden"]')
            if n.get("name")}
    data.update({k: str(v) for k, v in fields.items()})
    return phone.post(form.get("action"), data, hx=True)


# ---------------------------------------------------------------- the games

#: Every registered game's tour (its own ``JAPANESE``, tests/web/japanese_tour.py).
TOURS = [tour for tour in map(tour_of, REGISTERED) if tour is not None]


def test_every_game_has_a_tour_and_a_refused_entry():
    """Every registered game that speaks Japanese has its tour, with a refused entry. A game
    without a Japanese catalogue yet shows its own words in English: reported (a warning
    naming it, as `companion doctor` does), not a failure."""
    english_only = translations.missing("ja", REGISTERED)
    if english_only:
        warnings.warn(f"no Japanese catalogue (their words show in English): "
                      f"{', '.join(english_only)}", stacklevel=1)
    lacking = [slug for slug in REGISTERED if tour_of(slug) is None and slug not in english_only]
    assert not lacking, f"no JAPANESE tour in tests/web/test_web_<slug>.py for {lacking}"
    for game in TOURS:
        assert any(step.status == 422 for step in game.steps), game.slug


def test_every_tool_page_has_a_row(app):
    """Every tool page (a GET route of a *tools blueprint) is in some game's tour."""
    routes = {rule.rule for rule in app.url_map.iter_rules()
              if "GET" in rule.methods and rule.endpoint.split(".")[0].endswith("tools")}
    rows = {urlsplit(path).path for game in TOURS for path in game.tools}
    rows |= {"/t/<table_id>" + urlsplit(path).path for game in TOURS for path in game.table_tools}
    assert routes and routes <= rows, sorted(routes - rows)


@pytest.mark.parametrize("game", TOURS, ids=[g.slug for g in TOURS])
def test_every_screen_of_a_game_is_japanese(app, game):
    screens = Screens()
    host = japanese_phone(app, "host")
    slug = game.slug
    screens.check(f"GET /new/{slug} (new-table form)", host.get(f"/new/{slug}"))
    screens.check(f"GET /events/new/{slug} (new-event form)", host.get(f"/events/new/{slug}"))
    refused = {"name_0": game.names[0], "name_1": game.names[0], "me": "0"}
    screens.check(f"POST /new/{slug} (refused: the same name twice)",
                  host.post(f"/new/{slug}", refused), 422)
    table_id = create_game_table(host, slug, game.names, **game.table)
    screens.check("the host's first screen", host.get(f"/t/{table_id}"))

    guest = japanese_phone(app, "guest")
    join = host.join_path(table_id)
    screens.follow("a guest scans the QR: seats", guest, guest.join(join))
    screens.follow("the guest sits down", guest, guest.claim(table_id, 1))
    watcher = japanese_phone(app, "watcher")
    watcher.join(join)
    screens.follow("a spectator just watches", watcher, watcher.claim(table_id, "watch"))

    for n, step in enumerate(game.steps, 1):
        phone = host if step.by == "host" else guest
        outcome = "refused" if step.status == 422 else "saved"
        label = f"step {n} {step.fields or step.form} ({outcome})"
        screens.check(label, press(phone, table_id, step.form, step.fields), step.status)

    screens.check("the table page (host)", host.get(f"/t/{table_id}"))
    screens.check("the table page (guest)", guest.get(f"/t/{table_id}"))
    screens.check("the table page (spectator)", watcher.get(f"/t/{table_id}"))
    # The live fragment: the sheet and the entry form in one answer.
    screens.check("GET /t/<id>/play (live fragment)", host.get(f"/t/{table_id}/play", hx=True))
    screens.check("the spectator's live fragment", watcher.get(f"/t/{table_id}/play", hx=True))
    screens.check("history", host.get(f"/t/{table_id}/history"))
    screens.check("history (live fragment)", host.get(f"/t/{table_id}/history", hx=True))
    screens.check("seats (host)", host.get(f"/t/{table_id}/seats"))
    screens.check("rejoin QR for seat 2", host.post(f"/t/{table_id}/host/rejoin", {"seat": "1"}))
    for path in game.table_tools:
        screens.check(f"GET /t/<id>{path}", host.get(f"/t/{table_id}{path}"), (200, 422))
    for path in game.tools:
        screens.check(f"GET {path}", host.get(path), (200, 422))
    screens.assert_japanese()


def test_the_shared_screens_are_japanese(app):
    """The start page, the chooser, errors, the host's tools, history marks, and refusals of
    the table service, on a score pad."""
    screens = Screens()
    ann = japanese_phone(app, "Ann's phone")
    for path in ("/", "/new", "/events/new", "/?code=kqwmtr"):
        screens.check(f"GET {path}", ann.get(path))
    screens.check("a join code that opens nothing", ann.post("/join", {"code": "QZQZQZ"}), 404)
    screens.check("a join code that is too short", ann.post("/join", {"code": "QZ"}), REFUSED)
    screens.check("a page that does not exist", ann.get("/t/nothing-here"), 404)
    screens.check("a page that does not exist (htmx)", ann.get("/t/nothing-here", hx=True), 404)
    screens.check("a form without its CSRF token", ann.post("/join", {"code": "QZQZQZ"},
                                                            csrf=False), 400)
    screens.check("the language switch with a wrong language", ann.get("/language?to=fr"), 400)
    screens.check("a method the page does not take", ann.client.delete("/"), 405)

    table_id = create_game_table(ann, "scorepad", ["Ann", "Bob", "Cy"], target=50)
    stranger = japanese_phone(app, "stranger")
    screens.check("a table opened without joining", stranger.get(f"/t/{table_id}"), 403)
    bob = japanese_phone(app, "Bob's phone")
    join = ann.join_path(table_id)
    bob.join(join)
    bob.claim(table_id, 1)
    late = japanese_phone(app, "late")
    late.join(join)
    screens.check("a seat that is taken", late.post(f"/t/{table_id}/seats", {"seat": "1"}),
                  REFUSED)
    # Target 50: striking Ann's -20 would end the game at her +60, before Bob's +5.
    for scores in ({0: -20}, {0: 60}, {1: 5}):
        assert ann.enter(table_id, scores).status_code == 200
    first, *_, last = _entries(ann, table_id, "game")
    screens.check("striking an entry that later ones need (refused)",
                  ann.undo(table_id, first, sid="strike-first", from_history=True), 422)
    screens.check("striking the last entry", ann.undo(table_id, last, sid="strike-last",
                                                      from_history=True))
    screens.check("history with a struck entry", ann.get(f"/t/{table_id}/history"))
    strike = _entries(ann, table_id, "undo")[-1]
    screens.check("restoring it", ann.undo(table_id, strike, sid="restore", from_history=True))
    screens.check("history with a restored entry", ann.get(f"/t/{table_id}/history"))
    screens.check("a stale form (conflict)", ann.enter(table_id, {0: 1, 1: 0, 2: 0}, sid="old",
                                                         version=1),
                  409)
    screens.check("removing Bob's phone", ann.post(f"/t/{table_id}/host/release",
                                                   {"seat": "1"}, hx=True))
    screens.check("Bob's phone after it was removed", bob.get(f"/t/{table_id}"))
    screens.check("Bob tries to sit again", bob.post(f"/t/{table_id}/seats", {"seat": "1"}),
                  REFUSED)
    rejoin = screens.check("a rejoin QR for Bob's seat", ann.post(f"/t/{table_id}/host/rejoin",
                                                                  {"seat": "1"}))
    new_phone = japanese_phone(app, "Bob's new phone")
    screens.follow("Bob's new phone scans it", new_phone,
                   new_phone.join(local_link(attr(rejoin, "a#rejoin-url", "href"))))
    screens.check("a rematch while the game goes on", ann.post(
        f"/t/{table_id}/rematch", {"sid": "rematch", "version": "99"}, hx=True), REFUSED)
    screens.check("the last round: Ann reaches 60", ann.enter(table_id, {0: 20}))
    screens.check("the game is over", ann.get(f"/t/{table_id}"))
    screens.check("a rematch", press(ann, table_id, "/rematch", {}))
    screens.check("game 2 with the earlier game", ann.get(f"/t/{table_id}"))
    screens.check("the whole history", ann.get(f"/t/{table_id}/history"))
    screens.check("passing the host role", ann.post(f"/t/{table_id}/host/pass", {"seat": "2"},
                                                    hx=True))
    screens.check("the old host's page", ann.get(f"/t/{table_id}"))
    screens.check("a host tool from a phone that never joined", stranger.post(
        f"/t/{table_id}/host/release", {"seat": "0"}), 403)
    screens.assert_japanese()


def _entries(phone: Phone, table_id: str, kind: str) -> list[int]:
    """The numbers of the history's entries of one kind ("game", "undo"), oldest first."""
    page = phone.get(f"/t/{table_id}/history").get_data(as_text=True)
    return sorted(int(li.id.removeprefix("action-")) for li in select(page, f"li.h-{kind}"))


EVENT_PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_the_tournament_screens_are_japanese(app):
    screens = Screens()
    director = japanese_phone(app, "director")
    base = {"event_name": "クラブの夜", "event_rounds": "2", "rounds": "1"}
    screens.check("a new event without players (refused)", director.post(
        "/events/new/scorepad", {**base, "entrants": ""}), 422)
    r = director.post("/events/new/scorepad", {**base, "entrants": "\n".join(EVENT_PLAYERS),
                                               "registration": "on"})
    event_id = urlsplit(r.headers["Location"]).path.split("/")[2]
    screens.follow("the new event's dashboard", director, r)
    e = f"/e/{event_id}"
    screens.check("a name that is already on the list (refused)",
                  director.post(f"{e}/entrants", {"action": "add", "name": "Bob"}), 422)
    screens.check("locking a round that is not seated (refused)",
                  director.post(f"{e}/lock", {"round": "1"}), REFUSED)
    screens.check("the clock before a round (refused)",
                  director.post(f"{e}/clock", {"action": "start", "minutes": "30"}), 422)
    screens.check("pairings before a round", director.get(f"{e}/pairings"))
    screens.follow("seating round 1", director, director.post(f"{e}/seat"))
    screens.follow("starting the clock", director, director.post(
        f"{e}/clock", {"action": "start", "minutes": "30"}))
    screens.check("the room (live fragment)", director.get(e, hx=True))
    for path in ("standings", "projector", "players", "players?name=Cy", "cards",
                 "cards?per_page=1", "pairings", "correct?round=1&table=1"):
        screens.check(f"GET /e/<id>/{path}", director.get(f"{e}/{path}"))
    screens.check("the projector (live fragment)", director.get(f"{e}/projector", hx=True))
    form = director.get(f"{e}/correct?round=1&table=1").get_data(as_text=True)
    places = dict.fromkeys(n.get("name") for n in select(form, 'select[name^="place_"]'))
    result = {name: str(i) for i, name in enumerate(places, 1)}
    screens.check("a correction without a reason (refused)", director.post(
        f"{e}/correct", {"round": "1", "table": "1", **result}), 422)
    screens.follow("a correction", director, director.post(
        f"{e}/correct", {"round": "1", "table": "1", "why": "入力ミス", **result}))
    screens.check("locking with a table still playing (refused)",
                  director.post(f"{e}/lock", {"round": "1"}), 422)
    screens.check("a penalty without a reason (refused)", director.post(
        f"{e}/adjustments", {"action": "add", "entrant": "Ann", "points": "-2", "reason": ""}),
        422)
    screens.follow("a penalty", director, director.post(
        f"{e}/adjustments", {"action": "add", "entrant": "Ann", "points": "-2",
                             "reason": "遅延", "round": "1"}))
    screens.check("a swap within one table (refused)", director.post(
        f"{e}/swap", {"round": "1", "entrant_a": "Ann", "entrant_b": "Ann"}), 422)
    screens.follow("a director's link for a helper", director,
                   director.post(f"{e}/director-link"))
    screens.check("standings after a result", director.get(f"{e}/standings"))

    player = japanese_phone(app, "Cy's phone")
    screens.check("the players' page", player.get(f"{e}/players"))
    screens.check("a name that is not on the list", player.post(f"{e}/pick", {"name": "Zed"}),
                  404)
    screens.check("no name at all", player.post(f"{e}/pick", {"name": ""}), 404)
    screens.check("a wrong claim code (refused)", player.post(
        f"{e}/pick", {"name": "Cy", "code": "ZZZZZZ"}), 403)
    screens.follow("this is me: Cy", player, player.post(f"{e}/pick", {
        "name": "Cy", "code": claim_code(app.config["DATABASE"], event_id, "Cy")}))
    screens.check("a table card scanned by a stranger", _follow_all(
        japanese_phone(app, "stranger"), f"{e}/t/1"), (200, 403, 404))
    newcomer = japanese_phone(app, "newcomer")
    screens.check("registering without a name (refused)",
                  newcomer.post(f"{e}/register", {"member_0": ""}), 422)
    screens.follow("registering", newcomer, newcomer.post(f"{e}/register", {"member_0": "Fay2"}))
    screens.check("another browser tries a director's tool", newcomer.post(
        f"{e}/lock", {"round": "1"}), 403)
    screens.check("an event that does not exist", newcomer.get("/e/nothing-here"), 404)
    screens.assert_japanese()


def _follow_all(phone: Phone, path: str):
    response = phone.get(path)
    while response.status_code in (302, 303):
        location = urlsplit(response.headers["Location"])
        response = phone.get(location.path + (f"?{location.query}" if location.query else ""))
    return response


# ---------------------------------------------------------------- the catalogue

_PERCENT = re.compile(r"%\((\w+)\)[sd]")


def _fields(text: str) -> set[str]:
    found = set(_PERCENT.findall(text))
    try:
        found |= {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:           # a msgid with a lone brace is no str.format template
        pass
    return found


def _lone_percents(text: str) -> int:
    """How many % signs are neither "%%" nor a "%(name)s" field: Jinja's gettext formats
    every template string (newstyle), so a translation's bare % (28%, （%）) is an error
    at render time unless its msgid has one too."""
    return _PERCENT.sub("", text).replace("%%", "").count("%")


def _forms(value) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _catalogue(folder: Path):
    with open(folder / "messages.po", "rb") as fh:
        return read_po(fh, locale="ja")


def test_every_game_catalogue_is_found():
    """The app's catalogue and each game's are all checked below (the folders derive from
    the registry: a game's catalogue needs no line here)."""
    assert {"app", *REGISTERED} - set(translations.missing("ja", REGISTERED)) <= set(CATALOGUES)
    assert all((folder / "messages.po").is_file() for folder in CATALOGUES.values()), CATALOGUES


def test_a_message_is_in_one_catalogue():
    """A game's catalogue holds only its own words: the web merges the catalogues, and a
    message in two of them would be translated by whichever comes last."""
    seen: dict = {}
    twice = []
    for name, folder in CATALOGUES.items():
        if name not in REGISTERED and name != "app":
            continue                     # the toy game is not part of the app
        for m in _catalogue(folder):
            if m.id:
                key = (m.context, _forms(m.id))
                if key in seen:
                    twice.append(f"{key} in {seen[key]} and {name}")
                seen[key] = name
    assert not twice, "\n".join(twice)


def test_each_catalogue_holds_the_words_written_in_its_files():
    """`python -m companion.translations update` would move no message: a game's catalogue
    holds the words written only in its own files, the app's the rest (docs/I18N.md)."""
    for folder, entries in translations.split(REPOSITORY).items():
        written = {(context, _forms(message)) for _f, _l, message, _c, context in entries}
        if not (folder / "messages.pot").is_file() and folder.parent.name == "games":
            # A game that ships no catalogue yet: its words show in English, and
            # test_every_game_has_a_tour_and_a_refused_entry names it (a warning).
            assert folder.name in translations.missing("ja"), folder
            continue
        with open(folder / "messages.pot", "rb") as fh:
            template = {(m.context, _forms(m.id)) for m in read_po(fh) if m.id}
        assert written == template, (folder, sorted(written - template)[:5],
                                     sorted(template - written)[:5])


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_message_has_japanese_with_the_same_fields(name):
    """No empty msgstr and no fuzzy entry: a sentence without Japanese would show English on
    a Japanese phone. A translation keeps every {field} and %(field)s of its msgid."""
    empty, fuzzy, fields = [], [], []
    for m in _catalogue(CATALOGUES[name]):
        if not m.id:
            continue
        english = _forms(m.id)
        where = f"{m.context + ' | ' if m.context else ''}{english[0]!r}"
        if not all(_forms(m.string)):
            empty.append(where)
        if m.fuzzy:
            fuzzy.append(where)
        for string_ in _forms(m.string):
            if string_ and _fields(string_) != _fields(english[-1 if len(english) > 1 else 0]) \
                    and _fields(string_) != _fields(english[0]):
                fields.append(f"{where} -> {string_!r}")
            if string_ and _lone_percents(string_) > _lone_percents(english[0]):
                fields.append(f"{where} -> {string_!r} (a bare %: write %%)")
    assert not empty, f"{len(empty)} messages without Japanese:\n" + "\n".join(empty)
    assert not fuzzy, f"{len(fuzzy)} fuzzy messages:\n" + "\n".join(fuzzy)
    assert not fields, "translations that lose or add a field:\n" + "\n".join(fields)


def _text(value):
    return value.decode() if isinstance(value, bytes) else value   # read_mo gives bytes


@pytest.mark.parametrize("name", CATALOGUES)
def test_the_compiled_catalogue_matches_the_po_file(name):
    """messages.mo ships in the wheel: it must be `pybabel compile` of the current
    messages.po (docs/I18N.md)."""
    with open(CATALOGUES[name] / "messages.mo", "rb") as fh:
        compiled = {(_text(m.context), _forms(m.id)): _forms(m.string) for m in read_mo(fh)
                    if m.id}
    problems = []
    written = {(m.context, _forms(m.id)): m for m in _catalogue(CATALOGUES[name]) if m.id}
    for key, m in written.items():
        strings = _forms(m.string)
        if all(strings) and not m.fuzzy:
            if compiled.get(key) != strings:
                problems.append(f"{key}: compiled {compiled.get(key)!r}, written {strings!r}")
    for key, strings in compiled.items():
        m = written.get(key)
        if m is None:
            problems.append(f"{key}: compiled, but not in messages.po")
        elif not all(_forms(m.string)) or m.fuzzy:
            # pybabel compiles an untranslated plural with its English forms.
            english = tuple(key[1][min(i, len(key[1]) - 1)] for i in range(len(strings)))
            if strings != english:
                problems.append(f"{key}: compiled {strings!r}, but messages.po has none")
    assert not problems, (f"compile the {name} catalogue (docs/I18N.md):\n"
                          + "\n".join(problems[:50]))


def test_the_templates_catalogue_follows_the_locale_through_flask_babels_public_api(app):
    """The templates' ``_()`` keeps this request's catalogue beside its locale (public
    ``get_locale()``, no Flask-Babel internals); ``force_locale`` and ``refresh`` are
    followed."""
    from flask_babel import force_locale, refresh

    from companion.web import i18n

    assert "_flask_babel" not in Path(i18n.__file__).read_text(encoding="utf-8")
    with app.test_request_context("/", headers={"Cookie": "lang=ja"}):
        ja = i18n._translations()
        assert i18n._translations() is ja
        assert ja.gettext("Score pad") != "Score pad"            # from scorepad's catalogue
        with force_locale("en"):
            assert i18n._translations().gettext("Score pad") == "Score pad"
        assert i18n._translations().gettext("Score pad") == ja.gettext("Score pad")
        refresh()
        assert i18n._translations().gettext("Score pad") == ja.gettext("Score pad")
