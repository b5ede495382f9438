"""Abuse: a curious player with a laptop on the tournament Wi-Fi (docs/SECURITY.md).

- table A's cookie (and A's secret copied into B's cookie name) never reads or changes
  table B, on every route of `app.url_map` that names a table;
- A's join token and code only ever open A; a rejoin token of A never seats anyone at B;
- guessing join codes gets 429 after the limit on /join and on /J|j/<token> (one budget for
  both spellings), per address, and a 429 changes nothing, even for the right code;
- POSTs without a CSRF token are 400, cross-site POSTs (Sec-Fetch-Site, Origin) are 403,
  and neither changes anything; `Origin: null` and same-origin writes go through;
- the security headers are on every route's answer: pages, fragments, errors, 204s,
  redirects, the event stream, and a 500; a file from /static has nosniff and none of the
  headers that only act on a document (bytes saved on every file);
- seat secrets are kept hashed: no cookie value is stored in the database.

test_web_security.py and test_web_bad_inputs.py cover the basics (one foreign cookie, a
hand-written list of CSRF-less POSTs, one 429); these tests walk the url_map, so a new
route is checked without anyone remembering to add it here.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from companion import create_app
from companion.tables import tokens
from helpers import alerts, attr, text_of
from web_helpers import Phone, db_rows, local_link, make_app, snapshot

ROOT = Path(__file__).resolve().parents[2]
EVIL = "http://evil.example"
CROSS_SITE_HEADERS = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},            # a sibling host is another site for us
    {"Origin": EVIL},
    {"Origin": EVIL, "Sec-Fetch-Site": "same-origin"},
    {"Origin": "http://localhost.evil.example"},
    {"Origin": "http://localhost:8000"},        # another port is another origin
    {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Origin": "http://[::1"},                  # malformed: refused, not a 500
]
SAME_SITE_HEADERS = [
    {},                                           # no browser headers at all (curl)
    {"Origin": "null", "Sec-Fetch-Site": "same-origin"},  # our pages under no-referrer
    {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},                   # typed or bookmarked by the user
]


def table_rules(app, method: str) -> list[str]:
    """Every rule that names a table, for `method`, from the live url_map."""
    rules = sorted(r.rule for r in app.url_map.iter_rules()
                   if "table_id" in r.arguments and method in r.methods)
    assert rules
    return rules


def post_rules(app) -> list[str]:
    rules = sorted(r.rule for r in app.url_map.iter_rules() if "POST" in r.methods)
    assert rules
    return rules


# Event routes are filled with an event that doesn't exist: these tests are about what is
# refused before any lookup (CSRF, cross-site) and the headers on every answer.
NO_EVENT = "AAAAAAAAAAAA"


def fill(rule: str, **values: str) -> str:
    """A concrete path for a url_map rule."""
    def one(match):
        name = match.group(1)
        assert name in values, f"no value for <{name}> in {rule}: add one to this test"
        return values[name]
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", one, rule)


# Every field any POST route reads, filled with something acceptable.
WRITE_FORM = {"version": "1", "score_0": "5", "score_1": "5", "seat": "1", "target": "1",
              "code": "", "name_0": "Mallory", "name_1": "Eve", "me": "0", "from": "history",
              "bidder": "Zedekiah", "bid": "150", "points_A": "60"}


def write_form(sid: str, **extra) -> dict:
    return {"sid": sid, **WRITE_FORM, **extra}


@pytest.fixture
def table_b(new_phone):
    """Table B: Zedekiah (host, seat 0) and Yannick's free seat, with one round entered."""
    zed = new_phone("Zedekiah")
    b_id = zed.create_table(["Zedekiah", "Yannick"], me=0)
    assert zed.enter(b_id, {0: 3, 1: 4}).status_code == 200
    join_path = zed.join_path(b_id)
    return b_id, zed, join_path


