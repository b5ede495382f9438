"""Bounded growth of an event's tables: a loop of seat and unseat stops at a cap and leaves
the `tables` rows bounded; the tables of an unseated round are deleted (no phone ever
opened them) or retired (a phone did: it is told at once, and every write there is refused
in plain words); a round's tables count against a per-address quota; `companion prune`
forgets retired and left-over event tables, never those of a seating."""
from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from helpers import select, text_of
from test_web_event_scoring import event_rows
from test_web_events import create_event, seat_player, seat_round, seatings
from test_web_prune import _age_table
from web_helpers import HX, Phone, count, db_rows, make_app, snapshot

from companion import create_app
from companion.storage import connect
from companion.tables import create_table
from companion.tables.prune import prune
from companion.events.director import MAX_UNSEATS
from companion.events.event import get_event
from companion.events.seating import seat_next_round

ENTRANTS = [f"Player {i:02d}" for i in range(40)]    # 20 tables of two
TABLES = len(ENTRANTS) // 2
NOTICE = ("This table no longer counts: the director seated round 1 again. Open your table "
          "from the players' page.")
CAPPED = "Round 1 was unseated 5 times already, the most a round allows."


def _event(director: Phone, **extra) -> str:
    return create_event(director, ENTRANTS, rounds=2, table_size=2, **extra)


def _unseat(director: Phone, event_id: str, number: int = 1):
    return director.post(f"/e/{event_id}/unseat", {"round": str(number)})


def _refused(response, status: int, words: str) -> None:
    assert response.status_code == status, (response.status_code,
                                            text_of(response.get_data(as_text=True))[:800])
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page and words in text_of(page), text_of(page)[:1500]


def _everything(db_path: str) -> tuple:
    """Every row of the tables' and the event's data (for "nothing changed")."""
    return snapshot(db_path), event_rows(db_path)


# ---------------------------------------------------------------- the loop

def test_a_seat_and_unseat_loop_is_capped_and_leaves_the_tables_bounded(app, new_phone,
                                                                          db_path):
    director = new_phone("Director")
    event_id = _event(director)
    bound = TABLES + MAX_UNSEATS     # one seating, plus one retired table an unseat
    refusals = []
    for _loop in range(30):
        r = director.post(f"/e/{event_id}/seat")
        if r.status_code != 303:
            refusals.append(("seat", r))
            break
        # Each time, one player opens their table before the director takes it back: that
        # table is retired (a phone may be looking at it), the others go.
        seated = seatings(db_path, event_id, 1)
        assert len(seated) == TABLES
        seat_player(app, db_path, seated[0][1])
        before = _everything(db_path)
        r = _unseat(director, event_id)
        if r.status_code != 303:
            refusals.append(("unseat", r))
            assert _everything(db_path) == before    # refused: nothing changed
            break
        assert count(db_path, "tables") <= bound
    assert count(db_path, "event_audit", "kind = 'unseat'") == MAX_UNSEATS
    (what, response), = refusals
    assert what == "unseat"
    _refused(response, 422, CAPPED)
    # The round stays seated as it is: the next tap of "Seat" is refused too, creating nothing.
    before = _everything(db_path)
    _refused(director.post(f"/e/{event_id}/seat"), 422, "Lock round 1 before seating")
    assert _everything(db_path) == before
    assert count(db_path, "tables") == TABLES + MAX_UNSEATS == bound
    assert count(db_path, "tables", "retired_at IS NOT NULL") == MAX_UNSEATS
    assert count(db_path, "tables", "retired_at IS NULL") == TABLES
    # A table deleted leaves nothing behind; a retired one keeps its seats for its phone.
    for name in ("seats", "phones", "actions", "changes", "table_folds"):
        assert count(db_path, name, "table_id NOT IN (SELECT id FROM tables)") == 0, name
    assert count(db_path, "seats") == 2 * bound


