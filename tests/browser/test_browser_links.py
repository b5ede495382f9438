"""The QR's link carries its token in the fragment (/j#TOKEN): a browser never sends a
fragment, so no request line (and no access log on the way) holds the token. The /j page's
script (static/js/join.js) POSTs it and clears it from the address bar. Runs against the
real server in headless Chromium."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def on_the_wire(url: str) -> str:
    """What a request line carries of `url`: never its fragment."""
    return urlsplit(url)._replace(fragment="").geturl()


def test_the_qr_link_opens_the_table_in_one_tap_without_its_token_in_a_url(phones, ui):
    a, b = phones("A"), phones("B")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    table_path = urlsplit(a.page.url).path
    parts = urlsplit(join_url)
    assert parts.path == "/j" and re.fullmatch(r"[A-Z2-7]{32}", parts.fragment), join_url
    token = parts.fragment
    requests = []
    b.page.on("request", lambda r: requests.append((r.method, r.url, r.post_data or "")))

    # Phone B opens the very URL phone A's QR code shows: one tap, B is at the seats page.
    b.page.goto(join_url)
    expect(b.page.get_by_role("heading", name="Who are you?")).to_be_visible()
    assert urlsplit(b.page.url).path == table_path + "/seats"
    assert "#" not in b.page.url and token.casefold() not in b.page.url.casefold()
    # No request line carried the token; one POST to /j carried it in its body.
    lines = [on_the_wire(url) for _method, url, _body in requests]
    assert not [line for line in lines if token.casefold() in line.casefold()], lines
    posts = [(url, body) for method, url, body in requests if method == "POST"]
    assert len(posts) == 1 and urlsplit(posts[0][0]).path == "/j", posts
    assert f"token={token}" in posts[0][1]
    b.page.get_by_role("button", name=re.compile("^Bob ")).click()
    expect(b.page.locator("#me-bar")).to_contain_text("You are Bob")

    # The /j page posted before it had finished loading, so the table's page took its
    # place in the history: "back" leaves the table instead of opening /j again.
    b.page.go_back()
    b.page.go_back()
    assert urlsplit(b.page.url).path != "/j" and token not in b.page.url
    assert len([1 for method, _u, _b in requests if method == "POST"]) == 2   # no new join

def test_without_a_script_the_page_offers_the_typed_code(phones, ui):
    a = phones("A")
    join_url = ui.create_table(a.page, ["Ann", "Bob"])
    c = phones("C", java_script_enabled=False).page
    c.goto(join_url)
    expect(c.locator("#no-token")).to_contain_text("6-letter code")
    expect(c.locator("#code")).to_be_visible()
    expect(c.locator("#token-box")).to_be_hidden()
    assert urlsplit(c.url).path == "/j"
