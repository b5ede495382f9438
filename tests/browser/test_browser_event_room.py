"""The director's room in Chromium: what a director expects of it.

A 48-player event (12 tables) on a 1366x768 laptop: the round's buttons, its clock and table 1
are on the first screen without scrolling; the clock counts down between polls on a player's
phone; the projector shows the pairings by name; table cards print 1, 2 or 4 to an A4 page.
Screenshots go to test-artifacts/ (events-room-*.png) for people to look at."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
PLAYERS = [f"Player {i:02d}" for i in range(1, 49)]


def shot(page: Page, name: str, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"events-room-{name}.png"), full_page=full_page)


def in_first_screen(page: Page, selector: str) -> None:
    """The element is wholly inside the first viewport (nothing scrolled)."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)


def pdf_pages(page: Page) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))


def enter_every_result(page: Page, event_url: str, tables: int) -> None:
    """The director enters a result for each table (the correction form's POST, sent with
    the page's own cookies and CSRF token): every table finished, the round can be locked."""
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    for n in range(1, tables + 1):
        form = {"csrf_token": token, "round": "1", "table": str(n), "why": "Result slip",
                **{f"place_{i}": str(i + 1) for i in range(4)}}
        response = page.request.post(event_url + "/correct", form=form, max_redirects=0)
        assert response.status == 303, (n, response.status, response.text()[:300])