def test_the_dashboard_and_swaps_still_work_at_the_cap(app, new_phone, db_path):
    director = new_phone("Director")
    event_id = _event(director)
    for _ in range(MAX_UNSEATS):
        seat_round(director, event_id)
        assert _unseat(director, event_id).status_code == 303
    seat_round(director, event_id)
    _refused(_unseat(director, event_id), 422, CAPPED)
    (_n1, _t1, ids1), (_n2, _t2, ids2) = seatings(db_path, event_id, 1)[:2]
    assert director.post(f"/e/{event_id}/swap", {"round": "1", "entrant_a": ids1[0],
                                                  "entrant_b": ids2[0]}).status_code == 303
    assert count(db_path, "tables") == TABLES    # no phone opened any: none retired


# ---------------------------------------------------------------- a phone at a dead table

@pytest.fixture
def dead_table(app, new_phone, db_path):
    """Round 1 seated, the entrant of table 1's seat 0 sitting there with the page open at
    version `seen`; then the director unseats round 1."""
    director = new_phone("Director")
    event_id = _event(director)
    seat_round(director, event_id)
    (_n, table_id, ids), *others = seatings(db_path, event_id, 1)
    player = seat_player(app, db_path, table_id)
    form = player.entry_form(table_id)
    seen = int(form["version"])
    changes = count(db_path, "changes", "table_id = ?", [table_id])
    assert _unseat(director, event_id).status_code == 303
    return dict(director=director, event_id=event_id, table_id=table_id, ids=ids,
                player=player, form=form, seen=seen, changes=changes,
                others=[t for _n, t, _i in others])


def test_the_unseated_round_s_tables_are_retired_or_deleted(dead_table, db_path):
    table_id = dead_table["table_id"]
    (retired_at, reason, version), = db_rows(
        db_path, "SELECT retired_at, retired_reason, version FROM tables WHERE id = ?",
        [table_id])
    assert retired_at and json.loads(reason) == {"round": 1}
    # Its version was bumped and published: every phone's live refresh learns of it.
    assert version == dead_table["seen"] + 1
    assert count(db_path, "changes", "table_id = ?", [table_id]) == dead_table["changes"] + 1
    # The round's other tables had no phone: gone, seats and all.
    others = dead_table["others"]
    marks = ", ".join("?" for _ in others)
    for name, column in (("tables", "id"), ("seats", "table_id"), ("changes", "table_id")):
        assert count(db_path, name, f"{column} IN ({marks})", others) == 0, name


def test_the_phone_sees_the_banner_at_once(dead_table):
    player, table_id = dead_table["player"], dead_table["table_id"]
    # The live refresh the stream's "changed" triggers: the banner, and no entry form.
    r = player.get(f"/t/{table_id}/play?since={dead_table['seen']}", hx=True)
    assert r.status_code == 200
    fragment = r.get_data(as_text=True)
    banner, = select(fragment, "#retired")
    assert banner.get("role") == "alert" and NOTICE in text_of(banner)
    link, = select(fragment, "#retired-players-link")
    assert link.get("href") == f"/e/{dead_table['event_id']}/players"
    assert not select(fragment, "#entry-form")
    page = player.page(table_id)
    assert NOTICE in text_of(page) and not select(page, "#entry-form")


@pytest.mark.parametrize("path, data", [
    ("actions", {"score_0": "5", "score_1": "3"}),
    ("undo", {"target": "1"}),
    ("confirm", {"target": "1"}),
    ("rematch", {}),
])
@pytest.mark.parametrize("hx", [True, False])
def test_every_write_at_a_retired_table_is_refused(dead_table, db_path, path, data, hx):
    player, table_id, form = dead_table["player"], dead_table["table_id"], dead_table["form"]
    before = snapshot(db_path)
    r = player.post(f"/t/{table_id}/{path}", {"sid": form["sid"] + path,
                                               "version": str(dead_table["seen"]), **data},
                    hx=hx)
    assert r.status_code == 410
    page = r.get_data(as_text=True)
    assert NOTICE in text_of(page)
    assert snapshot(db_path) == before


