"""Tournament pages: the director creates an event, seats rounds onto real tables, watches
the room, corrects results (audited), locks rounds, prints table cards and exports results;
everyone may see the standings and the projector board.

The director is the browser holding the event's secret in a cookie (like a table's host).
The blueprint keeps its name "events" (endpoints ``events.dashboard`` …) and its URLs
(``/events/new``, ``/e/<event_id>/…``); the work is :mod:`companion.tournaments.service`
and :mod:`companion.tournaments.round_clock`, the forms are read by :mod:`.tournament_forms`.
"""
from __future__ import annotations

import re
import time

from flask import (Blueprint, abort, current_app, g, make_response, redirect, render_template,
                   request, session, url_for)
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from markupsafe import Markup

from companion import tables
from companion.lru import LRU
from companion.rules import GAMES
from companion.rules.said import message, said_of
from companion.storage import get_db, rates
from companion.tournaments import claims, round_clock, service, tournament_format

from . import quotas, tournament_forms as forms
from .cookies import own_secret, phone_secret, rotate_secret
from .extensions import limiter
from .quotas import quota
from .games import game_or_404, ui_for
from .htmx import is_fragment_request, render
from .i18n import N_, current_language
from .qr import qr_svg
from .urls import base_is_loopback, base_mismatch, director_url, public_base, public_url

bp = Blueprint("events", __name__)

PROJECTOR_ROWS = 15        # standings rows on one projector screen; more rows take turns
STANDINGS_ROWS = 200       # places on one page of the public standings (?page=)
LONG_LIST = 40             # longer entrant lists start folded / searchable
REGISTER_LIMIT = (20, 60.0)   # registrations per address per minute, across all workers
_SHOWN_LINK = "director_link"   # the session key holding a link made, until it is shown
# Wrong claim codes per address per minute, across all workers: a typo or two per player
# of a club on one network, far too few to guess a code (23^6 of them).
CLAIM_GUESS_LIMIT = (10, 60.0)
STATUS_WORDS = {"missing": N_("Nobody here yet"), "playing": N_("Playing"),
                "waiting": N_("Waiting for confirmation"), "finished": N_("Finished")}


def _event(event_id: str) -> service.Event:
    if len(event_id) > 32:
        abort(404)
    return service.get_event(get_db(), event_id)


def _director_event(event_id: str) -> service.Event:
    """The event, for a device directing it only (403 for anyone else, a revoked device
    included); the device is `g.director_device` (noted as seen once answered)."""
    event = _event(event_id)
    db = get_db()
    device = service.director_device(db, event, phone_secret())
    if device is not None and device["revoked_at"] is not None:
        raise tables.Forbidden(N_("This device no longer directs the event: the director "
                                  "revoked it. Ask the director for a new director link."))
    if device is None:
        raise tables.Forbidden(N_("Only the director's browser can do that. Open the event "
                                  "from the browser that created it."))
    g.director_device = device
    g.director_event = event
    return event


@bp.after_request
def _director_seen(response):
    """Note the director device as seen once it was answered (a refused request changes
    nothing, "last seen" included)."""
    device = g.get("director_device")
    if device is not None and response.status_code < 400:
        service.mark_seen(get_db(), g.director_event, device)
    return response


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
        # The form shows the claim codes' checkbox (on by default); a form without it
        # (an older page, a script) keeps the default.
        if form.get("claim_codes_shown") and form.get("claim_codes") != "on":
            config["claim_codes"] = False
        options = {"confirm": bool(game.teams) and form.get("confirm") == "on"}
        for name, _label, _hint in ui_for(game.slug).table_switches:
            options[name] = form.get(name) == "on"
        event, _secret = service.create_event(get_db(), form.get("event_name", ""), game.slug,
                                            settings, options, rounds, entrants,
                                            registration=registration, table_size=table_size,
                                            config=config, secret=own_secret())
    except ValueError as exc:
        return _form(game, form, said_of(exc), 422)
    rotate_secret()     # a director's role: a cookie planted on this browser earlier shares none
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
                other_base=base_mismatch(),
                words=STATUS_WORDS, counts=service.entrant_counts(db, event),
                entrants=service.entrants(db, event) if page else [],
                audit=service.audit(db, event), error=None,
                claims=claims.player_claims(db, event) if page else [],
                codes=claims.codes_on(event),
                tools=_director_tools(event, current, rows) if page else None,
                devices=service.director_devices(db, event) if page else [],
                my_device=(g.get("director_device") or {}).get("device_id"),
                link_minutes=service.LINK_MINUTES,
                clock=round_clock.clock_state(event, current),
                clock_minutes=round_clock.DEFAULT_ROUND_MINUTES,
                can_lock=bool(current) and not current.locked and all(r.result for r in rows),
                can_seat=(not current or current.locked) and len(done) < event.rounds)


