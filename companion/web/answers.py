"""The app's own answers, told apart from a proxy's, and a CSRF secret that outlives a restart.

- **`X-Companion: 1` on every answer the app makes**: pages, fragments, static files, the
  live stream, redirects, and every refusal (400, 403, 404, 429, the 500 handler's page, a
  storage fault's 503). A proxy in front of the app (nginx, Caddy) answers 502/503/504 with
  its own page, and no such header, while the backend is down or restarting: the table
  page's script (static/js/app.js) treats such an answer exactly like no answer at all,
  so the proxy's page is never swapped into the sheet, and static/js/outbox.js keeps the
  entry to send again (docs/SECURITY.md, "Offline entries").
- **A permanent `session` cookie.** It holds Flask-WTF's CSRF secret. As a browser-session
  cookie it was gone after a browser restart, and an entry kept offline was then resent
  with a token no longer valid. It now lasts PERMANENT_SESSION_LIFETIME (365 days, the
  same as the phone's `tc` cookie, web/cookies.py), renewed when used a month or more after
  it was last set. A CSRF refusal says so (`X-Companion-Retry: csrf`, web/errors.py) and
  carries a fresh token, with which the outbox sends a kept entry once more.
"""
from __future__ import annotations

from datetime import date, timedelta

from flask import Flask, Response
from flask.globals import request_ctx


#: The response header that marks an answer as the app's own (see the module docstring).
MARK = "X-Companion"
#: A CSRF refusal carries this header with the value "csrf", and a fresh token in X-CSRFToken:
#: the phone's outbox sends the same write (same submission id) once more with it
#: (web/errors.py, static/js/outbox.js).
RETRY = "X-Companion-Retry"

#: How long the `session` cookie (the CSRF secret) lives after it was last set: as long as
#: the phone's key cookie (`tc`). A shorter life protects nothing (the secret only binds the
#: forms to this browser; SameSite=Lax and the origin check stay) and would expire a form,
#: or an entry waiting offline, on a phone that comes back after a break. (Chromium caps
#: any cookie at 400 days.)
SESSION_LIFETIME = timedelta(days=365)
#: The cookie is sent again (its expiry moved on) when a request uses it this many days after
#: it was last set; RENEWED, in the session, is that day (date.toordinal()).
RENEW_AFTER_DAYS = 30
RENEWED = "renewed"


def mark_answer(response: Response) -> Response:
    """Mark the answer as the app's own."""
    response.headers[MARK] = "1"
    return response


def keep_session(response: Response) -> Response:
    """Make the `session` cookie permanent whenever this request used it.

    Only where the session was read or written anyway (a page or fragment with a form, a
    checked POST): reading it elsewhere would add `Vary: Cookie` to static files and the
    live stream. The cookie is set at once where it is new or was a browser-session cookie
    from before, then renewed once RENEW_AFTER_DAYS have passed (the day it was last set is
    in the session): not with every answer, which would add a Set-Cookie to each page and
    live refresh.
    """
    opened = _opened_session()
    if opened is None or not opened.accessed or not opened:
        return response
    today = date.today().toordinal()
    if not opened.permanent or today - opened.get(RENEWED, 0) >= RENEW_AFTER_DAYS:
        opened.permanent = True     # marks it modified: Flask sends the cookie again
        opened[RENEWED] = today
    return response


def _opened_session():
    """This request's session without touching it: Flask 3.1's `session` proxy marks the
    session accessed (and the answer `Vary: Cookie`) on every use, even a look."""
    state = vars(request_ctx._get_current_object())
    return state.get("_session", state.get("session"))


def init_app(app: Flask) -> None:
    """Mark every answer; keep the session cookie (its lifetime: PERMANENT_SESSION_LIFETIME
    and SESSION_REFRESH_EACH_REQUEST, set in companion/__init__.py)."""
    app.after_request(keep_session)
    app.after_request(mark_answer)
