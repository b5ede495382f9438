"""Check-in and keep-apart groups, in Chromium.

Six players, check-in on: the director taps four names checked in, a fifth checks in from
their own phone ("I'm here"), the sixth never does: round 1 seats five and shows the sixth
as a no-show. Six Rook teams over three rounds, three of them one club kept apart: no two
of the club ever meet. Screenshots go to test-artifacts/ (e30pairing-*.png)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
SMALL = {"width": 375, "height": 667}


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e30pairing-{name}.png"))


def post(page: Page, url: str, **form) -> object:
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    return page.request.post(url, form={"csrf_token": token, **form}, max_redirects=0)


def create(page: Page, slug: str, entrants: list[str], rounds: int, *,
           codes: bool = True) -> str:
    page.goto(f"/events/new/{slug}")
    page.get_by_label("Event name").fill("Club night")
    page.get_by_label("Rounds in the event").fill(str(rounds))
    page.locator("#ev-entrants").fill("\n".join(entrants))
    if slug == "scorepad":
        page.get_by_label("Number of rounds").fill("1")
    if not codes:
        page.locator("#ev-claim-codes").uncheck()
    page.get_by_role("button", name="Create event").click()
    expect(page.locator("#seat-round")).to_be_visible()
    return page.url.split("#")[0]


def entrant(page: Page, name: str):
    return page.locator(f'#entrants li[data-entrant="{name}"]')


def test_check_in_leaves_a_no_show_out(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    players = [f"P{i}" for i in range(1, 7)]
    event_url = create(director, "scorepad", players, rounds=2, codes=False)
    director.locator("#check-in-on").click()
    for name in players[:4]:
        entrant(director, name).get_by_role("button", name="Check in").click()
        expect(entrant(director, name)).to_contain_text("checked in")
    # P5 checks in from their own phone.
    phone = phones("P5", viewport=SMALL, color_scheme="light").page
    phone.goto(event_url + "/players")
    phone.locator("#name-list").get_by_role("button", name="P5", exact=True).click()
    phone.locator("#check-in-button").click()
    expect(phone.locator("#check-in")).to_contain_text("You’re checked in.")
    expect(phone.locator("#check-in")).to_be_in_viewport()
    no_overflow(phone)
    shot(phone, "checked-in-375-light")
    director.reload()
    expect(director.locator("#check-in-count")).to_contain_text("5 of 6 checked in")
    director.locator("#seat-round").click()
    expect(entrant(director, "P6")).to_contain_text("(no-show)")
    seated = " ".join(director.locator(".event-table .seats-line").all_inner_texts())
    assert "P6" not in seated and all(name in seated for name in players[:5])
    for scheme in ("light", "dark"):
        room = phones(f"Director {scheme}", viewport=SMALL, color_scheme=scheme)
        room.context.add_cookies(director.context.cookies())
        room.page.goto(event_url + "#entrants")
        expect(entrant(room.page, "P6")).to_be_in_viewport()
        no_overflow(room.page)
        shot(room.page, f"no-show-375-{scheme}")


TEAMS = ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal", "Ivy, Jo", "Kim, Lu"]
CLUB = {"Ann", "Cy", "Eve"}       # one player of each club team (a table shows its seats)


def test_a_keep_apart_pair_never_paired(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, "rook", TEAMS, rounds=3)
    director.locator("#pairing-rules summary").click()
    director.locator("#apart-group").fill("Riverside")
    director.locator("#apart-members").fill("Ann\nCy\nEve")
    director.locator("#apart-form button").click()
    expect(director.locator("#apart-groups")).to_contain_text("Ann & Bob, Cy & Dee, Eve & Fay")
    for rnd in (1, 2, 3):
        director.locator("#seat-round").click()
        tables = director.locator(".event-table .seats-line")
        expect(tables).to_have_count(3)
        for line in tables.all_inner_texts():
            assert len(CLUB & set(line.split(" · "))) < 2, (rnd, line)
        expect(director.locator("#pairing-notes")).to_have_count(0)
        for n in (1, 2, 3):
            response = post(director, event_url + "/correct", round=str(rnd), table=str(n),
                            why="Result slip", place_0="1", place_1="2")
            assert response.status == 303, (rnd, n, response.text()[:300])
        director.reload()
        director.locator("#lock-round").click()
    for scheme in ("light", "dark"):
        room = phones(f"Director {scheme}", viewport=SMALL, color_scheme=scheme)
        room.context.add_cookies(director.context.cookies())
        room.page.goto(event_url + "#pairing-rules")
        expect(room.page.locator("#apart-groups")).to_be_in_viewport()
        no_overflow(room.page)
        shot(room.page, f"keep-apart-375-{scheme}")
