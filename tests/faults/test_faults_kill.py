"""SIGKILL the real server in the middle of a stream of entries, again and again.

Eight phones (plain HTTP clients, each with its own cookies) keep entering rounds on four
tables. At a random moment the server's whole process group gets SIGKILL (no shutdown code
runs); it is started again on the same database, sometimes as `companion serve`, sometimes
as `gunicorn -k gevent -w 2`. After every restart:

- every entry that was acknowledged (a 200 answer arrived) is in the log exactly once,
  with what was sent, under the entry number the answer named;
- the submissions that were in flight when the server died (no answer) are retried with
  their same submission id: each ends up stored exactly once, whether or not it had been
  committed before the kill; a second retry is answered "already saved";
- nothing else is in the log (no refused entry, no ghost), the database passes
  `PRAGMA integrity_check`, each table's log is contiguous, and the sheet the server
  shows adds up to the rounds stored.

No timing is asserted: the waits only pace the stream.
"""
from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass

import pytest
from fault_helpers import (
    CONNECTION_ERRORS,
    Client,
    Server,
    game_rows,
    integrity,
    log_problems,
    new_sid,
    saved_seq,
)
from helpers import totals

TABLES = 4
NAMES = ["Ann", "Bob"]
CYCLES = 24
GUNICORN_CYCLES = {3, 7, 11, 15, 19, 23}      # the rest run under `companion serve`
MIN_ACKS_BEFORE_KILL = 4                       # per cycle, so the kill lands mid-stream
MAX_ENTRIES_PER_CYCLE = 150                    # per phone: the stream is bounded


@dataclass(frozen=True)
class Sent:
    sid: str
    client: str
    table_id: str
    pos: int
    value: int
    version: int

    @property
    def scores(self) -> dict[int, int]:
        return {self.pos: self.value}

    @property
    def payload(self) -> dict:
        # The other boxes were typed 0 (an empty box is never a score: Client.enter).
        return {"kind": "round", "scores": {name: self.value if pos == self.pos else 0
                                            for pos, name in enumerate(NAMES)}}


