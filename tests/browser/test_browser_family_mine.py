"""The way back from the start page: a phone that closes its browser and opens the site
again finds its tables under "Your tables" and one tap puts it back in its seat, the host
with the host's tools. The cookie lives a year, so "closing the browser and opening the
site again" is a new page in the same browser context (its cookies kept) opened at "/".
Screenshots of the list at 375x667, light, dark and Japanese, go to test-artifacts/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}


def reopen(phone):
    """The phone's browser closed and opened again at the start page: its old page is gone,
    a new one (same cookies) opens "/"."""
    phone.page.close()
    phone.page = phone.context.new_page()
    phone.page.goto("/")
    return phone.page


def test_host_and_guest_come_back_from_the_start_page(phones, ui, artifacts_dir):
    host = phones("Mom", viewport=SMALL)
    guest = phones("Dad", viewport=SMALL)
    join_url = ui.create_table(host.page, ["Mom", "Dad", "Leo"], target=300)
    ui.join(guest.page, join_url, "Dad")
    ui.enter_round(host.page, {0: 40, 1: 25, 2: 60})
    # An earlier table, played to its end: folded away under "Finished".
    ui.create_table(host.page, ["Mom", "Mia"], target=10)
    ui.enter_round(host.page, {0: 12, 1: 3})

    page = reopen(host)
    tables = page.locator("#your-tables")
    expect(tables.locator("h2")).to_have_text("Your tables")
    first = tables.locator("ul.place-list > li.place").first
    expect(first).to_contain_text("Mom 40 · Dad 25 · Leo 60")
    expect(first).to_contain_text("you host")
    expect(tables.locator("details.places-done > summary")).to_have_text("Finished (1)")
    expect(tables.locator("details.places-done")).not_to_have_attribute("open", re.compile(".*"))
    page.screenshot(path=artifacts_dir / "start-tables-375-light.png", caret="initial")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts_dir / "start-tables-375-dark.png", caret="initial")
    page.emulate_media(color_scheme="light")
    # The list and its first row sit in view without scrolling on a 667 px screen.
    box = first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL["height"], box

    first.locator("a.place-link").click()
    expect(page.locator("#me-bar")).to_contain_text("You are Mom")
    expect(page.locator("#me-bar")).to_contain_text("host")
    expect(page.locator("#host > summary")).to_have_text("Host tools")
    expect(ui.total(page, "Leo")).to_have_text("60")

    page = reopen(guest)
    place = page.locator("#your-tables li.place")
    expect(place).to_have_count(1)
    expect(place).to_contain_text("your seat")
    place.locator("a.place-link").click()
    expect(page.locator("#me-bar")).to_contain_text("You are Dad")
    expect(page.locator("#host")).to_have_count(0)
    ui.enter_round(page, {0: 5, 1: 5, 2: 5})          # back in the seat: it writes

    # Dad also directs the club's tournament: it comes back too, to the director's page.
    page.goto("/events/new/scorepad")
    page.get_by_label("Event name").fill("Club night")
    page.get_by_label("Players, one per line").fill("Ann\nBob\nCy\nDee")
    page.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"/e/[\w-]+$"))
    event_url = page.url
    page = reopen(guest)
    event = page.locator('#your-tables li.place[data-kind="event"]')
    expect(event).to_contain_text("Club night")
    expect(event).to_contain_text("you direct")
    event.locator("a.place-link").click()
    expect(page).to_have_url(event_url)

    # Japanese: the same list in the phone's language.
    page = host.page
    page.goto("/language?to=ja&next=/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#your-tables li.place").first).to_contain_text("Mom 45 · Dad 30 · Leo 65")
    page.screenshot(path=artifacts_dir / "start-tables-375-ja-light.png", caret="initial")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts_dir / "start-tables-375-ja-dark.png", caret="initial")
    page.goto("/language?to=en&next=/")
