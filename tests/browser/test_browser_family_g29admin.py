"""Looking after a group in a real browser at 375 px: merging two players goes through
its confirm page (which names both), deleting the group through one naming it and its
games; and the new-table form's "me" pill keeps clear of the card's edge (English and
Japanese). Screenshots at 375x667, light and dark, go to test-artifacts/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}


def _shots(page, artifacts_dir, name):
    page.screenshot(path=artifacts_dir / f"{name}-375-light.png", caret="initial")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts_dir / f"{name}-375-dark.png", caret="initial")
    page.emulate_media(color_scheme="light")


def _pill_clear(page):
    """Every "me" pill holds its word inside its border and keeps off the card's edge."""
    card = page.locator("ol.players").locator("xpath=ancestor::fieldset").bounding_box()
    for pill in page.locator("ol.players label.me").all()[:2]:
        box = pill.bounding_box()
        assert card["x"] + card["width"] - (box["x"] + box["width"]) >= 10, (box, card)
        assert pill.evaluate("e => e.scrollWidth <= e.clientWidth"), box


def test_merge_and_delete_the_group_through_their_confirm_pages(phones, artifacts_dir):
    page = phones("Mom", viewport=SMALL).page
    page.goto("/g/new")
    page.fill("#group-name", "Friday")
    page.fill("#group-players", "Mom\nDad\nLeo")
    page.click("button[type=submit]")
    expect(page.locator("#group-name")).to_have_text("Friday")
    group_url = page.url.split("#")[0]
    # The group's new-table form: the "me" pill clear of the edge.
    page.goto(group_url + "/new/rook")
    page.locator("ol.players").scroll_into_view_if_needed()
    _pill_clear(page)
    _shots(page, artifacts_dir, "g29admin-new-table")
    # "Leo" is Dad: merge, confirm.
    page.goto(group_url)
    leo = page.locator(".group-players li").filter(
        has=page.locator("summary", has_text="Leo"))
    leo.locator("summary").click()
    leo.locator("select[name=into]").select_option(label="Dad")
    leo.locator("form.merge-form button").click()
    expect(page.locator("#confirm h1")).to_have_text("Merge Leo into Dad?")
    expect(page.locator("#confirm-yes")).to_be_in_viewport()
    _shots(page, artifacts_dir, "g29admin-merge-confirm")
    page.click("#confirm-yes")
    expect(page.locator(".group-players summary")).to_have_text(["Mom", "Dad"])
    # Delete the group: the page names it and its games; then the start page.
    page.click("#delete-group a")
    expect(page.locator("#confirm h1")).to_have_text("Delete the group “Friday”?")
    expect(page.locator("#confirm")).to_contain_text("Its 0 recorded games")
    expect(page.locator("#confirm-yes")).to_be_in_viewport()
    _shots(page, artifacts_dir, "g29admin-delete-confirm")
    page.click("#confirm-yes")
    expect(page.locator("#your-groups a")).to_have_count(0)


def test_the_japanese_new_table_form_keeps_me_clear_of_the_edge(phones, artifacts_dir):
    page = phones("ja", viewport=SMALL, locale="ja-JP").page
    page.goto("/new/rook")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.locator("ol.players").scroll_into_view_if_needed()
    _pill_clear(page)
    _shots(page, artifacts_dir, "g29admin-new-table-ja")
