"""The director's devices and tools: a director link for another device (it works once; its
token rides in the address's fragment), naming and revoking devices, penalties and bonuses,
swapping entrants or unseating the current round before play begins, and the standings as
CSV.
"""
from __future__ import annotations

from flask import (abort, current_app, g, make_response, redirect, render_template, request,
                   session, url_for)

from companion import tables
from companion.events import devices, director, restrictions, results, seating
from companion.events.event import Event
from companion.rules.said import N_, said_of
from companion.storage import get_db

from . import bp, forms
from .common import SHOWN_LINK, director_event, int_field, load_event, who
from .pages import refused
from ..cookies import own_secret, rotate_secret
from ..extensions import limiter


@bp.post("/e/<event_id>/director-link")
def director_link(event_id: str):
    """A new director link for another device (only its hash is stored; it works once, for
    LINK_MINUTES). It ends the previous link, and revokes the devices that came through
    links unless the director ticked "keep" (the device asking always stays). The link is
    shown once, on the dashboard this answers with a redirect to: reloading that page
    shows no link and makes none (a re-sent POST would revoke the helpers again)."""
    event = director_event(event_id)
    keep = request.form.get("keep") == "on"
    token = devices.new_director_link(get_db(), event, keep=keep,
                                      by=g.director_device["device_id"],
                                      who=g.director_device["name"])
    session[SHOWN_LINK] = [event.id, token]
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-link", 303)


@bp.get("/e/<event_id>/director")
def director_page(event_id: str):
    """The director link, ``/e/<id>/director#<TOKEN>``: the token is in the fragment, which
    no request line (nor access log) carries. This page's script (static/js/join.js) reads
    it and POSTs it here at once; without one it says to open the link again."""
    event = load_event(event_id)
    return render_template("events/director_join.html", event=event,
                           old=request.args.get("old") == "1")


@bp.get("/e/<event_id>/director/<token>")
def old_director_link(event_id: str, token: str):
    """An older director link (the token in the path, so in every access log on the way):
    it no longer makes a director; the page says to ask for a new one."""
    return redirect(url_for(".director_page", event_id=load_event(event_id).id, old="1"), 303)


def _join_limit() -> str:
    """The join links' rate limit (config JOIN_RATE_LIMIT), as for a table's QR code."""
    return current_app.config["JOIN_RATE_LIMIT"]


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
    event = load_event(event_id)
    devices.join_as_director(get_db(), event, token, secret=own_secret())
    rotate_secret()
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.post("/e/<event_id>/director-devices")
def director_devices(event_id: str):
    """Name a director device (action=rename, device, name) or revoke one (action=revoke,
    device; the device in use also needs confirm=yes). Both are audited."""
    event = director_event(event_id)
    form = request.form
    device = (form.get("device") or "")[:32]
    me = g.director_device
    try:
        if form.get("action") == "rename":
            devices.rename_director_device(get_db(), event, device,
                                           (form.get("name") or "")[:200], who=me["name"])
        elif form.get("action") == "revoke":
            devices.revoke_director_device(get_db(), event, device, by=me["device_id"],
                                           confirmed=form.get("confirm") == "yes",
                                           who=me["name"])
        else:
            abort(400)
    except ValueError as exc:
        return refused(event, said_of(exc))
    if device == me["device_id"] and form.get("action") == "revoke":
        return redirect(url_for(".standings", event_id=event.id), 303)
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-link", 303)


def _tools_done(event: Event):
    return redirect(url_for(".dashboard", event_id=event.id) + "#director-tools", 303)


@bp.post("/e/<event_id>/adjustments")
def adjustments(event_id: str):
    """A penalty or bonus for an entrant, with a reason (action=add), or taking one back
    (action=withdraw, id=...). Both are kept in the audit log."""
    event = director_event(event_id)
    form = request.form
    action = form.get("action")
    try:
        if action == "add":
            points, number = forms.parse_adjustment(form, event)
            director.add_adjustment(get_db(), event, (form.get("entrant") or "")[:400], points,
                                    (form.get("reason") or "")[:1000], who(), number)
        elif action == "withdraw":
            director.withdraw_adjustment(get_db(), event, int_field(form, "id"), who())
        else:
            abort(400)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return _tools_done(event)


@bp.post("/e/<event_id>/swap")
def swap(event_id: str):
    """Swap two entrants (teams) between tables of the current round whose play hasn't
    begun (409 when one of the two tables has started)."""
    event = director_event(event_id)
    form = request.form
    number = int_field(form, "round")
    try:
        director.swap_entrants(get_db(), event, number, (form.get("entrant_a") or "")[:400],
                               (form.get("entrant_b") or "")[:400], who())
    except tables.TableError as exc:
        return refused(event, said_of(exc), exc.status)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return _tools_done(event)


@bp.post("/e/<event_id>/pair-again")
def pair_again(event_id: str):
    """Pair the current round's tables that haven't started again, among their own
    entrants (audited); the tables where play began keep theirs."""
    event = director_event(event_id)
    number = int_field(request.form, "round")
    try:
        seating.pair_open_tables(get_db(), event, number, who())
    except ValueError as exc:
        return refused(event, said_of(exc))
    return _tools_done(event)


@bp.post("/e/<event_id>/pairing-rules")
def pairing_rules(event_id: str):
    """The director's pairing restrictions (audited): add (or replace) a keep-apart group
    (action=apart_add: group, members), remove one (apart_remove: group), give an entrant
    a fixed table (fix: name, table) or take it away (unfix: name)."""
    event = director_event(event_id)
    form = request.form
    action = form.get("action")
    name = (form.get("name") or "")[:400]
    group = (form.get("group") or "")[:400]
    try:
        if action == "apart_add":
            restrictions.add_group(get_db(), event, group, (form.get("members") or "")[:20000],
                                   who())
        elif action == "apart_remove":
            restrictions.remove_group(get_db(), event, group, who())
        elif action == "fix":
            raw = (form.get("table") or "").strip()
            if not raw.isdigit() or len(raw) > 5:
                raise ValueError(N_("Type the table number, e.g. 1."))
            restrictions.set_fixed_table(get_db(), event, name, int(raw), who())
        elif action == "unfix":
            restrictions.set_fixed_table(get_db(), event, name, None, who())
        else:
            abort(400)
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id) + "#pairing-rules", 303)


@bp.post("/e/<event_id>/unseat")
def unseat(event_id: str):
    """Take back the current round's seating before play begins, to seat it again."""
    event = director_event(event_id)
    number = int_field(request.form, "round")
    try:
        director.unseat_round(get_db(), event, number, who())
    except ValueError as exc:
        return refused(event, said_of(exc))
    return redirect(url_for(".dashboard", event_id=event.id), 303)


@bp.get("/e/<event_id>/standings.csv")
def standings_csv(event_id: str):
    """The standings as a CSV download: places, points, every tie-break used, team
    members, dropped entrants."""
    event = director_event(event_id)
    response = make_response(results.standings_csv(get_db(), event))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = \
        f'attachment; filename="event-{event.id}-standings.csv"'
    return response
