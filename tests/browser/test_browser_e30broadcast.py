"""Publishing an event, in Chromium: the director's announcement reaches a player's phone on
its table page (through the table's live stream) and stays dismissed there; the round
clock running out rings once (vibration stubbed: a headless browser has no motor) with the
projector's sound toggle on; the finished event's static pages, unzipped, open from the
file system (file://) with the final standings and a page per round.
Screenshots go to test-artifacts/ (e30broadcast-*.png)."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_e30cards import LAPTOP, SMALL, create, enter_results
from test_browser_events import claim, claim_code, no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e30broadcast-{name}.png"))


def test_an_announcement_reaches_a_phone_and_the_export_opens_from_the_file_system(
        phones, tmp_path):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, PLAYERS, rounds=1)

    # A player picks their name and opens their table: the table page listens live.
    ann = phones("Ann", viewport=SMALL).page
    ann.goto(event_url + "/players?name=Ann")
    claim(ann, claim_code(director, "Ann"))
    ann.locator("#open-my-table").click()
    expect(ann.locator("#live-state")).to_have_text("live")
    expect(ann.locator("#event-news")).to_be_attached()

    director.locator("#announce-text").fill("Round 1 ends at 20:30. Pizza in the hall!")
    director.locator("#announce-send").click()
    expect(director.locator("#audit")).to_contain_text("Announced: “Round 1 ends at 20:30.")
    # The director's phone: the form, the announcement kept below it, in view.
    for scheme in ("light", "dark"):
        desk = phones(f"Desk {scheme}", viewport=SMALL, color_scheme=scheme)
        desk.context.add_cookies(director.context.cookies())
        desk.page.goto(event_url)
        desk.page.locator("#announce").scroll_into_view_if_needed()
        expect(desk.page.locator("#announce #news")).to_be_in_viewport()
        no_overflow(desk.page)
        shot(desk.page, f"announce-375-{scheme}")
    news = ann.locator("#event-news [data-news]")
    # Within the stream's keep-alive (5 s).
    expect(news).to_contain_text("Pizza in the hall!", timeout=10000)
    expect(news).to_be_in_viewport()
    no_overflow(ann)
    shot(ann, "table-news-375-light")
    ann.emulate_media(color_scheme="dark")
    shot(ann, "table-news-375-dark")
    ann.locator("[data-dismiss-news]").click()
    expect(news).to_be_hidden()
    ann.reload()
    expect(ann.locator("#event-news [data-news]")).to_be_hidden()

    # The projector: sound on, and a clock seen running that runs out rings once.
    projector = phones("Projector", viewport={"width": 1280, "height": 720},
                       is_mobile=False, has_touch=False).page
    projector.goto(event_url + "/projector")
    expect(projector.locator("#news")).to_contain_text("Pizza in the hall!")
    toggle = projector.locator("#sound-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("Sound on")
    shot(projector, "projector-1280")
    projector.evaluate("""() => {
        window.buzzed = [];
        navigator.vibrate = (pattern) => { window.buzzed.push(pattern); return true; };
        const now = Date.now();
        document.querySelector('main').insertAdjacentHTML('beforeend',
          '<p class="clock" data-round="7"><time data-clock-end="' + (now + 1200) +
          '" data-clock-now="' + now + '">00:02</time></p>');
    }""")
    expect(projector.locator("html")).to_have_attribute("data-time-up", "7:" + projector.evaluate(
        "document.querySelector('[data-round=\"7\"] time').getAttribute('data-clock-end')"),
        timeout=5000)
    projector.wait_for_function("window.buzzed.length === 1")
    # Ticking on past the end rings no more.
    projector.wait_for_timeout(1100)
    assert projector.evaluate("window.buzzed.length") == 1

    # The event ends; its pages, unzipped, open from the file system.
    enter_results(director, event_url, 1, [1, 2])
    director.reload()
    director.locator("#lock-round").click()
    response = director.request.get(event_url + "/export.zip")
    assert response.status == 200
    zipfile.ZipFile(io.BytesIO(response.body())).extractall(tmp_path)
    index = next(tmp_path.glob("event-*/index.html"))
    for scheme in ("light", "dark"):
        reader = phones(f"Reader {scheme}", viewport=SMALL, color_scheme=scheme).page
        reader.goto(index.as_uri())
        expect(reader.locator("#standings-caption")).to_have_text("Final standings")
        expect(reader.locator("#standings-table tbody tr")).to_have_count(len(PLAYERS))
        no_overflow(reader)
        shot(reader, f"export-375-{scheme}")
    # A Japanese director's browser gets the pages in Japanese.
    response = director.request.get(event_url + "/export.zip", headers={"Accept-Language": "ja"})
    zipfile.ZipFile(io.BytesIO(response.body())).extractall(tmp_path / "ja")
    japanese = phones("Reader ja", viewport=SMALL).page
    japanese.goto(next((tmp_path / "ja").glob("event-*/index.html")).as_uri())
    expect(japanese.locator("#standings-caption")).to_have_text("最終順位")
    shot(japanese, "export-375-ja")
    reader.locator("#nav-round-1").click()
    assert reader.url.startswith("file://") and reader.url.endswith("/round-1.html")
    expect(reader.locator("#round-results tbody")).to_have_count(2)
    shot(reader, "export-round-375-dark")
