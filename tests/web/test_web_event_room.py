"""The room as directors expect it, through the Flask test client: the round
clock (start, pause, resume, extend, stop; on the dashboard, the projector and the players'
phones), the pairings by name (page and projector, taking turns with the standings), table
cards 1, 2 or 4 to a page for every table number, the director's link for a second device,
and the dashboard's compact room. No GET of these pages writes a row."""
from __future__ import annotations

import json
import re
import sqlite3
import time

import pytest
from test_web_events import PLAYERS, create_event, seat_round, seatings
from helpers import attr, attrs, select, text_of
from web_helpers import Phone, db_rows, make_app, snapshot

from companion.tables.tokens import hash_secret
from companion.events.event import director_hash

EVENT_TABLES = ("events", "event_entrants", "event_rounds", "event_seatings", "event_results",
                "event_audit", "event_directors", "event_passes")


def everything(db_path: str) -> dict:
    """Every row of the tables' data and of every event table."""
    rows = snapshot(db_path)
    for name in EVENT_TABLES:
        rows[name] = sorted(db_rows(db_path, f"SELECT * FROM {name}"), key=repr)
    return rows


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def page_of(phone: Phone, url: str, status: int = 200, **kw) -> str:
    r = phone.get(url, **kw)
    assert r.status_code == status, (url, r.status_code, text_of(r.get_data(as_text=True))[:800])
    return r.get_data(as_text=True)


def stored_clock(db_path: str, event_id: str) -> dict | None:
    (raw,), = db_rows(db_path, "SELECT clock FROM events WHERE id = ?", [event_id])
    return json.loads(raw) if raw else None


def shift_clock(db_path: str, event_id: str, seconds: float) -> None:
    """Pretend `seconds` have passed on a running clock (its start moves back)."""
    clock = stored_clock(db_path, event_id)
    clock["started_at"] -= seconds
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE events SET clock = ? WHERE id = ?", [json.dumps(clock), event_id])
    conn.close()


def clock_post(phone: Phone, event_id: str, action: str, minutes: str | None = None):
    data = {"action": action}
    if minutes is not None:
        data["minutes"] = minutes
    return phone.post(f"/e/{event_id}/clock", data)


def clock_text(page: str) -> str:
    clock = select(page, "p#clock")
    return clock[0].text if clock else ""


def lock_first_round(director: Phone, db_path: str, event_id: str) -> None:
    """Results entered by the director for every table of round 1, then the lock."""
    for n, _t, ids in seatings(db_path, event_id, 1):
        data = {"round": "1", "table": str(n), "why": "slip"}
        data.update({f"place_{i}": str(i + 1) for i in range(len(ids))})
        assert director.post(f"/e/{event_id}/correct", data).status_code == 303
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303


# ---------------------------------------------------------------- the round clock

def test_the_clock_refuses_strangers_unknown_actions_and_a_room_with_no_round(
        director, new_phone, db_path):
    event_id = create_event(director)
    before = everything(db_path)
    assert clock_post(new_phone("stranger"), event_id, "start", "60").status_code == 403
    r = clock_post(director, event_id, "explode")
    assert r.status_code == 400 and 'role="alert"' in r.get_data(as_text=True)
    r = clock_post(director, event_id, "start", "60")
    assert r.status_code == 422
    assert "Seat a round first" in text_of(r.get_data(as_text=True))
    assert 'role="alert"' in r.get_data(as_text=True)
    assert everything(db_path) == before
    seat_round(director, event_id)
    before = everything(db_path)
    for action, minutes, words in (("start", "abc", "Minutes are a whole number"),
                                   ("start", "0", "Minutes are a whole number"),
                                   ("start", "601", "Minutes are a whole number"),
                                   ("pause", None, "start it first"),
                                   ("resume", None, "start it first"),
                                   ("extend", None, "start it first"),
                                   ("stop", None, "start it first")):
        r = clock_post(director, event_id, action, minutes)
        assert r.status_code == 422, (action, minutes)
        assert words in text_of(r.get_data(as_text=True)), (action, minutes)
    assert everything(db_path) == before


