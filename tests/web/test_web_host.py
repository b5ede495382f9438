"""Host tools: a rejoin QR for a seat, removing a seat's phone, passing the host role."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from helpers import links, text_of
from web_helpers import count, db_rows, local_link, snapshot


def rejoin_path(response) -> str:
    hrefs = links(response.get_data(as_text=True), "a#rejoin-url")
    assert hrefs, response.get_data(as_text=True)[:2000]
    return local_link(hrefs[0])


def test_rejoin_qr_moves_a_seat_to_a_new_phone_once(table, new_phone, db_path):
    r = table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "1"})
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert "Rejoin as Bob" in text_of(body)
    assert "<svg" in body  # the QR code itself, inline
    path = rejoin_path(r)
    assert re.fullmatch(r"/j#[A-Z2-7]{26,}", path)
    assert path != table.join_path  # a one-time token, not the table's own

    bob2 = new_phone("Bob's new phone")
    r = bob2.join(path)
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}"  # seated at once
    assert path.rsplit("#", 1)[1] not in r.headers["Location"]
    assert "You are Bob" in text_of(bob2.page(table.id))
    # The old phone became a spectator and can no longer write.
    assert "You are watching" in text_of(table.bob.page(table.id))
    r = table.bob.post(f"/t/{table.id}/actions", {"sid": "old-bob", "version": "1",
                                                    "score_0": "0", "score_1": "5",
                                                    "score_2": "0"}, hx=True)
    assert r.status_code == 403
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 1") == [(1,)]
    # The new phone can play.
    assert bob2.enter(table.id, {1: 7}).status_code == 200
    # The token is used up: a second phone opening it gets a 404 and no seat.
    before = snapshot(db_path)
    mallory = new_phone("Mallory")
    r = mallory.join(path)
    assert r.status_code == 404
    assert "already used" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    # Nor can the new phone "re-use" it (it stays where it is; still 404).
    assert bob2.join(path).status_code == 404
    # The history says what happened.
    history = text_of(table.host.get(f"/t/{table.id}/history").get_data(as_text=True))
    assert "Made a rejoin QR for Bob" in history
    assert "A new phone rejoined as Bob" in history


def test_rejoin_qr_for_a_free_seat_and_a_fresh_token_replaces_the_old(table, new_phone):
    first = rejoin_path(table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "2"}))
    second = rejoin_path(table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "2"}))
    assert first != second
    assert new_phone().join(first).status_code == 404  # superseded
    cy = new_phone("Cy")
    assert cy.join(second).status_code == 303
    assert "You are Cy" in text_of(cy.page(table.id))


def test_host_removes_a_seats_phone(table, new_phone, db_path):
    (old_code,), = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table.id])
    r = table.host.post(f"/t/{table.id}/host/release", {"seat": "1"})
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}"
    assert "You are watching" in text_of(table.bob.page(table.id))
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 1") == [(0,)]
    # The phone is still there (as a spectator): nothing is deleted.
    assert count(db_path, "phones") == 2
    # A removed phone stays removed: it watches, and neither it nor another
    # phone takes the seat without the host's rejoin code.
    before = snapshot(db_path)
    r = table.bob.claim(table.id, 1)
    assert r.status_code == 403 and "rejoin code" in text_of(r.get_data(as_text=True))
    assert table.bob.claim(table.id, 2).status_code == 403          # nor any other seat
    # Cookies cleared, the removed phone is a new browser: the QR and code it knew open
    # nothing any more (the removal gave the table new ones).
    bob2 = new_phone("Bob2")
    assert bob2.join(table.join_path).status_code == 404
    r = bob2.post("/join", {"code": old_code})
    assert r.status_code == 404
    assert bob2.claim(table.id, 2).status_code == 403
    # With the new code (from a phone at the table) a phone still can't take the locked
    # seat; like any newcomer it may take a seat nobody holds, which the host sees.
    new_path = table.host.join_path(table.id)
    assert new_path != table.join_path
    assert bob2.join(new_path).status_code == 303
    r = bob2.claim(table.id, 1)
    assert r.status_code == 403 and "only a rejoin code" in text_of(r.get_data(as_text=True))
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE seat = 1") == [(0,)]
    assert snapshot(db_path)["seats"] == before["seats"]
    # The host's rejoin code opens it, once, to whoever holds it (here the old phone).
    assert table.bob.join(rejoin_path(table.host.post(f"/t/{table.id}/host/rejoin",
                                                      {"seat": "1"}))).status_code == 303
    assert "You are Bob" in text_of(table.bob.page(table.id))
    assert table.bob.enter(table.id, {1: 4}).status_code == 200
    assert table.host.post(f"/t/{table.id}/host/release", {"seat": "1"}).status_code == 303
    # Removing a seat nobody holds, or the host's own seat, is refused plainly.
    before = snapshot(db_path)
    r = table.host.post(f"/t/{table.id}/host/release", {"seat": "2"})
    assert r.status_code == 409 and "No phone holds Cy's seat" in text_of(r.get_data(as_text=True))
    r = table.host.post(f"/t/{table.id}/host/release", {"seat": "0"})
    assert r.status_code == 400 and "That is your own seat" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    assert "Removed the phone of Bob" in text_of(table.host.get(f"/t/{table.id}/history").get_data(as_text=True))


def test_pass_host_then_old_host_is_refused(table, db_path):
    bob, ann = table.bob, table.host
    assert "host" not in text_of(bob.page(table.id)).split("You are Bob", 1)[1][:10]
    r = ann.post(f"/t/{table.id}/host/pass", {"seat": "1"})
    assert r.status_code == 303
    assert db_rows(db_path, "SELECT host_seat FROM tables") == [(1,)]
    bob_page = bob.page(table.id)
    assert "You are Bob · host" in text_of(bob_page)
    assert 'id="host"' in bob_page
    ann_page = ann.page(table.id)
    assert "You are Ann" in text_of(ann_page) and 'id="host"' not in ann_page
    before = snapshot(db_path)
    for tool in ("rejoin", "release", "pass"):
        r = ann.post(f"/t/{table.id}/host/{tool}", {"seat": "0" if tool == "pass" else "1"})
        assert r.status_code == 403, tool
        assert "Only the host's phone can do that" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before
    # The new host's tools work.
    assert bob.post(f"/t/{table.id}/host/rejoin", {"seat": "0"}).status_code == 200


def test_non_host_and_spectator_get_403_on_host_tools(table, new_phone, db_path):
    sam = new_phone("Sam")
    sam.join(table.join_path)
    before = snapshot(db_path)
    for phone in (table.bob, sam):
        for tool, seat in (("rejoin", "0"), ("release", "0"), ("pass", "1")):
            r = phone.post(f"/t/{table.id}/host/{tool}", {"seat": seat})
            assert r.status_code == 403, (phone.name, tool)
            assert "Only the host's phone can do that" in text_of(r.get_data(as_text=True))
    assert 'id="host"' not in table.bob.page(table.id)
    assert snapshot(db_path) == before


def test_host_tools_reject_unknown_and_garbage_seats(table, db_path):
    before = snapshot(db_path)
    for tool in ("rejoin", "release", "pass"):
        r = table.host.post(f"/t/{table.id}/host/{tool}", {"seat": "9"})
        assert r.status_code == 404 and "That seat doesn't exist" in text_of(r.get_data(as_text=True))
        for junk in ("abc", "", "1.5"):
            r = table.host.post(f"/t/{table.id}/host/{tool}", {"seat": junk})
            assert r.status_code == 400, (tool, junk)
    assert snapshot(db_path) == before


def test_a_table_never_ends_up_without_a_host(table, new_phone, db_path):
    # The host gives up the seat: the other seated phones may use the host tools.
    assert table.host.claim(table.id, "watch").status_code == 303
    assert "You are Bob · host" in text_of(table.bob.page(table.id))
    assert table.bob.post(f"/t/{table.id}/host/rejoin", {"seat": "2"}).status_code == 200
    # ...but not spectators.
    assert table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "2"}).status_code == 403
    # Ann sits down again in her (host) seat and is the only host again.
    assert table.host.claim(table.id, 0).status_code == 303
    assert "You are Ann · host" in text_of(table.host.page(table.id))
    assert table.bob.post(f"/t/{table.id}/host/rejoin", {"seat": "2"}).status_code == 403


def test_moving_to_another_free_seat_frees_the_old_one(table, new_phone, db_path):
    assert table.bob.claim(table.id, 2).status_code == 303
    assert "You are Cy" in text_of(table.bob.page(table.id))
    assert db_rows(db_path, "SELECT seat FROM phones ORDER BY seat") == [(0,), (2,)]
    newbie = new_phone("newbie")
    newbie.join(table.join_path)
    assert newbie.claim(table.id, 1).status_code == 303
    assert "You are Bob" in text_of(newbie.page(table.id))


def test_a_removed_phone_stays_removed_by_every_path(table, new_phone, db_path):
    """The removed phone keeps its cookie: a new QR scan, the new typed code, a renewed
    cookie key (it hosts a table of its own) or a second tab change nothing; only the host's
    rejoin code seats it again."""
    bob = table.bob
    assert table.host.post(f"/t/{table.id}/host/release", {"seat": "1"}).status_code == 303
    new_path = table.host.join_path(table.id)
    (code,), = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table.id])
    before = bob.cookie("tc")
    bob.create_table(["Bob", "Dee"])                   # a host elsewhere: a new key
    assert bob.cookie("tc") != before
    tab = bob.clone("Bob's second tab")
    for phone, how in ((bob, lambda p: p.join(new_path)),
                       (bob, lambda p: p.post("/join", {"code": code.lower()})),
                       (tab, lambda p: p.join(new_path))):
        assert how(phone).status_code == 303
        for seat in (1, 2):
            r = phone.claim(table.id, seat)
            assert r.status_code == 403, seat
        assert "You are watching" in text_of(phone.page(table.id))
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE table_id = ?", [table.id]) == [(2,)]
    assert db_rows(db_path, "SELECT seat, removed FROM phones WHERE table_id = ? AND seat IS NULL",
                   [table.id]) == [(None, 1)]
    rejoin = rejoin_path(table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "1"}))
    assert bob.join(rejoin).status_code == 303
    assert "You are Bob" in text_of(bob.page(table.id))
