"""Tournaments end to end in Chromium.

A small event: the director creates it from the start page, seats two rounds, a player enters
the results on the table's own page, the dashboard follows live, the director locks the
rounds; standings, projector, the players' page, and table cards printed to PDF (one page per
table). The full-size run: 4 rounds of 8 tables (32 players), every result entered
on its table page, points and Buchholz checked against values computed in the test."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_helpers import Server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"events-{name}.png"), full_page=True)


def no_overflow(page: Page) -> None:
    """Nothing sticks out sideways on a phone (the page is never wider than the screen)."""
    width = page.viewport_size["width"]
    box = page.locator("main").bounding_box()
    assert box and box["width"] <= width + 0.5, box     # (sub-pixel rounding is no overflow)


def seats_of_table(director: Page) -> list[str]:
    return director.locator("#table-1 .seats-line").inner_text().split(" · ")


def seated_club_night(phones) -> tuple[Page, list[str], str]:
    """The director's laptop creates a one-round score-pad event of Ann, Bob, Cy and Dee and
    seats round 1: (the director's page, table 1's seats, the event's address)."""
    director = phones("Director", viewport={"width": 1366, "height": 768}).page
    director.goto("/events/new/scorepad")
    director.get_by_label("Event name").fill("Club night")
    director.get_by_label("Rounds in the event").fill("1")
    director.get_by_label("Players, one per line").fill("Ann\nBob\nCy\nDee")
    director.get_by_label("Number of rounds").fill("1")
    director.get_by_role("button", name="Create event").click()
    director.locator("#seat-round").click()
    expect(director.locator("#table-1 .status")).to_have_text("Nobody here yet")
    seats = director.locator("#table-1 .seats-line").inner_text().split(" · ")
    return director, seats, director.url.split("#")[0]


def claim_code(director: Page, name: str) -> str:
    """`name`'s claim code as the director's printed slip shows it (read in another tab of
    the director's browser, which stays where it is)."""
    tab = director.context.new_page()
    try:
        tab.goto(director.url.split("#")[0] + "/slips")
        return tab.locator(f'article.claim-slip[data-player="{name}"] .claim-code').inner_text()
    finally:
        tab.close()


def claim(player: Page, code: str) -> None:
    """On a player's page: type the claim code from the slip, then "This is me"."""
    player.locator("#claim-code").fill(code)
    player.locator("#this-is-me").click()


def sit_as(player: Page, players_url: str, name: str, director: Page) -> None:
    """At an event only a player's own phone takes their seat: tap your name on the
    players' page, type your claim code ("This is me"), then "Open table"."""
    player.goto(players_url + "?pick=1")
    player.locator("#pick-name").get_by_role("button", name=name, exact=True).click()
    expect(player.locator("#you-are, #claim-code")).to_be_visible()
    if player.locator("#claim-code").count():         # not this phone's name yet
        claim(player, claim_code(director, name))
    expect(player.locator("#you-are")).to_have_text(f"You are {name}")
    player.locator("#open-my-table").click()
    expect(player.locator("#me-bar")).to_contain_text(f"You are {name}")


def play_table(player: Page, ui, players_url: str, seats: list[str], scores: list[int],
               director: Page) -> None:
    """The player of seat 1 sits down (see sit_as) and enters the one round."""
    sit_as(player, players_url, seats[0], director)
    ui.enter_round(player, dict(enumerate(scores)))
    expect(player.locator("#sheet")).to_contain_text(re.compile("wins|won", re.I))


def test_a_two_round_event_from_start_page_to_standings(phones, ui):
    director = phones("Director").page
    director.goto("/")
    director.get_by_role("link", name="Run a tournament").click()
    director.get_by_role("link", name=re.compile(r"^Score pad")).click()
    director.get_by_label("Event name").fill("Club night")
    director.get_by_label("Rounds in the event").fill("2")
    director.get_by_label("Players, one per line").fill("\n".join(PLAYERS))
    director.get_by_label("Number of rounds").fill("1")  # each score pad: one round
    no_overflow(director)
    shot(director, "new")
    director.get_by_role("button", name="Create event").click()
    expect(director.get_by_role("heading", name="Club night")).to_be_visible()

    played: dict[str, list[int]] = {p: [] for p in PLAYERS}
    player = phones("Player").page
    for rnd in (1, 2):
        director.locator("#seat-round").click()
        expect(director.locator("#table-1 .status")).to_have_text("Nobody here yet")
        seats = seats_of_table(director)
        assert sorted(seats) == PLAYERS
        if rnd == 1:
            shot(director, "dashboard")
            no_overflow(director)
        players_url = director.url.split("#")[0] + "/players"
        play_table(player, ui, players_url, seats, [40, 30, 20, 10], director)
        for place, name in enumerate(seats):
            played[name].append((4, 2, 1, 0)[place])
        # The dashboard polls: the table turns finished without a reload.
        expect(director.locator("#table-1 .status")).to_have_text("Finished", timeout=15_000)
        director.locator("#lock-round").click()
        expect(director.locator("#room h2")).to_contain_text(f"Round {rnd} · locked")
    expect(director.locator("#event-over")).to_be_visible()

    director.get_by_role("link", name="Standings", exact=True).click()
    for name, points in played.items():
        expect(director.locator(f'tr[data-entrant="{name}"] .points')).to_have_text(
            str(sum(points)))
    shot(director, "standings")

    # The projector: dark, large, and it follows without a reload.
    projector = phones("Projector", viewport={"width": 1280, "height": 720}).page
    projector.goto(director.url.replace("/standings", "/projector"))
    expect(projector.locator("#standings-table tbody tr")).to_have_count(4)
    shot(projector, "projector")

    # A player's phone: pick your name, see your place.
    me = phones("Cy").page
    me.goto(director.url.replace("/standings", "/players"))
    me.get_by_role("button", name="Cy", exact=True).click()
    expect(me.locator("#my-standing")).to_contain_text("points from 2 games")
    no_overflow(me)
    shot(me, "players")


def test_table_cards_print_one_page_per_table(phones, live_url):
    director = phones("Director").page
    director.goto("/events/new/zocknroll")
    director.get_by_label("Event name").fill("Dice night")
    director.get_by_label("Players, one per line").fill(
        "\n".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]))
    director.get_by_role("button", name="Create event").click()
    director.locator("#seat-round").click()
    expect(director.locator(".event-table")).to_have_count(2)
    director.get_by_role("link", name="Print table cards").click()
    expect(director.locator(".table-card")).to_have_count(2)
    expect(director.locator(".table-card svg.qr")).to_have_count(2)
    shot(director, "cards")
    director.emulate_media(media="print")
    director.set_viewport_size({"width": 794, "height": 1123})   # A4 at 96 dpi
    shot(director, "cards-print")
    pdf = director.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 2, pages


