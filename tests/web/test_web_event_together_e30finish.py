"""The director's tools working together, through the Flask test client: a round robin with
check-in (no-shows left out, and kept out), fixed tables in a round robin and in a top cut
(the bracket goes by seeds, not table numbers), keep-apart groups with "pair again" and in
the cut, swaps that break a group or a fixed table (told, not refused), a team that drops
during the cut (its opponent goes on), a group's round robin recording its games, the
export of a round robin and of a cut, the dashboard's filter kept through its forms, the
room's no-show count and withdrawing an announcement."""
from __future__ import annotations

import csv
import io
import json
import zipfile
from urllib.parse import urlsplit

import pytest
from test_web_events import create_event, seat_player, seat_round, seatings
from test_web_event_cards_e30cards import finish_round
from helpers import select, text_of
from web_helpers import Phone, db_rows

TEAMS = ["Ann, Bob", "Cid, Dot", "Eve, Fay", "Gus, Hal", "Ivy, Jon", "Kim, Lou"]
EIGHT = [f"P{i}a, P{i}b" for i in range(1, 9)]      # teams "P1a & P1b" … "P8a & P8b"
P = {i: f"P{i}a & P{i}b" for i in range(1, 9)}


@pytest.fixture
def director(new_phone) -> Phone:
    return new_phone("Director")


def seated(db_path, event_id, rnd):
    return {e for _n, _t, ids in seatings(db_path, event_id, rnd) for e in ids}


def table_of(db_path, event_id, rnd, name):
    return next(n for n, _t, ids in seatings(db_path, event_id, rnd) if name in ids)


def byes(db_path, event_id, rnd):
    return json.loads(db_rows(db_path, "SELECT byes FROM event_rounds WHERE event_id = ? AND"
                              " round = ?", [event_id, rnd])[0][0])


def unzip(response) -> dict[str, str]:
    archive = zipfile.ZipFile(io.BytesIO(response.get_data()))
    return {name.split("/", 1)[1]: archive.read(name).decode("utf-8")
            for name in archive.namelist()}


def swiss_then_cut(director, db_path, *, fix: tuple[str, int] | None = None,
                   apart: str | None = None) -> tuple[str, list[str]]:
    """Six Rook teams, two Swiss rounds, a top 4 cut started; returns the event and seeds."""
    event_id = create_event(director, players=TEAMS, rounds=2, slug="rook")
    for number in (1, 2):
        seat_round(director, event_id)
        finish_round(director, db_path, event_id, number)
    standings = director.get(f"/e/{event_id}/standings").get_data(as_text=True)
    seeds = [tr.get("data-entrant") for tr in select(standings, "tr[data-entrant]")][:4]
    if fix:
        r = director.post(f"/e/{event_id}/pairing-rules",
                          {"action": "fix", "name": seeds[fix[0]], "table": str(fix[1])})
        assert r.status_code == 303
    if apart:
        r = director.post(f"/e/{event_id}/pairing-rules",
                          {"action": "apart_add", "group": apart,
                           "members": f"{seeds[0]}\n{seeds[3]}"})
        assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    assert director.post(f"/e/{event_id}/cut", {"size": "4"}).status_code == 303
    return event_id, seeds


def test_a_round_robin_with_check_in_leaves_the_no_show_out_for_good(director, db_path):
    players = [f"P{i}" for i in range(1, 7)]
    event_id = create_event(director, players=players, rounds=2, plan="round_robin")
    post = lambda data: director.post(f"/e/{event_id}/entrants", data)   # noqa: E731
    assert post({"action": "checkin_on"}).status_code == 303
    for name in players[:5]:
        assert post({"action": "checkin", "name": name}).status_code == 303
    seat_round(director, event_id)
    # Five checked in: a round robin of five (five rounds, one bye each), P6 nowhere.
    assert db_rows(db_path, "SELECT rounds FROM events WHERE id = ?", [event_id]) == [(5,)]
    assert seated(db_path, event_id, 1) | set(byes(db_path, event_id, 1)) == set(players[:5])
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    # The room counts the no-show apart from the dropped.
    assert text_of(select(dash, "#entrant-count")[0]) == "5 entrants · 1 no-show"
    row = select(dash, '#entrants li[data-entrant="P6"]')[0]
    assert "(no-show)" in text_of(row) and not select(row, "button")
    # Checked in late (or taken back): the schedule is drawn, entries are closed.
    for action in ("checkin", "return"):
        r = post({"action": action, "name": "P6"})
        assert r.status_code == 422
        assert "A round robin's entries closed when round 1 was seated: a no-show can't " \
            "join it now." in text_of(r.get_data(as_text=True))
    # Nor does anybody change places: the schedule is fixed (no swap, no pairing again).
    (_n, _t, one), (_m, _u, two) = seatings(db_path, event_id, 1)
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": one[0],
                                               "entrant_b": two[0]})
    assert r.status_code == 422
    assert director.post(f"/e/{event_id}/pair-again", {"round": "1"}).status_code == 422
    for number in range(1, 6):
        if number > 1:
            seat_round(director, event_id)
        assert "P6" not in seated(db_path, event_id, number) | set(byes(db_path, event_id,
                                                                       number))
        finish_round(director, db_path, event_id, number)
    # A plain drop is counted as dropped, not as a no-show.
    swiss = create_event(director, players=players, rounds=2)
    assert director.post(f"/e/{swiss}/entrants", {"action": "drop", "name": "P1"}
                         ).status_code == 303
    dash = director.get(f"/e/{swiss}").get_data(as_text=True)
    assert text_of(select(dash, "#entrant-count")[0]) == "5 entrants · 1 dropped"


