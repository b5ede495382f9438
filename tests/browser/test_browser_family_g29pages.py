"""A group's statistics on a small phone: after a game finished at the group's table, the
group page's "Statistics" shows the game's table of players (games, wins, win %, average,
best) within 375 px, a long name wrapping in its column rather than widening the page.

Screenshots: test-artifacts/group-stats-375-{light,dark}.png.
"""
from __future__ import annotations

import re

import pytest
from conftest import enter_round
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
LONG = "Maximilian-Alexander"


def test_group_statistics_fit_a_small_phone(phones, artifacts_dir):
    page = phones("Ann", viewport=SMALL).page
    page.goto("/g/new")
    page.locator("input[name=name]").fill("Friday")
    page.locator("textarea[name=players]").fill(f"{LONG}\nBob\n")
    page.locator("form.group-form button[type=submit]").click()
    expect(page.locator("#group-name")).to_have_text("Friday")
    group_url = page.url
    page.goto(group_url + "/new/scorepad")
    page.get_by_label("Player 1", exact=True).fill(LONG)
    page.get_by_label("Player 2", exact=True).fill("Bob")
    page.locator("#change-rules > summary").click()
    page.get_by_label("Target score").fill("50")
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(LONG)
    enter_round(page, {0: 60, 1: 35})
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
