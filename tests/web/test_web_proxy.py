"""The app behind a reverse proxy (nginx, Caddy): TRUSTED_PROXIES trusts exactly that many
hops of X-Forwarded-For/-Proto/-Host/-Prefix and ignores them at 0; the same-origin check
accepts the public URL's origin; cookies are Secure on https and scoped to a path prefix;
HSTS on https when the public URL is https; QR codes carry the address the proxy reports;
under a path prefix no URL leaves it."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from helpers import attr, inputs, links, parse, select, text_of
from web_helpers import Phone, count, db_rows, make_app

from companion import create_app
from companion.web import streams

#: The proxy's own address: every request reaches the app from it.
PROXY = "10.77.0.1"
#: What the proxy talks to (the backend, bound to loopback).
BACKEND = "http://127.0.0.1:8000"
PUBLIC = "https://club.example"
PREFIX = "/companion"


class ProxiedPhone(Phone):
    """A browser at https://club.example/companion/ whose requests come through one proxy:
    the connection is the proxy's, the phone's address, scheme, host and prefix arrive as
    X-Forwarded-* headers (nginx strips the prefix from the path it passes on)."""

    def __init__(self, app, name: str, address: str, *, prefix: str = PREFIX,
                 proto: str = "https", host: str = "club.example"):
        super().__init__(app, name)
        self.prefix = prefix
        self.client.environ_base.update({
            "REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": address,
            "HTTP_X_FORWARDED_PROTO": proto, "HTTP_X_FORWARDED_HOST": host,
            "HTTP_X_FORWARDED_PREFIX": prefix})

    # The test client keeps cookies by the URL it requests: the browser's path, prefix and all.
    def get(self, url: str, **kw):
        kw.setdefault("base_url", BACKEND + self.prefix)
        return super().get(url, **kw)

    def post(self, url: str, data: dict | None = None, **kw):
        kw.setdefault("base_url", BACKEND + self.prefix)
        return super().post(url, data, **kw)

    def create_table(self, names: list[str], me: int = 0, **settings) -> str:
        data = {f"name_{i}": n for i, n in enumerate(names)}
        data.update(me=str(me), **{k: str(v) for k, v in settings.items()})
        r = self.post("/new/scorepad", data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        match = re.fullmatch(re.escape(self.prefix) + r"/t/([\w-]+)", r.headers["Location"])
        assert match, r.headers["Location"]
        return match.group(1)


def set_cookies(response) -> dict[str, str]:
    """name -> the whole Set-Cookie line, of every cookie the response sets."""
    return {line.split("=", 1)[0]: line for line in response.headers.getlist("Set-Cookie")}


def cookie_attrs(line: str) -> dict[str, str]:
    """A Set-Cookie line's attributes, lower-case names (Secure -> "")."""
    parts = [p.strip() for p in line.split(";")[1:]]
    return {k.lower(): v for k, _, v in (p.partition("=") for p in parts)}


# ---------------------------------------------------------------- the setting

@pytest.mark.parametrize("env, expected", [(None, 0), ("", 0), ("0", 0), ("1", 1), (" 2 ", 2)])
def test_trusted_proxies_comes_from_the_environment(tmp_path, monkeypatch, env, expected):
    if env is None:
        monkeypatch.delenv("COMPANION_TRUSTED_PROXIES", raising=False)
    else:
        monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", env)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path),
                      "DATABASE": str(tmp_path / "p.db")})
    assert app.config["TRUSTED_PROXIES"] == expected


@pytest.mark.parametrize("bad", ["-1", "1.5", "yes", -1, 1.5, True, "１x"])
def test_a_bad_trusted_proxies_stops_the_start_in_plain_words(tmp_path, bad):
    with pytest.raises(RuntimeError, match=r"TRUSTED_PROXIES .* must be a whole number"):
        make_app(tmp_path, TRUSTED_PROXIES=bad)


