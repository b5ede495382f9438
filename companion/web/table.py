"""A table's pages: the live sheet and entry form, seats, history, host tools, live stream."""
from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property

from flask import (Blueprint, Response, abort, current_app, get_template_attribute,
                   make_response, redirect, render_template, request, url_for)
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from markupsafe import Markup

from companion import tables
from companion.lru import LRU
from companion.storage import get_db
from companion.tables.live import hub
from companion.tables.prune import mark_opened
from companion.tables.tokens import new_submission_id
from companion.events import claims
from companion.events.devices import is_director
from companion.events.entrants import seats_for_pass
from companion.events.event import get_event

from .cookies import phone_secret, rotate_secret
from .games import GameUI, ui_for
from .errors import error_response
from .i18n import N_, current_language, said_of
from . import streams
from . import fragments
from .htmx import csrf_token, is_fragment_request, render
from .qr import qr_svg
from .urls import base_is_loopback, base_mismatch, join_url

bp = Blueprint("table", __name__, url_prefix="/t/<table_id>")

MAX_SUBMISSION_ID = 64
#: Entries per page of a table's history (the export keeps them all).
HISTORY_PAGE = 100
#: Where a shared tables/_play.html holds a write's answer (the notice under the tapped
#: button) and its one catch-up refresh (", load"): a live refresh fills them with nothing,
#: the phone that wrote with its own (web/fragments.py).
ANSWER_SLOT, LOAD_SLOT = fragments.slot("answer"), fragments.slot("load")
#: The drawn "Earlier games" lists, per (Sheet.past_key, language) (View.earlier_games).
_earlier_games = LRU(1024)


class TableURLs:
    """A table's own URLs for its templates: ``view.urls.enter`` is
    ``url_for("table.enter", table_id=...)``, built on first use and kept for the request
    (a page names the same few URLs a dozen times)."""

    def __init__(self, table_id: str):
        self._table_id = table_id

    def __getattr__(self, endpoint: str) -> str:
        if endpoint.startswith("_"):
            raise AttributeError(endpoint)
        url = url_for(f"table.{endpoint}", table_id=self._table_id)
        setattr(self, endpoint, url)
        return url


@dataclass
class View:
    """What every table page knows about the table and the phone looking at it.

    The sheet is folded only when a page asks for it: the live stream and the polling
    fallback need just the table's version.
    """

    table: tables.Table
    phone: tables.Phone

    @cached_property
    def sheet(self) -> tables.Sheet:
        return tables.sheet(get_db(), self.table)

    @cached_property
    def urls(self) -> TableURLs:
        return TableURLs(self.table.id)

    @cached_property
    def earlier_games(self) -> Markup:
        """The sheet's list of earlier games (tables/_earlier_games.html). Only a rematch or
        a write before the current game changes it, so it is drawn once per stored set
        (`Sheet.past_key`) and language, not into every answer: a table that has played 96
        games would otherwise draw 96 lines each time (issue 18)."""
        sheet = self.sheet

        def draw() -> Markup:
            return Markup(render_template("tables/_earlier_games.html",
                                          past_games=sheet.past_games))

        if not sheet.past_games or sheet.past_key is None:
            return draw()
        key = (sheet.past_key, current_language())
        found = _earlier_games.get(key)
        if found is None:
            found = draw()
            _earlier_games.put(key, found)
        return found

    @cached_property
    def is_director(self) -> bool:
        """Whether this browser directs the event this table belongs to (its host tools)."""
        if self.table.event_id is None:
            return False
        db = get_db()
        try:
            event = get_event(db, self.table.event_id)
        except tables.NotFound:
            return False
        return is_director(db, event, phone_secret())

    @cached_property
    def is_host(self) -> bool:
        """Whether the host tools are this phone's: the host's (at an event's table, the
        event director's)."""
        return self.is_director or tables.host_allowed(self.table, self.seats, self.phone)

    @cached_property
    def allowed_seats(self) -> set[int] | None:
        """At an event's table, the seats this phone may take (its entrant's, through the
        players' page pass); None at any other table (every free seat)."""
        if self.table.event_id is None:
            return None
        return seats_for_pass(get_db(), self.table, phone_secret())

    @property
    def seats(self) -> list[tables.Seat]:
        return self.sheet.seats

    @property
    def me(self) -> tables.Seat | None:
        return next((s for s in self.seats if s.pos == self.phone.seat), None)

    @property
    def ui(self) -> GameUI:
        """The game's web adapter (templates, entry parsing, history lines)."""
        return ui_for(self.table.game_slug)

    def name_of(self, pos: int | None) -> str:
        return next((s.name for s in self.seats if s.pos == pos), "—")

    @property
    def invite_first(self) -> bool:
        """Whether the invite QR leads this phone's screen: the host's, until a second
        phone has taken a seat (templates/tables/_chrome.html)."""
        return self.is_host and sum(s.has_phone for s in self.seats) < 2


