"""Event integrity: closed event tables, results that follow the sheet until the
round is locked, each entrant's own game score, QR codes phones can reach, and a
registration limit that holds across worker processes.

The attacker here holds what anyone in the room holds: the public players' link (and
so the event id), a table's join code read over a shoulder, even a leaked table token.
"""
from __future__ import annotations

import json
import re

import pytest
from test_web_events import create_event, seat_player, seat_round, seatings, token_of
from helpers import attr, attrs, links, select, text_of
from web_helpers import Phone, count, db_rows, local_link, make_app, snapshot

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def one_table_event(director: Phone, db_path: str, players=PLAYERS, **fields):
    """A one-table score pad event, round 1 seated: (event id, table id, seat names)."""
    event_id = create_event(director, list(players), **fields)
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    names = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ?"
                                   " ORDER BY pos", [table_id])]
    return event_id, table_id, names


def seated(db_path: str, table_id: str) -> list[tuple]:
    return db_rows(db_path, "SELECT seat FROM phones WHERE table_id = ? AND seat IS NOT NULL"
                   " ORDER BY seat", [table_id])


# ---------------------------------------------------------------- 1. closed tables

def test_public_pages_carry_no_link_that_seats_the_reader(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    token = token_of(db_path, table_id)
    reader = new_phone("reader")
    for path in (f"/e/{event_id}/players", f"/e/{event_id}/players?name={names[0]}",
                 f"/e/{event_id}/standings", f"/e/{event_id}/projector"):
        page = reader.get(path).get_data(as_text=True)
        assert token.casefold() not in page.casefold(), path
        assert "/j/" not in page.casefold() and "/j#" not in page.casefold(), path
    # The players' page says which table a player is at, without a way in for the reader.
    page = text_of(reader.get(f"/e/{event_id}/players?name={names[0]}").get_data(as_text=True))
    assert "Table 1" in page and "Open table" not in page


@pytest.mark.parametrize("way_in", ["token", "code", "card"])
def test_an_attacker_can_watch_but_never_sit_host_or_enter(app, director, db_path, new_phone,
                                                           way_in):
    event_id, table_id, names = one_table_event(director, db_path)
    attacker = new_phone("attacker")
    code = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table_id])[0][0]
    if way_in == "token":
        r = attacker.join(f"/j#{token_of(db_path, table_id)}")
    elif way_in == "code":
        r = attacker.post("/join", {"code": code})
    else:
        r = attacker.get(f"/e/{event_id}/t/1")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}/seats")
    page = attacker.get(f"/t/{table_id}/seats").get_data(as_text=True)
    assert "free: tap to sit here" not in page and "players’ page" in text_of(page)
    assert attacker.get(f"/t/{table_id}").status_code == 200          # watching is fine
    before = snapshot(db_path)
    for pos in range(len(names)):                                     # seat 0 too (no host)
        r = attacker.claim(table_id, pos)
        assert r.status_code == 403 and "only" in text_of(r.get_data(as_text=True))
    for tool in ("rejoin", "release", "pass"):
        assert attacker.post(f"/t/{table_id}/host/{tool}", {"seat": "1"}).status_code == 403
    r = attacker.post(f"/t/{table_id}/actions", {"sid": "x1", "version": "1",
                                                 "score_0": "99", "score_1": "0",
                                                 "score_2": "0", "score_3": "0"}, hx=True)
    assert r.status_code == 403
    assert snapshot(db_path) == before and seated(db_path, table_id) == []
    assert 'id="host"' not in attacker.get(f"/t/{table_id}").get_data(as_text=True)


