"""A table's pages: the live sheet and entry form, seats, history, host tools, live stream."""
from __future__ import annotations

import time
from dataclasses import replace
from functools import cached_property

from flask import (Blueprint, Response, abort, current_app, g, make_response, redirect,
                   render_template, request, url_for)
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from markupsafe import Markup

from companion import tables
from companion.storage import get_db
from companion.tables.live import hub
from companion.tables.numbers import action_at, entry_numbers
from companion.tables.prune import mark_opened
from companion.events import announcements, claims
from companion.events.devices import is_director
from companion.events.entrants import seats_for_pass
from companion.events.event import get_event

from .cookies import phone_secret, rotate_secret
from .games import GameUI, ui_for
from .games.base import EntryError, Parsed
from .errors import error_response
from .i18n import N_, say
from . import streams
from . import fragments
from .fragments import page_context, play_response, since_of
from .htmx import is_fragment_request, render
from .qr import qr_svg
from .sheet_image import image_data
from .urls import join_url

bp = Blueprint("table", __name__, url_prefix="/t/<table_id>")

MAX_SUBMISSION_ID = 64
#: Entries per page of a table's history (the export keeps them all).
HISTORY_PAGE = 100


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


class View:
    """What every table page knows about the table and the phone looking at it, loaded
    once per request (``g.view``, see :func:`_load_view`) and each part only when a page
    asks for it.

    The phone comes first: a browser that isn't one of the table's phones sees nothing of
    it (404 when there is no such table, else 403). The sheet is folded only when a page
    asks for it (the live stream needs just the table's version), and an entry doesn't
    read the table here at all: the write reads it once, and its result is the view
    (:meth:`after`).
    """

    def __init__(self, table_id: str):
        self.table_id = table_id

    @classmethod
    def after(cls, outcome: tables.Outcome, phone: tables.Phone) -> View:
        """The view after a write, from the write's own result (nothing is read again)."""
        view = cls(outcome.sheet.table.id)
        # cached_property: set the values the write already has.
        view.phone, view.table, view.sheet = phone, outcome.sheet.table, outcome.sheet
        return view

    @cached_property
    def phone(self) -> tables.Phone:
        """This browser's phone at the table (404: no such table; 403: not one of its
        phones)."""
        db = get_db()
        phone = tables.phone_by_secret(db, self.table_id, phone_secret())
        if phone is None:
            tables.get_table(db, self.table_id)      # NotFound: there is no such table
            raise tables.Forbidden(N_("This table is private to the phones that joined it. "
                                      "Scan the table's QR code, or type its join code on "
                                      "the start page."))
        if phone.rotate:
            # Another phone passed this one the host role: its key is renewed on its first
            # request since (the mark is cleared with the new key, in one transaction).
            rotate_secret(("UPDATE phones SET rotate = 0 WHERE id = ?", [phone.id]))
        return phone

    @cached_property
    def table(self) -> tables.Table:
        self.phone          # the phone's right to see the table is checked first
        return tables.get_table(get_db(), self.table_id)

    @cached_property
    def sheet(self) -> tables.Sheet:
        return tables.sheet(get_db(), self.table)

    @cached_property
    def urls(self) -> TableURLs:
        return TableURLs(self.table_id)

    @cached_property
    def removed(self) -> bool:
        """Whether the host (an event's director) took this phone off its seat: it takes
        no seat again but through a rejoin code (the seats page says so)."""
        row = get_db().execute("SELECT removed FROM phones WHERE id = ?",
                               [self.phone.id]).fetchone()
        return bool(row and row[0])

    @cached_property
    def chrome(self) -> fragments.Chrome:
        """What the page's chrome shows (templates/tables/_chrome.html), and its cache key."""
        return fragments.Chrome.of(self)

    @property
    def earlier_games(self) -> Markup:
        """The sheet's list of earlier games, drawn once per stored set of them
        (:func:`fragments.earlier_games`)."""
        return fragments.earlier_games(self.sheet)

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


