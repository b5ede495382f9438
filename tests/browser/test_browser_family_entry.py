"""A family's entries at 375x667: an empty box is never a score, one bid is one value, a
refused come-in clears in one tap, a picked hand shows its points.

- Score pad: Enter ("Next" on a phone keyboard) in a box goes to the next empty box and
  saves nothing; Save with empty boxes is refused naming them (nothing saved, nothing
  typed lost); Enter with every box filled saves.
- Rook: a typed bid unticks the chips; a chip tapped after a refused typed bid empties the
  box, and Save saves the chip's bid.
- RockIt: after a refused come-in, Clear empties the tray; the next taps start afresh.
- Rainbow Rummy: the picker's hint fits, the picked cards' running total shows, and Enter
  in a points box goes on to the next box still needed.
Screenshots (light and dark) go to test-artifacts/family-entry-*.png.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import phone_checks
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SIZE = {"width": 375, "height": 667}
FOUR = ["Ann", "Bob", "Cid", "Dee"]


def new_table(page: Page, game: str, names: list[str]) -> None:
    """Start → New table → `game` → names → Create; this phone is the first player."""
    page.goto("/")
    page.get_by_role("link", name="New table").click()
    page.get_by_role("link", name=re.compile("^" + re.escape(game))).click()
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(f"You are {names[0]}")


def press(page: Page, button: str, status: int) -> None:
    """Tap a button of the entry form and check the server's answer."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    assert info.value.status == status, info.value.text()[:500]


