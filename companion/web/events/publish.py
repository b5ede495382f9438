"""Publishing an event beyond the room: the finished event as a set of static pages (a
zip to put on any web host or open from a folder) and the director's announcements to
every phone of the event.

The static pages stand alone: the stylesheet is inlined in each page, links are relative
(``index.html``, ``round-2.html``), and nothing points back at this server, a CDN or a
script, so the folder works from ``file://`` as well as from any host.
"""
from __future__ import annotations

import io
import time
import zipfile
from datetime import datetime, timezone

from flask import abort, make_response, redirect, render_template, request, url_for

from companion.events import announcements, entrants, knockout, results, rounds
from companion.events.event import Event
from companion.events.standings import result_points
from companion.rules.said import said_of
from companion.storage import get_db

from . import bp
from .common import director_event, load_event, who
from .pages import refused


def _round_rows(event: Event, number: int) -> list[dict]:
    """Round `number`'s tables as the static page lists them: each entrant with their
    place, game score and points (None where the table has no result)."""
    out = []
    for row in rounds.round_tables(get_db(), event, number):
        result = row.result
        try:
            points = result_points(result, event.scoring) if result else {}
        except (ValueError, KeyError, TypeError):
            points = {}
        seats = []
        for name in row.entrants:
            place = score = None
            if result and name in result.get("entrants", []):
                j = result["entrants"].index(name)
                place = (result.get("places") or [None] * (j + 1))[j]
                score = (result.get("scores") or [None] * (j + 1))[j]
            seats.append({"name": name, "place": place, "score": score,
                          "points": points.get(name)})
        out.append({"number": row.number, "seats": seats, "done": result is not None})
    return out


def export_pages(event: Event) -> dict[str, str]:
    """The static page set of `event` in the request's language: ``index.html`` (the
    standings, the top cut's bracket if any, a team event's teams with their members) and
    ``round-N.html`` for every round seated (a knockout round under its name), name ->
    HTML."""
    db = get_db()
    done = rounds.rounds(db, event)
    rows = results.standings(db, event)
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    bracket = knockout.bracket(db, event)
    # A knockout round is named by its place in the cut ("Semi-finals"), everywhere.
    names = {kr.number: kr.name for kr in bracket["rounds"]} if bracket else {}
    teams = [e for e in entrants.entrants(db, event) if e.members]
    common = dict(event=event, rounds=done, made=made, round_names=names)
    pages = {"index.html": render_template("events/export/index.html", rows=rows,
                                           page="index", bracket=bracket, teams=teams,
                                           **common)}
    for rnd in done:
        pages[f"round-{rnd.number}.html"] = render_template(
            "events/export/round.html", rnd=rnd, tables=_round_rows(event, rnd.number),
            page=rnd.number, **common)
        time.sleep(0)     # a big event's rounds: let the live tables in between
    return pages


@bp.get("/e/<event_id>/export.zip")
def export_zip(event_id: str):
    """The event as static pages in a zip (director only): a folder with index.html (the
    standings) and one page per round (pairings and results), see :func:`export_pages`."""
    event = director_event(event_id)
    folder = f"event-{event.id}"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, html in export_pages(event).items():
            archive.writestr(f"{folder}/{name}", html)
    response = make_response(buffer.getvalue())
    response.mimetype = "application/zip"
    response.headers["Content-Disposition"] = f'attachment; filename="{folder}.zip"'
    return response


@bp.post("/e/<event_id>/announce")
def announce(event_id: str):
    """The director's announcement (action=send, text, who) to every phone of the event:
    the players' pages, the projector and the event's tables show it (audited). Empty or
    too long: the dashboard again with a sentence (422). action=withdraw (id) takes one
    back (audited too)."""
    event = director_event(event_id)
    action = request.form.get("action", "send")
    if action not in ("send", "withdraw"):
        abort(400)
    try:
        if action == "withdraw":
            raw = request.form.get("id") or ""
            if not raw.isdigit() or len(raw) > 12:
                abort(400)
            announcements.withdraw(get_db(), event, int(raw), who())
        else:
            announcements.announce(get_db(), event, (request.form.get("text") or "")[:2000],
                                   who())
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#announce", 303)


@bp.get("/e/<event_id>/news")
def news(event_id: str):
    """The newest announcement alone (anyone with the event's link): what an event's
    table fetches when its live stream says there is a new one."""
    event = load_event(event_id)
    html = render_template("events/_news.html", event=event,
                           news=announcements.latest(get_db(), event.id, 1))
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return response
