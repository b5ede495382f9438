"""The layout a family meets: the browser's own font size, a long name, a small phone's One!,
thumb-sized card keys, a Japanese form and a tablet on its side.

- The base font follows the browser's default: a phone set to a 20 px default gets 25 %
  bigger text (Chromium's own setting, through the DevTools protocol's Page.setFontSizes,
  as a user's "font size" preference sets it), and every screen still fits 375 px with
  every total in view: the start page, the game list, each game's new-table form and
  table, the history.
- "Maximilian-Alexander" breaks at its hyphen in every score tile, never inside the word.
- Rocca: right after a player plays down to one card, the One! button is on the screen
  (375x667, light, dark and Japanese).
- The card picker's keys (RockIt, Rocca) are at least 44x44 at 375 px.
- The Japanese new-table form: "me" and "starts" are two separate pills, and no line of a
  heading or a label starts with a prolonged sound mark or a small kana (テ/ーブル).
- A tablet in landscape shows the sheet and the entry form side by side.

Screenshots: test-artifacts/family-layout-*.png.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from phone_checks import assert_fits, assert_tap_targets, save_and_see_notice
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
LONG = "Maximilian-Alexander"
#: Each game with enough players to start; the first (the host) has the long name.
GAMES = {
    "scorepad": [LONG, "Bob", "Christopher", "Dee", "Eve", "Fay"],
    "rook": [LONG, "Bob", "Cy", "Dee"],
    "zocknroll": [LONG, "Bob", "Cy"],
    "rainbow_rummy": [LONG, "Bob", "Cy", "Dee"],
    "rockit": [LONG, "Bob", "Cy"],
    "rocca": [LONG, "Bob"],
}
#: Where each game shows a player's or team's name beside its total.
TILE_NAMES = {
    "scorepad": "#pinned-totals .who",
    "rook": "#rook-totals .who",
    "zocknroll": "#totals tbody th",
    "rainbow_rummy": ".rr-team-name",
    "rockit": ".rk-name",
    "rocca": "#rocca-totals .rt-name",
}

# Where a text's lines begin: the characters that start a new line (by their boxes).
_LINE_STARTS = """(el) => {
  const starts = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node, top = null, before = '';
  while ((node = walker.nextNode())) {
    const text = node.textContent;
    for (let i = 0; i < text.length; i++) {
      if (!text[i].trim()) { before = text[i]; continue; }
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      if (top !== null && box.top > top + 2) starts.push(before + '|' + text.slice(i, i + 3));
      top = box.top; before = text[i];
    }
  }
  return starts;
}"""


def default_font(page: Page, px: int) -> None:
    """Set the browser's default font size, as the user's own setting does."""
    page.context.new_cdp_session(page).send("Page.setFontSizes",
                                            {"fontSizes": {"standard": px, "fixed": 13}})


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url}: the page is {width}px wide"


def new_table(page: Page, slug: str, names: list[str], button: str = "Create table") -> str:
    page.goto(f"/new/{slug}")
    for i, name in enumerate(names):
        page.locator(f'input[name="name_{i}"]').fill(name)
    page.get_by_role("button", name=button).click()
    expect(page.locator("#me-bar")).to_contain_text(names[0])
    return page.url


@pytest.fixture(scope="module")
def big_font(browser, live_url, artifacts_dir):
    """One 375x667 phone with a 20 px default font, seated at a table of every game."""
    context = browser.new_context(viewport=SMALL, is_mobile=True, has_touch=True,
                                  base_url=live_url)
    page = context.new_page()
    default_font(page, 20)
    page.goto("/")
    # 106.25 % of the browser's 20 px: the app's text grows with the user's setting.
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "21.25px"
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts_dir / "family-layout-20px-start.png"), full_page=True)
    page.goto("/new")
    no_sideways_scroll(page)
    tables = {}
    for slug, names in GAMES.items():
        page.goto(f"/new/{slug}")
        no_sideways_scroll(page)
        tables[slug] = new_table(page, slug, names)
    yield SimpleNamespace(page=page, tables=tables)
    context.close()


@pytest.mark.parametrize("slug", GAMES)
def test_a_20px_default_font_fits_375_with_names_broken_between_words(big_font, slug, artifacts_dir):
    page = big_font.page
    page.goto(big_font.tables[slug])
    expect(page.locator("#me-bar")).to_contain_text(LONG)
    assert_fits(page)
    # The long name beside a total breaks at its hyphen (or not at all), never mid-word.
    name = page.locator(TILE_NAMES[slug]).filter(has_text=LONG).first
    expect(name).to_be_visible()
    breaks = name.evaluate(_LINE_STARTS)
    assert all(b[0] in "- &" for b in breaks), f"{slug}: {LONG} breaks at {breaks}"
    page.screenshot(path=str(artifacts_dir / f"family-layout-20px-{slug}.png"), caret="initial")
    if slug == "scorepad":
        page.goto(big_font.tables[slug] + "/history")
        no_sideways_scroll(page)


@pytest.mark.parametrize("slug", ["rockit", "rocca"])
def test_the_card_keys_are_44px_at_375(big_font, slug):
    page = big_font.page
    page.goto(big_font.tables[slug])
    picker = "#entry-form [data-card-picker]"
    expect(page.locator(picker).first).to_be_visible()
    assert_tap_targets(page, picker, strict=True)
    boxes = [b.bounding_box() for b in page.locator(picker).first.locator(".ranks button").all()]
    assert len(boxes) >= 13
    assert min(b["width"] for b in boxes) >= 44 and min(b["height"] for b in boxes) >= 44


# ---------------------------------------------------------------- Rocca: One! in view

def play(page: Page, ui, card: str) -> None:
    """Tap a card on Rocca's turn form and save it (the form caught up with the sheet)."""
    ui.settled(page)
    ui.caught_up(page)
    ui.settled(page)
    picker = page.locator("#entry-form [data-card-picker]").first
    picker.locator(f'[data-rank="{card[:-1]}"]').click()
    picker.locator(f'[data-suit="{card[-1]}"]').click()
    expect(picker.locator("[data-card-input]")).to_have_value(card)
    said = save_and_see_notice(page, "#play-card")
    assert re.search(r"#\d+", said), said                   # saved (in either language)
    ui.settled(page)


