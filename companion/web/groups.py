"""Groups' pages: making a group, its page (players, phones, the link that adds a phone),
joining by that link, a table for the group, and its recorded games as JSON and CSV.
Every page of a group is for a phone holding its link only (403 in plain words)."""
from __future__ import annotations

from types import SimpleNamespace

from flask import (Blueprint, current_app, jsonify, make_response, redirect, render_template,
                   request, url_for)
from flask_babel import gettext
from jinja2 import UndefinedError
from markupsafe import Markup, escape

from companion import groups, stats
from companion.rules import find_game
from companion.rules.game import MAX_NAME_LENGTH
from companion.rules.said import N_
from companion.rules.zocknroll import board as zocknroll_board
from companion.storage import get_db
from companion.tables import Seat, TableError
from companion.tables.errors import Forbidden

from .cookies import own_secret, phone_secret
from .errors import error_response
from .extensions import limiter
from .games import game_or_404, playable_games, ui_for
from .home import MAX_PLAYERS_SHOWN, create_from_form, game_name
from .qr import qr_svg, shown_url
from .quotas import quota
from .sheet_image import image_data
from .urls import qr_link

bp = Blueprint("groups", __name__)


def _join_limit() -> str:
    return current_app.config["JOIN_RATE_LIMIT"]


def _refused(exc: TableError):
    return error_response(exc.message, exc.status)


def _mine(group_id: str):
    """The group and this phone's row, or the TableError to answer (403 for a phone
    without the group's link)."""
    return groups.require_phone(get_db(), group_id[:64], phone_secret())


@bp.get("/g/new")
def new_group():
    """The new-group form: a name and the players, one per line."""
    return render_template("groups/new.html", values={}, error=None,
                           max_name=groups.group.MAX_GROUP_NAME)


@bp.post("/g/new")
@quota("TABLE_CREATE_LIMIT")
def create_group():
    """Make the group; this phone is its first phone (and may remove others)."""
    name = (request.form.get("name") or "")[:1000]
    players = request.form.get("players") or ""
    try:
        group = groups.create_group(get_db(), name, players, own_secret())
    except TableError as exc:
        return render_template("groups/new.html", values=request.form, error=exc.message,
                               max_name=groups.group.MAX_GROUP_NAME), exc.status
    return redirect(url_for(".show", group_id=group.id), 303)


def znr_row_label(row: str):
    """A Zock'n'Roll row's printed name (a Said), on whichever board has it; the key for
    a row no board has (a record older than a rules change)."""
    for board in zocknroll_board.BOARDS:
        try:
            return zocknroll_board.row_label(board, row)
        except (ValueError, KeyError):
            continue
    return row


def _link(group) -> str:
    return qr_link(url_for(".join_page") + "#" + group.token)


@bp.get("/g/<group_id>")
def show(group_id: str):
    """The group's page: its name, players, recent games and the link that adds a phone."""
    try:
        group, me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    db = get_db()
    link = _link(group)
    _total, figures = groups.kept_figures(db, group.id)
    players = groups.players(db, group.id)
    return render_template("groups/show.html", group=group, me=me, players=players,
                           ids={p.name: p.id for p in players},
                           phones=groups.phones(db, group.id),
                           games=groups.games(db, group.id, limit=20),
                           sections=figures["games"],
                           link=shown_url(link),
                           qr=qr_svg(link, gettext("QR code to add a phone to the group")),
                           games_to_play=playable_games(), game_name=game_name,
                           row_label=znr_row_label, max_name=MAX_NAME_LENGTH)


@bp.get("/g/join")
def join_page():
    """The group link, ``/g/join#<TOKEN>``: the token rides in the fragment (never in a
    request line or a log); static/js/join.js POSTs it at once."""
    return render_template("groups/join.html")


@bp.post("/g/join")
@limiter.limit(_join_limit)
def join_by_token():
    """The token the join page POSTs: this phone joins the group, then its page."""
    try:
        group = groups.join_by_token(get_db(), (request.form.get("token") or "")[:128],
                                     own_secret())
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/g/<group_id>/phones/<int:n>/remove")
def remove_phone(group_id: str, n: int):
    """The group's creator removes a phone from it."""
    try:
        groups.remove_phone(get_db(), group_id[:64], phone_secret(), n)
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group_id, _anchor="phones"), 303)


@bp.post("/g/<group_id>/players/<int:player_id>/rename")
def rename_player(group_id: str, player_id: int):
    """A phone of the group renames a player (their recorded games and figures follow)."""
    try:
        groups.rename_player(get_db(), group_id[:64], phone_secret(), player_id,
                             (request.form.get("name") or "")[:1000])
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group_id, _anchor="players"), 303)