@bp.url_value_preprocessor
def _load_view(_endpoint: str | None, values: dict | None) -> None:
    """Every page of the blueprint is about the table in its URL: its view goes in ``g``
    (read lazily: nothing is read before the request's checks, CSRF included, have run)."""
    g.view = View((values or {}).pop("table_id"))


@bp.url_defaults
def _this_table(endpoint: str, values: dict) -> None:
    """``url_for(".show")`` inside a table's request means this table."""
    if "table_id" not in values and "view" in g:
        values["table_id"] = g.view.table_id


def _view() -> View:
    """This request's view, once the browser is known as one of the table's phones: every
    page checks that first (404: no such table, 403: not its phone), before it reads its
    form."""
    view = g.view
    view.phone          # noqa: B018 - the check
    return view


def _fresh_view() -> View:
    """The view read again (after a refused write: the table as it stands now)."""
    g.view = View(g.view.table_id)
    return g.view


@bp.get("")
def show():
    """The table page: live sheet, entry form, QR panel."""
    view = _view()
    mark_opened(get_db(), view.table.id)   # for `companion prune` (at most hourly)
    event_id = view.table.event_id
    # An event's table also shows the director's newest announcement (and hears of new
    # ones through its stream), one only: the sheet stays on the first screen. Any other
    # table carries nothing more.
    news = announcements.latest(get_db(), event_id, 1) if event_id else []
    return render("tables/table.html", "tables/_play.html", **page_context(view, news=news))


@bp.get("/play")
def play_fragment():
    """The sheet and a fresh entry form in one answer: what the page fetches on each change
    the stream announces (or every 2 s while it polls), with since=<the version on screen>;
    204 when that is still the current version. The page morphs it in and leaves an entry
    form being typed in alone (templates/tables/_play.html)."""
    view = _view()
    if request.args.get("since") == str(view.table.version):
        return Response(status=204)
    if not is_fragment_request():
        return redirect(url_for(".show"), 303)
    context = page_context(view)
    html = fragments.play(view, context, "tables/_play.html")
    html += fragments.chrome(view, context, since_of(request.args.get("since")))
    response = make_response(html)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


@bp.get("/stream")
def stream():
    """Server-sent messages: `changed` with the table's version whenever it changes, and a
    `ping` every keep-alive. The page's live fragments refresh on `changed` (hx-trigger
    "changed from:#live")."""
    view = _view()
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
    # An event's table also hears of the director's announcements: they change no table,
    # so at each wake-up (a change, or the keep-alive) its stream looks at the event's key
    # in this process's memory (companion.events.announcements.live_key).
    news_key = announcements.live_key(view.table.event_id) if view.table.event_id else None
    heard = announcements.latest_id(get_db(), view.table.event_id) if news_key else 0

    def messages():
        nonlocal heard
        try:
            # The first message lets a reconnecting page catch up on what it missed.
            yield f"retry: 1000\nevent: changed\ndata: {known}\n\n"
            sent, started = known, time.monotonic()
            while time.monotonic() - started < max_seconds and not streams.stopping():
                current = hub.wait(table_id, sent, keepalive)
                if streams.stopping():
                    break       # the server is stopping: the page reconnects by itself
                news = hub.known(news_key) if news_key else None
                if news is not None and news > heard:
                    # A ping saying "news" (the page relays pings): static/js/event.js
                    # fetches the announcement. It is this wake-up's sign of life too.
                    heard = news
                    yield f"event: ping\ndata: news {news}\n\n"
                    if current is None or current <= sent:
                        continue
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


