"""Rook, phone-first: a 4-player game to its end on a 375x667 and a 412x915 phone,
light and dark, and in Japanese at 375.

After every Save: the sheet fits (both teams' totals in view, nothing clipped), the notice
is in view within 1 s (a valid hand, a refused one, a redeal), every control is big enough.
Taps are counted as a thumb makes them: from the start page the host records the first
hand in at most 8 taps besides typing names; every later hand takes at most 6 (bidder,
bid, points, Save) with every control already on the screen (no scrolling).
"""
from __future__ import annotations

import re

import pytest
from phone_checks import (SIZES, assert_fits, assert_in_first_screen, assert_tap_targets,
                          save_and_see_notice)
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee"]
FIRST_HAND_TAPS = 8
LATER_HAND_TAPS = 6

_ON_SCREEN = """
(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
    return `at y=${Math.round(r.top)}..${Math.round(r.bottom)} on a ${innerHeight}px screen`;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !(el.contains(hit) || hit.contains(el) || hit.closest('label') === el.closest('label')))
    return 'covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing');
  return '';
}
"""


class Thumb:
    """Taps on one phone, counted. With `no_scrolling`, every tap must land on a control
    that is already on the screen and uncovered (Playwright would scroll to it otherwise)."""

    def __init__(self, page: Page):
        self.page = page
        self.taps = 0
        self.no_scrolling = False

    def tap(self, target: Locator) -> None:
        if self.no_scrolling:
            where = target.evaluate(_ON_SCREEN)
            assert not where, f"tap {self.taps + 1} needs a scroll: {target} is {where}"
        target.click()
        self.taps += 1

    def type_number(self, box: Locator, value: int) -> None:
        """Focus a number box (one tap) and type into it (typing is not a tap)."""
        self.tap(box)
        box.press_sequentially(str(value))


def wait_until_ready(page: Page) -> None:
    """The form on screen is the one at the sheet's version (no swap under way)."""
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    version = page.locator("#sheet").get_attribute("data-version")
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(version)


def fill_hand(thumb: Thumb, bidder: str, bid: int, points_a: int, points_b: int | None = None):
    """Bidder, bid, team A's points (B fills in, or is typed too for a recount)."""
    page = thumb.page
    wait_until_ready(page)
    thumb.tap(page.locator("#entry-form .rook-bidder .chip", has_text=re.compile(f"^{bidder}$")))
    thumb.tap(page.locator("#entry-form .bids .chip", has_text=re.compile(f"^{bid}$")))
    thumb.type_number(page.locator("#points_A"), points_a)
    if points_b is not None:
        page.locator("#points_B").fill("")
        thumb.type_number(page.locator("#points_B"), points_b)


def save(thumb: Thumb, button: str = "#save-hand") -> str:
    """Tap Save (counted) and return the notice seen in view within 1 s."""
    if thumb.no_scrolling:
        where = thumb.page.locator(button).evaluate(_ON_SCREEN)
        assert not where, f"Save needs a scroll: {button} is {where}"
    thumb.taps += 1
    return save_and_see_notice(thumb.page, button)


def check_screen(page: Page) -> None:
    assert_fits(page)
    assert_tap_targets(page, "body")


def total(page: Page, team: str) -> Locator:
    return page.locator(f'#sheet [data-total-for="{team}"] [data-team="{team}"]')


