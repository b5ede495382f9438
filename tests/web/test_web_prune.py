"""`companion prune --older-than 90d`: finished tables nobody has opened for
that long go, with their seats, phones and log; playing tables, recently opened ones and
an event's tables stay."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from web_helpers import Phone, count, db_rows, make_app

from companion import cli
from companion.storage import connect
from companion.tables.prune import parse_age, prune, stale_tables


def _ago(days: float) -> str:
    return (datetime.now(timezone.utc) - timedelta(days=days)).isoformat(timespec="milliseconds")


def _age_table(db_path: str, table_id: str, days: float) -> None:
    """Make everything about a table `days` old (created, opened, its log and phones)."""
    db = connect(db_path)
    with db.conn:
        db.execute("UPDATE tables SET created_at = ?, opened_at = ? WHERE id = ?",
                   [_ago(days), _ago(days), table_id])
        db.execute("UPDATE actions SET created_at = ? WHERE table_id = ?", [_ago(days), table_id])
        db.execute("UPDATE phones SET seen_at = ?, created_at = ? WHERE table_id = ?",
                   [_ago(days), _ago(days), table_id])
    db.conn.close()


@pytest.fixture
def setup(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "companion.db"))
    db_path = str(instance / "companion.db")
    ann = Phone(app, "Ann")
    made = {}
    for name in ("old_over", "old_playing", "new_over", "old_over_opened"):
        table_id = ann.create_table(["Ann", "Bob"], rounds=1)
        if "over" in name:
            assert ann.enter(table_id, {0: 5, 1: 3}).status_code == 200
        made[name] = table_id
    for name in ("old_over", "old_playing", "old_over_opened"):
        _age_table(db_path, made[name], 120)
    ann.page(made["old_over_opened"])          # opened today: stays
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(instance))
    return db_path, made


def test_only_finished_tables_nobody_opened_go(setup):
    db_path, made = setup
    db = connect(db_path)
    assert stale_tables(db, timedelta(days=90)) == [made["old_over"]]
    assert prune(db, timedelta(days=90)) == 1
    db.conn.close()
    remaining = {r[0] for r in db_rows(db_path, "SELECT id FROM tables")}
    assert remaining == {made["old_playing"], made["new_over"], made["old_over_opened"]}
    for table in ("seats", "phones", "actions", "changes"):
        assert count(db_path, table, "table_id = ?", [made["old_over"]]) == 0
    assert count(db_path, "actions", "table_id = ?", [made["new_over"]]) > 0


def test_the_command_counts_then_prunes(setup, capsys):
    db_path, made = setup
    assert cli.main(["prune", "--older-than", "90d", "--dry-run"]) == 0
    assert "Would remove 1 table nobody has opened for 90d" in capsys.readouterr().out
    assert count(db_path, "tables") == 4
    assert cli.main(["prune", "--older-than", "90d"]) == 0
    assert "Removed 1 table nobody has opened for 90d" in capsys.readouterr().out
    assert count(db_path, "tables") == 3
    assert cli.main(["prune", "--older-than", "200d"]) == 0
    assert "Removed 0 tables nobody has opened" in capsys.readouterr().out


def test_an_event_keeps_its_tables_and_results(tmp_path, monkeypatch):
    from test_web_events import create_event, play_table, seat_round, seatings

    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "companion.db"))
    db_path = str(instance / "companion.db")
    director = Phone(app, "Director")
    event_id = create_event(director, rounds=1)
    seat_round(director, event_id)
    for _n, table_id, _ids in seatings(db_path, event_id, 1):
        play_table(app, db_path, table_id, [40, 30, 20, 10])
        _age_table(db_path, table_id, 400)
    assert director.post(f"/e/{event_id}/lock", {"round": "1"}).status_code == 303
    before = db_rows(db_path, "SELECT * FROM event_results ORDER BY table_no")
    db = connect(db_path)
    assert prune(db, timedelta(days=90)) == 0
    db.conn.close()
    assert db_rows(db_path, "SELECT * FROM event_results ORDER BY table_no") == before
    assert count(db_path, "tables") == 2


@pytest.mark.parametrize("text, days", [("90d", 90), ("12w", 84), ("36h", 1.5), (" 7D ", 7)])
def test_ages(text, days):
    assert parse_age(text) == timedelta(days=days)


@pytest.mark.parametrize("text", ["", "90", "d", "-5d", "0d", "5y", "1e9d", "90 d"])
def test_bad_ages_are_refused_in_plain_words(text, capsys, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="like 90d"):
        parse_age(text)
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path / "none"))
    assert cli.main(["prune", f"--older-than={text}"]) == 2
    assert "like 90d" in capsys.readouterr().err
