"""Zock'n'Roll at a 3-player table with Jörg: one full guided turn on three phones."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def tap_dice(page: Page, dice: list[int]) -> None:
    """Tap faces on the dice pad (the pad's box then shows them)."""
    pad = page.locator("#entry [data-dice-pad]")
    for die in dice:
        pad.get_by_role("button", name=f"Add a {die}").click()
    expect(pad.locator("[data-dice-input]")).to_have_value(" ".join(map(str, dice)))


def press(page: Page, button: str) -> None:
    """Tap a button of the entry form and check the server took it."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    assert info.value.status == 200, info.value.text()[:500]


def test_three_players_and_jorg_play_a_full_turn(phones, ui):
    ann, bob, cid = phones("Ann").page, phones("Bob").page, phones("Cid").page
    ann.goto("/")
    ann.get_by_role("link", name="New table").click()
    ann.get_by_role("link", name=re.compile(r"^Zock'n'Roll")).click()
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        ann.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    ann.get_by_role("button", name="Create table").click()
    expect(ann.locator("#me-bar")).to_contain_text("You are Ann")
    url = ann.locator("#join-url").get_attribute("href")
    ui.join(bob, url, "Bob")
    ui.join(cid, url, "Cid")
    for page in (ann, bob, cid):
        expect(page.locator("#totals")).to_contain_text("Jörg")
        expect(page.locator("#turn-line")).to_contain_text("dealer Ann")

    # Round 1: Ann (dealer) enters the 3 white dice; decisions go Bob, Cid, Ann.
    expect(ann.locator("#entry h2")).to_contain_text("You deal: roll 3 white dice")
    tap_dice(ann, [2, 2, 5])
    press(ann, "#save-roll")
    expect(bob.locator("#decider")).to_contain_text("Your call")
    expect(cid.locator("#decider")).to_contain_text("Bob: stay or drop?")
    tap_dice(bob, [2, 6])
    press(bob, "#drop")
    # Bob's 2,2,2,5,6 is Three of a Kind; round 1 also checks Dropped Out First Round.
    for page in (ann, bob, cid):
        expect(page.locator("#turn-log")).to_contain_text(
            "Bob dropped out in round 1 with Three of a Kind")
        expect(page.locator('#totals td.total[data-player="Bob"]')).to_have_text("5")
    expect(bob.locator('details.mine tr[data-row="three_kind"] .circle.on')).to_have_count(1)
    expect(bob.locator('details.mine tr[data-row="dropped_out"] .circle.on')).to_have_count(1)
    expect(cid.locator("#decider")).to_contain_text("Your call")
    press(cid, "#stay")
    expect(ann.locator("#decider")).to_contain_text("Your call")
    press(ann, "#stay")

    # Round 2: the 4th white die; Cid stays, Ann drops with a Full House.
    expect(ann.locator("#entry h2")).to_contain_text("roll the 4th white die")
    tap_dice(ann, [4])
    press(ann, "#save-roll")
    expect(cid.locator("#decider")).to_contain_text("Your call")
    press(cid, "#stay")
    expect(ann.locator("#decider")).to_contain_text("Your call")
    tap_dice(ann, [5, 5])
    press(ann, "#drop")
    expect(bob.locator("#turn-log")).to_contain_text("Ann dropped out in round 2 with Full House")

    # Round 3: the 5th die; Cid reveals on his phone, Ann (the dealer) enters Jörg's dice.
    expect(ann.locator("#entry h2")).to_contain_text("roll the 5th white die")
    tap_dice(ann, [5])
    press(ann, "#save-roll")
    expect(cid.locator('#entry input[name="player"][value="Cid"]')).to_be_checked()
    tap_dice(cid, [1, 3])
    press(cid, "#reveal")
    expect(ann.locator("#jorg-hint")).to_contain_text("you (the dealer) enter them")
    expect(ann.locator('#entry input[name="player"][value="Jörg"]')).to_be_checked()
    ann.screenshot(path="test-artifacts/zocknroll-reveal.png")
    tap_dice(ann, [6, 6])
    press(ann, "#reveal")

    # Cid's 1,2,2,3,4,5,5 is a Large Straight, above Jörg's Two Pair: Cid wins round 3.
    for page in (ann, bob, cid):
        expect(page.locator("#turn-log")).to_contain_text(
            "Cid wins round 3 with Large Straight")
        expect(page.locator('#totals td.total[data-player="Cid"]')).to_have_text("9")
        expect(page.locator('#totals td.total[data-player="Ann"]')).to_have_text("5")
        expect(page.locator("#turn-line")).to_contain_text("Turn 2 · dealer Bob")
    expect(cid.locator('details.mine tr[data-row="winner"] .circle.on')).to_have_count(1)
    expect(bob.locator("#entry h2")).to_contain_text("You deal: roll 3 white dice")
