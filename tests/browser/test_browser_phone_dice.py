"""The score pad and Zock'n'Roll on small and large phones (phone-first means 375 px), at
375x667 and 412x915, light and dark (Zock'n'Roll also in Japanese at 375).

- An 8-player score pad played to its target: after every Save (valid and refused) the
  notice is in view within 1 s; the sheet fits with every total in view (the big totals on
  top; the rounds scroll sideways behind a sticky Round column and a cue); a round whose
  score is far beyond the target asks "…would end the game (target 100). Save anyway?"
  and saves nothing until "Save anyway" is tapped.
- A 6-player Zock'n'Roll game (paper mode, the quickest to drive) played to its final
  scoring: every total in view, the final-scoring table scrolls with the rows' names kept
  in view and the winner's total whole once scrolled to; the guided dice pad's buttons are
  thumb-sized.

Screenshots: test-artifacts/<game>-<w>x<h>-<scheme>.png (and -full.png).
"""
from __future__ import annotations

import re

import pytest
from phone_checks import SIZES, assert_fits, assert_tap_targets, save_and_see_notice
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SCHEMES = ["light", "dark"]
PHONES = [pytest.param(size, scheme, id=f"{size['width']}x{size['height']}-{scheme}")
          for size in SIZES for scheme in SCHEMES]
SMALL = SIZES[0]


def shoot(page: Page, artifacts_dir, game: str, scheme: str) -> None:
    """The sheet on the phone's screen (scrolled to the sheet, wide tables at their start)
    and the whole page, for people to look at. Animations stay on: the scroll cue is drawn
    by a scroll-driven animation."""
    size = page.viewport_size
    name = f"{game}-{size['width']}x{size['height']}-{scheme}"
    page.evaluate("""() => {
      document.querySelectorAll('.table-scroll').forEach(el => { el.scrollLeft = 0; });
      window.scrollTo(0, document.querySelector('#sheet').getBoundingClientRect().top + scrollY - 8);
    }""")
    page.screenshot(path=artifacts_dir / f"{name}.png", caret="initial")
    page.screenshot(path=artifacts_dir / f"{name}-full.png", full_page=True, caret="initial")
    for part, selector in (("final", "#final-scoring"), ("board", "details.board.mine")):
        if page.locator(selector).count():
            page.locator(selector).screenshot(path=artifacts_dir / f"{name}-{part}.png",
                                              caret="initial")


def ready(page: Page, ui) -> None:
    ui.settled(page)
    ui.caught_up(page)
    ui.settled(page)


def checked(page: Page, ui) -> None:
    """The page fits the phone with every total in view; every control is thumb-sized."""
    ui.settled(page)
    assert_fits(page)
    assert_tap_targets(page, "#play")


def open_to(page: Page, selector: str) -> None:
    """Unfold the closed <details> around `selector` (house rules may start folded)."""
    for _ in range(3):
        if page.locator(selector).is_visible():
            return
        page.locator(f"details:not([open]):has({selector}) > summary").first.click()
    expect(page.locator(selector)).to_be_visible()


# ---------------------------------------------------------------- the score pad

PAD_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
PAD_ROUNDS = [
    {0: 12, 1: 30, 2: 8, 3: 21, 4: 5, 5: 17, 6: 0, 7: 9},
    {0: 25, 1: 20, 2: 18, 3: 9, 4: 14, 5: -5, 6: 22, 7: 11},
    {0: 25, 1: 25, 2: 22, 3: 0, 4: 7, 5: 13, 6: 6, 7: 19},
]
# Bob: 75 + 30 = 105 >= 100, a plausible score (at most 3x the biggest earlier one): no question.
PAD_LAST = {0: 18, 1: 30, 2: 4, 3: 12, 4: 9, 5: 3, 6: 15, 7: 2}