def test_the_players_page_leads_to_the_new_table(dead_table, db_path):
    director, event_id = dead_table["director"], dead_table["event_id"]
    player, old = dead_table["player"], dead_table["table_id"]
    seat_round(director, event_id)
    r = player.post(f"/e/{event_id}/my-table")
    assert r.status_code == 303
    new = r.headers["Location"].rsplit("/", 1)[-1]
    assert new != old and new in {t for _n, t, _i in seatings(db_path, event_id, 1)}
    page = player.page(new)
    assert "You are" in text_of(page) and player.name in text_of(page)
    assert not select(page, "#retired")
    r = player.enter(new, {0: 5, 1: 3}, form=player.entry_form(new, page))
    assert r.status_code == 200 and "Saved as entry #" in text_of(r.get_data(as_text=True))
    # Nobody takes a seat at the retired table any more (it belongs to no seating).
    late = Phone(player.app, "Late")
    assert late.pick(event_id, dead_table["ids"][1]).status_code == 303
    token = db_rows(db_path, "SELECT token FROM tables WHERE id = ?", [old])[0][0]
    assert late.join(f"/j#{token}").status_code == 303
    assert late.claim(old, 1).status_code == 403


# ---------------------------------------------------------------- the quota

def test_seating_counts_its_tables_against_the_address_quota(tmp_path):
    app = make_app(tmp_path, EVENT_TABLE_LIMIT=(50, 3600.0))
    db_path = app.config["DATABASE"]
    director = Phone(app, "Director")
    event_id = _event(director)
    seat_round(director, event_id)                       # 20
    assert _unseat(director, event_id).status_code == 303
    seat_round(director, event_id)                       # 40
    assert _unseat(director, event_id).status_code == 303
    before = _everything(db_path)
    r = director.post(f"/e/{event_id}/seat")             # 60 > 50
    _refused(r, 429, "Seating this round makes 20 tables, and one network may make at most "
                     "50 tournament tables in 60 minutes.")
    assert _everything(db_path) == before and count(db_path, "tables") == 0
    # The quota is the address's: the same director from another network seats the round.
    other = director.clone("Director elsewhere")
    other.client.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    seat_round(other, event_id)
    assert count(db_path, "tables") == TABLES


def test_the_shipped_quota_seats_an_honest_500_table_round(tmp_path):
    defaults = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path),
                           "DATABASE": str(tmp_path / "d.db")}).config
    assert defaults["EVENT_TABLE_LIMIT"] == (2000, 3600.0)
    app = make_app(tmp_path, EVENT_TABLE_LIMIT=defaults["EVENT_TABLE_LIMIT"])
    db_path = app.config["DATABASE"]
    director = Phone(app, "Director")
    players = [f"P{i:04d}" for i in range(1000)]
    event_id = create_event(director, players, rounds=2, table_size=2)
    seat_round(director, event_id)
    assert count(db_path, "event_seatings") == 500
    # Seated, unseated and seated again three more times within the hour: 2,000 tables.
    for _ in range(3):
        assert _unseat(director, event_id).status_code == 303
        seat_round(director, event_id)
    assert _unseat(director, event_id).status_code == 303
    _refused(director.post(f"/e/{event_id}/seat"), 429, "at most 2000 tournament tables")
    assert count(db_path, "tables") == 0


def test_a_seating_that_loses_a_race_leaves_no_tables(app, new_phone, db_path):
    director = new_phone("Director")
    event_id = _event(director)
    db = connect(db_path)
    event = get_event(db, event_id)

    def other_tap_wins(tables_needed: int) -> None:
        # Another tap seats round 1 between this seating's draw and its commit.
        assert tables_needed == TABLES
        db.execute("INSERT INTO event_rounds (event_id, round, byes, seated_at) VALUES"
                   " (?, 1, '[]', '2026-01-01T00:00:00+00:00')", [event_id])
        db.conn.commit()

    with pytest.raises(ValueError, match="was just seated from another tap"):
        seat_next_round(db, event, random.Random(1), admit=other_tap_wins)
    db.conn.close()
    assert count(db_path, "tables") == 0 and count(db_path, "seats") == 0


