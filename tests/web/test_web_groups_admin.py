"""Looking after a group's record through the web: merging two players who are the same
person (confirmed; their games, statistics and later games follow), deleting a game from
the record and deleting the whole group (confirmed, audited), removing a phone (the link
is replaced). Bad requests get a plain 4xx and change nothing."""
from __future__ import annotations

import io
import json
import re
import secrets
import sqlite3
from urllib.parse import urlsplit

import pytest

from companion import stats
from helpers import select, text_of
from web_helpers import count, db_rows, local_link

GROUP_TABLES = ("groups", "group_players", "group_phones", "group_games",
                "group_game_players", "group_audit", "group_stats", "tables")


def group_snapshot(db_path):
    conn = sqlite3.connect(db_path)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in GROUP_TABLES}
    finally:
        conn.close()


def make_group(phone, name="Friday", players="Ann\nBob\n"):
    r = phone.post("/g/new", {"name": name, "players": players})
    assert r.status_code == 303
    return urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]


def group_table(phone, group_id, names, target=50):
    data = {f"name_{i}": n for i, n in enumerate(names)}
    data.update({"me": "0", "target": str(target)})
    r = phone.post(f"/g/{group_id}/new/scorepad", data)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:300]
    return urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]


def player_id(db_path, group_id, name):
    return db_rows(db_path, "SELECT id FROM group_players WHERE group_id = ? AND name = ?",
                   [group_id, name])[0][0]


def kept_equals_rebuild(db_path, group_id):
    """The stored running total equals one built from the group's records (and each
    record's facts are those of its own summary)."""
    from companion import groups
    from companion.storage import connect
    db = connect(db_path)
    try:
        rows = db.execute("SELECT * FROM group_games WHERE group_id = ? AND deleted_at IS NULL"
                          " ORDER BY id", [group_id]).fetchall()
        by_id = {g["id"]: g for g in groups.games(db, group_id)}
        pairs = []
        for row in rows:
            facts = json.loads(row["facts"])
            assert facts == stats.facts_of_summary(row["game"], json.loads(row["summary"]))
            pairs.append((by_id[row["id"]], facts))
        stored = db.execute("SELECT stats, games FROM group_stats WHERE group_id = ?",
                            [group_id]).fetchone()
        assert (json.loads(stored[0]), stored[1]) == (stats.build(pairs), len(pairs))
    finally:
        db.close()


def last_game_seq(db_path, table_id):
    return db_rows(db_path, "SELECT MAX(seq) FROM actions WHERE table_id = ? AND kind = 'game'",
                   [table_id])[0][0]


@pytest.fixture
def evenings(new_phone, db_path):
    """Ann's group: one game at a table where Bob sat as "Bobby" (Bobby won), one at a
    table where he sat as Bob (Ann won)."""
    ann = new_phone("Ann")
    group_id = make_group(ann)
    first = group_table(ann, group_id, ["Ann", "Bobby"])
    assert ann.enter(first, {0: 10, 1: 60}).status_code == 200
    second = group_table(ann, group_id, ["Bob", "Ann"])
    assert ann.enter(second, {0: 20, 1: 70}).status_code == 200
    return group_id, ann, first, second


