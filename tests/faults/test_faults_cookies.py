"""One phone, one cookie, whatever the number of tables, on the README's
gunicorn command: a director who opens 300 tables and an event still reaches every page.

With a cookie per table, ~134 tables made one browser's Cookie header pass gunicorn's 8 KB
field limit and every URL, the start page included, answered 431; the first check below
shows that limit is real on this server.
"""
from __future__ import annotations

import pytest
from fault_helpers import Client, Server

from companion.tables.tokens import new_secret

TABLES = 300


@pytest.mark.slow
def test_three_hundred_tables_never_reach_the_header_limit(tmp_path):
    server = Server(tmp_path / "instance", kind="gunicorn").start()
    try:
        # What a cookie per table came to after 140 tables: refused before the app.
        piled = Client(server.url, "piled up", cookies={f"tc_{i:012d}": new_secret()
                                                        for i in range(140)})
        assert piled.get("/").status == 431
        director = Client(server.url, "director")
        ids = [director.create_table(["Ann", "Bob"]) for _ in range(TABLES)]
        r = director.post("/events/new/scorepad", {"event_name": "Club night",
                                                   "event_rounds": "2", "rounds": "1",
                                                   "entrants": "Ann\nBob\nCy\nDee"})
        assert r.status == 303, r.plain[:300]
        event_path = r.location
        assert set(director.cookies) == {"session", "tc"}
        header = "; ".join(f"{k}={v}" for k, v in director.cookies.items())
        assert len(header) < 400
        assert director.get("/").status == 200
        for table_id in (ids[0], ids[TABLES // 2], ids[-1]):
            r = director.get(f"/t/{table_id}")
            assert r.status == 200 and "You are Ann · host" in r.plain
        assert director.get(event_path).status == 200     # still the event's director
    finally:
        server.stop()
