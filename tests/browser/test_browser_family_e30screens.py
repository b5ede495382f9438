"""The event's screens in Chromium at the sizes they are shown on (1920x1080, 1366x768,
1280x720, 1024x768): a 40-player event with 7 of its 10 tables finished.

- The projector shows as many standings rows as its screen holds, every column inside the
  screen, "page 1 of N" (its script measures the rows and asks for ?rows=).
- The standings page has no sideways scrolling on a laptop.
- The dashboard counts its tables by state and filters to the unfinished ones.
Screenshots go to test-artifacts/ (screens-*.png) for people to look at."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = [(1920, 1080), (1366, 768), (1280, 720), (1024, 768)]
PLAYERS = [f"Player {i:02d} Longname" for i in range(1, 41)]
FINISHED = 7                      # of the 10 tables of 4


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screens-{name}.png"))


def inside(page: Page, locator, what: str) -> None:
    """The element lies wholly inside the viewport (nothing scrolled, nothing cut)."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box, what
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (what, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (what, box)


def no_sideways_scroll(page: Page) -> None:
    """Neither the page nor any box in it scrolls sideways."""
    wide = page.evaluate("""() => {
      const out = [];
      if (document.documentElement.scrollWidth > innerWidth + 1) out.push('page');
      for (const el of document.querySelectorAll('main *')) {
        if (el.scrollWidth > el.clientWidth + 1 &&
            ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) out.push(el.className);
      }
      return out;
    }""")
    assert wide == [], wide


def enter_results(page: Page, event_url: str, tables: int) -> None:
    """The director enters a result for tables 1..`tables` (the correction form's POST)."""
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    for n in range(1, tables + 1):
        form = {"csrf_token": token, "round": "1", "table": str(n), "why": "Result slip",
                **{f"place_{i}": str(i + 1) for i in range(4)}}
        response = page.request.post(event_url + "/correct", form=form, max_redirects=0)
        assert response.status == 303, (n, response.status, response.text()[:300])


def projector_fits(page: Page) -> tuple[int, int]:
    """Every header cell and every row of the projector's standings inside the screen;
    (rows on this page, rows per page asked for)."""
    section = page.locator("#projector")
    expect(section).to_have_attribute("data-fitted", re.compile(r"^\d+$"))   # measured
    expect(section.locator("#standings-table")).to_be_visible()
    heads = section.locator("#standings-table thead th")
    assert heads.count() == 7          # #, name, points, played and 3 tie-breaks
    for i in range(heads.count()):
        inside(page, heads.nth(i), f"header {i}")
    rows = section.locator("#standings-table tbody tr")
    for i in range(rows.count()):
        inside(page, rows.nth(i), f"row {i}")
    return rows.count(), int(section.get_attribute("data-rows"))


def test_the_event_screens_fit_projector_standings_and_dashboard(phones):
    director = phones("Director", viewport={"width": 1366, "height": 768}, is_mobile=False,
                      has_touch=False).page
    director.goto("/events/new/scorepad")
    director.get_by_label("Event name").fill("Autumn open")
    director.get_by_label("Rounds in the event").fill("3")
    director.get_by_label("Players, one per line").fill("\n".join(PLAYERS))
    director.get_by_label("Number of rounds").fill("1")
    director.get_by_role("button", name="Create event").click()
    director.locator("#seat-round").click()
    expect(director.locator(".event-table")).to_have_count(10)
    event_url = director.url.split("#")[0].split("?")[0]
    enter_results(director, event_url, FINISHED)
    director.reload()

    # The dashboard: counted by state, filtered to the unfinished tables with a tap.
    expect(director.locator("#table-counts")).to_contain_text(f"{FINISHED} of 10 done")
    director.locator("#filter-open").click()
    expect(director.locator(".event-table")).to_have_count(10 - FINISHED)
    expect(director.locator(".event-table.finished")).to_have_count(0)
    assert "tables=open" in director.locator("#room").get_attribute("hx-get")
    # A button of the filtered dashboard comes back to it filtered.
    director.locator("#clock-start-button").click()    # the projector shows it large too
    expect(director.locator("#clock .clock-time")).to_have_text(re.compile("left$"))
    assert "tables=open" in director.url
    expect(director.locator(".event-table")).to_have_count(10 - FINISHED)
    # An announcement on the projector too: the rows are measured below it.
    director.locator("#announce-text").fill("Round 2 starts at nine")
    director.locator("#announce-send").click()
    expect(director.locator("#announce .news-item")).to_have_count(1)
    director.locator("#filter-all").click()
    expect(director.locator(".event-table")).to_have_count(10)
    result = director.locator("#table-1 .result-line")
    assert result.evaluate("el => el.scrollWidth <= el.clientWidth + 1")   # not cut
    shot(director, "dashboard-1366x768")

    viewer = phones("Projector", viewport={"width": 1280, "height": 720}, is_mobile=False,
                    has_touch=False).page
    for width, height in SIZES:
        size = f"{width}x{height}"
        viewer.set_viewport_size({"width": width, "height": height})
        # The projector: every column, every row of the page, "page 1 of N".
        viewer.goto(event_url + "/projector")
        shown, per_page = projector_fits(viewer)
        pages = math.ceil(len(PLAYERS) / per_page)
        print("FIT", size, per_page)
        assert shown == min(per_page, len(PLAYERS))
        if pages > 1:
            expect(viewer.locator("#projector-of")).to_have_text(f"page 1 of {pages}")
        shot(viewer, f"projector-{size}")
        if size == "1280x720":
            assert pages >= 3
            # The next screen is the pairings (a round is played), then page 2; the last
            # page holds the rest, and fits too.
            assert f"rows={per_page}" in viewer.locator("#projector").get_attribute("hx-get")
            viewer.goto(f"{event_url}/projector?page={pages}&rows={per_page}")
            shown, _ = projector_fits(viewer)
            assert shown == len(PLAYERS) - (pages - 1) * per_page
            expect(viewer.locator("#projector-of")).to_have_text(f"page {pages} of {pages}")
            shot(viewer, f"projector-{size}-last")
            viewer.goto(f"{event_url}/projector?show=pairings&page=1&rows={per_page}")
            names = viewer.locator("#projector-pairings li")
            for i in range(names.count()):
                inside(viewer, names.nth(i), f"pairing {i}")
            shot(viewer, f"projector-{size}-pairings")
        # The standings page: no sideways scrolling.
        viewer.goto(event_url + "/standings")
        no_sideways_scroll(viewer)
        heads = viewer.locator("#standings-table thead th")
        for i in range(heads.count()):
            inside(viewer, heads.nth(i), f"standings header {i} at {size}")
        shot(viewer, f"standings-{size}")
        # The dashboard: the result line whole.
        director.set_viewport_size({"width": width, "height": height})
        director.goto(event_url + "?tables=open" if size == "1024x768" else event_url)
        shot(director, f"dashboard-{size}")

    # The clock goes away: the projector measures again and shows more rows.
    viewer.set_viewport_size({"width": 1280, "height": 720})
    viewer.goto(event_url + "/projector")
    expect(viewer.locator("#projector .news-item")).to_have_count(1)
    _shown, with_clock = projector_fits(viewer)
    token = director.locator('input[name="csrf_token"]').first.get_attribute("value")
    response = director.request.post(event_url + "/clock", form={
        "csrf_token": token, "action": "stop"}, max_redirects=0)
    assert response.status == 303
    viewer.evaluate("rows => htmx.ajax('GET', location.pathname + '?page=1&rows=' + rows,"
                    " {target: '#projector', swap: 'outerHTML'})", with_clock)
    expect(viewer.locator("#projector .clock")).to_have_count(0)
    viewer.wait_for_function("rows => +document.querySelector('#projector')"
                             ".getAttribute('data-fitted') > rows", arg=with_clock)
    _shown, without_clock = projector_fits(viewer)
    assert without_clock > with_clock
    shot(viewer, "projector-1280x720-no-clock")

    # A phone: the result lines whole, nothing sideways.
    director.set_viewport_size({"width": 375, "height": 667})
    director.goto(event_url)
    result = director.locator("#table-1 .result-line")
    assert result.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert director.evaluate("document.documentElement.scrollWidth") <= 375
    director.locator("#table-counts").scroll_into_view_if_needed()
    shot(director, "dashboard-375x667")
    # The announcement card with its withdraw button, light and dark.
    expect(director.locator("#announce .news-withdraw button")).to_have_count(1)
    director.locator("#announce").scroll_into_view_if_needed()
    shot(director, "announce-375x667-light")
    director.emulate_media(color_scheme="dark")
    shot(director, "announce-375x667-dark")
