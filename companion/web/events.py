"""Tournament pages: the director creates an event, seats rounds onto real tables, watches
the room, corrects results (audited), locks rounds, prints table cards and exports results;
everyone may see the standings and the projector board.

The director is the browser holding the event's secret in a cookie (like a table's host).
"""
from __future__ import annotations

import time
from urllib.parse import quote, unquote

from flask import Blueprint, abort, make_response, redirect, request, url_for

from companion import events, tables
from companion.rules import GAMES
from companion.storage import get_db
from companion.tournament import FORMATS, tournament_format

from .extensions import limiter
from .games import game_or_404, has_ui, ui_for
from .htmx import is_fragment_request, render
from .i18n import N_
from .qr import qr_svg
from .table import _join_url

bp = Blueprint("events", __name__)

COOKIE_MAX_AGE = 60 * 60 * 24 * 90
PROJECTOR_ROWS = 15        # standings rows on one projector screen; more rows take turns
LONG_LIST = 40             # longer entrant lists start folded / searchable
REGISTER_LIMIT = "20 per minute"
STATUS_WORDS = {"missing": N_("Nobody here yet"), "playing": N_("Playing"),
                "waiting": N_("Waiting for confirmation"), "finished": N_("Finished")}


def _cookie(event_id: str) -> str:
    return f"te_{event_id}"


def _player_cookie(event_id: str) -> str:
    """The cookie remembering which entrant this phone is (not a secret: any name's
    page is public)."""
    return f"tp_{event_id}"


def _event(event_id: str) -> events.Event:
    if len(event_id) > 32:
        abort(404)
    return events.get_event(get_db(), event_id)


def _director_event(event_id: str) -> events.Event:
    """The event, for its director only (403 for anyone else)."""
    event = _event(event_id)
    if not events.is_director(get_db(), event, request.cookies.get(_cookie(event.id))):
        raise tables.Forbidden("Only the director's browser can do that. Open the event "
                               "from the browser that created it.")
    return event


def _game_or_404(slug: str):
    """The game of an event's URL: one with phone screens and a tournament format."""
    game = game_or_404(slug)
    if game.slug not in FORMATS:
        abort(404)
    return game


# ---------------------------------------------------------------- creating an event

@bp.get("/events/new")
def choose_game():
    """Pick the game the event plays."""
    games = [g for g in GAMES.values() if has_ui(g.slug) and g.slug in FORMATS]
    return render("events/choose.html", "events/choose.html", games=games)


@bp.get("/events/new/<slug>")
def new_event(slug: str):
    """The new-event form: name, rounds, house rules, entrants one per line."""
    game = _game_or_404(slug)
    return _form(game, {}, None)


def _form(game, values, error, status: int = 200):
    fmt = tournament_format(game.slug)
    return render("events/new.html", "events/new.html", status, game=game, values=values,
                  error=error, fmt=fmt, ui=ui_for(game.slug))


@bp.post("/events/new/<slug>")
def create(slug: str):
    """Create the event; this browser becomes its director."""
    game = _game_or_404(slug)
    form = request.form
    fmt = tournament_format(game.slug)
    try:
        settings = game.parse_settings(form)
        rounds = events.parse_rounds(form.get("event_rounds"))
        registration = form.get("registration") == "on"
        table_size = events.parse_table_size(form.get("table_size"), game.slug)
        fmt = tournament_format(game.slug, **({} if table_size is None
                                               else {"preferred_table": table_size}))
        entrants = events.parse_entrants(form.get("entrants", ""), fmt,
                                         allow_few=registration)
        options = {"confirm": bool(game.teams) and form.get("confirm") == "on"}
        for name, _label, _hint in getattr(ui_for(game.slug), "TABLE_SWITCHES", ()):
            options[name] = form.get(name) == "on"
        event, secret = events.create_event(get_db(), form.get("event_name", ""), game.slug,
                                            settings, options, rounds, entrants,
                                            registration=registration, table_size=table_size)
    except ValueError as exc:
        return _form(game, form, str(exc), 422)
    response = redirect(url_for(".dashboard", event_id=event.id), 303)
    response.set_cookie(_cookie(event.id), secret, max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure, path="/")
    return response


# ---------------------------------------------------------------- the director's room

