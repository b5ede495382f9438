"""Security headers on every response, escaping of player names, join rate limiting."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from helpers import attr, attrs, form_block, inputs, parse, select, text_of
from web_helpers import Phone, count, make_app

XSS = "<img src=x onerror=alert(1)>"   # 28 characters: longer than a name may be
XSS_SHORT = "<img src=x onerror=1>"    # 21 characters: a valid name
SCRIPT = "<script>x</script>"


def check_headers(response, where: str) -> None:
    h = response.headers
    csp = h.get("Content-Security-Policy", "")
    assert "default-src 'self'" in csp, where
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp, where
    assert h.get("X-Content-Type-Options") == "nosniff", where
    assert h.get("Referrer-Policy") == "no-referrer", where


# Document headers on documents, nosniff everywhere (docs/SECURITY.md): a stylesheet,
# a script or an icon ignores the CSP, frame, referrer, permissions and opener headers, so a
# file from /static carries nosniff only, and an SVG (a document if opened by itself) a CSP
# that allows nothing. A 404 from /static is an HTML page, with every header.
DOCUMENT_ONLY = ("X-Frame-Options", "Referrer-Policy", "Permissions-Policy",
                 "Cross-Origin-Opener-Policy")


def check_static_headers(response, where: str) -> None:
    h = response.headers
    assert h.get("X-Content-Type-Options") == "nosniff", where
    for name in DOCUMENT_ONLY:
        assert name not in h, (where, name)
    if response.mimetype == "image/svg+xml":
        assert h.get("Content-Security-Policy") == "default-src 'none'", where
    else:
        assert "Content-Security-Policy" not in h, where


def test_security_headers_on_every_kind_of_response(table, new_phone):
    host, stranger = table.host, new_phone("stranger")
    page = host.page(table.id)
    version = attr(page, "[data-version]", "data-version")
    # Static URLs carry a fingerprint (?v=..., web/assets.py). (The table page carries its
    # stylesheet inline; the history page links it.)
    css = next(h for h in attrs(host.get(f"/t/{table.id}/history").get_data(as_text=True),
                                "[href]", "href")
               if h.startswith("/static/") and urlsplit(h).path.endswith(".css"))
    js = next(s for s in attrs(page, "[src]", "src")
              if s.startswith("/static/") and urlsplit(s).path.endswith(".js"))
    responses = {
        "start page": host.get("/"),
        "new table form": host.get("/new/scorepad"),
        "table page": host.get(f"/t/{table.id}"),
        "play fragment": host.get(f"/t/{table.id}", hx=True),
        "sheet fragment": host.get(f"/t/{table.id}/play?since=0", hx=True),
        "sheet 204": host.get(f"/t/{table.id}/play?since={version}", hx=True),
        "history": host.get(f"/t/{table.id}/history"),
        "seats": host.get(f"/t/{table.id}/seats"),
        "join page": new_phone().get("/j"),
        "join redirect": new_phone().join(table.join_path),
        "403 page": stranger.get(f"/t/{table.id}"),
        "403 fragment": stranger.get(f"/t/{table.id}", hx=True),
        "404 page": host.get("/t/nope"),
        "404 static": host.get("/static/nope.css"),
        "405": host.client.put("/"),
        "400 csrf": host.post(f"/t/{table.id}/actions", {"sid": "x"}, csrf=False),
        "409 seat taken": host.claim(table.id, 1),
        "422": host.post("/new/scorepad", {"name_0": "A"}),
        "static css": host.get(css),
        "static js": host.get(js),
        "manifest": host.get("/manifest.webmanifest"),
        "icon": host.get("/static/icons/icon.svg"),
    }
    expected = {"sheet 204": 204, "join redirect": 303, "403 page": 403, "403 fragment": 403,
                "404 page": 404, "404 static": 404, "405": 405, "400 csrf": 400,
                "409 seat taken": 409, "422": 422}
    static = ("static css", "static js", "icon")
    for where, r in responses.items():
        assert r.status_code == expected.get(where, 200), (where, r.status_code)
        (check_static_headers if where in static else check_headers)(r, where)
    for where in static:
        responses[where].close()
    assert responses["manifest"].mimetype == "application/manifest+json"
    # Pages carry no inline script: everything the CSP allows comes from /static.
    for where in ("start page", "table page", "history", "seats"):
        html = responses[where].get_data(as_text=True)
        for script in select(html, "script"):
            assert script.get("src", "").startswith("/static/"), (where, script.start_tag)
            assert not script.text, where
        handlers = [(node.start_tag, name) for node in parse(html).elements()
                    for name in node.attrs if re.fullmatch(r"on[a-z]+", name)]
        assert not handlers, (where, handlers)  # no inline event handlers


def test_player_names_are_escaped_everywhere(new_phone, db_path):
    ann = new_phone("Ann")
    # A refused form echoes the attack escaped (here: refused for a duplicate name).
    r = ann.post("/new/scorepad", {"name_0": XSS, "name_1": XSS, "me": "0"})
    assert r.status_code == 422
    body = r.get_data(as_text=True)
    assert XSS not in body and "&lt;img src=x onerror=alert(1)&gt;" in body
    assert count(db_path, "tables") == 0
    # The attack is a valid name: it plays, as text.
    xss_table = ann.create_table(["Ann", XSS], me=0)
    assert XSS not in ann.get(f"/t/{xss_table}").get_data(as_text=True)
    # More attacks become plain names too.
    table_id = ann.create_table(["Ann", XSS_SHORT, SCRIPT], me=0)
    join = ann.join_path(table_id)
    evil = new_phone("evil")
    evil.join(join)
    evil.claim(table_id, 1)
    ann.enter(table_id, {0: 1, 1: 2, 2: 3})
    evil.enter(table_id, {1: 4})
    pages = {
        "table": ann.get(f"/t/{table_id}"),
        "fragment": ann.get(f"/t/{table_id}", hx=True),
        "evil's table": evil.get(f"/t/{table_id}"),
        "history": ann.get(f"/t/{table_id}/history"),
        "seats": evil.get(f"/t/{table_id}/seats"),
        "rejoin": ann.post(f"/t/{table_id}/host/rejoin", {"seat": "1"}),
        "claim conflict": new_phone().claim(table_id, 1),  # no cookie: 403, no names
    }
    for where, r in pages.items():
        html = r.get_data(as_text=True)
        assert XSS_SHORT not in html and SCRIPT not in html, where
        assert "onerror=1>" not in html, where
    assert "&lt;img src=x onerror=1&gt;" in pages["table"].get_data(as_text=True)
    assert "You are <img src=x onerror=1>" in text_of(pages["evil's table"].get_data(as_text=True))
    history = pages["history"].get_data(as_text=True)
    assert "&lt;script&gt;" in history and "&lt;img src=x onerror=1&gt;" in history
    # A conflict message naming the player is escaped too.
    form = ann.entry_form(table_id)
    evil.enter(table_id, {1: 1})
    r = ann.enter(table_id, {0: 1}, form=form)
    assert r.status_code == 409
    assert "&lt;img src=x onerror=1&gt; saved an entry" in r.get_data(as_text=True)
    # Undo-by message.
    seq = int(re.search(r"#(\d+) by ", evil.page(table_id)).group(1))
    undo_sid = inputs(form_block(evil.page(table_id), 'class="undo"'))["sid"]
    evil.undo(table_id, seq, sid=undo_sid)
    r = ann.undo(table_id, seq, sid="again", from_history=True)
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert "already undone by &lt;img src=x onerror=1&gt;" in html and XSS_SHORT not in html


def test_typed_values_and_codes_are_escaped_when_echoed(table, new_phone):
    r = table.bob.enter(table.id, {1: '"><script>x</script>'})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    r = new_phone().post("/join", {"code": '"><b>xx'})
    assert 400 <= r.status_code < 500
    assert "<b>xx" not in r.get_data(as_text=True)


def test_join_attempts_are_rate_limited(tmp_path):
    app = make_app(tmp_path, JOIN_RATE_LIMIT="3 per minute")
    guesser = Phone(app, "guesser")
    guesser.csrf()
    statuses = [guesser.post("/join", {"code": code}).status_code
                for code in ("ZZZZZZ", "YYYYYY", "XXXXXX")]
    assert all(s in (400, 404) for s in statuses), statuses
    r = guesser.post("/join", {"code": "WWWWWW"})
    assert r.status_code == 429
    assert "Too many tries in a short time" in text_of(r.get_data(as_text=True))
    check_headers(r, "429")
    # The QR route is limited as well (its own budget).
    for _ in range(3):
        assert guesser.join("/j#" + "A" * 32).status_code == 404
    r = guesser.join("/j#" + "B" * 32)
    assert r.status_code == 429
    assert "Too many tries" in text_of(r.get_data(as_text=True))
    # Other pages stay usable.
    assert guesser.get("/").status_code == 200


@pytest.mark.parametrize("path", ["/", "/new", "/new/scorepad"])
def test_forms_carry_a_csrf_token_and_pages_no_store(app, path):
    r = Phone(app).get(path)
    assert r.status_code == 200
    assert r.headers.get("Cache-Control") == "no-store"
    if path != "/new":
        assert any(attrs(r.get_data(as_text=True), '[name="csrf_token"]', "value"))
        # The session cookie that binds the CSRF token is HttpOnly and SameSite=Lax.
        session = [c for c in r.headers.getlist("Set-Cookie") if c.startswith("session=")]
        assert session and "HttpOnly" in session[0] and "SameSite=Lax" in session[0]
