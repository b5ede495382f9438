"""The event's pages: the director's dashboard (the room, polled every few seconds), and for
everyone the standings, the projector board and the pairings by name. A standings table is
drawn once per results key, language and page (:func:`_drawn`); the projector's pairings
once per event version.
"""
from __future__ import annotations

from flask import g, make_response, render_template, request, session, url_for
from flask_babel import gettext
from markupsafe import Markup

from companion.events import (announcements, claims, devices, director, entrants, knockout,
                              restrictions, results, round_clock, rounds)
from companion.events.event import Event
from companion.lru import LRU
from companion.storage import get_db

from . import bp
from .common import (LONG_LIST, SHOWN_LINK, director_event, load_event, page_arg, page_count,
                     players_url)
from ..htmx import is_fragment_request, render
from ..i18n import N_, current_language
from ..qr import qr_svg
from ..urls import base_is_loopback, base_mismatch, director_url, public_base


STATUS_WORDS = {"missing": N_("Nobody here yet"), "playing": N_("Playing"),
                "waiting": N_("Waiting for confirmation"), "finished": N_("Finished")}
PROJECTOR_ROWS = 200       # standings rows on a projector screen without ?rows= (no script)
PROJECTOR_FIT = (3, 200)   # ?rows=: what the projector's script measured fits its screen
STANDINGS_ROWS = 200       # places on one page of the public standings (?page=)
PROJECTOR_PAIRINGS = 20    # names on one projector screen (two columns); more take turns
# The tie-breaks' names as pages show them (the library's TIEBREAK_NAMES, translatable).
TIEBREAK_WORDS = {"game": N_("Game score"), "buchholz": N_("Buchholz"),
                  "median_buchholz": N_("Median-Buchholz"),
                  "sonneborn_berger": N_("Sonneborn-Berger")}

# Their short names, heading the projector's columns (its caption spells each out): the
# names' room on a 1024-wide screen with four tie-breaks.
TIEBREAK_SHORT = {"game": N_("Score"), "buchholz": N_("Bh"), "median_buchholz": N_("MBh"),
                  "sonneborn_berger": N_("SB")}


@bp.context_processor
def _tiebreak_words() -> dict:
    """The standings table (page, projector) heads its tie-break columns with these."""
    return {"tiebreak_words": TIEBREAK_WORDS, "tiebreak_short": TIEBREAK_SHORT}


def table_counts(rows: list) -> dict:
    """How many of the round's tables are in each state (STATUS_WORDS' keys), and "all"."""
    counts = dict.fromkeys(STATUS_WORDS, 0)
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    counts["all"] = len(rows)
    return counts


def room(event: Event, page: bool = True) -> dict:
    """What the dashboard shows; `page=False` for the polled room alone (no entrant list:
    a big event has thousands). ?tables=open shows only the tables without a final result
    (the polled room keeps the filter: its address carries it)."""
    db = get_db()
    done = rounds.rounds(db, event)
    current = done[-1] if done else None
    every = rounds.round_tables(db, event, current.number) if current else []
    open_only = request.args.get("tables") == "open"
    rows = [r for r in every if r.status != "finished"] if open_only else every
    people = entrants.entrants(db, event) if page else []
    return dict(event=event, rounds=done, current=current, rows=rows, long_list=LONG_LIST,
                table_counts=table_counts(every), open_only=open_only,
                public_base=public_base(), loopback=base_is_loopback(),
                other_base=base_mismatch(),
                words=STATUS_WORDS, counts=entrants.entrant_counts(db, event),
                entrants=people, checked=entrants.check_in_count(people),
                groups=restrictions.apart_groups(event) if page else [],
                fixed=restrictions.fixed_tables(db, event) if page else {},
                notes=(restrictions.round_notes(db, event, every) if page and current
                       and not current.locked else None),
                audit=director.audit(db, event), error=None,
                claims=claims.player_claims(db, event) if page else [],
                codes=claims.codes_on(event),
                tools=director_tools(event, current, every) if page else None,
                devices=devices.director_devices(db, event) if page else [],
                my_device=(g.get("director_device") or {}).get("device_id"),
                link_minutes=devices.LINK_MINUTES,
                clock=round_clock.clock_state(event, current),
                news=announcements.latest(db, event.id),
                announce_most=announcements.MAX_ANNOUNCEMENT,
                clock_minutes=round_clock.DEFAULT_ROUND_MINUTES,
                can_lock=bool(current) and not current.locked and all(r.result for r in every),
                can_seat=(not current or current.locked) and len(done) < event.total_rounds,
                bracket=knockout.bracket(db, event),
                cut_refusal=knockout.can_cut(db, event))


