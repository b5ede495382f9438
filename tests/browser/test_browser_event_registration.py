"""Players register themselves for a tournament through the event's QR, in Chromium.

The director creates an event with an empty list and registration open; players' phones open
the players' page the dashboard shows, register (a duplicate name is refused in plain words),
and keep their own view; the dashboard's count follows live. Once the director closes
registration and seats round 1, each phone shows its table by itself (its view polls every
20 s) and leads to the table page. Also: a Rook team registers with the partner box, and a
40-player projector takes turns showing 15 places a screen.

The polling waits are real htmx timers; the phones' clocks are fast-forwarded (Playwright's
`clock`) so the test needn't sit through 20 s of wall time. Nothing is reloaded in between.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_events import claim, claim_code, no_overflow

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PLAYER_POLL = "00:21"        # #mine polls every 20 s
PROJECTOR_POLL = "00:11"     # the projector every 10 s
TAP = 44                     # the smallest comfortable tap target, in CSS pixels


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"events-reg-{name}.png"), full_page=True)


def big_enough(locator) -> None:
    """A thumb can hit it: at least 44 px tall."""
    box = locator.bounding_box()
    assert box and box["height"] >= TAP - 0.5, box


def create_event(director: Page, slug: str, name: str, players: list[str] | None = None,
                 registration: bool = False, rounds: int = 2) -> str:
    """The new-event form, filled and sent; returns the players' page link the dashboard shows."""
    director.goto(f"/events/new/{slug}")
    director.get_by_label("Event name").fill(name)
    director.get_by_label("Rounds in the event").fill(str(rounds))
    if players:
        director.locator("#ev-entrants").fill("\n".join(players))
    if registration:
        director.get_by_label("Players register themselves").check()
    director.get_by_role("button", name="Create event").click()
    expect(director.get_by_role("heading", name=name)).to_be_visible()
    url = director.locator("#players-link").get_attribute("href")
    assert url and url.endswith("/players"), url
    return url


def register(page: Page, url: str, *members: str) -> None:
    """Open the players' page and register (a team: one box per player); no check."""
    page.goto(url)
    labels = ("Your name", "Your partner", "Third player (teams of three only)")
    for label, member in zip(labels, members):
        page.get_by_label(label, exact=True).fill(member)
    page.locator("#register").get_by_role("button", name="Register").click()