@bp.get("/e/<event_id>")
def dashboard(event_id: str):
    """The director's dashboard: the current round's tables, live (polled every few seconds)."""
    event = _director_event(event_id)
    url = _players_url(event)
    page = not is_fragment_request()
    return render("events/dashboard.html", "events/_room.html", players_url=url,
                  players_qr=lambda: qr_svg(url, gettext("QR code of the players' page")),
                  **_room(event, page=page), **(_shown_link(event) if page else {}))


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
        service.seat_next_round(get_db(), event, admit=quotas.admit_event_tables)
    except quotas.OverQuota as exc:
        return _refused(event, said_of(exc), 429)
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


def _correct_page(event: service.Event, number: int, row: service.TableRow, values,
                  error: str | None, status: int = 200):
    """The correction form; for a locked round it is the "Correct after lock" form (a
    warning and a box the director ticks), with the later rounds already seated."""
    done = service.rounds(get_db(), event)
    later = [r.number for r in done if r.number > number]
    locked = any(r.number == number and r.locked for r in done)
    return render("events/correct.html", "events/correct.html", status, event=event,
                  number=number, row=row, values=values, error=error, locked=locked,
                  later=later)


@bp.get("/e/<event_id>/correct")
def correct_form(event_id: str):
    """The form to enter or correct one table's result (a locked round's too: after the
    lock, with a warning)."""
    event = _director_event(event_id)
    number, row = _table_of(event, request.args)
    return _correct_page(event, number, row, {}, None)


@bp.post("/e/<event_id>/correct")
def correct(event_id: str):
    """Save a corrected result with the director's reason (kept in the audit log). A
    locked round's result changes only with the form's "Correct after lock" box ticked
    (after_lock=1)."""
    event = _director_event(event_id)
    number, row = _table_of(event, request.form)
    after_lock = request.form.get("after_lock") == "1"
    try:
        places = forms.parse_places(request.form, len(row.entrants))
        scores = forms.parse_scores(request.form, len(row.entrants))
        service.correct_result(get_db(), event, number, row.number, places,
                              request.form.get("who", ""), request.form.get("why", ""),
                              scores, after_lock=after_lock)
    except ValueError as exc:
        return _correct_page(event, number, row, request.form, said_of(exc), 422)
    anchor = "#audit" if after_lock else ""
    return redirect(url_for(".dashboard", event_id=event.id) + anchor, 303)


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


@bp.post("/e/<event_id>/claims")
def claims_action(event_id: str):
    """The director's claims: release a player's claim (action=release), release it and
    give the player a new claim code (reassign), or switch the claim codes on or off
    (codes_on / codes_off). Audited."""
    event = _director_event(event_id)
    action = request.form.get("action")
    player = (request.form.get("player") or "")[:400]
    try:
        if action in ("release", "reassign"):
            claims.release(get_db(), event, player, _who(), reassign=action == "reassign")
        elif action in ("codes_on", "codes_off"):
            claims.set_codes(get_db(), event, action == "codes_on", _who())
        else:
            abort(400)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#claims", 303)


