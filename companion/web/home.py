"""Start page, new-table form, and joining by QR token or typed code."""
from __future__ import annotations

import re
import sqlite3

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from companion import tables
from companion.clock import now
from companion.events import devices
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH, clean_name
from companion.storage import get_db

from .cookies import known_secret, own_secret, phone_secret, rotate_secret
from .errors import error_response
from .filters import local_time
from .extensions import limiter
from .quotas import quota
from .i18n import said_of
from .games import game_or_404, playable_games, ui_for

bp = Blueprint("home", __name__)

MAX_PLAYERS_SHOWN = 12


def _join_limit() -> str:
    return current_app.config["JOIN_RATE_LIMIT"]


@bp.get("/")
def start():
    """Start page: this phone's tables and events (one tap back to each), a new table,
    or join one by its code."""
    return _start_page(request.args.get("code", ""))


def _start_page(code: str, error: str | None = None) -> str:
    return render_template("start.html", code=code, error=error, places=_places(),
                           my_groups=_groups(),
                           place_url=place_url, game_name=game_name,
                           today=local_time(now(), "%Y-%m-%d"))


def _places() -> tables.places.Places:
    """This phone's places for the start page (none for a browser new to the app)."""
    try:
        secret = known_secret()
        if secret is None:
            return tables.places.Places([], 0)
        db = get_db()
        tables.places.find_older(db, secret)
        return tables.places.listing(db, secret)
    except sqlite3.Error as exc:
        # The list is a way back, not the page: with the database out of reach for now (a
        # full or read-only disk, a lock held too long) the start page still opens, to
        # join by code or start a table, and lists the tables again once it is back.
        current_app.logger.warning("start page without the phone's tables: %s", exc)
        return tables.places.Places([], 0)


def _groups() -> list:
    """The groups this phone holds the link of (none when the database is out of reach:
    the list is a way back, not the page)."""
    from companion import groups     # groups build on tables and this page
    try:
        secret = known_secret()
        return groups.groups_of(get_db(), secret) if secret is not None else []
    except sqlite3.Error as exc:
        current_app.logger.warning("start page without the phone's groups: %s", exc)
        return []


@bp.post("/places/remove")
def remove_place():
    """Take a table or event off this phone's start-page list; the seat, host role or
    pass stays (joining the table again lists it again)."""
    kind, ref = request.form.get("kind") or "", (request.form.get("ref") or "")[:64]
    if not tables.places.hide(get_db(), phone_secret(), kind, ref):
        return error_response(gettext("That isn't on this phone's list any more."), 404)
    return redirect(url_for(".start", _anchor="your-tables"), 303)


def place_url(place: tables.places.Place) -> str:
    """Where a place of the list leads: the table's page (the phone's cookie keeps its seat
    and host role), an event's dashboard for its director, its players' page for a player."""
    if place.kind == tables.places.TABLE:
        return url_for("table.show", table_id=place.ref)
    if place.role == "director":
        return url_for("events.dashboard", event_id=place.ref)
    return url_for("events.players", event_id=place.ref)


def game_name(slug: str):
    """A game's name for the list (its slug for a game this install no longer has)."""
    try:
        return find_game(slug).name
    except LookupError:
        return slug


@bp.get("/new")
def choose_game():
    """Pick which game the new table plays."""
    games = playable_games()
    return render_template("new_game.html", games=games)


@bp.get("/new/<slug>")
def new_table(slug: str):
    """The new-table form for one game: players in seating order and house rules."""
    game = game_or_404(slug)
    return render_template("new_table.html", game=game, names=[""] * _rows(game), me=0,
                           values={}, error=None, max_name=MAX_NAME_LENGTH, ui=ui_for(game.slug))


@bp.post("/new/<slug>")
@quota("TABLE_CREATE_LIMIT")
def create_table(slug: str):
    """Create the table; this phone takes the seat marked "me" and the host role."""
    return create_from_form(slug)


def create_from_form(slug: str, group=None):
    """The new-table form's POST: the table, or the form again with the refusal (422).
    With `group` (a group this phone belongs to, companion.groups) the table records its
    finished games there, and its players join the group."""
    game = game_or_404(slug)
    ui = ui_for(game.slug)
    names = [(request.form.get(f"name_{i}") or "").strip() for i in range(_rows(game))]
    try:
        me_row = int(request.form.get("me", "0"))
    except ValueError:
        me_row = -1  # refused below with a plain message
    # Skip blank rows but keep seating order; "me" points at a row, so map it.
    filled = [(i, n) for i, n in enumerate(names) if n]
    error = error_rule = None
    try:
        settings = game.parse_settings(request.form)
    except ValueError as exc:
        error = said_of(exc)
    if error is None:
        rows = [i for i, _ in filled]
        if me_row not in rows:
            error = gettext("Mark which player you are (the 'me' button beside your name).")
    if error is None:
        try:
            options = {"confirm": game.teams and request.form.get("confirm") == "on"}
            for name, _label, _hint in ui.table_switches:
                options[name] = request.form.get(name) == "on"
            # A game may ask who starts (starter_choice): its rules start with the first
            # seat, so the rows turn round to put that player first, in the same order.
            first = ui.first_seat(request.form, rows)
            rows = rows[first:] + rows[:first]
            paper = paper_from_form(game, ui, request.form, names)
            table, _secret = tables.create_table(get_db(), game.slug, settings,
                                                [names[i] for i in rows], rows.index(me_row),
                                                options, secret=own_secret(),
                                                group_id=group.id if group else None,
                                                paper=paper)
        except ValueError as exc:       # the starter is not a row with a name
            error = said_of(exc)
        except tables.TableError as exc:
            error, error_rule = exc.message, exc.rule
    if error is not None:
        return render_template("new_table.html", game=game, names=names, me=me_row,
                               values=request.form, error=error, error_rule=error_rule,
                               max_name=MAX_NAME_LENGTH, ui=ui, group=group), 422
    if group is not None:
        from companion import groups    # the players join the group: picked next time
        groups.note_table(get_db(), group.id, tables.get_table(get_db(), table.id))
    rotate_secret()     # a host's rights: a cookie planted on this browser earlier shares none
    return redirect(url_for("table.show", table_id=table.id), 303)