def test_merge_a_player_into_the_same_person(evenings, db_path):
    group_id, ann, first, _second = evenings
    bobby, bob = player_id(db_path, group_id, "Bobby"), player_id(db_path, group_id, "Bob")
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert select(page, f'li[data-player="{bobby}"] form.merge-form select[name=into]')
    # The confirm step names both and how many games move; nothing changes yet.
    before = group_snapshot(db_path)
    r = ann.get(f"/g/{group_id}/players/{bobby}/merge?into={bob}")
    assert r.status_code == 200
    confirm = text_of(r.get_data(as_text=True))
    assert "Merge Bobby into Bob?" in confirm and "1 recorded game of Bobby" in confirm
    assert group_snapshot(db_path) == before
    r = ann.post(f"/g/{group_id}/players/{bobby}/merge", {"into": str(bob)})
    assert r.status_code == 303
    games = ann.get(f"/g/{group_id}/games.json").get_json()
    assert sorted(tuple(sorted(g["players"])) for g in games) == [("Ann", "Bob")] * 2
    [won] = [g for g in games if g["table_id"] == first]
    assert won["winners"] == ["Bob"] and won["scores"] == {"Ann": 10, "Bob": 60}
    pad = ann.get(f"/g/{group_id}/stats.json").get_json()["players"]
    assert "Bobby" not in pad and pad["Bob"]["games"] == 2 and pad["Bob"]["wins"] == 1
    assert db_rows(db_path, "SELECT DISTINCT player_id FROM group_game_players WHERE"
                   " player_id = ?", [bobby]) == []
    kept_equals_rebuild(db_path, group_id)
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == ["Ann", "Bob"]
    [(old, new)] = db_rows(db_path, "SELECT old, new FROM group_audit WHERE kind = 'merge'")
    assert json.loads(old)["name"] == "Bobby" and json.loads(new) == \
        {"id": bob, "name": "Bob", "games": 1}
    # The table where he sits as "Bobby" goes on: its next game counts for Bob too, and
    # "Bobby" doesn't come back as a player.
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [first])[0][0]
    assert ann.post(f"/t/{first}/rematch", {"sid": secrets.token_urlsafe(12),
                                            "version": str(version)}, hx=True).status_code == 200
    assert ann.enter(first, {0: 5, 1: 80}).status_code == 200
    games = ann.get(f"/g/{group_id}/games.json").get_json()
    assert len(games) == 3 and all("Bobby" not in g["players"] for g in games)
    assert count(db_path, "group_players", "group_id = ? AND merged_into IS NULL",
                 [group_id]) == 2
    kept_equals_rebuild(db_path, group_id)


def test_bad_merges_are_refused_and_change_nothing(evenings, new_phone, db_path):
    group_id, ann, _first, _second = evenings
    bobby, bob = player_id(db_path, group_id, "Bobby"), player_id(db_path, group_id, "Bob")
    annid = player_id(db_path, group_id, "Ann")
    other = make_group(new_phone("Zed"), "Club", "Zed\nYan\nXi\nWu\nVi")
    before = group_snapshot(db_path)
    cases = [(bob, bob, 422, "into themself"),          # into themself
             (bobby, 5, 404, "no such player"),          # a player of another group
             (bobby, annid, 409, "same game"),           # Ann and Bobby played together
             (bobby, 0, 404, "no such player")]
    for src, into, status, words in cases:
        for r in (ann.get(f"/g/{group_id}/players/{src}/merge?into={into}"),
                  ann.post(f"/g/{group_id}/players/{src}/merge", {"into": str(into)})):
            assert r.status_code == status, (src, into)
            assert words in text_of(r.get_data(as_text=True)), words
    # A phone outside the group can't merge there, and "into" can't be another group's.
    assert ann.post(f"/g/{other}/players/1/merge", {"into": "2"}).status_code == 403
    assert group_snapshot(db_path) == before
    # Merged once; merging it again, or into it, is refused.
    assert ann.post(f"/g/{group_id}/players/{bobby}/merge", {"into": str(bob)}).status_code \
        == 303
    after = group_snapshot(db_path)
    assert ann.post(f"/g/{group_id}/players/{bobby}/merge", {"into": str(bob)}).status_code \
        == 409
    r = ann.post(f"/g/{group_id}/players/{annid}/merge", {"into": str(bobby)})
    assert r.status_code == 409 and "merge into that player instead" in text_of(
        r.get_data(as_text=True))
    assert group_snapshot(db_path) == after
    # Renaming into an existing name is still refused.
    assert ann.post(f"/g/{group_id}/players/{annid}/rename", {"name": "bob"}).status_code == 422