def new_pad(page: Page, names: list[str], target: int) -> None:
    """Start → New table → Score pad → 8 names (the last ones under "More players")."""
    page.goto("/")
    page.get_by_role("link", name="New table").click()
    page.get_by_role("link", name=re.compile(r"^Score pad")).click()
    for i, name in enumerate(names):
        box = f'input[name="name_{i}"]'
        open_to(page, box)
        page.locator(box).fill(name)
    open_to(page, 'input[name="target"]')
    page.locator('input[name="target"]').fill(str(target))
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(f"You are {names[0]}")


def pinned(page: Page, name: str):
    return page.locator(f'#sheet [data-total-for="{name}"]')


@pytest.mark.parametrize("size, scheme", PHONES)
def test_eight_player_score_pad_to_its_target(phones, ui, artifacts_dir, size, scheme):
    page = phones(f"pad-{scheme}", viewport=size, color_scheme=scheme).page
    new_pad(page, PAD_NAMES, target=100)
    checked(page, ui)
    for n, scores in enumerate(PAD_ROUNDS, start=1):
        if n == 2:
            # A refused Save: the notice is in view, nothing is saved.
            ready(page, ui)
            ui.type_round(page, {0: "1x"})
            said = save_and_see_notice(page, "#save-round")
            assert "Ann's score must be a whole number" in said, said
            checked(page, ui)
        if n == 3:
            # A typo of 250 would end the game: the answer asks, and nothing is saved.
            ui.type_round(page, {**scores, 0: 250})
            said = save_and_see_notice(page, "#save-round")
            assert "Ann's 250 would end the game (target 100). Save anyway?" in said, said
            expect(page.locator("#save-anyway")).to_be_visible()
            expect(pinned(page, "Ann")).to_have_text("37")
            expect(page.locator("#game-over")).to_have_count(0)
            expect(page.locator("#sheet tbody tr")).to_have_count(2)
            checked(page, ui)
            page.screenshot(path=artifacts_dir / f"scorepad-ask-{size['width']}x{size['height']}-"
                                                 f"{scheme}.png", caret="initial")
        ui.type_round(page, scores)
        said = save_and_see_notice(page, "#save-round")
        assert re.search(r"Saved as entry #\d+\.", said), said
        expect(page.locator("#sheet tbody tr")).to_have_count(n)
        expect(page.locator("#save-anyway")).to_have_count(0)
        checked(page, ui)
    # The rounds are numbered once each, and the totals on top agree with the sheet's.
    expect(page.locator("#sheet tbody th")).to_have_text(["1", "2", "3"])
    for name, total in zip(PAD_NAMES, [62, 75, 48, 30, 26, 25, 28, 39]):
        expect(pinned(page, name)).to_have_text(str(total))
        expect(ui.total(page, name)).to_have_text(str(total))
    # The wide sheet scrolls sideways with the Round column in view and a cue.
    expect(page.locator("#sheet [data-scroll-cue]")).to_be_visible()

    # Bob's plausible 30 reaches the target: the game ends without a question.
    ui.type_round(page, PAD_LAST)
    said = save_and_see_notice(page, "#save-round")
    assert re.search(r"Saved as entry #\d+\.", said), said
    expect(page.locator("#game-over")).to_contain_text("Bob reached 105 (target 100)")
    expect(pinned(page, "Bob")).to_have_text("105")
    checked(page, ui)
    shoot(page, artifacts_dir, "scorepad", scheme)

    # The rematch: a first-round 250 asks, and "Save anyway" ends the game with it.
    said = save_and_see_notice(page, "#rematch")
    assert "A new game has started" in said, said
    ready(page, ui)
    ui.type_round(page, {0: 250, 1: 12})
    said = save_and_see_notice(page, "#save-round")
    assert "Ann's 250 would end the game (target 100). Save anyway?" in said, said
    expect(page.locator("#sheet .empty")).to_have_text("No rounds yet.")
    checked(page, ui)
    said = save_and_see_notice(page, "#save-anyway")
    assert re.search(r"Saved as entry #\d+\.", said), said
    expect(page.locator("#game-over")).to_contain_text("Ann reached 250 (target 100)")
    checked(page, ui)


