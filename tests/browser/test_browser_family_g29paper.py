"""A paper game goes on in a real browser at 375 px: the new-table form's "Start from a
paper sheet" takes Rook's team totals (340-285), the table plays on to 600 with the right
winner, and the finished sheet downloads as a PNG from History (the phone here can't share
files, so it downloads). Screenshots at 375x667 of the paper form (light, dark, Japanese)
and the picture itself go to test-artifacts/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
NAMES = ["Ann", "Bob", "Cid", "Dee"]
PNG = b"\x89PNG\r\n\x1a\n"


def fill_paper_form(page, a: int, b: int) -> None:
    for i, name in enumerate(NAMES):
        page.fill(f"input[name=name_{i}]", name)
    page.locator("#paper > summary").click()
    page.fill("#paper_A", str(a))
    page.fill("#paper_B", str(b))
    page.locator("#paper").evaluate("e => e.scrollIntoView({block: 'start'})")


def play_hand(page, bidder: str, bid: int, points_a: int) -> None:
    version = page.locator("#sheet").get_attribute("data-version")
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(version)
    page.locator("#entry-form .chip", has_text=re.compile(f"^{bidder}$")).click()
    page.locator("#entry-form .bids .chip", has_text=re.compile(f"^{bid}$")).click()
    page.locator("#points_A").fill(str(points_a))
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator("#save-hand").click()
    assert info.value.status == 200, info.value.text()[:500]
    expect(page.locator(f'#sheet:not([data-version="{version}"])')).to_have_count(1)


def test_a_paper_game_resumes_at_340_285_plays_to_600_and_its_sheet_downloads(
        phones, artifacts_dir: Path):
    ann = phones("Ann", viewport=SMALL)
    page = ann.page
    # The form in Japanese first (its words are the ones that change), then in English.
    page.goto("/language?to=ja&next=/new/rook")
    fill_paper_form(page, 340, 285)
    page.screenshot(path=artifacts_dir / "paper-form-375-ja.png", caret="initial")
    page.goto("/language?to=en&next=/new/rook")
    fill_paper_form(page, 340, 285)
    for part in ("#paper > summary", "#paper_A", "#paper_B", "[data-sign-for=paper_A]"):
        box = page.locator(part).bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= SMALL["width"], (part, box)
    page.screenshot(path=artifacts_dir / "paper-form-375-light.png", caret="initial")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=artifacts_dir / "paper-form-375-dark.png", caret="initial")
    page.emulate_media(color_scheme="light")
    page.get_by_role("button", name="Create table").click()

    totals = {t: page.locator(f'#sheet [data-total-for="{t}"] [data-team="{t}"]') for t in "AB"}
    expect(totals["A"]).to_have_text("340")
    expect(totals["B"]).to_have_text("285")
    expect(page.locator("#paper-line")).to_contain_text("From the paper sheet")
    # Bob bids 150, his team takes 180: 410-465. Ann bids 180 and takes 200: 610 (RK-9).
    play_hand(page, "Bob", 150, 70)
    expect(totals["A"]).to_have_text("410")
    expect(totals["B"]).to_have_text("465")
    play_hand(page, "Ann", 180, 200)
    expect(totals["A"]).to_have_text("610")
    expect(totals["B"]).to_have_text("515")
    banner = page.locator("#game-over")
    expect(banner).to_contain_text("Ann & Cid")
    expect(banner).to_contain_text("RK-9")

    # The sheet as a picture: from the game-over area to History, where its script lives.
    page.locator("#share-sheet-link").click()
    button = page.locator("#share-sheet-button")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box and box["height"] >= 44 and box["x"] + box["width"] <= SMALL["width"], box
    with page.expect_download() as info:
        button.click()
    download = info.value
    assert download.suggested_filename.endswith(".png"), download.suggested_filename
    data = Path(download.path()).read_bytes()
    assert data[:8] == PNG
    assert 10_000 < len(data) < 3_000_000, len(data)
    (artifacts_dir / "paper-sheet-image.png").write_bytes(data)
    expect(page.locator("#share-sheet-status")).to_have_text("The picture is ready.")


def test_zocknroll_paper_boards_show_the_chosen_boards_rows(phones, artifacts_dir: Path):
    page = phones("Ann", viewport=SMALL).page
    page.goto("/new/zocknroll")
    page.locator("#paper > summary").click()
    page.locator("#paper-board-0 > summary").click()
    board = page.locator("#paper-board-0")
    expect(board.get_by_label("Pair", exact=True)).to_be_visible()          # beginner board
    expect(board.get_by_label("Royal Pairs", exact=True)).to_be_hidden()
    for row in ("winner", "pair", "dropped_out"):
        box = page.locator(f"#paper_0_{row}").bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= SMALL["width"], (row, box)
    page.locator("#paper-board-0").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=artifacts_dir / "paper-boards-375-light.png", caret="initial")
    page.select_option("#f-board", "advanced")
    expect(board.get_by_label("Royal Pairs", exact=True)).to_be_visible()
    expect(board.get_by_label("Pair", exact=True)).to_be_hidden()
