"""Tap-to-pick on a group's new-table form, in a real browser at 375 px: the group's
players are chips; taps fill the seats in tap order, a second tap takes a player out and
the seats close up, a new name becomes a chip and a seat, and the table is made with those
seats (the new name joining the group). Screenshots at 375x667, light and dark, go to
test-artifacts/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}


def test_tap_to_pick_players(phones, artifacts_dir):
    mom = phones("Mom", viewport=SMALL)
    page = mom.page
    page.goto("/g/new")
    page.fill("#group-name", "Friday")
    page.fill("#group-players", "Mom\nDad\nLeo\nMia")
    page.click("button[type=submit]")
    expect(page.locator("#group-name")).to_have_text("Friday")
    page.goto(page.url.split("#")[0] + "/new/rook")
    pick = page.locator("#group-pick")
    expect(pick).to_be_visible()
    chip = lambda name: pick.locator(f'button[data-pick-name="{name}"]')  # noqa: E731
    for name in ("Leo", "Mom", "Dad"):
        chip(name).click()
    boxes = [page.locator(f"input[name=name_{i}]") for i in range(4)]
    assert [b.input_value() for b in boxes] == ["Leo", "Mom", "Dad", ""]
    chip("Mom").click()   # out again: the seats after close up
    assert [b.input_value() for b in boxes] == ["Leo", "Dad", "", ""]
    expect(chip("Mom")).to_have_attribute("aria-pressed", "false")
    expect(chip("Dad")).to_have_attribute("data-seat", "2")
    page.fill("[data-pick-new]", "Zoe")
    page.press("[data-pick-new]", "Enter")   # adds the chip, never submits the form
    expect(chip("Zoe")).to_have_attribute("aria-pressed", "true")
    chip("Mom").click()
    assert [b.input_value() for b in boxes] == ["Leo", "Dad", "Zoe", "Mom"]
    seats = page.locator("input[name^=name_]").count()
    for i in range(4, seats):   # the rest typed: a typed name lights its chip too
        page.fill(f"input[name=name_{i}]", "Mia" if i == 4 else f"P{i + 1}")
    expect(chip("Mia")).to_have_attribute("data-seat", "5")
    chip("Mia").click()
    chip("Mia").click()   # back in, last seat; then every seat is taken
    chip("Mom").click()
    chip("Mom").click()
    if seats > 5:
        expect(pick.locator("[data-pick-full]")).to_be_hidden()
    page.fill("[data-pick-new]", "Yan")
    page.click("[data-pick-add]")
    expect(pick.locator("[data-pick-full]")).to_be_visible()
    expect(chip("Yan")).to_have_attribute("aria-pressed", "false")
    chip("Mom").click()   # a seat free again: the notice goes
    expect(pick.locator("[data-pick-full]")).to_be_hidden()
    chip("Mom").click()
    names = [page.locator(f"input[name=name_{i}]").input_value() for i in range(seats)]
    assert names[:4] == ["Leo", "Dad", "Zoe", "Mom"] or names[:3] == ["Leo", "Dad", "Zoe"], names
    assert sorted(names) == sorted(["Leo", "Dad", "Zoe", "Mom", "Mia"] + [f"P{i + 1}" for i in range(5, seats)])
    for c in ("Mom", "Dad", "Leo", "Mia", "Zoe", "Yan"):
        box = chip(c).bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= SMALL["width"], (c, box)
    page.screenshot(path=artifacts_dir / "group-pick-375-light.png", caret="initial")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts_dir / "group-pick-375-dark.png", caret="initial")
    page.emulate_media(color_scheme="light")
    page.locator("form button[type=submit].primary").click()
    expect(page.locator("#me-bar")).to_be_visible()
    for name in ("Leo", "Dad", "Zoe", "Mom", "Mia"):
        expect(page.locator("body")).to_contain_text(name)