def test_start_pause_resume_extend_and_stop(director, db_path):
    event_id = create_event(director)
    seat_round(director, event_id)
    dash = page_of(director, f"/e/{event_id}")
    assert 'id="clock-start"' in dash and 'value="60"' in dash and 'id="clock"' not in dash
    version = db_rows(db_path, "SELECT version FROM events WHERE id = ?", [event_id])[0][0]
    assert clock_post(director, event_id, "start", "30").status_code == 303
    clock = stored_clock(db_path, event_id)
    assert clock["round"] == 1 and clock["seconds"] == 1800 and clock["running"] is True
    assert abs(clock["started_at"] - time.time()) < 5 and clock["remaining"] == 1800
    # Every write bumps the event's version (cached pages expire).
    assert db_rows(db_path, "SELECT version FROM events WHERE id = ?", [event_id])[0][0] \
        == version + 1
    dash = page_of(director, f"/e/{event_id}")
    assert re.search(r"(29:5\d|30:00) left", clock_text(dash))
    end = int(attr(dash, "[data-clock-end]", "data-clock-end"))
    assert abs(end / 1000 - (clock["started_at"] + 1800)) < 1
    assert 'id="clock-pause"' in dash and 'id="clock-start"' not in dash

    shift_clock(db_path, event_id, 600)          # ten minutes later
    assert re.search(r"(19:5\d|20:00) left", clock_text(page_of(director, f"/e/{event_id}")))
    assert clock_post(director, event_id, "pause").status_code == 303
    clock = stored_clock(db_path, event_id)
    assert clock["running"] is False and 1190 <= clock["remaining"] <= 1200
    dash = page_of(director, f"/e/{event_id}")
    assert "Paused" in clock_text(dash) and "data-clock-end" not in dash
    assert 'id="clock-resume"' in dash
    r = clock_post(director, event_id, "pause")
    assert r.status_code == 422 and "already paused" in text_of(r.get_data(as_text=True))
    # Paused, the clock keeps its time however long the break.
    time.sleep(1.1)
    assert stored_clock(db_path, event_id)["remaining"] == clock["remaining"]
    assert clock_post(director, event_id, "extend").status_code == 303      # +5 min
    assert stored_clock(db_path, event_id)["remaining"] == clock["remaining"] + 300
    assert clock_post(director, event_id, "resume").status_code == 303
    r = clock_post(director, event_id, "resume")
    assert r.status_code == 422 and "already running" in text_of(r.get_data(as_text=True))
    assert clock_post(director, event_id, "extend", "10").status_code == 303
    clock = stored_clock(db_path, event_id)
    assert clock["running"] is True and clock["seconds"] == 1800 + 300 + 600
    assert 1490 + 600 <= clock["remaining"] <= 1500 + 600

    # Time runs out: "Time is up"; "+5 min" then counts from now, not from the past.
    shift_clock(db_path, event_id, 3 * 3600)
    dash = page_of(director, f"/e/{event_id}")
    assert "Time is up" in clock_text(dash) and 'class="clock over"' in dash
    assert clock_post(director, event_id, "extend").status_code == 303
    assert re.search(r"(04:5\d|05:00) left", clock_text(page_of(director, f"/e/{event_id}")))
    assert clock_post(director, event_id, "stop").status_code == 303
    assert stored_clock(db_path, event_id) is None
    assert 'id="clock-start"' in page_of(director, f"/e/{event_id}")
    # Starting again (over a running clock) restarts it; the default is 60 minutes.
    assert clock_post(director, event_id, "start").status_code == 303
    assert clock_post(director, event_id, "start", "45").status_code == 303
    assert stored_clock(db_path, event_id)["seconds"] == 45 * 60


