"""A full disk or a read-only database: a plain error, nothing half-written, and recovery.

The conditions are real: the instance folder (database, secret key) lives on a small
tmpfs that a filler file fills up, or that is remounted read-only (see conftest.py). The
real server (`companion serve`) and the in-process app (Flask's test client) are both
checked:

- a save refused by the storage answers 503 with a plain sentence (htmx: retargeted to
  the page's #flash box; a plain form post: the error page), never a 500;
- pages that can't be read say so in the same plain words (or still work);
- nothing is half-written: the database passes `integrity_check`, every earlier entry is
  there, the refused one is not;
- once the condition clears, the very same form (same submission id) saves exactly once,
  and the table carries on.
"""
from __future__ import annotations

import http.client
import sqlite3

import pytest
from fault_helpers import (
    Client,
    Response,
    Server,
    entry_form_of,
    game_rows,
    integrity,
    log_problems,
    new_sid,
    saved_seq,
)
from helpers import csrf_from, text_of, totals

FULL = "The server's disk is full, so nothing was saved."
READ_ONLY = "The server can't write its database right now (it is read-only), so nothing was saved."
SAFE = "; everything saved so far is safe."     # what a refused page read says instead
NAMES = ["Ann", "Bob"]


def assert_refused(r, message: str, *, hx: bool) -> None:
    """503 with the plain message: in #flash for htmx, else a whole error page."""
    assert r.status == 503, (r.status, r.plain[:600])
    assert message in r.plain, r.plain[:600]
    if hx:
        assert r.headers.get("hx-retarget") == "#flash", r.headers
        assert "<html" not in r.text
    else:
        assert "<title>503" in r.text


def assert_page_clear(r, message: str) -> None:
    """A page read during the fault either works or says plainly what is wrong (and that
    nothing saved is lost, rather than that nothing was saved)."""
    assert r.status in (200, 503), (r.status, r.plain[:600])
    if r.status == 503:
        assert message.replace(", so nothing was saved.", SAFE) in r.plain, r.plain[:600]


def seated_table(server: Server) -> tuple[Client, Client, str]:
    ann = Client(server.url, "Ann")
    table_id = ann.create_table(NAMES)
    bob = Client(server.url, "Bob")
    bob.join(ann.join_path(table_id), table_id, 1)
    return ann, bob, table_id


def enter_ok(client: Client, table_id: str, scores: dict, form: dict | None = None) -> int:
    form = form or client.entry_form(table_id)
    r = client.enter(table_id, scores, sid=form["sid"], version=int(form["version"]))
    assert r.status == 200, (r.status, r.plain[:600])
    seq = saved_seq(r.text)
    assert seq, r.plain[:600]
    return seq