def create_from_start(thumb: Thumb) -> None:
    """Start page → New table → Rook → names typed → Create: 3 taps."""
    page = thumb.page
    page.goto("/")
    thumb.tap(page.get_by_role("link", name="New table"))
    thumb.tap(page.get_by_role("link", name=re.compile(r"^Rook")))
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    thumb.tap(page.get_by_role("button", name="Create table"))
    expect(page.locator("#me-bar")).to_contain_text("You are Ann")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_rook_game_on_a_phone(phones, artifacts_dir, size, scheme):
    page = phones("Ann", viewport=size, color_scheme=scheme).page
    w, h = size["width"], size["height"]
    thumb = Thumb(page)

    # The first hand, from the start page: ≤ 8 taps besides typing the names (the host's
    # first screen shows the QR until a second phone joins: scrolling is allowed here).
    create_from_start(thumb)
    assert_fits(page)
    join_url = page.locator("#join-url").get_attribute("href")
    fill_hand(thumb, "Ann", 150, 180)
    expect(page.locator("#points_B")).to_have_value("70")
    notice = save(thumb)
    assert "Saved" in notice, notice
    assert thumb.taps <= FIRST_HAND_TAPS, f"first hand took {thumb.taps} taps"
    first_hand_taps = thumb.taps
    expect(total(page, "A")).to_have_text("180")
    expect(total(page, "B")).to_have_text("70")
    check_screen(page)

    # Bob's phone joins: the QR steps aside and the totals lead the host's first screen.
    bob = phones("Bob", viewport=size, color_scheme=scheme).page
    bob.goto(join_url)
    bob.get_by_role("button", name=re.compile(r"^Bob ")).click()
    expect(bob.locator("#me-bar")).to_contain_text("You are Bob")
    expect(page.locator("#first-screen #invite")).to_have_count(0)
    for team in ("A", "B"):
        assert_in_first_screen(page, f'[data-total-for="{team}"]')

    # Later hands: ≤ 6 taps each, every control on the screen where the last Save left it.
    thumb.no_scrolling = True
    later = []

    def hand(bidder, bid, points_a, points_b=None, expect_notice="Saved"):
        thumb.taps = 0
        fill_hand(thumb, bidder, bid, points_a, points_b)
        seen = save(thumb)
        assert expect_notice in seen, seen
        later.append(thumb.taps)
        assert thumb.taps <= LATER_HAND_TAPS, f"a hand took {thumb.taps} taps"
        check_screen(page)

    # A refused hand (the points don't add up to 250): the refusal is in view, nothing counts.
    hand("Bob", 160, 100, 100, expect_notice="RK-7")
    expect(total(page, "A")).to_have_text("180")
    page.locator("#points_A").fill("")
    page.locator("#points_B").fill("")
    # Bob is set: 160 bid, his team took 100 (A +150, B −160).
    hand("Bob", 160, 150)
    expect(total(page, "B")).to_have_text("-90")
    expect(page.locator("#sheet .rook-hands tbody tr").first).to_contain_text("-160")

    # Everyone passes on Cid's deal: two taps below the hand's form (it asks first, naming
    # the dealer), and the sheet says who deals next.
    wait_until_ready(page)
    thumb.taps, thumb.no_scrolling = 0, False
    thumb.tap(page.locator("#redeal-ask"))
    expect(page.locator("#redeal-box .ask-question")).to_contain_text("Cid")
    notice = save(thumb, "#redeal")
    thumb.no_scrolling = True
    assert "Saved" in notice, notice
    check_screen(page)
    redeal = page.locator("#sheet tr.redeal")
    expect(redeal).to_contain_text("Everyone passed on Cid’s deal; Dee deals next.")
    expect(page.locator("#sheet .dealer-line")).to_contain_text("dealer: Dee")

    hand("Dee", 150, 250)                     # Dee is set: A 580, B -240
    expect(total(page, "A")).to_have_text("580")
    # What the thumb sees mid-game, where the last Save left the page.
    page.screenshot(path=artifacts_dir / f"rook-{w}x{h}-{scheme}.png", caret="initial",
                    animations="disabled")
    hand("Ann", 150, 250)                     # Ann's team passes 600: 830
    # Hands, newest first: 4, 3, ↻, 2, 1 — no number twice.
    numbers = [n.strip() for n in page.locator("#sheet .rook-hands tbody th").all_inner_texts()]
    assert numbers == ["4", "3", "↻", "2", "1"], numbers
    # The usual rule tag once, in the caption, not in every cell.
    expect(page.locator("#sheet .rook-hands .rule", has_text="RK-8")).to_have_count(1)

    expect(page.locator("#game-over")).to_contain_text("Ann & Cid")
    expect(total(page, "A")).to_have_text("830")
    expect(page.locator("#rematch")).to_be_visible()
    for team in ("A", "B"):
        assert_in_first_screen(page, f'[data-total-for="{team}"]')
    check_screen(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=artifacts_dir / f"rook-{w}x{h}-{scheme}-over.png", caret="initial",
                    animations="disabled")
    page.screenshot(path=artifacts_dir / f"rook-{w}x{h}-{scheme}-full.png", full_page=True,
                    caret="initial", animations="disabled")
    print(f"{w}x{h} {scheme}: first hand {first_hand_taps} taps, later hands {later}")
    assert all(n <= LATER_HAND_TAPS for n in later)


