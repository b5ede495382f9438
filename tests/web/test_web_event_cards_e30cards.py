"""Table cards for any number of tables, through the Flask test client: by default the
largest round the entrants' list can make (before round 1 too), ?tables=N for any count,
?table=N for one card printed again; a card printed for a table a later round only then
seats opens that table."""
from __future__ import annotations

import pytest
from test_web_events import create_event, seat_round, seatings
from helpers import select, text_of
from web_helpers import Phone, snapshot


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def finish_round(director, db_path, event_id: str, number: int) -> None:
    """The director enters every table's result (seat order is the place) and locks."""
    for n, _table_id, ids in seatings(db_path, event_id, number):
        places = {f"place_{i}": str(i + 1) for i in range(len(ids))}
        r = director.post(f"/e/{event_id}/correct", {"round": str(number), "table": str(n),
                                                     "why": "paper", **places})
        assert r.status_code == 303, text_of(r.get_data(as_text=True))[:600]
    assert director.post(f"/e/{event_id}/lock", {"round": str(number)}).status_code == 303


def card_numbers(page: str) -> list[int]:
    return [int(a["id"].split("-")[1]) for a in select(page, "article.table-card")]


def test_cards_before_round_one_default_to_the_largest_round_and_take_any_count(
        director, new_phone, db_path):
    players = [f"P{i:02d}" for i in range(1, 19)]             # 18 at 4: 4, 4, 4, 3, 3
    event_id = create_event(director, players=players)
    before = snapshot(db_path)
    page = director.get(f"/e/{event_id}/cards?per_page=4").get_data(as_text=True)
    assert card_numbers(page) == [1, 2, 3, 4, 5]
    assert "largest round needs 5" in text_of(select(page, "#cards-shown")[0])
    page = director.get(f"/e/{event_id}/cards?per_page=4&tables=12").get_data(as_text=True)
    assert card_numbers(page) == list(range(1, 13))
    # The count stays when the cards per page change.
    assert f"/e/{event_id}/cards?per_page=2&amp;tables=12" in page
    one = director.get(f"/e/{event_id}/cards?table=7").get_data(as_text=True)
    assert card_numbers(one) == [7] and f"/e/{event_id}/t/7" in one
    for bad in ("0", "x", "1251", "-3", "99999999"):
        for key in ("tables", "table"):
            r = director.get(f"/e/{event_id}/cards?{key}={bad}")
            assert r.status_code == 400, (key, bad)
            assert "Cards are printed for table 1 to 1250" in text_of(r.get_data(as_text=True))
    assert new_phone().get(f"/e/{event_id}/cards?tables=3").status_code == 403
    assert snapshot(db_path) == before


def test_cards_printed_for_twelve_after_round_one_cover_round_twos_tenth_table(
        director, new_phone, db_path):
    players = [f"P{i:02d}" for i in range(1, 37)]             # 36 at 4: 9 tables
    event_id = create_event(director, players=players)
    seat_round(director, event_id)
    assert len(seatings(db_path, event_id, 1)) == 9
    page = director.get(f"/e/{event_id}/cards?per_page=4&tables=12").get_data(as_text=True)
    assert card_numbers(page) == list(range(1, 13))
    finish_round(director, db_path, event_id, 1)
    for name in ("Q1", "Q2", "Q3", "Q4"):
        assert director.post(f"/e/{event_id}/entrants",
                             {"action": "add", "name": name}).status_code == 303
    # Before the late arrivals are seated the default already counts them.
    page = director.get(f"/e/{event_id}/cards").get_data(as_text=True)
    assert card_numbers(page) == list(range(1, 11))
    seat_round(director, event_id)
    tenth = seatings(db_path, event_id, 2)[9]
    assert tenth[0] == 10
    # Card 10 (printed after round 1) opens round 2's table 10; card 11 has no game yet.
    r = new_phone().get(f"/e/{event_id}/t/10")
    assert r.status_code == 303 and tenth[1] in r.headers["Location"]
    r = new_phone().get(f"/e/{event_id}/t/11")
    assert r.status_code == 404 and "Table 11 has no game" in text_of(r.get_data(as_text=True))
    # Table 10's card again, alone, with its seats this round.
    one = director.get(f"/e/{event_id}/cards?table=10").get_data(as_text=True)
    assert card_numbers(one) == [10] and all(e in one for e in tenth[2])
    assert "Round 2" in one
