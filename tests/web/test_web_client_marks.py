"""The app's own answers are marked, and the CSRF secret outlives a browser restart.

Every answer the app makes carries `X-Companion: 1` (web/answers.py), refusals and the
500 handler's page included: the page treats an answer without it (a proxy's 502/503/504)
as no answer at all (static/js/app.js). A CSRF refusal says the outbox may retry with a
fresh token (`X-Companion-Retry: csrf`); the `session` cookie holding the CSRF secret is
permanent (Expires/Max-Age), so it survives a browser restart.
"""
from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

import pytest

from web_helpers import HX, Phone, make_app


@pytest.fixture
def marked_app(tmp_path):
    app = make_app(tmp_path, JOIN_RATE_LIMIT="2 per minute", MAX_CONTENT_LENGTH=1000)

    # Routes that fail the two ways an unexpected fault does (added before any request).
    @app.get("/_test/boom")
    def _boom():
        raise RuntimeError("a bug")

    @app.get("/_test/storage")
    def _storage():
        raise sqlite3.OperationalError("database is locked")

    return app


def _table(app) -> tuple[Phone, str]:
    ann = Phone(app, "Ann")
    return ann, ann.create_table(["Ann", "Bob"])


def _requests(ann: Phone, table_id: str):
    """(what, response) for every kind of answer: pages, fragments, static files, 204, 303,
    and each refusal."""
    form = ann.entry_form(table_id)
    static = re.search(r'src="(/static/bundle/site\.js\?v=\w+)"', ann.page(table_id)).group(1)
    c = ann.client
    yield "page", 200, c.get(f"/t/{table_id}")
    yield "fragment", 200, c.get(f"/t/{table_id}/play", headers=HX)
    yield "nothing changed", 204, c.get(f"/t/{table_id}/play?since={form['version']}", headers=HX)
    yield "static file", 200, c.get(static)
    yield "static 304", 304, c.get(static, headers={"If-None-Match": c.get(static).headers["ETag"]})
    yield "service worker", 200, c.get("/sw.js")
    yield "manifest", 200, c.get("/manifest.webmanifest")
    yield "saved", 200, c.post(f"/t/{table_id}/actions", headers=HX, data={
        "csrf_token": form["csrf_token"], "sid": form["sid"], "version": form["version"],
        "score_0": "5", "score_1": "1"})
    yield "redirect", 303, c.get(f"/t/{table_id}/play")   # the fragment's URL as a page
    yield "not found", 404, c.get("/t/nosuchtable")
    yield "not found (htmx)", 404, c.get("/t/nosuchtable/play", headers=HX)
    yield "csrf", 400, c.post(f"/t/{table_id}/actions", headers=HX, data={"sid": "x"})
    yield "cross-site", 403, c.post(f"/t/{table_id}/actions", headers={
        **HX, "Origin": "http://evil.example"}, data={"csrf_token": form["csrf_token"]})
    yield "wrong method", 405, c.get("/join")
    yield "too big", 413, c.post("/join", data={"code": "x" * 5000})
    wrong = {"token": "NOSUCHTOKEN", "csrf_token": form["csrf_token"]}
    for _ in range(2):
        c.post("/j", data=wrong)
    yield "rate limited", 429, c.post("/j", data=wrong)
    yield "500 handler", 500, c.get("/_test/boom")
    yield "storage fault", 503, c.get("/_test/storage")


def test_every_answer_the_app_makes_is_marked(marked_app):
    ann, table_id = _table(marked_app)
    seen = []
    for what, status, response in _requests(ann, table_id):
        assert response.status_code == status, (what, response.status_code)
        assert response.headers.get("X-Companion") == "1", what
        seen.append(status)
    assert {200, 204, 303, 304, 400, 403, 404, 405, 413, 429, 500, 503} <= set(seen)


def test_the_live_stream_is_marked(marked_app):
    ann, table_id = _table(marked_app)
    stream = ann.client.get(f"/t/{table_id}/stream", buffered=False,
                            environ_base={"REMOTE_ADDR": "10.9.8.7"})
    try:
        assert stream.status_code == 200
        assert stream.mimetype == "text/event-stream"
        assert stream.headers.get("X-Companion") == "1"
    finally:
        stream.close()