def test_delete_a_game_from_the_record(new_phone, db_path):
    ann = new_phone("Ann")
    group_id = make_group(ann)
    table_id = group_table(ann, group_id, ["Ann", "Bob"])
    assert ann.enter(table_id, {0: 60, 1: 20}).status_code == 200
    [game] = ann.get(f"/g/{group_id}/games.json").get_json()
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [link] = select(page, f'li[data-game="{game["id"]}"] a.game-delete')
    before = group_snapshot(db_path)
    r = ann.get(urlsplit(link.attrs["href"]).path)
    assert r.status_code == 200 and "Delete this game?" in text_of(r.get_data(as_text=True))
    assert group_snapshot(db_path) == before
    assert ann.post(f"/g/{group_id}/games/{game['id'] + 99}/delete").status_code == 404
    assert group_snapshot(db_path) == before
    assert ann.post(f"/g/{group_id}/games/{game['id']}/delete").status_code == 303
    assert ann.get(f"/g/{group_id}/games.json").get_json() == []
    assert ann.get(f"/g/{group_id}/stats.json").get_json()["games_recorded"] == 0
    kept_equals_rebuild(db_path, group_id)
    [(phone, old)] = db_rows(db_path, "SELECT phone, old FROM group_audit WHERE"
                             " kind = 'delete_game'")
    assert phone == 1 and json.loads(old)["winners"] == ["Ann"]
    # Deleted twice: 404. The table's later writes never bring it back: the finishing
    # round undone and entered again, then a second game finished.
    assert ann.post(f"/g/{group_id}/games/{game['id']}/delete").status_code == 404
    assert ann.undo(table_id, last_game_seq(db_path, table_id),
                    sid=secrets.token_urlsafe(12)).status_code == 200
    assert ann.enter(table_id, {0: 60, 1: 20}).status_code == 200
    assert ann.get(f"/g/{group_id}/games.json").get_json() == []
    kept_equals_rebuild(db_path, group_id)
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [table_id])[0][0]
    assert ann.post(f"/t/{table_id}/rematch", {"sid": secrets.token_urlsafe(12),
                                               "version": str(version)},
                    hx=True).status_code == 200
    assert ann.enter(table_id, {0: 0, 1: 55}).status_code == 200
    [again] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert again["winners"] == ["Bob"]
    kept_equals_rebuild(db_path, group_id)


def test_delete_the_group(new_phone, db_path):
    ann, eve = new_phone("Ann"), new_phone("Eve")
    group_id = make_group(ann)
    link = text_of(select(ann.get(f"/g/{group_id}").get_data(as_text=True), "#group-link")[0])
    assert eve.join(local_link(link)).status_code == 303
    table_id = group_table(ann, group_id, ["Ann", "Bob"])
    assert ann.enter(table_id, {0: 60, 1: 20}).status_code == 200
    # Only the phone that made it may delete it.
    assert not select(eve.get(f"/g/{group_id}").get_data(as_text=True), "#delete-group")
    before = group_snapshot(db_path)
    assert eve.get(f"/g/{group_id}/delete").status_code == 403
    assert eve.post(f"/g/{group_id}/delete").status_code == 403
    assert group_snapshot(db_path) == before
    r = ann.get(f"/g/{group_id}/delete")
    confirm = text_of(r.get_data(as_text=True))
    assert r.status_code == 200 and "Delete the group “Friday”?" in confirm
    assert "Its 1 recorded game" in confirm
    assert group_snapshot(db_path) == before
    r = ann.post(f"/g/{group_id}/delete")
    assert r.status_code == 303 and urlsplit(r.headers["Location"]).path == "/"
    for phone in (ann, eve):
        assert not select(phone.get("/").get_data(as_text=True), "#your-groups a")
        assert phone.get(f"/g/{group_id}").status_code == 403
    assert eve.join(local_link(link)).status_code == 404
    for t in ("group_games", "group_game_players", "group_players", "group_phones",
              "group_stats"):
        assert count(db_path, t, "group_id = ?", [group_id]) == 0, t
    [(kind, phone, new)] = db_rows(db_path, "SELECT kind, phone, new FROM group_audit WHERE"
                                   " group_id = ?", [group_id])
    assert (kind, phone) == ("delete_group", 1)
    assert json.loads(new) == {"games": 1, "records": 1, "players": 2, "phones": 2}
    assert db_rows(db_path, "SELECT name FROM groups WHERE id = ?", [group_id]) == [("",)]
    # The table plays on, recording nowhere.
    assert db_rows(db_path, "SELECT group_id FROM tables WHERE id = ?", [table_id]) == [(None,)]
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [table_id])[0][0]
    assert ann.post(f"/t/{table_id}/rematch", {"sid": secrets.token_urlsafe(12),
                                               "version": str(version)},
                    hx=True).status_code == 200
    assert ann.enter(table_id, {0: 60, 1: 0}).status_code == 200
    assert count(db_path, "group_games") == 0


