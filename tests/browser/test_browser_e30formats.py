"""Round robin and a top cut, in Chromium.

A round robin of 6 Rook teams chosen on the new-event form plays its 5 rounds, and every two
teams meet exactly once. A 6-team Swiss of 2 rounds starts a top 4 from the dashboard: the
semi-finals pair 1 v 4 and 2 v 3, the winners meet in the final, and the standings page shows
the bracket and the winner. Results go in through the correction form's POST (the director's
paper slips), so the test stays quick. Screenshots go to test-artifacts/ (e30formats-*.png).
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
SMALL = {"width": 375, "height": 667}
TEAMS = ["Ann, Bob", "Cid, Dot", "Eve, Fay", "Gus, Hal", "Ivy, Jon", "Kim, Lou"]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e30formats-{name}.png"))


def create(page: Page, rounds: int, round_robin: bool) -> str:
    page.goto("/events/new/rook")
    page.get_by_label("Event name").fill("Rook cup")
    page.get_by_label("Rounds in the event").fill(str(rounds))
    page.get_by_label("Teams, one per line").fill("\n".join(TEAMS))
    if round_robin:
        page.get_by_label("Round robin: everyone meets everyone once").check()
    page.get_by_role("button", name="Create event").click()
    return page.url.split("#")[0]


def post(page: Page, url: str, **form) -> None:
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    response = page.request.post(url, form={"csrf_token": token, **form}, max_redirects=0)
    assert response.status == 303, (url, response.status, response.text()[:300])


def play_round(page: Page, event_url: str, number: int, tables: int,
               places=lambda n: ("1", "2")) -> list[list[str]]:
    """Seat round `number`, enter every table's result (`places(table)`), read who met
    whom from the room, and lock the round."""
    post(page, event_url + "/seat")
    for n in range(1, tables + 1):
        first, second = places(n)
        post(page, event_url + "/correct", round=str(number), table=str(n), why="Slip",
             place_0=first, place_1=second)
    page.goto(event_url)
    met = []
    for n in range(1, tables + 1):
        line = page.locator(f"#table-{n} .result-line").inner_text()
        met.append([part.split(": place")[0].strip() for part in line.split(" · ")])
    post(page, event_url + "/lock", round=str(number))
    return met


def test_a_round_robin_of_six_teams_meets_everyone_once(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, rounds=2, round_robin=True)
    expect(director.locator("h1 + .hint")).to_contain_text("5 rounds")
    expect(director.locator("#seat-round")).to_contain_text("by the schedule")
    met = []
    for number in range(1, 6):
        met += [frozenset(pair) for pair in play_round(director, event_url, number, 3)]
    teams = {team for pair in met for team in pair}
    assert len(teams) == 6 and len(met) == 15
    assert set(met) == {frozenset(p) for p in itertools.combinations(teams, 2)}
    director.goto(event_url)
    expect(director.locator("#event-over")).to_be_visible()
    expect(director.locator("#seat-round")).to_have_count(0)
    phone = phones("Form", viewport=SMALL).page
    phone.goto("/events/new/rook#ev-plan")
    expect(phone.locator("#ev-plan")).to_be_in_viewport()
    no_overflow(phone)
    shot(phone, "form-375-light")


def test_a_top_4_cut(phones):
    director = phones("Director", viewport=LAPTOP, is_mobile=False, has_touch=False).page
    event_url = create(director, rounds=2, round_robin=False)
    for number in (1, 2):
        play_round(director, event_url, number, 3)
    director.goto(event_url + "/standings")
    seeds = [director.locator("tr[data-entrant]").nth(i).get_attribute("data-entrant")
             for i in range(4)]
    room = phones("Director phone", viewport=SMALL)
    room.context.add_cookies(director.context.cookies())
    room.page.goto(event_url + "#cut-form")
    expect(room.page.locator("#cut-4")).to_be_in_viewport()
    no_overflow(room.page)
    shot(room.page, "cut-form-375-light")
    director.goto(event_url)
    director.locator("#cut-4").click()
    expect(director.locator("#cut-seeds")).to_contain_text(f"(1) {seeds[0]}")
    director.locator("#seat-round").click()
    semis = director.locator("#bracket-round-3 li")
    expect(semis).to_have_count(2)
    expect(semis.nth(0)).to_contain_text(f"(1) {seeds[0]} v (4) {seeds[3]}")
    expect(semis.nth(1)).to_contain_text(f"(2) {seeds[1]} v (3) {seeds[2]}")
    # Table 1: the fourth seed wins; table 2 is a draw, so the second seed goes on.
    for table, places in ((1, ("2", "1")), (2, ("1", "1"))):
        post(director, event_url + "/correct", round="3", table=str(table), why="Slip",
             place_0=places[0], place_1=places[1])
    post(director, event_url + "/lock", round="3")
    director.goto(event_url)
    director.locator("#seat-round").click()
    expect(director.locator("#bracket-round-4 li")).to_contain_text(
        f"(2) {seeds[1]} v (4) {seeds[3]}")
    post(director, event_url + "/correct", round="4", table="1", why="Slip",
         place_0="2", place_1="1")
    post(director, event_url + "/lock", round="4")
    for scheme in ("light", "dark"):
        phone = phones(f"Watcher {scheme}", viewport=SMALL, color_scheme=scheme).page
        phone.goto(event_url + "/standings")
        expect(phone.locator("#event-winner")).to_have_text(f"Winner: {seeds[3]}")
        expect(phone.locator("#event-winner")).to_be_in_viewport()
        expect(phone.locator("#standings-caption")).to_contain_text("Final standings")
        no_overflow(phone)
        shot(phone, f"bracket-375-{scheme}")
