"""One cookie per phone (a phone is one device, whatever tables and events it joins).

Each table used to set its own `tc_<id>` cookie for a year: after ~134 tables one browser's
Cookie header passed 8 KB and gunicorn answered 431 to every URL (the real server is checked
in tests/faults/test_faults_cookies.py). Now a phone holds one key in one cookie, `tc`, which
the server issued for the phone's identity, and the database keeps a hash of that identity
scoped to each table and event. A value the server never issued is replaced, never adopted;
the key is renewed when the phone gains a host's or director's rights. Phones from before bring
their old cookies once: their seat, director's role and pass move over, and the old cookies
are deleted.
"""
from __future__ import annotations

import re
import sqlite3

from helpers import attrs, text_of
from test_web_events import PLAYERS, create_event
from web_helpers import Phone, db_rows, local_link, snapshot

from companion.tables.tokens import hash_secret, new_secret, phone_hash
from companion.events.event import director_hash, pass_hash


def cookie_names(phone: Phone) -> set[str]:
    return set(phone._cookie_names())


def set_cookies(response) -> dict[str, str]:
    """name -> the whole Set-Cookie header of each cookie a response sets or deletes."""
    out = {}
    for header in response.headers.getlist("Set-Cookie"):
        out[header.split("=", 1)[0]] = header
    return out


def deleted(header: str) -> bool:
    return bool(re.search(r"Max-Age=0\b|Expires=Thu, 01 Jan 1970", header))


def test_three_hundred_tables_and_an_event_are_one_cookie(new_phone, db_path):
    ann = new_phone("Ann")
    ids = [ann.create_table(["Ann", "Bob"]) for _ in range(300)]
    event_id = create_event(ann)
    assert ann.pick(event_id, PLAYERS[0]).status_code == 303
    assert cookie_names(ann) == {"session", "tc"}
    key, secret = ann.cookie("tc"), ann.secret()
    header = "; ".join(f"{k}={ann.cookie(k)}" for k in cookie_names(ann))
    assert len(header) < 400, header
    # Every table still knows her, in her own seat, by the one cookie.
    for table_id in (ids[0], ids[149], ids[-1]):
        assert "You are Ann · host" in text_of(ann.page(table_id))
    assert ann.get(f"/e/{event_id}").status_code == 200   # still the director
    stored = repr([db_rows(db_path, f"SELECT * FROM {name}")
                   for name in ("phones", "events", "event_directors", "event_passes")])
    assert secret not in stored and key not in stored
    assert phone_hash(secret, ids[0]) in stored and director_hash(secret, event_id) in stored
    assert pass_hash(secret, event_id) in stored
    # 300 rows, 300 different hashes: one table's row says nothing about another's.
    hashes = db_rows(db_path, "SELECT DISTINCT secret_hash FROM phones")
    assert len(hashes) == 300


def test_the_cookie_is_set_once_and_only_when_something_was_remembered(table, new_phone):
    cy = new_phone("Cy")
    r = cy.get("/")
    assert "tc" not in set_cookies(r)            # reading the start page remembers nothing
    r = cy.join("/j#" + "A" * 32)                 # a wrong QR link remembers nothing either
    assert r.status_code == 404 and "tc" not in set_cookies(r)
    r = cy.join(table.join_path)
    header = set_cookies(r)["tc"]
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Max-Age=31536000" in header
    assert cy.claim(table.id, 2).status_code == 303
    assert "tc" not in set_cookies(cy.get(f"/t/{table.id}"))   # kept, not sent again
    # A second table: still one cookie, not a second one. Hosting it renewed the cookie's
    # key (see test_a_planted_cookie_shares_no_host_role) and Cy keeps her first seat.
    before = cy.cookie("tc")
    other = cy.create_table(["Cy", "Dee"])
    assert cookie_names(cy) == {"session", "tc"} and cy.cookie("tc") != before
    assert "You are Cy" in text_of(cy.page(other))
    assert "You are Cy" in text_of(cy.page(table.id))


def test_a_junk_phone_cookie_is_replaced_never_trusted(table, new_phone, db_path):
    eve = new_phone("Eve")
    for junk in ("x", "a" * 200, "../../etc", table.host.cookie("tc")[:20]):
        eve.client.set_cookie("tc", junk)
        assert eve.get(f"/t/{table.id}").status_code == 403
    r = eve.join(table.join_path)
    assert r.status_code == 303
    fresh = eve.cookie("tc")
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", fresh) and fresh != table.host.cookie("tc")
    assert "You are watching" in text_of(eve.page(table.id))


# ---------------------------------------------------------------- phones from before

