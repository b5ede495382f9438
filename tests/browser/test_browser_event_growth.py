"""A phone at a table of a round the director unseats is told at once, in Chromium: the
banner comes with the live refresh (no reload), the entry form goes, and the players' page
leads to the player's table of the round seated again."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import claim, claim_code, seated_club_night

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SMALL = {"viewport": {"width": 375, "height": 667}}
NOTICE = ("This table no longer counts: the director seated round 1 again. Open your table "
          "from the players' page.")


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"growth-{name}.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_at_an_unseated_table_is_told_at_once(phones, ui, scheme):
    director, seats, event_url = seated_club_night(phones)

    player = phones(seats[0], color_scheme=scheme, **SMALL).page
    player.goto(event_url + "/players")
    player.locator("#pick-name").get_by_role("button", name=seats[0], exact=True).click()
    claim(player, claim_code(director, seats[0]))
    player.locator("#open-my-table").click()
    expect(player.locator("#me-bar")).to_contain_text(f"You are {seats[0]}")
    expect(player.locator("#entry-form")).to_be_visible()
    old_table = player.url

    # The director takes the round back: the player's page says so without a reload.
    director.locator("#unseat > summary").click()
    director.locator("#unseat-form button").click()
    expect(director.locator("#seat-round")).to_be_visible()
    banner = player.locator("#retired")
    expect(banner).to_have_text(NOTICE + " Players’ page", use_inner_text=True)
    expect(player.locator("#entry-form")).to_have_count(0)
    assert player.url == old_table
    link = player.locator("#retired-players-link")
    box = link.bounding_box()
    assert box and box["height"] >= 44 and box["x"] + box["width"] <= 375
    shot(player, f"retired-{scheme}")

    # Seated again: the banner's link leads to the players' page and from there to the
    # player's new table, where entries count.
    director.locator("#seat-round").click()
    link.click()
    player.locator("#open-my-table").click()
    expect(player.locator("#me-bar")).to_contain_text("You are")
    assert player.url != old_table
    expect(player.locator("#retired")).to_have_count(0)
    ui.enter_round(player, {0: 40, 1: 30, 2: 20, 3: 10})