class Ledger:
    """What the phones know: acknowledged entries, refused ones, ones lost in flight."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acked: dict[str, tuple[Sent, int | None]] = {}
        self.refused: set[str] = set()
        self.inflight: list[Sent] = []
        self.errors: list[str] = []
        self.cycle_acks = 0
        self.acked_event = threading.Event()

    def ack(self, sent: Sent, seq: int | None) -> None:
        with self.lock:
            assert sent.sid not in self.acked
            self.acked[sent.sid] = (sent, seq)
            self.cycle_acks += 1
            if self.cycle_acks >= MIN_ACKS_BEFORE_KILL:
                self.acked_event.set()


def stream(client: Client, table_id: str, pos: int, cycle: int, ledger: Ledger,
           rng: random.Random) -> None:
    """Enter rounds until the server dies under us (or the bounded count is reached)."""
    try:
        for n in range(MAX_ENTRIES_PER_CYCLE):
            try:
                version = client.version(table_id)
            except CONNECTION_ERRORS:
                return
            sent = Sent(new_sid(f"k{cycle}-{client.name}-{n}-"), client.name, table_id, pos,
                        rng.randint(1, 99), version)
            try:
                r = client.enter(table_id, sent.scores, sid=sent.sid, version=version)
            except CONNECTION_ERRORS:
                with ledger.lock:
                    ledger.inflight.append(sent)   # sent, never answered
                return
            if r.status == 200:
                seq = saved_seq(r.text)
                assert seq is not None, r.plain[:500]
                ledger.ack(sent, seq)
            elif r.status == 409:
                # The other phone at this table saved first: told who and what.
                assert "saved an entry (#" in r.plain and "Your entry is still here" in r.plain, \
                    r.plain[:500]
                with ledger.lock:
                    ledger.refused.add(sent.sid)
            else:
                raise AssertionError(f"{client.name}: {r.status} {r.plain[:500]}")
    except BaseException as exc:
        with ledger.lock:
            ledger.errors.append(f"{client.name}: {exc!r}")


def resolve_inflight(ledger: Ledger, clients: dict[str, Client], server: Server) -> Counter:
    """Retry every unanswered submission with its same id: exactly one row each."""
    outcomes: Counter = Counter()
    stored = {row[5] for row in game_rows(server.db_path)}
    for sent in ledger.inflight:
        client = clients[sent.client]
        was_stored = sent.sid in stored
        # A phone's retry sends the very same form again.
        r = client.enter(sent.table_id, sent.scores, sid=sent.sid, version=sent.version)
        if r.status == 409:
            # Not stored, and the other phone saved meanwhile: the usual conflict.
            assert not was_stored, f"{sent.sid} was stored yet answered 409: {r.plain[:300]}"
            outcomes["not stored; conflict, then saved"] += 1
            r = client.enter(sent.table_id, sent.scores, sid=sent.sid,
                             version=client.version(sent.table_id))
            assert r.status == 200 and saved_seq(r.text), (r.status, r.plain[:500])
        else:
            assert r.status == 200, (r.status, r.plain[:500])
            if was_stored:
                assert "That was already saved" in r.plain, r.plain[:500]
                outcomes["committed before the kill"] += 1
            else:
                assert saved_seq(r.text), r.plain[:500]
                outcomes["not stored; saved on retry"] += 1
        seq = saved_seq(r.text)
        # Once more (another double tap): still one row.
        again = client.enter(sent.table_id, sent.scores, sid=sent.sid,
                             version=client.version(sent.table_id))
        assert again.status == 200 and "That was already saved" in again.plain, again.plain[:500]
        ledger.acked[sent.sid] = (sent, seq)
    ledger.inflight.clear()
    return outcomes


def verify(server: Server, ledger: Ledger, tables: list[str], reader: dict[str, Client],
           label: str) -> None:
    """Every acknowledged entry exactly once, nothing else, the sheets adding up."""
    assert integrity(server.db_path) == "ok", label
    assert log_problems(server.db_path) == [], label
    rows = game_rows(server.db_path)
    sids = [row[5] for row in rows]
    assert all(sids) and len(sids) == len(set(sids)), f"{label}: a submission stored twice"
    by_sid = {row[5]: row for row in rows}
    missing = [sid for sid in ledger.acked if sid not in by_sid]
    assert not missing, f"{label}: {len(missing)} acknowledged entries lost, e.g. {missing[:3]}"
    extra = set(by_sid) - set(ledger.acked)
    assert not extra, f"{label}: entries nobody was told were saved: {sorted(extra)[:3]}"
    assert not (ledger.refused & set(by_sid)), f"{label}: a refused entry was stored"
    for sid, (sent, seq) in ledger.acked.items():
        table_id, row_seq, _version, seat, payload, _sid, undone = by_sid[sid]
        assert (table_id, seat, payload, undone) == (sent.table_id, sent.pos, sent.payload, None)
        if seq is not None:
            assert row_seq == seq, f"{label}: {sid} answered #{seq}, stored as #{row_seq}"
    for table_id in tables:
        expected = dict.fromkeys(NAMES, 0)
        for sent, _seq in ledger.acked.values():
            if sent.table_id == table_id:
                expected[NAMES[sent.pos]] += sent.value
        stored = dict.fromkeys(NAMES, 0)
        for row in rows:
            if row[0] == table_id:
                for name, value in row[4]["scores"].items():
                    stored[name] += value
        shown = totals(reader[table_id].page(table_id))
        assert expected == stored == shown, f"{label}: {table_id}: {expected} {stored} {shown}"


@pytest.mark.slow
def test_sigkill_mid_stream_loses_and_doubles_nothing(tmp_path):
    rng = random.Random()
    server = Server(tmp_path / "instance").start("serve")
    clients: dict[str, Client] = {}
    seats: list[tuple[Client, str, int]] = []
    reader: dict[str, Client] = {}
    tables: list[str] = []
    ledger = Ledger()
    outcomes: Counter = Counter()
    try:
        for t in range(TABLES):
            host = Client(server.url, f"t{t}-Ann")
            table_id = host.create_table(NAMES)
            guest = Client(server.url, f"t{t}-Bob")
            guest.join(host.join_path(table_id), table_id, 1)
            tables.append(table_id)
            reader[table_id] = host
            for pos, client in enumerate((host, guest)):
                clients[client.name] = client
                seats.append((client, table_id, pos))

        for cycle in range(CYCLES):
            if cycle:
                server.start("gunicorn" if cycle in GUNICORN_CYCLES else "serve")
                outcomes += resolve_inflight(ledger, clients, server)
                verify(server, ledger, tables, reader, f"after restart {cycle}")
            ledger.cycle_acks = 0
            ledger.acked_event.clear()
            threads = [threading.Thread(target=stream, args=(c, t, pos, cycle, ledger,
                                                             random.Random(rng.random())),
                                        daemon=True)
                       for c, t, pos in seats]
            for thread in threads:
                thread.start()
            ledger.acked_event.wait(timeout=60)
            time.sleep(rng.uniform(0, 0.15))      # a random moment within the stream
            server.kill()
            for thread in threads:
                thread.join(timeout=60)
            assert not any(t.is_alive() for t in threads), "a phone thread hung"
            assert not ledger.errors, ledger.errors
            assert ledger.cycle_acks >= MIN_ACKS_BEFORE_KILL, server.output()[-3000:]

        server.start("serve")
        outcomes += resolve_inflight(ledger, clients, server)
        verify(server, ledger, tables, reader, "after the last restart")
        # The stream really was cut mid-request: some submissions never got an answer.
        assert sum(outcomes.values()) > 0, "no kill ever caught a request in flight"
        print(f"\n{CYCLES} kills; {len(ledger.acked)} entries stored exactly once; "
              f"{len(ledger.refused)} refused (409); in flight at a kill: {dict(outcomes)}")
    finally:
        server.kill()