@pytest.mark.parametrize("scheme, locale", [("light", "en-US"), ("dark", "en-US"), ("light", "ja-JP")],
                         ids=["light", "dark", "ja"])
def test_rocca_one_is_on_the_screen_right_after_playing_down_to_one_card(
        phones, ui, artifacts_dir, scheme, locale):
    page = phones("Ann", viewport=SMALL, color_scheme=scheme, locale=locale).page
    ja = locale == "ja-JP"
    new_table(page, "rocca", ["Ann", "Bob"], "テーブルを作成" if ja else "Create table")
    # Ann 2♥ 4♥ 6♥ 8♥ (down to one card), Bob (no phone of his own: entered here) between.
    for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H"):
        play(page, ui, card)
    expect(page.locator('[data-total-for="Ann"] b')).to_have_text("1")
    call = page.locator("#one-call button")
    expect(call).to_have_text("ワン！" if ja else "One!")
    ui.settled(page)            # the answer was brought into view (static/js/app.js)
    box = call.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], (
        f"One! at y={box and box['y']:.0f} on a {SMALL['height']}px screen")
    page.screenshot(path=str(artifacts_dir / f"family-layout-rocca-one-{scheme}{'-ja' if ja else ''}.png"),
                    caret="initial")
    with page.expect_response(lambda r: r.request.method == "POST"):
        call.click()
    expect(page.locator('#players li[data-player="Ann"] .tag.check')).to_have_text(
        "ワン ✓" if ja else "One ✓")
    expect(page.locator("#one-call")).to_have_count(0)


# ---------------------------------------------------------------- Japanese new-table form

def test_the_japanese_new_table_form_keeps_me_and_starts_apart_and_words_whole(phones, artifacts_dir):
    page = phones("ja", viewport=SMALL, locale="ja-JP").page
    default_font(page, 20)
    page.goto("/new/rocca")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    no_sideways_scroll(page)
    me = page.locator("ol.players li").first.locator("label.me")
    expect(me).to_have_count(2)             # 自分, 最初
    first, second = me.nth(0).bounding_box(), me.nth(1).bounding_box()
    assert second["x"] - (first["x"] + first["width"]) >= 4, (first, second)
    assert min(first["width"], first["height"], second["width"], second["height"]) >= 44
    for selector in ("h1", "legend", "label", "button", "summary"):
        for el in page.locator(selector).all():
            if not el.is_visible():
                continue
            bad = [b for b in el.evaluate(_LINE_STARTS) if re.match(r".\|[ーァィゥェォャュョッ]", b)]
            assert not bad, f"{selector} {el.inner_text()!r}: a line starts with {bad}"
    page.screenshot(path=str(artifacts_dir / "family-layout-new-table-ja.png"), full_page=True)


# ---------------------------------------------------------------- a tablet on its side

def test_a_landscape_tablet_shows_the_sheet_and_the_entry_side_by_side(phones, artifacts_dir):
    tablet = phones("tablet", viewport={"width": 1024, "height": 768}, is_mobile=False).page
    new_table(tablet, "scorepad", [LONG, "Bob", "Cy"])
    for size in ({"width": 1024, "height": 768}, {"width": 1366, "height": 1024}):
        tablet.set_viewport_size(size)
        no_sideways_scroll(tablet)
        sheet, entry = tablet.locator("#sheet").bounding_box(), tablet.locator("#entry").bounding_box()
        assert entry["x"] >= sheet["x"] + sheet["width"], (sheet, entry)     # two columns
        assert abs(entry["y"] - sheet["y"]) < 40, (sheet, entry)             # side by side
        assert sheet["width"] >= 380 and entry["width"] >= 380
        tablet.locator("#sheet").scroll_into_view_if_needed()
        tablet.screenshot(path=str(artifacts_dir / f"family-layout-tablet-{size['width']}.png"),
                          caret="initial")
    # A phone keeps one column.
    tablet.set_viewport_size(SMALL)
    sheet, entry = tablet.locator("#sheet").bounding_box(), tablet.locator("#entry").bounding_box()
    assert entry["y"] >= sheet["y"] + sheet["height"]