def test_players_register_themselves_and_find_their_table(phones, ui):
    names = ["Ann", "Bob", "Cy", "Dee"]
    director = phones("Director").page
    url = create_event(director, "zocknroll", "Dice night", registration=True)
    expect(director.locator("#entrant-count")).to_have_text("0 entrants · registration open")
    expect(director.locator("#registration")).to_contain_text("Registration is open")
    # Players are arriving and nothing is seated: the QR to show them comes first.
    assert director.locator("#players-qr").bounding_box()["y"] < \
        director.locator("#room").bounding_box()["y"]
    no_overflow(director)
    big_enough(director.locator("#registration button"))
    shot(director, "dashboard")

    players: dict[str, Page] = {}
    for name in names:
        page = phones(name).page
        page.clock.install()        # time runs normally; fast_forward fires the poll early
        players[name] = page
        if name == "Ann":
            page.goto(url)
            expect(page.locator("#register")).to_be_visible()
            expect(page.locator("#pick-name")).to_have_count(0)     # nobody on the list yet
            no_overflow(page)
            big_enough(page.get_by_label("Your name", exact=True))
            big_enough(page.locator("#register button"))
            shot(page, "register")
        if name == "Dee":
            # Dee types a name already taken (case aside): refused, her typing kept.
            register(page, url, "ann")
            expect(page.locator("#register .notice")).to_contain_text(
                re.compile("ann is already on the list", re.I))
            expect(page.get_by_label("Your name", exact=True)).to_have_value("ann")
            no_overflow(page)
            shot(page, "refused")
        register(page, url, name)
        expect(page.locator("#my-table")).to_contain_text("No table for you yet")
        expect(page.locator("#my-standing")).to_contain_text(
            re.compile(rf"Place \d+ of {len(players)}"))
    expect(players["Ann"].locator("#you-are")).to_have_text("You are Ann")
    no_overflow(players["Ann"])
    shot(players["Ann"], "mine-before")
    # The director's room polls every 5 s: the count follows without a reload.
    expect(director.locator("#entrant-count")).to_have_text("4 entrants · registration open")

    # The phone remembers who it is; "Not me" gives the name back and leads to the list.
    cy = players["Cy"]
    cy.goto(url)                # the plain address, as the QR has it: no name in it
    expect(cy.locator("#you-are")).to_have_text("You are Cy")
    expect(cy.locator("#register")).to_have_count(0)
    big_enough(cy.locator("#not-me"))
    cy.locator("#not-me").click()
    expect(cy).to_have_url(re.compile(r"[?&]pick=1"))
    expect(cy.locator("#pick-name .name-list button")).to_have_count(4)
    # Claiming the name again takes the claim code the director hands out.
    cy.locator("#pick-name").get_by_role("button", name="Cy", exact=True).click()
    expect(cy.locator("#viewing")).to_have_text("Showing Cy")
    no_overflow(cy)
    big_enough(cy.locator("#claim-code"))
    big_enough(cy.locator("#this-is-me"))
    shot(cy, "claim-code")
    claim(cy, "ZZZZZZ")
    expect(cy.locator("#claim .notice")).to_contain_text("That isn't Cy's claim code")
    expect(cy.locator("#claim-code")).to_be_visible()
    claim(cy, claim_code(director, "Cy").lower())
    expect(cy.locator("#you-are")).to_have_text("You are Cy")
    expect(cy.locator("#my-table")).to_contain_text("No table for you yet")
    # The director's claims list shows who holds which name.
    director.reload()
    expect(director.locator('#claims li[data-player="Cy"]')).to_contain_text("phone ")
    no_overflow(director)

    director.get_by_role("button", name="Close registration").click()
    expect(director.locator("#registration")).to_contain_text("Registration is closed")
    expect(director.locator("#entrant-count")).to_have_text("4 entrants")
    late = phones("Late").page
    late.goto(url)
    expect(late.locator("#pick-name")).to_be_visible()
    expect(late.locator("#register")).to_have_count(0)

    director.locator("#seat-round").click()
    expect(director.locator("#table-1 .status")).to_have_text("Nobody here yet")
    # Once the round is seated the room is the director's business again: QR below it.
    assert director.locator("#players-qr").bounding_box()["y"] > \
        director.locator("#room").bounding_box()["y"]
    seats = director.locator("#table-1 .seats-line").inner_text().split(" · ")
    assert sorted(seats) == names

    # Each phone's own poll brings its table: no reload.
    for name, page in players.items():
        page.clock.fast_forward(PLAYER_POLL)
        expect(page.locator("#my-table")).to_contain_text("Table 1")
        expect(page.locator("#my-table strong")).to_have_text(name)
    ann = players["Ann"]
    no_overflow(ann)
    big_enough(ann.locator("#open-my-table"))
    shot(ann, "mine-seated")

    # "Open table" sits each phone down in its own seat: nobody picks from a list.
    for name, page in players.items():
        page.locator("#open-my-table").click()
        expect(page.locator("#me-bar")).to_contain_text(f"You are {name}")
    expect(director.locator("#table-1 .status")).not_to_have_text("Nobody here yet")


