"""deploy/Caddyfile in front of the real gunicorn, over TLS: what a phone gets.

Caddy runs the shipped Caddyfile with its host name replaced by club.test and three lines
added for a test machine: the ports (free high ones instead of 80/443), the test's own
storage folder, and a self-signed certificate instead of Let's Encrypt. Checked: the HSTS
header and the app's own answer pass; the live stream's first message arrives at once
(nothing buffered); with gunicorn stopped, Caddy's 503 has no X-Companion header, an empty
body for htmx and one sentence otherwise.
"""
from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import free_port

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deploy_helpers import (  # noqa: E402
    CADDY, DEPLOY, NAME, Backend, TLSClient, replaced, self_signed_cert, stop, wait_for_port)


def caddyfile_for_test(cert: Path, key: Path, http_port: int, https_port: int,
                       backend: str, storage: Path) -> str:
    text = (DEPLOY / "Caddyfile").read_text()
    return replaced(text, [
        ("{\n\t# For Let's Encrypt", f"{{\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
                                     f"\tadmin off\n\tstorage file_system {storage}\n"
                                     "\t# For Let's Encrypt"),
        ("club.example.org {\n", f"{NAME}:{https_port} {{\n\ttls {cert} {key}\n"),
        ("{$COMPANION_BACKEND:127.0.0.1:8000}", f"{{$COMPANION_BACKEND:{backend}}}"),
    ])


@pytest.fixture
def caddy_site(tmp_path):
    if not Path(CADDY).exists():
        pytest.skip("caddy is not installed (apt-get install -y caddy)")
    https_port, http_port, backend_port = free_port(), free_port(), free_port()
    cert, key = self_signed_cert(tmp_path, NAME)
    public = f"https://{NAME}:{https_port}"
    backend = Backend(tmp_path / "instance", backend_port, public, tmp_path / "gunicorn.log")
    conf = tmp_path / "Caddyfile"
    conf.write_text(caddyfile_for_test(cert, key, http_port, https_port,
                                       f"127.0.0.1:{backend_port}", tmp_path / "caddy-data"))
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_BACKEND"}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    backend.start()
    log = open(tmp_path / "caddy.log", "wb")
    caddy = subprocess.Popen([CADDY, "run", "--adapter", "caddyfile", "--config", str(conf)],
                             stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for_port("127.0.0.1", https_port, caddy)
        yield {"public": public, "cert": cert, "backend": backend,
               "log": tmp_path / "caddy.log"}
    finally:
        stop(caddy)
        if backend.process is not None and backend.process.poll() is None:
            stop(backend.process)


def first_stream_message(site: dict, table_id: str, cookies: dict) -> tuple[bytes, float]:
    """Open the table's stream through Caddy (HTTP/1.1); its head and first event, and the
    seconds they took."""
    context = ssl.create_default_context(cafile=str(site["cert"]))
    port = int(site["public"].rsplit(":", 1)[1])
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=15) as raw, \
            context.wrap_socket(raw, server_hostname=NAME) as sock:
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        sock.sendall(f"GET /t/{table_id}/stream HTTP/1.1\r\nHost: {NAME}:{port}\r\n"
                     f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode())
        got = b""
        while b"event: changed" not in got:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
        return got, time.monotonic() - started


def test_caddy_in_front_of_gunicorn(caddy_site):
    site = caddy_site
    phone = TLSClient(site["public"], "Ann", "127.0.0.1", site["cert"])
    home = phone.get("/")
    assert home.status == 200, home.plain[:300]
    # One HSTS header: Caddy's (the app's own is dropped, not repeated).
    assert phone.last_headers.get_all("Strict-Transport-Security") == ["max-age=31536000"]
    assert home.headers.get("x-companion") == "1"
    table_id = phone.create_table(["Ann", "Bob"])

    head, seconds = first_stream_message(site, table_id, phone.cookies)
    assert b" 200 " in head.split(b"\r\n")[0], head[:300]
    assert b"event: changed" in head and seconds < 5, (seconds, head[:500])

    backend: Backend = site["backend"]
    backend.terminate()
    down_hx = phone.get(f"/t/{table_id}/play", hx=True)
    down_page = phone.get(f"/t/{table_id}")
    for answer in (down_hx, down_page):
        assert answer.status == 503, (answer.status, answer.text[:300])
        assert "x-companion" not in answer.headers
        assert answer.headers.get("retry-after") == "5"
        assert answer.headers.get("strict-transport-security") == "max-age=31536000"
    assert down_hx.text.strip() == "", down_hx.text
    assert down_page.text.strip() == "Table Companion is restarting. Try again in a moment."
    backend.start()
    assert phone.get(f"/t/{table_id}").status == 200
