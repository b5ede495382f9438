"""Two phones at one table: create, join by the QR's URL, live updates, reload, undo, game over,
rematch. Runs against the real server (`companion serve`) in headless Chromium."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def count_loads(page) -> list[str]:
    """Record every document load of `page` from now on (a reload or a form post counts;
    htmx's same-document history.replaceState does not)."""
    page.wait_for_load_state("load")
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    return loads


def test_two_phones_share_a_live_table(phones, ui):
    a, b = phones("A"), phones("B")

    # Phone A creates the table; phone B opens the QR's URL and picks a seat.
    join_url = ui.create_table(a.page, ["Ann", "Bob"], target=100)
    expect(a.page.locator("#invite")).to_have_attribute("open", "")
    expect(a.page.locator("#invite svg.qr")).to_be_visible()
    ui.join(b.page, join_url, "Bob")
    # The token was exchanged for a cookie and the browser sent to a clean URL.
    assert "#" not in b.page.url and "/t/" in b.page.url
    expect(b.page.locator("#sheet .empty")).to_have_text("No rounds yet.")

    # A enters a round; B sees it without reloading.
    b_loads = count_loads(b.page)
    ui.enter_round(a.page, {0: 12, 1: -5})
    expect(ui.total(b.page, "Ann")).to_have_text("12")
    expect(ui.total(b.page, "Bob")).to_have_text("-5")
    expect(b.page.locator("#sheet tbody tr")).to_have_count(1)
    assert b_loads == [], f"B navigated instead of updating live: {b_loads}"
    # B's untouched entry form followed along too (it now offers round 2).
    expect(b.page.locator("#save-round")).to_have_text("Save round 2")

    # B reloads and is still in its seat.
    b.page.reload()
    expect(b.page.locator("#me-bar")).to_contain_text("You are Bob")
    expect(ui.total(b.page, "Ann")).to_have_text("12")

    # Undo on B shows on A (A doesn't reload either).
    a_loads = count_loads(a.page)
    undo = ui.undo_button(b.page)
    expect(undo).to_be_visible()
    undone = b.page.locator("#sheet form.undo input[name=target]").get_attribute("value")
    ui.undo_last(b.page)                          # it asks first: two taps
    expect(b.page.locator("#entry .notice")).to_contain_text(f"Entry #{undone} was struck.")
    expect(ui.total(a.page, "Ann")).to_have_text("0")
    expect(a.page.locator("#sheet .empty")).to_have_text("No rounds yet.")
    assert a_loads == [], f"A navigated instead of updating live: {a_loads}"

    # Play to the target: the game-over banner appears on both phones.
    ui.enter_round(a.page, {0: 60, 1: 10})
    expect(ui.total(b.page, "Ann")).to_have_text("60")
    ui.enter_round(b.page, {0: 45, 1: 20})
    for phone in (a, b):
        banner = phone.page.locator("#game-over")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Game over")
        expect(banner).to_contain_text("Ann")
        expect(ui.total(phone.page, "Ann")).to_have_text("105")
        expect(ui.total(phone.page, "Bob")).to_have_text("30")
        # The entry form gave way to the rematch button, live on the other phone too.
        expect(phone.page.locator("#rematch")).to_be_visible()
        expect(phone.page.locator("#save-round")).to_have_count(0)

    # Rematch from B: a fresh sheet on both phones, the old game kept under "Earlier games".
    b.page.locator("#rematch").click()
    expect(b.page.locator("#entry .notice")).to_contain_text("A new game has started")
    for phone in (a, b):
        expect(phone.page.locator("#game-over")).to_have_count(0)
        expect(phone.page.locator("#sheet .empty")).to_have_text("No rounds yet.")
        expect(phone.page.locator("#sheet details.past summary")).to_have_text("Earlier games (1)")
        expect(phone.page.locator("#save-round")).to_have_text("Save round 1")

    # The new game plays: a round from A reaches B.
    ui.enter_round(a.page, {0: 7, 1: 3})
    expect(ui.total(b.page, "Ann")).to_have_text("7")
    expect(ui.total(b.page, "Bob")).to_have_text("3")
    # A reload shows which game this is.
    a.page.reload()
    expect(a.page.locator("#sheet .game-no")).to_have_text("Game 2")
