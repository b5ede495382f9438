"""A group's pages on a small phone.

- After a game finished at the group's table, the group page's "Statistics" shows the
  game's table of players (games, wins, win %, average, best) within 375 px, a long name
  wrapping in its column rather than widening the page.
- The family's second evening: the group made from last week's finished Rook table ("keep
  these players"), tonight's table takes its players by tapping, two games are played (a
  hand struck and entered again), and the group page shows both evenings dated, the right
  winners and Rook figures (against a hand computation), the CSV says the same, a recent
  game opens its read-only sheet, whose picture downloads as a PNG, and a player's page
  shows the chart of wins. Then a paper game from the group's new-table form resumes at
  340-285, is played to its end and recorded with the right winner, the paper totals in
  its scores and only its two hands in the Rook figures.

Screenshots: test-artifacts/group-stats-375-{light,dark}.png,
group-{evenings,game,player}-375-{light,dark,ja}.png, group-figures-375-{light,dark}.png.
"""
from __future__ import annotations

import csv
import io
import re
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
LONG = "Maximilian-Alexander"


def test_group_statistics_fit_a_small_phone(phones, artifacts_dir, ui):
    page = phones("Ann", viewport=SMALL).page
    page.goto("/g/new")
    page.locator("input[name=name]").fill("Friday")
    page.locator("textarea[name=players]").fill(f"{LONG}\nBob\n")
    page.locator("form.group-form button[type=submit]").click()
    expect(page.locator("#group-name")).to_have_text("Friday")
    group_url = page.url
    page.goto(group_url + "/new/scorepad")
    # By name: "Player 1" also labels the paper sheet's box for the first player's total.
    page.locator("input[name=name_0]").fill(LONG)
    page.locator("input[name=name_1]").fill("Bob")
    page.locator("#change-rules > summary").click()
    page.get_by_label("Target score").fill("50")
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(LONG)
    ui.enter_round(page, {0: 60, 1: 35})
    page.goto(group_url + "#stats")
    rows = page.locator('#stats .group-stats[data-section="scorepad"] tbody tr')
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_text(re.compile(rf"{LONG}\s*1\s*1\s*100\s*60\s*60"))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= 375, f"the group page is {width}px wide"
        table = page.locator("#stats table").bounding_box()
        assert table["x"] >= 0 and table["x"] + table["width"] <= 375
        page.locator("#stats").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts_dir / f"group-stats-375-{scheme}.png"))


# ---------------------------------------------------------------- the family's second evening

# Last week's Rook (family rules, 250 a hand, to 300): Mom & Leo (A) against Dad & Mia (B).
LAST_WEEK = [dict(bidder="Dad", bid="150", points_A="100", points_B="150"),   # B made
             dict(bidder="Mom", bid="160", points_A="200", points_B="50")]    # A 300: over
# Tonight, seats tapped Dad, Mom, Mia, Leo: Dad & Mia (A) against Mom & Leo (B).
TONIGHT_1 = [dict(bidder="Mom", bid="150", points_A="120", points_B="130"),   # B set
             dict(bidder="Dad", bid="180", points_A="200", points_B="50")]    # struck
REDONE = dict(bidder="Dad", bid="180", points_A="190", points_B="60")         # A 310
TONIGHT_2 = [dict(bidder="Leo", bid="200", points_A="50", points_B="200"),    # B made
             dict(bidder="Mia", bid="150", points_A="100", points_B="150")]   # A set; B 350
# The Rook figures by hand over the three games (the struck hand left out):
# bids: Dad 150 made, 180 made; Mom 160 made, 150 set; Leo 200 made; Mia 150 set.
# Biggest hand: each player's team's best change in a hand they played: Dad and Mia
# +190 (tonight's redone hand), Mom and Leo +200 (last week's second hand, tonight's 2-1).
ROOK_BY_HAND = {
    "Dad": ["2", "165", "100", "0", "190"], "Mia": ["1", "150", "0", "1", "190"],
    "Mom": ["2", "155", "50", "1", "200"], "Leo": ["1", "200", "100", "0", "200"],
    "Dad & Mia": ["3", "160", "66.7", "1", "190"], "Leo & Mom": ["3", "170", "66.7", "1", "200"],
}
# Then a paper game (target 600) from 340-285, seats tapped Dad, Mom, Mia, Leo again: Mom
# bids 150 and her team takes 180 (410-465), Dad bids 180 and his takes 200: 610-515,
# Dad & Mia win (RK-9). The paper line is no hand: the figures gain these two bids only,
# and +200 is now Dad's and Mia's biggest hand.
PAPER_HANDS = [dict(bidder="Mom", bid="150", points_A="70", points_B="180"),
               dict(bidder="Dad", bid="180", points_A="200", points_B="50")]
ROOK_WITH_PAPER = {
    "Dad": ["3", "170", "100", "0", "200"], "Mia": ["1", "150", "0", "1", "200"],
    "Mom": ["3", "153.3", "66.7", "1", "200"], "Leo": ["1", "200", "100", "0", "200"],
    "Dad & Mia": ["4", "165", "75", "1", "200"], "Leo & Mom": ["4", "165", "75", "1", "200"],
}
PNG = b"\x89PNG\r\n\x1a\n"