def _view(table_id: str) -> View:
    db = get_db()
    table = tables.get_table(db, table_id)
    phone = tables.phone_by_secret(db, table.id, phone_secret())
    if phone is None:
        raise tables.Forbidden(N_("This table is private to the phones that joined it. Scan "
                                  "the table's QR code, or type its join code on the start "
                                  "page."))
    if phone.rotate:
        # Another phone passed this one the host role: its key is renewed on its first
        # request since (the mark is cleared with the new key, in one transaction).
        rotate_secret(("UPDATE phones SET rotate = 0 WHERE id = ?", [phone.id]))
    return View(table, phone)


def _page_context(view: View, **extra) -> dict:
    url = join_url(view.table.token)
    # join_qr is a callable: only the full page draws the QR, never the live fragments.
    context = dict(view=view, join_url=url, loopback=base_is_loopback(),
                   other_base=base_mismatch(),
                   join_qr=lambda: qr_svg(url, gettext("QR code to join this table")),
                   sid=new_submission_id(), values={}, message=None, status_kind=None,
                   answer_slot=None, load_slot=None)
    context.update(extra)  # callers pass message/status_kind: override, don't clash
    return context


@bp.get("")
def show(table_id: str):
    """The table page: live sheet, entry form, QR panel."""
    view = _view(table_id)
    mark_opened(get_db(), view.table.id)   # for `companion prune` (at most hourly)
    return render("tables/table.html", "tables/_play.html", **_page_context(view))


@bp.get("/sheet")
def sheet_fragment(table_id: str):
    """The sheet alone (scripts and tests; the page refreshes /play); 204 when `since` is
    already the current version."""
    return _fragment(table_id, "tables/_sheet.html")


@bp.get("/entry")
def entry_fragment(table_id: str):
    """A fresh entry form alone (scripts and tests; the page refreshes /play)."""
    return _fragment(table_id, "tables/_entry.html")


@bp.get("/play")
def play_fragment(table_id: str):
    """The sheet and a fresh entry form in one answer: what the page fetches on each change
    the stream announces (or every 2 s while it polls), with since=<the version on screen>;
    204 when that is still the current version. The page morphs it in and leaves an entry
    form being typed in alone (templates/tables/_play.html)."""
    return _fragment(table_id, "tables/_play.html")


def _fragment(table_id: str, template: str):
    view = _view(table_id)
    if request.args.get("since") == str(view.table.version):
        return Response(status=204)
    if not is_fragment_request():
        return redirect(url_for(".show", table_id=table_id), 303)
    context = _page_context(view)
    html = _shared(view, context, template)
    if template == "tables/_play.html":
        html += _chrome(view, context, _int_or_none(request.args.get("since")))
    response = make_response(html)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


def _shared(view: View, context: dict, template: str, answer: str = "", load: str = "") -> str:
    """`template` as every phone with this phone's viewer key sees it at this version:
    every phone at the table asks for it right after a change, and the phone that made the
    change gets it too, so it is rendered once per version and viewer (fragments.py), with
    this phone's own token and form id, and `answer`/`load` in its slots."""
    key = (view.table.id, view.table.version, template, _viewer(view))
    drawn = dict(context, answer_slot=Markup(ANSWER_SLOT), load_slot=Markup(LOAD_SLOT))
    return fragments.shared(key, csrf_token(), context["sid"],
                            lambda: render_template(template, **drawn),
                            slots={ANSWER_SLOT: answer, LOAD_SLOT: load})


