"""Tournament pages: the director creates an event, seats rounds onto real tables, watches
the room, corrects results (audited), locks rounds, prints table cards and exports results;
everyone may see the standings and the projector board.

The director is the browser holding the event's secret in a cookie (like a table's host).
The blueprint keeps its name "events" (endpoints ``events.dashboard`` …) and its URLs
(``/events/new``, ``/e/<event_id>/…``); the work is :mod:`companion.tournaments.service`
and :mod:`companion.tournaments.round_clock`, the forms are read by :mod:`.tournament_forms`.
"""
from __future__ import annotations

import time

from flask import (Blueprint, abort, current_app, make_response, redirect, render_template,
                   request, url_for)
from flask_babel import gettext
from markupsafe import Markup
from flask_limiter.util import get_remote_address

from companion import tables
from companion.lru import LRU
from companion.rules import GAMES
from companion.rules.said import message, said_of
from companion.storage import get_db, rates
from companion.tournaments import round_clock, service, tournament_format

from . import tournament_forms as forms
from .cookies import own_secret, phone_secret
from .extensions import limiter
from .quotas import quota
from .games import game_or_404, ui_for
from .htmx import is_fragment_request, render
from .i18n import N_, current_language
from .qr import qr_svg
from .urls import base_is_loopback, public_base, public_url

bp = Blueprint("events", __name__)

PROJECTOR_ROWS = 15        # standings rows on one projector screen; more rows take turns
STANDINGS_ROWS = 200       # places on one page of the public standings (?page=)
LONG_LIST = 40             # longer entrant lists start folded / searchable
REGISTER_LIMIT = (20, 60.0)   # registrations per address per minute, across all workers
STATUS_WORDS = {"missing": N_("Nobody here yet"), "playing": N_("Playing"),
                "waiting": N_("Waiting for confirmation"), "finished": N_("Finished")}


def _event(event_id: str) -> service.Event:
    if len(event_id) > 32:
        abort(404)
    return service.get_event(get_db(), event_id)


def _director_event(event_id: str) -> service.Event:
    """The event, for its director only (403 for anyone else)."""
    event = _event(event_id)
    if not service.is_director(get_db(), event, phone_secret()):
        raise tables.Forbidden(N_("Only the director's browser can do that. Open the event "
                                  "from the browser that created it."))
    return event


# ---------------------------------------------------------------- creating an event

@bp.get("/events/new")
def choose_game():
    """Pick the game the event plays: every game has a tournament format (derived from its
    rules, see companion.tournaments.formats)."""
    games = list(GAMES.values())
    return render("events/choose.html", "events/choose.html", games=games)


@bp.get("/events/new/<slug>")
def new_event(slug: str):
    """The new-event form: name, rounds, house rules, entrants one per line."""
    game = game_or_404(slug)
    return _form(game, {}, None)


def _form(game, values, error, status: int = 200):
    fmt = tournament_format(game.slug)
    return render("events/new.html", "events/new.html", status, game=game, values=values,
                  error=error, fmt=fmt, ui=ui_for(game.slug),
                  choices=forms.config_choices(fmt))


@bp.post("/events/new/<slug>")
@quota("EVENT_CREATE_LIMIT")
def create(slug: str):
    """Create the event; this browser becomes its director."""
    game = game_or_404(slug)
    form = request.form
    fmt = tournament_format(game.slug)
    try:
        settings = game.parse_settings(form)
        rounds = forms.parse_rounds(form.get("event_rounds"))
        registration = form.get("registration") == "on"
        table_size = forms.parse_table_size(form.get("table_size"), game.slug)
        fmt = tournament_format(game.slug, **({} if table_size is None
                                               else {"preferred_table": table_size}))
        entrants = service.parse_entrants(form.get("entrants", ""), fmt,
                                         allow_few=registration)
        config = forms.parse_config(form, fmt)
        options = {"confirm": bool(game.teams) and form.get("confirm") == "on"}
        for name, _label, _hint in ui_for(game.slug).table_switches:
            options[name] = form.get(name) == "on"
        event, _secret = service.create_event(get_db(), form.get("event_name", ""), game.slug,
                                            settings, options, rounds, entrants,
                                            registration=registration, table_size=table_size,
                                            config=config, secret=own_secret())
    except ValueError as exc:
        return _form(game, form, said_of(exc), 422)
    return redirect(url_for(".dashboard", event_id=event.id), 303)