def b_secrets(app, b_id: str, zed: Phone, join_path: str) -> set[str]:
    """What must never appear in an answer to a phone of another table."""
    code = db_rows(app.config["DATABASE"], "SELECT code FROM tables WHERE id = ?", [b_id])[0][0]
    return {"Zedekiah", "Yannick", code, join_path.rsplit("#", 1)[1]}


def assert_refused_403(response, leaks: set[str], where) -> None:
    assert response.status_code == 403, (where, response.status_code)
    assert response.mimetype != "text/event-stream", where
    body = response.get_data(as_text=True)
    for secret in leaks:
        assert secret not in body, (where, secret)
    said = alerts(body)
    assert said and len(said[0]) >= 20, where  # a plain sentence


# ---------------------------------------------------------------- one table's keys, another table

def test_a_phone_of_table_a_never_reads_or_changes_table_b(app, table, table_b, new_phone, db_path):
    b_id, zed, b_join = table_b
    leaks = b_secrets(app, b_id, zed, b_join)
    spectator = new_phone("spectator")
    assert spectator.join(table.join_path).status_code == 303
    # Ann again, with her one secret in an old-style cookie for B (phones from before the
    # one cookie held one per table, and the first request adopts them): it proves nothing.
    forger = table.host.clone("forger")
    forger.client.set_cookie(f"tc_{b_id}", table.host.cookie("tc"))
    # A phone holding a made-up old-style B cookie, and one with a made-up phone cookie.
    guesser = new_phone("guesser")
    guesser.client.set_cookie(f"tc_{b_id}", tokens.new_secret())
    inventor = new_phone("inventor")
    inventor.client.set_cookie("tc", tokens.new_secret())
    attackers = {"A's host": table.host, "A's player": table.bob, "A's spectator": spectator,
                 "A's secret as B's old cookie": forger, "made-up old B cookie": guesser,
                 "made-up phone cookie": inventor}
    before = snapshot(db_path)
    for who, phone in attackers.items():
        for rule in table_rules(app, "GET"):
            for hx in (False, True):
                url = fill(rule, table_id=b_id, seq="1") + "?since=0"
                r = phone.get(url, hx=hx)
                assert_refused_403(r, leaks, (who, "GET", rule, hx))
                r.close()
        for rule in table_rules(app, "POST"):
            for hx in (False, True):
                r = phone.post(fill(rule, table_id=b_id, seq="1"), write_form(f"steal-{who}-{hx}"), hx=hx)
                assert_refused_403(r, leaks, (who, "POST", rule, hx))
    assert snapshot(db_path) == before
    # Zedekiah's own phone still reads B (the refusals above were about the cookie).
    assert "Zedekiah" in text_of(zed.page(b_id))
    # And A's pages never show B's secrets either.
    for secret in leaks:
        assert secret not in table.host.page(table.id)


def test_a_join_token_or_code_only_ever_opens_its_own_table(app, table, table_b, db_path):
    b_id, zed, b_join = table_b
    b_cookie = zed.cookie("tc")
    b_rows = _rows_of(snapshot(db_path), b_id)
    a_code = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table.id])[0][0]
    # Zedekiah, seated at B, scans A's QR and types A's code: each opens A only.
    for how, response in (("QR", lambda: zed.join(table.join_path)),
                          ("lower-case QR", lambda: zed.join(table.join_path.lower())),
                          ("code", lambda: zed.post("/join", {"code": a_code.lower()}))):
        r = response()
        assert r.status_code == 303, how
        location = urlsplit(r.headers["Location"]).path
        assert location.startswith(f"/t/{table.id}"), (how, location)
        assert table.join_path.rsplit("#", 1)[1] not in r.headers["Location"]  # a clean URL
        assert b_id not in r.headers["Location"]
    # One new phone at A (a re-scan finds it again), a spectator; B untouched.
    # Zedekiah's one cookie stays what it was; at A it proves a new phone, a spectator.
    assert zed.cookie("tc") == b_cookie
    assert db_rows(db_path, "SELECT seat FROM phones WHERE secret_hash = ?",
                   [tokens.phone_hash(zed.secret(), table.id)]) == [(None,)]
    assert _rows_of(snapshot(db_path), b_id) == b_rows
    # The A cookie Zedekiah got opens A, and his B seat is still his.
    assert zed.get(f"/t/{table.id}").status_code == 200
    assert "You are Zedekiah" in text_of(zed.page(b_id))