def _old_phone(app, name: str, cookies: dict[str, str]) -> Phone:
    phone = Phone(app, name)
    for key, value in cookies.items():
        phone.client.set_cookie(key, value)
    return phone


def test_an_old_table_cookie_keeps_its_seat_and_is_dropped(app, table, db_path):
    # Bob's phone from before: its row hashed a per-table secret, its cookie is tc_<id>.
    old = new_secret()
    (bob_row,), = db_rows(db_path, "SELECT id FROM phones WHERE table_id = ? AND seat = 1",
                          [table.id])
    _rekey(db_path, "UPDATE phones SET secret_hash = ? WHERE id = ?", [hash_secret(old), bob_row])
    bob = _old_phone(app, "Bob from before", {f"tc_{table.id}": old})
    r = bob.get(f"/t/{table.id}")
    assert r.status_code == 200 and "You are Bob" in text_of(r.get_data(as_text=True))
    sent = set_cookies(r)
    assert deleted(sent[f"tc_{table.id}"]) and not deleted(sent["tc"])
    assert cookie_names(bob) <= {"tc", "session"} and "tc" in cookie_names(bob)
    assert db_rows(db_path, "SELECT secret_hash FROM phones WHERE id = ?", [bob_row]) == \
        [(phone_hash(bob.secret(), table.id),)]
    # From now on the one cookie is enough, and Bob is still one phone.
    assert "You are Bob" in text_of(bob.page(table.id))
    assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE table_id = ?", [table.id]) == [(2,)]


def test_old_cookies_that_prove_nothing_change_nothing(app, table, db_path):
    before = snapshot(db_path)
    stranger = _old_phone(app, "stranger", {f"tc_{table.id}": new_secret(),
                                             # Ann's new secret under the old name proves
                                             # nothing either: old rows hashed it unscoped.
                                             "tc_other": table.host.cookie("tc")})
    r = stranger.get(f"/t/{table.id}")
    assert r.status_code == 403
    assert snapshot(db_path) == before
    assert "You are Ann" in text_of(table.host.page(table.id))


def test_old_director_and_pass_cookies_move_over(app, new_phone, db_path):
    director = new_phone("director")
    event_id = create_event(director, registration="on")
    player = new_phone("player")
    assert player.pick(event_id, PLAYERS[1]).status_code == 303
    # Both phones from before: the rows hashed per-event secrets held in te_/tp_ cookies.
    old_director, old_pass = new_secret(), new_secret()
    _rekey(db_path, "UPDATE events SET secret_hash = ? WHERE id = ?",
           [hash_secret(old_director), event_id])
    _rekey(db_path, "UPDATE event_directors SET secret_hash = ? WHERE event_id = ? AND creator = 1",
           [hash_secret(old_director), event_id])
    _rekey(db_path, "UPDATE event_passes SET secret_hash = ? WHERE event_id = ?",
           [hash_secret(old_pass), event_id])
    laptop = _old_phone(app, "laptop", {f"te_{event_id}": old_director})
    assert laptop.get(f"/e/{event_id}").status_code == 200
    assert cookie_names(laptop) <= {"tc", "session"} and "tc" in cookie_names(laptop)
    assert laptop.get(f"/e/{event_id}").status_code == 200
    phone = _old_phone(app, "phone", {f"tp_{event_id}": old_pass})
    page = text_of(phone.get(f"/e/{event_id}/players").get_data(as_text=True))
    assert PLAYERS[1] in page
    assert cookie_names(phone) <= {"tc", "session"} and "tc" in cookie_names(phone)
    assert db_rows(db_path, "SELECT entrant FROM event_passes WHERE secret_hash = ?",
                   [pass_hash(phone.secret(), event_id)]) == [(PLAYERS[1],)]
    # The old director's secret no longer opens anything.
    assert _old_phone(app, "copy", {f"te_{event_id}": old_director}).get(
        f"/e/{event_id}").status_code == 403


def _rekey(db_path: str, sql: str, params: list) -> None:
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


# ---------------------------------------------------------------- keys the server issued

FORGED = ["A" * 43, "abcdefghij" * 5, new_secret()]


def _keys(db_path: str) -> list[tuple]:
    return db_rows(db_path, "SELECT key_hash, identity, retired_at FROM phone_keys")