@bp.get("/g/<group_id>/new/<slug>")
def new_table(group_id: str, slug: str):
    """The new-table form for the group: its players offered by name."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    game = game_or_404(slug)
    rows = min(game.max_players, MAX_PLAYERS_SHOWN)
    return render_template("new_table.html", game=game, names=[""] * rows, me=0, values={},
                           error=None, max_name=MAX_NAME_LENGTH, ui=ui_for(game.slug),
                           group=group, group_players=groups.players(get_db(), group.id))


@bp.post("/g/<group_id>/new/<slug>")
@quota("TABLE_CREATE_LIMIT")
def create_table(group_id: str, slug: str):
    """The table for the group (the same fields as ``/new/<slug>``): every game finished
    at it is recorded in the group."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    return create_from_form(slug, group)


@bp.get("/g/<group_id>/games.json")
def games_json(group_id: str):
    """The group's finished games (fields in docs/GROUPS.md), newest first."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    response = jsonify(groups.games(get_db(), group.id))
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/g/<group_id>/stats.json")
def stats_json(group_id: str):
    """The group's statistics, each under its key in docs/STATS.md, read from the total
    kept as games finish (no log is read)."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    response = jsonify(groups.kept_figures(get_db(), group.id)[1])
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/g/<group_id>/games.csv")
def games_csv(group_id: str):
    """The group's finished games as a CSV download (columns in docs/GROUPS.md)."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    response = make_response(groups.games_csv(get_db(), group.id))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="group-{group.id}-games.csv"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/g/keep/<table_id>")
def keep_page(table_id: str):
    """"Keep these players": the form that makes a group of a finished table's seats (for a
    phone seated at it)."""
    try:
        names = groups.keepable(get_db(), table_id[:64], phone_secret())
    except TableError as exc:
        return _refused(exc)
    return render_template("groups/keep.html", table_id=table_id, names=names, values={},
                           error=None, max_name=groups.group.MAX_GROUP_NAME)


@bp.post("/g/keep/<table_id>")
@quota("TABLE_CREATE_LIMIT")
def keep_table(table_id: str):
    """Make the group of the table's seats; the table records into it from now on, and its
    finished games are recorded at once. Then the group's page."""
    db = get_db()
    try:
        names = groups.keepable(db, table_id[:64], phone_secret())
    except TableError as exc:
        return _refused(exc)
    try:
        group, _recorded = groups.keep_table(db, table_id[:64], own_secret(),
                                             (request.form.get("name") or "")[:1000])
    except TableError as exc:
        return render_template("groups/keep.html", table_id=table_id, names=names,
                               values=request.form, error=exc.message,
                               max_name=groups.group.MAX_GROUP_NAME), exc.status
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.get("/g/attach/<table_id>")
def attach_page(table_id: str):
    """The table's host picks one of this phone's groups to record the table's games in."""
    try:
        mine = groups.attachable(get_db(), table_id[:64], phone_secret())
    except TableError as exc:
        return _refused(exc)
    return render_template("groups/attach.html", table_id=table_id, groups=mine, error=None)


@bp.post("/g/attach/<table_id>")
def attach_table(table_id: str):
    """Attach the table to the group picked (field ``group``); then the group's page."""
    db = get_db()
    try:
        groups.attachable(db, table_id[:64], phone_secret())
        group, _recorded = groups.attach_table(db, table_id[:64], phone_secret(),
                                               (request.form.get("group") or "")[:64])
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group.id), 303)


def _int_arg(raw) -> int:
    """A form's player or game number; 0 (never an id) for anything else."""
    raw = (raw or "")[:12]
    return int(raw) if raw.isdigit() else 0


@bp.get("/g/<group_id>/players/<int:player_id>/merge")
def merge_page(group_id: str, player_id: int):
    """The confirm step of merging a player into another (field ``into``): names both and
    how many games move."""
    db = get_db()
    try:
        group, _me = _mine(group_id)
        src, dst, n = groups.merge_preview(db, group.id, phone_secret(), player_id,
                                           _int_arg(request.args.get("into")))
    except TableError as exc:
        return _refused(exc)
    return render_template("groups/confirm.html", group=group, what="merge", src=src, dst=dst,
                           n=n, action=url_for(".merge_players", group_id=group.id,
                                               player_id=src.id),
                           back=url_for(".show", group_id=group.id, _anchor="players"))