def test_removing_a_phone_replaces_the_link(new_phone, db_path):
    ann, eve, cy = new_phone("Ann"), new_phone("Eve"), new_phone("Cy")
    group_id = make_group(ann)
    old = text_of(select(ann.get(f"/g/{group_id}").get_data(as_text=True), "#group-link")[0])
    assert eve.join(local_link(old)).status_code == 303
    assert cy.join(local_link(old)).status_code == 303
    assert ann.post(f"/g/{group_id}/phones/2/remove").status_code == 303
    new = text_of(select(ann.get(f"/g/{group_id}").get_data(as_text=True), "#group-link")[0])
    assert new != old and re.search(r"/g/join#\w+", new)
    # Eve's old link no longer adds her back; Cy keeps his access without a new link.
    r = eve.join(local_link(old))
    assert r.status_code == 404 and "doesn't work" in text_of(r.get_data(as_text=True))
    assert eve.get(f"/g/{group_id}").status_code == 403
    assert cy.get(f"/g/{group_id}").status_code == 200
    [(audit_new,)] = db_rows(db_path, "SELECT new FROM group_audit WHERE kind = 'remove_phone'")
    assert json.loads(audit_new) == {"new_link": True}


def test_an_event_for_the_group_records_each_entrants_games(app, new_phone, db_path):
    from test_web_events import seat_player, seat_round, seatings
    ann = new_phone("Ann")
    group_id = make_group(ann, "Club", "Ann\nBob")
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    [link] = select(page, "a#group-event")
    choose = ann.get(link.attrs["href"]).get_data(as_text=True)
    assert select(choose, f'a[href="/events/new/scorepad?group={group_id}"]')
    form = ann.get(f"/events/new/scorepad?group={group_id}").get_data(as_text=True)
    assert select(form, f'select#ev-group option[value="{group_id}"][selected]')
    data = {"event_name": "Club cup", "event_rounds": "1", "entrants": "Ann\nBob\nCy\nDee",
            "rounds": "1", "group": group_id}
    # A phone outside the group can't run an event into it.
    eve = new_phone("Eve")
    r = eve.post("/events/new/scorepad", data)
    assert r.status_code == 403 and count(db_path, "events") == 0
    assert "can't open this group" in text_of(r.get_data(as_text=True))
    r = ann.post("/events/new/scorepad", data)
    assert r.status_code == 303
    event_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    # The entrants are the group's players (new names join it), audited.
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == \
        ["Ann", "Bob", "Cy", "Dee"]
    assert count(db_path, "group_audit", "kind = 'event'") == 1
    seat_round(ann, event_id)
    [(_n, table_id, entrants)] = seatings(db_path, event_id, 1)
    assert db_rows(db_path, "SELECT group_id FROM tables WHERE id = ?", [table_id]) == \
        [(group_id,)]
    player = seat_player(app, db_path, table_id, 0)
    names = [r[0] for r in db_rows(db_path, "SELECT name FROM seats WHERE table_id = ?"
                                   " ORDER BY pos", [table_id])]
    assert player.enter(table_id, {0: 30, 1: 20, 2: 10, 3: 0}).status_code == 200
    [game] = ann.get(f"/g/{group_id}/games.json").get_json()
    assert game["players"] == names and game["winners"] == [names[0]]
    assert sorted(entrants) == ["Ann", "Bob", "Cy", "Dee"]
    kept_equals_rebuild(db_path, group_id)
    # Deleting the group: the event plays on, recording nowhere.
    assert ann.post(f"/g/{group_id}/delete").status_code == 303
    assert db_rows(db_path, "SELECT group_id FROM events WHERE id = ?", [event_id]) == [(None,)]