def _chrome(view: View, context: dict, since: int | None) -> str:
    """The page's chrome (who this phone is, the invite QR, the host tools), marked to be
    swapped out of band: appended to a /play answer or a write's answer when it changed
    after `since`, the version of the page the phone shows (None: unknown, always sent), so
    seat and host changes reach every phone live (templates/tables/_chrome.html) and an
    entry's answers don't carry 7 kB nobody needs (issue 18). It differs by seat and
    host-ness (never by the game's viewer key): it is shared per what it shows
    (:func:`_chrome_key`), not per version."""
    if since is not None and view.table.chrome_version <= since:
        return ""
    return fragments.shared(_chrome_key(view, context), csrf_token(), context["sid"],
                            lambda: render_template("tables/_chrome_oob.html", **context),
                            counts=fragments.chrome_stats)


def _int_or_none(raw: str | None) -> int | None:
    """The version a request says its page shows (`since`, a form's `version`), if readable."""
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def _chrome_key(view: View, context: dict) -> Hashable:
    """Everything templates/tables/_chrome.html (and _chrome_oob.html without a host note)
    reads: the table's identity, code, host seat and event; every seat (name, phone, lock,
    team); this phone's seat and host-ness; the join URL and the loopback and other-address
    warnings. (The
    language is added by fragments.shared; the CSRF token is put back per phone.) A new
    field read there must be added here."""
    table = view.table
    seats = tuple((s.pos, s.name, s.team, s.has_phone, s.locked) for s in view.seats)
    return (table.id, "chrome", table.code, table.token, table.host_seat, table.event_id,
            view.phone.seat, view.is_host, seats, context["join_url"], context["loopback"],
            context.get("other_base"))


def _viewer(view: View) -> Hashable:
    """What a game's live fragments depend on besides the table's version: the adapter's
    ``viewer_key`` (by default each seat gets its own copy, which is always safe)."""
    return view.ui.viewer_key(view)


@bp.get("/version")
def version(table_id: str):
    """The table's version as plain text, 204 while `since` is still current: a cheap probe
    for scripts and tests (the page itself polls its fragments, see tables/_play.html)."""
    view = _view(table_id)
    if request.args.get("since") == str(view.table.version):
        return Response(status=204)
    return Response(str(view.table.version), mimetype="text/plain")


