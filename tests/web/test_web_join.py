"""Creating a table, joining it by QR or typed code, taking a seat, and coming back."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from companion.tables import tokens

from helpers import select, select_one, text_of
from web_helpers import count, db_rows

CODE_RE = re.compile(r"[ABCDEFGHJKMNPQRSTUVWXYZ]{6}")


def join_code(page: str) -> str:
    code = text_of(page, "#join-code")
    assert code.isalpha() and code.isupper(), code
    return code


def test_host_creates_table_gets_cookie_clean_url_and_host_seat(new_phone, db_path):
    ann = new_phone("Ann")
    r = ann.post("/new/scorepad", {"name_0": "Ann", "name_1": "Bob", "me": "1", "target": "100"})
    assert r.status_code == 303
    location = urlsplit(r.headers["Location"])
    assert re.fullmatch(r"/t/[\w-]+", location.path) and not location.query
    table_id = location.path.rsplit("/", 1)[1]
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("tc=")  # one cookie per phone, whatever the table
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # "me" was the second row: this phone is Bob, and Bob's seat hosts.
    page = ann.page(table_id)
    assert "You are Bob · host" in text_of(page)
    assert 'id="host"' in page  # host tools shown
    assert db_rows(db_path, "SELECT seat FROM phones WHERE table_id = ?", [table_id]) == [(1,)]
    assert db_rows(db_path, "SELECT host_seat, game, status FROM tables") == [(1, "scorepad", "playing")]
    assert db_rows(db_path, "SELECT pos, name FROM seats ORDER BY pos") == [(0, "Ann"), (1, "Bob")]
    # The QR link carries the table's token in upper case, in QR-alphanumeric-friendly form.
    path = ann.join_path(table_id)
    token = db_rows(db_path, "SELECT token FROM tables")[0][0]
    assert path == f"/j#{token}"   # in the fragment: never in a request line
    assert token == token.upper() and len(token) >= 26  # >= 128 bits of base32


def test_second_phone_joins_by_qr_and_claims_a_seat(table, new_phone, db_path):
    cy = new_phone("Cy")
    r = cy.join(table.join_path)
    assert r.status_code == 303
    location = r.headers["Location"]
    assert urlsplit(location).path == f"/t/{table.id}/seats"
    token = table.join_path.rsplit("#", 1)[1]
    assert token not in location and token.lower() not in location.lower()
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("tc=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert r.headers["Referrer-Policy"] == "no-referrer"
    # The cookie holds a secret, not the token, and lasts (a reload next week still works).
    secret = cy.cookie("tc")
    assert secret and token not in secret and "Max-Age=" in cookie
    # Not seated yet: the seat picker shows Bob's seat taken and Cy's free.
    seats = cy.get(location).get_data(as_text=True)
    assert any(b.text == "Bob taken by another phone" and b.select("small")
               for b in select(seats, "button"))
    cy_seat = select_one(seats, 'button[value="2"]')
    assert cy_seat.get("class") == "button big seat free" and cy_seat.text.startswith("Cy ")
    assert "You are watching" in text_of(cy.page(table.id))
    r = cy.claim(table.id, 2)
    assert r.status_code == 303 and urlsplit(r.headers["Location"]).path == f"/t/{table.id}"
    assert "You are Cy" in text_of(cy.page(table.id))
    assert db_rows(db_path, "SELECT COUNT(*), COUNT(seat) FROM phones") == [(3, 3)]


def test_reload_and_rescan_land_in_the_same_seat_without_a_second_phone(table, db_path):
    bob = table.bob
    before = count(db_path, "phones")
    assert "You are Bob" in text_of(bob.page(table.id))  # a reload
    cookie = bob.cookie("tc")
    for _ in range(2):  # re-scan the QR code, twice
        r = bob.join(table.join_path)
        assert r.status_code == 303
        # Seated already: straight to the table, not to the seat picker.
        assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}"
        assert "You are Bob" in text_of(bob.page(table.id))
    assert bob.cookie("tc") == cookie
    assert count(db_path, "phones") == before == 2
    assert db_rows(db_path, "SELECT seat FROM phones ORDER BY seat") == [(0,), (1,)]


def test_third_phone_cannot_take_a_seat_another_phone_holds(table, new_phone, db_path):
    eve = new_phone("Eve")
    eve.join(table.join_path)
    before = db_rows(db_path, "SELECT id, seat FROM phones ORDER BY id")
    r = eve.claim(table.id, 1)
    assert r.status_code == 409
    body = r.get_data(as_text=True)
    assert "Bob's seat is already taken by another phone" in text_of(body)
    assert "Traceback" not in body
    assert db_rows(db_path, "SELECT id, seat FROM phones ORDER BY id") == before
    assert "You are Bob" in text_of(table.bob.page(table.id))
    assert "You are watching" in text_of(eve.page(table.id))


def test_spectator_watches_but_cannot_enter(table, new_phone, db_path):
    sam = new_phone("Sam")
    sam.join(table.join_path)
    r = sam.claim(table.id, "watch")
    assert r.status_code == 303
    page = sam.page(table.id)
    assert "You are watching" in text_of(page)
    assert 'id="sheet"' in page and 'id="entry-form"' not in page
    # Spectators hold no form, but they may have a rendered token; a hand-made post is refused.
    r = sam.post(f"/t/{table.id}/actions", {"sid": "sam-1", "version": "99", "score_0": "5",
                                             "score_1": "0", "score_2": "0"}, hx=True)
    assert r.status_code == 403
    assert "Spectators can watch but not enter scores" in text_of(r.get_data(as_text=True))
    assert count(db_path, "actions", "kind = 'game'") == 0
    # A seated phone that chooses "Just watch" gives its seat up.
    assert table.bob.claim(table.id, "watch").status_code == 303
    assert "You are watching" in text_of(table.bob.page(table.id))
    assert db_rows(db_path, "SELECT COUNT(seat) FROM phones") == [(1,)]


def test_join_by_typed_code_lowercase_with_spaces(table, new_phone, db_path):
    code = join_code(table.host.page(table.id))
    dee = new_phone("Dee")
    typed = " ".join([code[:3].lower(), code[3:].lower()])  # "abc def"
    r = dee.post("/join", {"code": typed})
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}/seats"
    assert r.headers["Set-Cookie"].startswith("tc=")
    assert "HttpOnly" in r.headers["Set-Cookie"]
    assert dee.claim(table.id, 2).status_code == 303
    assert "You are Cy" in text_of(dee.page(table.id))
    # Typing it again (same phone) doesn't make a second phone.
    assert dee.post("/join", {"code": f"{code[:2]}-{code[2:]}"}).status_code == 303
    assert count(db_path, "phones") == 3


def test_wrong_join_code_gets_a_plain_4xx(table, new_phone, db_path):
    code = join_code(table.host.page(table.id))
    wrong = "".join("B" if ch != "B" else "C" for ch in code)
    dee = new_phone("Dee")
    before = count(db_path, "phones")
    r = dee.post("/join", {"code": wrong})
    assert r.status_code == 404
    assert f"No table has the code {wrong}" in text_of(r.get_data(as_text=True))
    for bad, message in [("abc", "A join code has 6 letters"), ("", "A join code has 6 letters"),
                         ("ABCDEFGH", "A join code has 6 letters")]:
        r = dee.post("/join", {"code": bad})
        assert 400 <= r.status_code < 500
        assert message in text_of(r.get_data(as_text=True))
    assert count(db_path, "phones") == before
    assert dee.get(f"/t/{table.id}").status_code == 403


def test_join_codes_use_the_lookalike_free_alphabet(new_phone, db_path):
    assert set(tokens.CODE_ALPHABET).isdisjoint("ILO01")
    assert set(tokens.CODE_ALPHABET) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    codes = {tokens.new_code() for _ in range(2000)}
    assert all(CODE_RE.fullmatch(c) for c in codes)
    assert set("".join(codes)) == set(tokens.CODE_ALPHABET)  # every letter is used
    ann = new_phone("Ann")
    for _ in range(3):
        table_id = ann.create_table(["Ann", "Bob"])
        shown = join_code(ann.page(table_id))
        assert CODE_RE.fullmatch(shown)
        assert db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table_id]) == [(shown,)]


def test_unknown_join_token_is_404_and_makes_no_phone(table, new_phone, db_path):
    before = count(db_path, "phones")
    eve = new_phone("Eve")
    for link in ("/j#" + "A" * 32, "/j#" + "x" * 200, "/j#not-a-token"):
        r = eve.join(link)
        assert r.status_code == 404
        assert not any(c.startswith("tc=") for c in r.headers.getlist("Set-Cookie"))
        assert "QR code" in text_of(r.get_data(as_text=True))
    assert count(db_path, "phones") == before


def test_lowercase_qr_path_also_joins(table, new_phone):
    """Some scanners lower-case a URL; the token still opens the table."""
    eve = new_phone("Eve")
    r = eve.join(table.join_path.lower())
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}/seats"
