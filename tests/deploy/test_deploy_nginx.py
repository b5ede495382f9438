"""The app on a real server: the real gunicorn behind Debian's nginx with TLS, as deployed.

nginx runs deploy/nginx.conf as shipped (only its `# SITE` lines filled in: the made-up host
name club.test, a self-signed certificate, free high ports, the backend's port), wrapped in a
minimal main config like Debian's. gunicorn runs the command of deploy/companion.service
(`-c python:companion.gunicorn_conf`) on 127.0.0.1 with COMPANION_TRUSTED_PROXIES=1 and
COMPANION_PUBLIC_URL=https://club.test:<port>. Chromium resolves club.test to 127.0.0.1 and
trusts the certificate's key. Then, as a club's evening would go:

1. phone A creates a table; phone B opens the QR's link read from A's page and sits down;
   the link is the https public URL with the token in its fragment (`/j#TOKEN`); an entry
   on A shows on B within a second; every cookie is Secure;
2. a director makes an event and a director link; a third browser opens that link;
3. 45 phones from 45 client addresses (127.0.0.2 ... 127.0.0.46, plain HTTP clients over
   TLS) open the QR's link the way phone B's browser did: none is refused (429/503);
4. gunicorn gets SIGTERM with the phones connected and exits within 10 s; phone A saves an
   entry while it is down: no proxy error is shown, the entry waits in the outbox; gunicorn
   starts again: the entry is delivered exactly once, and phone B shows it;
5. neither nginx's access log nor gunicorn's log contains the join token or the director
   link's token.

Every check runs to the end and the failures are reported together, each named, so one run
says everything that is missing (to stop at one instead, set DEPLOY_TEST_FAIL_FAST to a part
of its name).
"""
from __future__ import annotations

import base64
import os
import hashlib
import importlib.util
import re
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from helpers import csrf_from, free_port
from playwright.sync_api import Error as PlaywrightError, expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faults"))
from deploy_helpers import (  # noqa: E402
    NAME, NGINX, OPENSSL, Backend, TLSClient, nginx_main_conf, nginx_site, self_signed_cert,
    start_nginx, stop, wait_for_port)
from fault_helpers import Response  # noqa: E402


