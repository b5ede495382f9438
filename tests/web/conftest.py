"""Fixtures for the Flask test-client suite (tests/web). CSRF protection stays ON."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from web_helpers import Phone, make_app


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def db_path(app) -> str:
    return app.config["DATABASE"]


@pytest.fixture
def new_phone(app):
    """Factory: a fresh phone (test client with its own cookies)."""
    counter = iter(range(1, 1000))

    def _make(name: str | None = None) -> Phone:
        return Phone(app, name or f"phone{next(counter)}")

    return _make


@dataclass
class Table:
    id: str
    join_path: str
    host: Phone   # Ann, seat 0, host
    bob: Phone    # Bob, seat 1
    names: list


@pytest.fixture
def table(new_phone) -> Table:
    """A three-seat score pad (Ann, Bob, Cy; target 50): Ann hosts, Bob has joined and sat down.

    Cy's seat is free.
    """
    host = new_phone("Ann")
    names = ["Ann", "Bob", "Cy"]
    table_id = host.create_table(names, me=0, target=50)
    path = host.join_path(table_id)
    bob = new_phone("Bob")
    assert bob.join(path).status_code == 303
    assert bob.claim(table_id, 1).status_code == 303
    return Table(table_id, path, host, bob, names)
