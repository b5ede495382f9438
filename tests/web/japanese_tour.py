"""A game's Japanese tour (tests/web/test_web_japanese.py): the taps that show every screen of
the game in Japanese, one of them refused. Each game writes its own tour in its own web test,
``tests/web/test_web_<slug>.py``, as a module-level ``JAPANESE = Tour(...)``: the Japanese
test finds it from the games registry, so adding a game edits no shared test table."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field


@dataclass
class Step:
    """One tap at the table: `fields` pressed on the form whose start tag holds `form`, by
    the host (seat 0) or the guest (seat 1); `status` 200 (saved) or 422 (refused)."""

    fields: dict
    status: int = 200
    form: str = 'id="entry-form"'
    by: str = "host"


@dataclass
class Tour:
    slug: str
    names: list[str]
    steps: list[Step]                       # in order; at least one is refused (422)
    table: dict = field(default_factory=dict)        # house rules and table switches
    tools: list[str] = field(default_factory=list)   # the game's tool pages (any status)
    table_tools: list[str] = field(default_factory=list)   # …bound to the table: /t/<id>


def tour_of(slug: str) -> Tour | None:
    """The game's tour from its own web test module, or None when it has none."""
    try:
        module = importlib.import_module(f"test_web_{slug}")
    except ModuleNotFoundError as error:
        if error.name != f"test_web_{slug}":
            raise
        return None
    tour = getattr(module, "JAPANESE", None)
    assert tour is None or (isinstance(tour, Tour) and tour.slug == slug), (slug, tour)
    return tour