@bp.get("/e/<event_id>")
def dashboard(event_id: str):
    """The director's dashboard: the current round's tables, live (polled every few seconds)."""
    event = director_event(event_id)
    url = players_url(event)
    page = not is_fragment_request()
    return render("events/dashboard.html", "events/_room.html", players_url=url,
                  players_qr=lambda: qr_svg(url, gettext("QR code of the players' page")),
                  **room(event, page=page), **(shown_link(event) if page else {}))


def refused(event: Event, message: str, status: int = 422):
    """The dashboard again with `message` in its alert: what every director's form
    answers when the service refuses (422, or `status`)."""
    context = room(event)
    context["error"] = message
    context["players_url"] = players_url(event)
    context["players_qr"] = lambda: qr_svg(context["players_url"],
                                           gettext("QR code of the players' page"))
    return render("events/dashboard.html", "events/dashboard.html", status, **context)


def shown_link(event: Event) -> dict:
    """The director link made just before (kept in this browser's session until this page
    shows it, once), as the dashboard's `director_url` and `director_qr`."""
    shown = session.pop(SHOWN_LINK, None)
    if not isinstance(shown, list) or len(shown) != 2 or shown[0] != event.id:
        return {}
    url = director_url(event.id, shown[1])
    return {"director_url": url,
            "director_qr": qr_svg(url, gettext("QR code of the director's link"))}


def director_tools(event: Event, current, rows: list) -> dict:
    """What the director's tools on the dashboard need: the penalties and bonuses in force,
    who may still move in the current round (at a table that hasn't started, or a bye), the
    tables that started, and why the whole round can't be unseated any more, if so."""
    db = get_db()
    started = (director.started_tables(db, event, current.number)
               if current and not current.locked else set())
    # Only entrants whose tables haven't started may move (a bye too).
    movable = ({e for r in rows if r.number not in started for e in r.entrants}
               | set(current.byes if current else ()))
    return {"adjustments": director.adjustments(db, event),
            "playing": sorted(movable, key=lambda name: (name.casefold(), name)),
            "started": sorted(started), "open_tables": len(rows) - len(started),
            # A swap needs two places to trade: two tables that haven't started, or one
            # and a bye.
            "can_swap": len(rows) - len(started) + bool(current and current.byes) >= 2,
            "refusal": director.edit_refusal(db, event) if current else None,
            # A round robin's schedule or a knockout's bracket: no swaps, no pairing again.
            "fixed": director.fixed_schedule(event, current.number) if current else None}


@bp.get("/e/<event_id>/standings")
def standings(event_id: str):
    """The standings: points and tie-breaks (readable by anyone with the link), a page of
    STANDINGS_ROWS places at a time (?page=), each page's table drawn once per results
    key and language (:func:`_drawn`)."""
    event = load_event(event_id)
    db = get_db()
    rows, key = results.standings_keyed(db, event)
    done = rounds.rounds(db, event)
    pages = page_count(len(rows), STANDINGS_ROWS)
    page = page_arg(pages)
    shown = rows[(page - 1) * STANDINGS_ROWS: page * STANDINGS_ROWS]
    table = _drawn(("standings", key, page, STANDINGS_ROWS), event=event, rows=shown,
                   rounds=done)
    if is_fragment_request():
        response = make_response(table)
        response.headers["Vary"] = "HX-Request, Cookie"
        return response
    return render("events/standings.html", "events/standings.html", event=event,
                  standings_table=table, page_no=page, pages=pages, total=len(rows),
                  bracket=knockout.bracket(db, event),
                  rows_per_page=STANDINGS_ROWS, shown=len(shown))