def _post_hands(page, hands):
    """Post Rook hands as the entry form would (its sid and version from each answer): the
    hands this test doesn't tap."""
    form = page.locator("#entry-form")
    url = form.get_attribute("action")
    fields = {name: form.locator(f'input[name="{name}"]').input_value()
              for name in ("csrf_token", "sid", "version")}
    for hand in hands:
        r = page.request.post(url, form={**fields, **hand}, headers={"HX-Request": "true"})
        assert r.status == 200, r.text()[:500]
        if 'id="entry-form"' in r.text():
            entry = r.text().split('id="entry-form"', 1)[1]
            fields["sid"] = re.search(r'name="sid" value="([^"]+)"', entry).group(1)
            fields["version"] = re.search(r'name="version" value="(\d+)"', entry).group(1)
    page.reload()


def _rook_figures(page):
    rook = page.locator('#stats .group-stats[data-section="rook"]')
    rook.locator(".game-figures > summary").click()
    figures = {}
    for table in rook.locator(".game-figures table").all():
        figures.update(_rows(table))
    return figures


def _rows(table):
    return {row.locator("th").inner_text().strip(): [c.strip() for c in
                                                     row.locator("td").all_inner_texts()]
            for row in table.locator("tbody tr").all()}


def _shots(page, artifacts_dir, name, at=None):
    if at is not None:
        page.locator(at).scroll_into_view_if_needed()
    else:
        page.evaluate("() => window.scrollTo(0, 0)")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= 375, f"{name} is {width}px wide ({scheme})"
        page.screenshot(path=str(artifacts_dir / f"{name}-375-{scheme}.png"))
    page.emulate_media(color_scheme="light")


