"""The README's gunicorn command, for real: `gunicorn -c python:companion.gunicorn_conf ...`.

A gunicorn subprocess on a free port of 127.0.0.1, on an instance folder whose table was
made in-process (the same database and secret key): it logs every request to stdout
without tokens (text or JSON lines), stops within a few seconds of SIGTERM with phones
holding live streams, and answers a request body that stalls with a 408 after
BODY_TIMEOUT while it goes on answering others.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

import companion
from helpers import free_port
from web_helpers import Phone, make_app

#: Where the `companion` under test comes from (the checkout, or the installed wheel in CI).
PACKAGE_ROOT = str(Path(companion.__file__).resolve().parent.parent)
START_TIMEOUT = 30.0
BODY_TIMEOUT = 2


@dataclass
class Gunicorn:
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def start_gunicorn(instance: Path, **env: str) -> Gunicorn:
    port = free_port()
    log = instance / f"gunicorn-{port}.log"
    environ = {**os.environ, "COMPANION_INSTANCE_PATH": str(instance),
               "COMPANION_BIND": f"127.0.0.1:{port}", "PYTHONPATH": PACKAGE_ROOT,
               "PYTHONUNBUFFERED": "1", **env}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:companion.gunicorn_conf",
             "companion:create_app()"], cwd=instance, env=environ, stdout=out,
            stderr=subprocess.STDOUT)
    server = Gunicorn(process, port, log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{server.output()}")
        try:
            with urllib.request.urlopen(server.url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT:.0f} s:\n"
                               f"{server.output()}")
        time.sleep(0.2)


@pytest.fixture
def instance(tmp_path):
    """An instance folder with one table, and the `tc` cookie of its host's phone."""
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "config.py").write_text(f"BODY_TIMEOUT = {BODY_TIMEOUT}\n")
    app = make_app(folder, DATABASE=str(folder / "companion.db"), SECRET_KEY=None)
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"])
    return folder, table_id, ann.cookie("tc")