@bp.get("/e/<event_id>/slips")
def slips(event_id: str):
    """Printable claim slips for the check-in desk, many to an A4 page: one per player
    with their name, claim code and the players' page (QR code and address)."""
    event = _director_event(event_id)
    url = _players_url(event)
    # One QR code for every slip: they all open the same page (drawn once, see slips.html).
    drawn = str(qr_svg(url, gettext("QR code of the players' page")))
    qr = {"view_box": re.search(r'viewBox="([^"]+)"', drawn).group(1),
          "path": Markup(re.search(r"<path [^>]*/>", drawn).group(0))}
    return render("events/slips.html", "events/slips.html", event=event, players_url=url,
                  qr=qr, slips=claims.player_claims(get_db(), event),
                  codes=claims.codes_on(event))


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
                   rows=screen["rows"], rounds=done, legend=False)
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
    key = (*key, current_language(), request.script_root)   # links stay under the prefix
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
    your standing, kept up to date. Reading never writes: claiming a name is a POST
    (:func:`pick`) that gives this phone the player's claim."""
    event = _event(event_id)
    db = get_db()
    asked = (request.args.get("name") or "")[:200].strip()
    holder = service.pass_holder(db, event.id, phone_secret())
    name, error, own, member = "", None, False, None
    if asked:
        found = service.find_player(db, event, asked)
        name, member = found if found else ("", None)
        own = _holds(holder, found)
        if not name:
            error = message("tournament", "“{name}” isn't on this event's list. Check the "
                            "spelling, or pick your name below.", name=asked[:40])
    elif holder and "pick" not in request.args:
        (name, member), own = holder, True
    return _players_page(event, name, own, missing=error, member=member)


def _holds(holder, found) -> bool:
    """Whether the claim `holder` (entrant, member) is the player `found` names (a team's
    name: any claim of that team)."""
    if not holder or not found or holder[0] != found[0]:
        return False
    return found[1] is None or holder[1] in (None, found[1])


def _players_page(event: service.Event, name: str, own: bool, *, missing: str | None = None,
                  error: str | None = None, values=None, status: int | None = None,
                  member: str | None = None):
    db = get_db()
    mine = _mine(event, name) if name else None
    # A player's own view needs no list of everybody (2,500 names in a big event).
    people = [] if mine else [e.name for e in service.entrants(db, event)]
    # Only a player's own view polls itself; anything else (a refusal too: its notice is
    # outside the polled view) is the whole page.
    fragment = "events/_mine.html" if mine and not error else "events/players.html"
    code = status or (404 if missing else 200)
    holder = service.pass_holder(db, event.id, phone_secret()) if own else None
    members = []
    if mine and not own and event.format["kind"] == "teams":
        team = next((e.members for e in service.entrants(db, event) if e.name == name), [])
        members = [member] if member in team else team
    return render("events/players.html", fragment, code, event=event, people=people,
                  name=name, mine=mine, own=own, long_list=LONG_LIST, fmt=event.format,
                  values=values or {}, error=error, missing=missing,
                  me=holder[1] if holder else None, members=members,
                  codes=claims.codes_on(event),
                  partners=claims.partner_codes(db, event, phone_secret()) if own else [])


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