def test_a_fixed_table_holds_in_a_round_robin_and_the_cut_keeps_its_bracket(
        director, db_path):
    players = ["Ann", "Bob", "Cy", "Dee"]
    event_id = create_event(director, players=players, rounds=1, plan="round_robin")
    r = director.post(f"/e/{event_id}/pairing-rules", {"action": "fix", "name": "Cy",
                                                       "table": "2"})
    assert r.status_code == 303
    for number in (1, 2, 3):
        seat_round(director, event_id)
        assert table_of(db_path, event_id, number, "Cy") == 2
        finish_round(director, db_path, event_id, number)
    # Top cut: seed 1 keeps table 2; the final is still the two semi-finals' winners.
    event_id, seeds = swiss_then_cut(director, db_path, fix=(0, 2))
    seat_round(director, event_id)
    semis = seatings(db_path, event_id, 3)
    assert [ids for _n, _t, ids in semis] == [[seeds[1], seeds[2]], [seeds[0], seeds[3]]]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert not select(dash, "#pairing-notes")
    finish_round(director, db_path, event_id, 3)     # the first seated wins each table
    seat_round(director, event_id)
    (_n, _t, final), = seatings(db_path, event_id, 4)
    assert sorted(final) == sorted([seeds[0], seeds[1]])


def test_keep_apart_with_pair_again_and_in_the_cut(director, db_path):
    event_id = create_event(director, players=EIGHT, rounds=2, slug="rook")
    r = director.post(f"/e/{event_id}/pairing-rules", {"action": "apart_add", "group": "Kin",
                                                       "members": "P1a, P2a"})
    assert r.status_code == 303
    seat_round(director, event_id)
    for _ in range(6):
        r = director.post(f"/e/{event_id}/pair-again", {"round": "1"})
        assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
        assert table_of(db_path, event_id, 1, P[1]) != table_of(db_path, event_id, 1, P[2])
    # The cut pairs by seed: seeds 1 and 4 of one group meet in the semi-final, and the
    # dashboard says why.
    event_id, seeds = swiss_then_cut(director, db_path, apart="Club")
    seat_round(director, event_id)
    assert seatings(db_path, event_id, 3)[0][2] == [seeds[0], seeds[3]]
    note = text_of(select(director.get(f"/e/{event_id}").get_data(as_text=True),
                          "#pairing-notes")[0])
    assert "the top cut’s bracket pairs by seed, whatever the keep-apart groups say" in note