def test_the_clock_on_the_dashboard_the_projector_and_the_players_phones(
        director, new_phone, db_path):
    event_id = create_event(director)
    seat_round(director, event_id)
    viewer, cy = new_phone("projector"), new_phone("Cy")
    assert cy.pick(event_id, "Cy").status_code == 303
    pages = {"dashboard": (director, f"/e/{event_id}"),
             "projector": (viewer, f"/e/{event_id}/projector"),
             "players": (cy, f"/e/{event_id}/players")}
    for who, url in pages.values():
        assert 'id="clock"' not in page_of(who, url)
    assert clock_post(director, event_id, "start", "50").status_code == 303
    for where, (who, url) in pages.items():
        for hx in (False, True):      # the page, and the fragment its poll fetches
            page = page_of(who, url, hx=hx)
            assert re.search(r"Round 1 clock (49:5\d|50:00) left", clock_text(page)), where
            # The countdown: an end time and the server's time, for event.js to tick.
            times = select(page, 'time[class="clock-time"]')
            assert times, where
            time_ = times[0]
            assert re.fullmatch(r"PT\d+S", time_.get("datetime", "")), where
            assert re.fullmatch(r"\d{13}", time_.get("data-clock-end", "")), where
            assert re.fullmatch(r"\d{13}", time_.get("data-clock-now", "")), where
            assert 'data-format="{} left"' in page and 'data-up="Time is up"' in page
    assert clock_post(director, event_id, "pause").status_code == 303
    for where, (who, url) in pages.items():
        page = page_of(who, url)
        assert "Paused" in clock_text(page) and "data-clock-end" not in page, where
    assert clock_post(director, event_id, "resume").status_code == 303
    shift_clock(db_path, event_id, 3600)
    for where, (who, url) in pages.items():
        assert "Time is up" in clock_text(page_of(who, url)), where


def test_a_clock_of_an_earlier_round_is_not_shown_once_a_new_round_is_seated(
        director, new_phone, db_path):
    event_id = create_event(director, rounds=2)
    seat_round(director, event_id)
    assert clock_post(director, event_id, "start", "60").status_code == 303
    cy = new_phone("Cy")
    assert cy.pick(event_id, "Cy").status_code == 303
    lock_first_round(director, db_path, event_id)
    # Locked: the round's clock is done; it can't be started or extended any more.
    assert 'id="clock"' not in page_of(director, f"/e/{event_id}")
    assert 'id="clock"' not in page_of(cy, f"/e/{event_id}/players")
    r = clock_post(director, event_id, "start", "60")
    assert r.status_code == 422 and "Round 1 is locked" in text_of(r.get_data(as_text=True))
    seat_round(director, event_id)
    assert stored_clock(db_path, event_id)["round"] == 1    # still stored, never shown
    for who, url in ((director, f"/e/{event_id}"), (cy, f"/e/{event_id}/players"),
                     (new_phone(), f"/e/{event_id}/projector")):
        assert 'id="clock"' not in page_of(who, url), url
    assert 'id="clock-start"' in page_of(director, f"/e/{event_id}")
    r = clock_post(director, event_id, "pause")
    assert r.status_code == 422 and "Round 2 has no clock yet" in text_of(r.get_data(as_text=True))
    assert clock_post(director, event_id, "start", "40").status_code == 303
    assert stored_clock(db_path, event_id)["round"] == 2
    assert "Round 2 clock" in clock_text(page_of(cy, f"/e/{event_id}/players"))


def test_clock_state_is_worked_out_from_the_stored_clock_and_the_time():
    from companion.events.round_clock import clock_state
    from companion.events.event import Event
    from companion.events.rounds import Round

    def event(clock):
        return Event(id="x", name="x", game_slug="scorepad", settings={}, options={},
                     rounds=3, created_at="", clock=json.dumps(clock) if clock else None)

    running = event({"round": 2, "seconds": 600, "started_at": 1000.0, "remaining": 600,
                     "running": True})
    state = clock_state(running, Round(2, [], False), at=1100.5)
    assert state["remaining"] == 500 and state["text"] == "08:20" and state["running"]
    assert not state["over"] and state["ends_at_ms"] == 1_600_000 and state["now_ms"] == 1_100_500
    assert clock_state(running, Round(2, [], False), at=1599.6)["text"] == "00:01"
    over = clock_state(running, Round(2, [], False), at=1700)
    assert over["over"] and over["remaining"] == 0 and over["text"] == "00:00"
    paused = event({"round": 2, "seconds": 600, "started_at": None, "remaining": 4000,
                    "running": False})
    state = clock_state(paused, Round(2, [], False), at=99999)
    assert state["paused"] and state["text"] == "66:40" and state["ends_at_ms"] is None
    # Another round's clock, or a locked round's, isn't shown; no clock is None.
    assert clock_state(running, Round(3, [], False), at=1100) is None
    assert clock_state(running, Round(2, [], True), at=1100) is None
    assert clock_state(event(None), Round(2, [], False)) is None


# ---------------------------------------------------------------- pairings by name

def where_listed(page: str) -> list[tuple[str, str]]:
    """(name with team, where) of every line of the pairings list, in order."""
    out = []
    for item in select(page, 'ul[class="pairings"]')[0].select("li"):
        who, where = item.text.split(" → ")
        out.append((who, where))
    return out