def test_a_forged_well_formed_cookie_is_replaced_not_adopted(table, new_phone, db_path):
    """A cookie value the server never issued (43 × "A", any well-formed string) is not the
    phone's secret: joining sets a fresh key, and the forged value opens nothing then or
    later, whoever sends it."""
    for n, forged in enumerate(FORGED):
        eve = new_phone(f"eve{n}")
        eve.client.set_cookie("tc", forged)
        assert eve.get(f"/t/{table.id}").status_code == 403
        r = eve.join(table.join_path)
        assert r.status_code == 303 and "tc" in set_cookies(r)
        key = eve.cookie("tc")
        assert key != forged and eve.secret() not in (None, forged)
        assert db_rows(db_path, "SELECT COUNT(*) FROM phones WHERE secret_hash = ?",
                       [phone_hash(forged, table.id)]) == [(0,)]
        # A second browser carrying the same forged value is a stranger, not Eve.
        twin = new_phone(f"twin{n}")
        twin.client.set_cookie("tc", forged)
        assert twin.get(f"/t/{table.id}").status_code == 403
        # Creating a table with it: the table is the new key's, never the forged value's.
        mallory = new_phone(f"mallory{n}")
        mallory.client.set_cookie("tc", forged)
        own = mallory.create_table(["Mal", "Ory"])
        assert mallory.cookie("tc") != forged
        assert twin.get(f"/t/{own}").status_code == 403
    # At rest: neither keys nor identities in clear, and no row for a forged value.
    stored = repr(_keys(db_path))
    for phone in (table.host, table.bob):
        assert phone.cookie("tc") not in stored and phone.secret() not in stored
    assert all(f not in stored for f in FORGED)


def _host_rights(phone: Phone, table_id: str) -> int:
    """The status of a host-only POST (a rejoin code for seat 1) by this phone."""
    return phone.post(f"/t/{table_id}/host/rejoin", {"seat": "1"}).status_code


def test_a_planted_cookie_shares_no_host_role(new_phone, db_path, table):
    """Mallory gets a real key from the server and plants it on Vic's browser (a cookie
    set over plain http on the same network, say). The moment Vic's phone gains a host's
    rights (creating a table, taking the host's seat with a rejoin code, receiving the host
    role) the key is renewed: Mallory's copy opens nothing of Vic's from then on, and
    everything Vic held before still works for Vic."""
    mallory = new_phone("Mallory")
    assert mallory.join(table.join_path).status_code == 303      # a real key, a spectator
    planted = mallory.cookie("tc")
    vic = new_phone("Vic")
    vic.client.set_cookie("tc", planted)
    # Creating a table.
    own = vic.create_table(["Vic", "Wes"])
    assert vic.cookie("tc") != planted
    assert _host_rights(vic, own) == 200
    assert mallory.get(f"/t/{own}").status_code == 403
    assert mallory.get(f"/t/{table.id}").status_code == 403   # the old key is dead everywhere
    assert "You are watching" in text_of(vic.page(table.id))  # what it proved is Vic's still
    (retired,), = db_rows(db_path, "SELECT COUNT(*) FROM phone_keys WHERE retired_at IS NOT NULL"
                          " AND identity IS NULL")
    assert retired >= 1

    # Receiving the host role: Ann passes it to the seat Vic's phone holds.
    assert vic.claim(table.id, 2).status_code == 303
    before = vic.cookie("tc")
    spy = vic.clone("spy")                           # a copy of Vic's cookie from before
    assert table.host.post(f"/t/{table.id}/host/pass", {"seat": "2"}).status_code in (200, 303)
    r = vic.get(f"/t/{table.id}")
    assert r.status_code == 200 and "tc" in set_cookies(r) and vic.cookie("tc") != before
    assert "tc" not in set_cookies(vic.get(f"/t/{table.id}"))     # renewed once
    assert _host_rights(vic, table.id) == 200
    assert spy.get(f"/t/{table.id}").status_code == 403
    assert _host_rights(spy, table.id) == 403


def test_a_planted_cookie_shares_no_director_role(new_phone, db_path):
    from test_web_director_devices import link_path

    mallory, vic = new_phone("Mallory"), new_phone("Vic")
    other = mallory.create_table(["Mal", "Ory"])   # Mallory holds a real key
    planted = mallory.cookie("tc")
    # Vic creates an event with the planted key: the director's role is the new key's.
    vic.client.set_cookie("tc", planted)
    event_id = create_event(vic)
    assert vic.cookie("tc") != planted and vic.get(f"/e/{event_id}").status_code == 200
    assert mallory.get(f"/e/{event_id}").status_code == 403
    assert vic.get(f"/t/{other}").status_code == 200      # what the key proved moved with Vic
    # Opening a director link with a planted key: the same.
    helper = new_phone("helper")
    assert helper.create_table(["Hel", "Per"])
    planted = helper.cookie("tc")
    laptop = new_phone("laptop")
    laptop.client.set_cookie("tc", planted)
    assert laptop.join(link_path(vic, event_id)).status_code == 303
    assert laptop.cookie("tc") != planted and laptop.get(f"/e/{event_id}").status_code == 200
    assert helper.get(f"/e/{event_id}").status_code == 403