# ---------------------------------------------------------------- the director's room

def _room(event: service.Event, page: bool = True) -> dict:
    """What the dashboard shows; `page=False` for the polled room alone (no entrant list:
    a big event has thousands)."""
    db = get_db()
    done = service.rounds(db, event)
    current = done[-1] if done else None
    rows = service.round_tables(db, event, current.number) if current else []
    return dict(event=event, rounds=done, current=current, rows=rows, long_list=LONG_LIST,
                public_base=public_base(), loopback=base_is_loopback(),
                words=STATUS_WORDS, counts=service.entrant_counts(db, event),
                entrants=service.entrants(db, event) if page else [],
                audit=service.audit(db, event), error=None,
                tools=_director_tools(event, current, rows) if page else None,
                clock=round_clock.clock_state(event, current),
                clock_minutes=round_clock.DEFAULT_ROUND_MINUTES,
                can_lock=bool(current) and not current.locked and all(r.result for r in rows),
                can_seat=(not current or current.locked) and len(done) < event.rounds)


@bp.get("/e/<event_id>")
def dashboard(event_id: str):
    """The director's dashboard: the current round's tables, live (polled every few seconds)."""
    event = _director_event(event_id)
    url = _players_url(event)
    return render("events/dashboard.html", "events/_room.html", players_url=url,
                  players_qr=lambda: qr_svg(url, gettext("QR code of the players' page")),
                  **_room(event, page=not is_fragment_request()))


def _refused(event: service.Event, message: str, status: int = 422):
    context = _room(event)
    context["error"] = message
    context["players_url"] = _players_url(event)
    context["players_qr"] = lambda: qr_svg(context["players_url"],
                                           gettext("QR code of the players' page"))
    return render("events/dashboard.html", "events/dashboard.html", status, **context)


@bp.post("/e/<event_id>/seat")
def seat(event_id: str):
    """Seat the next round: random first, then by standings."""
    event = _director_event(event_id)
    try:
        service.seat_next_round(get_db(), event)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


def _int_arg(source, name: str) -> int:
    raw = (source.get(name) or "").strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4:
        abort(400)
    return int(raw)


@bp.post("/e/<event_id>/lock")
def lock(event_id: str):
    """Lock a round: its results become final and the next round may be seated."""
    event = _director_event(event_id)
    number = _int_arg(request.form, "round")
    try:
        service.lock_round(get_db(), event, number)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


def _table_of(event: service.Event, source) -> tuple[int, service.TableRow]:
    number, table_no = _int_arg(source, "round"), _int_arg(source, "table")
    rows = service.round_tables(get_db(), event, number)
    row = next((r for r in rows if r.number == table_no), None)
    if row is None:
        raise tables.NotFound(message("tournament", "Round {round} has no table {table}.",
                                      round=number, table=table_no))
    return number, row


@bp.get("/e/<event_id>/correct")
def correct_form(event_id: str):
    """The correction form for one table's result."""
    event = _director_event(event_id)
    number, row = _table_of(event, request.args)
    return render("events/correct.html", "events/correct.html", event=event, number=number,
                  row=row, values={}, error=None)


