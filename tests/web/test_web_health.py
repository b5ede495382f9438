"""`GET /healthz`, private files, and writing again after the database was read-only.

The read-only condition is a real one: the database file (and SQLite's -wal/-shm) is made
0444 with chmod. The suite runs as root here, and root ignores file modes, so that part
runs in a subprocess that drops to the `nobody` user after loading everything it needs
(the interpreter lives under /root, which `nobody` can't read); as an ordinary user it
runs as that user.
"""
from __future__ import annotations

import html
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import create_app
from web_helpers import Phone, make_app

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent.parent
READ_ONLY = "The server can't write its database right now (it is read-only), so nothing was saved."


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_healthz_ok_is_json_without_cookies_or_secrets(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    for _ in range(50):      # never rate limited (the join limit would stop this at 20)
        r = client.get("/healthz")
        assert r.status_code == 200
    assert r.get_json() == {"ok": True, "database": "writable", "migrations": "current"}
    assert r.mimetype == "application/json"
    assert "Set-Cookie" not in r.headers
    assert r.headers["Cache-Control"] == "no-store"
    text = r.get_data(as_text=True)
    assert str(tmp_path) not in text and "test" not in text


def test_healthz_says_when_a_migration_is_pending(tmp_path):
    app = make_app(tmp_path)
    import sqlite3
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm013_corrections_after_lock'")
    conn.commit()
    conn.close()
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    body = r.get_json()
    assert body["ok"] is False and body["migrations"] == "pending"
    assert body["database"] == "writable"
    assert body["reason"] == "1 database migration(s) not applied; restart the server."


def test_healthz_when_another_process_holds_the_write_lock(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.health.HEALTH_LOCK_WAIT_MS", 200)
    app = make_app(tmp_path)
    import sqlite3
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        r = app.test_client().get("/healthz")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert r.status_code == 503
    assert r.get_json()["database"] == "busy"
    assert app.test_client().get("/healthz").status_code == 200


def test_files_the_app_creates_are_private(tmp_path):
    instance = tmp_path / "instance"
    old = os.umask(0o022)      # the usual umask, which would make files 0644
    try:
        app = create_app({"INSTANCE_PATH": str(instance), "TESTING": True})
        Phone(app, "Ann").create_table(["Ann", "Bob"])
    finally:
        os.umask(old)
    assert mode(instance) == 0o700
    for name in ("companion.db", "secret_key", "companion.db.migrate-lock"):
        assert mode(instance / name) == 0o600, name


def test_an_old_world_readable_database_and_key_are_made_private(tmp_path):
    instance = tmp_path / "instance"
    create_app({"INSTANCE_PATH": str(instance), "TESTING": True})
    for name in ("companion.db", "secret_key"):
        os.chmod(instance / name, 0o644)
    create_app({"INSTANCE_PATH": str(instance), "TESTING": True})
    for name in ("companion.db", "secret_key"):
        assert mode(instance / name) == 0o600, name


# The read-only round trip, run by `nobody` (see the module's docstring). `busy` runs the
# live poller, so a connection holds the database open throughout (a server with phones
# connected), and request connections are kept between requests.
SCRIPT = textwrap.dedent("""
    import json, os, sys, tempfile
    from pathlib import Path
    sys.path[:0] = [sys.argv[1], sys.argv[2], sys.argv[3]]
    from web_helpers import Phone, make_app, seq_saved
    from companion.tables.live import hub

    def warm():
        # Import and draw everything once while still root.
        app = make_app(Path(tempfile.mkdtemp()))
        p = Phone(app)
        t = p.create_table(["A", "B"])
        seq_saved(p.enter(t, {0: 1, 1: 1}))
        p.client.get("/healthz")

    warm()
    folder = Path(tempfile.mkdtemp())
    if os.geteuid() == 0:
        os.chown(folder, 65534, 65534)
        os.setgid(65534)
        os.setuid(65534)
    app = make_app(folder)
    if sys.argv[4] == "busy":
        hub.ensure_poller(app.config["DATABASE"], 0.02)
    ann = Phone(app, "Ann")
    table = ann.create_table(["Ann", "Bob"])
    out = {"first": seq_saved(ann.enter(table, {0: 5, 1: 3}))}
    db = Path(app.config["DATABASE"])
    files = [db] + [Path(f"{db}{s}") for s in ("-wal", "-shm")]
    form = ann.entry_form(table)
    for f in files:
        if f.exists():
            os.chmod(f, 0o444)
    if sys.argv[4] == "busy":
        # Files already open stay writable after a chmod: reopen the process's
        # connections (the poller's, the idle ones) while the files are read-only, as a
        # worker does that starts or reconnects then.
        from companion.storage.db import pool
        import time
        pool.drop_idle(str(db))
        hub.reconnect()
        time.sleep(0.3)
    r = ann.client.post(f"/t/{table}/actions", data={**form, "score_0": "7", "score_1": "1"},
                        headers={"HX-Request": "true"})
    out["refused"] = [r.status_code, r.get_data(as_text=True)]
    out["health_ro"] = [ann.client.get("/healthz").status_code]
    ann.client.get(f"/t/{table}")     # a page read meanwhile may make SQLite's files
    out["modes_ro"] = {f.name[len(db.name):] or "db": oct(f.stat().st_mode & 0o777)
                       for f in files if f.exists()}
    os.chmod(db, 0o600)
    import time
    time.sleep(0.2)      # a person fixing the storage; a poller notices within its interval
    h = ann.client.get("/healthz")
    out["health_rw"] = [h.status_code, h.get_json()]
    r = ann.client.post(f"/t/{table}/actions", data={**form, "score_0": "7", "score_1": "1"},
                        headers={"HX-Request": "true"})
    out["again"] = [r.status_code, r.get_data(as_text=True)]
    out["modes_rw"] = {f.name[len(db.name):] or "db": oct(f.stat().st_mode & 0o777)
                       for f in files if f.exists()}
    out["uid"] = os.geteuid()
    print("RESULT " + json.dumps(out))
""")


@pytest.mark.parametrize("held", ["quiet", "busy"])
def test_writes_work_again_after_the_database_was_read_only(held):
    """chmod 0444 (database, -wal, -shm): a save gets the plain 503; chmod 0600 on the
    database alone: the next save (the same form) works, and /healthz says so."""
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(REPO), str(TESTS.parent),
                          str(TESTS), held], capture_output=True, text=True, timeout=120)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert run.returncode == 0 and lines, run.stdout[-3000:] + run.stderr[-3000:]
    out = json.loads(lines[0][len("RESULT "):])
    assert out["uid"] != 0, "the round trip must run as a user that file modes apply to"
    status, page = out["refused"]
    assert status == 503 and READ_ONLY in html.unescape(page), page[:600]
    assert out["health_ro"] == [503]
    assert out["modes_ro"]["db"] == "0o444"
    assert out["health_rw"] == [200, {"ok": True, "database": "writable", "migrations": "current"}]
    status, page = out["again"]
    assert status == 200, page[:600]
    assert "Saved as entry #" in page
    # SQLite made its files with the read-only mode meanwhile; they got the database's.
    assert set(out["modes_rw"].values()) == {"0o600"}, out["modes_rw"]