@bp.post("/e/<event_id>/pick")
def pick(event_id: str):
    """"This is me": the phone claims the player it names (a name tapped in the list or
    typed in the search box), so it may take that player's seat. While the event's claim
    codes are on, the player's code comes with it (a tap without one opens the player's
    page, which asks for it); a wrong code is refused (403) and counted against the
    address, a player another phone holds is refused (409). Claiming another player
    gives this phone's previous claim back, and its seat."""
    event = _event(event_id)
    db = get_db()
    asked = (request.form.get("name") or "")[:200].strip()
    code = (request.form.get("code") or "")[:40]
    found = service.find_player(db, event, asked) if asked else None
    if found is None:
        return _players_page(event, "", False, missing=(
            message("tournament", "“{name}” isn't on this event's list. Check the spelling, "
                    "or pick your name below.", name=asked[:40])
            if asked else N_("Type or tap your name.")))
    entrant, member = found
    done = redirect(url_for(".players", event_id=event.id), 303)
    if _holds(service.pass_holder(db, event.id, phone_secret()), found):
        return done
    # Without a code, a claim needs one (codes on) or a team's one member (a team's name
    # tapped): the player's page asks for it.
    team = event.format["kind"] == "teams" and member is None
    if not code.strip() and (claims.codes_on(event) or team):
        return redirect(url_for(".players", event_id=event.id, name=asked), 303)
    address = get_remote_address() or "-"
    limit, window = CLAIM_GUESS_LIMIT
    if claims.codes_on(event) and rates.spent(db, "claim-code", address, limit, window):
        return _players_page(event, entrant, False, member=member, status=429, error=message(
            "tournament", "Too many wrong claim codes from this network: at most {limit} a "
            "minute. Wait a minute, then try again.", limit=limit))
    secret = own_secret()
    try:
        given_up = claims.claim(db, event, entrant, member, secret, code)
    except claims.WrongCode as exc:
        rates.hit(db, "claim-code", address, limit, window)
        return _players_page(event, entrant, False, member=member, status=exc.status,
                             error=said_of(exc))
    except tables.TableError as exc:
        return _players_page(event, entrant, False, member=member, status=exc.status,
                             error=said_of(exc))
    except ValueError as exc:
        return _players_page(event, entrant, False, member=member, status=422,
                             error=said_of(exc))
    claims.free_own_seat(db, event, secret, given_up)
    return done


@bp.post("/e/<event_id>/not-me")
def not_me(event_id: str):
    """"Not me": this phone gives back the player it claimed, and leaves the seat it took
    through that claim at the current round's table; then the list of names again."""
    event = _event(event_id)
    db = get_db()
    secret = phone_secret()
    claims.free_own_seat(db, event, secret, claims.give_back(db, event, secret))
    return redirect(url_for(".players", event_id=event.id, pick=1), 303)


@bp.post("/e/<event_id>/my-table")
def my_table(event_id: str):
    """Open this phone's table of the current round and sit it in its player's seat."""
    event = _event(event_id)
    db = get_db()
    holder = service.pass_holder(db, event.id, phone_secret())
    if holder is None:   # no name claimed on this phone yet: the players' page asks for it
        return redirect(url_for(".players", event_id=event.id), 303)
    done = service.rounds(db, event)
    row = service.table_of(db, event, done[-1].number, holder[0]) if done else None
    if row is None:
        return redirect(url_for(".players", event_id=event.id), 303)
    return _open_table(event, row.table_id)


@bp.get("/e/<event_id>/t/<int:table_no>")
def table_card(event_id: str, table_no: int):
    """A table card's QR code: table `table_no` of the current round. A phone holding the
    claim of a player there sits down in that player's seat; anyone else watches."""
    event = _event(event_id)
    row = service.table_numbered(get_db(), event, table_no) if table_no < 10_000 else None
    if row is None:
        raise tables.NotFound(message("tournament", "Table {table} has no game in this round "
                                      "(yet). Check the number, or ask the director.",
                                      table=table_no))
    return _open_table(event, row.table_id)


def _open_table(event: service.Event, table_id: str):
    """Join the table (a phone cookie, like its QR code) and take this phone's own free
    seat if its claim gives it one there (the seat entry records the claim); then show
    the table (or its seats)."""
    db = get_db()
    table = tables.get_table(db, table_id)
    phone, _secret = tables.join(db, table, own_secret())
    if not phone.seated:
        free = {s.pos for s in tables.seats_of(db, table.id) if not s.has_phone}
        mine = sorted(service.seats_for_pass(db, table, phone_secret()) & free)
        if mine:
            try:
                phone = tables.claim_seat(db, table.id, phone, mine[0], {mine[0]},
                                          claims.seat_note(db, table, phone_secret()))
            except tables.TableError:
                pass   # taken a moment ago: the seats page says by whom
    target = "table.show" if phone.seated else "table.seats"
    return redirect(url_for(target, table_id=table.id), 303)


