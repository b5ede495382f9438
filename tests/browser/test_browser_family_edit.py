"""Fixing an older Rook hand in place at 375x667: hand 2 of 5 (the deal after a redeal) is
changed from History's Edit; the sheet keeps its order, the redeal line and the dealer
line still name the right dealers, the history says who changed what, and the other phone
(dark) sees it live and takes it back. Screenshots: test-artifacts/family-edit-*.png."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ["Mom", "Leo", "Ann", "Cid"]          # Mom & Ann against Leo & Cid
SMALL = {"viewport": {"width": 375, "height": 667}}


def create_rook(page) -> str:
    page.goto("/new/rook")
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text("You are Mom")
    return page.locator("#join-url").get_attribute("href")


def settle(page, entries: int) -> None:
    """Wait until the sheet and the entry form show the table after `entries` entries."""
    expect(page.locator("#rook-hands tbody tr:not(:has(td.empty[colspan='4']))")
           ).to_have_count(entries)
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    version = page.locator("#sheet").get_attribute("data-version")
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(version)


def play_hand(page, bidder: str, bid: int, points_a: int, entries: int) -> None:
    settle(page, entries)
    page.locator("#entry-form .chip", has_text=re.compile(f"^{bidder}$")).click()
    page.locator("#entry-form .bids .chip", has_text=re.compile(f"^{bid}$")).click()
    page.locator("#points_A").fill(str(points_a))
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator("#save-hand").click()
    assert info.value.status == 200, info.value.text()[:500]


def redeal(page, entries: int) -> None:
    settle(page, entries)
    page.locator("#redeal-ask").click()          # the redeal asks first
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator("#redeal").click()
    assert info.value.status == 200, info.value.text()[:500]


def totals(page) -> tuple[str, str]:
    return (page.locator('[data-total-for="A"] [data-team="A"]').inner_text(),
            page.locator('[data-total-for="B"] [data-team="B"]').inner_text())


def test_edit_hand_2_of_5_keeps_the_dealers_right(phones, artifacts_dir):
    mom = phones("Mom", **SMALL).page
    leo = phones("Leo", color_scheme="dark", **SMALL).page
    join_url = create_rook(mom)
    leo.goto(join_url)
    leo.get_by_role("button", name=re.compile(r"^Leo ")).click()
    expect(leo.locator("#me-bar")).to_contain_text("You are Leo")

    # Hand 1 on Mom's deal; everyone passes on Leo's; hands 2-4 (entries #3-#5 of the log
    # after the seat rows: found by their Edit links, not by number).
    play_hand(mom, "Mom", 150, 100, entries=0)
    redeal(mom, entries=1)
    play_hand(mom, "Leo", 150, 40, entries=2)
    play_hand(mom, "Ann", 150, 160, entries=3)
    play_hand(mom, "Cid", 160, 120, entries=4)
    settle(mom, 5)
    redeal_line = "Everyone passed on Leo’s deal; Ann deals next."
    expect(mom.locator("#rook-hands tr.redeal")).to_contain_text(redeal_line)
    expect(mom.locator(".dealer-line")).to_contain_text("Hand 5 dealer: Leo")
    before = totals(mom)
    expect(leo.locator('[data-total-for="A"] [data-team="A"]')).to_have_text(before[0])

    # Hand 2 was Leo's, and Mom & Ann took 30, not 40: History, Edit, the form as it was.
    mom.get_by_role("link", name="History").click()
    edits = mom.locator("a.h-edit")
    expect(edits).to_have_count(5)
    link = edits.nth(2)                          # newest first: hands 4, 3, 2
    box = link.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    link.click()
    expect(mom.locator("h1")).to_have_text("Change hand 2")
    expect(mom.locator("#edit-was")).to_contain_text("Leo bid 150; points Mom & Ann 40, Leo & Cid 210")
    expect(mom.locator("#entry-form input[name=bidder][value=Leo]")).to_be_checked()
    expect(mom.locator("#points_A")).to_have_value("40")
    mom.screenshot(path=str(artifacts_dir / "family-edit-form-light.png"))
    mom.locator("#points_A").fill("30")
    expect(mom.locator("#points_B")).to_have_value("220")
    mom.locator("#save-hand").click()

    # Back on the history: the change is its newest line, in words.
    expect(mom).to_have_url(re.compile(r"/history#action-\d+$"))
    line = mom.locator("ol.history li").first
    expect(line).to_contain_text("Mom changed hand 2 (entry #")
    expect(line).to_contain_text("Leo bid 150; points Mom & Ann 40, Leo & Cid 210 → Leo bid 150; "
                                 "points Mom & Ann 30, Leo & Cid 220")
    mom.screenshot(path=str(artifacts_dir / "family-edit-history-light.png"))

    # The sheet: same order and numbers, the redeal and the dealer line unchanged.
    mom.get_by_role("link", name="‹ Table").click()
    rows = mom.locator("#rook-hands tbody tr th")
    expect(rows).to_have_text(["4", "3", "2", "↻", "1"])
    expect(mom.locator("#rook-hands tr.redeal")).to_contain_text(redeal_line)
    expect(mom.locator(".dealer-line")).to_contain_text("Hand 5 dealer: Leo")
    changed = (str(int(before[0]) - 10), str(int(before[1]) + 10))
    assert totals(mom) == changed
    mom.screenshot(path=str(artifacts_dir / "family-edit-sheet-light.png"))

    # Leo's phone got it live; Leo takes the change back from the history (asked first).
    expect(leo.locator('[data-total-for="A"] [data-team="A"]')).to_have_text(changed[0])
    expect(leo.locator("#rook-hands tr.redeal")).to_contain_text(redeal_line)
    leo.get_by_role("link", name="History").click()
    expect(leo.locator("ol.history li").first).to_contain_text("Mom changed hand 2")
    leo.screenshot(path=str(artifacts_dir / "family-edit-history-dark.png"))
    leo.locator("a.h-edit").nth(2).click()
    expect(leo.locator("#points_A")).to_have_value("30")
    leo.screenshot(path=str(artifacts_dir / "family-edit-form-dark.png"))
    leo.go_back()
    leo.once("dialog", lambda dialog: dialog.accept())
    leo.locator("ol.history li").first.get_by_role("button", name=re.compile("Undo change"))\
        .click()
    expect(leo.locator("ol.history li").first).to_contain_text("Undid entry #")
    expect(mom.locator('[data-total-for="A"] [data-team="A"]')).to_have_text(before[0])
    leo.goto(mom.url.split("#")[0])
    expect(leo.locator(".dealer-line")).to_contain_text("Hand 5 dealer: Leo")
    leo.screenshot(path=str(artifacts_dir / "family-edit-sheet-dark.png"))

    # Japanese (the words changed): the history's change line and the edit form.
    mom.goto(f"/language?to=ja&next={urlsplit(mom.url).path}/history")
    expect(mom.locator("html")).to_have_attribute("lang", "ja")
    expect(mom.locator("ol.history li").nth(1)).to_contain_text("Mom")
    mom.screenshot(path=str(artifacts_dir / "family-edit-history-ja.png"))
    mom.locator("a.h-edit").first.click()
    expect(mom.locator("#save-hand")).to_be_visible()
    mom.screenshot(path=str(artifacts_dir / "family-edit-form-ja.png"))
