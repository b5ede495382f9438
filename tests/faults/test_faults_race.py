"""Phones saving on the same table at the same instant, many times over, over real HTTP.

Four seated phones (threads, each with its own cookies) race to save a round on one
table of the real server, 100 rounds long, under `gunicorn -k gevent -w 2` (two worker
processes: SQLite's write lock is the only thing serialising them). Every wave of posts
is released at once by a barrier, all made against the same sheet version:

- exactly one post of a wave is saved; every other one gets 409 naming who saved which
  entry, says nothing of theirs was saved, and carries a fresh form that still holds
  what that phone typed (new submission id, the new version);
- each loser retries with exactly that fresh form, racing the other losers again, until
  every phone's round is in;
- at the end every intended round is in the log exactly once (no lost update, no
  duplicate), the log is contiguous and the sheet's totals add up.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fault_helpers import (
    Client,
    Server,
    entry_form_of,
    game_rows,
    integrity,
    log_problems,
    saved_seq,
)
from helpers import totals

ROUNDS = 100
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def value(rnd: int, pos: int) -> int:
    """What phone `pos` means to enter in round `rnd` (unique per round and phone)."""
    return rnd * 10 + pos + 1


@pytest.mark.slow
def test_many_rounds_of_phones_racing_on_one_table(tmp_path):
    server = Server(tmp_path / "instance", kind="gunicorn").start()
    try:
        host = Client(server.url, "Ann")
        table_id = host.create_table(NAMES)
        join_path = host.join_path(table_id)
        phones = [host]
        for pos in range(1, len(NAMES)):
            phone = Client(server.url, NAMES[pos])
            phone.join(join_path, table_id, pos)
            phones.append(phone)
        for phone in phones:
            phone.csrf()

        saved: dict[tuple[int, int], int] = {}     # (round, pos) -> entry number
        conflicts = 0
        with ThreadPoolExecutor(max_workers=len(phones)) as pool:
            for rnd in range(ROUNDS):
                forms = {pos: phone.entry_form(table_id) for pos, phone in enumerate(phones)}
                while forms:
                    versions = {f["version"] for f in forms.values()}
                    assert len(versions) == 1, versions
                    barrier = threading.Barrier(len(forms))

                    def post(pos: int, form: dict, rnd=rnd, barrier=barrier):
                        barrier.wait(timeout=30)
                        return phones[pos].enter(table_id, {pos: value(rnd, pos)},
                                                 sid=form["sid"], version=int(form["version"]))

                    futures = {pos: pool.submit(post, pos, form) for pos, form in forms.items()}
                    answers = {pos: f.result(timeout=60) for pos, f in futures.items()}
                    statuses = sorted(r.status for r in answers.values())
                    assert statuses == [200] + [409] * (len(forms) - 1), (rnd, statuses)
                    winner = next(pos for pos, r in answers.items() if r.status == 200)
                    seq = saved_seq(answers[winner].text)
                    assert seq is not None, answers[winner].plain[:500]
                    saved[rnd, winner] = seq
                    new_forms = {}
                    for pos, r in answers.items():
                        if pos == winner:
                            continue
                        conflicts += 1
                        # Told who saved what, and that their entry is kept to save again.
                        assert (f"{NAMES[winner]} saved an entry (#{seq}) just before you. "
                                "Your entry is still here") in r.plain, r.plain[:600]
                        fresh = entry_form_of(r.text)
                        assert fresh["sid"] != forms[pos]["sid"]
                        assert int(fresh["version"]) > int(forms[pos]["version"])
                        assert fresh[f"score_{pos}"] == str(value(rnd, pos)), "typed value lost"
                        new_forms[pos] = fresh
                    forms = new_forms

        n = len(NAMES)
        assert conflicts == ROUNDS * n * (n - 1) // 2
        assert integrity(server.db_path) == "ok"
        assert log_problems(server.db_path) == []
        rows = [row for row in game_rows(server.db_path) if row[0] == table_id]
        assert len(rows) == ROUNDS * n
        by_intent = {}
        for _t, seq, _v, seat, payload, _sid, _undone in rows:
            # The phone's own score; the boxes it didn't type were typed 0 (Client.enter).
            val = payload["scores"][NAMES[seat]]
            assert payload["scores"] == {**dict.fromkeys(NAMES, 0), NAMES[seat]: val}
            rnd = (val - seat - 1) // 10
            assert value(rnd, seat) == val
            assert (rnd, seat) not in by_intent, f"round {rnd} of {name} stored twice"
            by_intent[rnd, seat] = seq
        assert by_intent == saved       # each intended round exactly once, where it was answered
        expected = {name: sum(value(r, pos) for r in range(ROUNDS))
                    for pos, name in enumerate(NAMES)}
        assert totals(host.page(table_id)) == expected
    finally:
        server.kill()