def test_pairings_of_a_table_game_by_name(director, new_phone, db_path):
    players = ["bea", "Ann", "Cy", "dee", "Eve", "Fay", "Gus", "hal", "Ida"]
    event_id = create_event(director, players=players)
    viewer = new_phone("player")
    page = page_of(viewer, f"/e/{event_id}/pairings")
    assert "No round has been seated yet" in text_of(page)
    seat_round(director, event_id)
    page = page_of(viewer, f"/e/{event_id}/pairings")
    assert "Round 1: who sits where" in text_of(page) and "9 players" in text_of(page)
    expected = {}
    for n, table_id, _ids in seatings(db_path, event_id, 1):
        for pos, name in db_rows(db_path, "SELECT pos, name FROM seats WHERE table_id = ?",
                                 [table_id]):
            expected[name] = f"Table {n}, seat {pos + 1}"
    listed = where_listed(page)
    assert [who for who, _w in listed] == sorted(players, key=str.casefold)
    assert dict(listed) == expected
    # Printable: a print button and the page's own print layout.
    assert "data-print" in page and 'class="pairings-page"' in page
    # Linked from the dashboard and the players' pages.
    dash = page_of(director, f"/e/{event_id}")
    assert f'href="/e/{event_id}/pairings" id="pairings-link"' in dash
    assert f'href="/e/{event_id}/pairings"' in page_of(viewer, f"/e/{event_id}/players")
    assert viewer.pick(event_id, "Cy").status_code == 303
    assert 'id="pairings-link"' in page_of(viewer, f"/e/{event_id}/players")
    assert viewer.get("/e/nope/pairings").status_code == 404


def test_pairings_of_a_team_game_list_every_member_with_the_team_and_the_bye(
        director, new_phone, db_path):
    teams = ["Ann, Bob", "Cy, Dee", "eve, Fay"]
    event_id = create_event(director, teams, slug="rook", variant="family")
    seat_round(director, event_id)
    (n, table_id, (team_a, team_b)), = seatings(db_path, event_id, 1)
    (bye,) = json.loads(db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ?",
                                [event_id])[0][0])
    listed = dict(where_listed(page_of(new_phone(), f"/e/{event_id}/pairings")))
    seats = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? "
                                   "ORDER BY pos", [table_id])]
    expected = {}
    for pos, name in enumerate(seats):
        team = team_a if name in team_a.split(" & ") else team_b
        expected[f"{name} ({team})"] = f"Table {n}, seat {pos + 1}"
    for name in bye.split(" & "):
        expected[f"{name} ({bye})"] = "sits out (bye)"
    assert listed == expected
    names = [who.split(" (")[0] for who in listed]
    assert names == sorted(names, key=str.casefold) and len(names) == 6
    # Partners alternate: team A in seats 1 and 3.
    assert [listed[f"{m} ({team_a})"][-1] for m in team_a.split(" & ")] == ["1", "3"]


def test_the_pairings_service_gives_name_entrant_table_seat_and_bye(app, director, db_path):
    from companion.events import event, rounds
    from companion.storage import get_db
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "Eve, Fay"], slug="rook",
                            variant="family")
    with app.test_request_context():
        db = get_db()
        assert rounds.pairings(db, event.get_event(db, event_id)) == []
    seat_round(director, event_id)
    with app.test_request_context():
        db = get_db()
        rows = rounds.pairings(db, event.get_event(db, event_id))
    assert [r["name"] for r in rows] == ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    byes = [r for r in rows if r["bye"]]
    assert len(byes) == 2 and all(r["table"] is None and r["seat"] is None for r in byes)
    seated = [r for r in rows if not r["bye"]]
    assert sorted(r["seat"] for r in seated) == [1, 2, 3, 4]
    assert all(r["table"] == 1 and " & " in r["entrant"] for r in seated)


# ---------------------------------------------------------------- the projector takes turns

def hx_get(page: str) -> str:
    return attr(page, "section#projector", "hx-get")


