"""Japanese on a small phone: the start page at 375x667 with the lang cookie's
choice, light and dark. A short Japanese label may break between any two characters: the
Join button (参加) beside the code box once wrapped one character per line. Its text must
sit on one line, the button as wide as its text. Screenshots go to test-artifacts/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL = {"width": 375, "height": 667}

#: How many lines an element's text takes: the distinct tops of its text's line boxes.
_LINES = """el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top));
  return new Set(tops).size;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_join_button_keeps_its_japanese_label_on_one_line(phones, artifacts_dir, scheme):
    phone = phones("ja-375", viewport=SMALL, color_scheme=scheme)
    page = phone.page
    page.goto("/language?to=ja&next=/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    button = page.locator("form.join button[type=submit]")
    expect(button).to_have_text("参加")
    page.screenshot(path=artifacts_dir / f"start-375-ja-{scheme}.png")
    assert button.evaluate(_LINES) == 1, "参加 wraps onto several lines"
    # The button is at least as wide as its text, and the code box still gets the rest.
    assert button.evaluate("el => el.scrollWidth <= el.clientWidth")
    box, code = button.bounding_box(), page.locator("#code").bounding_box()
    assert box["height"] <= 56, box                     # one line in a 48 px button
    assert code["width"] >= 150 and code["y"] == pytest.approx(box["y"], abs=2), (code, box)
