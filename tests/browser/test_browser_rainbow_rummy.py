"""Rainbow Rummy 333 on four phones: the cut for deal, two hands entered on two
different phones (cards tapped on the Universal Card Deck picker and quick points), a
refused entry that keeps what was typed, the same totals live on all four, the checker."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee"]     # team A: Ann & Cid, team B: Bob & Dee
RANKS = {"M": "Moon", "S": "Sun", "G": "Galaxy"}


def tap_cards(page: Page, box_id: str, cards: list[str]) -> None:
    """Tap each card on the picker whose box is `box_id`: its rank, then its suit."""
    picker = page.locator(f"[data-card-picker]:has(#{box_id})")
    for card in cards:
        rank, suit = card[:-1], card[-1]
        picker.get_by_role("button", name=RANKS.get(rank, rank), exact=True).click()
        picker.get_by_role("button", name=f"suit {suit}", exact=True).click()
    expect(page.locator(f"#{box_id}")).to_have_value(" ".join(cards))


def press(page: Page, button: str, status: int = 200) -> None:
    """Tap a button of the entry form and check the server's answer."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    assert info.value.status == status, info.value.text()[:500]


def went_out(page: Page, name: str) -> None:
    page.locator("#entry-form .rr-out .chip", has_text=re.compile(f"^{name}$")).click()


def fill_points(page: Page, values: dict[int, tuple[int | None, int | None]]) -> None:
    """Quick points per seat: (cards in hand, face-down cards); None leaves a box alone."""
    for seat, (hand, down) in values.items():
        if hand is not None:
            page.locator(f"#hand_pts_{seat}").fill(str(hand))
        if down is not None:
            page.locator(f"#down_pts_{seat}").fill(str(down))


def totals_are(pages: list[Page], a: int, b: int) -> None:
    for page in pages:
        expect(page.locator('#sheet [data-team-total="A"]')).to_have_text(str(a))
        expect(page.locator('#sheet [data-team-total="B"]')).to_have_text(str(b))