def test_a_bad_trusted_proxies_stops_companion_serve_with_one_line(tmp_path, monkeypatch,
                                                                  capsys):
    from companion import cli

    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", "-2")
    monkeypatch.setattr("gevent.monkey.patch_all", lambda: None)   # nothing is served
    assert cli.main(["serve", "--behind-proxy", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion serve: TRUSTED_PROXIES") and "Traceback" not in err


def test_serve_behind_proxy_trusts_one_hop_and_listens_on_loopback(tmp_path, monkeypatch,
                                                                   capsys):
    from companion import cli

    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("COMPANION_TRUSTED_PROXIES", raising=False)
    monkeypatch.delenv("COMPANION_PUBLIC_URL", raising=False)
    monkeypatch.setattr("gevent.monkey.patch_all", lambda: None)
    started = []

    class Server:
        def __init__(self, listener, app, log=None):
            started.append((listener, app))

        def serve_forever(self, stop_timeout=None):
            raise KeyboardInterrupt

    monkeypatch.setattr("gevent.pywsgi.WSGIServer", Server)
    # A stopped `serve` ends this process's live streams for good: undone after the test.
    monkeypatch.setattr("companion.web.streams._stopping", False)
    cases = [(["--behind-proxy"], "127.0.0.1", 1),
             (["--behind-proxy", "--host", "0.0.0.0"], "0.0.0.0", 1),   # an explicit host wins
             ([], "0.0.0.0", 0)]
    for options, host, hops in cases:
        assert cli.main(["serve", "--port", "8123", *options]) == 0
        (listener, app), = started
        started.clear()
        assert listener == (host, 8123), options
        assert app.config["TRUSTED_PROXIES"] == hops, options
        out = capsys.readouterr().out
        assert ("behind a proxy: it trusts 1 proxy hop" in out) == bool(hops), out
        if hops:
            # Not the loopback address as the phones' address: the proxy's is theirs.
            assert app.config.get("PUBLIC_URL") is None
            assert "only this computer can open it" not in out
        # Behind TLS (nginx sends X-Forwarded-Proto: https) the cookies are Secure exactly
        # when the proxy is trusted.
        client = app.test_client()
        tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.5"}
        start = client.get("/", headers=tls)
        r = client.post("/new/scorepad", headers=tls, data=dict(
            _CREATE, csrf_token=inputs(start.get_data(as_text=True))["csrf_token"]))
        assert r.status_code == 303, options
        cookies = {**set_cookies(start), **set_cookies(r)}
        for name in ("session", "tc"):
            assert ("secure" in cookie_attrs(cookies[name])) == bool(hops), (options, name)


# ---------------------------------------------------------------- the real client address

def _create_as(app, address: str, hops: int):
    """Create a table from the phone at `address` (a fresh browser each time), through one
    proxy; the answer's status."""
    phone = ProxiedPhone(app, address, address, prefix="")
    return phone.post("/new/scorepad", {"name_0": "Ann", "name_1": "Bob", "me": "0"}).status_code


@pytest.mark.parametrize("hops, separate", [(1, True), (0, False)])
def test_phones_behind_a_trusted_proxy_get_their_own_quota(tmp_path, hops, separate):
    app = make_app(tmp_path, TRUSTED_PROXIES=hops, TABLE_CREATE_LIMIT=(2, 60.0))
    answers = {ip: [_create_as(app, ip, hops) for _ in range(3)]
               for ip in ("192.0.2.10", "192.0.2.11")}
    if separate:
        assert answers == {ip: [303, 303, 429] for ip in answers}
        keys = {key for (key,) in db_rows(app.config["DATABASE"],
                                          "SELECT key FROM rate_hits WHERE bucket = ?",
                                          ["TABLE_CREATE_LIMIT"])}
        assert keys == {"192.0.2.10", "192.0.2.11"}
    else:
        # Forwarded headers ignored: both phones are the proxy's one address.
        assert answers == {"192.0.2.10": [303, 303, 429], "192.0.2.11": [429, 429, 429]}
        assert {key for (key,) in db_rows(app.config["DATABASE"], "SELECT key FROM rate_hits")
                } == {PROXY}
    assert count(app.config["DATABASE"], "tables") == (4 if separate else 2)


def test_only_the_trusted_hops_of_x_forwarded_for_count(tmp_path):
    """A phone that writes its own X-Forwarded-For can't pick its address: the proxy appends
    what it saw, and with one trusted hop only that last entry counts."""
    app = make_app(tmp_path, TRUSTED_PROXIES=1, TABLE_CREATE_LIMIT=(2, 60.0))
    answers = [_create_as(app, f"203.0.113.{i}, 192.0.2.50", 1) for i in range(3)]
    assert answers == [303, 303, 429]
    assert {key for (key,) in db_rows(app.config["DATABASE"], "SELECT key FROM rate_hits")
            } == {"192.0.2.50"}


@pytest.mark.parametrize("hops, separate", [(1, True), (0, False)])
def test_join_rate_limit_counts_each_phone_behind_a_trusted_proxy(tmp_path, hops, separate):
    app = make_app(tmp_path, TRUSTED_PROXIES=hops, JOIN_RATE_LIMIT="2 per minute")
    answers = {}
    for ip in (f"198.51.100.{hops}1", f"198.51.100.{hops}2"):
        phone = ProxiedPhone(app, ip, ip, prefix="")
        answers[ip] = [phone.post("/join", {"code": "ZZZZZZ"}).status_code for _ in range(3)]
    first, second = answers.values()
    assert first[:2] == [404, 404] and first[2] == 429, answers
    assert second == ([404, 404, 429] if separate else [429, 429, 429]), answers


@pytest.mark.parametrize("hops, separate", [(1, True), (0, False)])
def test_the_stream_cap_counts_each_phone_behind_a_trusted_proxy(tmp_path, hops, separate):
    app = make_app(tmp_path, TRUSTED_PROXIES=hops, STREAMS_PER_ADDRESS=1,
                   LIVE_MAX_SECONDS=30, LIVE_KEEPALIVE=0.1)
    ann = ProxiedPhone(app, "Ann", "192.0.2.31", prefix="")
    table_id = ann.create_table(["Ann", "Bob"])
    bob = ProxiedPhone(app, "Bob", "192.0.2.32", prefix="")
    assert bob.join(_join_url(ann.page(table_id))).status_code == 303
    opened = [p.client.get(f"/t/{table_id}/stream", buffered=False, base_url=BACKEND)
              for p in (ann, bob)]
    try:
        assert [r.status_code for r in opened] == ([200, 200] if separate else [200, 503])
        if separate:
            assert streams.open_streams("192.0.2.31") == streams.open_streams("192.0.2.32") == 1
        else:
            assert streams.open_streams(PROXY) == 1
    finally:
        for r in opened:
            r.close()
    assert streams.open_streams("192.0.2.31") == streams.open_streams(PROXY) == 0


# ---------------------------------------------------------------- same origin

_CREATE = {"name_0": "Ann", "name_1": "Bob", "me": "0"}

# (case, settings, request headers, Origin, expected status)
ORIGIN_CASES = [
    ("nginx rewrites Host; Origin is the public URL",
     {"PUBLIC_URL": PUBLIC}, {"Host": "127.0.0.1:8000"}, PUBLIC, 303),
    ("public URL with a trailing slash and a prefix",
     {"PUBLIC_URL": PUBLIC + "/companion/"}, {"Host": "127.0.0.1:8000"}, PUBLIC, 303),
    ("public URL on its default port, written out",
     {"PUBLIC_URL": "https://club.example:443"}, {"Host": "127.0.0.1:8000"}, PUBLIC, 303),
    ("another site is refused",
     {"PUBLIC_URL": PUBLIC}, {"Host": "127.0.0.1:8000"}, "https://evil.example", 403),
    ("the public host over plain http is another origin",
     {"PUBLIC_URL": PUBLIC}, {"Host": "127.0.0.1:8000"}, "http://club.example", 403),
    ("the public host on another port is another origin",
     {"PUBLIC_URL": PUBLIC}, {"Host": "127.0.0.1:8000"}, "https://club.example:8443", 403),
    ("no public URL: the rewritten Host alone counts",
     {}, {"Host": "127.0.0.1:8000"}, PUBLIC, 403),
    ("no-referrer pages send Origin: null",
     {"PUBLIC_URL": PUBLIC}, {"Host": "127.0.0.1:8000"}, "null", 303),
    ("the backend's own address still works (LAN use)",
     {"PUBLIC_URL": PUBLIC}, {"Host": "192.168.1.23:8000"}, "http://192.168.1.23:8000", 303),
    ("trusted proxy forwards the host",
     {"TRUSTED_PROXIES": 1}, {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "club.example",
                              "X-Forwarded-Proto": "https"}, PUBLIC, 303),
    ("trusted proxy forwards host:443",
     {"TRUSTED_PROXIES": 1}, {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "club.example:443",
                              "X-Forwarded-Proto": "https"}, PUBLIC, 303),
    ("trusted proxy, another site",
     {"TRUSTED_PROXIES": 1}, {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "club.example",
                              "X-Forwarded-Proto": "https"}, "https://evil.example", 403),
    ("X-Forwarded-Host from an untrusted client is ignored",
     {}, {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "evil.example"},
     "https://evil.example", 403),
]


@pytest.mark.parametrize("case, settings, headers, origin, expected", ORIGIN_CASES,
                         ids=[c[0] for c in ORIGIN_CASES])
def test_same_origin_check_behind_a_proxy(tmp_path, case, settings, headers, origin, expected):
    app = make_app(tmp_path, **settings)
    client = app.test_client()
    # The test client keeps cookies per host: the page and the POST name the same one.
    page = client.get("/new/scorepad", headers=headers).get_data(as_text=True)
    r = client.post("/new/scorepad", data=dict(_CREATE, csrf_token=inputs(page)["csrf_token"]),
                    headers=dict(headers, Origin=origin))
    assert r.status_code == expected, (case, r.get_data(as_text=True)[:500])
    assert count(app.config["DATABASE"], "tables") == (1 if expected == 303 else 0)


def test_a_score_entry_passes_behind_nginx_that_rewrites_host(tmp_path):
    """The issue's symptom: every htmx POST refused once the table existed."""
    app = make_app(tmp_path, PUBLIC_URL=PUBLIC)
    ann = Phone(app, "Ann")
    host = {"Host": "127.0.0.1:8000"}
    # The test client keeps cookies per host: read the token from a page of that host.
    ann._csrf = inputs(ann.get("/", headers=host).get_data(as_text=True))["csrf_token"]
    r = ann.post("/new/scorepad", _CREATE, headers=dict(host, Origin=PUBLIC))
    table_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
    form = ann.entry_form(table_id, ann.get(f"/t/{table_id}", headers=host).get_data(as_text=True))
    r = ann.post(f"/t/{table_id}/actions", {"sid": form["sid"], "version": form["version"],
                                            "score_0": "5", "score_1": "3"},
                 hx=True, headers=dict(host, Origin=PUBLIC))
    assert r.status_code == 200 and "Saved as entry #1." in r.get_data(as_text=True)


# ---------------------------------------------------------------- https carried through

# (case, settings, forwarded proto, the test client's scheme, Secure cookies, HSTS)
HTTPS_CASES = [
    ("trusted proxy, https", {"TRUSTED_PROXIES": 1, "PUBLIC_URL": PUBLIC}, "https", "http",
     True, True),
    ("trusted proxy, https, no public URL", {"TRUSTED_PROXIES": 1}, "https", "http", True, False),
    ("untrusted X-Forwarded-Proto", {"PUBLIC_URL": PUBLIC}, "https", "http", False, False),
    ("trusted proxy, plain http", {"TRUSTED_PROXIES": 1, "PUBLIC_URL": PUBLIC}, "http", "http",
     False, False),
    ("LAN server on plain http", {}, None, "http", False, False),
    ("TLS straight to the server", {"PUBLIC_URL": PUBLIC}, None, "https", True, True),
    ("https, but an http public URL", {"PUBLIC_URL": "http://192.168.1.23:8000"}, None,
     "https", True, False),
]


@pytest.mark.parametrize("case, settings, proto, scheme, secure, hsts", HTTPS_CASES,
                         ids=[c[0] for c in HTTPS_CASES])
def test_cookies_are_secure_and_hsts_sent_exactly_on_https(tmp_path, case, settings, proto,
                                                           scheme, secure, hsts):
    app = make_app(tmp_path, **settings)
    headers = {"X-Forwarded-Proto": proto, "X-Forwarded-For": "192.0.2.9"} if proto else {}
    client = app.test_client()
    base = f"{scheme}://club.example"
    start = client.get("/", headers=headers, base_url=base)
    token = inputs(start.get_data(as_text=True))["csrf_token"]
    r = client.post("/new/scorepad", base_url=base, data=dict(_CREATE, csrf_token=token),
                    # Referrer-Policy: no-referrer: no Referer, and Origin: null.
                    headers=dict(headers, Origin="null"))
    assert r.status_code == 303, (case, r.get_data(as_text=True)[:500])
    cookies = {**set_cookies(start), **set_cookies(r)}
    assert {"session", "tc"} <= set(cookies)
    for name in ("session", "tc"):
        assert ("secure" in cookie_attrs(cookies[name])) == secure, (case, cookies[name])
        assert cookie_attrs(cookies[name])["path"] == "/", case
    for answer in (start, r):
        assert answer.headers.get("Strict-Transport-Security") == (
            "max-age=31536000" if hsts else None), case
    assert not app.config["WTF_CSRF_SSL_STRICT"]


def test_csrf_still_refuses_a_post_without_its_token_over_https(tmp_path):
    app = make_app(tmp_path, TRUSTED_PROXIES=1, PUBLIC_URL=PUBLIC)
    phone = ProxiedPhone(app, "Ann", "192.0.2.40", prefix="")
    phone.get("/")
    r = phone.post("/new/scorepad", _CREATE, csrf=False, headers={"Origin": "null"})
    assert r.status_code == 400
    assert count(app.config["DATABASE"], "tables") == 0


# ---------------------------------------------------------------- QR codes and the public base

@pytest.fixture
def lan(monkeypatch):
    from companion.web import urls
    monkeypatch.setattr(urls, "lan_addresses", lambda: ["192.168.1.23"])
    urls._lan_cache.clear()
    yield
    urls._lan_cache.clear()


def _join_url(page: str) -> str:
    (join,) = links(page, "a#join-url")
    return join


def test_a_trusted_proxy_sets_the_qr_base(tmp_path, lan):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    ann = ProxiedPhone(app, "Ann", "192.0.2.60")
    table_id = ann.create_table(["Ann", "Bob"])
    page = ann.page(table_id)
    # Scheme and host in upper case (QR alphanumeric mode); the prefix keeps its case.
    assert _join_url(page).startswith("HTTPS://CLUB.EXAMPLE/companion/j#")
    # The phone joins with what the QR carries, through the proxy.
    bob = ProxiedPhone(app, "Bob", "192.0.2.61")
    link = urlsplit(_join_url(page))
    r = bob.post(link.path[len(PREFIX):], {"token": link.fragment})
    assert r.status_code == 303 and r.headers["Location"].startswith(PREFIX + "/t/")
    assert not select(page, "#base-warning") and not select(page, "#loopback-warning")


def test_forwarded_headers_never_reach_a_qr_code_without_trust(tmp_path, lan):
    app = make_app(tmp_path)
    ann = ProxiedPhone(app, "Ann", "192.0.2.62", prefix="", host="evil.example")
    table_id = ann.create_table(["Ann", "Bob"])
    page = ann.page(table_id)
    assert _join_url(page).startswith("HTTP://192.168.1.23:8000/j#")
    assert "EVIL" not in page.upper()


def test_the_public_url_wins_over_the_proxy_and_carries_the_prefix(tmp_path, lan):
    # A public URL without a path takes the prefix the app is mounted under.
    for public in (PUBLIC, PUBLIC + PREFIX, PUBLIC + PREFIX + "/"):
        app = make_app(tmp_path, TRUSTED_PROXIES=1, PUBLIC_URL=public)
        ann = ProxiedPhone(app, "Ann", "192.0.2.63", host="other.example")
        table_id = ann.create_table(["Ann", "Bob"])
        assert _join_url(ann.page(table_id)).startswith("HTTPS://CLUB.EXAMPLE/companion/j#"), public


def test_a_director_on_https_is_told_when_phones_get_plain_http(tmp_path, lan):
    """No public URL and no trusted proxy: the QR carries the LAN address; a director who
    came in over https (or by a host name) sees that phones get another address."""
    app = make_app(tmp_path)
    director = Phone(app, "Director")
    # (the address the director used, the QR's base they are warned about, or None)
    cases = [("https://club.example:8000", "http://192.168.1.23:8000"),
             ("http://club.example:8000", "http://192.168.1.23:8000"),
             ("http://club.example", "http://192.168.1.23"),
             ("http://192.168.1.23:8000", None),
             ("http://localhost:8000", None)]      # the server's own browser
    for base, warned in cases:
        director.client = app.test_client()     # a fresh browser for each address
        director._csrf = inputs(director.get("/", base_url=base).get_data(as_text=True)
                                )["csrf_token"]
        r = director.post("/new/scorepad", _CREATE, base_url=base)
        table_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        page = director.get(f"/t/{table_id}", base_url=base).get_data(as_text=True)
        assert not select(page, "#loopback-warning"), base
        r = director.post("/events/new/scorepad", {"event_name": "Club night",
                                                    "event_rounds": "1", "rounds": "1",
                                                    "entrants": "Ann\nBob"}, base_url=base)
        assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
        event_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        dash = director.get(f"/e/{event_id}", base_url=base).get_data(as_text=True)
        for where in (page, dash):
            if warned:
                assert text_of(where, "#base-warning") == (
                    f"Phones will open {warned}, not the address you used; "
                    "set COMPANION_PUBLIC_URL."), base
            else:
                assert not select(where, "#base-warning"), base


# ---------------------------------------------------------------- a path prefix

URL_ATTRS = {"href", "src", "action", "formaction", "poster", "srcset"}


def page_urls(html: str) -> list[str]:
    """Every URL-like attribute value of the page: links, sources, form actions, hx-*
    requests and data-* URLs (a value starting with "/" or naming a scheme)."""
    found = []
    for node in parse(html).elements():
        for name, value in node.attrs.items():
            if not value or not (name in URL_ATTRS or name.startswith(("hx-", "data-"))):
                continue
            if value.startswith("/") or re.match(r"(?i)https?://", value):
                found.append(value)
    return found


def assert_under_prefix(urls: list[str], prefix: str = PREFIX) -> None:
    assert urls, "no URL found: the check checked nothing"
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme:
            assert parts.netloc.lower() == "club.example", url
        assert parts.path.lower().startswith(prefix.lower() + "/"), url


def test_under_a_prefix_no_url_leaves_it(tmp_path, lan):
    app = make_app(tmp_path, TRUSTED_PROXIES=1, PUBLIC_URL=None)
    ann = ProxiedPhone(app, "Ann", "192.0.2.70")
    start = ann.get("/")
    assert_under_prefix(page_urls(start.get_data(as_text=True)))
    for path in ("/new", "/new/scorepad"):
        assert_under_prefix(page_urls(ann.get(path).get_data(as_text=True)))
    table_id = ann.create_table(["Ann", "Bob"])
    page = ann.page(table_id)
    urls = page_urls(page)
    assert any(u.endswith(f"/t/{table_id}/actions") for u in urls), urls
    assert any("/stream" in u for u in urls), urls
    assert_under_prefix(urls)
    for path in (f"/t/{table_id}/history", f"/t/{table_id}/seats"):
        assert_under_prefix(page_urls(ann.get(path).get_data(as_text=True)))
    # A POST entry, as htmx sends it: saved, and its fragment stays under the prefix.
    form = ann.entry_form(table_id, page)
    r = ann.enter(table_id, {0: 7, 1: 2}, form=form)
    assert r.status_code == 200 and "Saved as entry #1." in r.get_data(as_text=True)
    assert_under_prefix(page_urls(r.get_data(as_text=True)))
    # An error page too (its way back is the prefix's start page).
    missing = ann.get("/t/nosuchtable")
    assert missing.status_code == 404
    assert_under_prefix(page_urls(missing.get_data(as_text=True)))
    # The cookies the app set are the prefix's only.
    cookies = set_cookies(start)
    jar = {c.key: c for c in ann.client._cookies.values()}
    assert {"session", "tc"} <= set(jar)
    for name in ("session", "tc"):
        assert jar[name].path == PREFIX + "/", name
    assert cookie_attrs(cookies["session"])["path"] == PREFIX + "/"
    assert "secure" in cookie_attrs(cookies["session"])


def test_an_event_under_a_prefix(tmp_path, lan):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    director = ProxiedPhone(app, "Director", "192.0.2.71")
    data = {"event_name": "Club night", "event_rounds": "1", "rounds": "1",
            "entrants": "Ann\nBob\nCy\nDee"}
    r = director.post("/events/new/scorepad", data)
    assert r.status_code == 303 and r.headers["Location"].startswith(PREFIX + "/e/")
    event_id = r.headers["Location"].rsplit("/", 1)[1]
    dash = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert text_of(dash, "#public-address") == (
        f"Phones open: https://club.example/companion/e/{event_id}/players")
    assert_under_prefix(page_urls(dash))
    assert director.post(f"/e/{event_id}/seat").status_code == 303
    for path in (f"/e/{event_id}", f"/e/{event_id}/standings", f"/e/{event_id}/players",
                 f"/e/{event_id}/cards", f"/e/{event_id}/projector"):
        assert_under_prefix(page_urls(director.get(path).get_data(as_text=True)))


def test_the_language_switch_keeps_the_prefix(tmp_path):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    ann = ProxiedPhone(app, "Ann", "192.0.2.72")
    table_id = ann.create_table(["Ann", "Bob"])
    page = ann.page(table_id)
    switch = next(h for h in links(page, "#lang-switch a") if "to=ja" in h)
    assert switch.startswith(PREFIX + "/language?")
    r = ann.get(switch[len(PREFIX):])
    assert r.status_code == 303 and r.headers["Location"] == f"{PREFIX}/t/{table_id}"
    lang = cookie_attrs(set_cookies(r)["lang"])
    assert lang["path"] == PREFIX + "/" and "secure" in lang
    assert ann.page(table_id).startswith("<!doctype html>\n<html lang=\"ja\"")
    # A way back outside the prefix (or another site) is the prefix's start page.
    for outside in ("/t/" + table_id, "//evil.example/", PREFIX + "//evil.example/",
                    "https://evil.example/"):
        r = ann.get("/language", query_string={"to": "en", "next": outside})
        assert r.headers["Location"] == PREFIX + "/", outside


def test_the_language_switch_without_a_prefix_is_as_before(tmp_path):
    app = make_app(tmp_path)
    phone = Phone(app)
    r = phone.get("/language", query_string={"to": "ja", "next": "/new?x=1"})
    assert r.status_code == 303 and r.headers["Location"] == "/new?x=1"
    assert cookie_attrs(set_cookies(r)["lang"])["path"] == "/"
    assert phone.get("/language", query_string={"to": "ja", "next": "//evil.example"}
                     ).headers["Location"] == "/"


@pytest.mark.parametrize("prefix", ["", PREFIX])
def test_the_manifest_stays_under_the_prefix(tmp_path, prefix):
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    phone = ProxiedPhone(app, "Ann", "192.0.2.73", prefix=prefix)
    link = attr(phone.get("/").get_data(as_text=True), 'link[rel="manifest"]', "href")
    assert link == prefix + "/manifest.webmanifest"
    r = phone.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    manifest = json.loads(r.get_data(as_text=True))
    where = PUBLIC + link
    assert urljoin(where, manifest["start_url"]) == PUBLIC + prefix + "/"
    assert urljoin(where, manifest["scope"]) == PUBLIC + prefix + "/"
    assert len(manifest["icons"]) == 3
    for icon in manifest["icons"]:
        url = urljoin(where, icon["src"])
        assert url.startswith(PUBLIC + prefix + "/static/icons/"), url
        # Each icon is really there, through the proxy.
        assert phone.get(urlsplit(url).path[len(prefix):]).status_code == 200, url


def test_a_prefix_from_an_untrusted_client_is_ignored(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    r = client.get("/", headers={"X-Forwarded-Prefix": "/evil"})
    assert "/evil" not in r.get_data(as_text=True)
    assert cookie_attrs(set_cookies(r)["session"])["path"] == "/"


def test_the_prefix_from_the_wsgi_server_works_without_a_proxy(tmp_path):
    """Mounted under a prefix by the server itself (SCRIPT_NAME, e.g. gunicorn's
    --env SCRIPT_NAME=/companion): the same URLs."""
    app = make_app(tmp_path)
    client = app.test_client()
    r = client.get("/", base_url="http://localhost" + PREFIX)
    urls = [u for u in page_urls(r.get_data(as_text=True))]
    assert urls and all(u.startswith(PREFIX + "/") for u in urls), urls
    assert cookie_attrs(set_cookies(r)["session"])["path"] == PREFIX + "/"


def test_scripts_build_no_absolute_paths():
    """The page's scripts take every URL from the page (url_for), never a literal path,
    which would leave a path prefix."""
    root = Path(__file__).resolve().parents[2] / "static" / "js"
    literal = re.compile(r"""["'`]/(?:static|t|e|j|J|new|join|language|manifest)\b""")
    for script in sorted(root.glob("*.js")):
        found = literal.findall(script.read_text(encoding="utf-8"))
        assert not found, (script.name, found)


def test_shared_fragments_keep_each_phones_prefix(tmp_path):
    """A table's fragments are drawn once per version and shared (web/fragments.py): a
    phone on the LAN (no prefix) and one through the proxy's prefix each get their own
    links, whichever asked first."""
    app = make_app(tmp_path, TRUSTED_PROXIES=1)
    ann = ProxiedPhone(app, "Ann", "192.0.2.80")
    table_id = ann.create_table(["Ann", "Bob"])
    # Ann again, on the LAN: the same phone (cookies), so the same shared fragments.
    bob = Phone(app, "Ann on the LAN")
    for name in ("session", "tc"):
        bob.client.set_cookie(name, ann.client.get_cookie(name, domain="127.0.0.1",
                                                          path=PREFIX + "/").value)
    play = f"/t/{table_id}/play"
    assert_under_prefix(page_urls(ann.get(play, hx=True).get_data(as_text=True)))
    lan = page_urls(bob.get(play, hx=True).get_data(as_text=True))
    assert lan and not [u for u in lan if u.startswith(PREFIX)], lan
    # And the standings, drawn once per results key.
    r = ann.post("/events/new/scorepad", {"event_name": "Club night", "event_rounds": "1",
                                          "rounds": "1", "entrants": "Ann\nBob"})
    event_id = r.headers["Location"].rsplit("/", 1)[1]
    assert_under_prefix(page_urls(ann.get(f"/e/{event_id}/standings").get_data(as_text=True)))
    lan = page_urls(bob.get(f"/e/{event_id}/standings").get_data(as_text=True))
    assert lan and not [u for u in lan if u.startswith(PREFIX)], lan
