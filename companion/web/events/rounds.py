"""The director's rounds: seating the next round, locking one, entering or correcting a
table's result (audited; a locked round's only through "Correct after lock"), the round
clock, the printable table cards and every result as CSV.
"""
from __future__ import annotations

import time

from flask import abort, make_response, redirect, request, url_for
from flask_babel import gettext

from companion import tables
from companion.events import knockout, results, round_clock, rounds, seating
from companion.events.event import Event
from companion.rules.said import message, said_of
from companion.storage import get_db

from . import bp, forms
from .common import director_event, int_field, table_card_url
from .pages import refused
from .. import quotas
from ..htmx import render
from ..qr import qr_svg


CARDS_PER_PAGE = (1, 2, 4)


@bp.post("/e/<event_id>/seat")
def seat(event_id: str):
    """Seat the next round: random first, then by standings."""
    event = director_event(event_id)
    try:
        seating.seat_next_round(get_db(), event, admit=quotas.admit_event_tables)
    except quotas.OverQuota as exc:
        return refused(event, said_of(exc), 429)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.post("/e/<event_id>/cut")
def cut(event_id: str):
    """Start the top cut after the Swiss rounds (size 4 or 8): the best of the standings
    go to a knockout, whose first round the director seats next."""
    event = director_event(event_id)
    raw = (request.form.get("size") or "")[:3]
    try:
        size = int(raw) if raw.isascii() and raw.isdigit() else 0
        knockout.start_cut(get_db(), event, size)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#bracket", 303)


@bp.post("/e/<event_id>/lock")
def lock(event_id: str):
    """Lock a round: its results become final and the next round may be seated."""
    event = director_event(event_id)
    number = int_field(request.form, "round")
    try:
        rounds.lock_round(get_db(), event, number)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


def _table_of(event: Event, source) -> tuple[int, rounds.TableRow]:
    number, table_no = int_field(source, "round"), int_field(source, "table")
    rows = rounds.round_tables(get_db(), event, number)
    row = next((r for r in rows if r.number == table_no), None)
    if row is None:
        raise tables.NotFound(message("tournament", "Round {round} has no table {table}.",
                                      round=number, table=table_no))
    return number, row


def _correct_page(event: Event, number: int, row: rounds.TableRow, values,
                  error: str | None, status: int = 200):
    """The correction form; for a locked round it is the "Correct after lock" form (a
    warning and a box the director ticks), with the later rounds already seated."""
    done = rounds.rounds(get_db(), event)
    later = [r.number for r in done if r.number > number]
    locked = any(r.number == number and r.locked for r in done)
    return render("events/correct.html", "events/correct.html", status, event=event,
                  number=number, row=row, values=values, error=error, locked=locked,
                  later=later)


@bp.get("/e/<event_id>/correct")
def correct_form(event_id: str):
    """The form to enter or correct one table's result (a locked round's too: after the
    lock, with a warning)."""
    event = director_event(event_id)
    number, row = _table_of(event, request.args)
    return _correct_page(event, number, row, {}, None)


@bp.post("/e/<event_id>/correct")
def correct(event_id: str):
    """Save a corrected result with the director's reason (kept in the audit log). A
    locked round's result changes only with the form's "Correct after lock" box ticked
    (after_lock=1)."""
    event = director_event(event_id)
    number, row = _table_of(event, request.form)
    after_lock = request.form.get("after_lock") == "1"
    try:
        places = forms.parse_places(request.form, len(row.entrants))
        scores = forms.parse_scores(request.form, len(row.entrants))
        rounds.correct_result(get_db(), event, number, row.number, places,
                              request.form.get("who", ""), request.form.get("why", ""),
                              scores, after_lock=after_lock)
    except ValueError as exc:
        return _correct_page(event, number, row, request.form, said_of(exc), 422)
    anchor = "#audit" if after_lock else ""
    return redirect(url_for(".dashboard", event_id=event.id) + anchor, 303)


@bp.post("/e/<event_id>/clock")
def clock(event_id: str):
    """The round clock: start (a number of minutes), pause, resume, extend (+5 min or a number
    of minutes) or stop. Every page of the event shows it."""
    event = director_event(event_id)
    action = request.form.get("action")
    if action not in round_clock.CLOCK_ACTIONS:
        abort(400)
    try:
        minutes = forms.parse_minutes((request.form.get("minutes") or "")[:10])
        round_clock.set_clock(get_db(), event, action, minutes)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


#: The most table cards one page prints: the biggest round an event seats (2,500 entrants,
#: two to a table). A QR code costs milliseconds, so this bounds the page at seconds.
MAX_CARDS = 1250


@bp.get("/e/<event_id>/cards")
def cards(event_id: str):
    """Printable table cards, 1, 2 or 4 to an A4 page (?per_page=): one card per table
    number up to ?tables=N (by default the event's largest possible round,
    rounds.largest_round), or the one card of ?table=N (printed again at any time). Each
    QR code opens that table number in whatever round is current, so the cards are printed
    once per event, before round 1 too; a card of one to a page also lists the current
    round's seats."""
    event = director_event(event_id)
    db = get_db()
    done = rounds.rounds(db, event)
    current = done[-1] if done else None
    per_page = _per_page(request.args.get("per_page"))
    default = max(1, rounds.largest_round(db, event))
    count = _card_number(request.args.get("tables"), default)
    single = _card_number(request.args.get("table"), None)
    numbers = [single] if single else range(1, count + 1)
    # Only a whole page has room for names; the smaller cards stay on the tables all event.
    rows = ({r.number: r for r in rounds.round_tables(db, event, current.number)}
            if per_page == 1 and current else {})
    cards = []
    for number in numbers:
        url = table_card_url(event, number)
        cards.append({"number": number, "row": rows.get(number), "url": url,
                      "qr": qr_svg(url, gettext("QR code of table %(n)s", n=number))})
        # A QR code costs milliseconds: 500 of them would hold this gevent worker (and
        # every live table on it) for seconds. Let the other requests in between.
        time.sleep(0)
    return render("events/cards.html", "events/cards.html", event=event, current=current,
                  cards=cards, per_page=per_page, choices=CARDS_PER_PAGE, count=count,
                  single=single, default=default, most=MAX_CARDS)


def _card_number(raw: str | None, default: int | None) -> int | None:
    """?tables= or ?table=: a table number from 1 to MAX_CARDS (absent or empty: `default`;
    anything else is refused with a sentence, 400)."""
    text = (raw or "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 5
            and 1 <= int(text) <= MAX_CARDS):
        raise tables.TableError(message("tournament", "Cards are printed for table 1 to "
                                        "{most}: type a whole number in that range.",
                                        most=MAX_CARDS))
    return int(text)


def _per_page(raw: str | None) -> int:
    """Table cards to an A4 page: 1, 2 or 4 (anything else: 1)."""
    text = (raw or "").strip()
    return int(text) if text in {str(n) for n in CARDS_PER_PAGE} else 1


@bp.get("/e/<event_id>/results.csv")
def results_csv(event_id: str):
    """Every result of the event as a CSV download."""
    event = director_event(event_id)
    text = results.results_csv(get_db(), event)
    response = make_response(text)
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.csv"'
    return response