@bp.get("/e/<event_id>/projector")
def projector(event_id: str):
    """The standings for a projector: large type, dark, refreshed every few seconds. While a
    round is played its pairings take turns with the standings (see _projector_screen).
    Its standings table is drawn once per results key, language and page (:func:`_drawn`)."""
    event = load_event(event_id)
    db = get_db()
    rows, key = results.standings_keyed(db, event)
    done = rounds.rounds(db, event)
    url = players_url(event)
    screen = _projector_screen(event, rows, done)
    table = _drawn(("projector", key, screen["page_no"], screen["rows_per_page"]), event=event,
                   rows=screen["rows"], rounds=done, legend=False, compact=True)
    return render("events/projector.html", "events/_projector.html", event=event,
                  rounds=done, players_url=url, standings_table=table,
                  bracket=knockout.bracket(db, event),
                  players_qr=lambda: qr_svg(url, gettext("QR code of the players' page")),
                  # The newest announcement only: the board's rows keep their room.
                  news=announcements.latest(db, event.id, 1), **screen)


_paired = LRU(16)    # (event id, event version) -> the round's pairings, for the projector


def _pairings(event: Event) -> list[dict]:
    """The latest round's pairings (rounds.pairings), once per event version: seating,
    a swap, a late entrant or a drop all bump it (event.touch), and the projector asks
    every 10 s (2,500 names are a fifth of a second of work on a busy machine)."""
    key = (event.id, event.version)
    hit = _paired.get(key)
    if hit is None:
        hit = rounds.pairings(get_db(), event)
        _paired.put(key, hit)
    return hit


#: Standings tables as drawn, per (page kind, results key, page, language): the results key
#: (results.results_key: the event's version and every result) changes with anything the
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


def projector_rows() -> int | None:
    """?rows=: how many standings rows fit the projector's screen, as its script measured
    them (static/js/event.js); None (every row, up to PROJECTOR_ROWS) without it or when it
    is out of bounds, so a screen without scripts shows every place."""
    raw = request.args.get("rows", "")
    low, high = PROJECTOR_FIT
    if raw.isascii() and raw.isdigit() and len(raw) <= 3 and low <= int(raw) <= high:
        return int(raw)
    return None


def _projector_screen(event: Event, rows: list[dict], done: list) -> dict:
    """What the projector shows on this refresh, and the address of the next screen.

    The standings take turns a page at a time: as many places as the screen's script
    measured fit it (?rows=, kept in every next address), else PROJECTOR_ROWS. While a round is
    seated and not locked, a page of its pairings follows each page of standings:
    ?page=N is standings page N, ?show=pairings&page=N pairings page N; the shorter list
    starts over while the longer one pages on, so every page of both is seen.
    """
    current = done[-1] if done else None
    playing = bool(current) and not current.locked
    paired = _pairings(event) if playing else []
    fit = projector_rows()
    per_page = fit or PROJECTOR_ROWS
    spages = page_count(len(rows), per_page)
    ppages = page_count(len(paired), PROJECTOR_PAIRINGS)
    cycle = max(spages, ppages) if playing else spages
    page = page_arg(cycle)
    show = "pairings" if playing and request.args.get("show") == "pairings" else "standings"
    kept = {"rows": fit} if fit else {}
    if show == "pairings":
        next_url = url_for(".projector", event_id=event.id, page=page % cycle + 1, **kept)
    elif playing:
        next_url = url_for(".projector", event_id=event.id, show="pairings", page=page,
                           **kept)
    else:
        next_url = url_for(".projector", event_id=event.id, page=page % spages + 1, **kept)
    s_page, p_page = (page - 1) % spages + 1, (page - 1) % ppages + 1
    return dict(show=show, next_url=next_url, total=len(rows), page_no=s_page, pages=spages,
                rows_per_page=per_page, fit=fit,
                rows=rows[(s_page - 1) * per_page: s_page * per_page],
                pairs=paired[(p_page - 1) * PROJECTOR_PAIRINGS: p_page * PROJECTOR_PAIRINGS],
                pair_page=p_page, pair_pages=ppages, pairs_per_page=PROJECTOR_PAIRINGS,
                pair_total=len(paired), current=current,
                clock=round_clock.clock_state(event, current) if current else None)


@bp.get("/e/<event_id>/pairings")
def pairings(event_id: str):
    """The latest round's pairings by name, for anyone with the link: where every player
    sits (printable, two columns on A4)."""
    event = load_event(event_id)
    db = get_db()
    done = rounds.rounds(db, event)
    return render("events/pairings.html", "events/pairings.html", event=event,
                  current=done[-1] if done else None, people=rounds.pairings(db, event))