@bp.post("/actions")
def enter():
    """Save one entry (a round) made against the version the form was rendered at.

    The form is parsed by the game's adapter inside the write, against the fold the write
    starts from (`tables.enter`): the table is read once. What the form parsed to (or its
    refusal) is kept for the answer's drawing (`entered`)."""
    view = _view()
    sid = _submission_id()
    form = request.form
    entered = Parsed()

    def parse(table: tables.Table, names: list[str], summary: dict) -> dict:
        return entered.parse(ui_for(table.game_slug), form, names, summary)

    def refused(status: int, kind: str, message, rule: str | None = None,
                error: BaseException | None = None):
        fresh = _fresh_view()
        return play_response(fresh, status=status, kind=kind, message=message, rule=rule,
                             values=fresh.ui.form_values(form, fresh.sheet.names),
                             error=error, entered=entered)

    try:
        version = int(form.get("version", ""))
    except ValueError:
        # Nothing is written: the form is read here, against the sheet it is shown with.
        try:
            parse(view.table, view.sheet.names, view.sheet.summary)
        except ValueError:
            pass
        return refused(400, "error", gettext("The form was missing its sheet version. "
                                             "Reload the page."))
    phone = view.phone
    try:
        outcome = tables.enter(get_db(), view.table_id, phone, parse, version, sid)
    except tables.Conflict as exc:
        # Beaten by another phone's save: nothing is lost (the typing comes back), so a
        # calm notice rather than an error.
        return refused(409, "stale" if isinstance(exc, tables.Stale) else "conflict",
                       exc.message)
    except tables.TableError as exc:
        return refused(exc.status, "error", exc.message, exc.rule,
                       error=getattr(exc, "error", exc))
    g.view = View.after(outcome, phone)
    if outcome.duplicate:
        note = gettext("That was already saved (a repeated tap); nothing was entered twice.")
    else:
        note = said_answer(saved_words(g.view, outcome.action),
                           gettext("Saved as entry #%(seq)s.", seq=outcome.action.seq))
    return play_response(g.view, message=note)


# ---------------------------------------------------------------- changing an entry in place

#: The highest entry number a URL may name (SQLite's integers; beyond: no such entry).
MAX_SEQ = 2**62


def _editing(seq: int) -> tables.Editing:
    """Entry `seq` as its edit form starts from, if this phone may change it and the game
    changes such entries in place (404 / 409 / 403 otherwise, in plain words)."""
    view = _view()
    if not view.phone.seated:
        raise tables.Forbidden(N_("Spectators can watch but not enter scores. Pick a free seat "
                                  "to play."))
    if not 0 < seq < MAX_SEQ:
        raise tables.NotFound(N_("There's nothing here. Check the link, or scan the table's QR "
                                 "code again."))
    editing = tables.editing(get_db(), view.table, seq)
    if not view.ui.editable(editing.payload):
        raise tables.TableError(N_("Only a hand or a round can be changed in place. Strike this "
                                   "entry in the history instead."), status=422)
    return editing


def _edit_page(view: View, editing: tables.Editing, status: int = 200, **extra):
    """The edit page: the game's own entry form, pre-filled, read against the game as it
    stood just before the entry (the sheet the form is drawn with is that game)."""
    ui = view.ui
    before = View(view.table_id)
    before.phone, before.table = view.phone, view.table
    before.sheet = replace(view.sheet, summary=editing.summary, state=editing.state)
    number = ui.entry_number(editing.payload, editing.summary)
    context = page_context(before, editing=editing, entry_name=ui.entry_name(editing.payload,
                                                                               number),
                           values=ui.edit_values(editing.payload, before.sheet.names,
                                                 editing.summary))
    context.update(extra)
    return render_template("tables/edit.html", **context), status


@bp.get("/entries/<int:seq>/edit")
def edit_form(seq: int):
    """Change an earlier hand or round in place: the game's entry form with its values."""
    view = _view()
    return _edit_page(view, _editing(seq))


