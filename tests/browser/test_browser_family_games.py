"""A family's Zock'n'Roll evening at 375x667: after the last reveal of round 3, who won and
with what, and every hand with its dice, is in view at the top of two phones (light and
dark) until the next roll.

Screenshots: test-artifacts/family-zocknroll-result-375x667-<scheme>.png.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}
# The turn up to the last reveal (dealer Ann): Bob drops in round 1, Cid and Ann stay to
# round 3, Cid reveals 1 3 (a Large Straight with the white 2 2 5 4 5).
BEFORE_THE_LAST_REVEAL = [
    dict(kind="roll", white="2 2 5"), dict(kind="drop", player="Bob", own="2 6"),
    dict(kind="stay", player="Cid"), dict(kind="stay", player="Ann"),
    dict(kind="roll", white="4"), dict(kind="stay", player="Cid"),
    dict(kind="stay", player="Ann"), dict(kind="roll", white="5"),
    dict(kind="reveal", player="Cid", own="1 3"), dict(kind="reveal", player="Jörg", own="6 6"),
]


def play_quickly(page: Page, steps: list[dict]) -> None:
    """Post the entry form's buttons as the page would, each with the form of the answer
    before (its sid and version): the moves leading up to the one this test taps."""
    form = page.locator("#entry-form")
    url = form.get_attribute("action")
    fields = {name: form.locator(f'input[name="{name}"]').input_value()
              for name in ("csrf_token", "sid", "version")}
    for step in steps:
        r = page.request.post(url, form={**fields, **step}, headers={"HX-Request": "true"})
        assert r.status == 200, r.text()[:500]
        entry = r.text().split('id="entry-form"', 1)[1]
        fields["sid"] = re.search(r'name="sid" value="([^"]+)"', entry).group(1)
        fields["version"] = re.search(r'name="version" value="(\d+)"', entry).group(1)


def test_znr_round_three_result_in_view_on_two_phones(phones, ui, artifacts_dir):
    ann = phones("Ann", viewport=SMALL).page
    bob = phones("Bob", viewport=SMALL, color_scheme="dark").page
    ann.goto("/")
    ann.get_by_role("link", name="New table").click()
    ann.get_by_role("link", name=re.compile(r"^Zock'n'Roll")).click()
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        ann.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    ann.get_by_role("button", name="Create table").click()
    url = ann.locator("#join-url").get_attribute("href")
    ui.join(bob, url, "Bob")
    play_quickly(ann, BEFORE_THE_LAST_REVEAL)

    # Ann taps her own dice, 1 2: a Full House, which loses to Cid's Large Straight.
    ann.reload()
    expect(ann.locator('#entry input[name="player"][value="Ann"]')).to_be_checked()
    pad = ann.locator("#entry [data-dice-pad]")
    for die in (1, 2):
        pad.get_by_role("button", name=f"Add a {die}").click()
    with ann.expect_response(lambda r: r.request.method == "POST") as answer:
        ann.locator("#reveal").click()
    assert answer.value.status == 200

    for page, scheme in ((ann, "light"), (bob, "dark")):
        result = page.locator("#turn-result")
        expect(result).to_contain_text("Turn 1: Cid wins round 3 with Large Straight")
        expect(result.locator('li[data-player="Ann"]')).to_contain_text("Full House")
        expect(result.locator('li[data-player="Ann"] .die-face')).to_have_count(2)
        expect(result.locator('li[data-player="Cid"].winner')).to_contain_text("Large Straight")
        expect(result.locator('li[data-player="Jörg"]')).to_contain_text("Two Pair")
        expect(result.locator('li[data-player="Bob"]')).to_contain_text("Three of a Kind")
        expect(page.locator("#entry h2")).to_contain_text("roll 3 white dice")
        ui.settled(page)
        page.screenshot(path=artifacts_dir / f"family-zocknroll-result-375x667-{scheme}.png",
                        caret="initial")
        expect(result).to_be_in_viewport(ratio=1)
    expect(ann.locator("#turn-log")).to_contain_text("Ann revealed 1, 2.")
    # Japanese: the same result at the top, in the phone's language.
    ann.goto(f"/language?to=ja&next={urlsplit(ann.url).path}")
    expect(ann.locator("html")).to_have_attribute("lang", "ja")
    ui.settled(ann)
    expect(ann.locator("#turn-result")).to_be_in_viewport(ratio=1)
    expect(ann.locator("#turn-result")).not_to_contain_text("wins round 3")
    ann.screenshot(path=artifacts_dir / "family-zocknroll-result-375x667-ja.png", caret="initial")

    # Bob deals the next turn: the result leaves the top on both phones.
    pad = bob.locator("#entry [data-dice-pad]")
    for die in (3, 3, 4):
        pad.get_by_role("button", name=f"Add a {die}").click()
    with bob.expect_response(lambda r: r.request.method == "POST") as answer:
        bob.locator("#save-roll").click()
    assert answer.value.status == 200
    for page in (ann, bob):
        expect(page.locator("#turn-result")).to_have_count(0)