def test_a_team_event_for_the_group_adds_each_partner(new_phone, db_path):
    ann = new_phone("Ann")
    group_id = make_group(ann, "Club", "Ann")
    r = ann.post("/events/new/rook", {"event_name": "Rook cup", "event_rounds": "2",
                                      "entrants": "Ann, Cid\nBob, Dee", "group": group_id})
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    page = ann.get(f"/g/{group_id}").get_data(as_text=True)
    assert [text_of(s) for s in select(page, ".group-players summary")] == \
        ["Ann", "Cid", "Bob", "Dee"]


def upload(phone, group_id, data: bytes):
    return phone.post(f"/g/{group_id}/import", {"csv": (io.BytesIO(data), "games.csv")})


def test_games_csv_round_trip_to_another_server(evenings, tmp_path, db_path):
    from web_helpers import Phone, make_app
    group_id, ann, _first, _second = evenings
    # A Rook game too: teams and team scores make the trip.
    rook = ann.post(f"/g/{group_id}/new/rook", {"name_0": "Ann", "name_1": "Bob",
                                                "name_2": "Cid", "name_3": "Dee", "me": "0",
                                                "variant": "family"})
    assert rook.status_code == 303
    exported = ann.get(f"/g/{group_id}/games.csv").get_data()
    there = make_app(tmp_path / "there")
    dee = Phone(there, "Dee")
    other = make_group(dee, "Friday again", "Dee")
    assert dee.get(f"/g/{other}/import").status_code == 200
    r = upload(dee, other, exported)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:300]
    here = ann.get(f"/g/{group_id}/games.json").get_json()
    brought = dee.get(f"/g/{other}/games.json").get_json()
    strip = lambda g: {k: v for k, v in g.items() if k not in ("id", "table_id")}  # noqa: E731
    assert [strip(g) for g in brought] == [strip(g) for g in here]
    assert {g["table_id"] for g in brought} == {"csv:" + g["table_id"] for g in here}
    figures = lambda phone, gid: phone.get(f"/g/{gid}/stats.json").get_json()["players"]  # noqa
    assert figures(dee, other) == figures(ann, group_id)
    # The same file again brings nothing twice.
    r = upload(dee, other, exported)
    assert r.status_code == 303 and len(dee.get(f"/g/{other}/games.json").get_json()) == 2
    kept_equals_rebuild(there.config["DATABASE"], other)
    # Merging over a brought game works as over a played one.
    ids = {n: player_id(there.config["DATABASE"], other, n) for n in ("Bob", "Bobby")}
    assert dee.post(f"/g/{other}/players/{ids['Bobby']}/merge",
                    {"into": str(ids["Bob"])}).status_code == 303
    assert figures(dee, other)["Bob"]["games"] == 2
    kept_equals_rebuild(there.config["DATABASE"], other)