@bp.post("/entries/<int:seq>/edit")
def edit(seq: int):
    """Save the changed values of entry `seq` where it stands (`tables.edit`): the rules
    judge them on the game just before it, and every later entry again. Saved: the
    history, where the change is the newest line (with its undo). Refused: the form again
    with what was typed and why (nothing is written)."""
    view = _view()
    sid = _submission_id()
    form = request.form
    entered = Parsed()

    def parse(table: tables.Table, names: list[str], summary: dict, was: dict) -> dict:
        ui = ui_for(table.game_slug)
        if not ui.editable(was):
            raise EntryError(N_("Only a hand or a round can be changed in place. Strike "
                                "this entry in the history instead."))
        action = entered.parse(ui, form, names, summary)
        if not ui.editable(action):
            raise EntryError(N_("Only a hand or a round can replace a hand or a round."))
        return {"action": action, "number": ui.entry_number(was, summary)}

    version = _version_arg()
    editing = _editing(seq)
    try:
        if version is None:
            raise tables.TableError(N_("The form was missing its sheet version. Reload the "
                                       "page."))
        outcome = tables.edit(get_db(), view.table_id, view.phone, seq, parse, version, sid)
    except tables.TableError as exc:
        fresh = _fresh_view()
        kind = ("stale" if isinstance(exc, tables.Stale)
                else "conflict" if isinstance(exc, tables.Conflict) else "error")
        error = getattr(exc, "error", exc)
        values = fresh.ui.form_values(form, fresh.sheet.names)
        return _edit_page(fresh, editing, exc.status, message=exc.message, status_kind=kind,
                          rule_id=exc.rule, values=values, entered=entered,
                          invalid=fresh.ui.invalid_fields(error, values))
    return redirect(url_for(".history", _anchor=f"action-{outcome.action.seq}"), 303)

def said_answer(words, sentence: str) -> Markup | str:
    """The answer to a save, strike or restore: first, in bold, the entry in its game's
    words (what was saved, with its values, so a 75 typed for 175 is seen at once), then the
    plain sentence with the entry's number (the history's reference, "#7"). Just the
    sentence when there are no words."""
    if words is None:
        return sentence
    return Markup('<b class="said">{}</b> <span class="ref">{}</span>').format(say(words),
                                                                             sentence)


def saved_words(view: View, action: tables.ActionRow):
    """What a save stored, in the game's words (GameUI.entry_words), read off the sheet it
    made: the entry is its newest row, unless it waits for the other team's confirmation
    (then the sheet doesn't show it yet)."""
    summary = None if action.waiting else view.sheet.summary
    return view.ui.entry_words(action.payload, view.sheet.names, summary)


def entry_words(view: View, seq: int, summary: dict | None = None):
    """Entry ``seq`` in its game's words with its number on the sheet as the log stands
    now ("Hand 6: …"); None when ``seq`` is no entry of the game (a seat change, a strike).
    ``summary``: the sheet with this entry as its newest (see GameUI.entry_words)."""
    db = get_db()
    action = action_at(db, view.table_id, seq)
    if action is None or action.row_kind not in ("game", "rematch"):
        return None
    if action.row_kind == "rematch":
        return gettext("The rematch (a new game)")
    ui = view.ui
    number = entry_numbers(db, view.table_id, [seq], ui.counts_as_entry).get(seq)
    return ui.entry_words(action.payload, view.sheet.names, summary, number)


@bp.post("/undo")
def undo():
    """Strike an entry (the last one, or any earlier one from the history page).

    The answer says what was struck, in the game's words, read before the strike (the
    entry's number and, for the newest entry, the row it made on the sheet)."""
    view = _view()
    target = _form_int("target")
    last = view.sheet.last_undoable
    newest = last is not None and last.seq == target and not last.waiting
    words = entry_words(view, target, view.sheet.summary if newest else None)
    return _mark_and_answer(tables.undo, N_("Entry #%(seq)s was struck."),
                            N_("Entry #%(seq)s was already struck (a repeated tap)."),
                            words=words)


@bp.post("/confirm")
def confirm():
    """The other team confirms a pending entry (tables where opponents confirm each hand)."""
    return _mark_and_answer(tables.confirm, N_("Entry #%(seq)s confirmed."),
                               N_("Entry #%(seq)s confirmed."))