def _room(event: events.Event, page: bool = True) -> dict:
    """What the dashboard shows; `page=False` for the polled room alone (no entrant list:
    a big event has thousands)."""
    db = get_db()
    done = events.rounds(db, event)
    current = done[-1] if done else None
    rows = events.round_tables(db, event, current.number) if current else []
    return dict(event=event, rounds=done, current=current, rows=rows, long_list=LONG_LIST,
                words=STATUS_WORDS, counts=events.entrant_counts(db, event),
                entrants=events.entrants(db, event) if page else [],
                audit=events.audit(db, event), error=None,
                can_lock=bool(current) and not current.locked and all(r.result for r in rows),
                can_seat=(not current or current.locked) and len(done) < event.rounds)


@bp.get("/e/<event_id>")
def dashboard(event_id: str):
    """The director's dashboard: the current round's tables, live (polled every few seconds)."""
    event = _director_event(event_id)
    url = _players_url(event)
    return render("events/dashboard.html", "events/_room.html", players_url=url,
                  players_qr=lambda: qr_svg(url, "QR code of the players' page"),
                  **_room(event, page=not is_fragment_request()))


def _refused(event: events.Event, message: str, status: int = 422):
    context = _room(event)
    context["error"] = message
    context["players_url"] = _players_url(event)
    context["players_qr"] = lambda: qr_svg(context["players_url"], "QR code of the players' page")
    return render("events/dashboard.html", "events/dashboard.html", status, **context)


