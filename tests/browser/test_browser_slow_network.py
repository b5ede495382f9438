"""Live updates on a slow phone (Chromium's network emulation adds latency to every request).

On loopback every refresh answers in a few milliseconds, which hides races a phone on a
busy Wi-Fi meets every evening: changes that arrive while a refresh is still on its way,
and a refresh that lands after the player started typing.
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LATENCY_MS = 250
TYPING_LATENCY_MS = 2500
# Chromium's emulation slows the page's own requests only; the service worker
# (static/js/sw.js) fetches the live refreshes itself, at full speed: the slow phone has none.


def slow_network(phone, latency_ms: int = LATENCY_MS) -> None:
    cdp = phone.context.new_cdp_session(phone.page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1,
    })


def test_slow_phone_ends_on_the_newest_sheet(phones, ui):
    """Changes faster than the slow phone's refreshes: it must still end on the last one."""
    a, b = phones("A"), phones("B slow", service_workers="block")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    slow_network(b)
    total = 0
    for points in range(1, 9):
        ui.enter_round(a.page, {0: points, 1: 1})
        total += points
    final = a.page.locator("#sheet").get_attribute("data-version")
    expect(b.page.locator("#sheet")).to_have_attribute("data-version", final, timeout=10_000)
    expect(ui.total(b.page, "Ann")).to_have_text(str(total))
    expect(ui.total(b.page, "Bob")).to_have_text("8")
    # B's untouched entry form caught up too: saving from it is not a conflict.
    expect(b.page.locator("#save-round")).to_have_text("Save round 9", timeout=10_000)
    ui.settled(b.page)
    ui.enter_round(b.page, {0: 0, 1: 10})
    expect(ui.total(a.page, "Bob")).to_have_text("18")


def test_refresh_landing_after_typing_began_keeps_the_typing(phones, ui):
    """B's form refresh is asked for while B's form is untouched; B starts typing before the
    slow answer arrives. What B typed must survive (and saving it is then a clear conflict,
    because B began before seeing the new sheet)."""
    a, b = phones("A"), phones("B slow", service_workers="block")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    # A slower network than the other tests': B's typing must begin while the refresh is
    # still on its way, even when a loaded machine takes a second over A's save and B's keys.
    slow_network(b, latency_ms=TYPING_LATENCY_MS)
    with b.page.expect_request(lambda r: urlsplit(r.url).path.endswith("/play")) as refresh:
        ui.enter_round(a.page, {0: 10, 1: 1})
    # The refresh is on its way (TYPING_LATENCY_MS): B starts typing now.
    ui.type_round(b.page, {0: 20, 1: 2}, fresh_form=False)
    refresh.value.response().finished()
    expect(ui.total(b.page, "Ann")).to_have_text("10", timeout=10_000)
    ui.settled(b.page)
    b.page.wait_for_timeout(200)    # room for a wrong swap to show itself
    expect(b.page.locator("#score_0")).to_have_value("20")
    expect(b.page.locator("#score_1")).to_have_value("2")

    refused = ui.save(b.page)
    assert refused.status == 409, refused.status
    expect(b.page.locator("#entry .notice.stale")).to_contain_text("Ann saved an entry")
    expect(b.page.locator("#score_0")).to_have_value("20")
    accepted = ui.save(b.page)
    assert accepted.status == 200, accepted.status
    expect(ui.total(a.page, "Ann")).to_have_text("30")