def test_the_projector_alternates_standings_and_pairings_while_a_round_is_played(
        director, new_phone, db_path):
    players = [f"Player {i:02d}" for i in range(1, 46)]
    event_id = create_event(director, players=players)
    screen = new_phone("projector")
    base = f"/e/{event_id}/projector"
    # Before any round: the standings take turns alone, as before (15 rows to a screen, as
    # the projector's script measured: ?rows=15, kept by every next address).
    page = page_of(screen, base + "?rows=15")
    assert hx_get(page) == base + "?page=2&rows=15" and "projector-pairings" not in page
    assert hx_get(page_of(screen, base + "?show=pairings&page=3&rows=15")) == \
        base + "?page=1&rows=15"
    seat_round(director, event_id)
    # 45 players: 3 pages of standings (15) and 3 of pairings (20), in turn.
    walk, url = [], base + "?rows=15"
    for _ in range(7):
        page = page_of(screen, url, hx=True)
        assert page.lstrip().startswith('<section id="projector"')
        shown = "pairings" if 'id="projector-pairings"' in page else "standings"
        walk.append((shown, text_of(page, "#projector-page")))
        if shown == "pairings":
            names = [n.text for n in select(page, "span.p-name")]
            assert names == sorted(names, key=str.casefold)
            assert "standings-table" not in page
        url = hx_get(page)
    assert walk == [("standings", "places 1–15 of 45"), ("pairings", "names 1–20 of 45"),
                    ("standings", "places 16–30 of 45"), ("pairings", "names 21–40 of 45"),
                    ("standings", "places 31–45 of 45"), ("pairings", "names 41–45 of 45"),
                    ("standings", "places 1–15 of 45")]
    page = page_of(screen, base + "?show=pairings&page=2")
    names = [n.text for n in select(page, "span.p-name")]
    assert names == players[20:40] and "Table" in text_of(page) and "Who sits where" in page
    # Nonsense pages show the first screen.
    for odd in ("0", "99", "x", "9" * 5000):
        assert "names 1–20 of 45" in page_of(screen, f"{base}?show=pairings&page={odd}")
    # Once the round is locked the projector is all standings again.
    lock_first_round(director, db_path, event_id)
    page = page_of(screen, base + "?show=pairings&page=1&rows=15")
    assert "projector-pairings" not in page and hx_get(page) == base + "?page=2&rows=15"


def test_a_small_room_projector_flips_between_one_page_of_each(director, new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    screen = new_phone("projector")
    base = f"/e/{event_id}/projector"
    page = page_of(screen, base)
    assert hx_get(page) == base + "?show=pairings&page=1" and "standings-table" in page
    page = page_of(screen, base + "?show=pairings&page=1")
    assert hx_get(page) == base + "?page=1" and len(where_listed(page)) == 8
    assert "projector-page" not in page      # one screen each: no page counter


# ---------------------------------------------------------------- table cards per page

def test_table_cards_one_two_or_four_to_a_page(director, new_phone, db_path):
    players = [f"P{i:02d}" for i in range(1, 21)]          # 5 tables of 4
    event_id = create_event(director, players=players)
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    assert len(tables) == 5
    one = page_of(director, f"/e/{event_id}/cards")
    assert one.count('class="card-sheet per-1"') == 5 and one.count('class="table-card"') == 5
    assert all(p in one for p in players) and "Round 1" in one
    assert one.count('aria-current="page"') == 1 and 'id="per-page-1" class' not in one
    for per_page, sheets in ((2, 3), (4, 2)):
        page = page_of(director, f"/e/{event_id}/cards?per_page={per_page}")
        assert page.count(f'class="card-sheet per-{per_page}"') == sheets
        assert page.count('class="table-card"') == 5 and page.count("<svg") >= 5
        # Printed once for the whole event: no names of this round, no round number.
        assert not any(p in page for p in players) and "Round 1" not in page
        for n in range(1, 6):
            assert f'id="card-{n}"' in page and f"Table {n}" in page
        assert f'href="/e/{event_id}/cards?per_page=1"' in page
    # Anything else is one to a page; only the director prints cards.
    assert page_of(director, f"/e/{event_id}/cards?per_page=3").count("per-1") == 5
    assert new_phone().get(f"/e/{event_id}/cards?per_page=2").status_code == 403


def test_cards_cover_the_biggest_round_and_their_qr_opens_the_current_round(
        director, new_phone, db_path):
    event_id = create_event(director, rounds=2)             # 8 players: 2 tables
    seat_round(director, event_id)
    lock_first_round(director, db_path, event_id)
    for name in PLAYERS[4:]:
        assert director.post(f"/e/{event_id}/entrants",
                             {"action": "drop", "name": name}).status_code == 303
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 2)      # round 2: one table
    page = page_of(director, f"/e/{event_id}/cards")
    assert page.count('class="table-card"') == 2
    first, second = page.split('id="card-2"')
    assert "Round 2" in first and all(e in first for e in ids)
    assert "Seat 1" not in second and "Round 2" not in second
    # Card 1's QR (the same address every round) opens round 2's table 1.
    r = new_phone().get(f"/e/{event_id}/t/1")
    assert r.status_code == 303 and table_id in r.headers["Location"]
    assert new_phone().get(f"/e/{event_id}/t/2").status_code == 404