def open_stream(server: Server, client: Client, table_id: str) -> None:
    """Open the table's live stream, read its first event, hang up.

    The stream starts the server's live poller, which keeps a connection to the database
    open from then on (so SQLite's -wal/-shm files stay, and reads keep working on a full
    disk)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"/t/{table_id}/stream",
                     headers={"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())})
        r = conn.getresponse()
        assert r.status == 200
        assert r.read(6) == b"retry:"
    finally:
        conn.close()
    client.version(table_id)   # one more request: the poller has run by now


def check_log(server: Server, table_id: str, acked: dict[str, dict], refused: list[str],
              client: Client) -> None:
    assert integrity(server.db_path) == "ok"
    assert log_problems(server.db_path) == []
    rows = {row[5]: row for row in game_rows(server.db_path) if row[0] == table_id}
    assert set(rows) == set(acked), (sorted(rows), sorted(acked))
    assert not set(refused) & set(rows)
    expected = dict.fromkeys(NAMES, 0)
    for sid, scores in acked.items():
        # The boxes a test didn't name were typed 0 (an empty box is never a score).
        assert rows[sid][4] == {"kind": "round", "scores": {**dict.fromkeys(NAMES, 0), **scores}}
        for name, value in scores.items():
            expected[name] += value
    assert totals(client.page(table_id)) == expected


# ---------------------------------------------------------------- the real server

def fill_and_enter_until_refused(disk, client: Client, table_id: str, pos: int,
                                 acked: dict[str, dict]) -> tuple[dict, int]:
    """Fill the disk, then enter rounds until the server refuses one (SQLite may still
    have room in files it already holds). Each saved answer carries the next form, so no
    page has to be read. Returns the refused form and the value it carried."""
    form = client.entry_form(table_id)
    disk.fill()
    for value in range(1, 501):
        r = client.enter(table_id, {pos: value}, sid=form["sid"], version=int(form["version"]))
        if r.status != 200:
            assert_refused(r, FULL, hx=True)
            return form, value
        acked[form["sid"]] = {NAMES[pos]: value}
        form = entry_form_of(r.text)
    raise AssertionError("500 rounds all fitted on a full disk")


def recover(disk, server: Server, client: Client, table_id: str, pos: int, form: dict,
            value: int, acked: dict[str, dict], refused: list[str]) -> None:
    """Free the disk: nothing was half-written, and the refused form now saves, once."""
    disk.free()
    check_log(server, table_id, acked, refused + [form["sid"]], client)
    enter_ok(client, table_id, {pos: value}, form)
    acked[form["sid"]] = {NAMES[pos]: value}
    r = client.enter(table_id, {pos: value}, sid=form["sid"], version=int(form["version"]))
    assert r.status == 200 and "That was already saved" in r.plain, r.plain[:500]
    check_log(server, table_id, acked, refused, client)


def test_full_disk_real_server(small_disk, tmp_path):
    server = Server(small_disk.path / "instance", log=tmp_path / "server.log").start()
    try:
        ann, bob, table_id = seated_table(server)
        acked: dict[str, dict] = {}
        for i in range(3):
            form = ann.entry_form(table_id)
            enter_ok(ann, table_id, {0: i + 1}, form)
            acked[form["sid"]] = {"Ann": i + 1}

        # 1. A quiet server (no phone has the live stream open). Today no connection stays
        #    open between requests, so each new one must create SQLite's -shm file, and
        #    can't: even reading fails ("disk I/O error", SQLITE_IOERR_SHMSIZE).
        form, value = fill_and_enter_until_refused(small_disk, ann, table_id, 0, acked)
        plain_sid = new_sid("plain-")
        r = ann.enter(table_id, {0: 51}, sid=plain_sid, version=int(form["version"]), hx=False)
        assert_refused(r, FULL, hx=False)
        assert_page_clear(ann.get(f"/t/{table_id}"), FULL)
        assert_page_clear(bob.get(f"/t/{table_id}/play", hx=True), FULL)
        assert_page_clear(bob.get(f"/t/{table_id}/history"), FULL)
        recover(small_disk, server, ann, table_id, 0, form, value, acked, [plain_sid])

        # 2. A phone has the live stream open: the server's live poller keeps the database
        #    open, so reads work, and a save fails once SQLite's write-ahead log must grow
        #    ("database or disk is full").
        open_stream(server, bob, table_id)
        form, value = fill_and_enter_until_refused(small_disk, bob, table_id, 1, acked)
        r = ann.get(f"/t/{table_id}")
        assert r.status == 200, r.plain[:500]
        assert totals(r.text) == {name: sum(v.get(name, 0) for v in acked.values())
                                  for name in NAMES}
        recover(small_disk, server, bob, table_id, 1, form, value, acked, [plain_sid])
        # And with a fresh form, the table simply carries on.
        form = ann.entry_form(table_id)
        enter_ok(ann, table_id, {0: 7}, form)
        acked[form["sid"]] = {"Ann": 7}
        check_log(server, table_id, acked, [plain_sid], bob)
    finally:
        server.kill()
    assert "Traceback" not in server.output(), server.output()[-3000:]


def test_read_only_database_real_server(small_disk, tmp_path):
    server = Server(small_disk.path / "instance", log=tmp_path / "server.log").start()
    try:
        ann, bob, table_id = seated_table(server)
        acked: dict[str, dict] = {}
        for i in range(3):
            form = bob.entry_form(table_id)
            enter_ok(bob, table_id, {1: i + 1}, form)
            acked[form["sid"]] = {"Bob": i + 1}
        form = ann.entry_form(table_id)

        small_disk.read_only()
        r = ann.enter(table_id, {0: 9}, sid=form["sid"], version=int(form["version"]))
        assert_refused(r, READ_ONLY, hx=True)
        plain_sid = new_sid("plain-")
        r = ann.enter(table_id, {0: 9}, sid=plain_sid, version=int(form["version"]), hx=False)
        assert_refused(r, READ_ONLY, hx=False)
        for path, hx in ((f"/t/{table_id}", False), (f"/t/{table_id}/play", True),
                         (f"/t/{table_id}/history", False),
                         (f"/t/{table_id}/play?since=0", True)):
            assert_page_clear(bob.get(path, hx=hx), READ_ONLY)
        assert ann.get("/").status == 200          # the start page needs no database

        small_disk.read_write()
        check_log(server, table_id, acked, [form["sid"], plain_sid], ann)
        enter_ok(ann, table_id, {0: 9}, form)      # the same form: saved once, now
        acked[form["sid"]] = {"Ann": 9}
        r = ann.enter(table_id, {0: 9}, sid=form["sid"], version=int(form["version"]))
        assert r.status == 200 and "That was already saved" in r.plain
        form = bob.entry_form(table_id)            # and the table carries on
        enter_ok(bob, table_id, {1: 4}, form)
        acked[form["sid"]] = {"Bob": 4}
        check_log(server, table_id, acked, [plain_sid], bob)
    finally:
        server.kill()
    assert "Traceback" not in server.output(), server.output()[-3000:]


# ---------------------------------------------------------------- in process (Flask test client)

@pytest.mark.parametrize(("text", "name", "expected"), [
    ("database or disk is full", "SQLITE_FULL", FULL),
    # A new connection can't create its -shm file on a full disk: SQLite says only
    # "disk I/O error"; the extended code names the cause.
    ("disk I/O error", "SQLITE_IOERR_SHMSIZE", FULL),
    ("attempt to write a readonly database", "SQLITE_READONLY", READ_ONLY),
    ("unable to open database file", "SQLITE_CANTOPEN", READ_ONLY),
    ("no such table: tables", "SQLITE_ERROR", None),          # a bug, not the disk
])
def test_storage_faults_get_plain_words(text, name, expected):
    """The mapping behind the 503 pages, also where no tmpfs can be mounted."""
    from companion.web.errors import storage_message

    exc = sqlite3.OperationalError(text)
    exc.sqlite_errorname = name
    message = storage_message(exc)
    assert (message is None) if expected is None else message.startswith(expected)


class InProcessPhone:
    """The in-process app through Flask's test client, answering like `Client`."""

    def __init__(self, app):
        self.client = app.test_client()
        self._csrf = None

    def request(self, method, path, data=None, hx=False):
        headers = {"HX-Request": "true"} if hx else {}
        r = self.client.open(path, method=method, data=data, headers=headers)
        return Response(r.status_code, {k.lower(): v for k, v in r.headers.items()},
                        r.get_data(as_text=True))

    def post(self, path, data, hx=False):
        if self._csrf is None:
            self._csrf = csrf_from(self.request("GET", "/").text)
        return self.request("POST", path, {**data, "csrf_token": self._csrf}, hx=hx)