def _mark_and_answer(mark, done: str, repeated: str, words=None):
    """The one view that marks an earlier entry (`tables.undo` or `tables.confirm`): the
    answer is the history page when the form came from there, else the sheet and form.
    `done`/`repeated` are msgids with a ``%(seq)s`` (marked ``N_`` where they are written);
    `words`: the target entry in its game's words, said first (above the sentence with
    its number) when a strike went through."""
    view = _view()
    sid = _submission_id()
    target = _form_int("target")
    phone = view.phone
    try:
        outcome = mark(get_db(), view.table_id, phone, target, sid)
    except tables.TableError as exc:
        return _after_mark(_fresh_view(), exc.status, exc.message, "error")
    payload = outcome.action.payload
    restored = payload.get("restores")
    g.view = View.after(outcome, phone)
    if outcome.action.pending:   # a request: the sheet changes once the other team agrees
        note = (gettext("Asked the other team to agree to bring entry #%(seq)s back.",
                        seq=restored) if restored is not None else
                gettext("Asked the other team to agree to strike entry #%(seq)s.", seq=target))
    elif payload.get("cancels"):
        note = gettext("Request #%(seq)s was cancelled; the sheet stays as it was.", seq=target)
    elif restored is not None:     # an undo of a strike: the entry counts again
        note = said_answer(entry_words(g.view, restored),
                           gettext("Entry #%(seq)s is back on the sheet.", seq=restored))
    elif "struck" in payload:      # the other team agreed to a strike
        note = gettext("Entry #%(seq)s was struck: both teams agreed.", seq=payload["struck"])
    elif outcome.duplicate:
        note = gettext(repeated, seq=target)
    else:
        note = said_answer(words, gettext(done, seq=target))
    return _after_mark(g.view, 200, note, "ok")


def _after_mark(view: View, status: int, message: str, kind: str):
    if request.form.get("from") == "history":
        before = _history_before(request.form.get("before"))    # the page it came from
        if not is_fragment_request() and status < 400:
            return redirect(url_for(".history", before=before), 303)
        return render("tables/history.html", "tables/_history.html", status=status,
                      **_history_context(view, before, message=message, status_kind=kind,
                                         answer=True))
    return play_response(view, status=status, kind=kind, message=message)


@bp.post("/rematch")
def rematch():
    """Start a new game with the same seats once this one is over."""
    view = _view()
    sid = _submission_id()
    version = _version_arg()
    phone = view.phone
    try:
        outcome = tables.rematch(get_db(), view.table_id, phone, sid, version)
    except tables.Conflict as exc:
        return play_response(_fresh_view(), status=409,
                             kind="stale" if isinstance(exc, tables.Stale) else "conflict",
                             message=exc.message)
    except tables.TableError as exc:
        return play_response(_fresh_view(), status=exc.status, kind="error",
                             message=exc.message)
    g.view = View.after(outcome, phone)
    # A rematch is one tap (the game is over, nothing is lost): the answer says how to
    # take it back on the spot.
    note = " ".join((gettext("A new game has started. Good luck!"),
                     gettext("Started by mistake? “Undo last entry” takes it back.")))
    return play_response(g.view, message=note)


# ---------------------------------------------------------------- seats

@bp.get("/seats")
def seats():
    """Pick a seat, or just watch."""
    return render_template("tables/seats.html", **page_context(_view()))


@bp.post("/seats")
def claim():
    """Sit down in a free seat (or move to another free one)."""
    view = _view()
    choice = request.form.get("seat", "")
    if choice == "watch":
        tables.leave_seat(get_db(), view.table.id, view.phone)
        return redirect(url_for(".show"), 303)
    pos = _form_int("seat")
    try:
        tables.claim_seat(get_db(), view.table.id, view.phone, pos, view.allowed_seats,
                          claims.seat_note(get_db(), view.table, phone_secret()))
    except tables.TableError as exc:
        context = page_context(_fresh_view(), message=exc.message, status_kind="error")
        return render_template("tables/seats.html", **context), exc.status
    if pos == view.table.host_seat and pos != view.phone.seat and view.table.event_id is None:
        rotate_secret()     # the host's seat, and with it the host's rights
    return redirect(url_for(".show"), 303)


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
    # Each live hand's or round's number on the sheet, for its Strike button ("Strike Hand
    # 6"): read only when the game numbers its entries.
    numbers = {}
    if view.ui.numbered:
        numbers = entry_numbers(get_db(), view.table_id,
                                [a.seq for a in actions
                                 if a.row_kind == "game" and a.undone_by is None],
                                view.ui.counts_as_entry)
    return page_context(view, actions=actions, before=before, older=older, numbers=numbers,
                        **extra)