# ---------------------------------------------------------------- a second director's device

def director_path(page: str, event_id: str) -> str:
    hrefs = attrs(page, "a#director-url", "href")
    match = hrefs and re.fullmatch(rf"https?://[^/]+(/e/{event_id}/director#[A-Z2-7]{{32}})",
                                   hrefs[0])
    assert match, text_of(page)[:2000]
    return match.group(1)


# The link itself (works once, expires, a new one revokes link devices unless kept) and the
# device list: tests/web/test_web_director_devices.py.


def test_the_director_link_is_rate_limited_like_a_table_qr(tmp_path):
    app = make_app(tmp_path, JOIN_RATE_LIMIT="3 per minute")
    director = Phone(app, "Director")
    event_id = create_event(director)
    guesser = Phone(app, "guesser")
    for n in range(4):
        r = guesser.join(f"/e/{event_id}/director#" + "B" * 32)
        assert r.status_code == (429 if n == 3 else 404), n
        assert 'role="alert"' in r.get_data(as_text=True)


# ---------------------------------------------------------------- the dashboard's room

def test_the_rooms_buttons_and_clock_come_before_a_compact_grid_of_tables(director, db_path):
    event_id = create_event(director, players=[f"P{i:02d}" for i in range(1, 49)])
    room = page_of(director, f"/e/{event_id}", hx=True)
    assert room.lstrip().startswith('<section id="room"')
    bar = room.split('class="room-bar"', 1)[1].split('<div class="room-bar"')[0]
    assert 'id="seat-round"' in bar.split("</div>", 1)[0]
    seat_round(director, event_id)
    lock_ready = page_of(director, f"/e/{event_id}")
    assert 'class="event-room"' in lock_ready        # the wide page
    room = page_of(director, f"/e/{event_id}", hx=True)
    grid = room.index('class="event-tables room-grid"')
    for marker in ('id="cards-link"', 'id="pairings-link"', 'id="clock-start"'):
        assert room.index(marker) < grid, marker
    assert room.count('class="event-table missing" id="table-') == 12
    assert room.count('data-status="missing">Nobody here yet</span>') == 12
    for n, _t, _ids in seatings(db_path, event_id, 1):
        data = {"round": "1", "table": str(n), "why": "slip"}
        data.update({f"place_{i}": str(i + 1) for i in range(4)})
        assert director.post(f"/e/{event_id}/correct", data).status_code == 303
    room = page_of(director, f"/e/{event_id}", hx=True)
    assert room.index('id="lock-round"') < room.index('class="event-tables room-grid"')
    # The cards link lives in the room now, once.
    assert page_of(director, f"/e/{event_id}").count('id="cards-link"') == 1


# ---------------------------------------------------------------- reading never writes

def test_no_get_of_pairings_projector_players_or_cards_writes(director, new_phone, db_path):
    event_id = create_event(director)
    seat_round(director, event_id)
    assert clock_post(director, event_id, "start", "60").status_code == 303
    cy = new_phone("Cy")
    assert cy.pick(event_id, "Cy").status_code == 303
    viewer = new_phone("viewer")
    before = everything(db_path)
    for who, url in ((viewer, "/pairings"), (viewer, "/projector"),
                     (viewer, "/projector?show=pairings&page=1"), (viewer, "/players"),
                     (viewer, "/players?name=Cy"), (cy, "/players"), (cy, "/pairings"),
                     (director, ""), (director, "/cards"), (director, "/cards?per_page=4")):
        for hx in (False, True):
            assert who.get(f"/e/{event_id}{url}", hx=hx).status_code == 200, url
    assert everything(db_path) == before
