"""A family Rook game from 0 to a "bidder goes" finish across two phones."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def create_rook(page) -> str:
    page.goto("/")
    page.get_by_role("link", name="New table").click()
    page.get_by_role("link", name=re.compile(r"^Rook")).click()
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text("You are Ann")
    return page.locator("#join-url").get_attribute("href")


def play_hand(page, bidder: str, bid: int, points_a: int, hands_before: int) -> None:
    """Tap the bidder and the bid, type team A's points (B fills in), save.

    Waits until this phone's sheet shows every earlier hand: the other phone's
    last save reaches the sheet and the entry form in separate live swaps.
    """
    expect(page.locator("#sheet tbody tr.made, #sheet tbody tr.set")).to_have_count(hands_before)
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    version = page.locator("#sheet").get_attribute("data-version")
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(version)
    page.locator("#entry-form .chip", has_text=re.compile(f"^{bidder}$")).click()
    page.locator("#entry-form .bids .chip", has_text=re.compile(f"^{bid}$")).click()
    page.locator("#points_A").fill(str(points_a))
    expect(page.locator("#points_B")).to_have_value(str(250 - points_a))
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator("#save-hand").click()
    assert info.value.status == 200, info.value.text()[:500]
    expect(page.locator("#entry .notice, #game-over").first).to_be_visible()


def test_family_game_to_a_bidder_goes_finish(phones):
    a, b = phones("A"), phones("B")
    join_url = create_rook(a.page)
    b.page.goto(join_url)
    b.page.get_by_role("button", name=re.compile(r"^Bob ")).click()
    expect(b.page.locator("#me-bar")).to_contain_text("You are Bob")
    expect(b.page.locator("#house-rules")).to_contain_text("Bidder goes")

    # Ann's team climbs to 590 - 440 (RULES.md R6), hands entered on both phones.
    for n, (page, points_a) in enumerate([(a.page, 70), (b.page, 150), (a.page, 150),
                                          (b.page, 190), (a.page, 250)]):
        play_hand(page, "Ann", 150, points_a, hands_before=n)
    for page in (a.page, b.page):
        expect(page.locator('#sheet [data-total-for="A"] [data-team="A"]')).to_have_text("590")
        expect(page.locator('#sheet [data-total-for="B"] [data-team="B"]')).to_have_text("440")
    expect(b.page.locator("#sheet .dealer-line")).to_contain_text("Bob")   # 6th deal: Bob

    # Bob bids 160 and his team takes 165: both teams pass 600, the bidders win.
    play_hand(b.page, "Bob", 160, 85, hands_before=5)
    for page in (a.page, b.page):
        banner = page.locator("#game-over")
        expect(banner).to_contain_text("Bob & Dee")
        expect(banner).to_contain_text("bidder goes")
        expect(banner).to_contain_text("RK-9")
        expect(page.locator('#sheet [data-total-for="A"] [data-team="A"]')).to_have_text("675")
        expect(page.locator('#sheet [data-total-for="B"] [data-team="B"]')).to_have_text("605")
        expect(page.locator("#rematch")).to_be_visible()
    expect(a.page.locator("#sheet svg.chart polyline")).to_have_count(2)