@pytest.mark.parametrize("hx", [True, False])
def test_a_stale_csrf_token_says_it_may_be_retried(marked_app, hx):
    ann, table_id = _table(marked_app)
    form = ann.entry_form(table_id)
    # The browser restarted without its session cookie: the stored token is stale.
    restarted = Phone(marked_app, "Ann after a restart")
    restarted.client.set_cookie("tc", ann.cookie("tc"))
    data = {"csrf_token": form["csrf_token"], "sid": form["sid"], "version": form["version"],
            "score_0": "5", "score_1": "1"}
    refused = restarted.client.post(f"/t/{table_id}/actions", data=data,
                                    headers=HX if hx else {})
    assert refused.status_code == 400
    assert refused.headers.get("X-Companion-Retry") == "csrf"
    assert "nothing was saved" in refused.get_data(as_text=True)
    # The refusal brings a fresh token for this browser's new session: the same write with
    # the same sid, sent again with it, is stored once.
    fresh = refused.headers["X-CSRFToken"]
    assert fresh and fresh != form["csrf_token"]
    saved = restarted.client.post(f"/t/{table_id}/actions", headers=HX,
                                  data={**data, "csrf_token": fresh})
    assert saved.status_code == 200 and "Saved as entry" in saved.get_data(as_text=True)
    again = restarted.client.post(f"/t/{table_id}/actions", headers=HX,
                                  data={**data, "csrf_token": fresh})
    assert "already saved" in again.get_data(as_text=True)
    assert "X-Companion-Retry" not in again.headers


@pytest.mark.parametrize("what, status", [("not found", 404), ("cross-site", 403),
                                          ("rate limited", 429), ("500 handler", 500)])
def test_other_refusals_dont_ask_for_a_retry(marked_app, what, status):
    ann, table_id = _table(marked_app)
    for name, code, response in _requests(ann, table_id):
        if name == what:
            assert response.status_code == status
            assert "X-Companion-Retry" not in response.headers
            return
    pytest.fail(f"no {what}")


def _session_cookie(response) -> str | None:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            return header
    return None


def test_the_session_cookie_survives_a_browser_restart(marked_app):
    phone = Phone(marked_app, "phone")
    first = phone.client.get("/")            # the start page's form makes the CSRF secret
    cookie = _session_cookie(first)
    assert cookie is not None
    assert "Max-Age=" in cookie or "Expires=" in cookie
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    assert expires - datetime.now(timezone.utc) > timedelta(days=300)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_an_old_browser_session_cookie_becomes_permanent(marked_app):
    # A cookie made before this (no expiry) with its CSRF secret: the next page that uses it
    # sends it back permanent, with the same secret (a token from before still passes).
    phone = Phone(marked_app, "phone")
    with phone.client.session_transaction() as session:
        session["csrf_token"] = "0123456789abcdef0123456789abcdef01234567"
    page = phone.client.get("/")
    assert "Expires=" in (_session_cookie(page) or "")
    with phone.client.session_transaction() as session:
        assert session["csrf_token"] == "0123456789abcdef0123456789abcdef01234567"
        assert session.permanent


def test_static_files_and_live_refreshes_dont_resend_the_cookie(marked_app):
    ann, table_id = _table(marked_app)
    static = re.search(r'src="(/static/bundle/site\.js\?v=\w+)"', ann.page(table_id)).group(1)
    assert _session_cookie(ann.client.get(static)) is None
    assert "Cookie" not in ann.client.get(static).headers.get("Vary", "")
    assert _session_cookie(ann.client.get(f"/t/{table_id}/play", headers=HX)) is None
    assert _session_cookie(ann.client.get(f"/t/{table_id}")) is None


def test_the_session_cookie_is_renewed_a_month_after_it_was_set(marked_app):
    from companion.web.answers import RENEWED
    phone = Phone(marked_app, "phone")
    assert _session_cookie(phone.client.get("/")) is not None
    assert _session_cookie(phone.client.get("/")) is None          # the next day's visit: not
    with phone.client.session_transaction() as session:
        session[RENEWED] -= 30
    renewed = _session_cookie(phone.client.get("/"))
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", renewed).group(1))
    assert expires - datetime.now(timezone.utc) > timedelta(days=364)


def test_the_service_worker_is_served_from_the_root(marked_app):
    phone = Phone(marked_app, "phone")
    response = phone.client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "X-Companion" in response.get_data(as_text=True)
    page = phone.client.get("/").get_data(as_text=True)
    assert 'data-sw="/sw.js"' in page