def test_rook_new_table_form_is_short(phones, artifacts_dir):
    """The 14 house rules start folded behind the variant ("Change rules" opens them)."""
    page = phones("Ann", viewport=SIZES[0]).page
    page.goto("/new/rook")
    expect(page.locator("#f-variant")).to_be_visible()
    expect(page.locator("#f-target")).to_be_hidden()
    expect(page.locator("details.presets li").first).to_be_hidden()
    height = page.evaluate("() => document.documentElement.scrollHeight")
    print("new-table form height", height)
    assert height <= 3 * SIZES[0]["height"], f"the form is {height}px tall"
    assert_tap_targets(page, "form")
    page.screenshot(path=artifacts_dir / "rook-new-375x667.png", full_page=True, caret="initial")
    page.locator("#change-rules > summary").click()
    expect(page.locator("#f-target")).to_be_visible()
    page.locator("details.presets > summary").click()
    expect(page.locator("details.presets")).to_contain_text("1s high (180 a hand)")


def test_rook_rare_boxes_below_save(phones):
    """Trump and a bad discard sit below Save (outside the form element, form="entry-form"),
    and still go with the hand."""
    page = phones("Ann", viewport=SIZES[0]).page
    thumb = Thumb(page)
    create_from_start(thumb)
    fill_hand(thumb, "Ann", 150, 160)
    page.locator("details.rook-more > summary").click()
    assert_tap_targets(page, "#play")
    page.locator("details.rook-more .chip.trump-R").click()
    page.locator('input[name="bad_discard"]').check()
    assert "Saved" in save(thumb)
    expect(total(page, "A")).to_have_text("-150")                 # R-A2: an automatic set
    expect(total(page, "B")).to_have_text("90")
    expect(page.locator("#sheet .rook-hands tbody tr").first).to_contain_text("bad discard")


def test_rook_in_japanese_fits(phones, artifacts_dir):
    page = phones("Ann", viewport=SIZES[0], locale="ja-JP").page
    page.goto("/new/rook")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    for i, name in enumerate(["アン", "ボブ", "シド", "ディー"]):
        page.locator(f'input[name="name_{i}"]').fill(name)
    page.locator("form.stack button[type=submit].primary").click()
    expect(page.locator("#entry-form")).to_be_visible()
    assert_fits(page)
    page.locator("#entry-form .rook-bidder .chip").first.click()
    page.locator("#entry-form .bids .chip").first.click()
    page.locator("#points_A").fill("180")
    save_and_see_notice(page, "#save-hand")
    expect(page.locator('[data-total-for="A"] .num')).to_have_text("180")
    assert_fits(page)
    check_screen(page)
    page.screenshot(path=artifacts_dir / "rook-375x667-ja.png", caret="initial")