@pytest.fixture
def event_server(tmp_path):
    """A server of its own: every test phone shares one address, and 32 table joins within
    minutes would trip the join rate limit a real room (one address per phone) never meets."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text('JOIN_RATE_LIMIT = "10000 per minute"\n')
    server = Server(instance).start()
    yield server
    server.kill()


@pytest.mark.slow
def test_four_rounds_of_eight_tables_standings_match_hand_computed(phones, ui, event_server):
    """The full-size run: 32 players at 8 score pads, 4 rounds, every result entered
    on its own table page; points and Buchholz checked against values computed here."""
    players = [f"P{i:02d}" for i in range(1, 33)]
    here = {"base_url": event_server.url}
    director = phones("Director", viewport={"width": 1280, "height": 900}, **here).page
    director.goto("/events/new/scorepad")
    director.get_by_label("Event name").fill("Big night")
    director.get_by_label("Rounds in the event").fill("4")
    director.get_by_label("Players, one per line").fill("\n".join(players))
    director.get_by_label("Number of rounds").fill("1")
    director.get_by_role("button", name="Create event").click()
    seatings: list[list[list[str]]] = []        # round -> table -> names in seat order
    # One scorer's phone claims each table's first player in turn (each claim gives the
    # previous one back): a claim held by another phone would be refused.
    player = phones("Scorer", **here).page
    for rnd in range(1, 5):
        director.locator("#seat-round").click()
        expect(director.locator(".event-table")).to_have_count(8)
        tables = []
        for n in range(1, 9):
            card = director.locator(f"#table-{n}")
            seats = card.locator(".seats-line").inner_text().split(" · ")
            assert len(seats) == 4
            tables.append(seats)
            sit_as(player, director.url.split("#")[0] + "/players", seats[0], director)
            ui.enter_round(player, {0: 40, 1: 30, 2: 20, 3: 10})
        assert sorted(name for t in tables for name in t) == players
        seatings.append(tables)
        expect(director.locator(".event-table.finished")).to_have_count(8, timeout=20_000)
        director.locator("#lock-round").click()
        expect(director.locator("#room h2")).to_contain_text(f"Round {rnd} · locked")
    expect(director.locator("#event-over")).to_be_visible()

    # By hand: 4/2/1/0 by seat (the scores follow the seats); Buchholz is the sum over rounds
    # of the table-mates' average final points.
    points = dict.fromkeys(players, 0)
    for tables in seatings:
        for seats in tables:
            for place, name in enumerate(seats):
                points[name] += (4, 2, 1, 0)[place]
    buchholz = dict.fromkeys(players, 0.0)
    for tables in seatings:
        for seats in tables:
            for name in seats:
                mates = [points[m] for m in seats if m != name]
                buchholz[name] += sum(mates) / len(mates)
    # Round 2 on is seated by standings: no two players met twice while avoidable.
    pairs = [frozenset((a, b)) for tables in seatings for seats in tables
             for a in seats for b in seats if a < b]
    assert len(pairs) == len(set(pairs)), "a repeat pairing"

    director.get_by_role("link", name="Standings", exact=True).click()
    rows = director.locator("#standings-table tbody tr")
    expect(rows).to_have_count(32)
    shown = []
    for i in range(32):
        cells = rows.nth(i).locator("td, th").all_inner_texts()
        rank, name, pts, played, bh = cells[0], cells[1], cells[2], cells[3], cells[5]
        assert float(pts) == points[name], name
        assert played == "4"
        assert abs(float(bh) - buchholz[name]) < 0.006, (name, bh, buchholz[name])
        shown.append((int(rank), name))
    best = max(points.values())
    assert {name for rank, name in shown if rank == 1} <= \
        {n for n, p in points.items() if p == best}
    assert [points[name] for _rank, name in shown] == sorted(points.values(), reverse=True)
