"""Every rendering cache of a table's pages, in one place: what is drawn once and shared.

When one phone saves a round, every other phone at the table fetches the same sheet and a
fresh entry form within the same second (a tournament's burst is hundreds of them). What
they get differs only in two per-request strings — the phone's CSRF token and the form's
one-time submission id — and in what the game's screen shows to this particular phone
(seated or watching, which team, which player's board). So the first phone renders, the
others reuse its HTML with their own token and id put back in (:func:`shared`).

Each cache's key is made of what its drawing reads, never listed by hand beside it:

- the live sheet and form (:func:`play`): the table's version (every write changes it, so
  a drawing never goes stale; old versions age out of the LRU) and the game adapter's
  ``viewer_key`` (what its screens show differently per phone);
- the chrome (:func:`chrome`): a :class:`Chrome` (``view.chrome``), the only thing its
  templates read, so a field they show is a field of the key; an entry, which changes
  none of it, reuses it;
- the "Earlier games" list (:func:`earlier_games`): the stored set of earlier games.

The active language and the path prefix the app answers under are part of every key.
:func:`play_response` is the answer to a write, built from these.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import (get_template_attribute, has_request_context, make_response, redirect,
                   render_template, request, url_for)
from flask_babel import get_locale, gettext
from markupsafe import Markup

from companion import tables
from companion.lru import LRU
from companion.storage import get_db
from companion.tables.tokens import new_submission_id

from .htmx import csrf_token, is_fragment_request, render
from .i18n import current_language
from .qr import qr_svg
from .urls import base_is_loopback, base_mismatch, join_url

if TYPE_CHECKING:
    from .table import View

MAX_ENTRIES = 2048
_TOKEN_MARK = "\x00csrf\x00"
_SID_MARK = "\x00sid\x00"

_cache = LRU(MAX_ENTRIES)
stats = {"hits": 0, "misses": 0}
#: The chrome's own counts (:func:`chrome`), apart from the sheet and form's.
chrome_stats = {"hits": 0, "misses": 0}


def _request_key() -> tuple[str, str]:
    """The active UI language and the path prefix the app answers under, part of every key:
    a Japanese phone gets Japanese HTML, and a phone that came through a proxy's prefix
    (https://club.example/companion/) links under it while one on the LAN does not."""
    if not has_request_context():
        return "", ""
    return str(get_locale() or ""), request.script_root


def shared(key: Hashable, token: str, sid: str, render: Callable[[], str],
           counts: dict | None = None, slots: dict[str, str] | None = None) -> str:
    """The fragment for `key`, rendered by `render()` on a miss.

    `render()` must put exactly this request's `token` and `sid` into the HTML; they are
    swapped for marks in the stored copy and for the next phone's own values on a hit.
    Both are long random strings, so they never collide with other text in the page.
    `slots` maps marks that `render()` writes (:func:`slot` strings) to what this phone
    gets in their place: what differs per answer but is not worth a rendering of its own
    (a write's notice). Hits and misses are counted in `counts` (default: :data:`stats`).
    """
    counts = stats if counts is None else counts
    full_key = (key, _request_key())
    stored = _cache.get(full_key)
    if stored is not None:
        counts["hits"] += 1
    else:
        html = render()
        stored = html.replace(token, _TOKEN_MARK) if token else html
        stored = stored.replace(sid, _SID_MARK)
        counts["misses"] += 1
        _cache.put(full_key, stored)
    html = stored.replace(_TOKEN_MARK, token).replace(_SID_MARK, sid)
    for mark, value in (slots or {}).items():
        html = html.replace(mark, value)
    return html


def slot(name: str) -> str:
    """A mark a shared fragment holds where each phone's answer puts its own text."""
    return f"\x00{name}\x00"


def clear() -> None:
    """Forget every stored fragment (tests)."""
    _cache.clear()
    stats.update(hits=0, misses=0)
    chrome_stats.update(hits=0, misses=0)


# ---------------------------------------------------------------- what a table page reads

#: Where a shared tables/_play.html holds a write's answer (the notice under the tapped
#: button) and its one catch-up refresh (", load"): a live refresh fills them with nothing,
#: the phone that wrote with its own.
ANSWER_SLOT, LOAD_SLOT = slot("answer"), slot("load")


def page_context(view: View, **extra) -> dict:
    """What every table template is drawn with: the view, the join link (and its QR, a
    callable: only the full page draws it), the address warnings, a fresh submission id,
    and no answer yet; `extra` (a write's message, what was typed...) overrides."""
    url = join_url(view.table.token)
    context = dict(view=view, join_url=url, loopback=base_is_loopback(),
                   other_base=base_mismatch(),
                   join_qr=lambda: qr_svg(url, gettext("QR code to join this table")),
                   sid=new_submission_id(), values={}, message=None, status_kind=None,
                   answer_slot=None, load_slot=None, invalid=frozenset(), entered=None)
    context.update(extra)
    return context


# ---------------------------------------------------------------- the live sheet and form

def viewer(view: View) -> Hashable:
    """What a game's live fragments depend on besides the table's version: the adapter's
    ``viewer_key`` (by default each seat gets its own copy, which is always safe)."""
    return view.ui.viewer_key(view)


def play(view: View, context: dict, template: str, answer: str = "", load: str = "") -> str:
    """`template` (tables/_play.html) as every phone with this phone's viewer key sees it
    at this version: every phone at the table asks for it right after a change, and the
    phone that made the change gets it too, so it is drawn once per version and viewer,
    with this phone's own token and form id, and `answer`/`load` in its slots."""
    key = ("play", view.table.id, view.table.version, template, viewer(view))
    drawn = dict(context, answer_slot=Markup(ANSWER_SLOT), load_slot=Markup(LOAD_SLOT))
    return shared(key, csrf_token(), context["sid"],
                  lambda: render_template(template, **drawn),
                  slots={ANSWER_SLOT: answer, LOAD_SLOT: load})


# ---------------------------------------------------------------- the chrome

@dataclass(frozen=True)
class Chrome:
    """Everything the page's chrome shows (templates/tables/_chrome.html, the only thing
    it reads): the table's identity, code, host seat and event; every seat (name, team,
    phone, lock); this phone's seat and host-ness; the join link and the loopback and
    other-address warnings. Being the chrome's whole input, it is also its cache key: a
    field added here for the template is in the key by construction."""

    table_id: str
    code: str
    host_seat: int
    event_id: str | None
    seats: tuple[tables.Seat, ...]
    my_seat: int | None
    is_host: bool
    join_url: str
    loopback: bool
    other_base: str | None
    group_id: str | None = None   # the group the table records into (host tools: attach)
    active: tuple = ()            # host tools: (seat, when its phone was last heard of)

    @classmethod
    def of(cls, view: View) -> Chrome:
        """The chrome of `view` (``view.chrome``) for this request's address."""
        table = view.table
        return cls(table.id, table.code, table.host_seat, table.event_id, tuple(view.seats),
                   view.phone.seat, view.is_host, join_url(table.token), base_is_loopback(),
                   base_mismatch(), table.group_id,
                   tuple(sorted(tables.seat_activity(get_db(), table.id).items()))
                   if view.is_host else ())

    def active_at(self, pos: int) -> str | None:
        """When the phone holding seat `pos` was last heard of (host tools)."""
        return dict(self.active).get(pos)

    @property
    def me(self) -> tables.Seat | None:
        """This phone's seat (None: it watches)."""
        return next((s for s in self.seats if s.pos == self.my_seat), None)

    @property
    def invite_first(self) -> bool:
        """Whether the invite QR leads this phone's screen: the host's, until a second
        phone has taken a seat."""
        return self.is_host and sum(s.has_phone for s in self.seats) < 2

    def url(self, endpoint: str) -> str:
        """One of the table's URLs (``table.<endpoint>``)."""
        return url_for(f"table.{endpoint}", table_id=self.table_id)

    def join_qr(self) -> Markup:
        """The invite's QR code (drawn only where the page shows it)."""
        return qr_svg(self.join_url, gettext("QR code to join this table"))


def chrome(view: View, context: dict, since: int | None) -> str:
    """The page's chrome (who this phone is, the invite QR, the host tools), marked to be
    swapped out of band: appended to a /play answer or a write's answer when it changed
    after `since`, the version of the page the phone shows (None: unknown, always sent), so
    seat and host changes reach every phone live and an entry's answers don't carry 7 kB
    nobody needs. It is shared per what it shows (its :class:`Chrome`), not per version."""
    if since is not None and view.table.chrome_version <= since:
        return ""
    return shared(view.chrome, csrf_token(), context["sid"],
                  lambda: render_template("tables/_chrome_oob.html", **context),
                  counts=chrome_stats)


# ---------------------------------------------------------------- earlier games

#: The drawn "Earlier games" lists, per (Sheet.past_key, language).
_earlier_games = LRU(1024)


def earlier_games(sheet: tables.Sheet) -> Markup:
    """The sheet's list of earlier games (tables/_earlier_games.html), and the current game
    once it is over. Only a rematch or a write before the current game changes the
    earlier ones, so the list is drawn once per stored set (`Sheet.past_key`) and language
    (and, while the current game is over, the table's version), not into every answer: a
    table that has played 96 games would otherwise draw 96 lines each time."""

    finished = None
    if sheet.summary.get("over"):
        # The game just finished is listed at once, with when its last entry was made.
        last = sheet.last_undoable
        finished = {**sheet.summary,
                    "ended_at": last.created_at if last is not None else None}

    def draw() -> Markup:
        return Markup(render_template("tables/_earlier_games.html",
                                      past_games=sheet.past_games, finished=finished))

    if sheet.past_key is None or (finished is None and not sheet.past_games):
        return draw()
    # The game just finished changes only with the table's version.
    key = (sheet.past_key, current_language(),
           sheet.table.version if finished is not None else None)
    found = _earlier_games.get(key)
    if found is None:
        found = draw()
        _earlier_games.put(key, found)
    return found


# ---------------------------------------------------------------- a write's answer

def since_of(raw: str | None) -> int | None:
    """The version a request says its page shows (`since`, a form's `version`), if readable."""
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def play_response(view: View, *, status: int = 200, message: str | None = None,
                  kind: str = "ok", values: dict | None = None, rule: str | None = None,
                  error: BaseException | None = None, entered=None):
    """After a write: the sheet and entry form (htmx), or back to the page (plain form post).

    A write that went through gets the drawing every phone like this one gets at the new
    version, with its notice under the button and its one catch-up refresh in their slots;
    a refused one is drawn for this phone alone: what it typed (`values`), the boxes the
    refusal (`error`) is about, and what the form read (`entered`, see GameUI.parse_entry).
    """
    if not is_fragment_request() and status < 400:
        return redirect(url_for("table.show", table_id=view.table.id), 303)
    context = page_context(view)
    if is_fragment_request() and status == 200 and kind == "ok" and not values and not rule:
        # Done: the others' refreshes reuse this drawing (a change may have come in
        # meanwhile: the catch-up refresh fetches it).
        notice = get_template_attribute("_macros.html", "notice")(message, kind, None, True)
        html = play(view, context, "tables/_play.html", answer=str(notice), load=", load")
    else:
        # answer: _play.html catches up once after it.
        invalid = (view.ui.invalid_fields(error, values or {}) if kind == "error"
                   else frozenset())
        context.update(message=message, status_kind=kind, values=values or {}, rule=rule,
                       answer=True, invalid=invalid, entered=entered)
        if not is_fragment_request():
            return render("tables/table.html", "tables/_play.html", status=status, **context)
        html = render_template("tables/_play.html", **context)
    # The chrome only if it changed since the version the form was drawn at.
    html += chrome(view, context, since_of(request.form.get("version")))
    response = make_response(html, status)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response
