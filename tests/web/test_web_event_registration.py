"""Tournaments, continued: players registering themselves through the event's QR, the
director's players per table, the projector taking turns through long standings, and the
players' phones following the room."""
from __future__ import annotations

import pytest
from test_web_events import (
    EVENT_TABLES,
    PLAYERS,
    create_event,
    event_rows,
    play_table,
    seat_round,
    seatings,
)
from helpers import attrs, select, text_of
from web_helpers import Phone, count, db_rows


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def open_event(director: Phone, slug: str = "zocknroll", players=(), **fields) -> str:
    """An event whose players register themselves (the list may start empty)."""
    return create_event(director, list(players), slug=slug, registration="on", **fields)


def register(phone: Phone, event_id: str, *members: str):
    return phone.post(f"/e/{event_id}/register",
                      {f"member_{i}": m for i, m in enumerate(members)})


def leader(phone: Phone, event_id: str) -> str:
    """Who tops the standings page."""
    page = phone.get(f"/e/{event_id}/standings").get_data(as_text=True)
    return attrs(page, "[data-entrant]", "data-entrant")[0]


def names(db_path: str, event_id: str) -> list[str]:
    return [r[0] for r in db_rows(db_path, "SELECT name FROM event_entrants WHERE event_id = ?"
                                  " ORDER BY pos", [event_id])]


def test_an_empty_list_needs_registration(director, db_path):
    before = event_rows(db_path)
    r = director.post("/events/new/zocknroll", {"event_name": "Dice night", "event_rounds": "3",
                                                "entrants": ""})
    assert r.status_code == 422
    assert "at least 3 entrants" in text_of(r.get_data(as_text=True))
    assert event_rows(db_path) == before
    event_id = open_event(director)
    assert names(db_path, event_id) == []
    page = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "0 entrants · registration open" in page and "Close registration" in page


def test_players_register_and_their_phone_remembers_them(director, new_phone, db_path):
    event_id = open_event(director)
    gil = new_phone("Gil's phone")
    page = gil.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert 'id="register"' in page and "Your name" in text_of(page)
    r = register(gil, event_id, "  Gil ")
    assert r.status_code == 303 and r.headers["Location"].endswith("/players")
    assert names(db_path, event_id) == ["Gil"]
    # Back on the players' page (a reload, or scanning the QR again) the phone is Gil's.
    page = text_of(gil.get(f"/e/{event_id}/players").get_data(as_text=True))
    assert "Place 1 of 1" in page and "No table for you yet" in page
    # "Not you?" shows the list and the form again.
    page = gil.get(f"/e/{event_id}/players?pick=1").get_data(as_text=True)
    assert 'id="register"' in page and 'value="Gil"' in page
    # The director's room counts the entrants as they come.
    assert "1 entrants" in text_of(director.get(f"/e/{event_id}", hx=True).get_data(as_text=True))


@pytest.mark.parametrize("members, words", [
    (("gil",), "Gil is already on the list"),
    (("",), "Type one name"),
    (("G" * 33,), "too long"),
])
def test_bad_registrations_are_refused_and_change_nothing(director, new_phone, db_path,
                                                           members, words):
    event_id = open_event(director, players=["Gil"])
    before = event_rows(db_path)
    r = register(new_phone("someone"), event_id, *members)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page)
    assert event_rows(db_path) == before


def test_closed_registration_refuses_and_hides_the_form(director, new_phone, db_path):
    event_id = open_event(director, players=PLAYERS[:4])
    assert director.post(f"/e/{event_id}/registration", {"action": "close"}).status_code == 303
    phone = new_phone("late")
    assert 'id="register"' not in phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    before = event_rows(db_path)
    r = register(phone, event_id, "Ivy")
    assert r.status_code == 422 and "Registration is closed" in text_of(r.get_data(as_text=True))
    assert event_rows(db_path) == before
    # Only the director opens and closes it.
    assert phone.post(f"/e/{event_id}/registration", {"action": "open"}).status_code == 403
    assert director.post(f"/e/{event_id}/registration", {"action": "x"}).status_code == 400
    assert director.post(f"/e/{event_id}/registration", {"action": "open"}).status_code == 303
    assert register(phone, event_id, "Ivy").status_code == 303


def test_a_round_needs_enough_entrants(director, new_phone, db_path):
    event_id = open_event(director, players=["Ann", "Bob"])
    r = director.post(f"/e/{event_id}/seat")
    assert r.status_code == 422
    assert "at least 3 entrants; 2 are on the list" in text_of(r.get_data(as_text=True))
    assert count(db_path, "event_rounds") == 0
    assert register(new_phone("Cy"), event_id, "Cy").status_code == 303
    seat_round(director, event_id)
    assert [len(ids) for _n, _t, ids in seatings(db_path, event_id, 1)] == [3]


