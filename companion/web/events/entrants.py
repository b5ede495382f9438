"""The event's entrants and players: the director adds late arrivals, drops entrants, opens
or closes self-registration and manages claims (printable claim slips too); a player's
phone picks (claims) or registers its player, sees its table and standing, and sits down
at its table through its pass or a table card.
"""
from __future__ import annotations

import re

from flask import abort, redirect, request, url_for
from flask_babel import gettext
from flask_limiter.util import get_remote_address
from markupsafe import Markup

from companion import tables
from companion.events import (announcements, claims, devices, entrants, results, round_clock,
                              rounds)
from companion.events.event import Event, get_event
from companion.rules.said import message, said_of
from companion.storage import get_db, rates

from . import bp
from .common import LONG_LIST, director_event, load_event, players_url, who
from .pages import refused
from ..cookies import own_secret, phone_secret
from ..htmx import render
from ..i18n import N_
from ..qr import qr_svg


REGISTER_LIMIT = (20, 60.0)   # registrations per address per minute, across all workers


# Wrong claim codes per address per minute, across all workers: a typo or two per player
# of a club on one network, far too few to guess a code (23^6 of them).
CLAIM_GUESS_LIMIT = (10, 60.0)


@bp.post("/e/<event_id>/entrants")
def change_entrants(event_id: str):
    """Between rounds: add a late arrival, drop an entrant, or take a dropped one back;
    check an entrant in (checkin; a no-show late) or out again (uncheck), switch the
    check-in before round 1 on or off (checkin_on / checkin_off)."""
    event = director_event(event_id)
    action = request.form.get("action")
    name = (request.form.get("name") or "")[:400]
    try:
        if action == "add":
            entrants.add_entrant(get_db(), event, name, checked_in=True)
        elif action in ("drop", "return"):
            entrants.set_dropped(get_db(), event, name, action == "drop")
        elif action in ("checkin", "uncheck"):
            entrants.check_in(get_db(), event, name, action == "checkin")
        elif action in ("checkin_on", "checkin_off"):
            entrants.set_check_in(get_db(), event, action == "checkin_on")
        else:
            abort(400)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#entrants", 303)


@bp.post("/e/<event_id>/registration")
def registration(event_id: str):
    """Open or close the players' self-registration through the event's QR."""
    event = director_event(event_id)
    action = request.form.get("action")
    if action not in ("open", "close"):
        abort(400)
    entrants.set_registration(get_db(), event, action == "open")
    return redirect(url_for(".dashboard", event_id=event.id) + "#players-qr", 303)


@bp.post("/e/<event_id>/claims")
def claims_action(event_id: str):
    """The director's claims: release a player's claim (action=release), release it and
    give the player a new claim code (reassign), or switch the claim codes on or off
    (codes_on / codes_off). Audited."""
    event = director_event(event_id)
    action = request.form.get("action")
    player = (request.form.get("player") or "")[:400]
    try:
        if action in ("release", "reassign"):
            claims.release(get_db(), event, player, who(), reassign=action == "reassign")
        elif action in ("codes_on", "codes_off"):
            claims.set_codes(get_db(), event, action == "codes_on", who())
        else:
            abort(400)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#claims", 303)


@bp.get("/e/<event_id>/slips")
def slips(event_id: str):
    """Printable claim slips for the check-in desk, many to an A4 page: one per player
    with their name, claim code and the players' page (QR code and address)."""
    event = director_event(event_id)
    url = players_url(event)
    # One QR code for every slip: they all open the same page (drawn once, see slips.html).
    drawn = str(qr_svg(url, gettext("QR code of the players' page")))
    qr = {"view_box": re.search(r'viewBox="([^"]+)"', drawn).group(1),
          "path": Markup(re.search(r"<path [^>]*/>", drawn).group(0))}
    return render("events/slips.html", "events/slips.html", event=event, players_url=url,
                  qr=qr, slips=claims.player_claims(get_db(), event),
                  codes=claims.codes_on(event))


