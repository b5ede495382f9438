"""No lost and no doubled entry: idempotent submissions and optimistic concurrency."""
from __future__ import annotations

import json
import threading

from helpers import form_block, inputs, text_of, totals
from web_helpers import count, db_rows, round_rows, seq_saved, snapshot


def test_same_submission_twice_is_saved_once(table, db_path):
    form = table.host.entry_form(table.id)
    first = table.host.enter(table.id, {0: 12, 1: 3}, form=form)
    assert first.status_code == 200 and "Saved as entry #" in text_of(first.get_data(as_text=True))
    after_first = snapshot(db_path)
    # A double tap / a retry after a dropped answer: the very same form again.
    again = table.host.enter(table.id, {0: 12, 1: 3}, form=form)
    assert again.status_code == 200
    body = again.get_data(as_text=True)
    assert "That was already saved" in text_of(body) and "nothing was entered twice" in text_of(body)
    assert snapshot(db_path) == after_first
    assert count(db_path, "actions", "kind = 'game'") == 1
    assert totals(body) == {"Ann": 12, "Bob": 3, "Cy": 0}
    # Also without htmx (a plain form re-post after a reload prompt).
    assert table.host.enter(table.id, {0: 12, 1: 3}, form=form, hx=False).status_code == 303
    assert snapshot(db_path) == after_first


def test_conflict_loser_sees_why_keeps_values_and_can_retry(table, db_path):
    ann_form = table.host.entry_form(table.id)
    bob_form = table.bob.entry_form(table.id)
    assert ann_form["version"] == bob_form["version"] and ann_form["sid"] != bob_form["sid"]
    won = table.host.enter(table.id, {0: 10, 1: 4}, form=ann_form)
    assert won.status_code == 200
    seq = seq_saved(won)
    lost = table.bob.enter(table.id, {1: 7, 2: -3}, form=bob_form)
    assert lost.status_code == 409
    body = lost.get_data(as_text=True)
    assert f"Ann saved an entry (#{seq}) just before you" in text_of(body)
    assert "Your entry is still here: check it against the sheet, then save again." \
        in text_of(body)
    # The fresh sheet, and Bob's typed values still in his form.
    assert totals(body) == {"Ann": 10, "Bob": 4, "Cy": 0}
    retry = inputs(form_block(body, 'id="entry-form"'))
    # (Ann's box: the 0 Bob typed there, as an empty box is never a score.)
    assert retry["score_1"] == "7" and retry["score_2"] == "-3" and retry["score_0"] == "0"
    assert 'value="7"' in body and 'value="-3"' in body
    assert int(retry["version"]) > int(bob_form["version"])
    assert round_rows(table.host.page(table.id)) == 1
    assert count(db_path, "actions", "kind = 'game'") == 1
    # Retrying with the fresh form (new version, new sid) saves it.
    r = table.bob.enter(table.id, {1: retry["score_1"], 2: retry["score_2"]}, form=retry)
    assert r.status_code == 200
    assert totals(r.get_data(as_text=True)) == {"Ann": 10, "Bob": 11, "Cy": -3}
    assert count(db_path, "actions", "kind = 'game'") == 2


def test_stale_retry_with_the_old_version_and_the_old_sid_is_not_doubled(table, db_path):
    """A retry of the winner's own post after someone else saved: still 'already saved'."""
    ann_form = table.host.entry_form(table.id)
    table.host.enter(table.id, {0: 10}, form=ann_form)
    table.bob.enter(table.id, {1: 5})
    r = table.host.enter(table.id, {0: 10}, form=ann_form)
    assert r.status_code == 200 and "That was already saved" in text_of(r.get_data(as_text=True))
    assert count(db_path, "actions", "kind = 'game'") == 2


def test_undo_in_between_makes_an_entry_conflict(table, db_path):
    seq = seq_saved(table.host.enter(table.id, {0: 10}))
    bob_form = table.bob.entry_form(table.id)
    undo_sid = inputs(form_block(table.host.page(table.id), 'class="undo"'))["sid"]
    assert table.host.undo(table.id, seq, sid=undo_sid).status_code == 200
    r = table.bob.enter(table.id, {1: 5}, form=bob_form)
    assert r.status_code == 409
    assert f"Ann undid an entry (#{seq + 1}) just before you" in text_of(r.get_data(as_text=True))
    assert count(db_path, "actions", "kind = 'game'") == 1