def test_registering_after_round_one_is_a_late_arrival(app, director, new_phone, db_path):
    event_id = open_event(director, players=PLAYERS[:4], slug="scorepad", rounds=1)
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)
    eve = new_phone("Eve")
    assert register(eve, event_id, "Eve").status_code == 303
    page = text_of(eve.get(f"/e/{event_id}/players").get_data(as_text=True))
    # Round 1 is still playing: the page says why there is no table yet.
    assert "Round 1 was seated before you joined: you play from the next round." in page
    assert "Place" in page
    play_table(app, db_path, table_id, [40, 30, 20, 10])
    page = text_of(eve.get(f"/e/{event_id}/players").get_data(as_text=True))
    assert "Place 5 of 5" in page


def test_a_team_registers_with_the_partner_box(director, new_phone, db_path):
    event_id = open_event(director, slug="rook", variant="family")
    phone = new_phone("Ann")
    page = phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert "Your partner" in text_of(page) and "Third player" in text_of(page)
    assert register(phone, event_id, "Ann", "Bob").status_code == 303
    assert names(db_path, event_id) == ["Ann & Bob"]
    # Rook teams of three exist, but every team of one event has the same size.
    r = register(new_phone("Cy"), event_id, "Cy", "Dee", "Eve")
    assert r.status_code == 422 and "same number of players: 2" in text_of(r.get_data(as_text=True))
    r = register(new_phone("Cy"), event_id, "Cy")
    assert r.status_code == 422 and "a team has 2 or 3 players" in text_of(r.get_data(as_text=True))
    r = register(new_phone("Bob"), event_id, "Cy", "bob")
    assert r.status_code == 422 and "Bob is already on the list" in text_of(r.get_data(as_text=True))
    assert names(db_path, event_id) == ["Ann & Bob"]


