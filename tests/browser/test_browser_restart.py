"""The server restarts while phones have the table open: they reconnect by themselves.

Two Chromium phones sit at a table of the real server; a third player enters rounds over
plain HTTP. The server is stopped (SIGTERM, then in a second round SIGKILL) and started
again on the same port and database. Nobody reloads a page. Each phone:

- notices the outage (its live dot leaves "live");
- shows a round that was entered right after the restart, while it was still
  disconnected (phone A's stream is held off until after that round is stored, so it
  can only learn of it on reconnecting);
- is live again (the stream, not only the 2 s polling fallback) and updates from the other
  phone's next round, with its entry form caught up and usable.

The waits are Playwright `expect`s with generous limits: waits, not timed assertions.
"""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_helpers import Client, Server, saved_seq

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
RECONNECT = 45_000          # ms: the stream's back-off after a few failed tries, and then some


def caught_up(page, version: int) -> None:
    """Wait until the page's sheet and entry form both show `version`."""
    expect(page.locator("#sheet")).to_have_attribute("data-version", str(version))
    expect(page.locator('#entry-form input[name="version"]')).to_have_value(str(version))


@pytest.fixture
def restart_server(tmp_path):
    server = Server(tmp_path / "instance").start()
    yield server
    server.kill()


def test_phones_reconnect_and_catch_up_after_a_restart(browser, ui, restart_server):
    server = restart_server
    contexts, page_errors, csp = [], [], []

    def open_phone(name):
        context = browser.new_context(**PHONE, base_url=server.url)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: page_errors.append(f"{name}: {exc}"))
        page.on("console", lambda msg: csp.append(f"{name}: {msg.text}")
                if "Content Security Policy" in msg.text else None)
        return page

    try:
        a, b = open_phone("A"), open_phone("B")
        join_url = ui.create_table(a, ["Ann", "Bob", "Cy"])
        ui.join(b, join_url, "Bob")
        table_id = urlsplit(a.url).path.rsplit("/", 1)[-1]
        cy = Client(server.url, "Cy")
        link = urlsplit(join_url)
        cy.join(f"{link.path}#{link.fragment}", table_id, 2)   # the QR's token, POSTed
        caught_up(a, cy.version(table_id))   # Cy sitting down changed the sheet's version

        ui.enter_round(a, {0: 3, 1: 4})
        for page in (a, b):
            expect(ui.total(page, "Ann")).to_have_text("3")
            expect(page.locator("#live-state")).to_have_text("live")
        loads = {"A": [], "B": []}
        a.on("load", lambda p: loads["A"].append(p.url))
        b.on("load", lambda p: loads["B"].append(p.url))

        cy_total, bob_total = 0, 4
        for how in ("stop", "kill"):
            # Phone A's stream can't get through until the round below is stored.
            a.route("**/stream", lambda route: route.abort())
            getattr(server, how)()
            for page in (a, b):
                expect(page.locator("#live-state")).not_to_have_text("live", timeout=RECONNECT)

            server.start()
            cy_total += 10
            version = cy.version(table_id)
            r = cy.enter(table_id, {0: 0, 1: 0, 2: 10}, sid=f"cy-{how}", version=version)
            assert r.status == 200 and saved_seq(r.text), (r.status, r.plain[:300])
            a.unroute("**/stream")

            for page in (a, b):
                expect(ui.total(page, "Cy")).to_have_text(str(cy_total), timeout=RECONNECT)
                expect(page.locator("#live-state")).to_have_text("live", timeout=RECONNECT)
                caught_up(page, version + 1)

            # Live again: Bob's next round reaches phone A without a reload.
            bob_total += 5
            ui.enter_round(b, {1: 5})
            expect(ui.total(a, "Bob")).to_have_text(str(bob_total), timeout=15_000)
            expect(a.locator("#save-round")).to_have_text(
                b.locator("#save-round").text_content(), timeout=15_000)

        for page in (a, b):
            expect(ui.total(page, "Ann")).to_have_text("3")
            expect(ui.total(page, "Bob")).to_have_text(str(bob_total))
            expect(ui.total(page, "Cy")).to_have_text(str(cy_total))
        assert loads == {"A": [], "B": []}, f"a phone reloaded instead of reconnecting: {loads}"
        assert not page_errors, page_errors
        assert not csp, csp
    finally:
        for context in contexts:
            context.close()
