"""The game contract proved with a game the app has never heard of (docs/ADDING-A-GAME.md):
"high card" (tests/toygame: a rules module, a GameUI adapter and a template folder) is
registered at runtime, played on a table through the web layer — new-table form, entries,
a refusal with its rule, the end, history — and through a tournament round — event form,
seating, entrants' phones, lock, standings — without any file of the app knowing it."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import toygame
from helpers import attr, text_of
from test_web_events import create_event, seat_player, seat_round, seatings
from web_helpers import Phone, standings

from companion.rules import GAMES
from companion.events import event_format
from companion.web.games import ui_for


@pytest.fixture
def highcard():
    ui = toygame.register()
    yield ui
    toygame.unregister()
    assert "highcard" not in GAMES


def enter_cards(phone: Phone, table_id: str, cards: list[str]):
    """One round: the cards in seat order, saved against the version on screen."""
    version = attr(phone.page(table_id), '[name="version"]', "value")
    data = {"sid": f"hc-{version}-{'-'.join(cards)}", "version": version}
    data.update({f"card_{pos}": card for pos, card in enumerate(cards)})
    return phone.post(f"/t/{table_id}/actions", data, hx=True)


def test_high_card_is_offered_and_plays_to_its_end_on_a_table(highcard, new_phone):
    assert ui_for("highcard") is highcard
    ann = new_phone("Ann")
    assert "High card" in text_of(ann.get("/new").get_data(as_text=True))
    form = ann.get("/new/highcard").get_data(as_text=True)
    assert "Points to win" in text_of(form)                       # its house rule, HC-3
    r = ann.post("/new/highcard", {"name_0": "Ann", "name_1": "Bob", "name_2": "Cy",
                                   "me": "0", "target": "2"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    table_id = re.fullmatch(r"/t/([\w-]+)", urlsplit(r.headers["Location"]).path).group(1)
    assert "highcard-sheet" in ann.page(table_id)

    # The adapter's refusal, then the rules' refusal with its rule ID; nothing is saved.
    r = enter_cards(ann, table_id, ["A", "", "2"])
    assert r.status_code == 422 and "Type Bob's card." in text_of(r.get_data(as_text=True))
    r = enter_cards(ann, table_id, ["A", "Z", "2"])
    assert r.status_code == 422 and "A card is 2 to 10" in text_of(r.get_data(as_text=True))

    assert enter_cards(ann, table_id, ["A", "K", "2"]).status_code == 200      # Ann's point
    assert enter_cards(ann, table_id, ["Q", "Q", "2"]).status_code == 200      # tie: nobody
    assert enter_cards(ann, table_id, ["10", "J", "A"]).status_code == 200     # Cy's point
    page = ann.page(table_id)
    assert [text_of(page, f'td[data-total="{n}"]') for n in ("Ann", "Bob", "Cy")] == ["1", "0", "1"]
    assert enter_cards(ann, table_id, ["A", "3", "4"]).status_code == 200      # Ann reaches 2
    page = ann.page(table_id)
    assert text_of(page, 'td[data-total="Ann"]') == "2"
    assert attr(page, "#rematch", "id") == "rematch"                  # the game is over
    r = enter_cards(ann, table_id, ["A", "3", "4"])
    assert r.status_code == 409                                       # nothing after the end
    history = text_of(ann.get(f"/t/{table_id}/history").get_data(as_text=True))
    assert "Cards: Ann A, Bob K, Cy 2" in history


def test_high_card_runs_a_tournament_round(highcard, app, new_phone, db_path):
    # Not a team game, 2-4 players: its format follows from the rules' Game alone.
    assert event_format("highcard") == {
        "slug": "highcard", "kind": "tables", "min_table": 2, "max_table": 4,
        "preferred_table": 4, "team_sizes": None, "odd_tables": "closest"}
    director = new_phone("Director")
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    event_id = create_event(director, players, rounds=1, slug="highcard", target=1)
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    assert [len(ids) for _n, _t, ids in tables] == [4, 4]
    winners = []
    for _n, table_id, ids in tables:
        phone = seat_player(app, db_path, table_id)   # seat 0's own phone, through its pass
        r = enter_cards(phone, table_id, ["A", "K", "Q", "J"])       # seat 0 wins (target 1)
        assert r.status_code == 200, text_of(r.get_data(as_text=True))[:800]
        winners.append(ids[0])
    r = director.post(f"/e/{event_id}/lock", {"round": "1"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:800]
    rows = standings(director.get(f"/e/{event_id}/standings").get_data(as_text=True))
    assert sorted(name for name, _points in rows[:2]) == sorted(winners)
    assert {points for _name, points in rows[:2]} == {"4"}          # first place: 4 points
