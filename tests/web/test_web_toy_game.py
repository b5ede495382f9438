"""The game contract proved with a game the app has never heard of (docs/ADDING-A-GAME.md):
"Toy Hearts" (tests/toygame, laid out like the repository: rules module, adapter, templates,
stylesheet and its own Japanese catalogue) is installed with the one registry line
(tests/game_install.py) and played on a table through the web layer — new-table form,
entries, a refusal by the adapter and one by the rules with its rule ID, the end with the
lowest total first, history, its stylesheet, Japanese — and through a tournament round —
event form, seating, entrants' phones, lock, standings — without any file of the app
knowing it. A copy without its catalogue plays in English and is reported, not broken."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.pofile import read_po
from game_install import TOY_SLUG, TOYGAME, attach, copy_layout, installed
from helpers import attr, text_of
from test_web_events import create_event, seat_player, seat_round, seatings
from web_helpers import Phone, make_app, standings

from companion import translations
from companion.rules import GAMES
from companion.events import event_format
from companion.web import assets
from companion.web.games import ui_for

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def toy():
    with installed(TOYGAME, TOY_SLUG) as game:
        yield game
    assert TOY_SLUG not in GAMES


@pytest.fixture
def app(toy, tmp_path):
    """The app made while Toy Hearts is installed (its catalogue is found then)."""
    app = make_app(tmp_path)
    attach(app, TOYGAME, tmp_path)
    return app


def create(phone: Phone, names=NAMES, **settings) -> str:
    r = phone.post(f"/new/{TOY_SLUG}", {**{f"name_{i}": n for i, n in enumerate(names)},
                                        "me": "0", **{k: str(v) for k, v in settings.items()}})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    return re.fullmatch(r"/t/([\w-]+)", urlsplit(r.headers["Location"]).path).group(1)


def enter_hand(phone: Phone, table_id: str, points: list):
    """One hand: each seat's points, saved against the version on screen."""
    version = attr(phone.page(table_id), '[name="version"]', "value")
    data = {"sid": f"th-{version}-{'-'.join(map(str, points))}", "version": version}
    data.update({f"points_{pos}": str(p) for pos, p in enumerate(points)})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def totals(page: str, names=NAMES) -> list[str]:
    return [text_of(page, f'td[data-total="{n}"]') for n in names]


def test_toy_hearts_is_offered_and_plays_to_its_end_lowest_first(toy, new_phone):
    assert toy.lowest_wins({}) and ui_for(TOY_SLUG).slug == TOY_SLUG
    ann = new_phone("Ann")
    assert "Toy Hearts" in text_of(ann.get("/new").get_data(as_text=True))
    form = ann.get(f"/new/{TOY_SLUG}").get_data(as_text=True)
    assert "Points that end the game" in text_of(form)              # its house rule, TH-3
    table_id = create(ann, target=30)
    page = ann.page(table_id)
    assert "toyhearts-sheet" in page and "Save hand" in text_of(page)

    # The adapter's refusals, then the rules' refusal with its rule ID; nothing is saved.
    r = enter_hand(ann, table_id, [13, "", 13])
    assert r.status_code == 422 and "Type Bob's points." in text_of(r.get_data(as_text=True))
    # The refusal names its box (EntryError's field): that box alone is marked.
    assert attr(r.get_data(as_text=True), 'input[name="points_1"]', "aria-invalid") == "true"
    assert attr(r.get_data(as_text=True), 'input[name="points_0"]', "aria-invalid") is None
    r = enter_hand(ann, table_id, [13, "x", 13])
    assert r.status_code == 422 and "whole number from 0 to 26" in text_of(r.get_data(as_text=True))
    r = enter_hand(ann, table_id, [13, 5, 7])
    shown = text_of(r.get_data(as_text=True))
    assert r.status_code == 422 and "A hand gives out 26 points, not 25." in shown
    assert "TH-1" in shown
    assert totals(ann.page(table_id)) == ["0", "0", "0"]

    assert enter_hand(ann, table_id, [13, 5, 8]).status_code == 200
    assert enter_hand(ann, table_id, [0, 26, 0]).status_code == 200     # Bob shoots the moon
    page = ann.page(table_id)
    assert totals(page) == ["39", "5", "34"]                           # the end: Ann ≥ 30
    assert attr(page, "td.th-moon", "title") == "Shot the moon"
    assert attr(page, "#rematch", "id") == "rematch"                    # the game is over
    assert enter_hand(ann, table_id, [26, 0, 0]).status_code == 409     # nothing after it
    outcome = toy.outcome({"settings": {"target": 30}, "seats": NAMES,
                           "hands": [{"Ann": 13, "Bob": 5, "Cy": 8},
                                     {"Ann": 0, "Bob": 26, "Cy": 0}]})
    assert outcome.winners == ("Bob",) and outcome.lower_wins
    assert outcome.places == {"Bob": 1, "Cy": 2, "Ann": 3}
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Hand: Ann 13, Bob 5, Cy 8" in history