# ---------------------------------------------------------------- prune

def test_prune_forgets_retired_and_left_over_event_tables(app, new_phone, db_path):
    director = new_phone("Director")
    event_id = _event(director)
    seat_round(director, event_id)
    retired = seatings(db_path, event_id, 1)[0][1]
    seat_player(app, db_path, retired)
    assert _unseat(director, event_id).status_code == 303
    seat_round(director, event_id)
    current = [t for _n, t, _i in seatings(db_path, event_id, 1)]
    seat_player(app, db_path, current[0])
    db = connect(db_path)
    left_over, _none = create_table(db, "scorepad", {"rounds": 1}, ["Ann", "Bob"],
                                    event_id=event_id)
    for table_id in [retired, left_over.id, *current]:
        _age_table(db_path, table_id, 120)
    db.execute("UPDATE tables SET retired_at = ? WHERE id = ?",
               [db_rows(db_path, "SELECT created_at FROM tables WHERE id = ?", [retired])[0][0],
                retired])
    db.conn.commit()
    # Not yet old enough: nothing goes; then the retired and the left-over table go, with
    # everything they held, and the current seating's tables (however old) stay.
    assert prune(db, timedelta(days=200)) == 0
    assert prune(db, timedelta(days=90), dry_run=True) == 2
    assert prune(db, timedelta(days=90)) == 2
    db.conn.close()
    assert {r[0] for r in db_rows(db_path, "SELECT id FROM tables")} == set(current)
    for name in ("seats", "phones", "actions", "changes", "table_folds", "table_fold_pasts"):
        assert count(db_path, name, "table_id IN (?, ?)", [retired, left_over.id]) == 0, name
    assert count(db_path, "event_seatings", "event_id = ?", [event_id]) == TABLES


def test_prune_keeps_a_retired_table_someone_opened_lately(dead_table, db_path):
    table_id = dead_table["table_id"]
    _age_table(db_path, table_id, 120)
    db = connect(db_path)
    # Retired today (the unseat just now): it stays for the age given.
    assert prune(db, timedelta(days=90)) == 0
    db.execute("UPDATE tables SET retired_at = ? WHERE id = ?", ["2020-01-01T00:00:00+00:00",
                                                                   table_id])
    db.conn.commit()
    assert prune(db, timedelta(days=90)) == 1
    db.conn.close()
    assert count(db_path, "tables", "id = ?", [table_id]) == 0
    r = dead_table["player"].get(f"/t/{table_id}", headers=HX)
    assert r.status_code == 404


def test_forgetting_a_table_covers_every_table_that_refers_to_it(db_path):
    # A new table holding rows of a companion table must be listed in TABLE_ROWS, or
    # deleting a table (unseat, prune) would fail on its foreign key or leave rows behind.
    from companion.tables.retire import TABLE_ROWS

    names = [r[0] for r in db_rows(db_path, "SELECT name FROM sqlite_master WHERE type = "
                                            "'table' AND name NOT LIKE 'sqlite_%'")]
    referring = {name for name in names
                 for fk in db_rows(db_path, f"PRAGMA foreign_key_list({name})")
                 if fk[2] == "tables"}
    # event_seatings: a table of a seating is never forgotten (unseat deletes the seating
    # first; prune and a failed seating only take tables of no seating).
    assert {"seats", "phones", "actions", "table_folds", "event_seatings"} <= referring
    assert referring - {"event_seatings"} <= set(TABLE_ROWS)
    assert "changes" in TABLE_ROWS     # no foreign key, but one row per table version
