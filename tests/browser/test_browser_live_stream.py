"""The table's live stream, opened by static/js/app.js with the browser's EventSource (not
htmx's SSE extension: docs/DECISIONS.md): a stream that can't get through is tried again by itself, a
little later each time, and the page is live again as soon as it can; opening the page costs
no refresh when the stream only confirms the version already on screen."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_stream_that_cannot_open_is_tried_again_until_it_can(phones, ui):
    a, b = phones("A"), phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    table_url = b.page.url
    expect(b.page.locator("#live-state")).to_have_text("live")

    # B opens the table again while every stream request fails (a proxy that won't pass it).
    attempts: list[str] = []
    refreshes: list[int] = []
    b.page.on("response", lambda r: refreshes.append(r.status) if "/play?since=" in r.url
              else None)

    def refuse(route):
        attempts.append(route.request.url)
        route.abort()

    b.page.route("**/stream", refuse)
    b.page.goto(table_url)
    expect(b.page.locator("#live-state")).to_have_text("reconnecting")
    b.page.wait_for_timeout(4000)
    # Tried again by itself, backing off (0.5 s, 1 s, 2 s ...): a few tries, not a storm.
    assert 2 <= len(attempts) <= 6, attempts
    assert refreshes, "a stream that can't open refreshes the page once per try"

    # The stream gets through again: live by itself, no reload, and changes come by stream.
    b.page.unroute("**/stream")
    expect(b.page.locator("#live-state")).to_have_text("live", timeout=15_000)
    ui.enter_round(a.page, {0: 9, 1: 4})
    expect(ui.total(b.page, "Ann")).to_have_text("9")
    expect(b.page.locator("#live-state")).to_have_text("live")


def test_opening_the_page_asks_for_nothing_the_page_already_shows(phones, ui):
    a = phones("A")
    ui.create_table(a.page, ["Ann", "Bob"])
    refreshes: list[str] = []
    a.page.on("request", lambda r: refreshes.append(r.url) if "/play?since=" in r.url else None)
    a.page.reload()
    expect(a.page.locator("#live-state")).to_have_text("live")
    # The stream's first message names the version on screen: no /play request follows.
    a.page.wait_for_timeout(1000)
    assert refreshes == []
    # A change does refresh.
    b = phones("B")
    b.context.add_cookies(a.context.cookies())
    b.page.goto(a.page.url)
    ui.enter_round(b.page, {0: 3, 1: 1})
    expect(ui.total(a.page, "Ann")).to_have_text("3")
    assert refreshes, "the change came with a refresh"
