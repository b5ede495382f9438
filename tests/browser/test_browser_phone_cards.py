"""The card games on small and large phones (phone-first means 375 px): RockIt to Destiny, Rainbow Rummy 333 and Rocca Card Tower, each played to game over
at 375x667 and 412x915, light and dark (Rocca also in Japanese at 375).

After every Save (valid and refused) the answer's notice is in view within 1 s, the sheet
fits the screen with every total in view, and every control is big enough for a thumb
(tests/browser/phone_checks.py). The destructive taps ask first (RockIt's "went out" and
"Finish the match"); Rocca's one-card box takes a new tap as the card; "say One!" is gone
once the game is over. Screenshots: test-artifacts/<game>-<w>x<h>-<scheme>.png.
"""
from __future__ import annotations

import re

import pytest
from phone_checks import SIZES, assert_fits, assert_tap_targets, save_and_see_notice, tap_cards
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SCHEMES = ["light", "dark"]
PHONES = [pytest.param(size, scheme, id=f"{size['width']}x{size['height']}-{scheme}")
          for size in SIZES for scheme in SCHEMES]


# ---------------------------------------------------------------- shared steps

def new_table(page: Page, game: str, names: list[str], player_label: str = "Player",
              create: str = "Create table", new: str = "New table") -> None:
    """Start → New table → the game → names → Create (the host sits in seat 1)."""
    page.goto("/")
    page.get_by_role("link", name=new).click()
    page.get_by_role("link", name=re.compile("^" + re.escape(game))).click()
    for i, name in enumerate(names):
        page.get_by_label(f"{player_label}{i + 1}" if player_label.endswith("ー")
                          else f"{player_label} {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name=create).click()
    expect(page.locator("#me-bar")).to_contain_text(names[0])


def ready(page: Page, ui) -> None:
    """The entry form has caught up with the sheet and no swap is under way."""
    ui.settled(page)
    ui.caught_up(page)
    ui.settled(page)


def saved(page: Page, ui, button: str, expected: str | re.Pattern) -> str:
    """Tap Save; the notice is in view within 1 s and says `expected`; then the page fits
    375/412 px with every total in view, and every control on the table is thumb-sized."""
    said = save_and_see_notice(page, button)
    assert re.search(expected, said) if isinstance(expected, re.Pattern) else expected in said, said
    ui.settled(page)
    assert_fits(page)
    assert_tap_targets(page, "#play")
    return said


def shoot(page: Page, artifacts_dir, game: str, scheme: str) -> None:
    size = page.viewport_size
    page.screenshot(path=str(artifacts_dir / f"{game}-{size['width']}x{size['height']}-{scheme}.png"),
                    full_page=True, caret="initial")


# ---------------------------------------------------------------- RockIt to Destiny

@pytest.mark.parametrize("size, scheme", PHONES)
def test_rockit_to_game_over(phones, ui, artifacts_dir, size, scheme):
    page = phones("Ann", viewport=size, color_scheme=scheme).page
    new_table(page, "RockIt to Destiny", ["Ann", "Bob", "Cy"])
    assert_fits(page)
    assert_tap_targets(page, "#play")

    # A come-in worth 24 is refused (RID-4): the notice is in view, the box is marked.
    ready(page, ui)
    picker = page.locator("#entry-form [data-card-picker]")
    tap_cards(picker, ["7C", "8C", "9C"])
    saved(page, ui, "#come-in", "coming in needs at least 30")
    expect(page.locator("#come-in-cards")).to_have_value("7C 8C 9C")
    expect(page.locator("#come-in-cards")).to_have_attribute("aria-invalid", "true")
    tap_cards(page.locator("#entry-form [data-card-picker]"), ["10C"])
    saved(page, ui, "#come-in", "Saved as entry #1")
    expect(page.locator('[data-in="Ann"]')).to_have_text("in ✓ 34")

    # "Ann went out" ends the game in one tap, so it asks first: No changes nothing.
    ready(page, ui)
    version = page.locator("#sheet").get_attribute("data-version")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("#won-0").click()
    page.wait_for_timeout(300)
    expect(page.locator("#sheet")).to_have_attribute("data-version", version)
    expect(page.locator('[data-total-for="Ann"]')).to_contain_text("0")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    saved(page, ui, "#won-0", "Saved as entry #2")
    assert asked == ["Ann went out and won game 1? This ends the game."]
    expect(page.locator('[data-total-for="Ann"]')).to_contain_text("1")
    expect(page.locator("#game-number")).to_have_text("Game 2")

    # Finishing the match asks too; then the game is over.
    ready(page, ui)
    page.once("dialog", lambda dialog: dialog.accept())
    saved(page, ui, "#finish-match", "Saved as entry #3")
    expect(page.locator("#game-over")).to_contain_text("Ann")
    expect(page.locator("#won-0")).to_have_count(0)
    shoot(page, artifacts_dir, "rockit", scheme)


# ---------------------------------------------------------------- Rainbow Rummy 333

def rr_points(page: Page, went_out: int, hand: dict[int, int], down: dict[int, int]) -> None:
    page.locator(f'#entry-form .rr-out input[name="went_out"][value="{went_out}"]') \
        .locator("xpath=..").click()
    for seat, points in hand.items():
        page.locator(f"#hand_pts_{seat}").fill(str(points))
    for seat, points in down.items():
        page.locator(f"#down_pts_{seat}").fill(str(points))


@pytest.mark.parametrize("size, scheme", PHONES)
def test_rainbow_rummy_to_game_over(phones, ui, artifacts_dir, size, scheme):
    page = phones("Ann", viewport=size, color_scheme=scheme).page
    page.goto("/new/rainbow_rummy")
    expect(page.locator("form")).to_contain_text(
        "players 1 and 3 are one team, players 2 and 4 the other")
    new_table(page, "Rainbow Rummy 333", ["Ann", "Bob", "Cid", "Dee"])
    assert_fits(page)

    # Ann goes out; Dee's hand is forgotten: refused, in view, the box marked.
    ready(page, ui)
    rr_points(page, 0, {1: 40, 2: 1}, {0: 0, 1: 7, 2: 0, 3: 0})
    saved(page, ui, "#save-hand", "Enter Dee's cards in hand")
    expect(page.locator("#hand_pts_3")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#hand_pts_1")).to_have_value("40")
    # No face-down cards: each typed 0 (the hint says "0 if none"; an empty box is no score).
    page.locator("#hand_pts_3").fill("5")
    saved(page, ui, "#save-hand", "Saved as entry #1")
    # A: 0 + 1×2 = 2; B: 80 + 7 + 10 = 97: Ann & Cid score 95.
    expect(page.locator('[data-total-for="Ann & Cid"] [data-team-total]')).to_have_text("95")

    ready(page, ui)
    rr_points(page, 2, {0: 1, 1: 6, 3: 1}, {0: 0, 1: 0, 2: 0, 3: 0})
    saved(page, ui, "#save-hand", "Saved as entry #2")
    expect(page.locator("#game-over")).to_contain_text("Ann & Cid")
    expect(page.locator('[data-total-for="Ann & Cid"] [data-team-total]')).to_have_text("107")
    expect(page.locator('[data-total-for="Bob & Dee"] [data-team-total]')).to_have_text("0")
    shoot(page, artifacts_dir, "rainbow_rummy", scheme)

    # The checker page fits too.
    page.locator("#rr-checker").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_tap_targets(page, "main")
    page.locator("#rr-card").fill("5J")
    page.locator("#rr-onto").fill("6S")
    page.locator("#rr-check").click()
    expect(page.locator("#rr-verdict")).to_contain_text("Yes")
    assert_tap_targets(page, "main")


# ---------------------------------------------------------------- Rocca Card Tower

def rocca_play(page: Page, ui, card: str, expected: str | re.Pattern = "Saved as entry") -> None:
    ready(page, ui)
    picker = page.locator("#entry-form [data-card-picker]").first
    tap_cards(picker, [card])
    expect(picker.locator("[data-card-input]")).to_have_value(card)
    saved(page, ui, "#play-card", expected)


def play_rocca(page: Page, ui, words: dict[str, str]) -> None:
    """Ann and Bob: Ann plays 2♥ 4♥ 6♥ 8♥, says One, and goes out with 10♥."""
    ready(page, ui)
    saved(page, ui, "#play-card", words["tap the card"])            # nothing tapped: refused
    expect(page.locator("#card")).to_have_attribute("aria-invalid", "true")
    # A box that holds one card takes a new tap as the card (no silent "nothing happened").
    picker = page.locator("#entry-form [data-card-picker]").first
    tap_cards(picker, ["3H"])
    tap_cards(picker, ["2H"])
    expect(picker.locator("[data-card-input]")).to_have_value("2H")
    saved(page, ui, "#play-card", words["saved"])
    for card in ("3H", "4H", "5H", "6H", "7H", "8H"):
        rocca_play(page, ui, card, words["saved"])
    expect(page.locator('[data-total-for="Ann"] b')).to_have_text("1")
    expect(page.locator('#players li[data-player="Ann"] .tag.warn')).to_be_visible()  # say One!
    ready(page, ui)
    saved(page, ui, 'button.one-button[value="Ann"]', words["saved"])
    rocca_play(page, ui, "9H", words["saved"])
    rocca_play(page, ui, "10H", words["saved"])
    expect(page.locator("#turn")).to_contain_text("🏆")
    # Over: nobody is asked to say One, and there is no One! button to tap.
    expect(page.locator("#players .one-button")).to_have_count(0)
    expect(page.locator("#players .tag.warn")).to_have_count(0)
    expect(page.locator("#next-game")).to_be_visible()


@pytest.mark.parametrize("size, scheme", PHONES)
def test_rocca_to_game_over(phones, ui, artifacts_dir, size, scheme):
    page = phones("Ann", viewport=size, color_scheme=scheme).page
    new_table(page, "Rocca Card Tower", ["Ann", "Bob"])
    assert_fits(page)
    play_rocca(page, ui, {"tap the card": "Tap the card Ann placed", "saved": "Saved as entry"})
    shoot(page, artifacts_dir, "rocca", scheme)

    page.locator("#checker-link").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_tap_targets(page, "main")
    page.screenshot(path=str(artifacts_dir / f"rocca-check-{size['width']}x{size['height']}-{scheme}.png"),
                    full_page=True, caret="initial")


def test_rocca_in_japanese_at_375(phones, ui, artifacts_dir):
    page = phones("Ann", viewport=SIZES[0], locale="ja-JP").page
    new_table(page, "ロッカ・カードタワー", ["Ann", "Bob"], player_label="プレイヤー",
              create="テーブルを作成", new="新しいテーブル")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert_fits(page)
    play_rocca(page, ui, {"tap the card": "Ann", "saved": "#"})
    assert_fits(page)
    shoot(page, artifacts_dir, "rocca-ja", "light")


# ---------------------------------------------------------------- the tool pages

@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_tool_pages_fit(phones, artifacts_dir, size):
    page = phones("tools", viewport=size).page
    for path in ("/rockit/check", "/rainbow-rummy/check", "/rocca/check"):
        page.goto(path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], (path, width)
        assert_tap_targets(page, "main")
        page.screenshot(path=str(artifacts_dir / f"tool{path.replace('/', '-')}-{size['width']}.png"),
                        full_page=True, caret="initial")