@bp.get("/e/<event_id>/players")
def players(event_id: str):
    """A player's phone: pick (or register) your name, then see your table this round and
    your standing, kept up to date. Reading never writes: claiming a name is a POST
    (:func:`pick`) that gives this phone the player's claim."""
    event = load_event(event_id)
    db = get_db()
    asked = (request.args.get("name") or "")[:200].strip()
    holder = entrants.pass_holder(db, event.id, phone_secret())
    name, error, own, member = "", None, False, None
    if asked:
        found = entrants.find_player(db, event, asked)
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


def _players_page(event: Event, name: str, own: bool, *, missing: str | None = None,
                  error: str | None = None, values=None, status: int | None = None,
                  member: str | None = None):
    db = get_db()
    mine = _mine(event, name) if name else None
    # A player's own view needs no list of everybody (2,500 names in a big event).
    people = [] if mine else [e.name for e in entrants.entrants(db, event)]
    # Only a player's own view polls itself; anything else (a refusal too: its notice is
    # outside the polled view) is the whole page.
    fragment = "events/_mine.html" if mine and not error else "events/players.html"
    code = status or (404 if missing else 200)
    holder = entrants.pass_holder(db, event.id, phone_secret()) if own else None
    members = []
    if mine and not own and event.format["kind"] == "teams":
        team = next((e.members for e in entrants.entrants(db, event) if e.name == name), [])
        members = [member] if member in team else team
    return render("events/players.html", fragment, code, event=event, people=people,
                  name=name, mine=mine, own=own, long_list=LONG_LIST, fmt=event.format,
                  values=values or {}, error=error, missing=missing,
                  me=holder[1] if holder else None, members=members,
                  codes=claims.codes_on(event), news=announcements.latest(db, event.id),
                  partners=claims.partner_codes(db, event, phone_secret()) if own else [])


def _mine(event: Event, name: str) -> dict:
    """What one entrant's phone shows: this round's table (or bye) and their standing."""
    db = get_db()
    rows = results.standings(db, event)
    row = next((r for r in rows if r["entrant"] == name), None)
    if row is None:
        # Registered a moment after this request read the event: read it again.
        event = get_event(db, event.id)
        rows = results.standings(db, event)
        row = next(r for r in rows if r["entrant"] == name)
    done = rounds.rounds(db, event)
    current = done[-1] if done else None
    table = rounds.table_of(db, event, current.number, name) if current else None
    # Before round 1, with check-in on: whether this entrant checked in (None: no check-in).
    check_in = None
    if not done and event.config.get("checkin"):
        check_in = entrants.is_checked_in(db, event, name)
    return {"row": row, "check_in": check_in, "current": current, "table": table,
            "bye": bool(current and name in current.byes), "count": len(rows),
            "over": bool(current and current.locked and current.number >= event.total_rounds),
            # The top cut is being played without this entrant (not seeded, or knocked out).
            "cut_out": bool(event.cut and current and current.number > event.rounds),
            "clock": round_clock.clock_state(event, current) if current else None}


@bp.post("/e/<event_id>/pick")
def pick(event_id: str):
    """"This is me": the phone claims the player it names (a name tapped in the list or
    typed in the search box), so it may take that player's seat. While the event's claim
    codes are on, the player's code comes with it (a tap without one opens the player's
    page, which asks for it); a wrong code is refused (403) and counted against the
    address, a player another phone holds is refused (409). Claiming another player
    gives this phone's previous claim back, and its seat."""
    event = load_event(event_id)
    db = get_db()
    asked = (request.form.get("name") or "")[:200].strip()
    code = (request.form.get("code") or "")[:40]
    found = entrants.find_player(db, event, asked) if asked else None
    if found is None:
        return _players_page(event, "", False, missing=(
            message("tournament", "“{name}” isn't on this event's list. Check the spelling, "
                    "or pick your name below.", name=asked[:40])
            if asked else N_("Type or tap your name.")))
    entrant, member = found
    done = redirect(url_for(".players", event_id=event.id), 303)
    if _holds(entrants.pass_holder(db, event.id, phone_secret()), found):
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


