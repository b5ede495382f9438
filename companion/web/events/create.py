"""Creating an event: the director picks the game, fills in the new-event form (name,
rounds, house rules, entrants one per line, scoring and pairing choices), and the browser
that creates the event becomes its director.
"""
from __future__ import annotations

from flask import redirect, request, url_for

from companion import groups
from companion.events import event_format
from companion.events.brackets import round_robin_rounds
from companion.events.entrants import MAX_ROUND_ROBIN, parse_entrants
from companion.events.event import create_event
from companion.rules import GAMES
from companion.rules.said import message, said_of
from companion.storage import get_db

from . import bp, forms
from companion.tables import TableError

from ..cookies import own_secret, phone_secret, rotate_secret
from ..games import game_or_404, ui_for
from ..htmx import render
from ..quotas import quota


@bp.get("/events/new")
def choose_game():
    """Pick the game the event plays: every game has an event format (derived from its
    rules, see companion.events.formats)."""
    games = list(GAMES.values())
    return render("events/choose.html", "events/choose.html", games=games,
                  group=_group_arg(request.args.get("group")))


def _group_arg(raw) -> str | None:
    """A group id from the form or the link (``?group=``), checked later."""
    raw = (raw or "").strip()[:64]
    return raw or None


@bp.get("/events/new/<slug>")
def new_event(slug: str):
    """The new-event form: name, rounds, house rules, entrants one per line."""
    game = game_or_404(slug)
    group = _group_arg(request.args.get("group"))
    return _form(game, {"group": group} if group else {}, None)


def _form(game, values, error, status: int = 200):
    fmt = event_format(game.slug)
    return render("events/new.html", "events/new.html", status, game=game, values=values,
                  error=error, fmt=fmt, ui=ui_for(game.slug),
                  choices=forms.config_choices(fmt),
                  my_groups=groups.groups_of(get_db(), phone_secret()))


@bp.post("/events/new/<slug>")
@quota("EVENT_CREATE_LIMIT")
def create(slug: str):
    """Create the event; this browser becomes its director."""
    game = game_or_404(slug)
    form = request.form
    fmt = event_format(game.slug)
    try:
        settings = game.parse_settings(form)
        rounds = forms.parse_rounds(form.get("event_rounds"))
        registration = form.get("registration") == "on"
        table_size = forms.parse_table_size(form.get("table_size"), game.slug)
        fmt = event_format(game.slug, **({} if table_size is None
                                         else {"preferred_table": table_size}))
        entrants = parse_entrants(form.get("entrants", ""), fmt, allow_few=registration)
        config = forms.parse_config(form, fmt)
        if config.get("plan") == "round_robin":
            # The rounds follow from the entrants (fixed again when round 1 is seated).
            if len(entrants) > MAX_ROUND_ROBIN:
                raise ValueError(message("tournament", "A round robin has at most {most} "
                                         "entrants.", most=MAX_ROUND_ROBIN))
            rounds = max(1, round_robin_rounds(len(entrants)))
            table_size = None       # two to a table
        # The form shows the claim codes' checkbox (on by default); a form without it
        # (an older page, a script) keeps the default.
        if form.get("claim_codes_shown") and form.get("claim_codes") != "on":
            config["claim_codes"] = False
        options = {"confirm": bool(game.teams) and form.get("confirm") == "on"}
        for name, _label, _hint in ui_for(game.slug).table_switches:
            options[name] = form.get(name) == "on"
        group_id = _group_arg(form.get("group"))
        if group_id is not None:
            # Only a phone of the group may run an event that records into it.
            groups.require_phone(get_db(), group_id, phone_secret())
        event, _secret = create_event(get_db(), form.get("event_name", ""), game.slug,
                                      settings, options, rounds, entrants,
                                      registration=registration, table_size=table_size,
                                      config=config, secret=own_secret(), group_id=group_id)
    except ValueError as exc:
        return _form(game, form, said_of(exc), 422)
    except TableError as exc:
        return _form(game, form, exc.message, exc.status)
    rotate_secret()     # a director's role: a cookie planted on this browser earlier shares none
    return redirect(url_for(".dashboard", event_id=event.id), 303)