@bp.get("/stream")
def stream(table_id: str):
    """Server-Sent Events: `changed` with the table's version whenever it changes, and a
    `ping` every keep-alive. The page's live fragments refresh on `changed` (hx-trigger
    "changed from:#live"); "event" is the table's action log, not this."""
    view = _view(table_id)
    config = current_app.config
    address = get_remote_address() or "-"
    if streams.stopping() or not streams.admit(address, config["STREAMS_PER_ADDRESS"],
                                                config["STREAM_FD_RESERVE"]):
        # Before descriptors run out: a plain 503; the page refreshes by polling instead.
        return error_response(N_("Too many live connections right now; this page checks for "
                                 "changes every few seconds instead."), 503)
    hub.ensure_poller(config["DATABASE"], config["LIVE_POLL_INTERVAL"])
    keepalive, max_seconds = config["LIVE_KEEPALIVE"], config["LIVE_MAX_SECONDS"]
    table_id, known = view.table.id, view.table.version

    def messages():
        try:
            # The first message lets a reconnecting page catch up on what it missed.
            yield f"retry: 1000\nevent: changed\ndata: {known}\n\n"
            sent, started = known, time.monotonic()
            while time.monotonic() - started < max_seconds and not streams.stopping():
                current = hub.wait(table_id, sent, keepalive)
                if streams.stopping():
                    break       # the server is stopping: the page reconnects by itself
                if current is not None and current > sent:
                    sent = current
                    yield f"event: changed\ndata: {current}\n\n"
                else:
                    # A named message (not a comment): the page can tell the stream is
                    # alive, and a departed phone is noticed at this write.
                    yield "event: ping\ndata: \n\n"
        finally:
            streams.release(address)

    return Response(messages(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# ---------------------------------------------------------------- writes

def _version_arg() -> int | None:
    """The sheet version a form was rendered at, if it sent one (400 if unreadable)."""
    raw = request.form.get("version")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        abort(400)


def _form_int(name: str) -> int:
    """A whole number from the form: 400 if unreadable or beyond SQLite's 64-bit integers."""
    try:
        value = int(request.form.get(name, ""))
    except ValueError:
        abort(400)
    if not -2**63 <= value < 2**63:  # sqlite3 would raise OverflowError (a 500)
        abort(400)
    return value


def _submission_id() -> str:
    sid = request.form.get("sid", "")
    if not sid or len(sid) > MAX_SUBMISSION_ID:
        abort(400)
    return sid


def _play_response(view: View, *, status: int = 200, message: str | None = None,
                   kind: str = "ok", values: dict | None = None, rule: str | None = None):
    """After a write: the sheet and entry form (htmx), or back to the page (plain form post)."""
    if not is_fragment_request() and status < 400:
        return redirect(url_for(".show", table_id=view.table.id), 303)
    context = _page_context(view)
    if is_fragment_request() and status == 200 and kind == "ok" and not values and not rule:
        # Done: the sheet and a fresh form as every phone like this one gets them at the
        # new version (the others' refreshes reuse this rendering), with this phone's
        # notice under the button and its one catch-up refresh (a change may have come in
        # meanwhile) in their slots.
        notice = get_template_attribute("_macros.html", "notice")(message, kind, None, True)
        html = _shared(view, context, "tables/_play.html", answer=str(notice), load=", load")
    else:
        # answer: _play.html catches up once after it. Refused: drawn for this phone alone
        # (what it typed, which boxes were wrong).
        context.update(message=message, status_kind=kind, values=values or {}, rule=rule,
                       answer=True)
        if not is_fragment_request():
            return render("tables/table.html", "tables/_play.html", status=status, **context)
        html = render_template("tables/_play.html", **context)
    # The chrome only if it changed since the version the form was drawn at.
    html += _chrome(view, context, _int_or_none(request.form.get("version")))
    response = make_response(html, status)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


def _refresh(view: View, outcome: tables.Outcome | None = None) -> View:
    """The view after a write: from the write's own result when there is one."""
    if outcome is None:
        return _view(view.table.id)
    fresh = View(outcome.sheet.table, view.phone)
    fresh.sheet = outcome.sheet  # cached_property: set the value the write already folded
    return fresh


@bp.post("/actions")
def enter(table_id: str):
    """Save one entry (a round) made against the version the form was rendered at."""
    view = _view(table_id)
    sid = _submission_id()
    names = view.sheet.names
    values = view.ui.form_values(request.form, names)
    try:
        version = int(request.form.get("version", ""))
    except ValueError:
        return _play_response(view, status=400, kind="error", values=values,
                              message=gettext("The form was missing its sheet version. "
                                                      "Reload the page."))
    try:
        payload = view.ui.parse_entry(request.form, names, view.sheet.summary)
    except ValueError as exc:     # the adapter's refusal: an N_ sentence or a Said
        return _play_response(view, status=422, kind="error", values=values,
                              message=said_of(exc))
    try:
        outcome = tables.enter(get_db(), table_id, view.phone, payload, version, sid)
    except tables.Conflict as exc:
        return _play_response(_refresh(view), status=409, kind="conflict", values=values,
                              message=exc.message)
    except tables.TableError as exc:
        return _play_response(_refresh(view), status=exc.status, kind="error", values=values,
                              message=exc.message, rule=exc.rule)
    note = (gettext("That was already saved (a repeated tap); nothing was entered twice.")
            if outcome.duplicate else gettext("Saved as entry #%(seq)s.", seq=outcome.action.seq))
    return _play_response(_refresh(view, outcome), message=note)


@bp.post("/undo")
def undo(table_id: str):
    """Strike an entry (the last one, or any earlier one from the history page)."""
    return _mark_entry(table_id, tables.undo, N_("Entry #%(seq)s was struck."),
                       N_("Entry #%(seq)s was already struck (a repeated tap)."))


@bp.post("/confirm")
def confirm(table_id: str):
    """The other team confirms a pending entry (tables where opponents confirm each hand)."""
    return _mark_entry(table_id, tables.confirm, N_("Entry #%(seq)s confirmed."),
                       N_("Entry #%(seq)s confirmed."))


def _mark_entry(table_id: str, mark, done: str, repeated: str):
    """The one path that marks an earlier entry (`tables.undo` or `tables.confirm`): the
    answer is the history page when the form came from there, else the sheet and form.
    `done`/`repeated` are msgids with a ``%(seq)s`` (marked ``N_`` where they are written)."""
    view = _view(table_id)
    sid = _submission_id()
    target = _form_int("target")
    try:
        outcome = mark(get_db(), table_id, view.phone, target, sid)
    except tables.TableError as exc:
        return _after_mark(_refresh(view), exc.status, exc.message, "error")
    payload = outcome.action.payload
    restored = payload.get("restores")
    if outcome.action.pending:   # a request: the sheet changes once the other team agrees
        note = (gettext("Asked the other team to agree to bring entry #%(seq)s back.",
                        seq=restored) if restored is not None else
                gettext("Asked the other team to agree to strike entry #%(seq)s.", seq=target))
    elif payload.get("cancels"):
        note = gettext("Request #%(seq)s was cancelled; the sheet stays as it was.", seq=target)
    elif restored is not None:     # an undo of a strike: the entry counts again
        note = gettext("Entry #%(seq)s is back on the sheet.", seq=restored)
    elif "struck" in payload:      # the other team agreed to a strike
        note = gettext("Entry #%(seq)s was struck: both teams agreed.", seq=payload["struck"])
    else:
        note = gettext(repeated if outcome.duplicate else done, seq=target)
    return _after_mark(_refresh(view, outcome), 200, note, "ok")


def _after_mark(view: View, status: int, message: str, kind: str):
    if request.form.get("from") == "history":
        before = _history_before(request.form.get("before"))    # the page it came from
        if not is_fragment_request() and status < 400:
            return redirect(url_for(".history", table_id=view.table.id, before=before), 303)
        return render("tables/history.html", "tables/_history.html", status=status,
                      **_history_context(view, before, message=message, status_kind=kind,
                                         answer=True))
    return _play_response(view, status=status, kind=kind, message=message)


@bp.post("/rematch")
def rematch(table_id: str):
    """Start a new game with the same seats once this one is over."""
    view = _view(table_id)
    sid = _submission_id()
    version = _version_arg()
    try:
        outcome = tables.rematch(get_db(), table_id, view.phone, sid, version)
    except tables.Conflict as exc:
        return _play_response(_refresh(view), status=409, kind="conflict", message=exc.message)
    except tables.TableError as exc:
        return _play_response(_refresh(view), status=exc.status, kind="error", message=exc.message)
    return _play_response(_refresh(view, outcome), message=gettext("A new game has started. "
                                                                          "Good luck!"))


# ---------------------------------------------------------------- seats

@bp.get("/seats")
def seats(table_id: str):
    """Pick a seat, or just watch."""
    view = _view(table_id)
    return render_template("tables/seats.html", **_page_context(view))


@bp.post("/seats")
def claim(table_id: str):
    """Sit down in a free seat (or move to another free one)."""
    view = _view(table_id)
    choice = request.form.get("seat", "")
    if choice == "watch":
        tables.leave_seat(get_db(), table_id, view.phone)
        return redirect(url_for(".show", table_id=table_id), 303)
    pos = _form_int("seat")
    try:
        tables.claim_seat(get_db(), table_id, view.phone, pos, view.allowed_seats,
                          claims.seat_note(get_db(), view.table, phone_secret()))
    except tables.TableError as exc:
        context = _page_context(_refresh(view), message=exc.message, status_kind="error")
        return render_template("tables/seats.html", **context), exc.status
    if pos == view.table.host_seat and pos != view.phone.seat and view.table.event_id is None:
        rotate_secret()     # the host's seat, and with it the host's rights
    return redirect(url_for(".show", table_id=table_id), 303)


# ---------------------------------------------------------------- history

def _history_before(raw: str | None) -> int | None:
    """The page of the history asked for (``before``: show the entries below this number),
    None for the newest entries (also for anything that isn't a plain number)."""
    raw = (raw or "").strip()
    ok = raw.isascii() and raw.isdigit() and len(raw) <= 12 and int(raw) > 1
    return int(raw) if ok else None


def _history_context(view: View, before: int | None = None, **extra) -> dict:
    """The history page's context: one page of HISTORY_PAGE entries, newest first, with the
    link to the older ones (a table's log of an evening is thousands of entries)."""
    size = current_app.config.get("HISTORY_PAGE", HISTORY_PAGE)
    actions, older = tables.history_page(get_db(), view.table, before, size)
    return _page_context(view, actions=actions, before=before, older=older, **extra)


@bp.get("/history")
def history(table_id: str):
    """Every entry, undo and seat change, with who did it and when. The page refreshes it
    live like the sheet (templates/tables/_history.html): 204 while `since` is current."""
    view = _view(table_id)
    if request.args.get("since") == str(view.table.version):
        return Response(status=204)
    return render("tables/history.html", "tables/_history.html",
                  **_history_context(view, _history_before(request.args.get("before"))))


# ---------------------------------------------------------------- host tools

def _seat_arg() -> int:
    return _form_int("seat")


@bp.post("/host/rejoin")
def host_rejoin(table_id: str):
    """Show a one-time QR that puts a new phone in a seat (a player's phone died)."""
    view = _view(table_id)
    pos = _seat_arg()
    token = tables.make_rejoin_token(get_db(), table_id, view.phone, pos, view.is_director)
    url = join_url(token)
    return render_template("tables/rejoin.html", view=_refresh(view), seat_name=view.name_of(pos),
                           rejoin_url=url,
                           rejoin_qr=qr_svg(url, gettext("QR code to rejoin a seat")))


@bp.post("/host/release")
def host_release(table_id: str):
    """Remove the phone holding a seat (it becomes a spectator; the seat stays locked until
    a rejoin code, and the table gets a new join code)."""
    view = _view(table_id)
    pos = _seat_arg()
    tables.release_seat(get_db(), table_id, view.phone, pos, view.is_director)
    if view.table.event_id is None:
        note = gettext("%(name)s’s phone was removed. The seat opens only with a rejoin code, "
                       "and the table has a new join code.", name=view.name_of(pos))
    else:
        note = gettext("%(name)s’s phone was removed. The seat opens only with a rejoin code.",
                       name=view.name_of(pos))
    return _host_answer(table_id, note, "#host")


@bp.post("/host/pass")
def host_pass(table_id: str):
    """Pass the host role to another seat."""
    view = _view(table_id)
    pos = _seat_arg()
    tables.pass_host(get_db(), table_id, view.phone, pos)
    return _host_answer(table_id, gettext("%(name)s is the host now.", name=view.name_of(pos)))


def _host_answer(table_id: str, note: str, anchor: str = ""):
    """After a host tool: back to the page (a plain form post), or for htmx (the tools ask
    first with hx-confirm and swap nothing themselves) this phone's chrome, out of band,
    with `note` where the tools were. Every other phone gets its own through the stream."""
    if not is_fragment_request():
        return redirect(url_for(".show", table_id=table_id) + anchor, 303)
    view = _view(table_id)
    html = render_template("tables/_chrome_oob.html", **_page_context(view, host_note=note))
    response = make_response(html)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response
