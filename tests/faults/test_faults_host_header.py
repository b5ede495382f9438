"""Links never come from the Host header, checked where it bit: gunicorn with
no configured address, where a request saying `Host: evil.example` used to make join links
and QR codes point at evil.example."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from fault_helpers import Client, Server
from helpers import attr

from companion.net import lan_addresses


@pytest.mark.parametrize("kind", ["gunicorn", "serve"])
def test_a_forged_host_header_changes_no_link(tmp_path, kind):
    server = Server(tmp_path / "instance", kind=kind).start()
    try:
        ann = Client(server.url, "Ann")
        table_id = ann.create_table(["Ann", "Bob"])
        for host in ("evil.example", "evil.example:8000", f"127.0.0.1:{server.port}"):
            r = ann.get(f"/t/{table_id}", headers={"Host": host})
            assert r.status == 200, (host, r.status, r.plain[:300])
            assert "evil.example" not in r.text
            link = urlsplit(attr(r.text, "a#join-url", "href"))
            # The server's own address: a LAN address (or loopback) and the socket's port.
            assert link.hostname in set(lan_addresses()) | {"127.0.0.1"}, link
            assert link.port == server.port, link
    finally:
        server.stop()
