"""Score pad on the phone: one number box per player and a round-by-round sheet.

A round that would end the game with a score far beyond what is plausible is not saved at
once: the answer asks "Ann's 250 would end the game (target 100). Save anyway?" (a 422 that
changes nothing) and its "Save anyway" button posts the same boxes again with
``confirm=end``. The rule (:func:`far_beyond`), also written up in docs/RULES-NOTES.md:

- only when the game has a target and this round takes someone's total to it (the round
  would end the game), and only for the players the round takes there;
- a score is far beyond when it is more than twice the target (one round alone would be
  worth two whole games: 250 at a target of 100), or, once at least two rounds are on the
  sheet, more than three times the biggest score anyone entered in an earlier round (a
  slipped extra digit: 150 after rounds of at most 40).
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Mapping

from companion.rules.game import PAPER
from companion.rules.said import N_, joined, listing, message
from companion.rules.scorepad import MAX_ROUND_SCORE

from .base import EntryError, GameUI, Parsed, paper_words

MAX_SCORE_CHARS = 9
_SCORE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_SCORE_KEY = re.compile(r"score_(.*)", re.DOTALL)

#: The form field (and its value) of the "Save anyway" button.
CONFIRM_FIELD, CONFIRM_VALUE = "confirm", "end"
#: A score bigger than this many times the target is far beyond...
TARGET_FACTOR = 2
#: ...and so is one bigger than this many times the biggest earlier round score...
EARLIER_FACTOR = 3
#: ...once this many rounds are on the sheet (before that, only the target counts).
EARLIER_ROUNDS = 2


class ConfirmEnd(EntryError):
    """A refusal that a second, confirmed tap overrides: the round would end the game with
    a score far beyond the plausible. Its one argument is the question (a Said); the web
    answers it like any refusal (422, nothing saved), and the entry form then offers
    "Save anyway" (see :meth:`ScorepadUI.end_question`)."""

    @property
    def question(self):
        """The "…would end the game (target 100). Save anyway?" question."""
        return self.args[0]


def far_beyond(scores: Mapping[str, int], summary: Mapping) -> list[tuple[str, int]]:
    """The (player, score) pairs of a round that would end the game with a score far beyond
    the plausible (the rule is in the module docstring); empty when the round is fine."""
    target = (summary.get("settings") or {}).get("target")
    if target is None or summary.get("over"):
        return []
    if any(abs(score) > MAX_ROUND_SCORE for score in scores.values()):
        return []      # the rules refuse the round anyway, saying why (SP-6)
    totals = summary.get("totals") or {}
    reaching = [(name, score) for name, score in scores.items()
                if totals.get(name, 0) + score >= target]
    if not reaching:
        return []
    earlier = [abs(v) for scores_of in summary.get("rounds") or [] for v in scores_of.values()]
    limit = TARGET_FACTOR * target
    if len(summary.get("rounds") or []) >= EARLIER_ROUNDS and max(earlier, default=0) > 0:
        limit = min(limit, EARLIER_FACTOR * max(earlier))
    return [(name, score) for name, score in reaching if score > limit]


class ScorepadUI(GameUI):
    """Any game, round by round; ``_finish.html`` ends a game with no end set by hand."""
    styles = ("css/games/wide-sheet.css",)
    #: Enter in a score box goes to the next empty box (static/js/pickers.js, data-fill-all).
    scripts = ("js/pickers.js",)

    slug = "scorepad"

    def parse_entry(self, form: Mapping[str, str], names: list[str],
                    summary: dict | None = None) -> dict:
        """Turn the entry form into a rules action; `EntryError` names the bad box in plain
        words.

        Every player needs a number: an empty box is never a score (a player who scored
        nothing types 0), because a slipped Enter or tap on "Save" must not enter a round
        with the others at 0 (in a lowest-wins game the best score there is). A round
        with empty boxes is refused naming them all (``EntryError.fields``), nothing saved.
        """
        if form.get("kind") == "finish":
            return {"kind": "finish"}
        for key in form:
            match = _SCORE_KEY.fullmatch(key)
            if match and match.group(1) not in {str(pos) for pos in range(len(names))}:
                raise EntryError(N_("That score box belongs to no seat at this table. Reload "
                                    "the page."))
        scores: dict[str, int] = {}
        empty: list[int] = []
        for pos, name in enumerate(names):
            raw = (form.get(f"score_{pos}") or "").strip().replace("−", "-").replace(" ", "")
            if not raw:
                empty.append(pos)
                continue
            if len(raw) > MAX_SCORE_CHARS or not _SCORE.fullmatch(raw):
                raise EntryError(message("entry", "{name}'s score must be a whole number, "
                                                  "like 12 or -5.", name=name),
                                 field=f"score_{pos}")
            scores[name] = int(raw)
        if empty:
            raise EntryError(self._empty_refusal([names[pos] for pos in empty], len(names)),
                             fields=tuple(f"score_{pos}" for pos in empty))
        if summary is not None and form.get(CONFIRM_FIELD) != CONFIRM_VALUE:
            question = self._question(far_beyond(scores, summary), summary)
            if question is not None:
                raise ConfirmEnd(question)
        return {"kind": "round", "scores": scores}

    @staticmethod
    def _empty_refusal(missing: list[str], seats: int):
        """The sentence refusing a round with empty boxes: whose boxes are empty."""
        if len(missing) == seats:
            return N_("Type every player's score before saving the round (type 0 for "
                      "no points).")
        return message("entry", "Nothing saved: no score typed for {names}. Type a number "
                                "in every box (type 0 for no points).",
                       names=listing(missing, message("entry", "and")))

    @staticmethod
    def _question(flagged: list[tuple[str, int]], summary: Mapping):
        if not flagged:
            return None
        whose = listing([message("entry", "{name}'s {score}", name=name, score=score)
                         for name, score in flagged], message("entry", "and"))
        return message("entry", "{whose} would end the game (target {target}). Save anyway?",
                       whose=whose, target=summary["settings"]["target"])

    def end_question(self, entered: Parsed | None, summary: dict):
        """The "Save anyway?" question a refused round asks, or None: the entry form shows
        the "Save anyway" button when there is one. ``entered`` is how the form was read
        (once, by the refused POST; None on any other drawing): the question it was refused
        with, or, a round confirmed already and refused for another reason (someone saved
        first), the question its scores ask of the sheet now."""
        if entered is None or summary.get("over"):
            return None
        if isinstance(entered.refusal, ConfirmEnd):
            return entered.refusal.question
        if entered.payload is None:
            return None
        return self._question(far_beyond(entered.payload.get("scores", {}), summary), summary)

    def describe(self, payload: dict, names: list[str]) -> str:
        """One line for the history page, e.g. "Round: Ann +12, Bob -5"."""
        if payload.get("kind") == PAPER:
            return paper_words(payload, names)
        if payload.get("kind") == "finish":
            return N_("Finished the game by hand")
        return message("entry", "Round: {scores}", scores=self._scores(payload, names))

    @staticmethod
    def _scores(payload: dict, names: list[str]) -> str:
        """"Ann +12, Bob -5, Cid 0": every player the round has a score for, in seat order."""
        scores = payload.get("scores")
        scores = scores if isinstance(scores, Mapping) else {}
        parts = [f"{n} {scores[n]:+d}" if isinstance(scores.get(n), int) and scores[n]
                 else f"{n} {scores[n]}" for n in names if n in scores]
        return joined(parts, ", ")

    numbered = {"round": N_("Round %(n)s")}

    def entry_words(self, payload: dict, names: list[str], summary: dict | None = None,
                    number: int | None = None):
        """"Round 3: Ann +12, Bob -5, Cid 0" (the round's number: the sheet's, after a
        save)."""
        if payload.get("kind") == "round" and summary is not None and number is None:
            number = summary.get("round_count") or None
        label = self.number_label(payload, number)
        if label is None:
            return self.describe(payload, names)
        return message("entry", "{label}: {what}", label=label,
                       what=self._scores(payload, names))

    def form_values(self, form: Mapping[str, str], names: list[str]) -> dict[str, str]:
        """What the player had typed (one box per seat), to put back after a refusal."""
        return {f"score_{pos}": (form.get(f"score_{pos}") or "")[:self.max_field_chars]
                for pos in range(len(names))}

    # ------------------------------------------------------------ changing a round in place

    def editable(self, payload: dict) -> bool:
        """A round may be changed in place (not the "finish by hand")."""
        return payload.get("kind") == "round"

    def edit_values(self, payload: dict, names: list[str], summary: dict) -> dict[str, str]:
        """One box per seat with the round's score (a player the round left out scored 0)."""
        scores = payload.get("scores") or {}
        return {f"score_{pos}": str(scores.get(name, 0)) for pos, name in enumerate(names)}

    def entry_number(self, payload: dict, summary: dict) -> int | None:
        return int(summary.get("round_count") or 0) + 1

    def entry_name(self, payload: dict, number: int | None):
        """"round 3"."""
        if number is None:
            return N_("the round")
        return message("entry", "round {n}", n=number)

    def values_text(self, payload: dict, names: list[str]):
        """"Ann +12, Bob -5, Cid 0"."""
        scores = payload.get("scores") or {}
        parts = [f"{n} {scores[n]:+d}" if scores.get(n) else f"{n} 0"
                 for n in names if n in scores]
        return joined(parts, ", ")

    def viewer_key(self, view) -> Hashable:
        """The score pad's sheet and form look the same to every seated phone."""
        return ("seated", view.phone.seated)


UI = ScorepadUI