def test_rook_trick_tool_on_a_phone(phones):
    """The trick tool names the variants (never "ones_180") and is easy to tap."""
    page = phones("Ann", viewport=SIZES[0]).page
    page.goto("/rook/trick")
    options = page.locator("#variant option").all_inner_texts()
    assert "1s high (180 a hand)" in options and "ones_180" not in options
    page.locator("#variant").select_option("ones_180")
    page.locator(".rook-trick .chip.trump-R").click()
    page.locator("#c1").select_option("14G")
    page.locator("#c2").select_option("5R")
    page.get_by_role("button", name="Who won?").click()
    expect(page.locator("#trick-verdict")).to_contain_text("5 Red")
    expect(page.locator("#variant")).to_have_value("ones_180")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[0]["width"]
    assert_tap_targets(page)


def answer_in_view(page: Page, button: Locator, answer: str) -> Locator:
    """Tap a help-page button (a full page load) and return its answer, which must be on
    the screen, not below the fold, within 1 s."""
    with page.expect_navigation():
        button.click()
    notice = page.locator(answer)
    expect(notice).to_be_in_viewport(timeout=1000)
    return notice


def fits_375(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[0]["width"], f"the page is {width}px wide"


def test_rook_table_help_on_a_phone(phones, artifacts_dir):
    """The table help at 375x667: the sheet's "Table help" links open each part of the help page
    with the table's house rules and players; every answer (the auction, the discard, a
    renege) is in view after its tap, with its rule, and every control is big enough."""
    page = phones("Ann", viewport=SIZES[0]).page
    create_from_start(Thumb(page))
    help_links = page.locator("#table-help")
    help_links.scroll_into_view_if_needed()
    expect(help_links.locator("a")).to_have_count(4)
    assert_fits(page)
    assert_tap_targets(page, "#table-help")
    help_links.screenshot(path=artifacts_dir / "rook-table-help-375x667.png", caret="initial")

    # The auction (RK-4): tap 150, Pass; a typed 150 is no raise.
    page.locator("#help-bidding").click()
    expect(page.locator("#bidding")).to_have_attribute("open", "")
    expect(page.locator("#table-players")).to_contain_text("4 players at this table")
    fits_375(page)
    assert_tap_targets(page)
    verdict = answer_in_view(page, page.locator("#bidding .bid-call", has_text="150"),
                             "#bid-verdict")
    expect(verdict).to_contain_text("The high bid is 150")
    expect(verdict).to_contain_text("RK-4")
    verdict = answer_in_view(page, page.locator("#bidding .pass-call"), "#bid-verdict")
    expect(page.locator("#calls")).to_contain_text("150 · pass")
    page.locator('#bidding input[name="bid"]').fill("150")
    verdict = answer_in_view(page, page.get_by_role("button", name="Bid", exact=True),
                             "#bid-verdict")
    expect(verdict).to_contain_text("150 is not a raise")
    expect(page.locator("#high-bid")).to_have_text("150")
    fits_375(page)
    assert_tap_targets(page)
    page.screenshot(path=artifacts_dir / "rook-help-bidding-375x667.png", caret="initial")

    # The discard (RK-5): a trump discarded while holding 12 is an automatic set.
    page.locator("#discard > summary").click()
    page.locator("#d_trump").select_option("1")
    page.locator("#d_held").select_option("12")
    assert_tap_targets(page)
    verdict = answer_in_view(page, page.get_by_role("button", name="Check the discard"),
                             "#discard-verdict")
    expect(verdict).to_contain_text("Automatic set")
    expect(verdict).to_contain_text("RK-5")

    # Did they have to follow? (RK-6): green led, a black played, a green shown later.
    page.locator(".rook-help .chip.trump-R").click()
    page.locator("#follow > summary").click()
    page.locator("#f_led").select_option("14G")
    page.locator("#f_played").select_option("5B")
    page.locator("#f_held1").select_option("9G")
    assert_tap_targets(page)
    verdict = answer_in_view(page, page.get_by_role("button", name="Did they renege?"),
                             "#follow-verdict")
    expect(verdict).to_contain_text("Renege: Green was led")
    expect(verdict).to_contain_text("RK-6")
    fits_375(page)
    assert_tap_targets(page)
    page.screenshot(path=artifacts_dir / "rook-help-follow-375x667.png", caret="initial")