def test_a_refused_request_renews_nothing(table, new_phone, db_path):
    """A rotation happens only with an answer below 400: a refused table creation keeps
    the key, and a retired key is never brought back."""
    ann = table.host
    before, keys = ann.cookie("tc"), _keys(db_path)
    r = ann.post("/new/scorepad", {"name_0": "", "me": "0"})
    assert r.status_code == 422 and "tc" not in set_cookies(r)
    assert ann.cookie("tc") == before and _keys(db_path) == keys
    assert "You are Ann" in text_of(ann.page(table.id))


def test_secrets_from_before_keys_are_converted_once(app, table, new_phone, db_path):
    """An install upgraded from before keys: a phone's old secret (the cookie was the secret)
    still finds its seat, under a new key; the old value is retired at once, so a copy of it
    (or a value planted earlier) shares nothing. A new install converts nothing."""
    old = new_secret()
    (bob_row,), = db_rows(db_path, "SELECT id FROM phones WHERE table_id = ? AND seat = 1",
                          [table.id])
    _rekey(db_path, "UPDATE phones SET secret_hash = ? WHERE id = ?",
           [phone_hash(old, table.id), bob_row])
    bob = _old_phone(app, "Bob from before", {"tc": old})
    assert bob.get(f"/t/{table.id}").status_code == 403        # a new install: no conversion
    _rekey(db_path, "INSERT INTO app_flags (name, value) VALUES ('legacy_secrets', 'x')", [])
    r = bob.get(f"/t/{table.id}")
    assert r.status_code == 200 and "You are Bob" in text_of(r.get_data(as_text=True))
    assert "tc" in set_cookies(r) and bob.cookie("tc") != old and bob.secret() == old
    assert "You are Bob" in text_of(bob.page(table.id))
    copy = _old_phone(app, "copy", {"tc": old})
    assert copy.get(f"/t/{table.id}").status_code == 403
    assert copy.join(table.join_path).status_code == 303 and copy.secret() != old
    # A refused request converts nothing: the next one still can.
    other = new_secret()
    late = _old_phone(app, "late", {"tc": other})
    assert late.get("/t/nonexistent").status_code == 404 and late.cookie("tc") == other


def test_taking_the_hosts_seat_renews_the_key(table, new_phone):
    """The host's seat carries the host's rights: a phone that sits in it (by tapping the
    free seat, or through a rejoin code) gets a new key; a copy of its old cookie doesn't."""
    ann, bob = table.host, table.bob
    assert ann.post(f"/t/{table.id}/seats", {"seat": "watch"}).status_code == 303
    spy = bob.clone("spy")
    before = bob.cookie("tc")
    assert bob.claim(table.id, 0).status_code == 303
    assert bob.cookie("tc") != before and _host_rights(bob, table.id) == 200
    assert spy.get(f"/t/{table.id}").status_code == 403
    # Through a rejoin code for the host's seat: the same.
    r = bob.post(f"/t/{table.id}/host/rejoin", {"seat": "0"})
    path = local_link(attrs(r.get_data(as_text=True), "a#rejoin-url", "href")[0])
    cy = new_phone("Cy")
    assert cy.join(table.join_path).status_code == 303
    spy = cy.clone("spy of Cy")
    before = cy.cookie("tc")
    assert cy.join(path).status_code == 303
    assert cy.cookie("tc") != before and _host_rights(cy, table.id) == 200
    assert spy.get(f"/t/{table.id}").status_code == 403


def test_two_browsers_renewing_one_key_at_once_never_both_keep_it(new_phone, db_path):
    """Mallory's key planted on Vic's browser; both create a table at the same moment (each
    renews the key): at most one of them comes away with a live key for the identity."""
    import threading

    for attempt in range(3):
        mallory = new_phone(f"Mallory{attempt}")
        mallory.create_table(["Mal", "Ory"])
        vic = mallory.clone(f"Vic{attempt}")
        shared = mallory.secret()
        barrier = threading.Barrier(2)

        def create(phone):
            barrier.wait()
            phone.create_table(["A", "B"])

        threads = [threading.Thread(target=create, args=(p,)) for p in (mallory, vic)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        holders = [p for p in (mallory, vic) if p.secret() == shared]
        assert len(holders) <= 1, attempt
        live = db_rows(db_path, "SELECT COUNT(*) FROM phone_keys WHERE retired_at IS NULL")
        assert live[0][0] >= 1