def test_an_entrant_takes_their_own_seat_only(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    mine, other = names[0], names[1]
    player = new_phone(mine)
    r = player.post(f"/e/{event_id}/my-table")                  # no name picked yet
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/e/{event_id}/players")
    assert player.pick(event_id, mine).status_code == 303
    # "Open table" on the players' page sits the phone down in its own seat at once.
    r = player.post(f"/e/{event_id}/my-table")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [(0,)]
    page = player.get(f"/t/{table_id}").get_data(as_text=True)
    assert f"You are <b>{mine}</b>" in page and 'id="host"' not in page
    r = player.claim(table_id, 1)                               # another entrant's seat
    assert r.status_code == 403 and other in text_of(r.get_data(as_text=True))
    # A second phone naming the same player, even with the right code, is refused its
    # claim, so it can't take the seat either.
    twin = new_phone(mine + " again")
    r = twin.pick(event_id, mine)
    assert r.status_code == 409 and "already claimed" in text_of(r.get_data(as_text=True))
    assert twin.join(f"/j#{token_of(db_path, table_id)}").status_code == 303
    assert twin.claim(table_id, 0).status_code == 403
    assert seated(db_path, table_id) == [(0,)]


def test_the_table_card_seats_its_own_entrant(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    player = new_phone(names[2])
    assert player.pick(event_id, names[2]).status_code == 303
    r = player.get(f"/e/{event_id}/t/1")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/t/{table_id}")
    assert seated(db_path, table_id) == [(2,)]
    assert new_phone().get(f"/e/{event_id}/t/7").status_code == 404


def test_team_players_take_their_own_seat_and_the_team_name_either(app, director, db_path,
                                                                    new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family")
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    names = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ?"
                                   " ORDER BY pos", [table_id])]
    bob = new_phone("Bob")
    assert bob.pick(event_id, "bob").status_code == 303         # his own name finds the team
    assert bob.join(f"/j#{token_of(db_path, table_id)}").status_code == 303
    assert bob.claim(table_id, names.index("Ann")).status_code == 403   # his partner's seat
    assert bob.claim(table_id, names.index("Bob")).status_code == 303
    team = new_phone("Ann's phone")
    assert team.pick(event_id, "Ann & Bob").status_code == 303
    assert team.join(f"/j#{token_of(db_path, table_id)}").status_code == 303
    assert team.claim(table_id, names.index("Cy")).status_code == 403
    assert team.claim(table_id, names.index("Ann")).status_code == 303


def test_the_director_holds_the_host_tools_of_event_tables(app, director, db_path, new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    player = seat_player(app, db_path, table_id, 1)
    assert "Make host" not in player.get(f"/t/{table_id}").get_data(as_text=True)
    assert director.join(f"/j#{token_of(db_path, table_id)}").status_code == 303
    page = director.get(f"/t/{table_id}").get_data(as_text=True)
    assert 'id="host"' in page and "Director’s tools" in page and "Make host" not in page
    # The director hands a new phone a seat (a player's phone died) and can remove a phone.
    r = director.post(f"/t/{table_id}/host/rejoin", {"seat": "2"})
    assert r.status_code == 200
    rejoin = local_link(attr(r.get_data(as_text=True), "a#rejoin-url", "href"))
    new = new_phone("new phone")
    assert new.join(rejoin).status_code == 303
    assert seated(db_path, table_id) == [(1,), (2,)]
    assert director.post(f"/t/{table_id}/host/release", {"seat": "1"}).status_code == 303
    assert seated(db_path, table_id) == [(2,)]
    # Seated entrants get no host tools: nothing that moves another entrant's seat.
    for tool in ("rejoin", "release", "pass"):
        assert new.post(f"/t/{table_id}/host/{tool}", {"seat": "0"}).status_code == 403
    assert director.post(f"/t/{table_id}/host/pass", {"seat": "2"}).status_code == 403


# ---------------------------------------------------------------- 2. results follow the sheet

def dashboard_result(director: Phone, event_id: str) -> str:
    page = director.get(f"/e/{event_id}", hx=True).get_data(as_text=True)
    lines = select(page, 'p[class="result-line"]')
    return lines[0].text if lines else ""


def test_a_table_that_undoes_and_reenters_counts_the_right_result(app, director, db_path,
                                                                  new_phone):
    event_id, table_id, names = one_table_event(director, db_path)
    player = seat_player(app, db_path, table_id)
    wrong = player.enter(table_id, {0: 10, 1: 40, 2: 20, 3: 30})
    assert wrong.status_code == 200
    assert f"{names[1]}: place 1" in dashboard_result(director, event_id)
    viewer = new_phone("projector")
    leader = lambda: attrs(viewer.get(f"/e/{event_id}/standings").get_data(as_text=True),  # noqa: E731
                           "[data-entrant]", "data-entrant")[0]
    assert leader() == names[1]
    # Every read page, by anyone, writes nothing.
    before = snapshot(db_path)
    for path in ("/standings", "/projector", "/players", f"/players?name={names[0]}"):
        assert viewer.get(f"/e/{event_id}{path}").status_code == 200
    assert director.get(f"/e/{event_id}").status_code == 200
    assert snapshot(db_path) == before and count(db_path, "event_results") == 0
    # The table strikes the wrong hand and enters the right one.
    seq = int(re.search(r"Saved as entry #(\d+)", wrong.get_data(as_text=True)).group(1))
    assert player.undo(table_id, seq, sid="undo-1").status_code == 200
    assert dashboard_result(director, event_id) == ""          # no result while it plays
    assert player.enter(table_id, {0: 40, 1: 10, 2: 30, 3: 20}).status_code == 200
    assert f"{names[0]}: place 1" in dashboard_result(director, event_id)
    assert leader() == names[0]
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    (stored,) = db_rows(db_path, "SELECT result FROM event_results WHERE event_id = ?",
                        [event_id])
    assert json.loads(stored[0])["scores"] == [40, 10, 30, 20]


def test_a_correction_overrides_the_sheet_and_stays(app, director, db_path):
    event_id, table_id, names = one_table_event(director, db_path)
    player = seat_player(app, db_path, table_id)
    assert player.enter(table_id, {0: 10, 1: 40, 2: 20, 3: 30}).status_code == 200
    r = director.post(f"/e/{event_id}/correct", {
        "round": "1", "table": "1", "place_0": "1", "place_1": "2", "place_2": "3",
        "place_3": "4", "score_0": "50", "score_1": "40", "score_2": "20", "score_3": "-5",
        "why": "Ann's last hand was missed"})
    assert r.status_code == 303
    # The table plays on (undo, a new hand): the director's result stays.
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [table_id])[0][0]
    assert player.post(f"/t/{table_id}/rematch", {"sid": "rm", "version": str(version)},
                       hx=True).status_code == 200
    result = dashboard_result(director, event_id)
    assert f"{names[0]}: place 1 (50)" in result and "(-5)" in result and "corrected" in result
    audit = db_rows(db_path, "SELECT why, new FROM event_audit WHERE event_id = ?", [event_id])
    assert audit[0][0] == "Ann's last hand was missed"
    assert json.loads(audit[0][1])["scores"] == [50, 40, 20, -5]
    # Bad scores are refused and change nothing.
    before = snapshot(db_path)
    for scores in ({"score_0": "x"}, {"score_0": "5", "score_1": ""}):
        data = {"round": "1", "table": "1", "place_0": "1", "place_1": "2", "place_2": "3",
                "place_3": "4", "why": "again", **scores}
        r = director.post(f"/e/{event_id}/correct", data)
        assert r.status_code == 422 and 'role="alert"' in r.get_data(as_text=True)
    assert snapshot(db_path) == before


def test_a_director_enters_a_result_by_hand_with_scores(app, director, db_path):
    event_id, _table_id, names = one_table_event(director, db_path)
    form = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    assert 'name="score_0"' in form
    r = director.post(f"/e/{event_id}/correct", {
        "round": "1", "table": "1", "place_0": "2", "place_1": "1", "place_2": "3",
        "place_3": "4", "score_0": "30", "score_1": "45", "score_2": "10", "score_3": "0",
        "why": "played on paper"})
    assert r.status_code == 303
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    assert attrs(page, "[data-entrant]", "data-entrant")[0] == names[1]


# ---------------------------------------------------------------- 3. own game scores

def test_the_game_score_is_each_entrants_own_score(app, director, db_path):
    """Rook's "bidders go out" finish: the winners hold the lower total (600 to 650)."""
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family")
    seat_round(director, event_id)
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    r = director.post(f"/e/{event_id}/correct", {
        "round": "1", "table": "1", "place_0": "1", "place_1": "2", "score_0": "600",
        "score_1": "650", "why": "the bidders went out"})
    assert r.status_code == 303
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    rows = select(page, "tr[data-entrant]")
    assert [row.get("data-entrant") for row in rows] == ids
    assert "600" in rows[0].text and "650" in rows[1].text
    assert "-600" not in page and "-650" not in page and "−6" not in page


# ---------------------------------------------------------------- 4. addresses in QR codes

def visit_as(phone: Phone, host: str) -> None:
    """Send this phone's cookies to `host` too: a request with a forged Host header."""
    for key in phone._cookie_names():
        phone.client.set_cookie(key, phone.cookie(key), domain=host.split(":")[0])


def test_qr_codes_carry_the_public_url(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "http://192.168.7.9:8000/")
    app = make_app(tmp_path)
    assert app.config["PUBLIC_URL"] == "http://192.168.7.9:8000/"
    director = Phone(app, "Director")
    event_id = create_event(director, PLAYERS)
    seat_round(director, event_id)
    visit_as(director, "evil.example")
    dash = director.get(f"/e/{event_id}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"http://192.168.7.9:8000/e/{event_id}/players" in dash
    assert "evil.example" not in dash and 'id="loopback-warning"' not in dash
    cards = director.get(f"/e/{event_id}/cards", headers={"Host": "evil.example"})
    assert f"http://192.168.7.9:8000/e/{event_id}/t/1" in cards.get_data(as_text=True)


def test_without_a_public_url_the_lan_address_never_the_host_header(app, director, monkeypatch):
    from companion.web import urls
    monkeypatch.setattr(urls, "lan_addresses", lambda: ["10.1.2.3"])
    urls._lan_cache.clear()
    event_id = create_event(director, PLAYERS)
    table_id = director.create_table(["Ann", "Bob"])
    visit_as(director, "attacker.example")
    host = {"Host": "attacker.example:9999"}
    # The server listens on port 8000 (the socket's port, whatever the Host header says).
    dash = director.get(f"/e/{event_id}", headers=host,
                        base_url="http://localhost:8000").get_data(as_text=True)
    assert f"http://10.1.2.3:8000/e/{event_id}/players" in dash
    assert "attacker.example" not in dash and 'id="loopback-warning"' not in dash
    page = director.get(f"/t/{table_id}", headers=host).get_data(as_text=True)
    (join,) = links(page, "a#join-url")
    assert join.startswith("HTTP://10.1.2.3/j#")            # the test client's port is 80
    # No network at all: the loopback address, and the dashboard says phones can't use it.
    monkeypatch.setattr(urls, "lan_addresses", lambda: [])
    urls._lan_cache.clear()
    dash = director.get(f"/e/{event_id}", headers=host).get_data(as_text=True)
    assert 'id="loopback-warning"' in dash and "COMPANION_PUBLIC_URL" in text_of(dash)
    assert "attacker.example" not in dash
    urls._lan_cache.clear()


# ---------------------------------------------------------------- 5. the registration limit

def test_the_registration_limit_holds_across_worker_processes(tmp_path):
    """Two app instances on one database stand for gunicorn's two workers."""
    workers = [make_app(tmp_path), make_app(tmp_path)]
    director = Phone(workers[0], "Director")
    event_id = create_event(director, [], slug="zocknroll", registration="on")
    phones = [Phone(workers[i % 2], f"p{i}") for i in range(23)]
    answers = []
    for i, phone in enumerate(phones):
        r = phone.post(f"/e/{event_id}/register", {"member_0": f"Player {i}"},
                       environ_base={"REMOTE_ADDR": "10.9.9.9"})
        answers.append(r.status_code)
    assert answers[:20] == [303] * 20 and answers[20:] == [429] * 3
    r = phones[0].post(f"/e/{event_id}/register", {"member_0": "Elsewhere"},
                       environ_base={"REMOTE_ADDR": "10.9.9.10"})
    assert r.status_code == 303
    db = workers[0].config["DATABASE"]
    assert count(db, "event_entrants", "event_id = ?", [event_id]) == 21
    page = phones[0].post(f"/e/{event_id}/register", {"member_0": "Late"},
                          environ_base={"REMOTE_ADDR": "10.9.9.9"}).get_data(as_text=True)
    assert "at most 20 a minute" in text_of(page) and 'role="alert"' in page
