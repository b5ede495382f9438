"""Rocca Card Tower on three Japanese phones: a K stack and a queen exchange.

Each phone is its own 390x844 context with locale ja-JP, so the browser asks for Japanese
(Accept-Language) and every screen — the new-table form, the seats page, the referee
screen and the turn form — answers in Japanese. Screenshots go to test-artifacts/.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

JA = {"locale": "ja-JP"}


def tap_card(page: Page, card: str) -> None:
    """Tap a card on the turn form's picker (rank, then suit) and check the box shows it."""
    picker = page.locator("#entry-form [data-card-picker]").first
    rank, suit = card[:-1], card[-1]
    picker.locator(f'[data-rank="{rank}"]').click()
    picker.locator(f'[data-suit="{suit}"]').click()
    expect(picker.locator("[data-card-input]")).to_have_value(card)


def press(page: Page, button: str) -> None:
    """Tap a button of the turn form and check the server took it."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    assert info.value.status == 200, info.value.text()[:500]


def ready(page: Page, ui) -> None:
    """Wait until the turn form caught up with the live sheet (see conftest.caught_up)."""
    ui.settled(page)
    ui.caught_up(page)
    ui.settled(page)


def hand(page: Page, name: str):
    return page.locator(f'#players [data-hand="{name}"]')


def test_three_japanese_phones_play_a_k_stack_and_a_queen_exchange(phones, ui, artifacts_dir):
    ann, bob, cy = (phones(name, **JA).page for name in ("Ann", "Bob", "Cy"))

    # Ann makes the table: everything on the way is in Japanese.
    ann.goto("/")
    expect(ann.locator("html")).to_have_attribute("lang", "ja")
    ann.get_by_role("link", name="新しいテーブル").click()
    ann.get_by_role("link", name=re.compile("^ロッカ・カードタワー")).click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("新しいロッカ・カードタワーのテーブル")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        ann.get_by_label(f"プレイヤー{i + 1}", exact=True).fill(name)
    expect(ann.locator('input[name="starter"][value="0"]')).to_be_checked()
    ann.screenshot(path=str(artifacts_dir / "rocca-new-table-ja.png"), full_page=True)
    ann.get_by_role("button", name="テーブルを作成").click()
    expect(ann.locator("#me-bar")).to_contain_text("あなたはAnn")
    url = ann.locator("#join-url").get_attribute("href")
    for page, name in ((bob, "Bob"), (cy, "Cy")):
        page.goto(url)
        expect(page.get_by_role("heading", name="あなたは誰？")).to_be_visible()
        page.get_by_role("button", name=re.compile("^" + name + " ")).click()
        expect(page.locator("#me-bar")).to_contain_text(f"あなたは{name}")
    for page in (ann, bob, cy):
        expect(page.locator("#turn")).to_have_text("あなたの番" if page is ann else "Annの番")
        expect(page.locator("#turn-order")).to_have_text("Ann → Bob → Cy")

    # The K stack: Ann K♥ (+2 for Bob), Bob K♠ (+4 for Cy), Cy draws the 4.
    ready(ann, ui)
    tap_card(ann, "KH")
    press(ann, "#play-card")
    for page in (ann, bob, cy):
        expect(page.locator("#stack")).to_contain_text("K +2")
        expect(page.locator("#stack")).to_contain_text("BobがKで応じる")
    expect(bob.locator("#turn")).to_have_text("あなたの番")
    expect(bob.locator("#entry-title")).to_contain_text("Kで応じるか2枚引く")
    ready(bob, ui)
    tap_card(bob, "KS")
    press(bob, "#play-card")
    for page in (ann, bob, cy):
        expect(page.locator("#stack")).to_contain_text("K +4")
        expect(page.locator("#status")).to_contain_text("CyはKにKで応じるか、4枚引きます。")
    expect(cy.locator("#turn")).to_have_text("あなたの番")
    expect(cy.locator("#draw-card")).to_contain_text("4枚引いた")
    cy.screenshot(path=str(artifacts_dir / "rocca-k-stack-ja.png"), full_page=True)
    expect(ann.locator("#rocca-move")).not_to_have_attribute("open", "")   # Cy has a phone
    ann.screenshot(path=str(artifacts_dir / "rocca-k-stack-waiting-ja.png"), full_page=True)
    ready(cy, ui)
    press(cy, "#draw-card")
    for page in (ann, bob, cy):
        expect(page.locator("#stack")).to_have_count(0)
        expect(hand(page, "Cy")).to_have_text("9")
        expect(page.locator("#last-line")).to_contain_text("CyはKのペナルティで4枚引き")

    # The queen exchange: Ann's Q♦ gives Bob 1 card, Bob's Q♣ gives 2 back, Ann takes them;
    # play goes on after Bob (the last queen), clockwise: Cy.
    expect(ann.locator("#turn")).to_have_text("あなたの番")
    ready(ann, ui)
    tap_card(ann, "QD")
    ann.locator("#queen-to summary").click()
    ann.locator("#queen-to label.chip", has_text="Bob").click()
    press(ann, "#play-card")
    for page in (ann, bob, cy):
        expect(page.locator("#queen")).to_contain_text("AnnがBobに1枚渡しました。")
        expect(page.locator("#queen")).to_contain_text("Bobはクイーンで応じる（2枚返す）")
    expect(bob.locator("#entry-title")).to_contain_text("Annのクイーンへのあなたの応答")
    ready(bob, ui)
    tap_card(bob, "QC")
    press(bob, "#play-card")
    for page in (ann, bob, cy):
        expect(page.locator("#queen")).to_contain_text("BobがAnnに2枚渡しました。")
    expect(ann.locator("#take-cards")).to_contain_text("カードを受け取った")
    ann.screenshot(path=str(artifacts_dir / "rocca-queen-ja.png"), full_page=True)
    ready(ann, ui)
    press(ann, "#take-cards")
    for page in (ann, bob, cy):
        expect(page.locator("#queen")).to_have_count(0)
        expect(page.locator("#turn")).to_have_text("あなたの番" if page is cy else "Cyの番")
        for name, count in (("Ann", "4"), ("Bob", "2"), ("Cy", "9")):
            expect(hand(page, name)).to_have_text(count)
    expect(cy.locator("#entry-title")).to_contain_text("あなたの番：どのカードを置きましたか？")
    cy.screenshot(path=str(artifacts_dir / "rocca-referee-ja.png"), full_page=True)
    cy.goto(cy.url)                      # the top of the page, as a phone opens it
    expect(cy.locator("#turn")).to_have_text("あなたの番")
    cy.screenshot(path=str(artifacts_dir / "rocca-referee-ja-top.png"))
    bob.goto(bob.url)
    expect(bob.locator("#turn")).to_have_text("Cyの番")
    bob.screenshot(path=str(artifacts_dir / "rocca-waiting-ja-top.png"))


def test_a_queen_that_empties_the_hand_leaves_the_give_open(phones, ui, artifacts_dir):
    """ROC-A12 on two English phones: Ann's queen gives her last card to Bob.
    Bob's phone offers both answers, every phone says the give is open, and Ann wins only
    when Bob takes the card (seed: 「最初に手札がなくなった人が勝者です。」)."""
    ann, bob = (phones(name).page for name in ("Ann", "Bob"))
    ann.goto("/new/rocca")
    for i, name in enumerate(["Ann", "Bob"]):
        ann.locator(f'input[name="name_{i}"]').fill(name)
    ann.get_by_role("button", name="Create table").click()
    expect(ann.locator("#turn")).to_have_text("Your turn")
    bob.goto(ann.locator("#join-url").get_attribute("href"))
    bob.get_by_role("button", name=re.compile("^Bob ")).click()
    expect(bob.locator("#turn")).to_have_text("Ann’s turn")

    for card in ("2S", "3S", "4S"):                 # Ann down to 2 cards, Bob draws
        ready(ann, ui)
        tap_card(ann, card)
        press(ann, "#play-card")
        expect(bob.locator("#turn")).to_have_text("Your turn")
        ready(bob, ui)
        press(bob, "#draw-card")
        expect(ann.locator("#turn")).to_have_text("Your turn")
    ready(ann, ui)
    tap_card(ann, "QS")
    ann.locator("#queen-to summary").click()
    ann.locator("#queen-to label.chip", has_text="Bob").click()
    press(ann, "#play-card")
    for page in (ann, bob):
        expect(hand(page, "Ann")).to_have_text("0")
        expect(page.locator("#queen-open-out")).to_contain_text(
            "Ann has no cards left, but the give is still open")
        expect(page.locator("#turn")).not_to_contain_text("won")
    expect(bob.locator("#turn")).to_have_text("Your turn")
    expect(bob.locator("#play-card")).to_be_visible()
    expect(bob.locator("#take-cards")).to_contain_text("Ann goes out and wins")
    bob.screenshot(path=str(artifacts_dir / "rocca-queen-open-give.png"), full_page=True)
    ready(bob, ui)
    press(bob, "#take-cards")
    for page in (ann, bob):
        expect(page.locator("#turn")).to_contain_text("Ann won!")
        expect(page.locator("#last-line")).to_contain_text(
            "Bob took the cards, so Ann has none left, goes out and wins game 1.")


def test_the_placement_checker_in_english_and_japanese(phones, artifacts_dir):
    page = phones("checker").page
    page.goto("/rocca/check")
    picker = page.locator("#placement-form [data-card-picker]")
    picker.nth(0).locator('[data-rank="A"]').click()
    picker.nth(0).locator('[data-suit="H"]').click()
    picker.nth(1).locator('[data-rank="7"]').click()
    picker.nth(1).locator('[data-suit="S"]').click()
    page.locator("#check").click()
    expect(page.locator("#verdict")).to_contain_text("The A is a letter, not the number 1.")
    page.get_by_role("link", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#verdict")).to_contain_text("Aは文字で、数字の1ではありません。")
    page.screenshot(path=str(artifacts_dir / "rocca-checker-ja.png"), full_page=True)