def test_a_rejoin_token_of_a_never_seats_anyone_at_b(table, table_b, db_path):
    b_id, zed, _b_join = table_b
    r = table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "1"})
    assert r.status_code == 200
    rejoin = local_link(attr(r.get_data(as_text=True), "a#rejoin-url", "href"))
    token = rejoin.rsplit("#", 1)[1]
    b_rows = _rows_of(snapshot(db_path), b_id)
    before = snapshot(db_path)
    # Typed as B's join code, or put where B's token goes: nothing.
    assert zed.post("/join", {"code": token}).status_code == 400
    assert zed.post("/join", {"code": token[:6]}).status_code in (400, 404)
    assert snapshot(db_path) == before
    # Scanned by Zedekiah (B's host): he takes Bob's seat at A, and only at A.
    r = zed.join(rejoin)
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}"
    assert "You are Bob" in text_of(zed.page(table.id))
    assert "You are Zedekiah" in text_of(zed.page(b_id))
    assert _rows_of(snapshot(db_path), b_id) == b_rows
    # Used up: nobody can use it again, at A or anywhere.
    assert zed.join(rejoin).status_code == 404
    # And the other way round: B's rejoin token seats Ann at B without touching A.
    a_rows = _rows_of(snapshot(db_path), table.id)
    r = zed.post(f"/t/{b_id}/host/rejoin", {"seat": "1"})
    b_rejoin = local_link(attr(r.get_data(as_text=True), "a#rejoin-url", "href"))
    assert table.host.join(b_rejoin).status_code == 303
    assert "You are Yannick" in text_of(table.host.page(b_id))
    assert "You are Ann" in text_of(table.host.page(table.id))
    assert _rows_of(snapshot(db_path), table.id) == a_rows


def _rows_of(rows: dict, table_id: str) -> dict:
    """One table's rows in the snapshot (seats, phones, actions, changes and the table)."""
    column = {"tables": 0, "seats": 0, "phones": 1, "actions": 0, "changes": 1}
    return {name: [row for row in rows[name] if row[col] == table_id]
            for name, col in column.items()}


# ---------------------------------------------------------------- guessing join codes

@pytest.fixture
def limited(tmp_path):
    """An app that allows 5 join attempts a minute per address, with one table."""
    app = make_app(tmp_path, JOIN_RATE_LIMIT="5 per minute")
    host = Phone(app, "host")
    table_id = host.create_table(["Ann", "Bob"])
    db = app.config["DATABASE"]
    token, code = db_rows(db, "SELECT token, code FROM tables WHERE id = ?", [table_id])[0]
    return app, table_id, token, code