# ---------------------------------------------------------------- Zock'n'Roll

ZNR_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def new_zocknroll(page: Page, names: list[str], paper: bool) -> None:
    """Start → New table → Zock'n'Roll → names (→ paper mode) → Create."""
    page.goto("/new/zocknroll")
    for i, name in enumerate(names):
        box = f'input[name="name_{i}"]'
        open_to(page, box)
        page.locator(box).fill(name)
    if paper:
        open_to(page, 'input[name="paper"]')
        page.locator('input[name="paper"]').check()
    page.locator('form button[type="submit"].primary').last.click()
    expect(page.locator("#me-bar")).to_contain_text(names[0])


def mark(page: Page, player: str, row: str, round_no: int) -> None:
    """Paper mode: tap whose board, when, and the row; the server takes it, and its answer
    is on screen (the sheet at the new version) before the next tap."""
    before = page.locator("#sheet").get_attribute("data-version")
    page.locator(f'#entry label.chip:has(input[name="player"][value="{player}"])').click()
    page.locator(f'#entry label.chip:has(input[name="round"][value="{round_no}"])').click()
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(f'#entry button[name="mark"][value="{row}"]').click()
    assert info.value.status == 200, info.value.text()[:500]
    # A tap on the old form while the answer is being swapped in would be lost with it.
    expect(page.locator("#sheet")).not_to_have_attribute("data-version", before or "")
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)


def turn(page: Page, t: int) -> None:
    """One paper turn: Ann drops in round 1 with a Pair, Eve too in turns 1-3 (Three of a
    Kind), Bob in round 2 (Two Pair); Cid (odd turns) or Dee (even) wins round 3."""
    mark(page, "Ann", "dropped_out", 1)
    mark(page, "Ann", "pair", 1)
    if t <= 3:
        mark(page, "Eve", "dropped_out", 1)
        mark(page, "Eve", "three_kind", 1)
    mark(page, "Bob", "two_pair", 2)
    winner, hand = ("Cid", "large_straight") if t % 2 else ("Dee", "full_house")
    mark(page, winner, hand, 3)
    mark(page, winner, "winner", 3)


def play_zocknroll_to_the_end(page: Page, ui, check_each_turn: bool) -> None:
    for t in range(1, 7):
        turn(page, t)
        if check_each_turn:
            checked(page, ui)
        said = save_and_see_notice(page, "#end-turn")
        assert said, said
    expect(page.locator("#final-scoring")).to_be_visible()


# Ann 6x1 + 6x2 = 18; Bob 6x3 = 18; Cid 3x6 (winner, x6 at 6 boards) + 3x6 = 36;
# Dee 3x6 + 3x5 = 33; Eve 3x1 + 3x4 = 15; Fay 0.
ZNR_TOTALS = {"Ann": 18, "Bob": 18, "Cid": 36, "Dee": 33, "Eve": 15, "Fay": 0}


def final_scoring_fits(page: Page) -> None:
    """Every total in view; the final-scoring table keeps its row names in view while it
    scrolls, and the winner's column shows whole once scrolled to."""
    assert_fits(page)
    for name, total in ZNR_TOTALS.items():
        expect(page.locator(f'#totals [data-total-for="{name}"]')).to_have_text(str(total))
        box = page.locator(f'#totals [data-total-for="{name}"]').bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    scroller = page.locator("#final-scoring .table-scroll")
    winner = page.locator('#final-scoring tfoot td[data-player="Cid"]')
    expect(winner).to_have_text("36")
    winner.scroll_into_view_if_needed()
    frame = scroller.bounding_box()
    cell = winner.bounding_box()
    assert frame["x"] - 1 <= cell["x"] and cell["x"] + cell["width"] <= frame["x"] + frame["width"] + 1
    label = page.locator("#final-scoring tbody tr").first.locator("th")
    last = page.locator('#final-scoring tfoot td[data-player="Fay"]')
    last.scroll_into_view_if_needed()
    expect(page.locator("#final-scoring [data-scroll-cue]")).to_be_attached()
    assert label.bounding_box()["x"] >= frame["x"] - 1, "the row names scrolled away"