def test_full_disk_and_read_only_in_process(small_disk):
    from companion import create_app

    instance = small_disk.path / "instance"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance),
                      "DATABASE": str(instance / "companion.db"), "SECRET_KEY": "test"})
    phone = InProcessPhone(app)
    r = phone.post("/new/scorepad", {"name_0": "Ann", "name_1": "Bob", "me": "0"})
    assert r.status == 303, r.plain[:500]
    table_id = r.location.rsplit("/", 1)[-1]

    def form():
        r = phone.request("GET", f"/t/{table_id}/play", hx=True)
        assert r.status == 200, r.plain[:500]
        return entry_form_of(r.text)

    def enter(f, value, hx=True):
        return phone.post(f"/t/{table_id}/actions",
                          {"sid": f["sid"], "version": f["version"], "score_0": str(value),
                           "score_1": "0"}, hx=hx)

    assert enter(form(), 1).status == 200
    for condition, message, clear in ((small_disk.read_only, READ_ONLY, small_disk.read_write),
                                      (small_disk.fill, FULL, small_disk.free)):
        f = form()
        condition()
        try:
            assert_refused(enter(f, 2), message, hx=True)
            assert_refused(enter(f, 2, hx=False), message, hx=False)
            assert_page_clear(phone.request("GET", f"/t/{table_id}"), message)
        finally:
            clear()
        r = enter(f, 2)
        assert r.status == 200 and saved_seq(r.text), text_of(r.text)[:500]
    db = instance / "companion.db"
    assert integrity(db) == "ok"
    assert [row[4]["scores"] for row in game_rows(db)] == [
        {"Ann": 1, "Bob": 0}, {"Ann": 2, "Bob": 0}, {"Ann": 2, "Bob": 0}]
