"""A blinking Wi-Fi loses nothing (static/js/outbox.js).

An entry tapped while the server can't be reached stays on the phone, marked "not sent
yet", and is sent by itself when the connection is back: with the form's submission id,
so exactly once; a conflict by then is shown like any other. Leaving the page with an
unsent entry asks first, and the entry survives a reload. The connection is cut with
Playwright's offline mode (`context.set_offline`).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import SIZES

pytestmark = pytest.mark.browser


def write_answers(page) -> list[int]:
    """The status of every write (POST) of `page` that reached the server from now on."""
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.request.method == "POST" else None)
    return statuses


def dialogs_of(page, accept: bool) -> list[str]:
    """Every dialog `page` opens from now on (its type), accepted or dismissed."""
    seen: list[str] = []

    def handle(dialog):
        seen.append(dialog.type)
        dialog.accept() if accept else dialog.dismiss()

    page.on("dialog", handle)
    return seen


def tap_save_offline(phone, ui, scores: dict[int, int]) -> None:
    """Type a round, lose the connection, tap Save: the entry waits on the phone."""
    ui.type_round(phone.page, scores)
    phone.context.set_offline(True)
    phone.page.locator("#save-round").click()
    outbox = phone.page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("Not sent yet")
    expect(outbox).to_contain_text("will send when the connection is back")
    expect(outbox).to_be_in_viewport()
    for pos, value in scores.items():   # what was typed stays in the form
        expect(phone.page.locator(f"#score_{pos}")).to_have_value(str(value))


def rows(page):
    """The score pad's rounds (an empty pad shows one "No rounds yet." row instead)."""
    return page.locator("#sheet tbody tr[id^=round-]")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_entry_tapped_offline_is_sent_once_when_back(phones, ui, artifacts_dir, scheme):
    a = phones("A", viewport=SIZES[0], color_scheme=scheme)
    b = phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    answers = write_answers(a.page)

    tap_save_offline(a, ui, {0: 10, 1: 1})
    expect(a.page.locator("#outbox-list")).to_have_text("Save round 1: Ann 10, Bob 1")
    a.page.screenshot(path=artifacts_dir / f"offline-375-{scheme}-not-sent-yet.png",
                      caret="initial", animations="disabled")
    # A fix and a second tap while offline: the waiting entry takes the new value (same
    # submission id), still one entry.
    a.page.locator("#score_1").fill("2")
    a.page.locator("#save-round").click()
    expect(a.page.locator("#outbox-list li")).to_have_count(1)
    expect(a.page.locator("#outbox-list")).to_have_text("Save round 1: Ann 10, Bob 2")
    # Nothing reached the server: B's sheet (and a reload of it) has no entry.
    a.page.wait_for_timeout(3500)   # a retry or two, still offline
    b.page.reload()
    expect(b.page.locator("#sheet")).to_be_visible()
    expect(rows(b.page)).to_have_count(0)
    assert answers == []

    # Leaving asks first (beforeunload); the player stays, the entry still waits.
    dialogs = dialogs_of(a.page, accept=False)
    a.page.locator(".foot-nav a", has_text="History").click(no_wait_after=True)
    a.page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]
    assert "/history" not in a.page.url
    expect(a.page.locator("#outbox")).to_be_visible()

    # Back online: sent by itself within a few seconds, exactly once, and answered as usual.
    a.context.set_offline(False)
    expect(a.page.locator("#outbox")).to_be_hidden(timeout=6_000)
    expect(a.page.locator("#entry .notice.ok")).to_have_text(re.compile(r"^\s*Round \d+: .+ Saved as entry #\d+\.\s*$"))
    expect(a.page.locator("#score_0")).to_have_value("")
    for phone in (a, b):
        expect(rows(phone.page)).to_have_count(1)
        expect(ui.total(phone.page, "Ann")).to_have_text("10")
        expect(ui.total(phone.page, "Bob")).to_have_text("2")
    a.page.wait_for_timeout(3500)   # a timer's retry would have gone out by now
    assert answers == [200]
    # The server has one entry: the history lists one round, and nothing asks on leaving.
    a.page.locator(".foot-nav a", has_text="History").click()
    expect(a.page).to_have_url(re.compile(r"/history$"))
    assert dialogs == ["beforeunload"]
    expect(a.page.locator("#history li.h-game")).to_have_count(1)


def test_conflict_by_the_time_the_connection_is_back_is_shown(phones, ui):
    a, b = phones("A"), phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    answers = write_answers(a.page)

    tap_save_offline(a, ui, {0: 10, 1: 1})
    # Meanwhile B, still connected, saves round 1 first.
    ui.enter_round(b.page, {0: 20, 1: 2})

    a.context.set_offline(False)
    notice = a.page.locator("#entry .notice.stale")
    expect(notice).to_contain_text(re.compile(r"Bob saved an entry \(#\d+\)"))
    expect(notice).to_contain_text("just before you")
    expect(a.page.locator("#outbox")).to_be_hidden()
    for pos, value in {0: "10", 1: "1"}.items():   # A's round is kept, to save again
        expect(a.page.locator(f"#score_{pos}")).to_have_value(value)
    for phone in (a, b):
        expect(rows(phone.page)).to_have_count(1)
        expect(ui.total(phone.page, "Ann")).to_have_text("20")
    a.page.wait_for_timeout(3500)
    assert answers == [409]


def test_unsent_entry_survives_a_reload(phones, ui):
    a, b = phones("A"), phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    ui.join(b.page, join_url, "Bob")
    answers = write_answers(a.page)

    tap_save_offline(a, ui, {0: 7, 1: 3})
    # The pages load again but the writes still can't get through (a half-working hotspot).
    a.page.route("**/actions", lambda route: route.abort("internetdisconnected"))
    a.context.set_offline(False)
    dialogs = dialogs_of(a.page, accept=True)
    a.page.reload()
    assert dialogs == ["beforeunload"]
    outbox = a.page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("Save round 1: Ann 7, Bob 3")
    expect(rows(a.page)).to_have_count(0)
    a.page.wait_for_timeout(3500)
    expect(outbox).to_be_visible()
    expect(rows(b.page)).to_have_count(0)

    # The connection is really back: the entry from before the reload is sent, once.
    a.page.unroute("**/actions")
    expect(outbox).to_be_hidden(timeout=6_000)
    expect(a.page.locator("#entry .notice.ok")).to_have_text(re.compile(r"^\s*Round \d+: .+ Saved as entry #\d+\.\s*$"))
    for phone in (a, b):
        expect(rows(phone.page)).to_have_count(1)
        expect(ui.total(phone.page, "Ann")).to_have_text("7")
    a.page.wait_for_timeout(3500)
    assert answers == [200]
