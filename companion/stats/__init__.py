"""A group's statistics: pure functions over recorded games (docs/STATS.md).

Like the rules library, this package imports neither Flask nor SQLite and does no I/O. A
group's figures are kept as games finish, not recomputed from every log on each view:

- :func:`facts_of` (or :func:`facts_of_summary`) reads, once per finished game, what the
  game-specific figures need from its log (a Rook game's hands, a Zock'n'Roll game's drops,
  ...), as a small JSON-ready dict the caller stores beside the record;
- :func:`add` and :func:`remove` fold one record (the ``games.json`` item) and its facts
  into, or out of, a JSON-ready running total made by :func:`empty`;
- :func:`view` turns the running total into the figures, each under the key STATS.md
  documents (what ``stats.json`` serves).

An edited game is ``remove`` with the old record and facts, then ``add`` with the new ones.
:func:`build` makes a total from stored records and facts; :func:`player` and
:func:`timeline` serve a player's page and its chart of wins over time.
"""
from __future__ import annotations

from .core import add, build, empty, player, remove, section_of, timeline, view
from .facts import facts_of, facts_of_summary

__all__ = ["add", "build", "empty", "facts_of", "facts_of_summary", "player", "remove",
           "section_of", "timeline", "view"]