def test_swaps_that_break_a_group_or_a_fixed_table_are_told_not_refused(director, db_path):
    event_id = create_event(director, players=EIGHT, rounds=2, slug="rook")
    rules = lambda data: director.post(f"/e/{event_id}/pairing-rules", data)  # noqa: E731
    assert rules({"action": "apart_add", "group": "Kin", "members": "P1a, P2a"}
                 ).status_code == 303
    assert rules({"action": "fix", "name": P[3], "table": "4"}).status_code == 303
    seat_round(director, event_id)
    assert table_of(db_path, event_id, 1, P[3]) == 4
    # Moving P3 off their fixed table (to a table without P1 or P2): done, and said.
    tables = {n: ids for n, _t, ids in seatings(db_path, event_id, 1)}
    other = next(e for n, ids in sorted(tables.items())
                 if not {P[1], P[2], P[3]} & set(ids) for e in ids)
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": P[3],
                                               "entrant_b": other})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    note = text_of(select(director.get(f"/e/{event_id}").get_data(as_text=True),
                          "#pairing-notes")[0])
    assert f"{P[3]} keeps table 4 but is at table" in note
    # Swapping P1's opponent with P2 brings the group together: done, and said.
    p1 = table_of(db_path, event_id, 1, P[1])
    mate = next(e for _n, _t, ids in seatings(db_path, event_id, 1) if P[1] in ids
                for e in ids if e != P[1])
    r = director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": mate,
                                               "entrant_b": P[2]})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    assert table_of(db_path, event_id, 1, P[2]) == p1
    note = text_of(select(director.get(f"/e/{event_id}").get_data(as_text=True),
                          "#pairing-notes")[0])
    assert f"{P[1]} and {P[2]} (“Kin”) meet at table {p1}" in note \
        or f"{P[2]} and {P[1]} (“Kin”) meet at table {p1}" in note


def test_a_team_that_drops_during_the_cut_lets_its_opponent_go_on(director, new_phone,
                                                                  db_path):
    event_id, seeds = swiss_then_cut(director, db_path)
    before = director.get(f"/e/{event_id}/standings.csv").get_data(as_text=True)
    # Seed 1 leaves before the semi-finals: seed 4 goes on without playing.
    r = director.post(f"/e/{event_id}/entrants", {"action": "drop", "name": seeds[0]})
    assert r.status_code == 303
    seat_round(director, event_id)
    assert [ids for _n, _t, ids in seatings(db_path, event_id, 3)] == [[seeds[1], seeds[2]]]
    assert byes(db_path, event_id, 3) == [seeds[3]]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert f"{seeds[3]} goes on: their opponent dropped" in text_of(select(dash, "#bracket")[0])
    fourth = new_phone("Fourth")
    assert fourth.pick(event_id, seeds[3].split(" & ")[0]).status_code == 303
    page = fourth.get(f"/e/{event_id}/players").get_data(as_text=True)
    assert "Your opponent dropped: you go on in the top cut without playing round 3." in \
        text_of(page)
    finish_round(director, db_path, event_id, 3)
    # Seed 2 won the semi-final but leaves before the final: seed 4 wins the event.
    assert director.post(f"/e/{event_id}/entrants", {"action": "drop", "name": seeds[1]}
                         ).status_code == 303
    seat_round(director, event_id)
    assert seatings(db_path, event_id, 4) == [] and byes(db_path, event_id, 4) == [seeds[3]]
    assert director.post(f"/e/{event_id}/lock", {"round": "4"}).status_code == 303
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert text_of(select(dash, "#event-winner")[0]) == f"Winner: {seeds[3]}"
    assert select(dash, "#event-over")
    # The knockout's byes give no points: the standings stay the Swiss rounds' (the two
    # who left are marked dropped).
    after = director.get(f"/e/{event_id}/standings.csv").get_data(as_text=True)
    def points(text):
        return sorted((r["entrant"], r["points"], r["played"], r["byes"])
                      for r in csv.DictReader(io.StringIO(text)))
    assert points(after) == points(before) and len(points(after)) == 6


def test_a_groups_round_robin_records_its_games_into_the_group(app, new_phone, db_path):
    from test_web_groups_admin import make_group
    ann = new_phone("Ann")
    group_id = make_group(ann, "Club", "Ann\nBob")
    r = ann.post("/events/new/scorepad", {"event_name": "Club RR", "event_rounds": "1",
                                          "entrants": "Ann\nBob\nCy\nDee", "rounds": "1",
                                          "group": group_id, "plan": "round_robin"})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    event_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    seat_round(ann, event_id)
    games = []
    for _n, table_id, ids in seatings(db_path, event_id, 1):
        assert len(ids) == 2
        player = seat_player(app, db_path, table_id, 0)
        assert player.enter(table_id, {0: 30, 1: 20}).status_code == 200
        games.append(set(ids))
    recorded = ann.get(f"/g/{group_id}/games.json").get_json()
    assert sorted(map(sorted, (set(g["players"]) for g in recorded))) == \
        sorted(map(sorted, games))