@bp.get("/J")
@bp.get("/j")           # registered first: url_for builds /j
def join_page():
    """The QR's URL, ``/j#<TOKEN>``: the token is in the fragment, which never reaches a
    request line (nor an access log). This page's script (static/js/join.js) reads it,
    clears it from the address bar and POSTs it here at once; without a script, or
    without a fragment, the page offers the box for the table's typed code."""
    return render_template("join.html", old=request.args.get("old") == "1")


@bp.get("/J/<token>")
@bp.get("/j/<token>")
def old_join_link(token: str):
    """An older QR code's URL (``/J/<TOKEN>``, the token in the path, so in every access
    log on the way): it no longer joins, since a URL read from a log could be replayed.
    The /j page says to scan the table's QR code again or type its code."""
    return redirect(url_for(".join_page", old="1"), 303)


@bp.post("/j")
@limiter.limit(_join_limit)
def join_by_token():
    """The token the /j page POSTs (form field `token`): this phone joins the table (a
    rejoin token: takes its seat), then a clean URL. A wrong token is a plain 404;
    guessing is limited per address (JOIN_RATE_LIMIT)."""
    token = request.form.get("token") or ""
    if len(token) > 64:
        abort(404)
    table, rejoin_seat = tables.find_by_token(get_db(), token)
    return _enter(table, rejoin_seat, token)


@bp.post("/join")
@limiter.limit(_join_limit)
def join_by_code():
    """The start page's code box."""
    code = (request.form.get("code") or "")[:32]
    try:
        table = tables.find_by_code(get_db(), code)
    except tables.TableError as exc:
        return _start_page(code, exc.message), exc.status
    return _enter(table, None)


def _enter(table: tables.Table, rejoin_seat: int | None, token: str | None = None):
    phone, _secret = tables.join(get_db(), table, own_secret(), rejoin_seat, token)
    if rejoin_seat is not None and rejoin_seat == table.host_seat and table.event_id is None:
        rotate_secret()     # the host's seat, and with it the host's rights
    seated = phone.seated or devices.directs_table(get_db(), table, phone_secret())
    target = "table.show" if seated else "table.seats"
    return redirect(url_for(target, table_id=table.id), 303)


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest (installable on a phone's home screen). Its start_url, scope
    and icons are relative to its own URL (the app's root), so they stay under a path
    prefix the app is mounted at (e.g. https://club.example/companion/)."""
    response = current_app.send_static_file("manifest.webmanifest")
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker (static/js/sw.js), served from the app's root so that its scope is
    every page of the app (under a path prefix, the prefix: it is registered at this URL).
    Never cached for long: the browser checks it for an update on each visit."""
    response = current_app.send_static_file("js/sw.js")
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    return response


_PAPER_NUMBER = re.compile(r"[+-]?[0-9]{1,12}")
_PAPER_TEXT = 20     # what is kept of a paper box's text for the rules' refusal


def paper_from_form(game, ui, form, names: list[str]) -> dict | None:
    """The new-table form's "Start from a paper sheet" boxes as the game's ``paper``
    (``Game.from_paper``), or None when they are all blank. A team game's totals are
    ``paper_A``/``paper_B``, a player's ``paper_<row>`` (keyed by the player's name); a
    paper board's checks (``ui.paper_rows``) ``paper_<row>_<board row>``. A box that holds
    no whole number is passed on as typed, so the rules refuse it in their words (with
    the rule ID); ValueError for a box filled on a row without a player."""
    def value(text: str):
        return int(text) if _PAPER_NUMBER.fullmatch(text) else text

    def box(key: str) -> str:
        return (form.get(f"paper_{key}") or "").strip()[:_PAPER_TEXT]

    def player(row: int, filled: bool) -> str | None:
        name = clean_name(names[row])
        if not name and filled:
            raise ValueError(gettext("Row %(row)s has a total from the paper sheet but no "
                                     "player's name.", row=row + 1))
        return name or None

    if "checks" in game.paper_fields and ui.paper_rows:
        checks: dict = {}
        for row in range(len(names)):
            typed = {key: box(f"{row}_{key}") for key, _label, _only in ui.paper_rows}
            typed = {key: value(text) for key, text in typed.items() if text}
            name = player(row, bool(typed))
            if name and typed:
                checks[name] = typed
        return {"checks": checks} if checks else None
    keys = ["A", "B"] if game.teams else [str(i) for i in range(len(names))]
    raw = {key: box(key) for key in keys}
    if not any(raw.values()):
        return None
    totals: dict = {}
    for key, text in raw.items():
        if not game.teams:
            key = player(int(key), bool(text))
            if key is None:
                continue
        if text:
            totals[key] = value(text)
    return {"totals": totals}


def _rows(game) -> int:
    return min(game.max_players, MAX_PLAYERS_SHOWN)
