"""Cards for any room and swaps while other tables play, in Chromium.

A 36-player event (9 tables) prints cards for 12 tables after round 1; four late arrivals
make round 2 ten tables, and the printed card 10 opens round 2's table 10 on a phone; one
table's card is printed again. A 12-player round where table 1 has started: two entrants of
tables 2 and 3 swap, a table-1 entrant can't move, and the open tables are paired again.
Screenshots go to test-artifacts/ (e30cards-*.png)."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
SMALL = {"width": 375, "height": 667}


def shot(page: Page, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e30cards-{name}.png"), full_page=full_page)


def create(page: Page, players: list[str], rounds: int) -> str:
    page.goto("/events/new/scorepad")
    page.get_by_label("Event name").fill("Club night")
    page.get_by_label("Rounds in the event").fill(str(rounds))
    page.get_by_label("Players, one per line").fill("\n".join(players))
    page.get_by_label("Number of rounds").fill("1")
    page.get_by_role("button", name="Create event").click()
    page.locator("#seat-round").click()
    return page.url.split("#")[0]


def post(page: Page, url: str, **form) -> object:
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    return page.request.post(url, form={"csrf_token": token, **form}, max_redirects=0)


def enter_results(page: Page, event_url: str, number: int, tables) -> None:
    """The director enters a result for each table (the correction form's POST)."""
    for n in tables:
        response = post(page, event_url + "/correct", round=str(number), table=str(n),
                        why="Result slip", **{f"place_{i}": str(i + 1) for i in range(4)})
        assert response.status == 303, (n, response.status, response.text()[:300])


def seats_of(page: Page, table: int) -> list[str]:
    return page.locator(f"#table-{table} .seats-line").inner_text().split(" · ")


def test_cards_printed_for_twelve_after_round_one_serve_round_twos_tenth_table(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, [f"Player {i:02d}" for i in range(1, 37)], rounds=2)
    expect(director.locator(".event-table")).to_have_count(9)
    director.locator("#cards-link").click()
    director.locator("#per-page-4").click()
    director.locator("#cards-tables").fill("12")
    director.locator("#cards-count button").click()
    expect(director.locator("article.table-card")).to_have_count(12)
    expect(director.locator("#cards-shown")).to_contain_text("12 cards: tables 1 to 12")
    card_10 = urlsplit(director.locator("#card-10 .card-url").inner_text()).path
    assert card_10.endswith("/t/10")

    director.goto(event_url)
    enter_results(director, event_url, 1, range(1, 10))
    director.reload()
    director.locator("#lock-round").click()
    for n in range(1, 5):
        director.locator("#add-entrant input[name=name]").fill(f"Late {n}")
        director.locator("#add-entrant button").click()
    director.locator("#seat-round").click()
    expect(director.locator(".event-table")).to_have_count(10)
    tenth = seats_of(director, 10)

    # The card printed after round 1 opens round 2's table 10 on any phone.
    guest = phones("Guest", viewport=SMALL).page
    guest.goto(card_10)
    expect(guest.locator("h1")).to_have_text("Who are you?")
    for name in tenth:
        expect(guest.locator(".seat-list")).to_contain_text(name)

    # Table 10's card again, alone, with its seats this round; on a phone too.
    for scheme in ("light", "dark"):
        room = phones(f"Director {scheme}", viewport=SMALL, color_scheme=scheme)
        room.context.add_cookies(director.context.cookies())
        room.page.goto(event_url + "/cards")
        room.page.locator("#cards-table").fill("10")
        room.page.locator("#cards-one button").click()
        expect(room.page.locator("article.table-card")).to_have_count(1)
        expect(room.page.locator("#card-10")).to_contain_text(tenth[0])
        expect(room.page.locator("#cards-shown")).to_be_in_viewport()
        no_overflow(room.page)
        shot(room.page, f"one-card-375-{scheme}")


def test_a_swap_after_another_table_started(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, [f"P{i:02d}" for i in range(1, 13)], rounds=1)
    expect(director.locator(".event-table")).to_have_count(3)
    enter_results(director, event_url, 1, [1])
    director.reload()
    expect(director.locator("#started-tables")).to_contain_text("Table 1 has started")
    first, second, third = (seats_of(director, n) for n in (1, 2, 3))
    director.locator("#swap-a").select_option(second[0])
    director.locator("#swap-b").select_option(third[1])
    director.get_by_role("button", name="Swap them").click()
    expect(director.locator("#table-2 .seats-line")).to_contain_text(third[1])
    expect(director.locator("#table-3 .seats-line")).to_contain_text(second[0])
    expect(director.locator("#audit")).to_contain_text(
        f"swapped {second[0]} (table 2) and {third[1]} (table 3)")
    # Table 1's entrants aren't offered, and a forged swap is refused in one sentence.
    expect(director.locator(f'#swap-a option[value="{first[0]}"]')).to_have_count(0)
    response = post(director, event_url + "/swap", round="1", entrant_a=first[0],
                    entrant_b=second[1])
    assert response.status == 409 and "Table 1 has started" in response.text()
    # The tables that haven't started are paired again among themselves.
    director.locator("#pair-again summary").click()
    director.locator("#pair-again-form button").click()
    expect(director.locator("#audit")).to_contain_text("paired tables 2, 3 again")
    assert seats_of(director, 1) == first
    for scheme in ("light", "dark"):
        room = phones(f"Director {scheme}", viewport=SMALL, color_scheme=scheme)
        room.context.add_cookies(director.context.cookies())
        room.page.goto(event_url + "#director-tools")
        expect(room.page.locator("#started-tables")).to_be_in_viewport()
        no_overflow(room.page)
        shot(room.page, f"swap-tools-375-{scheme}")
