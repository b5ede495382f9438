"""The table's chrome on a phone: the host's QR on the first screen until a second
phone joins; thumb-sized targets on the table, seats, history, new-table and start pages;
every Save's answer in view within 1 s even far down a long score pad; Make host, Remove
phone and the history reaching the other phones live; a strike that asks first and can be
restored. Runs at 375x667 and 412x915, light and dark."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import SIZES, assert_in_first_screen, assert_tap_targets, save_and_see_notice

pytestmark = pytest.mark.browser

SCHEMES = ["light", "dark"]
SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def size_id(size: dict) -> str:
    return f"{size['width']}x{size['height']}"


def make_phone(phones, name: str, size: dict, scheme: str = "light"):
    return phones(name, viewport=size, color_scheme=scheme)


def count_loads(page) -> list[str]:
    """Every document load of `page` from now on (a live update is not one)."""
    page.wait_for_load_state("load")
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    return loads


def open_details(page, *selectors: str) -> None:
    for selector in selectors:
        box = page.locator(selector)
        if box.count() and box.get_attribute("open") is None:
            box.locator("> summary").click()
            expect(box).to_have_attribute("open", "")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_host_sees_the_qr_first_until_a_second_phone_joins(phones, ui, size, scheme):
    host = make_phone(phones, "host", size, scheme)
    guest = make_phone(phones, "guest", size, scheme)
    join_url = ui.create_table(host.page, ["Ann", "Bob", "Cid"])
    # The host's first screen: the QR, without scrolling.
    assert_in_first_screen(host.page, "#invite svg.qr")
    expect(host.page.locator("#first-screen #invite")).to_have_attribute("open", "")
    loads = count_loads(host.page)
    # A second phone sits down: the QR folds away below the sheet on the host's phone, live.
    ui.join(guest.page, join_url, "Bob")
    expect(host.page.locator("#first-screen #invite")).to_have_count(0)
    invite = host.page.locator("#table-tools #invite")
    expect(invite).to_have_count(1)
    expect(invite).not_to_have_attribute("open", "")
    assert loads == [], f"the host's page reloaded: {loads}"
    # The guest's phone never had it on top.
    expect(guest.page.locator("#first-screen #invite")).to_have_count(0)
    # The QR is still there for a late player, one tap away.
    invite.locator("> summary").click()
    expect(invite.locator("svg.qr")).to_be_visible()
    # What a player opened stays open through the live refreshes.
    open_details(host.page, "#house-rules", "#host")
    ui.enter_round(guest.page, {0: 4, 1: 2})
    expect(ui.total(host.page, "Ann")).to_have_text("4")
    for box in ("#invite", "#house-rules", "#host"):
        expect(host.page.locator(box)).to_have_attribute("open", "")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_tap_targets_on_the_chrome(phones, ui, size, scheme):
    host = make_phone(phones, "host", size, scheme)
    guest = make_phone(phones, "guest", size, scheme)
    page = host.page
    # Start page, game list, new-table form (Rook: a preset and its rules, folded).
    page.goto("/")
    assert_tap_targets(page)
    page.goto("/new")
    assert_tap_targets(page)
    page.goto("/new/rook")
    expect(page.locator("#change-rules")).not_to_have_attribute("open", "")
    assert_tap_targets(page)
    open_details(page, "#change-rules")
    assert_tap_targets(page)
    page.goto("/new/rocca")            # the "starts" radios too
    assert_tap_targets(page)
    # The table page with every fold open, host tools included.
    join_url = ui.create_table(page, ["Ann", "Bob", "Cid"])
    assert_tap_targets(page)
    ui.join(guest.page, join_url, "Bob")
    expect(page.locator("#first-screen #invite")).to_have_count(0)
    ui.enter_round(page, {0: 5, 1: 3})
    open_details(page, "#invite", "#host", "#house-rules")
    assert_tap_targets(page)
    # Seats and history (with a strike and a restore button).
    page.goto(page.url + "/seats")
    assert_tap_targets(page)
    page.go_back()
    page.locator(".foot-nav a", has_text="History").click()
    expect(page.locator("#history")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#history button", has_text="Strike").first.click()
    expect(page.locator("#history button", has_text="Restore")).to_be_visible()
    assert_tap_targets(page)


def test_every_save_on_a_long_score_pad_answers_in_view(phones, ui):
    host = make_phone(phones, "host", SIZES[0])
    page = host.page
    ui.create_table(page, SIX)
    for n in range(12):
        ui.enter_round(page, {pos: (n * 7 + pos * 3) % 40 for pos in range(len(SIX))})
    for size in SIZES:
        page.set_viewport_size(size)
        ui.settled(page)
        # The save button is far below the first screen.
        top = page.evaluate("() => document.querySelector('#save-round').getBoundingClientRect().top + scrollY")
        assert top > size["height"], f"{size}: the form is not far down (y={top})"
        # A valid save: "Saved as entry #n." in view within 1 s.
        ui.type_round(page, {pos: pos + 1 for pos in range(len(SIX))})
        said = save_and_see_notice(page, "#save-round")
        assert re.search(r"Saved as entry #\d+\.", said), said
        # A refused one: the refusal in view within 1 s, and what was typed kept.
        ui.settled(page)
        ui.caught_up(page)
        page.locator("#score_1").fill("seven")
        said = save_and_see_notice(page, "#save-round")
        assert "Bob" in said, said
        expect(page.locator("#score_1")).to_have_value("seven")
        page.locator("#score_1").fill("")


def test_an_error_answer_is_shown_where_the_thumb_is(phones, ui):
    host = make_phone(phones, "host", SIZES[0])
    guest = make_phone(phones, "guest", SIZES[0])
    page = host.page
    ui.join(guest.page, ui.create_table(page, SIX), "Bob")
    open_details(page, "#host")
    # The seat vanishes on the way (as if the form were stale): the server refuses, and its
    # answer (retargeted to #flash at the top of the page) is pinned in view.
    page.route("**/host/pass", lambda route: route.continue_(
        post_data=re.sub(r"seat=\d+", "seat=42", route.request.post_data or "")))
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#make-host-1").scroll_into_view_if_needed()
    said = save_and_see_notice(page, "#make-host-1")
    assert "doesn't exist" in said, said
    expect(page.locator("#flash .notice")).to_be_in_viewport()
    page.locator("#flash").click()                      # a tap puts it away
    expect(page.locator("#flash .notice")).to_have_count(0)


def test_make_host_and_remove_phone_ask_first_and_reach_the_other_phone_live(phones, ui):
    a = make_phone(phones, "A", SIZES[0])
    b = make_phone(phones, "B", SIZES[0], "dark")
    ui.join(b.page, ui.create_table(a.page, ["Ann", "Bob", "Cid"]), "Bob")
    b_loads = count_loads(b.page)
    expect(b.page.locator("#host")).to_have_count(0)
    open_details(a.page, "#host")
    # Dismissing the question changes nothing.
    asked: list[str] = []
    a.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    a.page.locator("#make-host-1").click()
    expect(a.page.locator("#make-host-1")).to_be_enabled()
    assert asked and "Make Bob the host?" in asked[0], asked
    expect(a.page.locator("#me-bar")).to_contain_text("You are Ann · host")
    # Accepting it: Bob's phone shows the host tools without a reload; Ann's loses them.
    a.page.once("dialog", lambda dialog: dialog.accept())
    a.page.locator("#make-host-1").click()
    expect(a.page.locator("#flash .notice")).to_contain_text("Bob is the host now.")
    expect(a.page.locator("#host")).to_have_count(0)
    expect(b.page.locator("#me-bar")).to_contain_text("You are Bob · host")
    expect(b.page.locator("#host > summary")).to_be_visible()
    assert b_loads == [], f"B reloaded: {b_loads}"
    # Bob removes Ann's phone: Ann's phone turns into a spectator's, live.
    a_loads = count_loads(a.page)
    open_details(b.page, "#host")
    b.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    b.page.locator("#remove-phone-0").click()
    assert "Remove the phone in Ann’s seat?" in asked[-1], asked
    expect(b.page.locator("#flash .notice")).to_contain_text("Ann’s phone was removed")
    expect(a.page.locator("#me-bar")).to_contain_text("You are watching.")
    expect(a.page.locator("#me-bar")).not_to_contain_text("You are Ann")
    expect(a.page.locator("#entry")).to_contain_text("Spectators see every change live")
    assert a_loads == [], f"A reloaded: {a_loads}"


def test_history_is_live_and_a_strike_asks_first_and_can_be_restored(phones, ui):
    a = make_phone(phones, "A", SIZES[1])
    b = make_phone(phones, "B", SIZES[1])
    ui.join(b.page, ui.create_table(a.page, ["Ann", "Bob"]), "Bob")
    first = ui.enter_round(a.page, {0: 10, 1: 1})
    a.page.locator(".foot-nav a", has_text="History").click()
    history = a.page.locator("#history")
    expect(history.locator(f"#action-{first}")).to_be_visible()
    loads = count_loads(a.page)
    # Bob saves a round: it appears in Ann's history without a reload.
    second = ui.enter_round(b.page, {0: 2, 1: 20})
    expect(history.locator(f"#action-{second}")).to_contain_text("Bob")
    # Strike asks first; "no" strikes nothing.
    asked: list[str] = []
    a.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    a.page.locator(f"#strike-{first}").click()
    expect(a.page.locator(f"#strike-{first}")).to_be_enabled()
    assert asked and f"Strike entry #{first}" in asked[0], asked
    expect(history.locator(f"#action-{first}")).not_to_have_class(re.compile("struck"))
    # "Yes": struck, the answer in view, Bob's sheet follows.
    a.page.once("dialog", lambda dialog: dialog.accept())
    said = save_and_see_notice(a.page, f"#strike-{first}")
    assert f"Entry #{first} was struck." in said, said
    expect(history.locator(f"#action-{first}")).to_have_class(re.compile("struck"))
    expect(ui.total(b.page, "Ann")).to_have_text("2")
    # Restore: the entry counts again, the history says who restored it.
    said = save_and_see_notice(a.page, f"#restore-{first}")
    assert f"Entry #{first} is back on the sheet." in said, said
    expect(history.locator(f"#action-{first}")).not_to_have_class(re.compile("struck"))
    expect(history.locator("li.h-undo").first).to_contain_text(f"Restored entry #{first}")
    expect(history.locator("li.h-undo").first).to_contain_text("Ann")
    expect(ui.total(b.page, "Ann")).to_have_text("12")
    assert loads == [], f"the history page reloaded: {loads}"


def test_serving_on_loopback_says_phones_cannot_reach_it(live_server, phones, ui):
    # The test server listens on 127.0.0.1 only: the terminal and the invite say so plainly.
    out = live_server.output()
    assert "only this computer can open it" in out and "--host 0.0.0.0" in out, out[:500]
    host = make_phone(phones, "host", SIZES[0])
    ui.create_table(host.page, ["Ann", "Bob"])
    expect(host.page.locator("#loopback-warning")).to_contain_text("--host 0.0.0.0")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_chrome_screenshots_at_375(phones, ui, artifacts_dir, scheme):
    """For people to look at (test-artifacts/): the host's first screen, a seated phone's
    table page mid-game, and the history, at 375x667."""
    size = SIZES[0]
    host = make_phone(phones, "host", size, scheme)
    guest = make_phone(phones, "guest", size, scheme)
    shot = dict(caret="initial", animations="disabled")
    join_url = ui.create_table(host.page, ["Ann", "Bob", "Cleo", "Dev"], target=200)
    host.page.screenshot(path=artifacts_dir / f"chrome-375-{scheme}-host-first.png", **shot)
    ui.join(guest.page, join_url, "Bob")
    for scores in ({0: 12, 1: 30, 2: 8, 3: 21}, {0: 25, 1: -10, 2: 18, 3: 9}):
        ui.enter_round(host.page, scores)
    page = guest.page
    expect(ui.total(page, "Ann")).to_have_text("37")
    page.reload()
    expect(page.locator("#live-state")).to_have_class(re.compile(r"\bon\b"))
    page.screenshot(path=artifacts_dir / f"chrome-375-{scheme}-table.png", **shot)
    page.screenshot(path=artifacts_dir / f"chrome-375-{scheme}-table-full.png", full_page=True, **shot)
    ui.type_round(page, {0: 5, 1: "x"})
    save_and_see_notice(page, "#save-round")
    page.screenshot(path=artifacts_dir / f"chrome-375-{scheme}-refused.png", **shot)
    host.page.locator(".foot-nav a", has_text="History").click()
    expect(host.page.locator("#history")).to_be_visible()
    host.page.screenshot(path=artifacts_dir / f"chrome-375-{scheme}-history.png", **shot)
