"""RockIt to Destiny on two phones, at the table: Ann comes in, everyone sees it;
Bob runs a board check on the checker page and is shown a valid rearrangement, with the
card each joker stands for. Screenshots go to test-artifacts/."""
from __future__ import annotations

import re

import phone_checks
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def tap_cards(page: Page, picker, cards: list[str], before: str = "") -> None:
    """Tap cards on a picker (rank, then suit; JK is the joker button) whose box holds
    ``before``: the box then holds those cards and these."""
    phone_checks.tap_cards(picker, cards)
    expect(picker.locator("[data-card-input]")).to_have_value(" ".join([before] + cards).strip())


def press(page: Page, button: str, status: int = 200) -> None:
    """Tap a button of the entry form and check the server's answer."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    assert info.value.status == status, info.value.text()[:500]


def test_one_phone_comes_in_and_another_checks_the_board(phones, ui, artifacts_dir):
    ann, bob = phones("Ann").page, phones("Bob").page

    ann.goto("/")
    ann.get_by_role("link", name="New table").click()
    ann.get_by_role("link", name=re.compile(r"^RockIt to Destiny")).click()
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        ann.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    ann.get_by_role("button", name="Create table").click()
    expect(ann.locator("#me-bar")).to_contain_text("You are Ann")
    ui.join(bob, ann.locator("#join-url").get_attribute("href"), "Bob")
    for page in (ann, bob):
        expect(page.locator("#deck")).to_contain_text("Two decks + 4 jokers (108 cards)")
        expect(page.locator("#turn-order")).to_have_text("Ann → Bob → Cy")
    expect(ann.locator("#turn")).to_contain_text("You start")
    expect(bob.locator("#turn")).to_contain_text("Ann starts")

    # Ann's first try is refused with the points and the rule; nothing is lost.
    ui.settled(ann)
    ui.caught_up(ann)
    expect(ann.locator('#come-in-player input[value="Ann"]')).to_be_checked()
    picker = ann.locator("#entry-form [data-card-picker]")
    tap_cards(ann, picker, ["7C", "8C", "9C"])
    hand = ann.locator('#entry-form [data-card-hand-for="come-in-cards"] .playing-card')
    expect(hand).to_have_text(["7♣", "8♣", "9♣"])
    ann.screenshot(path=str(artifacts_dir / "rockit-come-in-hand.png"), full_page=True)
    press(ann, "#come-in", status=422)
    notice = ann.locator("#entry .notice.error")
    expect(notice).to_contain_text("This run is worth 24 points; coming in needs at least 30.")
    expect(notice.locator(".rule")).to_have_text("RID-4")
    expect(ann.locator("#come-in-cards")).to_have_value("7C 8C 9C")
    expect(hand).to_have_count(3)

    # One more card makes 34: accepted, and both phones show Ann in.
    tap_cards(ann, ann.locator("#entry-form [data-card-picker]"), ["10C"], before="7C 8C 9C")
    expect(hand).to_have_text(["7♣", "8♣", "9♣", "10♣"])
    press(ann, "#come-in")
    for page in (ann, bob):
        expect(page.locator('[data-in="Ann"]')).to_have_text("in ✓ 34")
        expect(page.locator("#last-line")).to_contain_text("Ann came in")
        expect(page.locator("#last-line")).to_contain_text("accepted, 34 points")
        expect(page.locator('[data-out="Bob"]')).to_have_text("not in yet")
    expect(ann.locator("#last-line .rule")).to_have_text("RID-A2")
    expect(bob.locator('#players li[data-player="Ann"] .playing-card')).to_have_text(
        ["7♣", "8♣", "9♣", "10♣"])
    expect(bob.locator('#come-in-player input[value="Bob"]')).to_be_checked()
    bob.screenshot(path=str(artifacts_dir / "rockit-table-bob.png"), full_page=True)

    # Bob checks the board from the table: the layout is wrong, a valid one exists.
    bob.locator("#checker-link").click()
    expect(bob.get_by_role("heading", level=1)).to_have_text("RockIt: is the board valid?")
    expect(bob.locator('input[name="decks"][value="2"]')).to_be_checked()
    tap_cards(bob, bob.locator("#slot-0 [data-card-picker]"), ["9D", "10D", "JD", "QD", "KD"])
    expect(bob.locator('#slot-0 summary [data-card-hand-for] .playing-card')).to_have_count(5)
    bob.locator("#slot-1 summary").click()
    tap_cards(bob, bob.locator("#slot-1 [data-card-picker]"), ["8D", "AD", "JS", "JH"])
    bob.locator("#slot-2 summary").click()
    tap_cards(bob, bob.locator("#slot-2 [data-card-picker]"), ["AS", "2S", "JK", "4S"])
    bob.locator("#check-board").click()
    verdict = bob.locator("#rk-verdict")
    expect(verdict).to_contain_text("No. Trick 2 is not valid")
    expect(verdict).to_contain_text("The same cards can be laid out validly, as 4 tricks.")
    expect(bob.locator('#board-tricks li[data-trick="2"]')).to_have_class(re.compile(r"\bbad\b"))
    expect(bob.locator('#board-tricks li[data-trick="2"] .rk-why')).to_contain_text("RID-3")
    expect(bob.locator('#board-tricks li[data-trick="3"]')).to_contain_text("Joker = 3♠")
    layout = bob.locator("#rearrangement li")
    expect(layout).to_have_count(4)
    expect(bob.locator("#rearrangement")).to_contain_text("8♦ 9♦ 10♦")
    expect(bob.locator("#rearrangement")).to_contain_text("J♠ J♥ J♦")
    expect(bob.locator("#rearrangement")).to_contain_text("Joker = 3♠")
    bob.screenshot(path=str(artifacts_dir / "rockit-board-check.png"), full_page=True)
    bob.locator("#back-to-table").click()
    expect(bob.locator('[data-in="Ann"]')).to_have_text("in ✓ 34")