def _from(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def wrong_code(code: str, n: int) -> str:
    """A well-formed code that is not `code`."""
    letters = tokens.CODE_ALPHABET
    wrong = "".join(letters[(letters.index(c) + 1 + n) % len(letters)] for c in code)
    assert wrong != code
    return wrong


def test_guessing_codes_is_rate_limited_and_a_429_changes_nothing(limited):
    app, table_id, _token, code = limited
    db = app.config["DATABASE"]
    guesser = Phone(app, "guesser")
    guesser.csrf()
    for n in range(5):
        r = guesser.post("/join", {"code": wrong_code(code, n)}, **_from("10.0.0.66"))
        assert r.status_code == 404, r.status_code
    before = snapshot(db)
    # The sixth try within the minute is refused even when it is right, and changes nothing.
    for hx in (False, True):
        r = guesser.post("/join", {"code": code}, hx=hx, **_from("10.0.0.66"))
        assert r.status_code == 429
        assert "Too many tries in a short time" in text_of(r.get_data(as_text=True))
        assert r.headers.get("Retry-After")
        assert not any(c.startswith("tc=") for c in r.headers.getlist("Set-Cookie"))
        if hx:
            assert "<html" not in r.get_data(as_text=True)
    assert snapshot(db) == before
    # The limit counts per address: a player at the next table joins at once.
    player = Phone(app, "player")
    r = player.post("/join", {"code": code}, **_from("10.0.0.7"))
    assert r.status_code == 303 and f"/t/{table_id}" in r.headers["Location"]


def test_guessing_tokens_is_rate_limited_in_either_case(limited):
    app, table_id, token, _code = limited
    db = app.config["DATABASE"]
    guesser = Phone(app, "guesser")
    for n in range(5):  # a lower-case token doesn't get a budget of its own
        guess = tokens.new_token()
        assert guesser.join("/j#" + (guess.lower() if n % 2 else guess),
                            **_from("10.0.0.99")).status_code == 404
    # An older QR's URL (the token in the path) looks nothing up: it spends no budget.
    assert guesser.get("/J/" + tokens.new_token(), **_from("10.0.0.99")).status_code == 303
    before = snapshot(db)
    for link in ("/j#" + token, "/j#" + token.lower()):
        r = guesser.join(link, **_from("10.0.0.99"))
        assert r.status_code == 429
        assert "Too many tries" in text_of(r.get_data(as_text=True))
    assert snapshot(db) == before
    # Other addresses are not affected.
    assert Phone(app).join("/j#" + token, **_from("10.0.0.100")).status_code == 303


def test_the_join_limit_and_the_code_space_are_what_security_md_says(tmp_path):
    """docs/SECURITY.md computes guessing odds from these: keep them in step."""
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path),
                      "DATABASE": str(tmp_path / "t.db")})
    limit = app.config["JOIN_RATE_LIMIT"]
    assert limit == "20 per minute"
    alphabet, length = tokens.CODE_ALPHABET, tokens.CODE_LENGTH
    assert (len(alphabet), length) == (23, 6) and not set("ILO") & set(alphabet)
    assert all(len(tokens.new_code()) == 6 for _ in range(20))
    assert len(tokens.new_token()) == 32  # 20 random bytes (160 bits) in base32
    doc = (ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    for fact in (f"{len(alphabet) ** length:,}", "20 per minute", "160", "23 letters"):
        assert fact in doc, f"docs/SECURITY.md should state {fact!r}"


# ---------------------------------------------------------------- CSRF and cross-site writes

def _post_targets(app, table_id: str) -> list[str]:
    return [fill(rule, table_id=table_id, slug="scorepad", event_id=NO_EVENT, table_no="1",
                 seq="1", group_id=NO_EVENT, n="2", player_id="1",
                 game_id="1")
            for rule in post_rules(app)]


def test_every_post_without_a_valid_csrf_token_is_400_and_changes_nothing(app, table, db_path):
    host, bob = table.host, table.bob
    before = snapshot(db_path)
    for url in _post_targets(app, table.id):
        attempts = {
            "no token": dict(data=write_form("s1"), csrf=False),
            "no token, htmx": dict(data=write_form("s2"), csrf=False, hx=True),
            "forged header": dict(data=write_form("s3"), csrf=False, hx=True,
                                  headers={"X-CSRFToken": "forged"}),
            "another phone's token": dict(data=write_form("s4", csrf_token=bob.csrf()),
                                          csrf=False),
        }
        for what, kw in attempts.items():
            r = host.post(url, **kw)
            assert r.status_code == 400, (url, what, r.status_code)
            assert "nothing was saved" in text_of(r.get_data(as_text=True))
        # JSON instead of a form: no form token, so refused too.
        r = host.client.post(url, json={**write_form("s5"), "csrf_token": host.csrf()})
        assert r.status_code == 400, (url, "json")
    assert snapshot(db_path) == before


@pytest.mark.parametrize("headers", CROSS_SITE_HEADERS, ids=lambda h: ",".join(
    f"{k}={v}" for k, v in h.items()))
def test_cross_site_posts_are_403_even_with_a_valid_token(app, table, db_path, headers):
    before = snapshot(db_path)
    for url in _post_targets(app, table.id):
        for hx in (False, True):
            r = table.host.post(url, write_form(f"x-{hx}"), hx=hx, headers=headers)
            assert r.status_code == 403, (url, hx, r.status_code)
            assert "came from another website" in text_of(r.get_data(as_text=True))
    assert snapshot(db_path) == before


@pytest.mark.parametrize("headers", SAME_SITE_HEADERS, ids=lambda h: ",".join(
    f"{k}={v}" for k, v in h.items()) or "none")
def test_same_origin_and_null_origin_writes_go_through(table, new_phone, db_path, headers):
    host = table.host
    form = host.entry_form(table.id)
    r = host.post(f"/t/{table.id}/actions",
                  {"sid": form["sid"], "version": form["version"], "score_0": "4",
                   "score_1": "0", "score_2": "0"},
                  hx=True, headers=headers)
    assert r.status_code == 200, text_of(r.get_data(as_text=True))[:300]
    code = db_rows(db_path, "SELECT code FROM tables WHERE id = ?", [table.id])[0][0]
    r = new_phone().post("/join", {"code": code}, headers=headers)
    assert r.status_code == 303
    r = host.post("/new/scorepad", {"name_0": "Ann", "name_1": "Bob", "me": "0"}, headers=headers)
    assert r.status_code == 303


# ---------------------------------------------------------------- security headers everywhere

def check_headers(response, where) -> None:
    h = response.headers
    csp = h.get("Content-Security-Policy", "")
    for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
                      "object-src 'none'", "form-action 'self'"):
        assert directive in csp, (where, directive)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, where
    assert h.get("X-Content-Type-Options") == "nosniff", where
    assert h.get("Referrer-Policy") == "no-referrer", where
    assert h.get("X-Frame-Options") == "DENY", where
    assert h.get("Permissions-Policy"), where
    assert h.get("Cross-Origin-Opener-Policy") == "same-origin", where


