"""Live fragments rendered once per table version and shared by the phones at the table.

When one phone saves a round, every other phone at the table fetches the same sheet and a
fresh entry form within the same second (a tournament's burst is hundreds of them). What
they get differs only in two per-request strings — the phone's CSRF token and the form's
one-time submission id — and in what the game's screen shows to this particular phone
(seated or watching, which team, which player's board). So the first phone renders, the
others reuse its HTML with their own token and id put back in.

A table's version changes on every write (entries, undo, seats, host moves), so an entry
for one version never goes stale; old versions just age out of the LRU. The chrome
(web/table.py `_chrome`) is keyed on everything it shows instead of the version, so an
entry, which changes none of it, reuses it.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import has_request_context, request
from flask_babel import get_locale

from companion.lru import LRU

MAX_ENTRIES = 2048
_TOKEN_MARK = "\x00csrf\x00"
_SID_MARK = "\x00sid\x00"

_cache = LRU(MAX_ENTRIES)
stats = {"hits": 0, "misses": 0}
#: The chrome's own counts (web/table.py `_chrome`), apart from the sheet and form's.
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
