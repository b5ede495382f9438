"""No secret in a URL a log can keep: a table's QR (and a rejoin code) is ``/j#<TOKEN>`` and a
director link ``/e/<id>/director#<TOKEN>``. A browser never sends a fragment, so the token is
in no request line, and so in no proxy's or server's access log; the page's script POSTs it
(static/js/join.js). The older links, with the token in the path, open nothing any more: a
URL read from a log must not work when replayed. The script's end of it (one tap, the
address bar cleared) is tests/browser/test_browser_links.py."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import attr, attrs, parse, select, text_of
from test_web_director_devices import devices, link_path
from test_web_events import create_event, seat_round, token_of
from web_helpers import Phone, count, db_rows, local_link, snapshot

from companion.tables import tokens
from companion.web.qr import qr_url, shown_url

URL_ATTRIBUTES = ("href", "src", "action", "hx-get", "hx-post", "data-stream", "content")


def token_in_a_request_line(html: str, token: str) -> list[str]:
    """Every URL in the page's attributes that would send `token` in a request line (in
    its path or query; a fragment is never sent)."""
    found = []
    for node in parse(html).elements():
        for name in URL_ATTRIBUTES:
            value = node.attrs.get(name) or ""
            sent = value.split("#", 1)[0]
            if token.casefold() in sent.casefold():
                found.append(f"{node.tag} {name}={value}")
    return found


def rejoin_link(host: Phone, table_id: str, seat: int) -> str:
    r = host.post(f"/t/{table_id}/host/rejoin", {"seat": str(seat)})
    assert r.status_code == 200, r.status_code
    return local_link(attr(r.get_data(as_text=True), "a#rejoin-url", "href"))


# ---------------------------------------------------------------- what the pages show

def test_the_table_and_rejoin_links_carry_their_token_in_the_fragment(table, db_path):
    token = token_of(db_path, table.id)
    page = table.host.page(table.id)
    shown = attr(page, "a#join-url", "href")
    parts = urlsplit(shown)
    assert parts.path == "/j" and parts.fragment == token and not parts.query, shown
    assert re.fullmatch(r"[A-Z2-7]{32}", token)       # QR alphanumeric mode for the token
    # The link as a phone shows it: scheme and host in lower case (the QR and the href carry
    # them in upper case, for the QR's alphanumeric mode), the token as it is.
    assert text_of(select(page, "a#join-url")[0]) == shown_url(shown)
    assert 'class="qr"' in page                                # the QR code is drawn
    assert token_in_a_request_line(page, token) == []
    # A rejoin code: the same, with its one-time token.
    rejoin = rejoin_link(table.host, table.id, 2)
    path, _, one_time = rejoin.partition("#")
    assert path == "/j" and re.fullmatch(r"[A-Z2-7]{32}", one_time) and one_time != token


def test_the_link_under_a_qr_is_printed_as_a_phone_shows_it(table):
    """The QR carries "HTTP://HOST/j#TOKEN" (upper case: alphanumeric mode); the link printed
    under it, for a person to read or type, is "http://host/j#TOKEN", the same address."""
    page = table.host.page(table.id)
    href = attr(page, "a#join-url", "href")
    printed = text_of(select(page, "a#join-url")[0])
    scheme, _, rest = printed.partition("://")
    host, _, path = rest.partition("/")
    assert scheme == "http" and host == host.lower() and host, printed
    assert printed.casefold() == href.casefold() and printed != href
    assert urlsplit(printed).fragment == urlsplit(href).fragment == token_of_link(href)
    # The rejoin code's page prints its link the same way.
    r = table.host.post(f"/t/{table.id}/host/rejoin", {"seat": "2"})
    rejoin = r.get_data(as_text=True)
    link = attr(rejoin, "a#rejoin-url", "href")
    assert text_of(select(rejoin, "a#rejoin-url")[0]) == shown_url(link)
    assert shown_url(link).startswith("http://") and link.startswith("HTTP://")


def token_of_link(link: str) -> str:
    return link.rsplit("#", 1)[1]


@pytest.mark.parametrize("base, path, printed", [
    ("http://192.168.1.23:8000", "/j#ABC234", "http://192.168.1.23:8000/j#ABC234"),
    ("https://Club.Example/Companion", "/j#ABC234", "https://club.example/Companion/j#ABC234"),
    ("http://[fe80::1]:8000/", "/j#ABC234", "http://[fe80::1]:8000/j#ABC234"),
])
def test_shown_url_undoes_the_qr_upper_case_only_where_case_does_not_matter(base, path, printed):
    assert shown_url(qr_url(base, path)) == printed
    assert shown_url("/j#ABC234") == "/j#ABC234"          # not absolute: left alone


def test_the_qr_of_a_join_link_stays_compact():
    """The token is upper-case base32 after "/j#": the qrcode package keeps it in
    alphanumeric mode, so a LAN address with a port still fits a version 4 code (33
    modules; the old "/J/<TOKEN>" was version 3)."""
    import qrcode
    link = "HTTP://192.168.178.123:8000/j#" + tokens.new_token()
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(link)
    code.make(fit=True)
    assert code.version <= 4, code.version


def test_the_j_page_posts_the_fragment_with_a_static_script_and_offers_the_code(app):
    phone = Phone(app, "phone")
    for path in ("/j", "/J"):
        r = phone.get(path)
        assert r.status_code == 200 and r.mimetype == "text/html"
        page = r.get_data(as_text=True)
        form = select(page, "form[data-fragment-token]")
        assert len(form) == 1 and form[0].attrs["action"] == "/j"
        assert form[0].attrs["method"] == "post"
        assert attrs(form[0], 'input[name="token"]', "value") == [""]
        assert attrs(form[0], 'input[name="csrf_token"]', "value")[0]
        # No inline script (strict CSP): the code is static/js/join.js.
        scripts = select(page, "script")
        assert scripts and all(s.attrs.get("src") for s in scripts)
        assert any("/js/join.js" in s.attrs["src"] for s in scripts)
        # Without the script (or a fragment): the box for the typed code, and why.
        assert attr(page, "#token-box", "hidden") is not None
        assert "6-letter code" in text_of(select(page, "#no-token")[0])
        assert attr(page, "#no-token form", "action") == "/join"
    assert phone.cookie("tc") is None                  # reading the page remembers nothing
    js = phone.get("/static/js/join.js")
    assert js.status_code == 200
    body = js.get_data(as_text=True)
    assert "location.hash" in body and "replaceState" in body and "requestSubmit" in body


# ---------------------------------------------------------------- POST /j joins

def test_posting_the_token_joins_and_a_wrong_one_is_a_plain_404(table, new_phone, db_path):
    token = token_of(db_path, table.id)
    before = snapshot(db_path)
    stranger = new_phone("stranger")
    for sent in (tokens.new_token(), "", "x" * 65, token[:-1]):
        r = stranger.post("/j", {"token": sent})
        assert r.status_code == 404, sent
        assert "QR code" in text_of(r.get_data(as_text=True))
    assert stranger.post("/j", {"token": token}, csrf=False).status_code == 400
    assert snapshot(db_path) == before and stranger.cookie("tc") is None
    cy = new_phone("Cy")
    r = cy.post("/j", {"token": token.lower()})        # a scanner that lower-cases: fine
    assert r.status_code == 303
    assert urlsplit(r.headers["Location"]).path == f"/t/{table.id}/seats"
    assert token not in r.headers["Location"]
    assert count(db_path, "phones") == len(before["phones"]) + 1
    assert cy.claim(table.id, 2).status_code == 303
    # A rejoin code seats its phone at once, and once.
    rejoin = rejoin_link(table.host, table.id, 1)
    bob2 = new_phone("Bob's new phone")
    r = bob2.join(rejoin)
    assert r.status_code == 303 and urlsplit(r.headers["Location"]).path == f"/t/{table.id}"
    assert "You are Bob" in text_of(bob2.page(table.id))
    assert new_phone("late").join(rejoin).status_code == 404


# ---------------------------------------------------------------- the older links

@pytest.mark.parametrize("spelling", ["/J/", "/j/"])
def test_an_older_link_with_the_token_in_its_path_joins_nothing(table, new_phone, db_path,
                                                                 spelling):
    token = token_of(db_path, table.id)
    rejoin = rejoin_link(table.host, table.id, 2).rsplit("#", 1)[1]
    before = snapshot(db_path)
    for replayed in (token, token.lower(), rejoin):
        reader = new_phone("log reader")
        r = reader.get(spelling + replayed)
        assert r.status_code == 303, replayed
        location = urlsplit(r.headers["Location"])
        assert location.path == "/j" and parse_qs(location.query) == {"old": ["1"]}
        assert replayed.casefold() not in r.headers["Location"].casefold()
        assert reader.cookie("tc") is None
        page = reader.get(r.headers["Location"]).get_data(as_text=True)
        assert "from an older QR code" in text_of(select(page, "#old-link")[0])
        assert token_in_a_request_line(page, replayed) == []
    # No phone row, no seat, the rejoin code unused.
    assert snapshot(db_path) == before
    assert db_rows(db_path, "SELECT COUNT(*) FROM seats WHERE rejoin_token = ?",
                   [rejoin]) == [(1,)]


# ---------------------------------------------------------------- the director link

def test_the_director_link_carries_its_token_in_the_fragment(new_phone, db_path):
    director = new_phone("Director")
    event_id = create_event(director)
    seat_round(director, event_id)
    r = director.post(f"/e/{event_id}/director-link")
    assert r.status_code == 303
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    shown = attr(page, "a#director-url", "href")
    parts = urlsplit(shown)
    assert parts.path == f"/e/{event_id}/director" and not parts.query, shown
    token = parts.fragment
    assert re.fullmatch(r"[A-Z2-7]{32}", token)
    assert "QR code of the director" in page
    assert token_in_a_request_line(page, token) == []
    # The room's "Open table" buttons POST the table's token: no table token in a URL.
    table_tokens = [t for (t,) in db_rows(db_path, "SELECT token FROM tables WHERE event_id"
                                                   " = ?", [event_id])]
    assert table_tokens and all(token_in_a_request_line(page, t) == [] for t in table_tokens)
    opens = select(page, "form.open-table")
    assert len(opens) == len(table_tokens) and all(f.attrs["action"] == "/j" for f in opens)
    assert sorted(attrs(page, 'form.open-table input[name="token"]', "value")) == \
        sorted(table_tokens)

    # The link's page: a form that posts the fragment's token to the same path.
    helper = new_phone("helper")
    r = helper.get(parts.path)
    assert r.status_code == 200
    form = select(r.get_data(as_text=True), "form[data-fragment-token]")
    assert form and form[0].attrs["action"] == parts.path
    assert helper.cookie("tc") is None and len(devices(db_path, event_id)) == 1

    # The older form of the link (the token in the path) makes no director and leaves the
    # link unused; the page says to ask for a new one.
    r = helper.get(f"{parts.path}/{token}")
    assert r.status_code == 303 and token not in r.headers["Location"]
    old = helper.get(r.headers["Location"]).get_data(as_text=True)
    assert "no longer works" in text_of(select(old, "#old-link")[0])
    assert helper.get(f"/e/{event_id}").status_code == 403
    assert len(devices(db_path, event_id)) == 1

    # Posting the token (what the page's script does) makes this browser a director, once.
    r = helper.post(parts.path, {"token": token})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/e/{event_id}")
    assert helper.get(f"/e/{event_id}").status_code == 200
    assert len(devices(db_path, event_id)) == 2
    late = new_phone("late")
    r = late.post(parts.path, {"token": token})
    assert r.status_code == 404 and "used, old or wrong" in text_of(r.get_data(as_text=True))
    assert late.post(parts.path, {"token": "A" * 65}).status_code == 404


def test_the_director_revokes_the_device_a_link_made(new_phone, db_path):
    """A link once shared can't be taken back, but what it made can: the dashboard lists
    the device that opened it, and revoking it locks it out at once."""
    director = new_phone("Director")
    event_id = create_event(director)
    helper = new_phone("helper")
    assert helper.join(link_path(director, event_id)).status_code == 303
    assert helper.get(f"/e/{event_id}").status_code == 200
    page = director.get(f"/e/{event_id}").get_data(as_text=True)
    ids = attrs(page, '.revoke-device input[name="device"]', "value")
    mine = attr(page, ".director-device.mine", "id").removeprefix("device-")
    (theirs,) = [d for d in ids if d != mine]
    r = director.post(f"/e/{event_id}/director-devices", {"action": "revoke", "device": theirs})
    assert r.status_code == 303
    assert helper.get(f"/e/{event_id}").status_code == 403
