"""Tournaments through the Flask test client: create an event, seat rounds onto real tables,
results from the tables' own pages, corrections (audited), locking, standings, CSV, cards."""
from __future__ import annotations

import csv
import io
import json
import re
import weakref
from urllib.parse import urlsplit

import pytest
from helpers import text_of
from web_helpers import Phone, count, db_rows, snapshot, standings

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
EVENT_TABLES = ("events", "event_entrants", "event_rounds", "event_seatings", "event_results",
                "event_audit")


def event_rows(db_path: str) -> dict:
    return {t: db_rows(db_path, f"SELECT * FROM {t}") for t in EVENT_TABLES}


def create_event(director: Phone, players=PLAYERS, rounds=2, slug="scorepad", **settings) -> str:
    """Create an event (score pad: one round per table by default); returns its id."""
    data = {"event_name": "Club night", "event_rounds": str(rounds),
            "entrants": "\n".join(players)}
    if slug == "scorepad":
        settings.setdefault("rounds", 1)   # each table's score pad ends after one round
    data.update({k: str(v) for k, v in settings.items()})
    r = director.post(f"/events/new/{slug}", data)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:1500]
    match = re.fullmatch(r"/e/([\w-]+)", urlsplit(r.headers["Location"]).path)
    assert match
    return match.group(1)


def seat_round(director: Phone, event_id: str) -> None:
    r = director.post(f"/e/{event_id}/seat")
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:1500]


def seatings(db_path: str, event_id: str, rnd: int) -> list[tuple[int, str, list]]:
    rows = db_rows(db_path, "SELECT table_no, table_id, entrants FROM event_seatings WHERE "
                   "event_id = ? AND round = ? ORDER BY table_no", [event_id, rnd])
    return [(n, tid, json.loads(e)) for n, tid, e in rows]


def token_of(db_path: str, table_id: str) -> str:
    return db_rows(db_path, "SELECT token FROM tables WHERE id = ?", [table_id])[0][0]


_players: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # app -> its players' phones


def seat_player(app, db_path: str, table_id: str, pos: int = 0) -> Phone:
    """The entrant of seat `pos` picks their name on the players' page (their pass), scans
    the table's QR and sits down there: an event's seats are their entrants' only."""
    event_id, = db_rows(db_path, "SELECT event_id FROM tables WHERE id = ?", [table_id])[0]
    name, = db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? AND pos = ?",
                    [table_id, pos])[0]
    # A player keeps their phone (and its claim) from round to round: a second phone
    # claiming them would be refused.
    known = _players.setdefault(app, {})
    phone = known.get((event_id, name))
    if phone is None:
        phone = known[(event_id, name)] = Phone(app, name)
        assert phone.pick(event_id, name).status_code == 303
    assert phone.join(f"/j#{token_of(db_path, table_id)}").status_code == 303
    assert phone.claim(table_id, pos).status_code == 303
    return phone


def play_table(app, db_path: str, table_id: str, scores: list[int]) -> None:
    """The player of seat 0 sits down (see seat_player) and enters the one round of the
    score pad."""
    phone = seat_player(app, db_path, table_id)
    r = phone.enter(table_id, dict(enumerate(scores)))
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:1500]


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def test_create_event_makes_this_browser_the_director(director, new_phone, db_path):
    event_id = create_event(director)
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Club night" in page and "Seat round 1" in page
    assert count(db_path, "event_entrants", "event_id = ?", [event_id]) == 8
    stranger = new_phone("stranger")
    r = stranger.get(f"/e/{event_id}")
    assert r.status_code == 403 and 'role="alert"' in r.get_data(as_text=True)
    assert stranger.post(f"/e/{event_id}/seat").status_code == 403
    assert count(db_path, "event_rounds") == 0


def test_start_page_links_to_events(director):
    page = director.get("/").get_data(as_text=True)
    assert 'href="/events/new"' in page
    choose = director.get("/events/new").get_data(as_text=True)
    assert 'href="/events/new/zocknroll"' in choose and 'href="/events/new/rook"' in choose


