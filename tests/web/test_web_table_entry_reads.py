"""One entry reads the table once: the adapter parses the form inside the write, against
the fold the write starts from (companion/tables/service.py `enter`), so an entry's POST
runs a fixed handful of SQL statements, however the table got there."""
from __future__ import annotations

import re

import pytest

from companion.storage import db as storage
from helpers import text_of

#: The statements of one entry's POST: the phone's key and row, the write's BEGIN
#: IMMEDIATE (with its two busy-timeout pragmas), one read of the table (its seats, the
#: phone, a repeated form), the version, the change, the action, the stored fold, COMMIT.
MOST = 11


@pytest.fixture
def statements(monkeypatch) -> list[str]:
    """Every SQL statement the requests' connections run from now on."""
    seen: list[str] = []
    taken = storage.pool.get

    def get(path):
        db = taken(path)
        db.conn.set_trace_callback(seen.append)
        return db

    monkeypatch.setattr(storage.pool, "get", get)
    yield seen


def reads_of_table(seen: list[str]) -> int:
    return sum(1 for sql in seen if re.search(r"\bFROM tables\b", sql))


def test_an_entry_runs_at_most_eleven_statements(table, statements):
    table.host.enter(table.id, {0: 5, 1: 3})
    form = table.bob.entry_form(table.id)
    statements.clear()
    r = table.bob.enter(table.id, {0: 2, 1: 7}, form=form)
    assert r.status_code == 200 and "Saved as entry #" in text_of(r.get_data(as_text=True))
    assert len(statements) <= MOST, "\n".join(statements)
    assert reads_of_table(statements) == 1, "\n".join(statements)


def test_a_refused_form_is_parsed_in_the_write_and_writes_nothing(table, statements):
    form = table.bob.entry_form(table.id)
    statements.clear()
    r = table.bob.enter(table.id, {0: "abc"}, form=form)
    assert r.status_code == 422
    assert "Ann's score must be a whole number" in text_of(r.get_data(as_text=True))
    assert not any(sql.startswith(("INSERT", "UPDATE")) for sql in statements), statements
    assert "ROLLBACK" in statements