@bp.post("/g/<group_id>/players/<int:player_id>/merge")
def merge_players(group_id: str, player_id: int):
    """Merge the player into the one picked (field ``into``): their recorded games count
    for that player from now on."""
    try:
        groups.merge_players(get_db(), group_id[:64], phone_secret(), player_id,
                             _int_arg(request.form.get("into")))
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group_id, _anchor="players"), 303)


@bp.get("/g/<group_id>/games/<int:game_id>/delete")
def delete_game_page(group_id: str, game_id: int):
    """The confirm step of deleting a recorded game: which game, when, who won."""
    db = get_db()
    try:
        group, _me = _mine(group_id)
        row = groups.game_row(db, group.id, phone_secret(), game_id)
    except TableError as exc:
        return _refused(exc)
    game = groups.records.record_of(row)
    return render_template("groups/confirm.html", group=group, what="game", game=game,
                           game_name=game_name,
                           action=url_for(".delete_game", group_id=group.id, game_id=game_id),
                           back=url_for(".show", group_id=group.id, _anchor="games"))


@bp.post("/g/<group_id>/games/<int:game_id>/delete")
def delete_game(group_id: str, game_id: int):
    """Delete the game from the group's record (and its statistics)."""
    try:
        groups.delete_game(get_db(), group_id[:64], phone_secret(), game_id)
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group_id, _anchor="games"), 303)


@bp.get("/g/<group_id>/delete")
def delete_group_page(group_id: str):
    """The confirm step of deleting the group: names it and how many games go (the phone
    that made it only)."""
    db = get_db()
    try:
        group, me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    if not me.creator:
        return _refused(Forbidden(N_("Only the phone that made the group can delete it.")))
    return render_template("groups/confirm.html", group=group, what="group",
                           n=groups.group_size(db, group.id),
                           action=url_for(".delete_group", group_id=group.id),
                           back=url_for(".show", group_id=group.id))


@bp.post("/g/<group_id>/delete")
def delete_group(group_id: str):
    """Delete the group with its records; then the start page."""
    try:
        groups.delete_group(get_db(), group_id[:64], phone_secret())
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for("home.start"), 303)


