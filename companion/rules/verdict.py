"""Verdicts and rule errors shared by every game module.

A :class:`Verdict` answers a rule question ("may this card go there?") without raising;
a :class:`RuleError` refuses an illegal action. Both carry a rule ID so the app can show
which rule decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Verdict", "RuleError"]


@dataclass(frozen=True)
class Verdict:
    """The answer to a rule check.

    ``ok`` is the yes/no answer, ``reason`` one sentence a player understands, ``rule`` the
    rule ID that decided it and ``details`` the numbers behind it (JSON-ready values).
    A verdict is truthy exactly when ``ok`` is.
    """

    ok: bool
    reason: str
    rule: str
    details: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        """Return ``ok``, so ``if verdict:`` reads naturally."""
        return self.ok


class RuleError(ValueError):
    """An illegal action: ``str(error)`` is one plain sentence, ``.rule`` the rule ID."""

    def __init__(self, message: str, rule: str) -> None:
        """Store the player-facing ``message`` and the ``rule`` ID that refused the action."""
        super().__init__(message)
        self.rule = rule

    def __reduce__(self):
        """Keep ``rule`` when the error is pickled (e.g. across worker processes)."""
        return (type(self), (str(self), self.rule))