def check_static_headers(response, where) -> None:
    """A file from /static: nosniff, and none of the headers that act only on a document (a
    stylesheet, script or icon ignores them; docs/SECURITY.md), but for an SVG's
    CSP that allows nothing (an SVG opened by itself is a document)."""
    h = response.headers
    assert h.get("X-Content-Type-Options") == "nosniff", where
    for name in ("X-Frame-Options", "Referrer-Policy", "Permissions-Policy",
                 "Cross-Origin-Opener-Policy"):
        assert name not in h, (where, name)
    svg = response.mimetype == "image/svg+xml"
    assert h.get("Content-Security-Policy") == ("default-src 'none'" if svg else None), where


def test_security_headers_on_every_route_and_every_kind_of_answer(tmp_path):
    app = make_app(tmp_path, JOIN_RATE_LIMIT="3 per minute")

    @app.get("/__boom")  # a route that fails, to see a 500's headers (this test app only)
    def _boom():
        raise RuntimeError("boom")

    host, bob, stranger = Phone(app, "host"), Phone(app, "bob"), Phone(app, "stranger")
    table_id = host.create_table(["Ann", "Bob", "Cy"], me=0, target=50)
    join_path = host.join_path(table_id)
    assert bob.join(join_path).status_code == 303 and bob.claim(table_id, 1).status_code == 303
    version = attr(host.page(table_id), "[data-version]", "data-version")
    values = dict(table_id=table_id, slug="scorepad", token=join_path.rsplit("#", 1)[1],
                  table_no="1", seq="1",
                  event_id=NO_EVENT, group_id=NO_EVENT, n="2", player_id="1", game_id="1",
                  filename="css/app.css")
    seen: dict[str, set] = {}

    def record(response, where, endpoint: str = "") -> str:
        # Document headers on documents; a file from /static (not its 404 page) has nosniff.
        if endpoint == "static" and response.status_code < 400:
            check_static_headers(response, where)
        else:
            check_headers(response, where)
        body = "" if response.mimetype == "text/event-stream" else response.get_data(as_text=True)
        seen.setdefault(endpoint, set()).add(response.status_code)
        response.close()
        return body

    # The answers a route gives only in some situations...
    special = {
        "204 play": (204, lambda: host.get(f"/t/{table_id}/play?since={version}", hx=True)),
        "303 join": (303, lambda: Phone(app).join(join_path, **_from("10.0.2.1"))),
        "303 claim": (303, lambda: host.claim(table_id, 2)),
        "308 tidy url": (308, lambda: host.get(f"/t//{table_id}")),
        "400 csrf": (400, lambda: host.post(f"/t/{table_id}/actions", {"sid": "x"}, csrf=False)),
        "403 cross-site": (403, lambda: host.post(f"/t/{table_id}/seats", {"seat": "1"},
                                                  headers={"Origin": EVIL})),
        "403 fragment": (403, lambda: stranger.get(f"/t/{table_id}/play", hx=True)),
        "404 route": (404, lambda: host.get("/nowhere")),
        "404 code": (404, lambda: stranger.post("/join", {"code": "ZZZZZZ"})),
        "404 static": (404, lambda: host.get("/static/nope.css")),
        "405": (405, lambda: host.client.delete(f"/t/{table_id}")),
        "409 seat taken": (409, lambda: host.claim(table_id, 1)),
        "413": (413, lambda: host.post("/new/scorepad", {"name_0": "x" * 300_000,
                                                          "name_1": "y" * 300_000})),
        "422": (422, lambda: host.post("/new/scorepad", {"name_0": "Ann"})),
        "500": (500, lambda: host.client.get("/__boom")),
        "event stream": (200, lambda: host.get(f"/t/{table_id}/stream")),
        "static js": (200, lambda: host.get("/static/js/app.js")),
        "static icon": (200, lambda: host.get("/static/icons/icon.svg")),
        "HEAD static": (200, lambda: host.client.head("/static/css/app.css")),
    }
    for where, (status, send) in special.items():
        r = send()
        assert r.status_code == status, (where, r.status_code)
        if where == "event stream":
            assert r.mimetype == "text/event-stream"
        body = record(r, where, "static" if "static" in where and status < 400 else "")
        if where == "500":
            assert "Something went wrong on the server" in text_of(body)
            assert "boom" not in body and "Traceback" not in body and "RuntimeError" not in body
    # ...and every rule of the url_map, every method it takes, as its phone and as a
    # stranger (from their own addresses, so the join limit is not spent here).
    for rule in app.url_map.iter_rules():
        path = fill(rule.rule, **values)
        for method in sorted(rule.methods):
            for who, address in ((host, "10.0.1.1"), (stranger, "10.0.1.2")):
                where = (rule.rule, method, who.name)
                if method == "POST":
                    r = who.post(path, write_form(f"h-{rule.endpoint}-{who.name}"),
                                 **_from(address))
                else:
                    r = who.client.open(path, method=method, **_from(address))
                assert r.status_code < 500 or rule.endpoint == "_boom", where
                record(r, where, rule.endpoint)
    missing = {r.endpoint for r in app.url_map.iter_rules()} - set(seen)
    assert not missing, missing
    for n in range(4):
        r = stranger.join("/j#" + tokens.new_token(), **_from("10.0.3.1"))
        assert r.status_code == (429 if n == 3 else 404)
        record(r, f"join guess {n}")


# ---------------------------------------------------------------- secrets at rest

def test_seat_secrets_are_kept_only_hashed(table, new_phone, db_path):
    phones = [table.host, table.bob, new_phone("spectator")]
    phones[2].join(table.join_path)
    stored = repr(snapshot(db_path))
    for phone in phones:
        key, secret = phone.cookie("tc"), phone.secret()
        assert key and len(key) >= 40  # 32 random bytes, url-safe base64
        assert secret and key != secret
        assert key not in stored and secret not in stored
        assert tokens.phone_hash(secret, table.id) in stored