@pytest.mark.parametrize("data, words", [
    ({"event_name": "", "event_rounds": "3", "entrants": "\n".join(PLAYERS)}, "name"),
    ({"event_name": "X", "event_rounds": "0", "entrants": "\n".join(PLAYERS)}, "rounds"),
    ({"event_name": "X", "event_rounds": "abc", "entrants": "\n".join(PLAYERS)}, "rounds"),
    ({"event_name": "X", "event_rounds": "3", "entrants": "Ann"}, "at least"),
    ({"event_name": "X", "event_rounds": "3", "entrants": "Ann\nBob\nann"}, "twice"),
    ({"event_name": "X", "event_rounds": "3", "entrants": "Ann\n" + "B" * 40}, "too long"),
    ({"event_name": "X", "event_rounds": "3", "entrants": "\n".join(PLAYERS), "target": "-5"}, ""),
])
def test_bad_event_forms_are_refused_and_nothing_is_stored(director, db_path, data, words):
    before = event_rows(db_path)
    r = director.post("/events/new/scorepad", data)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page)
    assert event_rows(db_path) == before
    # What was typed comes back in the form.
    assert (data["entrants"].splitlines()[0]) in page


def test_team_entrants_are_teams_of_the_right_size(director, db_path):
    r = director.post("/events/new/rook", {"event_name": "Rook cup", "event_rounds": "2",
                                           "entrants": "Ann, Bob\nCy, Dee\nEve"})
    assert r.status_code == 422 and "a team has 2 or 3 players" in text_of(r.get_data(as_text=True))
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "Eve, Fay", "Gus, Hal"],
                            slug="rook", variant="family")
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    assert len(tables) == 2
    for _n, table_id, (team_a, team_b) in tables:
        names = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? "
                                       "ORDER BY pos", [table_id])]
        # Partners sit alternately: team A in seats 0 and 2, team B in 1 and 3.
        assert [names[0], names[2]] == team_a.split(" & ")
        assert [names[1], names[3]] == team_b.split(" & ")


def test_unknown_event_and_unknown_game_are_404(director):
    assert director.get("/e/nope").status_code == 404
    assert director.get("/e/nope/standings").status_code == 404
    assert director.get("/events/new/nope").status_code == 404


def _play_round(app, db_path, event_id, rnd):
    """Every table enters scores 40, 30, 20, 10 in seat order: seat order is the place."""
    for _n, table_id, ids in seatings(db_path, event_id, rnd):
        play_table(app, db_path, table_id, [40, 30, 20, 10][:len(ids)])


def test_a_two_round_event_end_to_end(app, director, db_path):
    # Score pad tables end after one round: the event form's house rules reach every table.
    event_id = create_event(director, rounds=2)
    seat_round(director, event_id)
    tables = seatings(db_path, event_id, 1)
    assert [len(ids) for _n, _t, ids in tables] == [4, 4]
    assert sorted(e for _n, _t, ids in tables for e in ids) == sorted(PLAYERS)
    # Each companion table has the entrants as its seats, in order, with no phone seated.
    for _n, table_id, ids in tables:
        names = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? "
                                       "ORDER BY pos", [table_id])]
        assert names == ids
        assert count(db_path, "phones", "table_id = ? AND seat IS NOT NULL", [table_id]) == 0
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert dash.count('data-status="missing"') == 2 and "Lock round 1" not in dash
    # Can't seat round 2 before round 1 is locked; can't lock before every table has a result.
    before = event_rows(db_path)
    r = director.post(f"/e/{event_id}/seat")
    assert r.status_code == 422 and "Lock round 1" in text_of(r.get_data(as_text=True))
    r = director.post(f"/e/{event_id}/lock", {"round": "1"})
    assert r.status_code == 422 and "no result yet" in text_of(r.get_data(as_text=True))
    assert event_rows(db_path) == before

    _play_round(app, db_path, event_id, 1)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert dash.count('data-status="finished"') == 2 and "Lock round 1" in dash
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    seat_round(director, event_id)
    # Round 2 by standings: the four winners of places 1-2 meet at table 1.
    r1 = {e: p for _n, _t, ids in seatings(db_path, event_id, 1) for p, e in enumerate(ids)}
    top = sorted(PLAYERS, key=lambda e: r1[e])
    t2 = seatings(db_path, event_id, 2)
    assert set(t2[0][2]) == set(top[:4])
    _play_round(app, db_path, event_id, 2)
    assert director.post(f"/e/{event_id}/lock", {"round": "2"}).status_code == 303
    # Hand-computed: 4/2/1/0 by place in each round.
    points = dict.fromkeys(PLAYERS, 0)
    for rnd in (1, 2):
        for _n, _t, ids in seatings(db_path, event_id, rnd):
            for place, e in enumerate(ids):
                points[e] += (4, 2, 1, 0)[place]
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    shown = {name: float(p) for name, p in standings(page)}
    assert shown == {e: float(p) for e, p in points.items()}
    order = list(shown)
    assert [points[e] for e in order] == sorted(points.values(), reverse=True)
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "All rounds are played" in dash and "Seat round 3" not in dash
    r = director.post(f"/e/{event_id}/seat")
    assert r.status_code == 422 and "All 2 rounds" in text_of(r.get_data(as_text=True))


