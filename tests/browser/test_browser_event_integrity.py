"""Event integrity in Chromium: an attacker's phone with the public players' link
can only watch, the player's own phone sits down in one tap, and a table that corrects its
sheet (undo, enter the right hand) changes the event's result live until the round is locked.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import claim, claim_code, seated_club_night

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SMALL = {"viewport": {"width": 375, "height": 667}}


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"integrity-{name}.png"), full_page=True)


def result_line(director: Page):
    return director.locator("#table-1 .result-line")


def test_an_attacker_watches_while_the_table_corrects_itself(phones, ui):
    director, seats, event_url = seated_club_night(phones)

    # The attacker has the public players' page: no link on it seats anybody.
    attacker = phones("Attacker", **SMALL).page
    attacker.goto(event_url + "/players")
    hrefs = attacker.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert not [h for h in hrefs if re.search(r"/j[/#]", h, re.I)], hrefs
    # The table card's QR (permanent: table 1 of the current round) lets them watch only.
    attacker.goto(event_url + "/t/1")
    expect(attacker.get_by_role("heading", name="Who are you?")).to_be_visible()
    expect(attacker.locator("#event-table-closed")).to_be_visible()
    expect(attacker.locator("button.seat.free")).to_have_count(0)
    expect(attacker.locator("button.seat.closed")).to_have_count(4)
    shot(attacker, "attacker-seats")
    attacker.get_by_role("button", name=re.compile("^Just watch")).click()
    expect(attacker.locator("#me-bar")).to_contain_text("You are watching")
    expect(attacker.locator("#entry-form")).to_have_count(0)
    expect(attacker.locator("#host")).to_have_count(0)

    # In another tab the attacker taps a name and guesses a code: refused in plain words.
    guess = attacker.context.new_page()
    guess.goto(event_url + "/players")
    guess.locator("#pick-name").get_by_role("button", name=seats[0], exact=True).click()
    claim(guess, "ZZZZZZ")
    expect(guess.locator("#claim .notice")).to_contain_text(f"That isn't {seats[0]}'s claim code")
    expect(guess.locator("#you-are")).to_have_count(0)
    guess.close()

    # The first seat's player: the code from the slip, "This is me", then "Open table" sits
    # the phone down.
    player = phones(seats[0], **SMALL).page
    player.goto(event_url + "/players")
    player.locator("#pick-name").get_by_role("button", name=seats[0], exact=True).click()
    claim(player, claim_code(director, seats[0]))
    expect(player.locator("#you-are")).to_have_text(f"You are {seats[0]}")
    player.locator("#open-my-table").click()
    expect(player.locator("#me-bar")).to_contain_text(f"You are {seats[0]}")
    expect(player.locator("#host")).to_have_count(0)          # no host at an event's table

    # A wrong last hand ends the game: the dashboard shows that result...
    ui.enter_round(player, {0: 10, 1: 40, 2: 20, 3: 30})
    expect(director.locator("#table-1 .status")).to_have_text("Finished", timeout=15_000)
    expect(result_line(director)).to_contain_text(f"{seats[1]}: place 1")
    # ...the table strikes it and enters the right one; the dashboard follows, unreloaded.
    ui.undo_last(player)
    expect(director.locator("#table-1 .status")).to_have_text("Playing", timeout=15_000)
    ui.enter_round(player, {0: 40, 1: 10, 2: 30, 3: 20})
    expect(result_line(director)).to_contain_text(f"{seats[0]}: place 1", timeout=15_000)
    expect(result_line(director)).to_contain_text(f"{seats[1]}: place 4")
    # The attacker's phone follows the table live, still only watching.
    expect(attacker.locator("#sheet")).to_contain_text("40")
    shot(director, "dashboard")

    director.locator("#lock-round").click()
    director.get_by_role("link", name="Standings", exact=True).click()
    first = director.locator("#standings-table tbody tr").first
    expect(first).to_have_attribute("data-entrant", seats[0])