@bp.post("/e/<event_id>/register")
def register(event_id: str):
    """A player registers themselves (or their team) through the event's QR code; the
    phone holds the registering player's claim at once (a team's partners claim theirs
    with the codes this phone is shown)."""
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
    db = get_db()
    try:
        name = service.register(db, event.id, line)
    except ValueError as exc:
        return _players_page(event, "", False, status=422, values=form, error=said_of(exc))
    found = service.find_player(db, event, parts[0]) if event.format["kind"] == "teams" else None
    member = found[1] if found and found[0] == name else None
    secret = own_secret()
    try:
        given_up = claims.hold_registered(db, event, name, member, secret)
    except tables.TableError as exc:
        return _players_page(event, name, False, status=exc.status, error=said_of(exc))
    claims.free_own_seat(db, event, secret, given_up)
    return redirect(url_for(".players", event_id=event.id), 303)


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


@bp.post("/e/<event_id>/director-link")
def director_link(event_id: str):
    """A new director link for another device (only its hash is stored; it works once, for
    LINK_MINUTES). It ends the previous link, and revokes the devices that came through
    links unless the director ticked "keep" (the device asking always stays). The link is
    shown once, on the dashboard this answers with a redirect to: reloading that page
    shows no link and makes none (a re-sent POST would revoke the helpers again)."""
    event = _director_event(event_id)
    keep = request.form.get("keep") == "on"
    token = service.new_director_link(get_db(), event, keep=keep,
                                      by=g.director_device["device_id"],
                                      who=g.director_device["name"])
    session[_SHOWN_LINK] = [event.id, token]
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-link", 303)


def _shown_link(event: service.Event) -> dict:
    """The director link made just before (kept in this browser's session until this page
    shows it, once), as the dashboard's `director_url` and `director_qr`."""
    shown = session.pop(_SHOWN_LINK, None)
    if not isinstance(shown, list) or len(shown) != 2 or shown[0] != event.id:
        return {}
    url = director_url(event.id, shown[1])
    return {"director_url": url,
            "director_qr": qr_svg(url, gettext("QR code of the director's link"))}


@bp.get("/e/<event_id>/director")
def director_page(event_id: str):
    """The director link, ``/e/<id>/director#<TOKEN>``: the token is in the fragment, which
    no request line (nor access log) carries. This page's script (static/js/join.js) reads
    it and POSTs it here at once; without one it says to open the link again."""
    event = _event(event_id)
    return render_template("events/director_join.html", event=event,
                           old=request.args.get("old") == "1")


@bp.get("/e/<event_id>/director/<token>")
def old_director_link(event_id: str, token: str):
    """An older director link (the token in the path, so in every access log on the way):
    it no longer makes a director; the page says to ask for a new one."""
    return redirect(url_for(".director_page", event_id=_event(event_id).id, old="1"), 303)


@bp.post("/e/<event_id>/director")
@limiter.limit(_join_limit)
def director_join(event_id: str):
    """The token the director link's page POSTs (form field `token`): this browser becomes
    a director device of the event (with a new phone key), then sees the dashboard. A
    wrong, used, ended or expired link is a plain 404; guessing is limited like joining a
    table."""
    token = request.form.get("token") or ""
    if len(token) > 64:
        abort(404)
    event = _event(event_id)
    service.join_as_director(get_db(), event, token, secret=own_secret())
    rotate_secret()
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.post("/e/<event_id>/director-devices")
def director_devices(event_id: str):
    """Name a director device (action=rename, device, name) or revoke one (action=revoke,
    device; the device in use also needs confirm=yes). Both are audited."""
    event = _director_event(event_id)
    form = request.form
    device = (form.get("device") or "")[:32]
    me = g.director_device
    try:
        if form.get("action") == "rename":
            service.rename_director_device(get_db(), event, device,
                                           (form.get("name") or "")[:200], who=me["name"])
        elif form.get("action") == "revoke":
            service.revoke_director_device(get_db(), event, device, by=me["device_id"],
                                           confirmed=form.get("confirm") == "yes",
                                           who=me["name"])
        else:
            abort(400)
    except ValueError as exc:
        return _refused(event, said_of(exc))
    if device == me["device_id"] and form.get("action") == "revoke":
        return redirect(url_for(".standings", event_id=event.id), 303)
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-link", 303)


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