def test_the_familys_second_evening(phones, live_server, artifacts_dir, ui):
    mom = phones("Mom", viewport=SMALL).page
    # Last week: a Rook table, finished, then "Keep these players".
    mom.goto("/new/rook")
    for i, name in enumerate(["Mom", "Dad", "Leo", "Mia"]):
        mom.locator(f"input[name=name_{i}]").fill(name)
    mom.locator("#change-rules > summary").click()
    mom.locator("#f-target").fill("300")
    mom.get_by_role("button", name="Create table").click()
    _post_hands(mom, LAST_WEEK)
    expect(mom.locator("#game-over")).to_contain_text("Mom & Leo")
    mom.locator("#keep-players").click()
    mom.locator("#group-name").fill("Friday")
    mom.locator("button[type=submit]").click()
    expect(mom.locator("#group-name")).to_have_text("Friday")
    group_url = mom.url.split("#")[0]
    group_id = group_url.rsplit("/", 1)[1]
    # That was a week ago: its record is dated so (the total is built again from the
    # records, as for a group recorded before totals were kept).
    db = sqlite3.connect(live_server.instance / "companion.db")
    with db:
        db.execute("UPDATE group_games SET started_at = strftime('%Y-%m-%dT%H:%M:%fZ',"
                   " started_at, '-7 days'), finished_at = strftime('%Y-%m-%dT%H:%M:%fZ',"
                   " finished_at, '-7 days') WHERE group_id = ?", [group_id])
        db.execute("DELETE FROM group_stats WHERE group_id = ?", [group_id])
    db.close()

    # Tonight: a table for the group, its players by tapping.
    mom.goto(group_url + "/new/rook")
    for name in ("Dad", "Mom", "Mia", "Leo"):
        mom.locator(f'#group-pick button[data-pick-name="{name}"]').click()
    mom.locator("#change-rules > summary").click()
    mom.locator("#f-target").fill("300")
    mom.get_by_role("button", name="Create table").click()
    expect(mom.locator("#me-bar")).to_be_visible()
    _post_hands(mom, TONIGHT_1)
    expect(mom.locator("#game-over")).to_contain_text("Dad & Mia")
    # The last hand was miscounted: struck from the sheet, then entered again.
    ui.undo_last(mom)
    expect(mom.locator("#game-over")).to_have_count(0)
    _post_hands(mom, [REDONE])
    expect(mom.locator("#game-over")).to_contain_text("Dad & Mia")
    mom.locator("#rematch").click()
    expect(mom.locator("#game-over")).to_have_count(0)
    _post_hands(mom, TONIGHT_2)
    expect(mom.locator("#game-over")).to_contain_text("Mom & Leo")

    # The group page: both evenings, dated, with the right winners, newest first.
    mom.goto(group_url)
    items = mom.locator("#games .group-games li")
    expect(items).to_have_count(3)
    days = [t.get_attribute("datetime")[:10] for t in items.locator("time").all()]
    tonight, last_week = days[0], days[2]
    assert days[1] == tonight and tonight != last_week
    assert (datetime.fromisoformat(tonight) - datetime.fromisoformat(last_week)).days == 7
    # Each date in the phone's own time (js/local-time.js; the page says UTC without it).
    expect(items.first.locator("time")).to_have_attribute("data-local", "1")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", items.first.locator("time").inner_text())
    for item, names in zip(items.all(), ("Mom & Leo", "Dad & Mia", "Mom & Leo")):
        expect(item).to_contain_text(f"Won: {names}")
    # The Rook figures, as computed by hand above.
    assert _rook_figures(mom) == ROOK_BY_HAND
    # The CSV says what the page says.
    ids = [item.get_attribute("data-game") for item in items.all()]
    r = mom.request.get(group_url + "/games.csv")
    assert r.status == 200
    rows = list(csv.DictReader(io.StringIO(r.text())))
    assert [row["id"] for row in rows] == ids
    assert [row["winners"] for row in rows] == ["Mom | Leo", "Dad | Mia", "Mom | Leo"]
    assert [row["finished_at"][:10] for row in rows] == days
    _shots(mom, artifacts_dir, "group-evenings", "#games")
    _shots(mom, artifacts_dir, "group-figures", '#stats .group-stats[data-section="rook"]')

    # Tonight's first game opens its final sheet, read-only.
    items.nth(1).locator("a").first.click()
    expect(mom.locator("#game-winners")).to_contain_text("Dad & Mia")
    expect(mom.locator("#rook-hands tbody tr")).to_have_count(2)
    expect(mom.locator("#rook-totals")).to_contain_text("310")
    assert mom.locator("#sheet form, #sheet button").count() == 0
    _shots(mom, artifacts_dir, "group-game")
    # Its sheet as a picture: this phone can't share files, so the PNG downloads.
    button = mom.locator("#share-sheet-button")
    expect(button).to_be_visible()
    with mom.expect_download() as info:
        button.click()
    assert info.value.suggested_filename == f"rook-{tonight}.png"
    assert Path(info.value.path()).read_bytes()[:8] == PNG
    # A player's page: Mom's record and her chart of wins over time.
    mom.locator('#final-scores a', has_text="Mom").click()
    expect(mom.locator("#player-name")).to_have_text("Mom")
    expect(mom.locator("#record")).to_contain_text("3 games · 2 wins")
    expect(mom.locator("#wins-chart svg polyline.line-wins")).to_be_visible()
    expect(mom.locator("#played li")).to_have_count(3)
    _shots(mom, artifacts_dir, "group-player")
    wide = mom.evaluate("""() => [...document.querySelectorAll('table')]
        .filter(t => t.getBoundingClientRect().right
                     > t.closest('.card').getBoundingClientRect().right)
        .map(t => t.closest('section').id)""")
    assert not wide, f"tables wider than their card: {wide}"
    mom.locator("#head-to-head").scroll_into_view_if_needed()
    mom.screenshot(path=str(artifacts_dir / "group-player-h2h-375-light.png"))
    player_url = mom.url
    game_url = group_url + f"/games/{ids[1]}"

    # A game written on paper goes on at a table of the group from 340-285.
    mom.goto(group_url + "/new/rook")
    for name in ("Dad", "Mom", "Mia", "Leo"):
        mom.locator(f'#group-pick button[data-pick-name="{name}"]').click()
    mom.locator("#paper > summary").click()
    mom.fill("#paper_A", "340")
    mom.fill("#paper_B", "285")
    mom.get_by_role("button", name="Create table").click()
    expect(mom.locator('#sheet [data-total-for="A"] [data-team="A"]')).to_have_text("340")
    expect(mom.locator('#sheet [data-total-for="B"] [data-team="B"]')).to_have_text("285")
    _post_hands(mom, PAPER_HANDS)
    expect(mom.locator("#game-over")).to_contain_text("Dad & Mia")
    mom.goto(group_url)
    expect(items).to_have_count(4)
    expect(items.first).to_contain_text("Won: Dad & Mia")
    assert _rook_figures(mom) == ROOK_WITH_PAPER
    rows = list(csv.DictReader(io.StringIO(mom.request.get(group_url + "/games.csv").text())))
    assert rows[0]["id"] == items.first.get_attribute("data-game")
    assert rows[0]["winners"] == "Dad | Mia"
    assert re.fullmatch(r"Dad & Mia: 610 \| (Leo & Mom|Mom & Leo): 515", rows[0]["scores"]), rows[0]
    # In Japanese too.
    mom.goto(f"/language?to=ja&next=/g/{group_id}")
    expect(mom.locator("html")).to_have_attribute("lang", "ja")
    for url, name, at in ((group_url, "group-evenings", "#games"),
                          (game_url, "group-game", None), (player_url, "group-player", None)):
        r = mom.goto(url)
        assert r.status == 200, (url, r.status, r.text()[:3000])
        if at:
            mom.locator(at).scroll_into_view_if_needed()
        width = mom.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= 375, f"{name} in Japanese is {width}px wide"
        mom.screenshot(path=str(artifacts_dir / f"{name}-375-ja.png"))