def test_toy_hearts_brings_its_own_stylesheet(app, new_phone):
    ann = new_phone("Ann")
    table_id = create(ann)
    assert assets.game_styles(TOY_SLUG, app.static_folder) == ("css/games/toyhearts.css",)
    assert assets.game_scripts(TOY_SLUG) == ()
    history = ann.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert re.search(r'href="/static/bundle/toyhearts\.css\?v=\w+"', history)
    bundle = ann.get("/static/bundle/toyhearts.css").get_data(as_text=True)
    assert "#toyhearts-sheet td.th-moon" in bundle
    assert "#toyhearts-sheet" in ann.page(table_id)          # the table page inlines it


def test_toy_hearts_speaks_japanese_from_its_own_catalogue(app, new_phone):
    assert translations.missing("ja", [TOY_SLUG]) == []
    ann = new_phone("Ann")
    ann.client.set_cookie("lang", "ja")
    form = text_of(ann.get(f"/new/{TOY_SLUG}").get_data(as_text=True))
    assert "ゲーム終了の点数" in form and "トイ・ハーツ" in form
    table_id = create(ann)
    page = text_of(ann.page(table_id))
    assert "ハンドを保存" in page and "このハンドで取った点数（合計26点）" in page
    r = enter_hand(ann, table_id, [13, 5, 7])
    assert "1回のハンドで配られるのは26点です（25点ではありません）。" in text_of(
        r.get_data(as_text=True))
    r = enter_hand(ann, table_id, [13, "", 13])
    assert "Bobの点数を入力してください。" in text_of(r.get_data(as_text=True))


def test_toy_hearts_catalogue_holds_every_word_of_its_files():
    """Every word of the toy's files is marked and in its catalogue, as `python -m
    companion.translations update --root tests/toygame --game toyhearts` makes it (the
    words the app's catalogue has are left to it)."""
    (folder, entries), = translations.split(TOYGAME, [TOY_SLUG], main=False,
                                             config=TOYGAME.parent.parent / "babel.cfg").items()
    assert folder == TOYGAME / "companion" / "translations" / "games" / TOY_SLUG
    written = {(context, message) for _f, _l, message, _c, context in entries}
    with open(folder / "messages.pot", "rb") as fh:
        assert written == {(m.context, m.id) for m in read_po(fh) if m.id}
    assert ("toyhearts", "A hand gives out 26 points, not {total}.") in written
    assert (None, "Save hand") in written and (None, "Total") not in written   # the app's


def test_a_game_without_japanese_plays_in_english_and_is_reported(tmp_path):
    bare = copy_layout(TOYGAME, tmp_path, leave_out=("companion/translations",))
    with installed(bare, TOY_SLUG):
        assert TOY_SLUG in translations.missing("ja")
        app = make_app(tmp_path / "instance")
        attach(app, bare, tmp_path)
        ann = Phone(app, "Ann")
        ann.client.set_cookie("lang", "ja")
        form = ann.get(f"/new/{TOY_SLUG}").get_data(as_text=True)
        assert '<html lang="ja"' in form and "Points that end the game" in text_of(form)
        table_id = create(ann)
        page = text_of(ann.page(table_id))
        assert "Save hand" in page and '<html lang="ja"' in ann.page(table_id)
    assert TOY_SLUG not in GAMES


def test_toy_hearts_has_its_event_format():
    with installed(TOYGAME, TOY_SLUG):
        # Not a team game, 3-4 players: its format follows from the rules' Game alone.
        assert event_format(TOY_SLUG) == {
            "slug": TOY_SLUG, "kind": "tables", "min_table": 3, "max_table": 4,
            "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"}


def test_toy_hearts_runs_a_tournament_round_lowest_total_first(toy, app, new_phone, db_path):
    """The event places each table as the game does (Game.outcome): lowest total first."""
    director = new_phone("Director")
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    event_id = create_event(director, players, rounds=1, slug=TOY_SLUG, target=10)
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    assert [len(ids) for _n, _t, ids in tables] == [4, 4]
    hand = [0, 5, 8, 13]                 # seat 0 lowest ... seat 3 highest; 13 ends it
    for _n, table_id, _ids in tables:
        phone = seat_player(app, db_path, table_id)   # seat 0's own phone, through its pass
        r = enter_hand(phone, table_id, hand)
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:800]
    r = director.post(f"/e/{event_id}/lock", {"round": "1"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    points = dict(standings(director.get(f"/e/{event_id}/standings").get_data(as_text=True)))
    for _n, _table_id, ids in tables:
        shown = [float(points[entrant]) for entrant in ids]
        # Seat order is place order here: each seat scores more event points than the next.
        assert shown == sorted(shown, reverse=True) and len(set(shown)) == 4, (ids, shown)


def test_the_toy_game_is_only_in_the_tests():
    assert TOY_SLUG not in GAMES
    assert not Path(translations.game_catalogue_dir(TOY_SLUG)).exists()
