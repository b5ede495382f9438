"""The CLI for an operator: --instance on every command (cron needs no env var), export's
argument order, backup with its secret key, and `companion doctor`."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

from pathlib import Path

import pytest

import companion
from companion import cli, translations
from web_helpers import Phone, make_app


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """An instance folder with one finished-or-not table; no COMPANION_INSTANCE_PATH set."""
    monkeypatch.delenv("COMPANION_INSTANCE_PATH", raising=False)
    monkeypatch.chdir(tmp_path)         # the default ./instance is not this folder
    folder = tmp_path / "srv" / "companion"
    app = make_app(folder, DATABASE=str(folder / "companion.db"), SECRET_KEY=None)
    table_id = Phone(app, "Ann").create_table(["Ann", "Bob"])
    return folder, table_id


@pytest.mark.parametrize("argv", [
    ["export", "{id}", "-o", "{out}", "--instance", "{inst}"],
    ["export", "-o", "{out}", "{id}", "--instance", "{inst}"],
    ["export", "--instance", "{inst}", "--output", "{out}", "{id}"],
    ["export", "--instance={inst}", "--table", "{id}", "-o", "{out}"],
    ["export", "--instance", "{inst}", "-o", "{out}", "--", "{id}"],
])
@pytest.mark.parametrize("table_id", [None, "-dash_id123"])
def test_export_takes_its_arguments_in_any_order(tmp_path, monkeypatch, argv, table_id):
    monkeypatch.delenv("COMPANION_INSTANCE_PATH", raising=False)
    folder = tmp_path / "inst"
    if table_id is not None:
        monkeypatch.setattr("companion.tables.tokens.new_table_id", lambda: table_id)
    app = make_app(folder, DATABASE=str(folder / "companion.db"))
    made = Phone(app, "Ann").create_table(["Ann", "Bob"])
    out = tmp_path / "t.json"
    words = [w.format(id=made, out=out, inst=folder) for w in argv]
    assert cli.main(words) == 0, words
    data = json.loads(out.read_text())
    assert data["table"]["id"] == made and "code" not in data["table"]
    assert "COMPANION_INSTANCE_PATH" not in os.environ     # set for the command only


def test_prune_and_backup_with_instance_and_no_env(instance, tmp_path, capsys):
    folder, _table_id = instance
    assert cli.main(["prune", "--instance", str(folder), "--older-than", "90d"]) == 0
    assert "Removed 0 tables" in capsys.readouterr().out
    assert not (tmp_path / "instance").exists()     # the default folder was never made
    # As cron runs it: a fresh process, no COMPANION_INSTANCE_PATH, another directory.
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_INSTANCE_PATH"}
    env["PYTHONPATH"] = str(Path(companion.__file__).resolve().parent.parent)
    run = subprocess.run([sys.executable, "-m", "companion.cli", "prune", "--instance",
                          str(folder), "--older-than", "90d", "--dry-run"], cwd="/",
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "Would remove 0 tables" in run.stdout, run.stderr


def test_backup_writes_the_secret_key_beside_it(instance, tmp_path, capsys):
    folder, table_id = instance
    copy = tmp_path / "backups" / "2026-11-28.db"
    copy.parent.mkdir()
    assert cli.main(["backup", "--instance", str(folder), str(copy)]) == 0
    out = capsys.readouterr().out
    key = copy.with_name("2026-11-28.db.secret_key")
    assert str(key) in out
    assert key.read_text().strip() == (folder / "secret_key").read_text().strip()
    for path in (copy, key):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    # Restore as README says: both files into a new instance folder; the same phone
    # cookie still opens its table there (the key signs nothing it can't check).
    restored = tmp_path / "restored"
    restored.mkdir(mode=0o700)
    (restored / "companion.db").write_bytes(copy.read_bytes())
    (restored / "secret_key").write_text(key.read_text())
    app = make_app(restored, DATABASE=str(restored / "companion.db"), SECRET_KEY=None)
    assert app.config["SECRET_KEY"] == key.read_text().strip()
    # A second backup to the same name is refused, key included, with one line.
    assert cli.main(["backup", "--instance", str(folder), str(copy)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and len(err.strip().splitlines()) == 1
    copy.unlink()
    assert cli.main(["backup", "--instance", str(folder), str(copy)]) == 2   # the key is there
    assert not copy.exists()


def test_doctor_reports_address_limits_proxy_files_and_migrations(instance, capsys,
                                                                   monkeypatch):
    folder, _table_id = instance
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", "1")
    monkeypatch.setenv("COMPANION_BIND", "0.0.0.0:8000")
    os.chmod(folder / "companion.db", 0o644)
    code = cli.main(["doctor", "--instance", str(folder)])
    out = capsys.readouterr().out
    assert code == 1          # things need attention
    assert "http://127.0.0.1:9  (public URL)" in out
    assert "loopback address" in out and "plain http" in out
    assert "no server answering at 127.0.0.1:9" in out
    assert "Open files:" in out and "Live phones:" in out and "kept free" in out
    assert "Trusted proxies:        1" in out and "bind it to 127.0.0.1" in out
    if not translations.missing("ja"):      # (a game added without Japanese is named)
        assert "Languages:              English, 日本語 (every game)" in out
    assert f"Instance:               {folder}" in out
    assert "companion.db:" in out and "0644  (others may read it" in out
    assert "secret_key:" in out and "Migrations:             current" in out
    assert "secret" not in out.replace("secret_key", "")     # names files, never the key


def test_doctor_sees_a_running_server(instance, capsys, monkeypatch):
    import socket

    folder, _table_id = instance
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    monkeypatch.delenv("COMPANION_PUBLIC_URL", raising=False)
    try:
        cli.main(["doctor", "--instance", str(folder), "--public-url",
                  f"http://127.0.0.1:{port}"])
    finally:
        listener.close()
    assert f"answering at 127.0.0.1:{port}" in capsys.readouterr().out


def test_doctor_names_a_game_without_japanese(instance, capsys, monkeypatch):
    """A game without a Japanese catalogue plays in English on a Japanese phone: reported,
    not a problem that needs attention."""
    from companion import translations

    folder, _table_id = instance
    monkeypatch.setattr(translations, "missing", lambda language, slugs: ["rook"])
    cli.main(["doctor", "--instance", str(folder)])
    assert "in English only: rook (no Japanese catalogue yet" in capsys.readouterr().out


def test_doctor_without_an_instance_creates_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COMPANION_INSTANCE_PATH", raising=False)
    missing = tmp_path / "nothing-here"
    assert cli.main(["doctor", "--instance", str(missing)]) == 1
    assert "no such folder yet" in capsys.readouterr().out
    assert not missing.exists()
