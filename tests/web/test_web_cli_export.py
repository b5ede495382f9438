"""`companion export`: a table's seats and whole log as JSON, found by code or id."""
from __future__ import annotations

import json

from companion import cli

from helpers import form_block, inputs, text_of
from web_helpers import Phone, make_app, seq_saved


def test_export_writes_seats_and_actions(tmp_path, monkeypatch, capsys):
    instance = tmp_path / "instance"
    # The CLI builds its own app from $COMPANION_INSTANCE_PATH, so use the default db name.
    app = make_app(instance, DATABASE=str(instance / "companion.db"))
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob", "<Cy>"], me=0, target=100)
    bob = Phone(app, "Bob")
    bob.join(ann.join_path(table_id))
    bob.claim(table_id, 1)
    first = seq_saved(ann.enter(table_id, {0: 10, 1: 5}))
    second = seq_saved(bob.enter(table_id, {1: 7, 2: -2}))
    undo_sid = inputs(form_block(ann.page(table_id), 'class="undo"'))["sid"]
    assert ann.undo(table_id, second, sid=undo_sid).status_code == 200
    code = text_of(ann.page(table_id), "#join-code")
    assert code.isalpha() and code.isupper(), code

    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(instance))
    out = tmp_path / "export.json"
    assert cli.main(["export", code.lower(), "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["table"]["id"] == table_id and "code" not in data["table"]
    assert data["table"]["game"] == "scorepad" and data["table"]["settings"]["target"] == 100
    assert [(s["pos"], s["name"]) for s in data["seats"]] == [(0, "Ann"), (1, "Bob"), (2, "<Cy>")]
    actions = {a["seq"]: a for a in data["actions"]}
    assert actions[first]["kind"] == "game" and actions[first]["seat"] == 0
    # <Cy>'s box was typed 0 (an empty box is never a score).
    assert actions[first]["payload"] == {"kind": "round",
                                         "scores": {"Ann": 10, "Bob": 5, "<Cy>": 0}}
    assert actions[second]["seat"] == 1 and actions[second]["undone_by"] == second + 1
    assert actions[second + 1]["kind"] == "undo" and actions[second + 1]["payload"] == {"target": second}
    assert any(a["kind"] == "seat" and a["payload"].get("change") == "claim" for a in data["actions"])
    assert sorted(actions) == list(range(1, len(actions) + 1))  # the whole log
    assert data["summary"]["totals"] == {"Ann": 10, "Bob": 5, "<Cy>": 0}
    # No secrets leave the database.
    text = out.read_text(encoding="utf-8")
    token = ann.join_path(table_id).rsplit("#", 1)[1]
    assert token not in text and "secret" not in text
    assert code not in text       # the live join code would let the file's reader join
    assert ann.cookie("tc") not in text

    # By table id, to stdout.
    capsys.readouterr()
    assert cli.main(["export", table_id]) == 0
    assert json.loads(capsys.readouterr().out)["table"]["id"] == table_id

    # An unknown table: a plain message and a non-zero exit.
    assert cli.main(["export", "ZZZZZZ"]) == 2
    assert "No table has the code ZZZZZZ" in capsys.readouterr().err


def _one_table(tmp_path, monkeypatch, table_id=None):
    """An instance folder with one score pad table (optionally with a chosen id)."""
    instance = tmp_path / "instance"
    if table_id is not None:
        monkeypatch.setattr("companion.tables.tokens.new_table_id", lambda: table_id)
    app = make_app(instance, DATABASE=str(instance / "companion.db"))
    made = Phone(app, "Ann").create_table(["Ann", "Bob"])
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(instance))
    return instance, made


def test_export_never_overwrites_unless_forced(tmp_path, monkeypatch, capsys):
    _instance, table_id = _one_table(tmp_path, monkeypatch)
    out = tmp_path / "mine.json"
    out.write_text("my notes")
    assert cli.main(["export", table_id, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and len(err.strip().splitlines()) == 1
    assert out.read_text() == "my notes"
    assert cli.main(["export", table_id, "-o", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["table"]["id"] == table_id


def test_export_to_a_missing_folder_is_one_line(tmp_path, monkeypatch, capsys):
    _instance, table_id = _one_table(tmp_path, monkeypatch)
    assert cli.main(["export", table_id, "-o", str(tmp_path / "nope" / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "doesn't exist" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_export_without_a_database_creates_nothing(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "no-instance"
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(missing))
    assert cli.main(["export", "ABCDEF"]) == 2
    assert "no database" in capsys.readouterr().err
    assert not missing.exists()
    assert cli.main(["backup", str(tmp_path / "copy.db")]) == 2
    assert not missing.exists() and not (tmp_path / "copy.db").exists()


def test_export_a_table_whose_id_starts_with_a_dash(tmp_path, monkeypatch, capsys):
    _instance, table_id = _one_table(tmp_path, monkeypatch, table_id="-dash_id123")
    assert table_id == "-dash_id123"
    capsys.readouterr()
    assert cli.main(["export", table_id]) == 0
    assert json.loads(capsys.readouterr().out)["table"]["id"] == table_id
    out = tmp_path / "dash.json"
    assert cli.main(["export", "-o", str(out), table_id]) == 0
    assert json.loads(out.read_text())["table"]["id"] == table_id


def test_an_unknown_id_is_answered_as_an_id(tmp_path, monkeypatch, capsys):
    _one_table(tmp_path, monkeypatch)
    assert cli.main(["export", "nope_not-an-id"]) == 2
    err = capsys.readouterr().err
    assert "no table with the id 'nope_not-an-id'" in err and "code" not in err