def test_four_phones_cut_and_play_two_hands(phones, ui, artifacts_dir):
    ann, bob, cid, dee = (phones(name).page for name in NAMES)
    everyone = [ann, bob, cid, dee]

    # Ann starts the table; her family plays with the house rule "the player who went out
    # scores 0" (RR-A1 switched).
    ann.goto("/")
    ann.get_by_role("link", name="New table").click()
    ann.get_by_role("link", name=re.compile(r"^Rainbow Rummy 333")).click()
    for i, name in enumerate(NAMES):
        ann.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    ann.locator("#change-rules > summary").click()          # the house rules start folded
    ann.get_by_label(re.compile("Player who went out counts face-down cards")).uncheck()
    ann.get_by_role("button", name="Create table").click()
    expect(ann.locator("#me-bar")).to_contain_text("You are Ann")
    url = ann.locator("#join-url").get_attribute("href")
    for page, name in ((bob, "Bob"), (cid, "Cid"), (dee, "Dee")):
        ui.join(page, url, name)
    for page in everyone:
        expect(page.locator("#rr-totals")).to_contain_text("Ann & Cid")
        expect(page.locator("#rr-totals")).to_contain_text("Bob & Dee")
        expect(page.locator("#rr-dealer")).to_contain_text("Ann deals")
        expect(page.locator("#house-rules")).to_contain_text(
            "Player who went out counts face-down cards: No")

    # The cut for deal (RR-2, example RR13) on Ann's phone: 3 E, Galaxy J, 7 E, Moon S.
    ann.locator("#rr-cut > summary").click()
    for seat, card in enumerate(["3E", "GJ", "7E", "MS"]):
        tap_cards(ann, f"rr-cut-{seat}", [card])
    ann.screenshot(path=str(artifacts_dir / "rainbow-rummy-cut.png"), full_page=True)
    press(ann, "#save-cut")
    for page in everyone:
        expect(page.locator("#rr-cut-result")).to_contain_text("Cid deals")
        expect(page.locator("#rr-dealer")).to_contain_text("Hand 1: Cid deals, Bob cuts, "
                                                           "Dee plays first")

    # Hand 1, all entered on Bob's phone (RULES.md RR11): Cid goes out; Ann's hand is
    # tapped on the picker, everything else typed as points.
    ui.settled(bob)
    ui.caught_up(bob)
    went_out(bob, "Cid")
    ann_block = bob.locator('.rr-player[data-seat="0"]')
    ann_block.locator("details.rr-pick > summary").click()
    tap_cards(bob, "rr-hand-0", ["7E", "SJ"])
    fill_points(bob, {0: (None, 3), 1: (11, 11), 2: (None, 10), 3: (2, 10)})
    expect(bob.locator('.rr-player[data-seat="2"] .rr-out-tag')).to_be_visible()
    bob.screenshot(path=str(artifacts_dir / "rainbow-rummy-entry.png"), full_page=True)
    press(bob, "#save-hand")
    # A: 34 + 3 + 0 (Cid went out: 0 by the house rule) = 37; B: 22 + 11 + 4 + 10 = 47.
    totals_are(everyone, 10, 0)
    for page in everyone:
        expect(page.locator("#hand-1 .rr-verdict")).to_contain_text("47 − 37 = +10")
        expect(page.locator('#hand-1 tr[data-player="Ann"] .rr-doubled')).to_contain_text(
            "17×2 = 34")
        expect(page.locator('#hand-1 [aria-label="Sun of J"]')).to_be_visible()
        expect(page.locator("#rr-dealer")).to_contain_text("Hand 2: Dee deals")

    # Hand 2 on Dee's phone: Bob goes out. Dee forgets her own hand box first: the entry
    # is refused, the box is marked, and nothing she typed is lost. Bob's face-down box
    # stays empty: he went out, and by this table's house rule (RR-A1) his face-down cards
    # count nothing.
    ui.settled(dee)
    ui.caught_up(dee)
    went_out(dee, "Bob")
    fill_points(dee, {0: (20, 0), 2: (8, 4), 3: (None, 0)})
    press(dee, "#save-hand", status=422)
    expect(dee.locator("#entry .notice.error")).to_contain_text("Enter Dee's cards in hand")
    expect(dee.locator("#hand_pts_3")).to_have_attribute("aria-invalid", "true")
    expect(dee.locator("#hand_pts_0")).to_have_value("20")
    expect(dee.locator("#down_pts_2")).to_have_value("4")
    expect(dee.locator('#entry-form input[name="went_out"][value="1"]')).to_be_checked()
    dee.locator("#hand_pts_3").fill("3")
    press(dee, "#save-hand")
    # A: 40 + 0 + 16 + 4 = 60; B: 0 (Bob went out) + 6 + 0 = 6: Bob & Dee score 54.
    totals_are(everyone, 10, 54)
    for page in everyone:
        expect(page.locator("#hand-2 .rr-verdict")).to_contain_text("60 − 6 = +54")
        expect(page.locator("#hand-2 .rr-running")).to_contain_text("Ann & Cid 10 · Bob & Dee 54")
        expect(page.locator("#rr-dealer")).to_contain_text("Hand 3: Ann deals, Dee cuts, "
                                                           "Bob plays first")
    ann.screenshot(path=str(artifacts_dir / "rainbow-rummy-sheet.png"), full_page=True)

    # Cid checks a play from the table page, with the table's house rules (RR-4).
    cid.locator("#rr-checker").click()
    expect(cid.get_by_role("heading", name=re.compile("Can this card go on that column"))) \
        .to_be_visible()
    tap_cards(cid, "rr-card", ["5J"])
    tap_cards(cid, "rr-onto", ["6S"])
    cid.locator("#rr-check").click()
    expect(cid.locator("#rr-verdict")).to_contain_text("Yes. The 5 of J may go on the 6 of S")
    expect(cid.locator("#rr-verdict")).to_contain_text("RR-4")
    cid.screenshot(path=str(artifacts_dir / "rainbow-rummy-checker.png"), full_page=True)
    cid.get_by_role("link", name="‹ Table").click()
    totals_are([cid], 10, 54)