@pytest.mark.parametrize("size, scheme", PHONES)
def test_six_player_zocknroll_to_its_final_scoring(phones, ui, artifacts_dir, size, scheme):
    page = phones(f"znr-{scheme}", viewport=size, color_scheme=scheme).page
    new_zocknroll(page, ZNR_NAMES, paper=True)
    checked(page, ui)
    play_zocknroll_to_the_end(page, ui, check_each_turn=True)
    expect(page.locator("#result")).to_contain_text("Cid wins with 36")
    checked(page, ui)
    final_scoring_fits(page)
    shoot(page, artifacts_dir, "zocknroll", scheme)


def test_zocknroll_in_japanese_at_375(phones, ui, artifacts_dir):
    page = phones("znr-ja", viewport=SMALL, locale="ja-JP").page
    new_zocknroll(page, ZNR_NAMES, paper=True)
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    checked(page, ui)
    play_zocknroll_to_the_end(page, ui, check_each_turn=False)
    checked(page, ui)
    final_scoring_fits(page)
    shoot(page, artifacts_dir, "zocknroll-ja", "light")


@pytest.mark.parametrize("size, scheme", PHONES)
def test_zocknroll_dice_pad_fits_a_thumb(phones, ui, artifacts_dir, size, scheme):
    """The guided turn at a 6-player table: the white dice pad, then stay or drop."""
    page = phones(f"pad-{scheme}", viewport=size, color_scheme=scheme).page
    new_zocknroll(page, ZNR_NAMES, paper=False)
    expect(page.locator("#save-roll")).to_be_visible()
    checked(page, ui)
    for die in (2, 2, 5):
        page.locator(f'#entry [data-dice-pad] button[data-die="{die}"]').click()
    said = save_and_see_notice(page, "#save-roll")
    assert re.search(r"#\d+", said), said
    expect(page.locator("#decider")).to_contain_text("Bob")
    checked(page, ui)
    # A refused drop (no dice tapped): the notice is in view.
    said = save_and_see_notice(page, "#drop")
    assert "Bob's own dice" in said, said
    checked(page, ui)
    page.screenshot(path=artifacts_dir / f"zocknroll-guided-{size['width']}x{size['height']}-"
                                         f"{scheme}.png", caret="initial")


def test_score_pad_rounds_are_numbered_once_after_an_undo(phones, ui):
    """An undo and a new round, seen live on the other phone (a morphed sheet), leave each
    round number once (a morph once left two sheet rows numbered 3)."""
    a, b = phones("A", viewport=SMALL).page, phones("B", viewport=SMALL).page
    new_pad(a, ["Ann", "Bob", "Cid"], target=500)
    ui.join(b, a.locator("#join-url").get_attribute("href"), "Bob")
    for scores in ({0: 10, 1: 5}, {0: 20, 1: 15}, {0: 30, 1: 25}):
        ui.enter_round(a, scores)
    expect(b.locator("#sheet tbody th")).to_have_text(["1", "2", "3"])
    ui.undo_last(b)                               # it asks first: two taps
    expect(b.locator("#entry .notice")).to_contain_text("was struck")
    expect(a.locator("#sheet tbody th")).to_have_text(["1", "2"])
    ui.enter_round(a, {0: 7, 1: 8})
    for page in (a, b):
        expect(page.locator("#sheet tbody th")).to_have_text(["1", "2", "3"])
        expect(page.locator("#sheet tbody tr").last).to_contain_text("7")
        expect(page.locator("#save-round")).to_have_text("Save round 4")
        assert_fits(page)
        # Three players fit: no "more players" cue.
        expect(page.locator("#sheet [data-scroll-cue]")).to_be_hidden()