@bp.post("/e/<event_id>/correct")
def correct(event_id: str):
    """Save a corrected result with the director's reason (kept in the audit log)."""
    event = _director_event(event_id)
    number, row = _table_of(event, request.form)
    try:
        places = forms.parse_places(request.form, len(row.entrants))
        scores = forms.parse_scores(request.form, len(row.entrants))
        service.correct_result(get_db(), event, number, row.number, places,
                              request.form.get("who", ""), request.form.get("why", ""),
                              scores)
    except ValueError as exc:
        return render("events/correct.html", "events/correct.html", 422, event=event,
                      number=number, row=row, values=request.form, error=said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.post("/e/<event_id>/entrants")
def change_entrants(event_id: str):
    """Between rounds: add a late arrival, drop an entrant, or take a dropped one back."""
    event = _director_event(event_id)
    action = request.form.get("action")
    try:
        if action == "add":
            service.add_entrant(get_db(), event, (request.form.get("name") or "")[:400])
        elif action in ("drop", "return"):
            service.set_dropped(get_db(), event, (request.form.get("name") or "")[:400],
                               action == "drop")
        else:
            abort(400)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#entrants", 303)


@bp.post("/e/<event_id>/registration")
def registration(event_id: str):
    """Open or close the players' self-registration through the event's QR."""
    event = _director_event(event_id)
    action = request.form.get("action")
    if action not in ("open", "close"):
        abort(400)
    service.set_registration(get_db(), event, action == "open")
    return redirect(url_for(".dashboard", event_id=event.id) + "#players-qr", 303)


@bp.get("/e/<event_id>/cards")
def cards(event_id: str):
    """Printable table cards, 1, 2 or 4 to an A4 page (?per_page=): one card per table number
    the biggest round so far used. Each QR code opens that table number in whatever round is
    current, so the cards are printed once per event; a card of one to a page also lists the
    current round's seats."""
    event = _director_event(event_id)
    db = get_db()
    done = service.rounds(db, event)
    if not done:
        raise tables.NotFound(N_("No round has been seated yet."))
    current = done[-1]
    per_page = _per_page(request.args.get("per_page"))
    # Only a whole page has room for names; the smaller cards stay on the tables all event.
    rows = ({r.number: r for r in service.round_tables(db, event, current.number)}
            if per_page == 1 else {})
    cards = []
    for number in range(1, service.most_tables(db, event) + 1):
        url = _table_card_url(event, number)
        cards.append({"number": number, "row": rows.get(number), "url": url,
                      "qr": qr_svg(url, gettext("QR code of table %(n)s", n=number))})
        # A QR code costs milliseconds: 500 of them would hold this gevent worker (and
        # every live table on it) for seconds. Let the other requests in between.
        time.sleep(0)
    return render("events/cards.html", "events/cards.html", event=event, current=current,
                  cards=cards, per_page=per_page, choices=CARDS_PER_PAGE)


@bp.get("/e/<event_id>/results.csv")
def results_csv(event_id: str):
    """Every result of the event as a CSV download."""
    event = _director_event(event_id)
    text = service.results_csv(get_db(), event)
    response = make_response(text)
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.csv"'
    return response


# ---------------------------------------------------------------- for everyone

@bp.get("/e/<event_id>/standings")
def standings(event_id: str):
    """The standings: points and tie-breaks (readable by anyone with the link), a page of
    STANDINGS_ROWS places at a time (?page=), each page's table drawn once per results
    key and language (:func:`_drawn`)."""
    event = _event(event_id)
    db = get_db()
    rows, key = service.standings_keyed(db, event)
    done = service.rounds(db, event)
    pages = _pages(len(rows), STANDINGS_ROWS)
    page = _page_arg(pages)
    shown = rows[(page - 1) * STANDINGS_ROWS: page * STANDINGS_ROWS]
    table = _drawn(("standings", key, page, STANDINGS_ROWS), event=event, rows=shown,
                   rounds=done)
    if is_fragment_request():
        response = make_response(table)
        response.headers["Vary"] = "HX-Request, Cookie"
        return response
    return render("events/standings.html", "events/standings.html", event=event,
                  standings_table=table, page_no=page, pages=pages, total=len(rows),
                  rows_per_page=STANDINGS_ROWS, shown=len(shown))


@bp.get("/e/<event_id>/projector")
def projector(event_id: str):
    """The standings for a projector: large type, dark, refreshed every few seconds. While a
    round is played its pairings take turns with the standings (see _projector_screen).
    Its standings table is drawn once per results key, language and page (:func:`_drawn`)."""
    event = _event(event_id)
    db = get_db()
    rows, key = service.standings_keyed(db, event)
    done = service.rounds(db, event)
    url = _players_url(event)
    screen = _projector_screen(event, rows, done)
    table = _drawn(("projector", key, screen["page_no"], PROJECTOR_ROWS), event=event,
                   rows=screen["rows"], rounds=done)
    return render("events/projector.html", "events/_projector.html", event=event,
                  rounds=done, players_url=url, standings_table=table,
                  players_qr=lambda: qr_svg(url, gettext("QR code of the players' page")),
                  **screen)


_paired = LRU(16)    # (event id, event version) -> the round's pairings, for the projector


def _pairings(event: service.Event) -> list[dict]:
    """The latest round's pairings (service.pairings), once per event version: seating,
    a swap, a late entrant or a drop all bump it (service.touch), and the projector asks
    every 10 s (2,500 names are a fifth of a second of work on a busy machine)."""
    key = (event.id, event.version)
    hit = _paired.get(key)
    if hit is None:
        hit = service.pairings(get_db(), event)
        _paired.put(key, hit)
    return hit


#: Standings tables as drawn, per (page kind, results key, page, language): the results key
#: (service.results_key: the event's version and every result) changes with anything the
#: table shows, so a drawing is good until then. A few events' worth in each process.
_drawings = LRU(64)


def _drawn(key: tuple, **context) -> Markup:
    """templates/events/_standings.html drawn with `context`, or its drawing for `key` (plus
    the page's language) from before: repeated anonymous GETs of a big event's standings
    cost a lookup, not 2,500 rows of template."""
    key = (*key, current_language())
    hit = _drawings.get(key)
    if hit is None:
        hit = Markup(render_template("events/_standings.html", **context))
        _drawings.put(key, hit)
    return hit


def _players_url(event: service.Event) -> str:
    """The player page's address as a QR code carries it (see :mod:`.urls`)."""
    return public_url(url_for(".players", event_id=event.id))


def _table_card_url(event: service.Event, table_no: int) -> str:
    """A table card's address: that table number in whatever round is current, so a
    card is printed once per event."""
    return public_url(url_for(".table_card", event_id=event.id, table_no=table_no))


@bp.get("/e/<event_id>/players")
def players(event_id: str):
    """A player's phone: pick (or register) your name, then see your table this round and
    your standing, kept up to date. Reading never writes: picking a name is a POST
    (:func:`pick`) that gives this phone the entrant's pass."""
    event = _event(event_id)
    db = get_db()
    asked = (request.args.get("name") or "")[:200].strip()
    holder = service.pass_holder(db, event.id, phone_secret())
    name, error, own = "", None, False
    if asked:
        found = service.find_player(db, event, asked)
        name = found[0] if found else ""
        own = bool(holder and found and holder[0] == found[0])
        if not name:
            error = message("tournament", "“{name}” isn't on this event's list. Check the "
                            "spelling, or pick your name below.", name=asked[:40])
    elif holder and "pick" not in request.args:
        name, own = holder[0], True
    return _players_page(event, name, own, missing=error)


def _players_page(event: service.Event, name: str, own: bool, *, missing: str | None = None,
                  error: str | None = None, values=None, status: int | None = None):
    db = get_db()
    mine = _mine(event, name) if name else None
    # A player's own view needs no list of everybody (2,500 names in a big event).
    people = [] if mine else [e.name for e in service.entrants(db, event)]
    # Only a player's own view polls itself; anything else is the whole page.
    fragment = "events/_mine.html" if mine else "events/players.html"
    code = status or (404 if missing else 200)
    return render("events/players.html", fragment, code, event=event, people=people,
                  name=name, mine=mine, own=own, long_list=LONG_LIST, fmt=event.format,
                  values=values or {}, error=error, missing=missing)


def _mine(event: service.Event, name: str) -> dict:
    """What one entrant's phone shows: this round's table (or bye) and their standing."""
    db = get_db()
    rows = service.standings(db, event)
    row = next((r for r in rows if r["entrant"] == name), None)
    if row is None:
        # Registered a moment after this request read the event: read it again.
        event = service.get_event(db, event.id)
        rows = service.standings(db, event)
        row = next(r for r in rows if r["entrant"] == name)
    done = service.rounds(db, event)
    current = done[-1] if done else None
    table = service.table_of(db, event, current.number, name) if current else None
    return {"row": row, "current": current, "table": table,
            "bye": bool(current and name in current.byes), "count": len(rows),
            "clock": round_clock.clock_state(event, current) if current else None}


def _with_pass(response, event: service.Event, entrant: str, member: str | None):
    service.issue_pass(get_db(), event, entrant, member, secret=own_secret())
    return response


@bp.post("/e/<event_id>/pick")
def pick(event_id: str):
    """"This is me": the phone takes the pass of the entrant it names (a name tapped in
    the list or typed in the search box), so it may take that entrant's seat."""
    event = _event(event_id)
    asked = (request.form.get("name") or "")[:200].strip()
    found = service.find_player(get_db(), event, asked) if asked else None
    if found is None:
        return _players_page(event, "", False, missing=(
            message("tournament", "“{name}” isn't on this event's list. Check the spelling, "
                    "or pick your name below.", name=asked[:40])
            if asked else N_("Type or tap your name.")))
    response = redirect(url_for(".players", event_id=event.id), 303)
    return _with_pass(response, event, *found)


@bp.post("/e/<event_id>/my-table")
def my_table(event_id: str):
    """Open this phone's table of the current round and sit it in its entrant's seat."""
    event = _event(event_id)
    db = get_db()
    holder = service.pass_holder(db, event.id, phone_secret())
    if holder is None:   # no name picked on this phone yet: the players' page asks for it
        return redirect(url_for(".players", event_id=event.id), 303)
    done = service.rounds(db, event)
    row = service.table_of(db, event, done[-1].number, holder[0]) if done else None
    if row is None:
        return redirect(url_for(".players", event_id=event.id), 303)
    return _open_table(event, row.table_id)


@bp.get("/e/<event_id>/t/<int:table_no>")
def table_card(event_id: str, table_no: int):
    """A table card's QR code: table `table_no` of the current round. Its entrants' phones
    (through their pass) sit down in their seats; anyone else watches."""
    event = _event(event_id)
    row = service.table_numbered(get_db(), event, table_no) if table_no < 10_000 else None
    if row is None:
        raise tables.NotFound(message("tournament", "Table {table} has no game in this round "
                                      "(yet). Check the number, or ask the director.",
                                      table=table_no))
    return _open_table(event, row.table_id)


def _open_table(event: service.Event, table_id: str):
    """Join the table (a phone cookie, like its QR code) and take this phone's own free
    seat if it has one there; then show the table (or its seats)."""
    db = get_db()
    table = tables.get_table(db, table_id)
    phone, _secret = tables.join(db, table, own_secret())
    if not phone.seated:
        free = {s.pos for s in tables.seats_of(db, table.id) if not s.has_phone}
        mine = sorted(service.seats_for_pass(db, table, phone_secret()) & free)
        if mine:
            try:
                phone = tables.claim_seat(db, table.id, phone, mine[0], {mine[0]})
            except tables.TableError:
                pass   # taken a moment ago: the seats page says by whom
    target = "table.show" if phone.seated else "table.seats"
    return redirect(url_for(target, table_id=table.id), 303)


@bp.post("/e/<event_id>/register")
def register(event_id: str):
    """A player registers themselves (or their team) through the event's QR code."""
    event = _event(event_id)
    form = request.form
    limit, window = REGISTER_LIMIT
    if not rates.hit(get_db(), "register", get_remote_address() or "-", limit, window):
        return _players_page(event, "", False, status=429, values=form, error=message(
            "tournament", "Too many registrations from this network: at most {limit} a "
            "minute. Wait a minute, then try again.", limit=limit))
    # A team registers its players in member_0.. (one box each); a player in member_0.
    boxes = 3 if event.format["kind"] == "teams" else 1
    parts = [(form.get(f"member_{i}") or "").strip()[:200] for i in range(boxes)]
    line = ", ".join(part for part in parts if part)
    try:
        name = service.register(get_db(), event.id, line)
    except ValueError as exc:
        return _players_page(event, "", False, status=422, values=form, error=said_of(exc))
    member = parts[0] if event.format["kind"] == "teams" else None
    response = redirect(url_for(".players", event_id=event.id), 303)
    return _with_pass(response, event, name, member)


# ---------------------------------------------------------------- the room (issue 13): round
# clock, pairings by name (page and projector), table cards per page, the director's link

PROJECTOR_PAIRINGS = 20    # names on one projector screen (two columns); more take turns
CARDS_PER_PAGE = (1, 2, 4)


def _join_limit() -> str:
    """The join links' rate limit (config JOIN_RATE_LIMIT), as for a table's QR code."""
    return current_app.config["JOIN_RATE_LIMIT"]


def _pages(count: int, per_page: int) -> int:
    return max(1, -(-count // per_page))


def _page_arg(pages: int) -> int:
    """?page= from 1 to `pages`; anything else shows the first page."""
    raw = request.args.get("page", "1")
    ok = raw.isascii() and raw.isdigit() and len(raw) <= 4 and 1 <= int(raw) <= pages
    return int(raw) if ok else 1


def _per_page(raw: str | None) -> int:
    """Table cards to an A4 page: 1, 2 or 4 (anything else: 1)."""
    text = (raw or "").strip()
    return int(text) if text in {str(n) for n in CARDS_PER_PAGE} else 1


def _projector_screen(event: service.Event, rows: list[dict], done: list) -> dict:
    """What the projector shows on this refresh, and the address of the next screen.

    The standings take turns a page (PROJECTOR_ROWS places) at a time. While a round is
    seated and not locked, a page of its pairings follows each page of standings:
    ?page=N is standings page N, ?show=pairings&page=N pairings page N; the shorter list
    starts over while the longer one pages on, so every page of both is seen.
    """
    current = done[-1] if done else None
    playing = bool(current) and not current.locked
    paired = _pairings(event) if playing else []
    spages = _pages(len(rows), PROJECTOR_ROWS)
    ppages = _pages(len(paired), PROJECTOR_PAIRINGS)
    cycle = max(spages, ppages) if playing else spages
    page = _page_arg(cycle)
    show = "pairings" if playing and request.args.get("show") == "pairings" else "standings"
    if show == "pairings":
        next_url = url_for(".projector", event_id=event.id, page=page % cycle + 1)
    elif playing:
        next_url = url_for(".projector", event_id=event.id, show="pairings", page=page)
    else:
        next_url = url_for(".projector", event_id=event.id, page=page % spages + 1)
    s_page, p_page = (page - 1) % spages + 1, (page - 1) % ppages + 1
    return dict(show=show, next_url=next_url, total=len(rows), page_no=s_page, pages=spages,
                rows_per_page=PROJECTOR_ROWS,
                rows=rows[(s_page - 1) * PROJECTOR_ROWS: s_page * PROJECTOR_ROWS],
                pairs=paired[(p_page - 1) * PROJECTOR_PAIRINGS: p_page * PROJECTOR_PAIRINGS],
                pair_page=p_page, pair_pages=ppages, pairs_per_page=PROJECTOR_PAIRINGS,
                pair_total=len(paired), current=current,
                clock=round_clock.clock_state(event, current) if current else None)


@bp.post("/e/<event_id>/clock")
def clock(event_id: str):
    """The round clock: start (a number of minutes), pause, resume, extend (+5 min or a number
    of minutes) or stop. Every page of the event shows it."""
    event = _director_event(event_id)
    action = request.form.get("action")
    if action not in round_clock.CLOCK_ACTIONS:
        abort(400)
    try:
        minutes = forms.parse_minutes((request.form.get("minutes") or "")[:10])
        round_clock.set_clock(get_db(), event, action, minutes)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.get("/e/<event_id>/pairings")
def pairings(event_id: str):
    """The latest round's pairings by name, for anyone with the link: where every player
    sits (printable, two columns on A4)."""
    event = _event(event_id)
    db = get_db()
    done = service.rounds(db, event)
    return render("events/pairings.html", "events/pairings.html", event=event,
                  current=done[-1] if done else None, people=service.pairings(db, event))


def _dashboard_page(event: service.Event, **extra):
    """The whole dashboard (not the polled room alone), with `extra` in its context."""
    context = _room(event)
    context["players_url"] = url = _players_url(event)
    context["players_qr"] = lambda: qr_svg(url, gettext("QR code of the players' page"))
    context.update(extra)
    return render("events/dashboard.html", "events/dashboard.html", **context)


@bp.post("/e/<event_id>/director-link")
def director_link(event_id: str):
    """A new director's link for a second device (it replaces the previous one), shown once
    on the dashboard as a QR code and an address: only its hash is stored."""
    event = _director_event(event_id)
    token = service.new_director_link(get_db(), event)
    url = public_url(url_for(".director_join", event_id=event.id, token=token))
    return _dashboard_page(service.get_event(get_db(), event.id), director_url=url,
                           director_qr=qr_svg(url, gettext("QR code of the director's link")))


@bp.get("/e/<event_id>/director/<token>")
@limiter.limit(_join_limit)
def director_join(event_id: str, token: str):
    """The director's link (like a table's QR code, opening it is the action): this browser
    becomes a director of the event, then sees the dashboard. A wrong or replaced link is
    a plain 404; guessing is limited like joining a table."""
    if len(token) > 64:
        abort(404)
    event = _event(event_id)
    service.join_as_director(get_db(), event, token, secret=own_secret())
    return redirect(url_for(".dashboard", event_id=event.id), 303)


# ---------------------------------------------------------------- the director's tools (issue
# 13): penalties and bonuses, swapping entrants or unseating a round before play, the
# standings as CSV

# The tie-breaks' names as pages show them (the library's TIEBREAK_NAMES, translatable).
TIEBREAK_WORDS = {"game": N_("Game score"), "buchholz": N_("Buchholz"),
                  "median_buchholz": N_("Median-Buchholz"),
                  "sonneborn_berger": N_("Sonneborn-Berger")}


@bp.context_processor
def _tiebreak_words() -> dict:
    """The standings table (page, projector) heads its tie-break columns with these."""
    return {"tiebreak_words": TIEBREAK_WORDS}


def _director_tools(event: service.Event, current, rows: list) -> dict:
    """What the director's tools on the dashboard need: the penalties and bonuses in force,
    who plays the current round (seated or a bye) and why its seating can't change, if so."""
    db = get_db()
    playing = {e for r in rows for e in r.entrants} | set(current.byes if current else ())
    return {"adjustments": service.adjustments(db, event),
            "playing": sorted(playing, key=lambda name: (name.casefold(), name)),
            "refusal": service.edit_refusal(db, event) if current else None}


def _tools_done(event: service.Event):
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-tools", 303)


def _who() -> str:
    return (request.form.get("who") or "")[:100]


@bp.post("/e/<event_id>/adjustments")
def adjustments(event_id: str):
    """A penalty or bonus for an entrant, with a reason (action=add), or taking one back
    (action=withdraw, id=...). Both are kept in the audit log."""
    event = _director_event(event_id)
    form = request.form
    action = form.get("action")
    try:
        if action == "add":
            points, number = forms.parse_adjustment(form, event)
            service.add_adjustment(get_db(), event, (form.get("entrant") or "")[:400], points,
                                  (form.get("reason") or "")[:1000], _who(), number)
        elif action == "withdraw":
            service.withdraw_adjustment(get_db(), event, _int_arg(form, "id"), _who())
        else:
            abort(400)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return _tools_done(event)


@bp.post("/e/<event_id>/swap")
def swap(event_id: str):
    """Swap two entrants (teams) between tables of the current round before play begins."""
    event = _director_event(event_id)
    form = request.form
    number = _int_arg(form, "round")
    try:
        service.swap_entrants(get_db(), event, number, (form.get("entrant_a") or "")[:400],
                             (form.get("entrant_b") or "")[:400], _who())
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return _tools_done(event)


@bp.post("/e/<event_id>/unseat")
def unseat(event_id: str):
    """Take back the current round's seating before play begins, to seat it again."""
    event = _director_event(event_id)
    number = _int_arg(request.form, "round")
    try:
        service.unseat_round(get_db(), event, number, _who())
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.get("/e/<event_id>/standings.csv")
def standings_csv(event_id: str):
    """The standings as a CSV download: places, points, every tie-break used, team
    members, dropped entrants."""
    event = _director_event(event_id)
    response = make_response(service.standings_csv(get_db(), event))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = \
        f'attachment; filename="event-{event.id}-standings.csv"'
    return response
