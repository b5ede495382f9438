"""A table with a long evening behind it: the history comes in pages (newest first, "Older
entries" links; the export keeps everything), and striking an entry of an early game from
an older page gives the right sheet and earlier games."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from companion import tables
from companion.storage import connect
from helpers import attr, form_block, forms, inputs, select, text_of, totals
from web_helpers import Phone, make_app, seq_saved

PAGE = 10


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path, HISTORY_PAGE=PAGE)


@pytest.fixture
def pad(app):
    """Ann hosts a two-seat score pad of one round a game; Bob sits down."""
    ann, bob = Phone(app, "Ann"), Phone(app, "Bob")
    table_id = ann.create_table(["Ann", "Bob"], me=0, rounds=1)
    assert bob.join(ann.join_path(table_id)).status_code == 303
    assert bob.claim(table_id, 1).status_code == 303
    return table_id, ann, bob


def listed(page: str) -> list[int]:
    """The entry numbers a history page lists, top to bottom."""
    return [int(li.id.removeprefix("action-")) for li in select(page, 'li[id^="action-"]')]


def older_link(page: str) -> str | None:
    found = select(page, "a#history-older")
    return found[0].get("href") if found else None


def play(table_id: str, ann: Phone, games: int) -> list[int]:
    """Play `games` one-round games (Ann 1 + game number, Bob 2) with a rematch after each;
    the seq of each game's round."""
    rounds = []
    for game in range(games):
        rounds.append(seq_saved(ann.enter(table_id, {0: game + 1, 1: 2})))
        page = ann.page(table_id)
        r = ann.post(f"/t/{table_id}/rematch", {"sid": inputs(form_block(page, "/rematch"))["sid"]},
                     hx=True)
        assert r.status_code == 200
    return rounds


def test_the_history_comes_in_pages_newest_first(pad, app):
    table_id, ann, bob = pad
    play(table_id, ann, 12)
    with app.app_context():
        db = connect(app.config["DATABASE"])
        log = [a.seq for a in tables.history(db, tables.get_table(db, table_id))]
        exported = tables.export_table(db, tables.get_table(db, table_id))
    assert len(log) > 2 * PAGE
    seen: list[int] = []
    url = f"/t/{table_id}/history"
    pages = 0
    while url:
        page = bob.get(url).get_data(as_text=True)
        shown = listed(page)
        assert shown == sorted(shown, reverse=True) and 0 < len(shown) <= PAGE
        seen += shown
        pages += 1
        # An older page links back to the newest entries; the newest page doesn't.
        assert bool(select(page, "a#history-newest")) == (pages > 1)
        url = older_link(page)
        if url:
            assert parse_qs(urlsplit(url).query)["before"] == [str(shown[-1])]
    assert seen == log[::-1]                       # every entry once, newest first
    assert pages == -(-len(log) // PAGE)
    # The export keeps the whole log, whatever the page size.
    assert [a["seq"] for a in exported["actions"]] == log


@pytest.mark.parametrize("before", ["abc", "-1", "", "9" * 40, "0", "1", "１２"])
def test_a_bad_page_number_shows_the_newest_entries(pad, before):
    table_id, ann, _bob = pad
    play(table_id, ann, 2)
    r = ann.get(f"/t/{table_id}/history?before={before}")
    assert r.status_code == 200
    newest = listed(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert listed(r.get_data(as_text=True)) == newest and len(newest) > 4


def test_striking_an_early_games_entry_from_an_older_page(pad):
    table_id, ann, bob = pad
    rounds = play(table_id, ann, 12)
    assert ann.enter(table_id, {0: 4, 1: 4}).status_code == 200   # game 13, over too
    url = f"/t/{table_id}/history"
    page = bob.get(url).get_data(as_text=True)
    while rounds[1] not in listed(page):
        url = older_link(page)
        page = bob.get(url).get_data(as_text=True)
    before = parse_qs(urlsplit(url).query)["before"][0]
    form = next(f for f in forms(page) if f'value="{rounds[1]}"' in f.html)
    fields = inputs(form.html)
    assert fields["before"] == before and fields["from"] == "history"
    # htmx: the answer is the same older page, with the entry struck.
    r = bob.post(f"/t/{table_id}/undo", {k: fields[k] for k in ("sid", "target", "from", "before")},
                 hx=True)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and f"Entry #{rounds[1]} was struck" in text_of(body)
    assert attr(body, f"#action-{rounds[1]}", "class") == "h-game struck"
    assert listed(body) == listed(page)
    assert f"before={before}" in attr(body, "section#history", "hx-get")
    # The sheet: game 2 has no round left; every other game and the current one unchanged.
    sheet = ann.page(table_id)
    earlier = text_of(sheet, "details.past")
    # Twelve earlier games, and the current one (over) listed as just finished.
    assert earlier.startswith("Earlier games (13)") and "Game 13 · " in earlier
    assert earlier.count("just finished") == 1
    assert "Ann 2, Bob 2" not in earlier and "Ann 0, Bob 0" in earlier
    assert all(f"Ann {n}, Bob 2" in earlier for n in (1, 3, 12))
    assert totals(sheet) == {"Ann": 4, "Bob": 4}
    # A plain form goes back to the page it came from.
    form = next(f for f in forms(page) if f'value="{rounds[2]}"' in f.html)
    fields = inputs(form.html)
    r = bob.post(f"/t/{table_id}/undo", {k: fields[k] for k in ("sid", "target", "from", "before")})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/history?before={before}")
