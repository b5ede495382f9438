"""The one contract between a game's rules and its phone screens: :class:`GameUI`.

A game is a rules module (``companion/rules/<slug>.py``, pure; see docs/RULES-API.md) plus a web
adapter: a subclass of :class:`GameUI` in ``companion/web/games/<slug>.py``, exposed as the
module-level name ``UI``. The adapter overrides only what differs from the defaults below;
everything else follows from the slug. Derived game state (turn order, who is waiting, the
other team, the last winner) comes from the rules' ``summary()``, never recomputed here.

Templates (under ``templates/``):

``games/<slug>/_sheet.html``        required: the live score sheet (``sheet_template``)
``games/<slug>/_entry_fields.html`` required: the inside of the entry form (``entry_template``)
``games/<slug>/_finish.html``       optional: a second form below the entry form, e.g. a
                                    redeal or "finish the match" button (``finish_template``)
``games/<slug>/_new_help.html``     optional: help above the house rules on the new-table
                                    form (``new_table_help``)

An optional template is used when it exists; that is checked once per adapter, through the
app's Jinja loader.

Templates see the adapter as ``view.ui`` on table pages and ``ui`` on the new-table form;
every name documented here always exists, so templates test values, never definedness.

Words: an error sentence a player reads (an :class:`EntryError` from
:meth:`GameUI.parse_entry`, which also names the form field it is about) and a history line (:meth:`GameUI.describe`) go through the project's one words path: a
fixed sentence is marked ``N_("...")``, a sentence with values is ``message("entry",
"{name}'s score ...", name=name)`` (both from :mod:`companion.rules.said`). The web shows
them through ``say()``, so a catalogue can translate them.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from flask import current_app
from flask_babel import gettext
from jinja2 import TemplateNotFound

from companion.rules import RuleError
from companion.rules.game import PAPER
from companion.rules.said import N_, joined, message

__all__ = ["EntryError", "GameUI", "Parsed", "paper_words"]

#: One switch offered on the new-table form: (form field name, label, hint).
Switch = tuple[str, str, str]

_UNSET: Any = object()


def paper_words(payload: Mapping, names: list[str]) -> Any:
    """The history line of a game started from a paper sheet (``companion.rules.game.PAPER``):
    "From the paper sheet: Ann & Cid 340, Bob & Dee 285" (teams are "A": seats 1, 3, 5 and
    "B": the others), each player's total, or each player's checks on a paper board ("Ann
    ✓7"). Never raises for an odd payload."""
    paper = payload.get("paper") if isinstance(payload, Mapping) else None
    checks = paper.get("checks") if isinstance(paper, Mapping) else None
    if isinstance(checks, Mapping):     # paper boards: each player's checks, counted
        parts = [f"{name} ✓{sum(v for v in rows.values() if isinstance(v, int))}"
                 for name, rows in checks.items() if isinstance(rows, Mapping)]
        return message("entry", "From the paper sheet: {totals}", totals=joined(parts, ", "))
    totals = paper.get("totals") if isinstance(paper, Mapping) else None
    totals = totals if isinstance(totals, Mapping) else {}
    teams = {"A": " & ".join(names[0::2]), "B": " & ".join(names[1::2])}
    parts = [f"{teams.get(key, key) if set(totals) <= set(teams) else key} {value}"
             for key, value in totals.items()]
    return message("entry", "From the paper sheet: {totals}", totals=joined(parts, ", "))


class EntryError(ValueError):
    """An entry form the adapter refuses: one plain sentence for the player (``N_`` or
    ``message``, its only argument, as for any ValueError) and the form field it is about
    (``field``; None when no one box is at fault), which the form marks ``aria-invalid``
    and focuses (:meth:`GameUI.invalid_fields`). A refusal about several boxes at once
    (every empty score box) names them all in ``fields``; ``field`` is then the first."""

    def __init__(self, text: Any, field: str | None = None,
                 fields: tuple[str, ...] = ()) -> None:
        super().__init__(text)
        self.fields = tuple(fields) or ((field,) if field is not None else ())
        self.field = field if field is not None else (self.fields[0] if self.fields else None)


@dataclass
class Parsed:
    """One entry form as the game's adapter read it, once per POST: the rules action it
    made (``payload``), or the refusal it raised (``refusal``). A refused entry's form is
    drawn with it (``entered`` in the templates; None on every other drawing), so a
    template needing the form's reading (the score pad's "Save anyway?") never parses
    the form again."""

    payload: dict | None = None
    refusal: ValueError | None = None

    def parse(self, ui: GameUI, form: Mapping[str, str], names: list[str],
              summary: dict) -> dict:
        """``ui.parse_entry(form, names, summary)``, keeping its action or refusal."""
        try:
            self.payload = ui.parse_entry(form, names, summary)
        except ValueError as exc:
            self.refusal = exc
            raise
        return self.payload


class GameUI:
    """A game's phone screens: templates, the entry form's parsing, history lines.

    Class attributes a subclass may set (all have defaults):

    ``slug``
        The game's slug (``companion.rules.find_game(slug)``); given to the constructor
        when the class does not set it.
    ``fields``
        The entry form's field names that :meth:`form_values` echoes back after a refusal.
    ``max_field_chars``
        How much of each echoed field is kept (a refusal never echoes a huge body).
    ``table_switches``
        Tuple of ``(name, label, hint)``: checkboxes offered on the new-table (and new-event)
        form; each becomes a boolean table option ``name``. Labels and hints are marked
        ``N_`` and shown through ``say()``.
    ``starter_choice``
        True: the new-table form asks who starts game 1 (a "starts" radio per row) and
        :meth:`first_seat` turns the rows round to put that player first (the rules start
        with seat 0).
    ``entry_when_over``
        True: once ``summary()["over"]``, the game's own entry form still shows (e.g. "deal
        the next game" in a match), instead of the generic rematch button.
    ``styles``
        Stylesheets under ``static/`` this game shares with others, loaded before its own
        ``static/css/games/<slug>.css`` (found by name) in its pages' one bundle
        (``css/games/cards.css`` for a game drawing ``templates/_cards.html``).
    ``scripts``
        Scripts under ``static/`` its pages add after ``bundle/site.js``
        (``js/pickers.js``: the card picker and the dice pad).
    ``paper_rows``
        For a game whose paper sheet holds checks (``Game.paper_fields`` has ``"checks"``):
        the rows of a paper board the new-table form offers, each ``(key, label, only)``:
        the row's key in the rules, its label (shown through ``say()``) and, for a row of
        one board only, ``(setting, value)``: the row shows while that house rule is chosen.
    """

    slug: str = ""
    fields: ClassVar[tuple[str, ...]] = ()
    max_field_chars: ClassVar[int] = 40
    table_switches: ClassVar[tuple[Switch, ...]] = ()
    starter_choice: ClassVar[bool] = False
    entry_when_over: ClassVar[bool] = False
    styles: ClassVar[tuple[str, ...]] = ()
    scripts: ClassVar[tuple[str, ...]] = ()
    paper_rows: ClassVar[tuple[tuple[str, Any, tuple[str, str] | None], ...]] = ()
    #: The form field a rules refusal is about, by its rule ID: see invalid_fields().
    rule_fields: ClassVar[Mapping[str, str]] = {}
    #: The field any other refusal is about when it names none and the field holds text.
    rules_field: ClassVar[str | None] = None

    def __init__(self, slug: str | None = None) -> None:
        self.slug = slug or type(self).slug
        if not self.slug:
            raise ValueError(message("entry", "{adapter} needs a game slug.",
                                     adapter=type(self).__name__))
        self._optional: dict[str, str | None] = {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.slug!r}>"

    # ------------------------------------------------------------ templates

    def template(self, name: str) -> str:
        """The template path of one of this game's files, e.g. ``"games/rook/_sheet.html"``."""
        return f"games/{self.slug}/{name}"

    @property
    def sheet_template(self) -> str:
        """The live sheet (required), included in ``tables/_sheet.html``."""
        return self.template("_sheet.html")

    @property
    def entry_template(self) -> str:
        """The entry form's fields (required), included inside ``#entry-form``."""
        return self.template("_entry_fields.html")

    @property
    def finish_template(self) -> str | None:
        """``_finish.html`` when the game has one (shown below the entry form), else None."""
        return self._if_exists("_finish.html")

    @property
    def new_table_help(self) -> str | None:
        """``_new_help.html`` when the game has one (above the house rules), else None."""
        return self._if_exists("_new_help.html")

    def _if_exists(self, name: str) -> str | None:
        """The template's path if the app's Jinja loader finds it; looked up once."""
        found = self._optional.get(name, _UNSET)
        if found is _UNSET:
            path = self.template(name)
            env = current_app.jinja_env
            try:
                env.loader.get_source(env, path)
            except TemplateNotFound:
                found = None
            else:
                found = path
            self._optional[name] = found
        return found

    # ------------------------------------------------------------ the new-table form

    def invalid_fields(self, error: BaseException | None,
                       values: Mapping[str, str] | None) -> frozenset[str]:
        """The form fields a refused entry is about, to mark them ``aria-invalid`` (the page
        brings the first into view and focuses it). ``error`` is the refusal as raised: the
        adapter's :class:`EntryError` names its field; a rules ``RuleError`` is looked up
        by its rule in :attr:`rule_fields`; any other refusal (or one naming no field)
        is about :attr:`rules_field` when it was filled in, else about no box. Called by
        the table view for every refused entry; templates read the result as ``invalid``."""
        several = getattr(error, "fields", ())
        if len(several) > 1:
            return frozenset(several)
        field = getattr(error, "field", None)
        if field is None and isinstance(error, RuleError):
            field = self.rule_fields.get(error.rule)
        if field is not None:
            return frozenset({field})
        if self.rules_field and values and (values.get(self.rules_field) or "").strip():
            return frozenset({self.rules_field})
        return frozenset()

    def first_seat(self, form: Mapping[str, str], rows: list[int]) -> int:
        """Which of the filled rows starts game 1, as an index into ``rows``.

        Called by the new-table form after the names are read: ``rows`` are the indexes of
        the rows with a name, in seating order. Without ``starter_choice`` it is always 0.
        With it, the form's ``starter`` radio names a row; the caller turns the rows round
        to put it first (the seating order stays). ValueError (a plain sentence) when the
        radio names a row without a name.
        """
        if not self.starter_choice:
            return 0
        raw = (form.get("starter") or "").strip()
        if not raw:
            return 0
        if len(raw) > 3 or not raw.isascii() or not raw.isdigit() or int(raw) not in rows:
            raise ValueError(N_("Tap “starts” beside the player who starts the first game "
                                "(a row with a name)."))
        return rows.index(int(raw))

    # ------------------------------------------------------------ the entry form

    def parse_entry(self, form: Mapping[str, str], names: list[str], summary: dict) -> dict:
        """Turn a submitted entry form into one rules action (a dict for ``game.apply``).

        Called once per ``POST /t/<id>/actions``, inside the entry's write (against the
        fold it starts from), with the request's form, the seat names in seating order and
        the current ``summary()``. Raises :class:`EntryError` (a ValueError) with one plain
        sentence (``N_`` / ``message``) naming what to fix and the field it is about; the
        form is then shown again with :meth:`form_values`. The rules still judge the
        action afterwards. Every adapter overrides this.
        """
        raise NotImplementedError(f"{type(self).__name__}.parse_entry")

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        """What the player had entered, to put back in the form after a refusal.

        Called when an entry is refused. Default: each of ``fields`` from the
        form, cut to ``max_field_chars``; a game whose fields depend on the seats overrides
        this.
        """
        return {key: (form.get(key) or "")[:self.max_field_chars] for key in self.fields}

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page (and the "waiting to confirm" notice) saying what a
        stored action did; shown through ``say()``. Called with the stored payload (never
        re-judged: it must not raise for an old or odd payload) and the seat names.
        Default: the action's kind (a paper sheet's line: :func:`paper_words`)."""
        if payload.get("kind") == PAPER:
            return paper_words(payload, names)
        return str(payload.get("kind"))

    # ------------------------------------------------------------ changing an entry in place

    def editable(self, payload: dict) -> bool:
        """Whether a stored entry (its payload) is a hand or round the table may change in
        place (History's "Edit"): the game's entry form, pre-filled by
        :meth:`edit_values`, then replaces its values where it stands. Also asked of the
        new values, so a change never turns a hand into another kind of entry. Default:
        no entry is (moves inside a deal are undone, not changed)."""
        return False

    def edit_values(self, payload: dict, names: list[str], summary: dict) -> dict[str, str]:
        """The entry form's values that say what `payload` says (what :meth:`parse_entry`
        would read back as it), to pre-fill the edit form; `summary` is the game just
        before the entry. Called only for an :meth:`editable` payload."""
        return {}

    def entry_number(self, payload: dict, summary: dict) -> int | None:
        """The entry's number on the sheet (hand 3, round 3) given the game just before it,
        kept with the change for its history line; None when it has none."""
        return None

    def entry_name(self, payload: dict, number: int | None):
        """What the history and the edit page call the entry: "hand 3" (a Said or an
        ``N_`` text, shown through ``say()``)."""
        if number is None:
            return N_("the entry")
        return message("entry", "entry {n}", n=number)

    def values_text(self, payload: dict, names: list[str]):
        """An entry's values in words for a change's history line ("Ann was changed from
        … to …"). Default: :meth:`describe`."""
        return self.describe(payload, names)

    #: What a numbered entry is called on the sheet, by its payload's kind: a msgid with
    #: ``%(n)s``, the one the sheet's own heading uses (``N_("Hand %(n)s")``). An entry of
    #: a kind not named here has no number (a Rook redeal, a Zock'n'Roll roll, a Rocca play).
    numbered: ClassVar[Mapping[str, str]] = {}

    def number_label(self, payload: dict, number: int | None) -> str | None:
        """"Hand 6" / "Round 6" (in the phone's language) for a numbered entry
        (:attr:`numbered`), else None."""
        kind = payload.get("kind") if isinstance(payload, Mapping) else None
        template = self.numbered.get(kind) if number and isinstance(kind, str) else None
        return gettext(template, n=number) if template else None

    def entry_words(self, payload: dict, names: list[str], summary: dict | None = None,
                    number: int | None = None) -> Any:
        """The entry in words, for the answer to a save, an undo or a strike (and the
        question before one): what was entered and, where the sheet knows it, what it
        scored, so a 75 typed for 175 is seen at once. Short enough for a 375 px notice.

        ``summary`` is the sheet with this entry as its newest (after a save, or before
        "Undo last"), for a game to read the row it made; ``number`` is the entry's
        number on the sheet (:attr:`numbered`) when known. Must not raise for an old or
        odd payload. Default: "Hand 6: " (when numbered) and the history line
        (:meth:`describe`)."""
        words = self.describe(payload, names)
        label = self.number_label(payload, number)
        return message("entry", "{label}: {what}", label=label, what=words) if label else words

    def counts_as_entry(self, payload: dict) -> bool:
        """Whether the entry takes a number on the sheet (a kind in :attr:`numbered`)."""
        return payload.get("kind") in self.numbered

    # ------------------------------------------------------------ live fragments

    def viewer_key(self, view) -> Hashable:
        """What this game's live fragments show differently per phone, besides the table's
        version: phones with equal keys share one rendered fragment (``fragments.py``).
        Called for every fragment request with the table ``View``. Default: one copy per
        seat (always safe)."""
        return ("seat", view.phone.seat)

    # ------------------------------------------------------------ helpers for templates

    @staticmethod
    def me_name(view) -> str | None:
        """The name of the seat this phone holds, or None for a spectator."""
        me = view.me
        return me.name if me else None