def test_the_director_chooses_players_per_table(director, db_path):
    ten = PLAYERS + ["Ivy", "Jo"]
    event_id = create_event(director, ten, slug="zocknroll", table_size="5")
    seat_round(director, event_id)
    assert [len(ids) for _n, _t, ids in seatings(db_path, event_id, 1)] == [5, 5]
    page = text_of(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "5 players per table" in page
    form = director.get("/events/new/zocknroll").get_data(as_text=True)
    assert select(form, 'option[value="4"][selected]')   # the game's default
    for size, words in (("7", "from 3 to 6"), ("x", "from 3 to 6")):
        before = event_rows(db_path)
        r = director.post("/events/new/zocknroll", {"event_name": "X", "event_rounds": "2",
                                                    "entrants": "\n".join(ten),
                                                    "table_size": size})
        assert r.status_code == 422 and words in text_of(r.get_data(as_text=True))
        assert event_rows(db_path) == before
    r = director.post("/events/new/rook", {"event_name": "X", "event_rounds": "2",
                                           "entrants": "Ann, Bob\nCy, Dee", "table_size": "4"})
    assert r.status_code == 422 and "can't be chosen" in text_of(r.get_data(as_text=True))


def test_the_projector_takes_turns_through_long_standings(director, new_phone):
    forty = [f"Player {i:02d}" for i in range(1, 41)]
    event_id = create_event(director, forty, slug="zocknroll")
    screen = new_phone("projector")
    # Without the screen's script (no ?rows=): every place on the one screen.
    page = screen.get(f"/e/{event_id}/projector").get_data(as_text=True)
    assert attrs(page, "[data-entrant]", "data-entrant") == forty
    assert "projector-page" not in page and "projector-of" not in page
    # ?rows=15, what the script measured fits the screen: pages of 15 take turns, and every
    # next screen's address keeps the rows.
    page = screen.get(f"/e/{event_id}/projector?rows=15").get_data(as_text=True)
    shown = attrs(page, "[data-entrant]", "data-entrant")
    assert shown == forty[:15]
    assert "places 1–15 of 40 · page 1 of 3" in text_of(page)
    assert f'hx-get="/e/{event_id}/projector?page=2&amp;rows=15"' in page
    page = screen.get(f"/e/{event_id}/projector?page=3&rows=15", hx=True).get_data(as_text=True)
    assert attrs(page, "[data-entrant]", "data-entrant") == forty[30:]
    assert f'hx-get="/e/{event_id}/projector?page=1&amp;rows=15"' in page   # back to the top
    for odd in ("99", "0", "x", "-1"):
        page = screen.get(f"/e/{event_id}/projector?page={odd}&rows=15").get_data(as_text=True)
        assert attrs(page, "[data-entrant]", "data-entrant") == forty[:15]
    # Rows out of bounds are no rows asked for: every place, no rows kept.
    for odd in ("2", "201", "x", "-5", "9" * 5000):
        page = screen.get(f"/e/{event_id}/projector?rows={odd}").get_data(as_text=True)
        assert attrs(page, "[data-entrant]", "data-entrant") == forty
        assert f'hx-get="/e/{event_id}/projector?page=1"' in page


def test_a_long_list_becomes_a_search_box(director, new_phone):
    forty = [f"Player {i:02d}" for i in range(1, 42)]
    event_id = create_event(director, forty, slug="zocknroll")
    phone = new_phone("p")
    page = phone.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert 'id="find-name"' in page and 'id="name-list"' not in page
    # Typed in any case, the name is found.
    page = text_of(phone.get(f"/e/{event_id}/players?name=player 07").get_data(as_text=True))
    assert "Player 07" in page and "Place 1 of 41" in page


def test_a_players_phone_polls_its_own_view(app, director, new_phone, db_path):
    event_id = create_event(director, PLAYERS[:4], slug="scorepad", rounds=1)
    phone = new_phone("Cy")
    page = phone.get(f"/e/{event_id}/players?name=Cy").get_data(as_text=True)
    assert 'hx-trigger="every 20s"' in page
    seat_round(director, event_id)
    fragment = phone.get(f"/e/{event_id}/players?name=Cy", hx=True).get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="mine"')
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    token = db_rows(db_path, "SELECT token FROM tables WHERE id = ?", [table_id])[0][0]
    # A public page never carries a link that seats its reader: no table token, and only
    # a phone holding Cy's pass gets the "Open table" button.
    assert token.casefold() not in fragment.casefold()
    assert "Open table 1" not in text_of(fragment)
    # The claim form is the whole page's, outside the polled view: a refresh never wipes
    # a claim code being typed.
    page = phone.get(f"/e/{event_id}/players?name=Cy").get_data(as_text=True)
    assert "This is me" in text_of(page) and "This is me" not in text_of(fragment)
    assert phone.pick(event_id, "Cy").status_code == 303
    fragment = phone.get(f"/e/{event_id}/players?name=Cy", hx=True).get_data(as_text=True)
    assert "Open table 1" in text_of(fragment) and token.casefold() not in fragment.casefold()


def test_standings_follow_every_change(app, director, new_phone, db_path):
    """Standings are cached by results: a finished table and a correction show at once."""
    event_id = create_event(director, PLAYERS[:4], slug="scorepad", rounds=2)
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)

    assert leader(director, event_id) == "Ann"                       # nobody has played: list order
    play_table(app, db_path, table_id, [10, 20, 30, 40])
    assert leader(director, event_id) == ids[3]
    r = director.post(f"/e/{event_id}/correct", {"round": "1", "table": "1", "place_0": "1",
                                                "place_1": "2", "place_2": "3", "place_3": "4",
                                                "why": "Slip misread"})
    assert r.status_code == 303
    assert leader(director, event_id) == ids[0]
    versions = db_rows(db_path, "SELECT version FROM events WHERE id = ?", [event_id])[0][0]
    assert versions == 2                        # seated, corrected
    assert set(EVENT_TABLES) <= {r[0] for r in db_rows(
        db_path, "SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_name_not_on_the_list_keeps_the_list_in_reach(director, new_phone):
    forty = [f"Player {i:02d}" for i in range(1, 42)]
    event_id = create_event(director, forty, slug="zocknroll")
    r = new_phone("p").get(f"/e/{event_id}/players?name=Playr 07")
    assert r.status_code == 404
    page = r.get_data(as_text=True)
    assert "“Playr 07” isn't on this event's list" in text_of(page)
    assert 'id="find-name"' in page       # the search box is right there to try again


def test_a_team_player_finds_their_team_by_their_own_name(director, new_phone):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee"], slug="rook", variant="family")
    bob = new_phone("Bob")
    page = text_of(bob.get(f"/e/{event_id}/players?name=bob").get_data(as_text=True))
    assert "Showing Ann & Bob" in page and "Place 1 of 2" in page
    assert bob.pick(event_id, "bob").status_code == 303
    page = text_of(bob.get(f"/e/{event_id}/players").get_data(as_text=True))
    assert "You are Bob (Ann & Bob)" in page            # Bob's own claim, in his team


def test_a_result_ended_and_followed_by_a_quick_rematch_shows_at_once(app, director,
                                                                      db_path):
    """Standings are keyed by the results themselves: a table that ends and starts a
    rematch before any page reads the standings still counts its first game."""
    from test_web_events import seat_player
    event_id = create_event(director, PLAYERS[:4], slug="scorepad", rounds=2)
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)

    assert leader(director, event_id) == "Ann"
    player = seat_player(app, db_path, table_id)
    assert player.enter(table_id, {0: 10, 1: 40, 2: 20, 3: 30}).status_code == 200
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [table_id])[0][0]
    assert player.post(f"/t/{table_id}/rematch", {"sid": "r-1", "version": str(version)},
                       hx=True).status_code == 200
    assert leader(director, event_id) == ids[1]                     # 40 points: first at the table


def test_a_player_registered_after_the_request_read_the_event_still_gets_a_view(
        director, db_path, app):
    """A registration lands between this request reading the event and its standings."""
    from companion.events import entrants, event, results
    from companion.storage import get_db
    from companion.web.events.entrants import _mine
    event_id = open_event(director, players=["Ann", "Bob", "Cy"])
    with app.test_request_context():
        db = get_db()
        stale = event.get_event(db, event_id)
        results.standings(db, stale)                       # cached without Dee
        entrants.register(db, event_id, "Dee")
        mine = _mine(stale, "Dee")
    assert mine["row"]["entrant"] == "Dee" and mine["count"] == 4