def test_entry_after_undo_from_the_same_rendering_is_not_mistaken_for_a_repeat(table, db_path):
    """The undo button and the entry form of one page must not share a submission id.

    Otherwise: tap Undo (the answer is lost on the way back), then type a round and save
    from the same page; the round is answered "already saved" but never stored.
    """
    table.host.enter(table.id, {0: 10})
    page = table.bob.page(table.id)
    undo = inputs(form_block(page, 'class="undo"'))
    entry = inputs(form_block(page, 'id="entry-form"'))
    assert undo["sid"] != entry["sid"], "the undo form and the entry form share one submission id"
    table.bob.undo(table.id, int(undo["target"]), sid=undo["sid"])
    r = table.bob.enter(table.id, {1: 5}, form=entry)
    body = text_of(r.get_data(as_text=True))
    assert "already saved" not in body
    # The undo changed the sheet after this page was drawn: a conflict, with the reason.
    assert r.status_code == 409 and "undid an entry" in body
    assert count(db_path, "actions", "kind = 'game'") == 1
    # The same holds for the rematch button beside an undo button on a finished game.
    table.host.enter(table.id, {0: 60})
    page = table.bob.page(table.id)
    undo = inputs(form_block(page, 'class="undo"'))
    rematch = inputs(form_block(page, "/rematch"))
    assert undo["sid"] != rematch["sid"]


def _seated_phones(table, new_phone, n):
    """The table fixture has 3 seats; make a fresh n-seat table with n seated phones."""
    host = new_phone("host")
    names = [f"P{i}" for i in range(n)]
    table_id = host.create_table(names, me=0)
    path = host.join_path(table_id)
    phones = [host]
    for pos in range(1, n):
        p = new_phone(f"P{pos}")
        assert p.join(path).status_code == 303
        assert p.claim(table_id, pos).status_code == 303
        phones.append(p)
    return table_id, phones