def _browser_steps():
    """tests/browser/conftest.py's player steps (create_table, join, save...), loaded under
    its own name: its `ui` fixture is only visible to tests/browser/."""
    path = Path(__file__).resolve().parents[1] / "browser" / "conftest.py"
    spec = importlib.util.spec_from_file_location("companion_browser_steps", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ui = _browser_steps()

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CROWD = 45
PROXY_PAGE = re.compile(r"Bad Gateway|\b50[234]\b|nginx|Service Temporarily Unavailable|"
                        r"Gateway Time-out|Try again in a moment", re.I)


# ---------------------------------------------------------------- the server

def spki_hash(cert: Path) -> str:
    """base64(sha256(the certificate's public key)): Chromium's
    --ignore-certificate-errors-spki-list, so it trusts this one certificate (a secure
    context, as with a real certificate)."""
    pem = subprocess.run([OPENSSL, "x509", "-in", str(cert), "-pubkey", "-noout"],
                         capture_output=True, check=True, timeout=30).stdout
    der = subprocess.run([OPENSSL, "pkey", "-pubin", "-outform", "der"], input=pem,
                         capture_output=True, check=True, timeout=30).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture
def site(tmp_path):
    """nginx (deploy/nginx.conf) in front of gunicorn, both this test's own processes."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install -y nginx)")
    https_port, http_port, backend_port = free_port(), free_port(), free_port()
    cert, key = self_signed_cert(tmp_path, NAME)
    public = f"https://{NAME}:{https_port}"
    backend = Backend(tmp_path / "instance", backend_port, public, tmp_path / "gunicorn.log")
    conf = tmp_path / "companion.conf"
    conf.write_text(nginx_site(NAME, cert, key, http_port, https_port,
                               f"127.0.0.1:{backend_port}"))
    access_log = tmp_path / "nginx-access.log"
    main = nginx_main_conf(tmp_path / "nginx", conf, access_log)
    backend.start()
    nginx = start_nginx(tmp_path / "nginx", main)
    try:
        wait_for_port("127.0.0.1", https_port, nginx)
        yield {"public": public, "port": https_port, "http_port": http_port, "cert": cert,
               "backend": backend, "access_log": access_log, "prefix": tmp_path / "nginx"}
    finally:
        stop(nginx)
        if backend.process is not None and backend.process.poll() is None:
            stop(backend.process)


@pytest.fixture
def club_browser(browser_type, browser_type_launch_args, site):
    """Chromium that resolves club.test to 127.0.0.1 and trusts the test's certificate."""
    args = [*browser_type_launch_args.get("args", []),
            f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={spki_hash(site['cert'])}"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


# ---------------------------------------------------------------- a phone over TLS

def replay_join(client: TLSClient, steps: list[dict]) -> Response:
    """Open the QR's link the way phone B's browser did: the same GETs and POSTs (recorded
    from Chromium), each with this client's own cookies and CSRF token."""
    answer = None
    csrf = None
    for step in steps:
        if step["method"] == "GET":
            answer = client.follow(client.get(step["path"]))
            if answer.status == 200:
                try:
                    csrf = csrf_from(answer.text)
                except Exception:   # noqa: BLE001 - a page without a form
                    pass
        else:
            headers = {k: v for k, v in step["headers"].items()
                       if k.lower() in ("content-type", "hx-request", "hx-target", "accept")}
            body = step["body"] or ""
            if "x-www-form-urlencoded" in headers.get("content-type", ""):
                fields = parse_qsl(body, keep_blank_values=True)
                body = urlencode([(k, csrf if k == "csrf_token" and csrf else v)
                                  for k, v in fields])
            if "x-csrftoken" in {k.lower() for k in step["headers"]}:
                headers["X-CSRFToken"] = csrf or client.csrf()
            answer = client.follow(client.request("POST", step["path"], headers=headers,
                                                  body=body))
    assert answer is not None
    return answer


# ---------------------------------------------------------------- the evening

def test_a_club_evening_behind_nginx_with_tls(site, club_browser):
    failures: dict[str, str] = {}
    fail_fast = os.environ.get("DEPLOY_TEST_FAIL_FAST")

    def check(name: str, ok: bool, detail: str = "") -> None:
        if not ok:
            failures[name] = detail[:2000]
            assert not (fail_fast and fail_fast in name), f"{name}: {detail}"

    backend: Backend = site["backend"]
    base = site["public"]
    check("companion/gunicorn_conf.py exists (the config module the service runs)",
          Backend.has_config_module())
    contexts = []

    def phone(name: str):
        context = club_browser.new_context(**PHONE, base_url=base)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
        return context, page, errors

    try:
        # 1. Two phones at a table.
        a_ctx, a, a_errors = phone("A")
        b_ctx, b, b_errors = phone("B")
        a.goto("/")
        a.get_by_role("link", name="New table").click()
        a.get_by_role("link", name=re.compile(r"^Score pad")).click()
        a.get_by_label("Player 1", exact=True).fill("Ann")
        a.get_by_label("Player 2", exact=True).fill("Bob")
        a.get_by_role("button", name="Create table").click()
        expect(a.locator("#me-bar")).to_contain_text("You are Ann", timeout=20_000)
        table_id = urlsplit(a.url).path.rsplit("/", 1)[-1]
        join_url = a.locator("#join-url").get_attribute("href") or ""
        parts = urlsplit(join_url)
        check("the QR carries https://club.test:<port>/j#<token>",
              join_url.lower().startswith(f"{base}/j#".lower()), join_url)
        check("the QR carries the https public URL",
              join_url.lower().startswith(base.lower() + "/"), join_url)
        join_token = parts.fragment or parts.path.rsplit("/", 1)[-1]
        assert len(join_token) >= 16, join_url

        recorded: list[dict] = []

        def record(request):
            url = urlsplit(request.url)
            if url.hostname == NAME and request.resource_type == "document" or \
                    request.method == "POST":
                recorded.append({"method": request.method, "path": url.path + (
                    f"?{url.query}" if url.query else ""), "body": request.post_data,
                    "headers": request.headers})

        b.on("request", record)
        ui.join(b, join_url, "Bob")
        b.remove_listener("request", record)
        join_steps = [s for s in recorded if s["method"] == "GET" or join_token.lower() in
                      (s["body"] or "").lower()]
        join_steps = join_steps[:join_steps.index(next(
            (s for s in join_steps if s["method"] == "POST"), join_steps[-1])) + 1]

        ui.type_round(a, {0: 5, 1: 7})
        clicked = time.monotonic()
        response = ui.save(a)
        answered = time.monotonic()
        check("the first entry is saved", response.status == 200, str(response.status))
        try:
            b.locator('#sheet tfoot td[data-player="Ann"]').filter(
                has_text=re.compile(r"^\s*5\s*$")).wait_for(timeout=20_000)
            seen = time.monotonic()
            print(f"phone B showed A's entry {seen - answered:.2f} s after A's answer "
                  f"({seen - clicked:.2f} s after the tap)")
            check("phone B shows A's entry within 1 s of A's answer", seen - answered < 1.0,
                  f"{seen - answered:.2f} s after the answer, {seen - clicked:.2f} s after the tap")
        except PlaywrightError as exc:
            check("phone B shows A's entry", False,
                  f"{exc}\nB's sheet: {b.locator('#sheet').inner_html()[-1500:]}\n"
                  f"A's answer: {response.status} {response.text()[:300]}")
        for label, context in (("A", a_ctx), ("B", b_ctx)):
            cookies = context.cookies(base)
            check(f"every cookie of phone {label} is Secure",
                  bool(cookies) and all(c["secure"] for c in cookies),
                  str([(c["name"], c["secure"]) for c in cookies]))

        # 2. A director and a director link, opened on a third browser.
        director = TLSClient(base, "director", "127.0.0.1", site["cert"])
        home = director.get("/")
        check("one HSTS header on https (nginx's, max-age a year)",
              director.last_headers.get_all("Strict-Transport-Security") == ["max-age=31536000"],
              str(director.last_headers.get_all("Strict-Transport-Security")))
        check("the app's answer passes with its X-Companion header",
              home.status == 200 and home.headers.get("x-companion") == "1", str(home.headers))
        r = director.post("/events/new/scorepad", {
            "event_name": "Club night", "event_rounds": "2", "rounds": "1",
            "entrants": "Ann\nBob\nCy\nDee"})
        assert r.status == 303, (r.status, r.plain[:300])
        event_id = re.search(r"/e/([^/?#]+)", r.headers["location"]).group(1)
        r = director.follow(director.post(f"/e/{event_id}/director-link", {}))
        director_url = next((m for m in re.findall(r'id="director-url"[^>]*>([^<]+)<', r.text)),
                            None) or ""
        director_url = director_url.strip()
        check("the dashboard shows a director link", bool(director_url), r.plain[:300])
        director_token = ""
        if director_url:
            d_parts = urlsplit(director_url)
            director_token = d_parts.fragment or d_parts.path.rsplit("/", 1)[-1]
            check("the director link carries its token in the fragment",
                  bool(d_parts.fragment), director_url)
            _c_ctx, c, _c_errors = phone("C")
            c.goto(director_url)
            expect(c.get_by_text("Club night").first).to_be_visible(timeout=20_000)

        # 3. 45 phones from 45 addresses open the QR's link.
        def crowd_phone(i: int) -> tuple[int, list[int], str]:
            client = TLSClient(base, f"phone {i}", f"127.0.0.{i}", site["cert"])
            try:
                answer = replay_join(client, join_steps)
                return answer.status, client.statuses, answer.plain[:200]
            except Exception as exc:   # noqa: BLE001 - reported with the others
                return -1, client.statuses, repr(exc)

        with ThreadPoolExecutor(max_workers=6) as pool:
            crowd = list(pool.map(crowd_phone, range(2, 2 + CROWD)))
        refused = [(i + 2, statuses) for i, (_s, statuses, _t) in enumerate(crowd)
                   if {429, 503} & set(statuses)]
        not_in = [(i + 2, status, said) for i, (status, _st, said) in enumerate(crowd)
                  if status != 200]
        check(f"all {CROWD} phones from distinct addresses join (none gets 429/503)",
              not refused and not not_in, f"refused: {refused[:5]}, not in: {not_in[:3]}")

        # 4. The backend stops with the phones connected; A saves while it is down.
        expect(a.locator("#live-state")).to_have_text("live", timeout=30_000)
        ui.type_round(a, {0: 37, 1: 41})
        seconds = backend.terminate()
        print(f"gunicorn exited {seconds:.1f} s after SIGTERM")
        check("gunicorn exits within 10 s of SIGTERM with phones connected", seconds < 10,
              f"{seconds:.1f} s")
        a.wait_for_timeout(3000)    # the page notices: its stream ends, it polls meanwhile
        try:
            with a.expect_response(lambda resp: resp.request.method == "POST",
                                   timeout=30_000) as info:
                a.locator("#save-round").click(timeout=10_000)
            down = info.value
            check("nginx answers the write with its own 503 while gunicorn is down",
                  down.status == 503 and "x-companion" not in down.headers, str(down.status))
        except PlaywrightError as exc:
            check("the entry form stays usable while the backend is down", False, str(exc))
        a.wait_for_timeout(1500)
        shown = a.locator("body").inner_text()
        check("no proxy page is shown while the backend is down",
              not PROXY_PAGE.search(shown), shown[:400])
        outbox = a.locator("#outbox")
        waiting = outbox.is_visible() and "41" in (outbox.inner_text() or "")
        check("the entry waits in the outbox", waiting,
              outbox.inner_text() if outbox.count() else "no #outbox")

        backend.start()
        try:
            expect(outbox).to_be_hidden(timeout=60_000)
        except AssertionError as exc:
            check("the outbox is sent once the backend is back", False, str(exc))
        for label, page in (("A", a), ("B", b)):
            try:
                expect(ui.total(page, "Bob")).to_have_text("48", timeout=60_000)
            except AssertionError as exc:
                check(f"phone {label} shows the kept entry (Bob 7 + 41)", False, str(exc))
        with sqlite3.connect(backend.instance / "companion.db") as db:
            kept = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ? AND "
                              "undone_by IS NULL AND payload LIKE '%41%'",
                              (table_id,)).fetchone()[0]
        check("the kept entry is stored exactly once", kept == 1, f"{kept} copies")
        shown = a.locator("body").inner_text() + b.locator("body").inner_text()
        check("no proxy page is shown after the restart", not PROXY_PAGE.search(shown),
              shown[:400])
        check("no uncaught script errors", not (a_errors or b_errors), str(a_errors + b_errors))
    finally:
        for context in contexts:
            context.close()

    # 5. No token in any log (the QR's alphanumeric mode may upper-case it).
    stop_nginx_logs = site["access_log"].read_text(errors="replace")
    gunicorn_log = backend.output()
    assert stop_nginx_logs.strip(), "nginx wrote no access log"
    for log_name, log in (("nginx's access log", stop_nginx_logs),
                          ("gunicorn's log", gunicorn_log)):
        for token_name, token in (("join token", join_token),
                                  ("director token", director_token)):
            if token:
                check(f"{log_name} has no {token_name}", token.lower() not in log.lower(),
                      next((line for line in log.splitlines()
                            if token.lower() in line.lower()), ""))

    assert not failures, "\n".join(f"- {name}: {detail}" for name, detail in failures.items()) \
        + f"\n\ngunicorn's log (end):\n{gunicorn_log[-2000:]}"
