"""The event pages' forms read into checked values: the new-event form (rounds,
players per table, the director's scoring and pairing choices), a result's correction, a
penalty or bonus, the round clock's minutes.

Each parser takes the request's form (any mapping of strings) or one field's text and
returns plain values for the event service (:mod:`companion.events`), or raises ValueError
with a sentence the page shows. Used by the blueprint's views (:mod:`companion.web.events`)
only.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from companion import events
from companion.events import event_format
from companion.events.director import MAX_ADJUSTMENT
from companion.events.entrants import LATE_CHOICES
from companion.events.event import MAX_ROUNDS, Event
from companion.events.round_clock import MAX_CLOCK_MINUTES
from companion.rules.said import N_, message

PLANS = ("swiss", "round_robin")   # how an event's rounds are paired (pair formats)

__all__ = ["config_choices", "parse_adjustment", "parse_config", "parse_minutes",
           "parse_places", "parse_points_by_size", "parse_rounds", "parse_scores",
           "parse_table_size"]


def parse_table_size(raw: str | None, slug: str) -> int | None:
    """The director's players per table from the form ("" keeps the game's default)."""
    text = (raw or "").strip()
    if not text:
        return None
    base = event_format(slug)
    if base["kind"] != "tables":
        raise ValueError(N_("In this game a table is one pairing; its size can't be chosen."))
    low, high = base["min_table"], base["max_table"]
    if not text.isascii() or not text.isdigit() or len(text) > 2 \
            or not low <= int(text) <= high:
        raise ValueError(message("tournament", "Players per table is a whole number from {low} to "
                                 "{high}.", low=low, high=high))
    return int(text)


def parse_rounds(raw: str | None) -> int:
    """The number of rounds from the form (1..MAX_ROUNDS)."""
    text = (raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3 \
            or not 1 <= int(text) <= MAX_ROUNDS:
        raise ValueError(message("tournament", "The number of rounds is a whole number from 1 to "
                                 "{most}.", most=MAX_ROUNDS))
    return int(text)


def parse_scores(form: Mapping, count: int) -> list[float] | None:
    """Game scores score_0..score_{count-1} from the correction form: all or none (None:
    keep the sheet's). Whole numbers or decimals, negative allowed."""
    raw = [(form.get(f"score_{i}") or "").strip() for i in range(count)]
    if not any(raw):
        return None
    if not all(raw):
        raise ValueError(N_("Give a score for everybody at the table, or leave every score "
                            "empty."))
    scores = []
    for text in raw:
        try:
            value = float(text.replace("\u2212", "-"))
        except ValueError:
            raise ValueError(message("tournament", "“{text}” isn't a score: type a number "
                                     "like 320 or -40.", text=text[:20])) from None
        if len(text) > 12 or value != value or abs(value) > 1e9:
            raise ValueError(N_("A score is a number of at most 9 digits."))
        scores.append(int(value) if value.is_integer() else value)
    return scores


def parse_places(form: Mapping, count: int) -> list[int]:
    """Finishing places place_0..place_{count-1} from the correction form. The form starts
    with no place chosen, so a place left empty is refused, never read as a draw."""
    raw_places = [(form.get(f"place_{i}") or "").strip() for i in range(count)]
    if not all(raw_places):
        raise ValueError(N_("Give a place for everybody at the table."))
    places = []
    for raw in raw_places:
        if not raw.isascii() or not raw.isdigit() or len(raw) > 3 or not 1 <= int(raw) <= count:
            raise ValueError(message("tournament", "Every place is a whole number from 1 to "
                                     "{count}.", count=count))
        places.append(int(raw))
    if 1 not in places:
        raise ValueError(N_("Somebody finishes first: one place must be 1."))
    return places


def parse_minutes(raw: str | None) -> int | None:
    """Minutes for the round clock from the form; None when left empty (the action's default)."""
    text = (raw or "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 3 \
            or not 1 <= int(text) <= MAX_CLOCK_MINUTES:
        raise ValueError(message("tournament", "Minutes are a whole number from 1 to {most}.",
                                 most=MAX_CLOCK_MINUTES))
    return int(text)


def config_choices(fmt: dict) -> dict:
    """What the new-event form offers and starts with for a game of format `fmt`."""
    base = events.default_scoring(fmt)
    mode = base["mode"]
    return {"mode": mode, "scoring": base,
            "points": ", ".join(f"{p:g}" for p in base.get("points") or ()),
            "tiebreaks": events.tiebreak_columns(None, "match"
                                                 if mode == "match" else "places"),
            "default_order": events.tiebreak_columns(None, mode),
            "odd_tables": events.ODD_TABLES, "pairing": events.SWISS_METHODS,
            "late": LATE_CHOICES}


def _number(raw: str | None, what: str, default):
    """One number typed in the form ("2", "-1", "1.5"); `default` when left empty."""
    text = (raw or "").strip().replace("\u2212", "-")
    if not text:
        return default
    try:
        values = events.parse_points_list(text)
    except ValueError:
        values = []
    if len(values) != 1:
        raise ValueError(message("tournament", "Points for {what} are one number from -{most} "
                                 "to {most}, like 2; “{text}” isn't.", what=what,
                                 most=MAX_ADJUSTMENT, text=text[:20]))
    return values[0]


def parse_config(form: Mapping, fmt: dict) -> dict:
    """The director's scoring and pairing choices from the new-event form, checked.

    Fields: points_places ("4, 2, 1, 0"; table games), points_by_size (table games,
    optional: "3: 4, 2, 0" gives tables of 3 their own points), points_win / points_draw /
    points_loss (team games), points_bye (empty: a win or first place), late_points
    ("zero" or "bye": a bye's points for every round a late arrival missed), tiebreak_1..
    (the tie-breaks in order; "" for none; absent: the game's order), odd_tables (table
    games: "closest", "smaller", "larger"), pairing (team games: "dutch", "adjacent") and
    plan (pair formats: "swiss" or "round_robin"; table games always play Swiss).
    Raises ValueError with a plain sentence; the event is then not stored.
    """
    base = events.default_scoring(fmt)
    config: dict = {}
    plan = form.get("plan") or "swiss"
    if plan not in PLANS:
        raise ValueError(N_("Pick Swiss or a round robin."))
    if fmt["kind"] == "tables" and plan == "round_robin":
        if fmt["min_table"] > 2:
            raise ValueError(N_("A round robin is played two to a table; tables of this "
                                "game seat at least three, so its events are paired Swiss."))
        # Two to a table: scored as a win, a draw or a loss.
        fmt = {**fmt, "kind": "head_to_head", "min_table": 2, "max_table": 2,
               "preferred_table": 2, "odd_tables": None}
        base = events.default_scoring(fmt)
        config["plan"] = plan
        # The form's tie-breaks were offered for places at a table: the defaults of a
        # win/draw/loss scoring stand instead.
        form = {k: v for k, v in form.items() if not k.startswith("tiebreak_")}
    if fmt["kind"] == "tables":
        text = (form.get("points_places") or "").strip()
        points = _falling(events.parse_points_list(text) if text
                          else list(base["points"]))
        config["points"] = points
        by_size = parse_points_by_size(form.get("points_by_size"), fmt)
        if by_size:
            config["points_by_size"] = by_size
        odd = form.get("odd_tables") or "closest"
        if odd not in events.ODD_TABLES:
            raise ValueError(N_("Pick how tables are made when the players don't divide "
                                "evenly."))
        config["odd_tables"] = odd
    else:
        win = _number(form.get("points_win"), message("tournament", "a win"), base["win"])
        draw = _number(form.get("points_draw"), message("tournament", "a draw"), base["draw"])
        loss = _number(form.get("points_loss"), message("tournament", "a loss"), base["loss"])
        if not win >= draw >= loss or win == loss:
            raise ValueError(N_("A win scores more than a loss, and a draw no more than a win "
                                "and no less than a loss (like 2, 1, 0)."))
        config.update(win=win, draw=draw, loss=loss)
        method = form.get("pairing") or "dutch"
        if method not in events.SWISS_METHODS:
            raise ValueError(N_("Pick a pairing from the list."))
        config["pairing"] = method
        if plan != "swiss":
            config["plan"] = plan
    config["bye"] = _number(form.get("points_bye"), message("tournament", "a bye"), None)
    late = form.get("late_points") or "zero"
    if late not in LATE_CHOICES:
        raise ValueError(N_("Pick what late arrivals start with from the list."))
    config["late"] = late
    names = [f"tiebreak_{n}" for n in range(1, len(events.TIEBREAKS) + 1)]
    if any(name in form for name in names):
        config["tiebreaks"] = list(events.parse_tiebreak_order(
            [(form.get(name) or "")[:40] for name in names], base["mode"]))
    return config


def _falling(points: list) -> list:
    """`points` if no better place scores less than a worse one, else ValueError."""
    if any(better < worse for better, worse in zip(points, points[1:])):
        raise ValueError(N_("Points by place go down from first place, like 4, 2, 1, 0: "
                            "a better place never scores less than a worse one."))
    return points


def parse_points_by_size(raw: str | None, fmt: dict) -> dict[str, list]:
    """The director's own points for some table sizes: ``"3: 4, 2, 0; 5: 5, 3, 2, 1, 0"``
    -> ``{"3": [4, 2, 0], "5": [5, 3, 2, 1, 0]}`` ({} when left empty: every size uses
    the one list). Sizes separated by semicolons or new lines, each a table size of the
    game, at most once; the points as in :func:`companion.events.parse_points_list`,
    never rising."""
    # Full-width digits, colons and semicolons (Japanese input) read as plain ones.
    text = unicodedata.normalize("NFKC", raw or "").strip()
    if not text:
        return {}
    if len(text) > 400:
        raise ValueError(N_("Points by table size are too long: list each size once."))
    low, high = fmt["min_table"], fmt["max_table"]
    out: dict[str, list] = {}
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        size, colon, points = part.partition(":")
        size = size.strip()
        if not colon or not size.isascii() or not size.isdigit() or len(size) > 2:
            raise ValueError(N_("Write points for a table size as the size, a colon and the "
                                "points, like 3: 4, 2, 0."))
        if not low <= int(size) <= high:
            raise ValueError(message("tournament", "Tables seat {low} to {high} players, so "
                                     "{size} is not a table size here.", low=low, high=high,
                                     size=size))
        key = str(int(size))
        if key in out:
            raise ValueError(message("tournament", "Table size {size} is listed twice.",
                                     size=key))
        out[key] = _falling(events.parse_points_list(points))
    return out


def parse_adjustment(form: Mapping, event: Event) -> tuple[float, int | None]:
    """(points, round) of a penalty or bonus from the dashboard's form: points a number
    other than 0 (negative for a penalty), round empty or one of the event's rounds."""
    points = _number(form.get("points"), message("tournament", "a penalty or bonus"), None)
    if points is None or points == 0:
        raise ValueError(N_("Give the points to add, like 1, or to take away, like -2."))
    raw = (form.get("round") or "").strip()
    number = None
    if raw:
        if not raw.isascii() or not raw.isdigit() or len(raw) > 3 \
                or not 1 <= int(raw) <= event.rounds:
            raise ValueError(message("tournament", "The round is a whole number from 1 to "
                                     "{rounds}, or leave it empty.", rounds=event.rounds))
        number = int(raw)
    return points, number

