"""Phone-sized screenshots of the table page, light and dark, for people to look at.

They land in test-artifacts/ (git-ignored). With COMPANION_UPDATE_SCREENSHOT=1 the light
one is also copied to docs/screenshot-table.png, the README's picture.

Screenshots use caret="initial": Playwright's default (caret="hide") leaves an empty
`style=""` attribute on every input, which htmx then copies during its next swap, and
that copy is reported as a CSP violation (style-src 'self') that the app never causes.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot-table.png"
PLAYERS = ["Ann", "Bob", "Cleo", "Dev"]
ROUNDS = [{0: 12, 1: 30, 2: 8, 3: 21}, {0: 25, 1: -10, 2: 18, 3: 9}, {0: 40, 1: 15, 2: 22, 3: 0}]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_table_page_screenshots(phones, ui, artifacts_dir, scheme):
    host = phones(f"host-{scheme}", color_scheme=scheme)
    guest = phones(f"guest-{scheme}", color_scheme=scheme)
    join_url = ui.create_table(host.page, PLAYERS, target=200)
    ui.join(guest.page, join_url, "Bob")
    for scores in ROUNDS:
        ui.enter_round(host.page, scores)
    expect(ui.total(guest.page, "Ann")).to_have_text("77")
    # The guest's view: a live sheet mid-game, nothing typed, no notice.
    page = guest.page
    page.reload()
    expect(page.locator("#live-state")).to_have_class(re.compile(r"\bon\b"))   # stream connected
    expect(page.locator("#sheet .leader")).to_have_text("77")

    shot = artifacts_dir / f"table-{scheme}.png"
    page.screenshot(path=shot, caret="initial", animations="disabled")
    page.screenshot(path=artifacts_dir / f"table-{scheme}-full.png", full_page=True,
                    caret="initial", animations="disabled")
    host.page.screenshot(path=artifacts_dir / f"table-{scheme}-host-full.png", full_page=True,
                         caret="initial", animations="disabled")
    assert shot.stat().st_size > 10_000
    if scheme == "light" and os.environ.get("COMPANION_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, DOCS_SHOT)