def test_the_room_fits_a_laptop_and_prints_cards_and_pairings(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    director.goto("/events/new/scorepad")
    director.get_by_label("Event name").fill("Spring open")
    director.get_by_label("Rounds in the event").fill("3")
    director.get_by_label("Players, one per line").fill("\n".join(PLAYERS))
    director.get_by_label("Number of rounds").fill("1")
    director.get_by_role("button", name="Create event").click()
    in_first_screen(director, "#seat-round")
    director.locator("#seat-round").click()
    expect(director.locator(".event-table")).to_have_count(12)
    event_url = director.url.split("#")[0]

    # The round clock: 60 minutes by default.
    expect(director.locator("#clock-minutes")).to_have_value("60")
    director.locator("#clock-start-button").click()
    expect(director.locator("#clock .clock-time")).to_have_text(
        re.compile(r"^(59:5\d|60:00) left$"))
    for selector in ("#clock", "#clock-pause", "#cards-link", "#pairings-link", "#table-1"):
        in_first_screen(director, selector)
    # Several tables to a row on a laptop.
    first, second = (director.locator(f"#table-{n}").bounding_box() for n in (1, 2))
    assert abs(first["y"] - second["y"]) < 1 and second["x"] > first["x"]

    enter_every_result(director, event_url, 12)
    director.reload()
    expect(director.locator(".event-table.finished")).to_have_count(12)
    for selector in ("#lock-round", "#clock", "#table-1"):
        in_first_screen(director, selector)
    shot(director, "dashboard-1366x768", full_page=False)
    shot(director, "dashboard-full")

    # A helper's phone becomes a director through the director's link (a QR code).
    director.locator("#director-link summary").click()
    director.locator("#show-director-link").click()
    link = director.locator("#director-url")
    expect(link).to_be_visible()
    expect(director.locator("#director-link svg.qr")).to_be_visible()
    director.locator("#director-link").screenshot(
        path=str(ARTIFACTS / "events-room-director-link.png"))
    helper = phones("Helper", viewport={"width": 375, "height": 667}).page
    helper.goto(link.get_attribute("href"))
    expect(helper.locator("#room")).to_be_visible()
    expect(helper.locator("#table-1")).to_be_visible()

    # Pausing shows "Paused"; the projector's pairings screen, large, in two columns.
    director.locator("#clock-pause").click()
    expect(director.locator("#clock")).to_contain_text("Paused")
    director.locator("#clock-resume").click()
    expect(director.locator("#clock-pause")).to_be_visible()
    projector = phones("Projector", viewport={"width": 1280, "height": 720}, is_mobile=False,
                       has_touch=False).page
    projector.goto(event_url + "/projector?show=pairings&page=1")
    names = projector.locator("#projector-pairings .p-name")
    expect(names).to_have_count(20)
    expect(names.first).to_have_text("Player 01")
    expect(projector.locator("#projector-page")).to_have_text("names 1–20 of 48")
    last = projector.locator("#projector-pairings li").nth(19).bounding_box()
    assert last["y"] + last["height"] <= 720, last
    expect(projector.locator("#clock .clock-time")).to_have_text(re.compile(r"left$"))
    shot(projector, "projector-pairings-1280x720", full_page=False)

    # Table cards: two to a page on screen and in print; 12 cards make 6 pages.
    director.goto(event_url + "/cards?per_page=2")
    expect(director.locator(".table-card")).to_have_count(12)
    expect(director.locator(".card-sheet.per-2")).to_have_count(6)
    number = director.locator("#card-1 .card-no").bounding_box()
    card = director.locator("#card-1").bounding_box()
    assert number["height"] >= 0.3 * card["height"], (number, card)
    shot(director, "cards-2-per-page")
    director.emulate_media(media="print")
    director.set_viewport_size({"width": 794, "height": 1123})     # A4 at 96 dpi
    shot(director, "cards-2-per-page-print", full_page=False)   # the first A4 page
    assert pdf_pages(director) == 6
    director.goto(event_url + "/cards?per_page=4")
    assert pdf_pages(director) == 3
    shot(director, "cards-4-per-page-print", full_page=False)   # the first A4 page
    director.goto(event_url + "/cards?per_page=1")
    number = director.locator("#card-1 .card-no").bounding_box()
    card = director.locator("#card-1").bounding_box()
    assert number["height"] >= 0.3 * card["height"], (number, card)
    shot(director, "cards-1-per-page-print", full_page=False)   # the first A4 page
    assert pdf_pages(director) == 12
    director.goto(event_url + "/pairings")
    shot(director, "pairings-print", full_page=False)   # the first A4 page
    assert pdf_pages(director) == 1        # 48 names: two compact columns on one A4 page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_players_phone_shows_the_clock_ticking_and_the_pairings(phones, scheme):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    director.goto("/events/new/scorepad")
    director.get_by_label("Event name").fill("Club night")
    director.get_by_label("Players, one per line").fill("\n".join(PLAYERS[:8]))
    director.get_by_label("Number of rounds").fill("1")
    director.get_by_role("button", name="Create event").click()
    director.locator("#seat-round").click()
    # The room refreshes every 5 s; it waits while the director types the minutes.
    director.clock.install()
    director.reload()
    director.locator("#clock-minutes").fill("25")
    director.clock.fast_forward("00:12")
    expect(director.locator("#clock-minutes")).to_have_value("25")
    director.locator("#clock-start-button").click()
    expect(director.locator("#clock")).to_contain_text("left")
    event_url = director.url.split("#")[0]

    phone = phones("Player 03", viewport={"width": 375, "height": 667},
                   color_scheme=scheme).page
    phone.goto(event_url + "/players")
    phone.locator("#name-list").get_by_role("button", name="Player 03", exact=True).click()
    clock = phone.locator("#clock .clock-time")
    expect(clock).to_have_text(re.compile(r"^(24:5\d|25:00) left$"))
    before = clock.inner_text()
    expect(clock).not_to_have_text(before, timeout=3_000)    # it ticks between polls
    no_overflow(phone)
    shot(phone, f"players-375x667-{scheme}", full_page=False)
    phone.locator("#pairings-link").click()
    expect(phone.locator("#pairings li")).to_have_count(8)
    expect(phone.locator("#pairings li").first).to_contain_text(re.compile(
        r"Player 01\s*→\s*Table \d, seat \d"))
    no_overflow(phone)
    shot(phone, f"pairings-375-{scheme}")

    # The director's room on the same phone: one column, nothing sticks out.
    room = phones("Director phone", viewport={"width": 375, "height": 667},
                  color_scheme=scheme)
    room.context.add_cookies(director.context.cookies())
    room.page.goto(event_url)
    expect(room.page.locator("#table-1")).to_be_visible()
    no_overflow(room.page)
    shot(room.page, f"dashboard-375-{scheme}", full_page=False)
