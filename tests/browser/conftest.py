"""Browser-test helpers: the steps a player takes, as small functions on a phone's page.

The fixtures that start the server and make phones live in tests/conftest.py. The app's
CSP forbids eval, so everything here uses locators and `expect`, never `page.evaluate`.
"""
from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect

# A CI machine can be several times slower than a laptop; a live update that takes
# 2 s there is still correct. Assertions wait up to 10 s before failing.
expect.set_options(timeout=10_000)


def create_table(page: Page, names: list[str], target: int | None = None, me: int = 0) -> str:
    """Start → New table → Score pad → names (and target) → Create. Returns the join URL."""
    page.goto("/")
    page.get_by_role("link", name="New table").click()
    page.get_by_role("link", name=re.compile(r"^Score pad")).click()
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    if me:
        page.locator(f'input[name="me"][value="{me}"]').check()
    if target is not None:
        # House rules start folded behind "Change rules".
        page.locator("#change-rules > summary").click()
        page.get_by_label("Target score").fill(str(target))
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#me-bar")).to_contain_text(f"You are {names[me]}")
    # The QR encodes exactly the href of #join-url (see templates/tables/table.html).
    url = page.locator("#join-url").get_attribute("href")
    assert url and "/j#" in url, url   # the token in the fragment: see test_browser_links.py
    return url


def join(page: Page, url: str, seat: str) -> None:
    """Open the QR's URL and sit down in `seat`."""
    page.goto(url)
    expect(page.get_by_role("heading", name="Who are you?")).to_be_visible()
    page.get_by_role("button", name=re.compile("^" + re.escape(seat) + " ")).click()
    expect(page.locator("#me-bar")).to_contain_text(f"You are {seat}")


def settled(page: Page) -> None:
    """Wait until htmx has finished any swap on the page (its htmx-swapping, htmx-added and
    htmx-settling classes are gone), so typing lands in the form that stays."""
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)


def caught_up(page: Page) -> None:
    """Wait until the entry form was rendered at the sheet's version.

    A live change refreshes the sheet and the form with two separate fetches; a player who
    types into the old form in between gets a (correct) conflict on saving. No thumb is
    that quick; Playwright is, so tests that mean to type into the fresh form wait here.
    """
    # Either fetch can land first, so read both until they agree (never one stale value).
    deadline = time.monotonic() + 10
    while True:
        sheet = page.locator("#sheet").get_attribute("data-version")
        form = page.locator('#entry-form input[name="version"]').get_attribute("value")
        if sheet == form:
            return
        assert time.monotonic() < deadline, f"sheet at version {sheet}, form at {form}"
        page.wait_for_timeout(50)


def type_round(page: Page, scores: dict[int, int | str], fresh_form: bool = True) -> None:
    """Type scores into the entry form (by seat position) without saving.

    An empty box is never a score, so, as a player must, this types 0 in every empty box
    that `scores` doesn't name. With `fresh_form`, first wait until the form has caught up
    with the sheet."""
    settled(page)
    if fresh_form:
        caught_up(page)
        settled(page)
    for pos, value in scores.items():
        page.locator(f"#score_{pos}").fill(str(value))
    boxes = page.locator('#entry-form input[id^="score_"]')
    if boxes.count() > len(scores):
        for pos in range(boxes.count()):
            box = page.locator(f"#score_{pos}")
            if pos not in scores and not box.input_value():
                box.fill("0")


def save(page: Page, button: str = "#save-round"):
    """Tap a form's button and return the server's answer (the swap follows it).

    Waiting on the page alone is not enough: the sheet may already show the new version
    through the live stream before the save's own answer arrives and replaces the form.
    """
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.locator(button).click()
    response = info.value
    response.finished()
    return response


def enter_round(page: Page, scores: dict[int, int | str]) -> int:
    """Type a round and save it; returns the entry's number once this phone shows it saved."""
    type_round(page, scores)
    response = save(page)
    assert response.status == 200, f"{response.status}: {response.text()[:300]}"
    seq = int(re.search(r"Saved as entry #(\d+)", response.text()).group(1))
    # The round in words, then the history's reference.
    expect(page.locator("#entry .notice")).to_have_text(
        re.compile(rf"^\s*Round \d+: .+ Saved as entry #{seq}\.\s*$"))
    return seq


def total(page: Page, name: str):
    """The locator of a player's total in the sheet's footer."""
    return page.locator(f'#sheet tfoot td[data-player="{name}"]')


def undo_button(page: Page):
    """"Undo last entry": the first tap, which asks first (templates/_ask.html)."""
    return page.locator("#sheet #undo-last-ask", has_text="Undo last entry")


def undo_last(page: Page) -> None:
    """Undo the last entry: "Undo last entry", then "Yes, undo it"."""
    undo_button(page).click()
    page.locator("#sheet #undo-last").click()


@pytest.fixture
def ui():
    """The helpers above, as `ui.create_table(...)` etc."""
    return SimpleNamespace(create_table=create_table, join=join, type_round=type_round,
                           settled=settled, caught_up=caught_up, save=save,
                           enter_round=enter_round, total=total, undo_button=undo_button,
                           undo_last=undo_last)