def get(url: str, path: str) -> int:
    try:
        with urllib.request.urlopen(url + path, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def open_stream(port: int, table_id: str, cookie: str) -> socket.socket:
    """A phone's live stream: connected, its first message read, then left open."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(f"GET /t/{table_id}/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Cookie: tc={cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
    seen = b""
    while b"event: changed" not in seen:
        chunk = sock.recv(4096)
        assert chunk, seen
        seen += chunk
    assert seen.startswith(b"HTTP/1.1 200"), seen[:200]
    return sock


def test_sigterm_with_phones_connected_stops_in_seconds(instance):
    folder, table_id, cookie = instance
    server = start_gunicorn(folder)
    try:
        assert get(server.url, "/healthz") == 200
        assert get(server.url, "/J/SECRETTOKEN123") == 200   # the old-link notice
        get(server.url, "/e/ev1/director/SECRETDIRECTOR456")
        get(server.url, "/?code=SECRETCODE")
        streams = [open_stream(server.port, table_id, cookie) for _ in range(3)]
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=15)
        took = time.monotonic() - started
        print(f"gunicorn stopped {took:.2f} s after SIGTERM with 3 live streams")
        assert took < 10
        assert took <= 5.5, f"stopping took {took:.2f} s"
        assert server.process.returncode == 0
        for sock in streams:      # each stream was ended (the page reconnects), not cut
            sock.settimeout(2)
            rest = b""
            while chunk := sock.recv(4096):
                rest += chunk
            assert rest.endswith(b"0\r\n\r\n") or rest == b"", rest[-200:]
            sock.close()
    finally:
        server.stop()
    log = server.output()
    lines = log.splitlines()
    assert any('"GET /healthz HTTP/1.1" 200' in line for line in lines), log
    assert any('"GET /J/<redacted> HTTP/1.1" 303' in line for line in lines), log
    assert "/e/ev1/director/<redacted>" in log and "code=<redacted>" in log
    for secret in ("SECRETTOKEN123", "SECRETDIRECTOR456", "SECRETCODE", cookie):
        assert secret not in log


def test_json_access_lines(instance):
    folder, table_id, cookie = instance
    server = start_gunicorn(folder, COMPANION_LOG_FORMAT="json", COMPANION_WORKERS="1")
    try:
        assert get(server.url, "/healthz") == 200
        assert get(server.url, "/J/SECRETTOKEN123") == 200   # the old-link notice
        assert get(server.url, "/t/nope/play?since=1") in (403, 404)
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=15)
    finally:
        server.stop()
    records = []
    for line in server.output().splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    by_path = {r["path"]: r for r in records}
    health = by_path["/healthz"]
    assert set(health) == {"time", "remote", "method", "path", "status", "bytes", "ms",
                           "user_agent"}
    assert health["status"] == 200 and health["method"] == "GET"
    assert health["remote"] == "127.0.0.1" and health["bytes"] > 0
    assert isinstance(health["ms"], int) and health["user_agent"].startswith("Python-urllib")
    assert by_path["/J/<redacted>"]["status"] == 303
    assert "/t/nope/play?since=1" in by_path
    assert "SECRETTOKEN123" not in server.output()


def test_companion_serve_stops_in_seconds_with_phones_connected(instance):
    """`companion serve` (gevent's server): SIGTERM, and Ctrl+C (SIGINT), each end the
    process within a few seconds while phones hold live streams."""
    folder, table_id, cookie = instance
    for sig in (signal.SIGTERM, signal.SIGINT):
        port = free_port()
        log = folder / f"serve-{port}.log"
        env = {**os.environ, "COMPANION_INSTANCE_PATH": str(folder), "PYTHONPATH": PACKAGE_ROOT,
               "PYTHONUNBUFFERED": "1"}
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--quiet"], cwd=folder, env=env, stdout=out,
                stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while get_or_none(f"http://127.0.0.1:{port}", "/healthz") != 200:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
            streams = [open_stream(port, table_id, cookie) for _ in range(3)]
            started = time.monotonic()
            process.send_signal(sig)
            process.wait(timeout=15)
            took = time.monotonic() - started
            print(f"companion serve stopped {took:.2f} s after {sig.name} with 3 live streams")
            assert took <= 5, took
            assert process.returncode == 0, log.read_text()
            assert "Stopped." in log.read_text()
            for sock in streams:
                sock.close()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def get_or_none(url: str, path: str) -> int | None:
    try:
        return get(url, path)
    except OSError:
        return None


def test_a_body_that_stalls_gets_408_and_others_are_answered(instance):
    """Headers and 1 byte of a 100-byte body, then nothing: a 408 within BODY_TIMEOUT (+2 s),
    while requests from others are answered meanwhile; a whole body is not held up."""
    folder, table_id, cookie = instance
    server = start_gunicorn(folder, COMPANION_WORKERS="1")
    try:
        stalled = []
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=BODY_TIMEOUT + 5)
            sock.sendall(b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: 100\r\n\r\nc")
            stalled.append(sock)
        started = time.monotonic()
        for _ in range(5):         # others are answered while those wait
            t0 = time.monotonic()
            assert get(server.url, "/healthz") == 200
            assert time.monotonic() - t0 < 1.0
        answers = []
        for sock in stalled:
            got = b""
            while chunk := sock.recv(4096):
                got += chunk
            answers.append(got)
            sock.close()
        took = time.monotonic() - started
        print(f"stalled bodies answered after {took:.2f} s (BODY_TIMEOUT {BODY_TIMEOUT} s)")
        assert took < BODY_TIMEOUT + 2
        for got in answers:
            assert got.startswith(b"HTTP/1.1 408"), got[:300]
            assert b"took too long to arrive, so nothing was saved" in got
            assert b"X-Companion" not in got      # "no answer" to the page: it sends again
        # A body sent whole (even in two parts) is read as usual.
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     b"Content-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: 11\r\n\r\ncode=")
        time.sleep(0.3)
        sock.sendall(b"ABCDEF")
        got = b""
        while chunk := sock.recv(4096):
            got += chunk
        sock.close()
        assert got.split(b"\r\n", 1)[0] in (b"HTTP/1.1 400 BAD REQUEST",
                                            b"HTTP/1.1 400 Bad Request"), got[:300]
        assert b"expired" in got          # the CSRF check read the form: no 408
    finally:
        server.stop()
