"""Hostile player names are shown as text, never run (Jinja autoescape, ARCHITECTURE §5).

The CSP (script-src 'self') would also block an injected inline handler, so "no dialog"
alone proves little: these tests also check that no element was injected, and the `phones`
fixture fails the test on any CSP violation in the console (an injected handler that the
CSP blocked shows up there).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ISSUE_NAME = "<img src=x onerror=alert(1)>"        # the issue's example (28 characters)
TEXT_NAME = "<svg onload=alert(1)>"                # element context
ATTR_NAME = '"><svg onload=alert(2)>'              # breaks out of an attribute if unescaped


def watch_dialogs(page) -> list[str]:
    dialogs: list[str] = []

    def on_dialog(dialog):
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def expect_nothing_injected(page) -> None:
    expect(page.locator('img[src="x"]')).to_have_count(0)
    expect(page.locator("svg:not(.qr)")).to_have_count(0)
    expect(page.locator("[onload], [onerror]")).to_have_count(0)


def test_hostile_names_are_text_everywhere(phones, ui):
    a, b = phones("A"), phones("B")
    dialogs_a, dialogs_b = watch_dialogs(a.page), watch_dialogs(b.page)

    join_url = ui.create_table(a.page, [TEXT_NAME, ATTR_NAME, "Bob"])
    ui.join(b.page, join_url, "Bob")
    ui.enter_round(b.page, {0: 5, 1: 7, 2: 1})
    expect(ui.total(a.page, "Bob")).to_have_text("1")

    for page in (a.page, b.page):
        head = page.locator("#sheet thead th")
        expect(head.nth(1)).to_have_text(TEXT_NAME)
        expect(head.nth(2)).to_have_text(ATTR_NAME)
        totals = page.locator("#sheet tfoot td")
        assert totals.nth(0).get_attribute("data-player") == TEXT_NAME
        assert totals.nth(1).get_attribute("data-player") == ATTR_NAME
        expect(totals.nth(1)).to_have_text("7")
        expect(page.locator('label[for="score_1"]')).to_have_text(ATTR_NAME)
        expect(page.locator("#sheet .leader-line")).to_contain_text(ATTR_NAME)
        expect_nothing_injected(page)
    expect(a.page.locator("#me-bar")).to_contain_text(f"You are {TEXT_NAME}")

    # The history and seat pages print the names too.
    b.page.get_by_role("link", name="History").click()
    expect(b.page.locator("#history")).to_contain_text(f"{ATTR_NAME} +7")
    expect_nothing_injected(b.page)
    a.page.get_by_role("link", name="Seats").click()
    expect(a.page.get_by_role("button", name=re.compile("^" + re.escape(ATTR_NAME)))).to_be_visible()
    expect_nothing_injected(a.page)

    assert dialogs_a == [] and dialogs_b == []


def test_the_issues_name_plays_as_text(phones, ui):
    """A player named exactly `<img src=x onerror=alert(1)>` (the issue's example) sits at
    the table, scores, and shows as text on both phones: no dialog, no element injected."""
    a, b = phones("A"), phones("B")
    dialogs_a, dialogs_b = watch_dialogs(a.page), watch_dialogs(b.page)
    join_url = ui.create_table(a.page, ["Ann", ISSUE_NAME])
    ui.join(b.page, join_url, ISSUE_NAME)
    ui.enter_round(b.page, {0: 2, 1: 9})
    for page in (a.page, b.page):
        expect(page.locator("#sheet thead th").nth(2)).to_have_text(ISSUE_NAME)
        expect(page.locator(f'#sheet tfoot td[data-player="{ISSUE_NAME}"]')).to_have_text("9")
        expect(page.locator("#sheet .leader-line")).to_contain_text(ISSUE_NAME)
        expect_nothing_injected(page)
    expect(b.page.locator("#me-bar")).to_contain_text(f"You are {ISSUE_NAME}")
    b.page.get_by_role("link", name="History").click()
    expect(b.page.locator("#history")).to_contain_text(f"{ISSUE_NAME} +9")
    expect_nothing_injected(b.page)
    assert dialogs_a == [] and dialogs_b == []