def _race(jobs):
    """Run callables at the same instant from threads; return their results in order."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)
    errors = []

    def run(i, job):
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors, errors
    return results


def test_eight_phones_post_at_once_exactly_one_wins(new_phone, db_path):
    table_id, phones = _seated_phones(None, new_phone, 8)
    forms = [p.entry_form(table_id) for p in phones]
    assert len({f["version"] for f in forms}) == 1
    jobs = [lambda p=p, f=f, i=i: p.enter(table_id, {i: i + 1}, form=f)
            for i, (p, f) in enumerate(zip(phones, forms))]
    results = _race(jobs)
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200] + [409] * 7, statuses
    winner = next(i for i, r in enumerate(results) if r.status_code == 200)
    for i, r in enumerate(results):
        if r.status_code == 409:
            body = r.get_data(as_text=True)
            assert f"P{winner} saved an entry" in text_of(body)
            assert inputs(form_block(body, 'id="entry-form"'))[f"score_{i}"] == str(i + 1)
    rows = db_rows(db_path, "SELECT seat, payload FROM actions WHERE kind = 'game'")
    # Each phone typed its own score and 0 in the others' boxes (an empty box is no score).
    scores = {f"P{i}": i + 1 if i == winner else 0 for i in range(8)}
    assert rows == [(winner, json.dumps({"kind": "round", "scores": scores}))]
    page = phones[0].page(table_id)
    assert round_rows(page) == 1 and totals(page)[f"P{winner}"] == winner + 1
    # The log's seq and version numbers have no gaps or repeats.
    seqs = [s for (s,) in db_rows(db_path, "SELECT seq FROM actions ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1))
    versions = db_rows(db_path, "SELECT version FROM actions ORDER BY seq")
    assert len(set(versions)) == len(versions)


def test_the_same_submission_from_eight_connections_is_stored_once(new_phone, db_path):
    """A phone that retries over several connections at once (flaky Wi-Fi)."""
    table_id, (host, *_rest) = _seated_phones(None, new_phone, 2)
    form = host.entry_form(table_id)
    twins = [host.clone(f"host#{i}") for i in range(8)]
    results = _race([lambda t=t: t.enter(table_id, {0: 9, 1: 1}, form=form) for t in twins])
    assert [r.status_code for r in results] == [200] * 8
    notes = [text_of(r.get_data(as_text=True)) for r in results]
    assert sum("Saved as entry #" in n for n in notes) == 1
    assert sum("That was already saved" in n for n in notes) == 7
    assert count(db_path, "actions", "kind = 'game'") == 1
    assert totals(host.page(table_id)) == {"P0": 9, "P1": 1}


def test_racing_rounds_from_all_phones_lose_nothing_on_retry(new_phone, db_path):
    """Everyone keeps retrying with the fresh form from their 409 until saved: all 6 rounds land once."""
    table_id, phones = _seated_phones(None, new_phone, 6)

    def player(i, phone):
        def go():
            form = phone.entry_form(table_id)
            for _attempt in range(20):
                r = phone.enter(table_id, {i: 10 + i}, form=form)
                if r.status_code == 200:
                    return r
                assert r.status_code == 409, r.status_code
                form = inputs(form_block(r.get_data(as_text=True), 'id="entry-form"'))
                assert form[f"score_{i}"] == str(10 + i)
            raise AssertionError("never saved")
        return go

    results = _race([player(i, p) for i, p in enumerate(phones)])
    assert all(r.status_code == 200 for r in results)
    assert count(db_path, "actions", "kind = 'game'") == 6
    page = phones[0].page(table_id)
    assert round_rows(page) == 6
    assert totals(page) == {f"P{i}": 10 + i for i in range(6)}


def test_concurrent_seat_claims_one_phone_per_seat(table, new_phone, db_path):
    phones = [new_phone(f"C{i}") for i in range(6)]
    for p in phones:
        assert p.join(table.join_path).status_code == 303
        p.csrf()
    results = _race([lambda p=p: p.claim(table.id, 2) for p in phones])
    statuses = sorted(r.status_code for r in results)
    assert statuses == [303] + [409] * 5, statuses
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 2") == [(1,)]


def test_two_phones_undo_the_same_entry_at_once(table, db_path):
    seq = seq_saved(table.host.enter(table.id, {0: 10}))
    sids = [inputs(form_block(p.page(table.id), 'class="undo"'))["sid"] for p in (table.host, table.bob)]
    results = _race([lambda p=p, s=s: p.undo(table.id, seq, sid=s)
                     for p, s in zip((table.host, table.bob), sids)])
    assert sorted(r.status_code for r in results) == [200, 409]
    loser = next(r for r in results if r.status_code == 409)
    assert f"Entry #{seq} was already undone by" in text_of(loser.get_data(as_text=True))
    assert count(db_path, "actions", "kind = 'undo'") == 1


def test_two_phones_start_a_rematch_at_once_only_one_game_starts(table, db_path):
    table.host.enter(table.id, {0: 60})
    sids = [inputs(form_block(p.page(table.id), "/rematch"))["sid"] for p in (table.host, table.bob)]
    results = _race([lambda p=p, s=s: p.post(f"/t/{table.id}/rematch", {"sid": s}, hx=True)
                     for p, s in zip((table.host, table.bob), sids)])
    assert sorted(r.status_code for r in results) == [200, 409]
    assert count(db_path, "actions", "kind = 'rematch'") == 1
    assert "Game 2" in text_of(table.host.page(table.id))


def _rejoin_token(table) -> str:
    from helpers import links
    r = table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "1"})
    return links(r.get_data(as_text=True), "a#rejoin-url")[0].rsplit("#", 1)[1]


def test_a_rejoin_code_read_by_two_phones_seats_only_one(table, db_path):
    """Both phones looked the code up before either sat down (a race two players can really run): the check that
    it is still unused happens inside the write, so the second is refused."""
    from companion import tables
    from companion.storage import connect

    token = _rejoin_token(table)
    db = connect(db_path)
    try:
        found = [tables.find_by_token(db, token) for _ in range(2)]   # both see seat 1
        assert [seat for _t, seat in found] == [1, 1]
        phone, _secret = tables.join(db, found[0][0], None, 1, token)
        assert phone.seat == 1
        with __import__("pytest").raises(tables.NotFound, match="already used"):
            tables.join(db, found[1][0], None, 1, token)
    finally:
        db.conn.close()
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 1") == [(1,)]


def test_three_phones_using_one_rejoin_code_at_once(table, new_phone, db_path):
    token = _rejoin_token(table)
    phones = [new_phone(f"P{i}") for i in range(3)]
    for phone in phones:
        phone.csrf()        # each has its form token before the race
    barrier, answers = threading.Barrier(3), []

    def use(phone):
        barrier.wait()
        answers.append(phone.join(f"/j#{token}").status_code)

    threads = [threading.Thread(target=use, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert sorted(answers) == [303, 404, 404]
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 1") == [(1,)]
    assert count(db_path, "actions", "kind = 'seat' AND payload LIKE '%rejoin\"%'") == 1