@pytest.mark.parametrize("data, status, words", [
    (b"x" * (10 * 1024 * 1024), 413, "far too much"),
    (b"name,score\r\nAnn,3\r\n", 400, "isn't a group's games.csv"),
    (b"", 400, "empty"),
    (b"\xff\xfe\x00garbage", 400, "UTF-8"),
])
def test_a_bad_csv_is_refused_and_changes_nothing(new_phone, db_path, data, status, words):
    ann = new_phone("Ann")
    group_id = make_group(ann)
    before = group_snapshot(db_path)
    r = upload(ann, group_id, data)
    assert r.status_code == status
    assert words in text_of(r.get_data(as_text=True))
    assert group_snapshot(db_path) == before


def test_a_csv_with_one_bad_row_changes_nothing(evenings, db_path):
    group_id, ann, _first, _second = evenings
    good = ann.get(f"/g/{group_id}/games.csv").get_data(as_text=True)
    other = make_group(ann, "Club", "Ann")
    before = group_snapshot(db_path)
    lines = good.split("\r\n")
    assert "Ann: 10 | Bobby: 60,Bobby," in lines[2]
    for bad in (lines[2].replace("scorepad", "chess"), lines[2].replace("Ann: 10", "Ann: lots"),
                lines[2].replace("60,Bobby,", "60,Zed,"), lines[2] + ",extra"):
        r = upload(ann, other, "\r\n".join(lines[:2] + [bad]).encode())
        assert r.status_code == 400 and "Row 3 of the file" in text_of(r.get_data(as_text=True))
        assert group_snapshot(db_path) == before
    # A phone outside the group: 403.
    assert upload(new_phone_outside(ann), other, good.encode()).status_code == 403


def new_phone_outside(phone):
    from web_helpers import Phone
    return Phone(phone.app, "Outsider")


def test_renaming_a_player_rewrites_their_records(evenings, db_path):
    """Bob (who sat as Bob at the second table) becomes Robert: that game is recorded as
    Robert's, the kept total equals a rebuild, the rename is audited with the games it
    moved, and the table still seating "Bob" records its next game as Robert's too
    ("Bob" doesn't come back as a player)."""
    group_id, ann, _first, second = evenings
    bob = player_id(db_path, group_id, "Bob")
    assert ann.post(f"/g/{group_id}/players/{bob}/rename", {"name": "Robert"}).status_code == 303
    games = ann.get(f"/g/{group_id}/games.json").get_json()
    [game] = [g for g in games if g["table_id"] == second]
    assert game["players"] == ["Robert", "Ann"] and game["scores"] == {"Robert": 20, "Ann": 70}
    pad = ann.get(f"/g/{group_id}/stats.json").get_json()["players"]
    assert "Bob" not in pad and pad["Robert"]["games"] == 1
    kept_equals_rebuild(db_path, group_id)
    [(old, new)] = db_rows(db_path, "SELECT old, new FROM group_audit WHERE kind = 'rename'")
    assert json.loads(old) == {"id": bob, "name": "Bob"}
    assert json.loads(new) == {"id": bob, "name": "Robert", "games": 1}
    version = db_rows(db_path, "SELECT version FROM tables WHERE id = ?", [second])[0][0]
    assert ann.post(f"/t/{second}/rematch", {"sid": secrets.token_urlsafe(12),
                                             "version": str(version)}, hx=True).status_code == 200
    assert ann.enter(second, {0: 80, 1: 5}).status_code == 200
    games = [g for g in ann.get(f"/g/{group_id}/games.json").get_json()
             if g["table_id"] == second]
    assert len(games) == 2 and all(g["players"] == ["Robert", "Ann"] for g in games)
    assert ann.get(f"/g/{group_id}/stats.json").get_json()["players"]["Robert"]["wins"] == 1
    assert count(db_path, "group_players", "group_id = ? AND merged_into IS NULL",
                 [group_id]) == 3        # Ann, Bobby, Robert
    kept_equals_rebuild(db_path, group_id)
    page = ann.get(f"/g/{group_id}/players/{bob}").get_data(as_text=True)
    assert len(select(page, "#played li")) == 2