@bp.post("/e/<event_id>/seat")
def seat(event_id: str):
    """Seat the next round: random first, then by standings."""
    event = _director_event(event_id)
    try:
        events.seat_next_round(get_db(), event)
    except ValueError as exc:
        return _refused(event, str(exc))
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
        events.lock_round(get_db(), event, number)
    except ValueError as exc:
        return _refused(event, str(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


def _table_of(event: events.Event, source) -> tuple[int, events.TableRow]:
    number, table_no = _int_arg(source, "round"), _int_arg(source, "table")
    rows = events.round_tables(get_db(), event, number)
    row = next((r for r in rows if r.number == table_no), None)
    if row is None:
        raise tables.NotFound(f"Round {number} has no table {table_no}.")
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
        places = events.parse_places(request.form, len(row.entrants))
        events.correct_result(get_db(), event, number, row.number, places,
                              request.form.get("who", ""), request.form.get("why", ""))
    except ValueError as exc:
        return render("events/correct.html", "events/correct.html", 422, event=event,
                      number=number, row=row, values=request.form, error=str(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.post("/e/<event_id>/entrants")
def change_entrants(event_id: str):
    """Between rounds: add a late arrival, drop an entrant, or take a dropped one back."""
    event = _director_event(event_id)
    action = request.form.get("action")
    try:
        if action == "add":
            events.add_entrant(get_db(), event, (request.form.get("name") or "")[:400])
        elif action in ("drop", "return"):
            events.set_dropped(get_db(), event, (request.form.get("name") or "")[:400],
                               action == "drop")
        else:
            abort(400)
    except ValueError as exc:
        return _refused(event, str(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#entrants", 303)


@bp.post("/e/<event_id>/registration")
def registration(event_id: str):
    """Open or close the players' self-registration through the event's QR."""
    event = _director_event(event_id)
    action = request.form.get("action")
    if action not in ("open", "close"):
        abort(400)
    events.set_registration(get_db(), event, action == "open")
    return redirect(url_for(".dashboard", event_id=event.id) + "#players-qr", 303)


@bp.get("/e/<event_id>/cards")
def cards(event_id: str):
    """Printable table cards of the current round: one page per table, with its QR code."""
    event = _director_event(event_id)
    done = events.rounds(get_db(), event)
    if not done:
        raise tables.NotFound("No round has been seated yet.")
    current = done[-1]
    rows = events.round_tables(get_db(), event, current.number)
    cards = []
    for r in rows:
        cards.append({"row": r, "url": _join_url(r.token),
                      "qr": qr_svg(_join_url(r.token), f"QR code to join table {r.number}")})
        # A QR code costs milliseconds: 500 of them would hold this gevent worker (and
        # every live table on it) for seconds. Let the other requests in between.
        time.sleep(0)
    return render("events/cards.html", "events/cards.html", event=event, current=current,
                  cards=cards)


@bp.get("/e/<event_id>/results.csv")
def results_csv(event_id: str):
    """Every result of the event as a CSV download."""
    event = _director_event(event_id)
    text = events.results_csv(get_db(), event)
    response = make_response(text)
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.csv"'
    return response


# ---------------------------------------------------------------- for everyone

@bp.get("/e/<event_id>/standings")
def standings(event_id: str):
    """The standings: points and tie-breaks (readable by anyone with the link)."""
    event = _event(event_id)
    rows = events.standings(get_db(), event)
    return render("events/standings.html", "events/_standings.html", event=event, rows=rows,
                  rounds=events.rounds(get_db(), event))


@bp.get("/e/<event_id>/projector")
def projector(event_id: str):
    """The standings for a projector: large type, dark, refreshed every few seconds."""
    event = _event(event_id)
    rows = events.standings(get_db(), event)
    # A room of 30+ players doesn't fit one screen: the pages take turns, one per refresh.
    pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
    raw = request.args.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= pages else 1
    shown = rows[(page - 1) * PROJECTOR_ROWS: page * PROJECTOR_ROWS]
    url = _players_url(event)
    return render("events/projector.html", "events/_projector.html", event=event, rows=shown,
                  rounds=events.rounds(get_db(), event), players_url=url, page_no=page,
                  pages=pages, rows_per_page=PROJECTOR_ROWS, next_page=page % pages + 1,
                  total=len(rows),
                  players_qr=lambda: qr_svg(url, "QR code of the players' page"))


def _players_url(event: events.Event) -> str:
    """The player page's address as a QR code carries it (the LAN address, as for tables)."""
    base = _join_url("X")[: -len("/J/X")]
    return base + url_for(".players", event_id=event.id)


@bp.get("/e/<event_id>/players")
def players(event_id: str):
    """A player's phone: pick (or register) your name, then see your table this round and
    your standing, kept up to date. The phone remembers the name in a cookie."""
    event = _event(event_id)
    db = get_db()
    asked = (request.args.get("name") or "")[:200].strip()
    remembered = unquote(request.cookies.get(_player_cookie(event.id), ""))[:200]
    name, error = "", None
    if asked:
        name = events.find_entrant(db, event, asked) or ""
        if not name:
            error = (f"“{asked[:40]}” isn't on this event's list. Check the spelling, or pick "
                     "your name below.")
    elif remembered and "pick" not in request.args:
        name = events.find_entrant(db, event, remembered) or ""
    mine = _mine(event, name) if name else None
    # A player's own view needs no list of everybody (2,500 names in a big event).
    people = [] if mine else [e.name for e in events.entrants(db, event)]
    # Only a remembered player's view polls itself; anything else is the whole page.
    fragment = "events/_mine.html" if mine else "events/players.html"
    response = render("events/players.html", fragment, 404 if error else 200, event=event,
                      people=people, name=name, mine=mine, long_list=LONG_LIST,
                      fmt=event.format, values={}, error=None, missing=error)
    if name and name != remembered:
        _remember(response, event, name)
    return response


def _mine(event: events.Event, name: str) -> dict:
    """What one entrant's phone shows: this round's table (or bye) and their standing."""
    db = get_db()
    rows = events.standings(db, event)
    row = next((r for r in rows if r["entrant"] == name), None)
    if row is None:
        # Registered a moment after this request read the event: read it again.
        event = events.get_event(db, event.id)
        rows = events.standings(db, event)
        row = next(r for r in rows if r["entrant"] == name)
    done = events.rounds(db, event)
    current = done[-1] if done else None
    table = events.table_of(db, event, current.number, name) if current else None
    return {"row": row, "current": current, "table": table,
            "bye": bool(current and name in current.byes), "count": len(rows)}


def _remember(response, event: events.Event, name: str) -> None:
    response.set_cookie(_player_cookie(event.id), quote(name), max_age=COOKIE_MAX_AGE,
                        httponly=True, samesite="Lax", secure=request.is_secure, path="/")


@bp.post("/e/<event_id>/register")
@limiter.limit(REGISTER_LIMIT)
def register(event_id: str):
    """A player registers themselves (or their team) through the event's QR code."""
    event = _event(event_id)
    form = request.form
    # A team registers its players in member_0.. (one box each); a player in member_0.
    boxes = 3 if event.format["kind"] == "teams" else 1
    parts = [(form.get(f"member_{i}") or "").strip()[:200] for i in range(boxes)]
    line = ", ".join(part for part in parts if part)
    try:
        name = events.register(get_db(), event.id, line)
    except ValueError as exc:
        db = get_db()
        return render("events/players.html", "events/players.html", 422, event=event,
                      people=[e.name for e in events.entrants(db, event)], name="",
                      mine=None, long_list=LONG_LIST, fmt=event.format, values=form,
                      error=str(exc))
    response = redirect(url_for(".players", event_id=event.id, name=name), 303)
    _remember(response, event, name)
    return response