@bp.get("/history")
def history():
    """Every entry, undo and seat change, with who did it and when. The page refreshes it
    live like the sheet (templates/tables/_history.html): 204 while `since` is current."""
    view = _view()
    if request.args.get("since") == str(view.table.version):
        return Response(status=204)
    context = _history_context(view, _history_before(request.args.get("before")))
    return render("tables/history.html", "tables/_history.html",
                  sheet_image=None if is_fragment_request() else
                  _sheet_image(view, context["actions"]), **context)


def _sheet_image(view: View, actions) -> dict | None:
    """The newest finished game's sheet as data for its picture (companion/web/
    sheet_image.py): the current game once over, dated by the newest entry on this page
    of the history; else, after a rematch, the game before it (dated by the rematch).
    None while the table's first game goes on."""
    summary = view.sheet.summary
    if summary.get("over"):
        when = next((a.created_at for a in actions if a.row_kind in ("game", "edit", "undo")),
                    view.table.created_at)
    elif view.sheet.past_games:
        summary = view.sheet.past_games[-1]
        when = summary.get("ended_at") or view.table.created_at
    else:
        return None
    return image_data(view.table.game, summary, view.sheet.names, when, view.table.code)


# ---------------------------------------------------------------- host tools

def _seat_arg() -> int:
    return _form_int("seat")


@bp.post("/host/rejoin")
def host_rejoin():
    """Show a one-time QR that puts a new phone in a seat (a player's phone died)."""
    view = _view()
    pos = _seat_arg()
    token = tables.make_rejoin_token(get_db(), view.table.id, view.phone, pos,
                                     view.is_director)
    url = join_url(token)
    name = view.name_of(pos)
    return render_template("tables/rejoin.html", view=_fresh_view(), seat_name=name,
                           rejoin_url=url,
                           rejoin_qr=qr_svg(url, gettext("QR code to rejoin a seat")))


@bp.post("/host/release")
def host_release():
    """Remove the phone holding a seat (it becomes a spectator; the seat stays locked until
    a rejoin code, and the table gets a new join code)."""
    view = _view()
    pos = _seat_arg()
    tables.release_seat(get_db(), view.table.id, view.phone, pos, view.is_director)
    if view.table.event_id is None:
        note = gettext("%(name)s’s phone was removed. The seat opens only with a rejoin code, "
                       "and the table has a new join code.", name=view.name_of(pos))
    else:
        note = gettext("%(name)s’s phone was removed. The seat opens only with a rejoin code.",
                       name=view.name_of(pos))
    return _host_answer(note, "#host")


@bp.post("/host/pass")
def host_pass():
    """Pass the host role to another seat."""
    view = _view()
    pos = _seat_arg()
    tables.pass_host(get_db(), view.table.id, view.phone, pos)
    return _host_answer(gettext("%(name)s is the host now.", name=view.name_of(pos)))


def _host_answer(note: str, anchor: str = ""):
    """After a host tool: back to the page (a plain form post), or for htmx (the tools ask
    first with hx-confirm and swap nothing themselves) this phone's chrome, out of band,
    with `note` where the tools were. Every other phone gets its own through the stream."""
    if not is_fragment_request():
        return redirect(url_for(".show") + anchor, 303)
    html = render_template("tables/_chrome_oob.html", **page_context(_fresh_view(),
                                                                     host_note=note))
    response = make_response(html)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response