def shoot(page: Page, artifacts_dir, name: str) -> None:
    """The screen as it is, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=artifacts_dir / f"family-entry-{name}-375-{scheme}.png",
                        caret="initial", animations="disabled")
    page.emulate_media(color_scheme="light")


def test_enter_in_a_score_box_goes_to_the_next_empty_box(phones, ui, artifacts_dir):
    page = phones("pad", viewport=SIZE).page
    ui.create_table(page, FOUR)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    ui.settled(page)
    box = [page.locator(f"#score_{pos}") for pos in range(4)]
    # Enter in box 1: on to box 2, nothing saved; Enter in an empty box: on to the next.
    box[0].fill("7")
    box[0].press("Enter")
    expect(box[1]).to_be_focused()
    box[1].press("Enter")
    expect(box[2]).to_be_focused()
    # Enter in the last box while others are empty: back to the first empty one.
    box[3].fill("5")
    box[3].press("Enter")
    expect(box[1]).to_be_focused()
    expect(box[2]).to_have_attribute("enterkeyhint", "next")
    assert posts == []
    expect(page.locator("#sheet tbody tr[id^=round-]")).to_have_count(0)

    # Save with two empty boxes: refused, naming them; the typed scores stay.
    said = phone_checks.save_and_see_notice(page, "#save-round")
    assert "Nothing saved: no score typed for Bob and Cid." in said, said
    expect(page.locator('#entry-form [aria-invalid="true"]')).to_have_count(2)
    expect(box[1]).to_have_attribute("aria-invalid", "true")
    expect(box[1]).to_be_focused()
    expect(box[0]).to_have_value("7")
    expect(box[3]).to_have_value("5")
    expect(page.locator("#sheet tbody tr[id^=round-]")).to_have_count(0)
    phone_checks.assert_fits(page)
    shoot(page, artifacts_dir, "scorepad-refused")

    # A deliberate 0 is a score; with every box filled, the last one's key says "done"
    # and Enter saves.
    box[1].fill("0")
    expect(box[2]).to_have_attribute("enterkeyhint", "done")
    box[2].fill("12")
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        box[2].press("Enter")
    assert info.value.status == 200, info.value.text()[:500]
    expect(page.locator("#sheet tbody tr[id^=round-]")).to_have_count(1)
    for name, total in zip(FOUR, ["7", "0", "12", "5"]):
        expect(ui.total(page, name)).to_have_text(total)
    expect(box[0]).to_have_value("")

    # Japanese: the same refusal in the phone's language.
    page.goto(f"/language?to=ja&next={urlsplit(page.url).path}")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    ui.settled(page)
    page.locator("#score_0").fill("3")
    said = phone_checks.save_and_see_notice(page, "#save-round")
    assert "Nothing saved" not in said and "Bob" in said, said
    expect(page.locator('#entry-form [aria-invalid="true"]')).to_have_count(3)
    phone_checks.assert_fits(page)
    page.screenshot(path=artifacts_dir / "family-entry-scorepad-refused-375-ja.png",
                    caret="initial", animations="disabled")


def test_a_bid_chip_after_a_refused_typed_bid_is_saved(phones, ui, artifacts_dir):
    page = phones("rook", viewport=SIZE).page
    new_table(page, "Rook", FOUR)
    ui.settled(page)
    typed = page.locator('input[name="bid_typed"]')
    chip = lambda bid: page.locator(f'#entry-form .bids input[value="{bid}"]')   # noqa: E731
    page.locator("#entry-form .rook-bidder .chip", has_text=re.compile("^Ann$")).click()
    page.locator("#entry-form .bids .chip", has_text=re.compile("^200$")).click()
    expect(chip(200)).to_be_checked()
    # Typing a bid unticks the chip: one value, the last one touched.
    page.locator("#entry .rook-more > summary").click()
    typed.fill("120")
    expect(chip(200)).not_to_be_checked()
    page.locator("#points_A").fill("120")
    press(page, "#save-hand", 422)
    expect(page.locator("#entry .notice.error")).to_contain_text("RK-4")
    expect(typed).to_have_value("120")
    # The 180 chip replaces the refused typed bid, and Save saves 180.
    page.locator("#entry-form .bids .chip", has_text=re.compile("^180$")).click()
    expect(typed).to_have_value("")
    expect(chip(180)).to_be_checked()
    shoot(page, artifacts_dir, "rook-chip-after-typed")
    press(page, "#save-hand", 200)
    expect(page.locator("#sheet tbody tr.made, #sheet tbody tr.set")).to_have_count(1)
    page.locator(".foot-nav a", has_text="History").click()
    expect(page.locator("#history")).to_contain_text("Hand: Ann bid 180")


def test_a_refused_come_in_clears_in_one_tap(phones, ui, artifacts_dir):
    page = phones("rockit", viewport=SIZE).page
    new_table(page, "RockIt to Destiny", ["Ann", "Bob", "Cy"])
    ui.settled(page)
    ui.caught_up(page)
    picker = page.locator("#entry-form [data-card-picker]")
    tray = page.locator("#come-in-cards")
    phone_checks.tap_cards(picker, ["2H", "3H", "4H", "5H"])
    press(page, "#come-in", 422)
    expect(page.locator("#entry .notice.error")).to_contain_text("RID-4")
    expect(tray).to_have_value("2H 3H 4H 5H")
    shoot(page, artifacts_dir, "rockit-refused-tray")
    # Clear: the whole tray in one tap; the next taps make a new trick.
    page.locator("#entry-form [data-card-clear]").click()
    expect(tray).to_have_value("")
    expect(page.locator('#entry-form [data-card-hand-for="come-in-cards"] .playing-card')) \
        .to_have_count(0)
    phone_checks.tap_cards(picker, ["10H", "JH", "QH"])
    expect(tray).to_have_value("10H JH QH")
    phone_checks.assert_tap_targets(page, "#entry .tray")
    press(page, "#come-in", 200)
    expect(page.locator("#sheet")).to_contain_text("Ann")


def test_the_rainbow_rummy_picker_counts_the_picked_cards(phones, ui, artifacts_dir):
    page = phones("rr", viewport=SIZE).page
    new_table(page, "Rainbow Rummy 333", FOUR)
    ui.settled(page)
    page.locator("#entry-form .rr-pick > summary").first.click()
    picker = page.locator("[data-card-picker]:has(#rr-hand-0)")
    total = picker.locator("[data-card-total]")
    expect(total).to_have_text("")
    phone_checks.tap_cards(picker, ["5J", "GN"])
    expect(total).to_have_text("Total: 15 pts")
    picker.locator("[data-card-back]").click()
    expect(total).to_have_text("Total: 5 pts")
    page.locator("#rr-down-0").scroll_into_view_if_needed()
    shoot(page, artifacts_dir, "rainbow-rummy-picker")
    # Enter in a points box goes on to the next box still needed (Ann's hand is tapped as
    # cards, so her points box is not) and saves nothing.
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.locator("#down_pts_0").fill("0")
    page.locator("#down_pts_0").press("Enter")
    expect(page.locator("#hand_pts_1")).to_be_focused()
    page.locator("#hand_pts_1").press("Enter")
    expect(page.locator("#down_pts_1")).to_be_focused()
    assert posts == []