def test_a_rook_team_registers_with_the_partner_box(phones):
    director = phones("Director").page
    url = create_event(director, "rook", "Rook club", registration=True, rounds=1)
    first = phones("Ann").page
    first.goto(url)
    expect(first.get_by_label("Third player (teams of three only)")).to_be_visible()
    no_overflow(first)
    shot(first, "rook-register")
    register(first, url, "Ann", "Bob")
    expect(first.locator("#my-table")).to_contain_text("No table for you yet")
    expect(first.locator("#you-are")).to_have_text("You are Ann (Ann & Bob)")
    no_overflow(first)
    # Ann's phone is shown Bob's claim code to pass on; Bob's own phone claims with it.
    code = first.locator("#partner-codes .claim-code").inner_text()
    expect(first.locator("#partner-codes")).to_contain_text("Bob")
    shot(first, "rook-partner-code")
    bob = phones("Bob").page
    bob.goto(url + "?name=Bob")
    expect(bob.locator("#claim-form button")).to_have_text(["I am Bob"])
    bob.locator("#claim-code").fill(code)
    bob.get_by_role("button", name="I am Bob").click()
    expect(bob.locator("#you-are")).to_have_text("You are Bob (Ann & Bob)")
    first.reload()
    expect(first.locator("#partner-codes")).to_have_count(0)

    second = phones("Cy").page
    second.clock.install()
    # Rook teams may be two or three, but one event's teams are all the same size.
    register(second, url, "Cy", "Dee", "Eve")
    expect(second.locator("#register .notice")).to_contain_text(
        "Every team needs the same number of players: 2.")
    expect(second.get_by_label("Your partner", exact=True)).to_have_value("Dee")
    second.get_by_label("Third player (teams of three only)").fill("")
    second.locator("#register").get_by_role("button", name="Register").click()
    expect(second.locator("main")).to_contain_text("Cy & Dee")
    expect(director.locator("#entrant-count")).to_have_text("2 entrants · registration open")

    director.locator("#seat-round").click()
    expect(director.locator("#table-1")).to_be_visible()
    second.clock.fast_forward(PLAYER_POLL)
    expect(second.locator("#my-table")).to_contain_text("Table 1")
    expect(second.locator("#my-table strong")).to_have_text(["Cy", "Dee"])
    no_overflow(second)
    shot(second, "rook-mine-seated")


def test_projector_pages_through_forty_players(phones, browser, live_url):
    players = [f"Player {i:02d}" for i in range(1, 41)]
    director = phones("Director").page
    create_event(director, "zocknroll", "Big dice", players)
    expect(director.locator("#entrant-count")).to_have_text("40 entrants")

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=live_url)
    try:
        projector = context.new_page()
        projector.clock.install()
        projector.goto(director.url + "/projector")
        page_no, rows = projector.locator("#projector-page"), \
            projector.locator("#standings-table tbody tr")
        expect(page_no).to_have_text("places 1–15 of 40")
        expect(projector.locator("#projector .sub")).to_contain_text("2 rounds")
        expect(rows).to_have_count(15)
        # A page that doesn't fit one screen would hide its last places for good.
        last = rows.nth(14).bounding_box()
        assert last["y"] + last["height"] <= 1080, last
        shot(projector, "projector")
        projector.clock.fast_forward(PROJECTOR_POLL)
        expect(page_no).to_have_text("places 16–30 of 40")
        expect(rows).to_have_count(15)
        projector.clock.fast_forward(PROJECTOR_POLL)
        expect(page_no).to_have_text("places 31–40 of 40")
        expect(rows).to_have_count(10)
        projector.clock.fast_forward(PROJECTOR_POLL)
        expect(page_no).to_have_text("places 1–15 of 40")
    finally:
        context.close()

    # One more entrant and the players' name list becomes a search box.
    director.locator("#add-entrant input[name=name]").fill("Zed")
    director.locator("#add-entrant").get_by_role("button", name="Add").click()
    expect(director.locator("#entrant-count")).to_have_text("41 entrants")
    me = phones("Zed").page
    me.goto(director.url.split("#")[0] + "/players")
    expect(me.locator("#pick-name .name-list")).to_have_count(0)
    me.locator("#find-name input[name=name]").fill("zed")
    me.locator("#find-name").get_by_role("button", name="Show").click()
    expect(me.locator("#my-standing")).to_contain_text("Place 1 of 41")
    no_overflow(me)