@bp.post("/e/<event_id>/check-in")
def check_in(event_id: str):
    """"I'm here": a player's phone checks its own player (its claim) in before round 1,
    while the director has check-in on."""
    event = load_event(event_id)
    try:
        entrants.player_check_in(get_db(), event.id, phone_secret())
    except ValueError as exc:
        holder = entrants.pass_holder(get_db(), event.id, phone_secret())
        return _players_page(event, holder[0] if holder else "", bool(holder),
                             member=holder[1] if holder else None, status=422,
                             error=said_of(exc))
    return redirect(url_for(".players", event_id=event.id) + "#check-in", 303)


@bp.post("/e/<event_id>/not-me")
def not_me(event_id: str):
    """"Not me": this phone gives back the player it claimed, and leaves the seat it took
    through that claim at the current round's table; then the list of names again."""
    event = load_event(event_id)
    db = get_db()
    secret = phone_secret()
    claims.free_own_seat(db, event, secret, claims.give_back(db, event, secret))
    return redirect(url_for(".players", event_id=event.id, pick=1), 303)


@bp.post("/e/<event_id>/my-table")
def my_table(event_id: str):
    """Open this phone's table of the current round and sit it in its player's seat."""
    event = load_event(event_id)
    db = get_db()
    holder = entrants.pass_holder(db, event.id, phone_secret())
    if holder is None:   # no name claimed on this phone yet: the players' page asks for it
        return redirect(url_for(".players", event_id=event.id), 303)
    done = rounds.rounds(db, event)
    row = rounds.table_of(db, event, done[-1].number, holder[0]) if done else None
    if row is None:
        return redirect(url_for(".players", event_id=event.id), 303)
    return _open_table(event, row.table_id)


@bp.get("/e/<event_id>/t/<int:table_no>")
def table_card(event_id: str, table_no: int):
    """A table card's QR code: table `table_no` of the current round. A phone holding the
    claim of a player there sits down in that player's seat; anyone else watches."""
    event = load_event(event_id)
    row = rounds.table_numbered(get_db(), event, table_no) if table_no < 10_000 else None
    if row is None:
        raise tables.NotFound(message("tournament", "Table {table} has no game in this round "
                                      "(yet). Check the number, or ask the director.",
                                      table=table_no))
    return _open_table(event, row.table_id)


def _open_table(event: Event, table_id: str):
    """Join the table (a phone cookie, like its QR code) and take this phone's own free
    seat if its claim gives it one there (the seat entry records the claim); then show
    the table (or its seats)."""
    db = get_db()
    table = tables.get_table(db, table_id)
    phone, _secret = tables.join(db, table, own_secret())
    if not phone.seated:
        free = {s.pos for s in tables.seats_of(db, table.id) if not s.has_phone}
        mine = sorted(entrants.seats_for_pass(db, table, phone_secret()) & free)
        if mine:
            try:
                phone = tables.claim_seat(db, table.id, phone, mine[0], {mine[0]},
                                          claims.seat_note(db, table, phone_secret()))
            except tables.TableError:
                pass   # taken a moment ago: the seats page says by whom
    # The director watches (with the host tools): no "Who are you?" at every table.
    seated = phone.seated or devices.directs_table(db, table, phone_secret())
    target = "table.show" if seated else "table.seats"
    return redirect(url_for(target, table_id=table.id), 303)


@bp.post("/e/<event_id>/register")
def register(event_id: str):
    """A player registers themselves (or their team) through the event's QR code; the
    phone holds the registering player's claim at once (a team's partners claim theirs
    with the codes this phone is shown)."""
    event = load_event(event_id)
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
        name = entrants.register(db, event.id, line)
    except ValueError as exc:
        return _players_page(event, "", False, status=422, values=form, error=said_of(exc))
    found = entrants.find_player(db, event, parts[0]) if event.format["kind"] == "teams" else None
    member = found[1] if found and found[0] == name else None
    secret = own_secret()
    try:
        given_up = claims.hold_registered(db, event, name, member, secret)
    except tables.TableError as exc:
        return _players_page(event, name, False, status=exc.status, error=said_of(exc))
    claims.free_own_seat(db, event, secret, given_up)
    return redirect(url_for(".players", event_id=event.id), 303)
