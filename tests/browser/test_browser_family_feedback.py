"""Honest feedback on a 375x667 phone, light, dark and Japanese: a saved Rook hand's answer
repeats the hand in words (with the score changes) right where the thumb is, and "Undo last
entry" asks first, naming the hand, with its "Yes" in view. One table, one phone; the
colour scheme is switched on the same page, so the whole file costs a few page loads."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from phone_checks import assert_fits, assert_tap_targets, save_and_see_notice
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
NAMES = ["Ann", "Bob", "Cid", "Dee"]

_IN_VIEW = """
(el) => { const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }
"""


def in_view(page: Page, selector: str) -> None:
    assert page.locator(selector).evaluate(_IN_VIEW), f"{selector} is not in view"


def ready(page: Page) -> None:
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    version = page.locator("#sheet").get_attribute("data-version")
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(version)


def save_hand(page: Page, bidder: str, bid: int, points_a: int) -> str:
    ready(page)
    page.locator("#entry-form .rook-bidder .chip", has_text=re.compile(f"^{bidder}$")).click()
    page.locator("#entry-form .bids .chip", has_text=re.compile(f"^{bid}$")).click()
    page.locator("#points_A").fill(str(points_a))
    return save_and_see_notice(page, "#save-hand")


def shoot(page: Page, artifacts_dir, name: str) -> None:
    page.screenshot(path=artifacts_dir / f"family-feedback-375-{name}.png", caret="initial",
                    animations="disabled")


def test_saved_answer_and_undo_confirm_light_dark_japanese(phones, artifacts_dir):
    page = phones("Ann", viewport=SMALL, color_scheme="light").page
    page.goto("/new/rook")
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text("You are Ann")

    # A saved hand says what was saved, with the score changes, where the thumb is.
    seen = save_hand(page, "Ann", 150, 75)
    assert "Hand 1: Ann bid 150 and was set: Ann & Cid -150, Bob & Dee +175." in seen, seen
    in_view(page, "#entry .notice .said")
    assert_fits(page)
    shoot(page, artifacts_dir, "saved-light")
    page.emulate_media(color_scheme="dark")
    shoot(page, artifacts_dir, "saved-dark")

    # Undo last entry asks first: the question names the hand; "Yes" is in view, 44 px+.
    page.locator("#undo-last-ask").click()
    question = page.locator("#undo-last-box .ask-question")
    expect(question).to_have_text("Undo this entry? Hand 1: Ann bid 150 and was set: "
                                  "Ann & Cid -150, Bob & Dee +175.")
    page.locator("#undo-last").scroll_into_view_if_needed()
    in_view(page, "#undo-last-box .ask-question")
    in_view(page, "#undo-last")
    assert_tap_targets(page, "#undo-last-box")
    shoot(page, artifacts_dir, "undo-ask-dark")
    page.emulate_media(color_scheme="light")
    shoot(page, artifacts_dir, "undo-ask-light")
    # The second tap undoes it and says which hand.
    seen = save_and_see_notice(page, "#undo-last")
    assert "Hand 1: Ann bid 150" in seen and "was struck" in seen, seen
    expect(page.locator('#sheet [data-team="A"]')).to_have_text("0")

    # Japanese: the same two screens.
    page.goto(f"/language?to=ja&next={urlsplit(page.url).path}")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    seen = save_hand(page, "Bob", 150, 75)
    assert "ハンド1" in seen and "Bob" in seen, seen
    in_view(page, "#entry .notice .said")
    shoot(page, artifacts_dir, "saved-ja")
    page.locator("#undo-last-ask").click()
    page.locator("#undo-last").scroll_into_view_if_needed()
    in_view(page, "#undo-last-box .ask-question")
    in_view(page, "#undo-last")
    assert_fits(page)
    shoot(page, artifacts_dir, "undo-ask-ja")