def test_results_are_stored_when_the_round_is_locked(app, director, db_path):
    event_id = create_event(director)
    seat_round(director, event_id)
    _play_round(app, db_path, event_id, 1)
    director.get(f"/e/{event_id}")
    # Reading the dashboard writes nothing: a result follows its sheet until the lock.
    assert count(db_path, "event_results") == 0
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    stored = db_rows(db_path, "SELECT result, source FROM event_results WHERE event_id = ?",
                     [event_id])
    assert len(stored) == 2 and all(s == "table" for _r, s in stored)
    first = json.loads(stored[0][0])
    assert first["places"] == [1, 2, 3, 4] and first["scores"] == [40, 30, 20, 10]


def test_correction_is_audited_and_changes_the_standings(app, director, db_path, new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    _play_round(app, db_path, event_id, 1)
    (_n, _t, ids), _second = seatings(db_path, event_id, 1)
    form = director.get(f"/e/{event_id}/correct?round=1&table=1").get_data(as_text=True)
    assert all(e in form for e in ids)
    # Bad corrections: no reason, a place out of range, no first place; nothing changes.
    before = event_rows(db_path)
    for data in ({"place_0": "2", "place_1": "1", "place_2": "3", "place_3": "4", "why": ""},
                 {"place_0": "9", "place_1": "1", "place_2": "3", "place_3": "4", "why": "x"},
                 {"place_0": "2", "place_1": "2", "place_2": "3", "place_3": "4", "why": "x"},
                 {"place_0": "1", "why": "x"}):
        r = director.post(f"/e/{event_id}/correct", {"round": "1", "table": "1", **data})
        assert r.status_code == 422, data
        assert 'role="alert"' in r.get_data(as_text=True)
    assert director.post(f"/e/{event_id}/correct", {"round": "1", "table": "7", "why": "x"}
                         ).status_code == 404
    assert director.post(f"/e/{event_id}/correct", {"round": "x", "table": "1"}).status_code == 400
    assert new_phone().post(f"/e/{event_id}/correct", {"round": "1", "table": "1"}
                            ).status_code == 403
    assert event_rows(db_path) == before
    # A good one: the first two swap.
    r = director.post(f"/e/{event_id}/correct",
                      {"round": "1", "table": "1", "place_0": "2", "place_1": "1",
                       "place_2": "3", "place_3": "4", "why": "Score slip misread",
                       "who": "Jo"})
    assert r.status_code == 303
    audit = db_rows(db_path, "SELECT who, why, old, new FROM event_audit WHERE event_id = ?",
                    [event_id])
    assert len(audit) == 1
    who, why, old, new = audit[0]
    assert (who, why) == ("Jo", "Score slip misread")
    assert json.loads(old)["places"] == [1, 2, 3, 4]
    assert json.loads(new)["places"] == [2, 1, 3, 4]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Score slip misread" in dash and "(corrected)" in dash
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    shown = dict(standings(page))
    assert shown[ids[1]] == "4" and shown[ids[0]] == "2"
    # A locked round takes no more corrections.
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    before = event_rows(db_path)
    r = director.post(f"/e/{event_id}/correct",
                      {"round": "1", "table": "1", "place_0": "1", "place_1": "2",
                       "place_2": "3", "place_3": "4", "why": "again"})
    assert r.status_code == 422 and "locked" in text_of(r.get_data(as_text=True))
    assert event_rows(db_path) == before


def test_director_can_enter_a_result_for_an_unfinished_table(app, director, db_path):
    event_id = create_event(director, players=PLAYERS[:4])
    seat_round(director, event_id)
    r = director.post(f"/e/{event_id}/correct",
                      {"round": "1", "table": "1", "place_0": "1", "place_1": "1",
                       "place_2": "3", "place_3": "4", "why": "Table ran out of time"})
    assert r.status_code == 303
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    rows = dict(standings(director.get(f"/e/{event_id}/standings").get_data(as_text=True)))
    # A tie for first under 4/2/1/0 shares 4 + 2.
    assert rows[ids[0]] == rows[ids[1]] == "3"


def test_csv_export_lists_every_result(app, director, db_path, new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    _play_round(app, db_path, event_id, 1)
    r = director.get(f"/e/{event_id}/results.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0][:4] == ["round", "table", "outcome", "entrant 1"]
    assert len(rows) == 3
    (_n, _t, ids), _ = seatings(db_path, event_id, 1)
    assert rows[1][:3] == ["1", "1", f"{ids[0]} won"]
    assert new_phone().get(f"/e/{event_id}/results.csv").status_code == 403


def test_table_cards_have_one_page_per_table_with_a_qr(app, director, db_path):
    event_id = create_event(director)
    # Before round 1 the cards carry no names (printed once, before the event).
    early = director.get(f"/e/{event_id}/cards").get_data(as_text=True)
    assert early.count('class="table-card"') == 2 and "Seat 1" not in early
    seat_round(director, event_id)
    page = director.get(f"/e/{event_id}/cards").get_data(as_text=True)
    assert page.count('class="table-card"') == 2
    assert page.count("<svg") >= 2 and 'class="print-cards"' in page
    for n, table_id, ids in seatings(db_path, event_id, 1):
        assert f"Table {n}" in page and all(e in page for e in ids)
        code = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table_id])[0][0]
        assert code in page


def test_projector_and_standings_are_public_and_change_nothing(app, director, db_path,
                                                               new_phone):
    event_id = create_event(director)
    seat_round(director, event_id)
    before = snapshot(db_path)
    viewer = new_phone("projector")
    page = viewer.get(f"/e/{event_id}/projector").get_data(as_text=True)
    assert 'class="projector"' in page and 'hx-trigger="every 10s"' in page
    fragment = viewer.get(f"/e/{event_id}/projector", hx=True).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="projector"')
    assert viewer.get(f"/e/{event_id}/standings").status_code == 200
    assert snapshot(db_path) == before
    # The dashboard polls its room fragment.
    room = director.get(f"/e/{event_id}", hx=True).get_data(as_text=True)
    assert room.lstrip().startswith('<section id="room"')


def test_table_games_with_odd_counts_get_mixed_table_sizes(app, director, db_path):
    event_id = create_event(director, players=PLAYERS[:7], slug="zocknroll")
    seat_round(director, event_id)
    sizes = sorted(len(ids) for _n, _t, ids in seatings(db_path, event_id, 1))
    assert sizes == [3, 4]


def test_players_see_their_table_and_standing(app, director, db_path, new_phone):
    event_id = create_event(director)
    player = new_phone("Cy's phone")
    page = player.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert all(f'name="name" value="{p}"' in page for p in PLAYERS)
    page = text_of(player.get(f"/e/{event_id}/players?name=Cy").get_data(as_text=True))
    assert "No table for you yet" in page and "Place 1 of 8" in page
    seat_round(director, event_id)
    (n, _t, ids), = [s for s in seatings(db_path, event_id, 1) if "Cy" in s[2]]
    page = text_of(player.get(f"/e/{event_id}/players?name=Cy").get_data(as_text=True))
    assert f"Table {n}" in page and all(e in page for e in ids)
    r = player.get(f"/e/{event_id}/players?name=Nobody")
    assert r.status_code == 404 and 'role="alert"' in r.get_data(as_text=True)
    # The director's dashboard and the projector carry the players' page as a QR code.
    assert "players-qr" in director.get(f"/e/{event_id}").get_data(as_text=True)
    assert "<svg" in player.get(f"/e/{event_id}/projector").get_data(as_text=True)


def _event(slug: str, **settings):
    from companion.events.event import Event
    return Event(id="x", name="x", game_slug=slug, settings=settings, options={}, rounds=1,
                 created_at="")


def test_result_from_a_team_table_reads_teams_a_and_b():
    from companion.events.rounds import result_from_summary
    summary = {"over": True, "totals": {"A": 310, "B": 520}, "winners": ["B"]}
    result = result_from_summary(_event("rook"), 2, 3, ["Ann & Cy", "Bob & Dee"], summary)
    assert result == {"round": 2, "table": 3, "entrants": ["Ann & Cy", "Bob & Dee"],
                      "scores": [310, 520], "places": [2, 1]}


def test_result_from_a_table_game_follows_the_winners_direction():
    from companion.events.rounds import result_from_summary
    # Lowest total wins (golf): the winner has the lowest score, the others follow upward.
    low = {"over": True, "totals": {"Ann": 30, "Bob": 12, "Cy": 30, "Dee": 50},
           "winners": ["Bob"]}
    assert result_from_summary(_event("scorepad", low_wins=True), 1, 1,
                               ["Ann", "Bob", "Cy", "Dee"], low)["places"] == [2, 1, 2, 4]
    # The winners come first even on a lower total (Rook: the bidders went out on 600
    # while the others had 650); the scores stay each one's own.
    out = {"over": True, "totals": {"A": 600, "B": 650}, "winners": ["A"]}
    result = result_from_summary(_event("rook"), 1, 1, ["Ann & Cy", "Bob & Dee"], out)
    assert result["places"] == [1, 2] and result["scores"] == [600, 650]
    high = {"over": True, "totals": {"Ann": 30, "Bob": 12, "Cy": 30}, "winners": ["Ann", "Cy"]}
    assert result_from_summary(_event("zocknroll"), 1, 1, ["Ann", "Bob", "Cy"],
                               high)["places"] == [1, 3, 1]


def test_late_arrivals_and_drops_apply_from_the_next_round(app, director, db_path, new_phone):
    event_id = create_event(director, players=PLAYERS[:4], rounds=3)
    seat_round(director, event_id)
    (_n, _t, ids), = seatings(db_path, event_id, 1)
    assert director.post(f"/e/{event_id}/correct",
                         {"round": "1", "table": "1", "place_0": "1", "place_1": "2",
                          "place_2": "3", "place_3": "4", "why": "slip"}).status_code == 303
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    # Refused: a name already listed, an empty line, an unknown entrant, an unknown action.
    before = event_rows(db_path)
    for data, status in (({"action": "add", "name": "ann"}, 422),
                         ({"action": "add", "name": ""}, 422),
                         ({"action": "drop", "name": "Nobody"}, 404),
                         ({"action": "explode", "name": "Ann"}, 400)):
        r = director.post(f"/e/{event_id}/entrants", data)
        assert r.status_code == status, data
        assert 'role="alert"' in r.get_data(as_text=True)
    assert new_phone().post(f"/e/{event_id}/entrants",
                            {"action": "add", "name": "Zed"}).status_code == 403
    assert event_rows(db_path) == before
    for data in ({"action": "add", "name": "Eve"}, {"action": "add", "name": "Fay"},
                 {"action": "drop", "name": ids[3]}):
        assert director.post(f"/e/{event_id}/entrants", data).status_code == 303
    seat_round(director, event_id)
    seated = sorted(e for _n, _t, t_ids in seatings(db_path, event_id, 2) for e in t_ids)
    assert seated == sorted([ids[0], ids[1], ids[2], "Eve", "Fay"])
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    shown = dict(standings(page))
    # The dropped entrant keeps a row; the late ones start at 0.
    assert shown[ids[3]] == "0" and shown["Eve"] == "0" and shown[ids[0]] == "4"
    assert director.post(f"/e/{event_id}/entrants",
                         {"action": "return", "name": ids[3]}).status_code == 303
    assert count(db_path, "event_entrants", "event_id = ? AND dropped = 1", [event_id]) == 0


def test_a_table_nobody_has_joined_shows_as_missing(app, director, db_path):
    event_id = create_event(director, players=PLAYERS[:4])
    seat_round(director, event_id)
    assert 'data-status="missing"' in director.get(f"/e/{event_id}").get_data(as_text=True)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    seat_player(app, db_path, table_id)
    assert 'data-status="playing"' in director.get(f"/e/{event_id}").get_data(as_text=True)


def test_game_score_tiebreak_is_each_entrants_own_score_never_negated():
    from companion.events.results import game_scores
    # Round 1: the winner holds the lower score (a correction, or Rook's bidders going
    # out); the scores still count as they are.
    results = [{"round": 1, "table": 1, "entrants": ["Ann", "Bob"], "scores": [600, 650],
                "places": [1, 2]},
               {"round": 2, "table": 1, "entrants": ["Ann", "Bob"], "scores": [50, 20],
                "places": [1, 2]},
               {"round": 2, "table": None, "entrants": ["Cy"], "bye": True}]
    assert game_scores(results) == {"Ann": 650, "Bob": 670}


def test_team_event_with_a_bye_and_a_hand_waiting_for_confirmation(app, director, db_path):
    event_id = create_event(director, ["Ann, Bob", "Cy, Dee", "Eve, Fay"], slug="rook",
                            variant="family", confirm="on")
    seat_round(director, event_id)
    (_n, table_id, _ids), = seatings(db_path, event_id, 1)
    byes = json.loads(db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ?",
                              [event_id])[0][0])
    assert len(byes) == 1
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert f"Sitting out (bye): {byes[0]}" in text_of(dash)
    # Every table of the event has the "other team confirms" option the director chose.
    options = json.loads(db_rows(db_path, "SELECT options FROM tables WHERE id = ?",
                                 [table_id])[0][0])
    assert options["confirm"] is True
    seat0 = db_rows(db_path, "SELECT name FROM seats WHERE table_id = ? AND pos = 0",
                    [table_id])[0][0]
    player = seat_player(app, db_path, table_id)
    form = player.entry_form(table_id)
    r = player.post(f"/t/{table_id}/actions", {"sid": form["sid"], "version": form["version"],
                                               "bidder": seat0, "bid": "150",
                                               "points_A": "120"}, hx=True)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert 'data-status="waiting"' in dash and "Waiting for confirmation" in dash
    # The bye scores a win (2 points) in the standings.
    page = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    shown = dict(standings(page))
    assert shown[byes[0]] == "2"


def test_a_rematch_before_the_director_looks_keeps_the_first_game(app, director, db_path):
    event_id = create_event(director, players=PLAYERS[:4])
    seat_round(director, event_id)
    (_n, table_id, ids), = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, table_id)
    assert player.enter(table_id, {0: 10, 1: 40, 2: 20, 3: 30}).status_code == 200
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [table_id])[0][0]
    r = player.post(f"/t/{table_id}/rematch", {"sid": "rematch-1", "version": str(version)},
                    hx=True)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:500]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert 'data-status="finished"' in dash
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    (result,) = db_rows(db_path, "SELECT result FROM event_results WHERE event_id = ?",
                        [event_id])
    assert json.loads(result[0])["places"] == [4, 1, 3, 2]