def test_the_export_of_a_round_robin_and_of_a_cut(director, db_path):
    event_id = create_event(director, players=TEAMS[:4], rounds=1, slug="rook",
                            plan="round_robin")
    for number in (1, 2, 3):
        seat_round(director, event_id)
        finish_round(director, db_path, event_id, number)
    files = unzip(director.get(f"/e/{event_id}/export.zip"))
    assert sorted(files) == ["index.html", "round-1.html", "round-2.html", "round-3.html"]
    assert text_of(select(files["index.html"], "#standings-caption")[0]) == "Final standings"
    teams = {li["data-team"]: text_of(li) for li in select(files["index.html"], "#teams li")}
    assert teams["Ann & Bob"].endswith(": Ann, Bob") and len(teams) == 4
    # A cut: the bracket on the standings page, its rounds named in every page's links.
    event_id, seeds = swiss_then_cut(director, db_path)
    for number in (3, 4):
        seat_round(director, event_id)
        finish_round(director, db_path, event_id, number)
    files = unzip(director.get(f"/e/{event_id}/export.zip"))
    index = files["index.html"]
    assert text_of(select(index, "#event-winner")[0]) == f"Winner: {seeds[0]}"
    assert "Semi-finals" in text_of(select(index, "#bracket")[0])
    assert [text_of(a) for a in select(index, "nav a")] == \
        ["Standings", "Round 1", "Round 2", "Semi-finals", "Final"]
    assert text_of(select(files["round-4.html"], "h2")[0]) == "Final · round 4"


def test_the_dashboard_filter_stays_through_its_forms(director, db_path):
    event_id = create_event(director, players=[f"P{i}" for i in range(1, 9)], rounds=2)
    seat_round(director, event_id)
    dash = director.get(f"/e/{event_id}?tables=open").get_data(as_text=True)
    actions = [f["action"] for f in select(dash, "form[method=post]")
               if f["action"].startswith("/e/")]
    assert f"/e/{event_id}/clock?tables=open" in actions
    assert all(a.endswith("?tables=open") for a in actions), actions
    assert select(dash, "#filter-all")[0]["href"] == f"/e/{event_id}#room"
    assert f"/e/{event_id}/standings" in [a["href"] for a in select(dash, "a")]
    r = director.post(f"/e/{event_id}/clock?tables=open", {"action": "start",
                                                           "minutes": "30"})
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).query == "tables=open"
    r = director.post(f"/e/{event_id}/entrants?tables=open", {"action": "drop",
                                                              "name": "P1"})
    assert r.headers["Location"].endswith(f"/e/{event_id}?tables=open#entrants")
    # Unfiltered, nothing changes.
    r = director.post(f"/e/{event_id}/entrants", {"action": "return", "name": "P1"})
    assert r.headers["Location"].endswith(f"/e/{event_id}#entrants")


def test_the_director_withdraws_an_announcement(app, director, db_path):
    event_id = create_event(director, players=["Ann", "Bob", "Cy", "Dee"], rounds=1)
    for text in ("Round 1 at 7", "Round 1 at 8 (not 7)"):
        assert director.post(f"/e/{event_id}/announce", {"action": "send", "text": text}
                             ).status_code == 303
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    first, second = sorted(int(b["value"]) for b in select(dash, ".news-withdraw input[name=id]"))
    r = director.post(f"/e/{event_id}/announce", {"action": "withdraw", "id": str(first)})
    assert r.status_code == 303
    news = director.get(f"/e/{event_id}/news").get_data(as_text=True)
    assert "Round 1 at 8 (not 7)" in news
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert [text_of(p) for p in select(dash, "#announce .news-text")][0].endswith(
        "Round 1 at 8 (not 7)")
    assert len(select(dash, "#announce .news-item")) == 1
    assert "Withdrew the announcement “Round 1 at 7”" in text_of(select(dash, "#audit")[0])
    r = director.post(f"/e/{event_id}/announce", {"action": "withdraw", "id": str(first)})
    assert r.status_code == 422 and "withdrawn already" in text_of(r.get_data(as_text=True))
    assert director.post(f"/e/{event_id}/announce", {"action": "withdraw", "id": "x"}
                         ).status_code == 400
    stranger = Phone(app, "Stranger")
    assert stranger.post(f"/e/{event_id}/announce", {"action": "withdraw",
                                                     "id": str(second)}).status_code == 403
    assert director.post(f"/e/{event_id}/announce", {"action": "withdraw", "id": str(second)}
                         ).status_code == 303
    assert "news-item" not in director.get(f"/e/{event_id}/news").get_data(as_text=True)