@bp.get("/g/<group_id>/import")
def import_page(group_id: str):
    """The form that brings a ``games.csv`` (from this or another server) into the group."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    return render_template("groups/import.html", group=group, error=None,
                           limit=current_app.config["MAX_CONTENT_LENGTH"] // 1000)


@bp.post("/g/<group_id>/import")
def import_games(group_id: str):
    """Bring the games of the file (field ``csv``: a file, or the CSV's text) into the
    group; then its page. A body over the app's limit is refused (413) before this runs."""
    upload = request.files.get("csv")
    data = upload.read() if upload is not None else (request.form.get("csv") or "").encode()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return error_response(gettext("That file isn't a CSV saved as text (UTF-8)."), 400)
    try:
        groups.import_games(get_db(), group_id[:64], phone_secret(), text)
    except TableError as exc:
        return _refused(exc)
    return redirect(url_for(".show", group_id=group_id, _anchor="games"), 303)


class RecordedSheet:
    """What a game's sheet template (``games/<slug>/_sheet.html``) reads of a table's view,
    for a recorded game: its final summary and seats, seen by no seated phone, so the
    template draws the sheet without entry buttons. ``readonly`` lets a template leave out
    what only the table's own phones can use (its forms, the table's help pages)."""

    readonly = True
    me = None

    def __init__(self, record: dict):
        names = record["players"]
        self.sheet = SimpleNamespace(summary=record["summary"], waiting=None, names=names,
                                     game_number=record["game_no"])
        teams = {s["name"]: s["team"] for s in record["seats"]}
        self.seats = [Seat(pos=i, name=n, team=teams.get(n), has_phone=False)
                      for i, n in enumerate(names)]
        self.phone = SimpleNamespace(seated=False, seat=None)
        self.table = SimpleNamespace(id=record["table_id"], options={}, version=0,
                                     game_slug=record["game"], settings=record["settings"])
        self.urls = SimpleNamespace(enter="", undo="", confirm="")
        self.ui = ui_for(record["game"])

    def draw(self) -> Markup | None:
        """The final sheet (templates/groups/_sheet.html around the game's own sheet), or
        None when the recorded summary no longer fits the game's template (a record made
        before a rules change): the page then shows the record without its sheet rather
        than failing."""
        if not self.sheet.summary:
            return None
        try:
            return Markup(render_template("groups/_sheet.html", view=self, sid=""))
        except (LookupError, TypeError, ValueError, AttributeError, UndefinedError):
            current_app.logger.warning("recorded game's sheet not drawn", exc_info=True)
            return None

    def name_of(self, pos: int | None) -> str:
        return next((s.name for s in self.seats if s.pos == pos), "—")


def _house_rules(slug: str, settings: dict) -> list[dict]:
    try:
        return find_game(slug).describe_settings(settings)
    except (LookupError, TypeError, ValueError, KeyError, AttributeError):
        return []


@bp.get("/g/<group_id>/games/<int:game_id>")
def game_page(group_id: str, game_id: int):
    """One recorded game, read-only: when, how long, the house rules, the seats, the final
    sheet as the table showed it, the final scores and the winners (404 for a game not in
    the group's record, deleted ones included)."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    db = get_db()
    try:
        record = groups.game_record(db, group.id, game_id)
    except TableError as exc:
        return _refused(exc)
    ids = {p.name: p.id for p in groups.players(db, group.id)}
    try:
        view = RecordedSheet(record)
    except LookupError:     # a game this install no longer has
        view = None
    picture = None
    if view is not None and record["summary"]:
        # The same picture History offers at the table (web/sheet_image.py), dated by
        # when the game finished.
        try:
            picture = image_data(find_game(record["game"]), record["summary"],
                                 record["players"], record["finished_at"], "")
        except (LookupError, TypeError, ValueError, AttributeError):
            current_app.logger.warning("recorded game's picture not made", exc_info=True)
    return render_template("groups/game.html", group=group, rec=record, ids=ids,
                           sheet=view.draw() if view is not None else None,
                           sheet_image=picture,
                           page_game=record["game"] if view is not None else None,
                           rules=_house_rules(record["game"], record["settings"]),
                           game_name=game_name)


#: A player's games per page of their list (newest first; ``?page=2`` the next ones).
PLAYER_GAMES_PAGE = 50


def wins_chart(points: list[dict], width: int = 340, height: int = 140) -> Markup:
    """A player's games and wins over time (:func:`companion.stats.timeline`: running
    totals per day played) as a small inline SVG line chart, drawn like Rook's totals
    chart (no JS): the wins' line over the games' fainter one, the last day's counts at
    the right."""
    pad = 8
    pts = [{"games": 0, "wins": 0}] + list(points)
    high = max(p["games"] for p in pts) or 1

    def x(i: int) -> float:
        return pad + (width - 2 * pad - 24) * (i / max(len(pts) - 1, 1))

    def y(v: int) -> float:
        return pad + (height - 2 * pad) * (1 - v / high)

    label = escape(gettext("Wins over time"))
    parts = [f'<svg class="chart wins-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{label}">',
             f'<line class="zero" x1="{pad}" x2="{width - pad}" y1="{y(0):.1f}" '
             f'y2="{y(0):.1f}"/>']
    for key in ("games", "wins"):
        coords = " ".join(f"{x(i):.1f},{y(p[key]):.1f}" for i, p in enumerate(pts))
        parts.append(f'<polyline class="line-{key}" points="{coords}"/>')
        parts.append(f'<text class="label-{key}" x="{width - pad}" y="{y(pts[-1][key]) + 4:.1f}"'
                     f' text-anchor="end">{pts[-1][key]}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


@bp.get("/g/<group_id>/players/<int:player_id>")
def player_page(group_id: str, player_id: int):
    """A player's page: their record overall and in each game, head-to-head against each
    other player, a chart of wins over time and every game they played (newest first,
    each opening its read-only sheet)."""
    try:
        group, _me = _mine(group_id)
    except TableError as exc:
        return _refused(exc)
    db = get_db()
    player = next((p for p in groups.players(db, group.id) if p.id == player_id), None)
    if player is None:
        return error_response(gettext("There is no such player in this group."), 404)
    try:
        page = max(1, min(int(request.args.get("page", "1")[:6]), 10 ** 5))
    except ValueError:
        page = 1
    kept, figures = groups.kept_figures(db, group.id)
    mine = stats.player(figures, player.name)
    played = groups.player_games(db, group.id, player.id,
                                 limit=page * PLAYER_GAMES_PAGE + 1)
    more = len(played) > page * PLAYER_GAMES_PAGE
    played = played[(page - 1) * PLAYER_GAMES_PAGE:page * PLAYER_GAMES_PAGE]
    timeline = stats.timeline(kept, player.name)
    ids = {p.name: p.id for p in groups.players(db, group.id)}
    return render_template("groups/player.html", group=group, player=player, mine=mine,
                           sections=figures["games"], played=played, page=page, more=more,
                           chart=wins_chart(timeline) if timeline else None,
                           timeline=timeline, ids=ids, game_name=game_name)
