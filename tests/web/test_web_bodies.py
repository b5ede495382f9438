"""The body deadline (companion/web/bodies.py) under Werkzeug's threaded server and the test
client; under gunicorn's gevent worker it is tested in test_web_gunicorn.py."""
from __future__ import annotations

import io
import socket
import threading
import time

import pytest
from werkzeug.serving import make_server

from web_helpers import Phone, make_app


@pytest.fixture
def threaded_server(tmp_path):
    app = make_app(tmp_path, BODY_TIMEOUT=1.0)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()


def read_all(sock: socket.socket) -> bytes:
    got = b""
    while chunk := sock.recv(4096):
        got += chunk
    return got


def test_a_stalled_body_gets_408_under_the_threaded_server(threaded_server):
    port = threaded_server
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /join HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                 b"Content-Type: application/x-www-form-urlencoded\r\n\r\nc")
    started = time.monotonic()
    got = read_all(sock)
    took = time.monotonic() - started
    sock.close()
    assert got.startswith(b"HTTP/1.1 408"), got[:300]
    assert b"nothing was saved" in got
    assert 0.9 < took < 3.0, took
    # A whole body is read as usual (the CSRF check refuses this one: no token).
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /join HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n"
                 b"Content-Type: application/x-www-form-urlencoded\r\n\r\ncode=ABCDEF")
    got = read_all(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 400") and b"expired" in got, got[:300]


@pytest.mark.parametrize("size, status", [(1000, 200), (300_000, 413)])
def test_chunked_bodies_are_read_whole_or_refused_as_too_large(tmp_path, size, status):
    app = make_app(tmp_path)
    phone = Phone(app)
    token = phone.csrf()

    body = f"csrf_token={token}&code=".encode() + b"A" * size
    # The body as a chunked request's, already decoded (the WSGI server's part): no length.
    r = phone.client.post("/join", input_stream=io.BytesIO(body), headers={
        "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked"})
    if status == 200:
        # The form was read: the code box answers in its own words (no such code).
        assert r.status_code in (400, 404, 422), r.status_code
        assert "expired" not in r.get_data(as_text=True)
    else:
        assert r.status_code == 413
