"""When the live stream can't get through (a proxy that buffers, a network that drops it),
the page falls back to asking every 2 s whether the table changed, and still updates."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_phone_without_a_stream_still_updates_by_polling(phones, ui):
    a, b = phones("A"), phones("B no stream")
    # B's browser never gets a stream: every request to /stream fails.
    b.page.route("**/stream", lambda route: route.abort())
    # The poll asks for the live fragment with the version on screen (204: nothing new).
    polls: list[int] = []
    b.page.on("response", lambda r: polls.append(r.status) if "/play?since=" in r.url else None)
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    expect(b.page.locator("#live-state")).to_have_text("updates every 2 s", timeout=10_000)
    ui.enter_round(a.page, {0: 7, 1: 2})
    expect(ui.total(b.page, "Ann")).to_have_text("7", timeout=6_000)
    expect(b.page.locator("#save-round")).to_have_text("Save round 2")
    assert 200 in polls               # the poll that saw the change
    assert 204 in polls               # and the ones before it that saw nothing new
