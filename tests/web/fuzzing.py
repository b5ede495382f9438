"""Property-based fuzzing of every route (Hypothesis): bad input never breaks the app.

Every rule in `app.url_map` except `static` is fuzzed: `test_fuzz_covers_every_route` fails
when a new route has no fuzz description or seed request, so none escapes. A request is drawn
as: who sends it (table A's host, a seated player, a spectator; table B's host or player; a
stranger with a session but no table cookie; nobody at all), which cookies it carries (its
own one phone cookie, none, garbage, its secret under the old per-table and per-event cookie
names that the first request adopts, a broken session),
the path parameters (real, foreign, garbage, unicode, lone surrogates, huge), the query string,
the body (a form with the real field names and random ones, multipart, JSON, raw bytes, wrong
content types; huge values, NUL bytes, negative and huge numbers, missing and repeated
fields), the headers (HX-Request, HX-History-Restore-Request, Origin, Sec-Fetch-Site,
X-CSRFToken) and, in one test, the method. 60 % of the requests are "sane" (what a phone
would send: a valid CSRF token, the current version, a fresh submission id) with at most one
field off, so they get past CSRF and reach the handlers; before the random ones, one seed
request per route must succeed.

Checked on every answer:

- never a 5xx; the security headers are there;
- a 4xx carries a plain sentence in a `role="alert"` box and no Python exception text;
- a 4xx changes nothing (every row of every table compared before and after);
- a GET changes nothing, except the QR route, which may add one phone (or seat it, for a
  rejoin token) at the table the token belongs to;
- a write touches only the table it names (the URL's table, the join code's table, or a new
  table for /new/<slug>);
- a table route succeeds only for a phone whose cookie holds a phone of that table; entries, undos,
  confirmations and rematches only for a seated phone; host tools only for the host;
- a POST without a valid CSRF token, or one a browser marks as cross-site, never succeeds.

Table A is a score pad, table B a Rook table whose hands the other team confirms. The app is
shared by all examples of one test (a new one once the database grows), the seats are put back
between examples, and the join rate limit is set out of reach (the limiter is tested in
test_web_abuse.py). At least 5,000 generated requests are sent in all.
"""
from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from companion.rules import GAMES
from companion.tables.tokens import phone_hash
from companion.events.event import director_hash
from helpers import alerts, attr, select
from web_helpers import Phone, make_app
from web_helpers import snapshot as _table_snapshot

EVENT_DATA = ("events", "event_entrants", "event_rounds", "event_seatings", "event_results",
              "event_audit", "event_directors", "event_adjustments", "event_players")
GROUP_DATA = ("groups", "group_players", "group_phones", "group_games", "group_game_players",
              "group_audit")
# The claims, without the count of second claims refused on each: the one record a refused
# claim leaves (for the director), as a refused guess leaves a rate-limit hit.
CLAIMS_SQL = "SELECT secret_hash, event_id, entrant, member, created_at, via FROM event_passes"


def settled(rows: dict) -> dict:
    """`rows` with the phones compared without their "rotate" mark (their last column, see
    :func:`snapshot`): a phone handed the host's role gets a new key on its next request, a
    GET too, and clearing that mark is the one write such a GET makes (docs/SECURITY.md)."""
    return {**rows, "phones": [row[:-1] for row in rows["phones"]]}


def snapshot(db_path: str) -> dict[str, list[tuple]]:
    """Every row of the tables' data and of the events' (a refused event write changes none)."""
    rows = _table_snapshot(db_path)
    conn = sqlite3.connect(db_path)
    try:
        for name in EVENT_DATA:
            rows[name] = sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
        rows["event_passes"] = sorted(conn.execute(CLAIMS_SQL).fetchall(), key=repr)
        for name in GROUP_DATA:
            rows[name] = sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
        last = conn.execute("SELECT name FROM pragma_table_info('phones') ORDER BY cid DESC"
                            " LIMIT 1").fetchone()[0]
        assert last == "rotate", "settled() drops the phones' last column, the rotate mark"
    finally:
        conn.close()
    return rows

# ---------------------------------------------------------------- what every route takes

TABLE = "/t/<table_id>"
EVENT = "/e/<event_id>"
GROUP = "/g/<group_id>"
EVENT_FIELDS = ("event_name", "event_rounds", "entrants", "target", "rounds", "low_wins",
                "registration", "table_size", "points_places", "points_win", "points_draw",
                "points_loss", "points_bye", "late_points", "tiebreak_1", "tiebreak_2",
                "tiebreak_3", "tiebreak_4", "odd_tables", "pairing", "claim_codes",
                "claim_codes_shown", "group", "plan")
CORRECT_FIELDS = ("round", "table", "place_0", "place_1", "place_2", "place_3", "score_0",
                  "score_1", "score_2", "score_3", "why", "who")
# Event routes only the director (Ann's browser, holding the event's cookie) may use.
DIRECTOR_ROUTES = ("events.dashboard", "events.seat", "events.lock", "events.correct_form",
                   "events.correct", "events.cards", "events.results_csv",
                   "events.change_entrants", "events.registration", "events.clock",
                   "events.director_link", "events.adjustments", "events.swap",
                   "events.unseat", "events.standings_csv", "events.director_devices",
                   "events.claims_action", "events.slips", "events.pair_again",
                   "events.cut", "events.export_zip", "events.announce",
                   "events.pairing_rules")
# Event writes that touch the event's own tables, never A or B: a swap renames seats; "my
# table" seats a phone holding a player's pass (the cast's phones pick names as they go);
# unseating a round deletes or retires its tables. A claim given up (picking another name,
# "Not me", registering, the director's release) takes its phone off the seat it took
# through that claim.
EVENT_TABLE_WRITES = ("events.swap", "events.pair_again", "events.my_table", "events.unseat",
                      "events.pick", "events.not_me", "events.register", "events.claims_action")
NEW_TABLE_FIELDS = ("name_0", "name_1", "name_2", "name_3", "name_4", "me", "target", "rounds",
                    "low_wins", "variant", "min_bid", "ones", "confirm")
# The entry form of every game with phone screens: the score pad's boxes and Rook's hand.
ENTRY_FIELDS = ("sid", "version", "score_0", "score_1", "score_2", "kind", "bidder", "bid",
                "trump", "points_A", "points_B", "bad_discard", "not_played")
TRICK_FIELDS = ("variant", "c1", "c2", "c3", "c4", "trump", "check")
DICE_FIELDS = ("board", "dice", "d1", "d2", "d3", "d4", "d5", "d6", "check")
RR_CHECK_FIELDS = ("q", "t", "card", "onto", "empty", "top", "down", "column", "pickup",
                   "board", "stage", "nopile", "first", "second", "first_turn", "in_hand",
                   "last", "earlier", "building", "empty_space", "last_card_elsewhere",
                   "going_out_exempt", "second_card_team", "check")

# What the Rainbow Rummy checker's form sends (or nearly).
RR_CARDS = ["5J", "6S", "GS", "7M 6N 5E", "MS", "1V", "", "", "9E", "5j", "6S 6J"]
RR_PLACES = ["team", "opponents", "bar", "none", "", "moon"]
RR_LIKELY = {
    "q": ["build", "slip", "move", "bar", "turn", "out", "build", "", "teleport"],
    "t": ["AAAAAAAAAAAA", "", "../x"], "card": RR_CARDS, "onto": RR_CARDS, "top": RR_CARDS,
    "column": RR_CARDS, "pickup": RR_CARDS, "empty": ["", "", "on"], "down": ["", "on"],
    "nopile": ["", "on"], "first_turn": ["", "on"], "board": ["same", "other", "not_own", "x"],
    "stage": ["", "before", "between", "after", "x"], "first": RR_PLACES,
    "second": RR_PLACES, "last": RR_PLACES, "earlier": RR_PLACES,
    "in_hand": ["", "1", "7", "8", "x"], "building": ["", "between", "before_too", "x"],
    "empty_space": ["", "either", "hand", "move", "x"],
    "last_card_elsewhere": ["", "on", "x"], "going_out_exempt": ["", "on"],
    "second_card_team": ["", "on"],
}
ROCCA_CHECK_FIELDS = ("card", "onto", "part", "blocked", "suit", "lock", "inactive", "start",
                      "table", "check")
ROCCA_CARDS = ["7H", "7S", "KS", "JK", "AH", "0C", "10D", "", "", "1H", "7h", "7H 8H"]
ROCCA_LIKELY = {
    "card": ROCCA_CARDS, "onto": ROCCA_CARDS, "start": ROCCA_CARDS,
    "part": ["", "head", "face", "profile", "hat"], "blocked": ["", "head", "face", "x"],
    "suit": ["", "S", "H", "D", "C", "x"], "lock": ["", "", "H", "S", "x"],
    "inactive": ["", "on"], "table": ["", "AAAAAAAAAAAA", "../x"],
    "to": ["en", "ja", "ja", "fr", ""], "next": ["/", "/rocca/check", "//evil.example", ""],
}

ROCKIT_CHECK_FIELDS = ("q", "t", "decks", "n", "trick_0", "trick_1", "trick_2", "all", "hand",
                       "add", "trick", "replacement", "source", "new_trick", "taken",
                       "declared", "cards", "check")
ROCKIT_CARDS = ["9D 10D JD QD KD", "8D AD JS JH", "AD 2D JK 4D", "QC QH JK", "3D", "JK 8C 9C",
                "7H 7H 7H", "", "", "XX", "7h 8h 9h", "KS AS 2S"]
ROCKIT_LIKELY = {
    "q": ["board", "board", "steal", "come_in", "", "x"], "t": ["AAAAAAAAAAAA", "", "../x"],
    "decks": ["2", "2", "1", "", "3"], "n": ["3", "4", "", "99", "x"], "add": ["", "", "1"],
    "source": ["hand", "board", "", "x"], **{name: ROCKIT_CARDS for name in (
        "trick_0", "trick_1", "trick_2", "all", "hand", "trick", "replacement", "new_trick",
        "taken", "declared", "cards")},
}

# (rule, method) -> the form fields (POST) or query arguments (GET) the handler reads.
ROUTES: dict[tuple[str, str], tuple[str, ...]] = {
    ("/", "GET"): ("code",),
    ("/new", "GET"): (),
    ("/new/<slug>", "GET"): (),
    ("/new/<slug>", "POST"): NEW_TABLE_FIELDS,
    ("/j", "GET"): ("old",),        # the QR's page: its script POSTs the fragment's token
    ("/J", "GET"): ("old",),
    ("/j", "POST"): ("token",),
    ("/J/<token>", "GET"): (),      # an older QR's URL: joins nothing any more
    ("/j/<token>", "GET"): (),
    ("/join", "POST"): ("code",),
    ("/places/remove", "POST"): ("kind", "ref"),   # off the start page's list, seat kept
    ("/manifest.webmanifest", "GET"): (),
    ("/sw.js", "GET"): (),
    ("/healthz", "GET"): (),
    (TABLE, "GET"): (),
    (TABLE + "/play", "GET"): ("since",),
    (TABLE + "/stream", "GET"): (),
    (TABLE + "/actions", "POST"): ENTRY_FIELDS,
    (TABLE + "/undo", "POST"): ("sid", "target", "from"),
    (TABLE + "/confirm", "POST"): ("sid", "target"),
    (TABLE + "/rematch", "POST"): ("sid", "version"),
    (TABLE + "/seats", "GET"): (),
    (TABLE + "/seats", "POST"): ("seat",),
    (TABLE + "/history", "GET"): (),
    (TABLE + "/entries/<int:seq>/edit", "GET"): (),
    (TABLE + "/entries/<int:seq>/edit", "POST"): ENTRY_FIELDS,
    (TABLE + "/host/rejoin", "POST"): ("seat",),
    (TABLE + "/host/release", "POST"): ("seat",),
    (TABLE + "/host/pass", "POST"): ("seat",),
    ("/rook/trick", "GET"): TRICK_FIELDS,
    (TABLE + "/trick", "GET"): TRICK_FIELDS,
    ("/zocknroll/best", "GET"): DICE_FIELDS,
    ("/rainbow-rummy/check", "GET"): RR_CHECK_FIELDS,
    ("/rocca/check", "GET"): ROCCA_CHECK_FIELDS,
    ("/rockit/check", "GET"): ROCKIT_CHECK_FIELDS,
    ("/language", "GET"): ("to", "next"),
    ("/events/new", "GET"): ("group",),       # ?group=: an event for one of the phone's groups
    ("/events/new/<slug>", "GET"): ("group",),
    ("/events/new/<slug>", "POST"): EVENT_FIELDS,
    (EVENT, "GET"): ("tables",),
    (EVENT + "/seat", "POST"): (),
    (EVENT + "/lock", "POST"): ("round",),
    (EVENT + "/correct", "GET"): ("round", "table"),
    (EVENT + "/correct", "POST"): CORRECT_FIELDS,
    (EVENT + "/cards", "GET"): ("per_page", "tables", "table"),
    (EVENT + "/results.csv", "GET"): (),
    (EVENT + "/standings", "GET"): (),
    (EVENT + "/projector", "GET"): ("show", "page", "rows"),
    (EVENT + "/players", "GET"): ("name", "pick"),
    (EVENT + "/entrants", "POST"): ("action", "name"),
    (EVENT + "/registration", "POST"): ("action",),
    (EVENT + "/register", "POST"): ("member_0", "member_1", "member_2"),
    (EVENT + "/pick", "POST"): ("name", "code"),
    (EVENT + "/not-me", "POST"): (),
    (EVENT + "/check-in", "POST"): (),
    (EVENT + "/claims", "POST"): ("action", "player", "who"),
    (EVENT + "/slips", "GET"): (),
    (EVENT + "/my-table", "POST"): (),
    (EVENT + "/t/<int:table_no>", "GET"): (),
    # The room: the round clock, pairings by name, the director's link.
    (EVENT + "/clock", "POST"): ("action", "minutes"),
    (EVENT + "/pairings", "GET"): (),
    (EVENT + "/director-link", "POST"): ("keep",),
    (EVENT + "/director", "GET"): ("old",),
    (EVENT + "/director", "POST"): ("token",),
    (EVENT + "/director/<token>", "GET"): (),
    (EVENT + "/director-devices", "POST"): ("action", "device", "name", "confirm"),
    # The director's tools: penalties, swaps and unseating before play, the CSV.
    (EVENT + "/adjustments", "POST"): ("action", "entrant", "points", "reason", "round", "id",
                                       "who"),
    (EVENT + "/swap", "POST"): ("round", "entrant_a", "entrant_b", "who"),
    (EVENT + "/unseat", "POST"): ("round", "who"),
    (EVENT + "/pair-again", "POST"): ("round", "who"),
    (EVENT + "/cut", "POST"): ("size",),
    (EVENT + "/pairing-rules", "POST"): ("action", "group", "members", "name", "table"),
    (EVENT + "/standings.csv", "GET"): (),
    (EVENT + "/export.zip", "GET"): (),
    (EVENT + "/news", "GET"): (),
    (EVENT + "/announce", "POST"): ("action", "text", "who"),
    # Groups: Ann's group (its phones only), joining by its link, a table for it.
    ("/g/new", "GET"): (),
    ("/g/new", "POST"): ("name", "players"),
    (GROUP, "GET"): (),
    ("/g/join", "GET"): (),
    ("/g/join", "POST"): ("token",),
    (GROUP + "/phones/<int:n>/remove", "POST"): (),
    (GROUP + "/players/<int:player_id>/rename", "POST"): ("name",),
    (GROUP + "/new/<slug>", "GET"): (),
    (GROUP + "/new/<slug>", "POST"): NEW_TABLE_FIELDS,
    # "Keep these players": a group made of a finished table's seats (a seated phone).
    ("/g/keep/<table_id>", "GET"): (),
    ("/g/keep/<table_id>", "POST"): ("name",),
    # The table's host records its games in one of that phone's groups.
    ("/g/attach/<table_id>", "GET"): (),
    ("/g/attach/<table_id>", "POST"): ("group",),
    # Looking after the record: merging a player into another (a confirm page first),
    # deleting a recorded game, deleting the group (its maker only).
    (GROUP + "/players/<int:player_id>/merge", "GET"): ("into",),
    (GROUP + "/players/<int:player_id>/merge", "POST"): ("into",),
    (GROUP + "/games/<int:game_id>/delete", "GET"): (),
    (GROUP + "/games/<int:game_id>/delete", "POST"): (),
    # A group's games.csv brought in (a file or the text, field "csv").
    (GROUP + "/import", "GET"): (),
    (GROUP + "/import", "POST"): ("csv",),
    (GROUP + "/delete", "GET"): (),
    (GROUP + "/delete", "POST"): (),
    (GROUP + "/games.json", "GET"): (),
    (GROUP + "/games.csv", "GET"): (),
    (GROUP + "/stats.json", "GET"): (),
    # A recorded game's read-only sheet; a player's page (``page``: their list of games).
    (GROUP + "/games/<int:game_id>", "GET"): (),
    (GROUP + "/players/<int:player_id>", "GET"): ("page",),
}
PATH_PARAMETERS = ("table_id", "slug", "token", "event_id", "table_no", "seq", "group_id",
                   "n", "player_id", "game_id")
JOIN_ENDPOINTS = ("home.join_by_token",)
# A table card's QR opens that table number's table of the current round: a join too.
CARD_ENDPOINTS = ("events.table_card",)
# These need B (a Rook table whose hands the other team confirms) to succeed.
B_ROUTES = ("table.confirm", "tools.table_trick", "table.enter")
LOG_WRITES = ("table.enter", "table.undo", "table.rematch", "table.confirm", "table.edit")
HOST_TOOLS = ("table.host_rejoin", "table.host_release", "table.host_pass")
# Every real field name, offered as a random key to every route.
FIELD_NAMES = ("csrf_token", "sid", "version", "score_0", "score_1", "score_2", "score_3",
               "score_-1", "score_99", "score_", "seat", "target", "code", "name_0", "name_1",
               "name_12", "me", "kind", "from", "since", "rounds", "low_wins", "bidder", "bid",
               "points_A", "trump", "variant", "c1", "check", "confirm")

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
LEAKS = ("Traceback", 'File "', "Exception", "Error:", "KeyError", "ValueError", "TypeError",
         "OverflowError", "IndexError", "AttributeError", "sqlite3", "werkzeug", "jinja2",
         "invalid literal", "set_int_max_str_digits", "NoneType", "<module>", "<Macro",
         "Undefined", "object at 0x")

# ---------------------------------------------------------------- values known only at send time


class Ref:
    """A value the world fills in when the request is sent (a real id, the current version...)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


TABLE_A, TABLE_B = Ref("TABLE_A"), Ref("TABLE_B")
TOKEN_A, TOKEN_B, TOKEN_A_LOWER, REJOIN_A = (Ref("TOKEN_A"), Ref("TOKEN_B"),
                                             Ref("TOKEN_A_LOWER"), Ref("REJOIN_A"))
CODE_A, CODE_B, CODE_A_TYPED = Ref("CODE_A"), Ref("CODE_B"), Ref("CODE_A_TYPED")
VERSION, VERSION_STALE = Ref("VERSION"), Ref("VERSION_STALE")
SID_NEW, SID_OLD, SEQ_LAST, SEQ_PENDING = (Ref("SID_NEW"), Ref("SID_OLD"), Ref("SEQ_LAST"),
                                           Ref("SEQ_PENDING"))
CSRF_VALID, CSRF_OTHER = Ref("CSRF_VALID"), Ref("CSRF_OTHER")
EVENT_ID = Ref("EVENT_ID")
CUP_ID = Ref("CUP_ID")      # a Rook event whose Swiss rounds are locked (its top cut)
DIRECTOR_TOKEN = Ref("DIRECTOR_TOKEN")      # the token of the event's director link
DEVICE_LAST = Ref("DEVICE_LAST")            # the newest director device of the event
# The event's latest round, and the first entrant of its first and of its last table.
CURRENT_ROUND, FIRST_SEATED, LAST_SEATED = (Ref("CURRENT_ROUND"), Ref("FIRST_SEATED"),
                                            Ref("LAST_SEATED"))
CLAIM_CODE_CY = Ref("CLAIM_CODE_CY")        # Cy's claim code (the director's slip)
GROUP_ID, GROUP_TOKEN = Ref("GROUP_ID"), Ref("GROUP_TOKEN")   # Ann's group and its link

# ---------------------------------------------------------------- strategies

small_ints = st.integers(-3, 15).map(str)
numbers = st.one_of(small_ints, st.integers().map(str),
                    st.integers(-10**40, 10**40).map(str),
                    st.sampled_from(["9223372036854775807", "9223372036854775808",
                                     "-9223372036854775809", "2147483648", "-0", "+5", "007"]))
past_int_limit = st.integers(4_300, 6_000).map(lambda n: "9" * n)  # Python's int() refuses these
huge = st.builds(lambda ch, n: ch * n,
                 st.sampled_from(["9", "A", "é", "😀", "\x00", "<", "'", "-", " "]),
                 st.integers(10_000, 100_000))
odd = st.sampled_from([
    "", " ", "\x00", "1\x00", "\x00\x01\x02", "\ud800", "\udfff", "😀", "١٢", "٣", "½", "²",
    "1.5", "1e9", "0x10", "NaN", "inf", "1_000", "--5", "None", "null", "true", "[]", "{}", "[1]",
    "<img src=x onerror=alert(1)>", "<script>x</script>", "' OR 1=1 --", "%00", "%zz",
    "../../etc/passwd", "\r\n", "a\nb", "\u202e", "𝟙𝟚", "\ufeff1", "ǅ", "ß",
    "ＡＢＣＤＥＦ",
])
surrogates = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1,
                     max_size=4)
any_text = st.text(max_size=40)
ANY = st.one_of(numbers, odd, any_text, surrogates, huge, past_int_limit,
                st.binary(max_size=20).map(lambda b: b.decode("latin-1")))
# Header values: what can travel in an HTTP header (latin-1, no line breaks).
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF,
                                    exclude_characters="\x7f"), max_size=40)
cookie_text = st.text(st.characters(min_codepoint=0x21, max_codepoint=0xFF,
                                    exclude_characters='\x7f;,"\\'), max_size=60)


# A new table's form as a phone fills it in (distinct names, "me" on a filled row...).
NEW_TABLE_LIKELY = {
    "name_0": ["Ann"], "name_1": ["Bob"], "name_2": ["Cy", "Cy", ""], "name_3": ["Dee", "Dee", ""],
    "name_4": ["", "", "Eve"], "me": ["0", "0", "1"], "target": ["", "50", "300", "500"],
    "rounds": ["", "", "5"], "low_wins": ["", "on", "off"], "variant": ["", "family", "kentucky"],
    "min_bid": ["", "", "100"], "ones": ["", "", "on"], "confirm": ["", "on"],
}

# An event's forms as the director fills them in (the world's event: 4 players, 2 rounds).
EVENT_LIKELY = {
    "event_name": ["Club night", "Club night", "", "E" * 81],
    "event_rounds": ["2", "3", "0", "", "21"],
    "entrants": ["Ann\nBob\nCy\nDee", "Ann\nBob\nCy\nDee\nEve", "Ann", "Ann\nann\nBob",
                 "Ann, Bob\nCy, Dee"],
    "round": ["1", "1", "2", "3", "0", "x", CURRENT_ROUND], "table": ["1", "1", "1", "2", "0"],
    "place_0": ["1", "2", "1", "4", "5"], "place_1": ["2", "1", "1", "0"],
    "place_2": ["3", "3", "2"], "place_3": ["4", "4", "1"],
    "why": ["Score slip misread", "Score slip misread", ""], "who": ["Jo", "", "J" * 40],
    "rounds": ["1", "", "2"], "target": ["", "", "50"], "low_wins": ["", "on"],
    "name": ["Cy", "Ann", "", "Nobody", "Eve", "Fay"],
    "action": ["add", "drop", "return", "", "x", "open", "close", "start", "pause", "resume",
               "rename", "revoke",
               "extend", "stop", "release", "reassign", "codes_on", "codes_off"],
    "code": [CLAIM_CODE_CY, CLAIM_CODE_CY, "", "ABCDEF", " abc-def ", "x" * 60],
    "player": ["Cy", "Ann", "", "Nobody", "Eve"],
    "claim_codes": ["on", "", "off"], "claim_codes_shown": ["1", ""],
    "minutes": ["60", "5", "", "0", "x", "601", "999999"], "per_page": ["1", "2", "4", "3", ""],
    "show": ["pairings", "standings", ""], "page": ["1", "2", "0", "99", "x"],
    "registration": ["on", "", "off"], "table_size": ["", "4", "5", "1", "13", "x"],
    "member_0": ["Gil", "Ann", "", "Hu" * 20], "member_1": ["", "Ida"], "member_2": ["", "Jo"],
    "pick": ["1", ""],
    "device": [DEVICE_LAST, DEVICE_LAST, "", "x" * 40], "confirm": ["", "yes"],
    "keep": ["", "on"],
    "points_places": ["", "4, 2, 1, 0", "5, 3, 1", "1, 2", "x", ", ".join(["1"] * 13)],
    "points_win": ["", "2", "3", "0", "x"], "points_draw": ["", "1", "5"],
    "points_loss": ["", "0", "-1"], "points_bye": ["", "2", "1.5", "lots"],
    "late_points": ["zero", "bye", "", "x"], "odd_tables": ["closest", "smaller", "larger", "x"],
    "pairing": ["dutch", "adjacent", "", "x"],
    "tiebreak_1": ["game", "buchholz", "", "sonneborn_berger", "x"],
    "tiebreak_2": ["buchholz", "game", "", "median_buchholz"], "tiebreak_3": ["", "buchholz"],
    "tiebreak_4": ["", "sonneborn_berger"],
    "entrant": ["Cy", "Ann", "", "Nobody"], "points": ["-2", "1", "1.5", "0", "x", ""],
    "reason": ["Late", "Late", "", "R" * 400], "id": ["1", "2", "x", ""],
    "entrant_a": [FIRST_SEATED, FIRST_SEATED, "Cy", "", "Nobody"],
    "entrant_b": [LAST_SEATED, LAST_SEATED, "Ann", "Eve", ""],
}


def likely(name: str, endpoint: str = ""):
    """Values a real form would send for field `name` (or close to it)."""
    if endpoint.startswith("events.") and name in EVENT_LIKELY:
        return st.sampled_from(EVENT_LIKELY[name])
    if endpoint in ("home.create_table", "groups.create_table") and name in NEW_TABLE_LIKELY:
        return st.sampled_from(NEW_TABLE_LIKELY[name])
    if endpoint == "table.confirm" and name == "target":
        return st.sampled_from([SEQ_PENDING] * 4 + [SEQ_LAST, "1"])
    if name == "confirm":
        return st.sampled_from(["", "on", "off"])
    if name == "sid":
        return st.sampled_from([SID_NEW] * 6 + [SID_OLD, "", "x" * 64, "x" * 65])
    if name in ("version", "since"):
        return st.sampled_from([VERSION] * 6 + [VERSION_STALE, "0", "1", "-1"])
    if name.startswith("score_"):
        return st.one_of(small_ints, small_ints, st.sampled_from(["", "0", "-5", " 7 ", "−3"]))
    if name == "seat":
        return st.sampled_from(["0", "1", "1", "1", "2", "2", "3", "watch", "-1", " 2", "٢"])
    if name == "target":  # the entry to undo or confirm, or the new-table target score
        return st.one_of(st.sampled_from([SEQ_LAST, SEQ_PENDING]), small_ints,
                         st.sampled_from(["50", "100", "0"]))
    if name == "token":   # a join or director token, POSTed from its link's fragment
        return path_value("token", True)
    if name == "code":
        return st.sampled_from([CODE_A, CODE_A, CODE_B, CODE_A_TYPED, "ZZZZZZ", "abc", ""])
    if name.startswith("name_"):
        return st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eve", "ann", " Fay ", "", "", "B" * 33,
                                "<img src=x onerror=alert(1)>", "Zoë 🎲"])
    if name == "me":
        return st.sampled_from(["0", "1", "2", "3", "", "x"])
    if name == "kind":
        return st.sampled_from(["finish", "redeal", "round", "", "", "", "", "", "", "undo"])
    if name == "bidder":
        return st.sampled_from(["Zed", "Yan", "Xi", "Wu"] * 2 + ["Ann", "", "zed"])
    if name in ("bid", "min_bid"):
        return st.sampled_from(["150", "150", "175", "200", "250", "120", "5", "0", "-100", ""])
    if name.startswith("points_"):
        return st.sampled_from(["60", "120", "0", "180", "200", "", "", "-5", "999999"])
    if name == "trump":
        return st.sampled_from(["B", "R", "Y", "G", "", "X", "b"])
    if name in ("bad_discard", "not_played", "ones"):
        return st.sampled_from(["", "", "on", "off", "yes"])
    if name == "variant":
        return st.sampled_from(["family", "kentucky", "ones_180", "ones_200", "game_140",
                                "", "nope"])
    if endpoint == "rainbow_rummy_tools.check" and name in RR_LIKELY:
        return st.sampled_from(RR_LIKELY[name])
    if endpoint in ("rocca_tools.check", "i18n.choose") and name in ROCCA_LIKELY:
        return st.sampled_from(ROCCA_LIKELY[name])
    if endpoint == "rockit_tools.check" and name in ROCKIT_LIKELY:
        return st.sampled_from(ROCKIT_LIKELY[name])
    if re.fullmatch(r"c[1-6]", name):
        return st.sampled_from(["14R", "5Y", "ROOK", "1B", "10G", "13b", "", "", "XX", "14R"])
    if name == "check":
        return st.sampled_from(["1", "1", ""])
    if name == "from":
        return st.sampled_from(["history", "", "play"])
    if name == "rounds":
        return st.one_of(small_ints, st.just(""))
    if name == "low_wins":
        return st.sampled_from(["on", "off", "", "yes", "no", "maybe"])
    return ANY


def field_value(name: str, sane: bool, endpoint: str = ""):
    if sane:
        return likely(name, endpoint)
    return st.one_of(likely(name, endpoint), ANY, st.lists(ANY, min_size=2, max_size=3))


def path_value(name: str, sane: bool):
    """A path parameter: real (mostly, for a sane request), foreign, or garbage."""
    garbage = st.one_of(any_text, surrogates, odd, huge.map(lambda s: s[:4_000]))
    if name == "table_id":
        real = st.sampled_from([TABLE_A] * 8 + [TABLE_B] * 2 + ["nope", "AAAAAAAAAAAA"])
    elif name == "slug":
        real = st.sampled_from(["scorepad"] * 4 + ["rook"] * 2 + sorted(GAMES)
                               + ["SCOREPAD", "scorepad "])
    elif name == "event_id":
        real = st.sampled_from([EVENT_ID] * 8 + ["nope", "AAAAAAAAAAAA"])
    elif name == "group_id":
        real = st.sampled_from([GROUP_ID] * 8 + ["nope", "AAAAAAAAAAAA", EVENT_ID])
    elif name in ("n", "player_id", "game_id"):  # a phone, a player or a game of the group
        real = st.sampled_from(["1", "2", "2", "3", "0", "99999", "18446744073709551617"])
    elif name == "table_no":
        real = st.sampled_from(["1"] * 6 + ["2", "0", "99999", "18446744073709551617"])
    elif name == "seq":     # an entry of the table's log (changed in place)
        real = st.sampled_from([SEQ_LAST] * 6 + ["1", "0", "99999", "18446744073709551617"])
    elif name == "token":
        base32 = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=32, max_size=32)
        real = st.one_of(st.sampled_from([TOKEN_A] * 3 + [TOKEN_B, TOKEN_A_LOWER, REJOIN_A,
                                          DIRECTOR_TOKEN]),
                         base32, st.just("A" * 65))
    else:
        raise AssertionError(f"no fuzz strategy for the path parameter <{name}>")
    return real if sane else st.one_of(real, garbage)


WHO = ["ann"] * 3 + ["bob"] * 2 + ["spectator"] * 2 + ["zed", "yan", "stranger", "nobody"]
COOKIES = ["own"] * 6 + ["none", "garbage", "swapped", "bad-session"]
CSRF = [CSRF_VALID] * 8 + [CSRF_OTHER, "", "garbage", None]


@dataclass
class Req:
    """One generated request, before the world fills in its `Ref`s."""

    method: str
    rule: str
    endpoint: str
    params: dict
    query: list
    body: str                 # form, multipart, json, raw, none
    fields: list              # (key, value) pairs; value a str, a Ref or a list
    raw: bytes | None
    content_type: str | None
    headers: dict
    who: str
    cookies: str
    csrf: object              # a Ref, a str, or None (no token)
    csrf_where: str           # form, header, both
    cookie_junk: str = ""
    sane: bool = False        # drawn as what a phone would send (maybe one field off)


@st.composite
def requests(draw, routes, methods=None,
             bodies=("form",) * 5 + ("multipart", "json", "raw", "none")):
    """A request to one of `routes` (url_map rules with their endpoint)."""
    rule, route_method, endpoint = draw(st.sampled_from(routes))
    method = draw(st.sampled_from(methods)) if methods else route_method
    if method == "GET" and route_method == "GET":
        method = draw(st.sampled_from(["GET"] * 5 + ["HEAD"]))
    sane = draw(st.integers(0, 4)) < 3  # 60 %: what a phone would send, maybe one field off
    names = ROUTES.get((rule, route_method), ())
    params = {name: draw(path_value(name, sane))
              for name in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule)}
    if sane:  # a phone of the table it asks about (B is a Rook table, hosted by Zed)
        if "table_id" in params and draw(st.integers(0, 9)) < 8:
            b_share = 7 if endpoint in B_ROUTES else 4
            params["table_id"] = draw(st.sampled_from([TABLE_A] * (10 - b_share)
                                                      + [TABLE_B] * b_share))
        table = params.get("table_id")
        cast = (["zed", "yan"] if table is TABLE_B
                else ["ann"] * 4 + ["bob"] * 2 + ["spectator"])
        if table is None:
            cast += ["zed"]
        who = draw(st.sampled_from(cast))
    else:
        who = draw(st.sampled_from(WHO))

    def pairs(max_junk: int) -> list:
        out = []
        for name in names:
            present = True if sane else draw(st.integers(0, 4)) > 0
            if present:
                out.append((name, draw(field_value(name, sane, endpoint))))
        junk_keys = st.one_of(st.sampled_from(FIELD_NAMES), any_text, surrogates)
        out += draw(st.lists(st.tuples(junk_keys, field_value("", sane)), max_size=max_junk))
        if sane and out and draw(st.integers(0, 2)) == 0:  # one field off an otherwise sane form
            i = draw(st.integers(0, len(out) - 1))
            out[i] = (out[i][0], draw(ANY))
        if not sane and draw(st.booleans()):
            out = draw(st.permutations(out))
        return out

    if method in ("GET", "HEAD"):
        query, fields = pairs(0 if sane else 3), []
        body = "none" if sane else draw(st.sampled_from(["none"] * 6 + ["form", "raw"]))
    else:
        query = [] if sane else draw(st.lists(st.tuples(st.sampled_from(FIELD_NAMES), ANY),
                                              max_size=2))
        fields = pairs(0 if sane else 4)
        body = "form" if sane else draw(st.sampled_from(bodies))
    raw = content_type = None
    if body == "raw":
        raw = draw(st.one_of(st.binary(max_size=2000),
                             st.sampled_from([b"csrf_token=", b"%", b"a=%zz&&==&", b"\xff\xfe\x00",
                                              b'{"sid": [1, 2]}', b"--x\r\n\r\n--x--"])))
    if body in ("raw", "json", "form", "multipart") and not sane:
        content_type = draw(st.sampled_from([
            None, None, "text/plain", "application/octet-stream", "application/json",
            "application/x-www-form-urlencoded", "multipart/form-data",
            "multipart/form-data; boundary=", "text/html; charset=utf-16", "application/xml",
        ]))
    if sane:
        headers = draw(st.sampled_from([{}, {"HX-Request": "true"}, {"HX-Request": "true"},
                                        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
                                        {"HX-Request": "true", "Sec-Fetch-Site": "same-origin",
                                         "Origin": "http://localhost"}]))
    else:
        headers = {}
        for name, choices in (
            ("HX-Request", [None] * 3 + ["true"] * 3 + ["false", "TRUE", "1"]),
            ("HX-History-Restore-Request", [None] * 5 + ["true", "false"]),
            ("Origin", [None] * 5 + ["null", "http://localhost", "http://evil.example",
                                     "https://localhost", "http://localhost:8000", "http://[::1",
                                     "http://[", "", "localhost"]),
            ("Sec-Fetch-Site", [None] * 4 + ["same-origin"] * 2 + ["none", "same-site",
                                                                    "cross-site", "", "CROSS"]),
            ("Accept", [None] * 4 + ["application/json", "text/event-stream", "*/*"]),
        ):
            value = draw(st.one_of(st.sampled_from(choices), header_text))
            if value is not None:
                headers[name] = value
    cookies = "own" if sane else draw(st.sampled_from(COOKIES))
    csrf = CSRF_VALID if sane else draw(st.sampled_from(CSRF))
    csrf_where = draw(st.sampled_from(["form", "form", "header", "both"]))
    junk = draw(cookie_text) if cookies in ("garbage", "bad-session") else ""
    return Req(method, rule, endpoint, params, query, body, fields, raw, content_type, headers,
               who, cookies, csrf, csrf_where, junk, sane)


# ---------------------------------------------------------------- the world


def enc(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def q(value: str) -> str:
    return quote(enc(value), safe="")


TABLE_ID_COLUMN = {"tables": 0, "seats": 0, "phones": 1, "actions": 0, "changes": 1}


def touched(before: dict, after: dict) -> set:
    """The table ids whose rows differ (in any of the five data tables)."""
    ids = set()
    for name, column in TABLE_ID_COLUMN.items():
        for row in set(before[name]) ^ set(after[name]):
            ids.add(row[column])
    return ids


def _identity(db_path: str, key: str | None) -> str | None:
    """The phone identity a `tc` key stands for (what the scoped hashes are made of)."""
    from companion.web.cookies import identity_of
    conn = sqlite3.connect(db_path)
    try:
        return identity_of(conn, key)
    finally:
        conn.close()


def _set_key(response) -> str | None:
    """The new `tc` key a response sets, if any."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("tc="):
            return header.split(";", 1)[0][3:]
    return None


@dataclass
class Cast:
    """One phone's cookies and CSRF token."""

    session: str | None = None
    csrf: str | None = None
    secret: str | None = None   # the phone's one cookie, a key (every table, the director's role)


class World:
    """Two tables and their phones on one app; examples share it (reset cheaply)."""

    MAX_ROWS = 900  # a new world once the database holds this many rows

    def __init__(self, tmp_path, generation: int = 0):
        self.dir = tmp_path / f"world{generation}"
        self.dir.mkdir()
        self.generation = generation
        self.app = make_app(self.dir, JOIN_RATE_LIMIT="1000000 per minute",
                            LIVE_MAX_SECONDS=1.0, LIVE_KEEPALIVE=0.2)
        self.db = self.app.config["DATABASE"]
        ann = Phone(self.app, "Ann")
        a = ann.create_table(["Ann", "Bob", "Cy"], me=0, target=200)
        join_a = ann.join_path(a)
        bob, spectator = Phone(self.app, "Bob"), Phone(self.app, "spectator")
        assert bob.join(join_a).status_code == 303
        assert bob.claim(a, 1).status_code == 303
        assert spectator.join(join_a).status_code == 303
        # B: a Rook table where the other team confirms each hand; Zed (team A) hosts and
        # Yan (team B) sits in seat 1.
        zed, yan = Phone(self.app, "Zed"), Phone(self.app, "Yan")
        r = zed.post("/new/rook", {"name_0": "Zed", "name_1": "Yan", "name_2": "Xi",
                                   "name_3": "Wu", "me": "0", "variant": "family",
                                   "confirm": "on"})
        assert r.status_code == 303, r.status_code
        b = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        assert yan.join(zed.join_path(b)).status_code == 303
        assert yan.claim(b, 1).status_code == 303
        stranger = Phone(self.app, "stranger")
        stranger.csrf()
        assert ann.enter(a, {0: 5, 1: 5}).status_code == 200  # something to undo
        self.ids = {"A": a, "B": b}
        # An event Ann directs: 4 players, 2 rounds, the first seated on one score pad.
        r = ann.post("/events/new/scorepad", {"event_name": "Club night", "event_rounds": "2",
                                              "entrants": "Ann\nBob\nCy\nDee", "rounds": "1",
                                              "registration": "on"})
        assert r.status_code == 303, r.status_code
        self.event_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        assert ann.post(f"/e/{self.event_id}/seat").status_code == 303
        # The director's link for a second device (its token is shown once, in the page).
        r = ann.post(f"/e/{self.event_id}/director-link")
        assert r.status_code == 303, r.status_code
        href = attr(ann.get(f"/e/{self.event_id}").get_data(as_text=True), "a#director-url",
                    "href")
        self.director_token = re.fullmatch(r".*/director#([A-Z2-7]{32})", href).group(1)
        # A Rook cup Ann directs: 4 teams, its one Swiss round played and locked, so its
        # top cut may start.
        r = ann.post("/events/new/rook", {"event_name": "Cup", "event_rounds": "1",
                                          "entrants": "Ann, Bob\nCy, Dee\nEd, Flo\nGus, Hal"})
        assert r.status_code == 303, r.status_code
        self.cup_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        assert ann.post(f"/e/{self.cup_id}/seat").status_code == 303
        for table in ("1", "2"):
            assert ann.post(f"/e/{self.cup_id}/correct", {
                "round": "1", "table": table, "place_0": "1", "place_1": "2",
                "why": "Slip"}).status_code == 303
        assert ann.post(f"/e/{self.cup_id}/lock", {"round": "1"}).status_code == 303
        # A group Ann made (her phone is its only one so far).
        r = ann.post("/g/new", {"name": "Club", "players": "Ann\nBob"})
        assert r.status_code == 303, r.status_code
        self.group_id = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        # A game finished at a table of the group (Ann 60, Bob sitting as "Bobby", player
        # 3, 0): record 1, to delete; Bobby, to merge into Bob.
        r = ann.post(f"/g/{self.group_id}/new/scorepad", {"name_0": "Ann", "name_1": "Bobby",
                                                          "me": "0", "target": "50"})
        assert r.status_code == 303, r.status_code
        self.group_table = urlsplit(r.headers["Location"]).path.rsplit("/", 1)[1]
        assert ann.enter(self.group_table, {0: 60, 1: 0}).status_code == 200
        self.cast: dict[str, Cast] = {"nobody": Cast()}
        for name, phone in (("ann", ann), ("bob", bob), ("spectator", spectator), ("zed", zed),
                            ("yan", yan), ("stranger", stranger)):
            token = phone.csrf()  # first: it makes the session cookie of a phone that has none
            self.cast[name] = Cast(phone.cookie("session"), token, phone.cookie("tc"))
        rows = snapshot(self.db)
        self.phone_ids = {name: self._phone_id(rows, name)
                          for name in ("ann", "bob", "spectator", "zed", "yan")}
        self.canonical = self._seating(rows)
        self.client = self.app.test_client(use_cookies=False)

    def _phone_id(self, rows, name):
        key = "B" if name in ("zed", "yan") else "A"
        digest = phone_hash(_identity(self.db, self.cast[name].secret), self.ids[key])
        return next(p[0] for p in rows["phones"] if p[2] == digest)

    def _seating(self, rows):
        """Who sits where at A and B, and each table's host seat."""
        mine = set(self.ids.values())
        return (sorted((p[0], p[3]) for p in rows["phones"] if p[1] in mine and p[3] is not None),
                sorted((t[0], t[7]) for t in rows["tables"] if t[0] in mine))

    def reset(self, rows) -> dict:
        """Put the cast back in their seats (fuzzed writes move them), then a fresh snapshot."""
        if self._seating(rows) == self.canonical:
            return rows
        conn = sqlite3.connect(self.db)
        try:
            with conn:
                a, b = self.ids["A"], self.ids["B"]
                conn.execute("UPDATE phones SET seat = NULL WHERE table_id IN (?, ?)", [a, b])
                for name, seat in (("ann", 0), ("bob", 1), ("zed", 0), ("yan", 1)):
                    conn.execute("UPDATE phones SET seat = ? WHERE id = ?",
                                 [seat, self.phone_ids[name]])
                conn.execute("UPDATE tables SET host_seat = 0 WHERE id IN (?, ?)", [a, b])
        finally:
            conn.close()
        return snapshot(self.db)

    def too_big(self, rows) -> bool:
        return sum(len(v) for v in rows.values()) > self.MAX_ROWS

    # ------------------------------------------------------------ filling in the Refs

    def seated(self, rows, value):
        """The event's latest round (CURRENT_ROUND), or an entrant of its first or last
        table (FIRST_SEATED, LAST_SEATED): a swap's two entrants."""
        mine = [r for r in rows["event_seatings"] if r[0] == self.event_id]
        latest = max((r[1] for r in mine), default=1)
        if value is CURRENT_ROUND:
            return str(latest)
        tables = sorted((r for r in mine if r[1] == latest), key=lambda r: r[2])
        if not tables:
            return "Cy"
        return json.loads(tables[0 if value is FIRST_SEATED else -1][4])[0]

    def table_row(self, rows, tid):
        return next((t for t in rows["tables"] if t[0] == tid), None)

    def resolve(self, value, rows, tid, who):
        if isinstance(value, list):
            return [self.resolve(v, rows, tid, who) for v in value]
        if not isinstance(value, Ref):
            return value
        table = self.table_row(rows, tid) or self.table_row(rows, self.ids["A"])
        a = self.table_row(rows, self.ids["A"])
        b = self.table_row(rows, self.ids["B"])
        if value is TABLE_A:
            return self.ids["A"]
        if value is TABLE_B:
            return self.ids["B"]
        if value is TOKEN_A:
            return a[1]
        if value is TOKEN_B:
            return b[1]
        if value is TOKEN_A_LOWER:
            return a[1].lower()
        if value is REJOIN_A:
            tokens = [s[4] for s in rows["seats"] if s[0] == a[0] and s[4]]
            return tokens[0] if tokens else "A" * 32
        if value is CODE_A:
            return a[2]
        if value is CODE_B:
            return b[2]
        if value is CODE_A_TYPED:
            return f" {a[2][:3].lower()}-{a[2][3:].lower()} "
        if value is VERSION:
            return str(table[6])
        if value is VERSION_STALE:
            return str(table[6] - 1)
        if value is SID_NEW:
            return secrets.token_urlsafe(16)
        if value is SID_OLD:
            sids = [r[6] for r in rows["actions"] if r[0] == table[0] and r[6]]
            return sids[-1] if sids else "never-used"
        if value is SEQ_PENDING:  # an entry waiting for the other team (pending, not settled)
            seqs = [r[1] for r in rows["actions"] if r[0] == table[0] and r[9] and r[10] is None
                    and r[8] is None]
            return str(max(seqs)) if seqs else "1"
        if value is SEQ_LAST:
            seqs = [r[1] for r in rows["actions"]
                    if r[0] == table[0] and r[4] in ("game", "rematch") and r[8] is None]
            return str(max(seqs)) if seqs else "1"
        if value is DIRECTOR_TOKEN:
            return self.director_token
        if value is DEVICE_LAST:
            devices = sorted((r[2], r[3]) for r in rows["event_directors"]
                             if r[1] == self.event_id and r[8] is None)
            return devices[-1][1] if devices else "none"
        if value in (CURRENT_ROUND, FIRST_SEATED, LAST_SEATED):
            return self.seated(rows, value)
        if value is EVENT_ID:
            return self.event_id
        if value is CUP_ID:
            return self.cup_id
        if value is GROUP_ID:
            return self.group_id
        if value is GROUP_TOKEN:
            return next((r[2] for r in rows["groups"] if r[0] == self.group_id), "A" * 32)
        if value is CLAIM_CODE_CY:
            return next((r[3] for r in rows["event_players"]
                         if r[0] == self.event_id and r[1] == "Cy"), "ZZZZZZ")
        if value is CSRF_VALID:
            return self.cast[who].csrf or self.cast["stranger"].csrf
        if value is CSRF_OTHER:
            return self.cast["stranger" if who != "stranger" else "ann"].csrf
        raise AssertionError(value)

    # ------------------------------------------------------------ sending

    def build(self, req: Req, rows):
        """The concrete request: url, method, body bytes, headers; and what the oracles need."""
        params = {}
        for name, value in req.params.items():
            params[name] = self.resolve(value, rows, None, req.who)
        tid = params.get("table_id") if isinstance(req.params.get("table_id"), Ref) else None

        def fill(pairs):
            return [(self.resolve(k, rows, tid, req.who), self.resolve(v, rows, tid, req.who))
                    for k, v in pairs]

        url = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: q(params[m.group(1)]), req.rule)
        query = fill(req.query)
        if query:
            url += "?" + "&".join(f"{q(k)}={q(v)}" for k, v in _flat(query))
        fields = fill(req.fields)
        token = self.resolve(req.csrf, rows, tid, req.who) if req.csrf is not None else None
        headers = dict(req.headers)
        if token is not None and req.csrf_where in ("header", "both"):
            headers["X-CSRFToken"] = token
        if token is not None and req.csrf_where in ("form", "both"):
            fields = [("csrf_token", token)] + fields
        self.fields_sent = fields     # what the oracles read a POSTed token from
        data, content_type = self._body(req, fields)
        if req.content_type is not None:
            content_type = req.content_type
        cookie = self._cookie_header(req)
        if cookie:
            headers["Cookie"] = cookie
        return url, data, content_type, headers, params, tid, token

    def _body(self, req: Req, fields):
        if req.body == "form":
            body = "&".join(f"{q(k)}={q(v)}" for k, v in _flat(fields))
            return body.encode("ascii"), "application/x-www-form-urlencoded"
        if req.body == "multipart":
            boundary = b"fuzzBoundary" + secrets.token_hex(4).encode()
            out = b""
            for k, v in _flat(fields):
                out += (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + enc(k)
                        + b'"\r\n\r\n' + enc(v) + b"\r\n")
            out += (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="file"; '
                    b'filename="x.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n')
            out += b"--" + boundary + b"--\r\n"
            return out, "multipart/form-data; boundary=" + boundary.decode()
        if req.body == "json":
            return json.dumps(dict((k, v) for k, v in fields)).encode(), "application/json"
        if req.body == "raw":
            return req.raw, None
        return None, None

    def _cookie_header(self, req: Req) -> str:
        me = self.cast[req.who]
        a, b = self.ids["A"], self.ids["B"]
        jar = []
        if me.session is not None:
            jar.append(("session", me.session if req.cookies != "bad-session" else req.cookie_junk))
        if req.cookies in ("own", "bad-session") and me.secret:
            jar.append(("tc", me.secret))
        elif req.cookies == "garbage":
            jar += [("tc", req.cookie_junk), (f"tc_{a}", req.cookie_junk[::-1])]
        elif req.cookies == "swapped" and me.secret:
            # The phone's secret under the old per-table and per-event cookie names (phones
            # from before the one cookie held those): adopted only where it proves a row.
            jar += [(f"tc_{a}", me.secret), (f"tc_{b}", me.secret),
                    (f"te_{self.event_id}", me.secret), (f"tp_{self.event_id}", me.secret)]
        return "; ".join(f"{k}={v}" for k, v in jar)

    def send(self, req: Req, stats: Counter) -> tuple[int, bool]:
        """Send `req` and check the answer; returns the status, and False once this world's
        database grew too big."""
        before = snapshot(self.db)
        before = self.reset(before)
        url, data, content_type, headers, params, tid, token = self.build(req, before)
        _note(f"{req.method} {url[:300]}  body={str(data)[:300]}  content_type={content_type!r}")
        _note(f"headers={ {k: v[:120] for k, v in headers.items()} }")
        # The identity the request's key stood for when it was sent (a request that gains
        # a host's or director's rights retires that key as it answers).
        sent = dict(part.split("=", 1) for part in headers.get("Cookie", "").split("; ") if part)
        self.identity_sent = _identity(self.db, sent.get("tc"))
        response = self.client.open(url, method=req.method, data=data, headers=headers,
                                    content_type=content_type)
        try:
            renewed = _set_key(response)
            if renewed and req.cookies in ("own", "bad-session") and req.who != "nobody" \
                    and self.cast[req.who].secret == sent.get("tc"):
                self.cast[req.who].secret = renewed   # the phone keeps its new key
            status = response.status_code
            streaming = response.mimetype == "text/event-stream"
            # A download (the event's export.zip) is bytes: the oracles read text answers.
            binary = response.mimetype in ("application/zip",)
            body = "" if streaming or binary else response.get_data(as_text=True)
            _note(f"-> {status} {body[:600]!r}")
            after = snapshot(self.db)
            self.check(req, status, response, body, before, after, params, tid, token, headers)
        finally:
            response.close()
        stats[(req.endpoint, req.method, status // 100)] += 1
        _note(f"{req.method} {req.endpoint} -> {status}", event)
        return status, not self.too_big(after)

    # ------------------------------------------------------------ the oracles

    def check(self, req, status, response, body, before, after, params, tid, token, headers):
        assert status < 500, f"server error {status}"
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, name
        csp = response.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        refused = status >= 400
        if refused and req.method != "HEAD":
            # Another phone saving first is told calmly (a status notice, not an alert).
            said = alerts(body) or (status == 409 and stale_notices(body))
            assert said and all(len(a) >= 10 for a in said), "a 4xx without a plain message"
            for leak in LEAKS:
                assert not any(leak in a for a in said), f"exception text in a 4xx: {leak!r}"
        changed = touched(before, after)
        if refused:
            assert before == after, f"a {status} changed the database ({changed})"
            return
        if status == 308:  # werkzeug's routing tidied the URL (e.g. "/t//sheet"): no view ran
            assert before == after
            assert urlsplit(response.headers["Location"]).netloc in ("", "localhost")
            return
        ids = {self.ids["A"], self.ids["B"]}
        existing = {t[0] for t in before["tables"]}
        if req.method in ("GET", "HEAD"):
            if req.endpoint in CARD_ENDPOINTS:
                # Joined as a watcher, or sat down through the phone's claim (the stranger
                # may hold Cy's): only the event's table changes.
                assert changed <= {t[0] for t in after["tables"] if t[0] not in ids}
                if changed:
                    assert status == 303
            else:
                changed = touched(settled(before), settled(after))
                assert not changed, f"a GET changed {changed}"
            if req.rule.startswith(TABLE):
                self._check_table_access(req, before, tid, headers)
            if req.endpoint in DIRECTOR_ROUTES and status < 300:
                self._check_director(before, headers)
            if req.rule.startswith(GROUP) and status < 300:
                self._check_group(before, params)
            return
        if req.method != "POST":
            assert req.method == "OPTIONS", f"{req.method} answered {status}"
            assert not changed
            return
        # A POST that went through: it came from our own site, with a valid CSRF token.
        assert token is not None and req.csrf is CSRF_VALID and req.cookies != "bad-session", \
            "a POST without a valid CSRF token was accepted"
        assert self.cast[req.who].session is not None
        assert not _cross_site(headers), "a cross-site POST was accepted"
        if req.rule.startswith(TABLE):
            self._check_table_access(req, before, tid, headers)
            assert changed <= {tid}, f"a write on one table changed {changed}"
        elif req.endpoint in JOIN_ENDPOINTS:
            assert len(changed) <= 1 and changed <= existing
            if changed:
                assert status == 303
                (joined,) = changed
                sent = next((v for k, v in _flat(self.fields_sent) if k == "token"), "")
                self._check_join(before, after, joined, str(sent))
        elif req.endpoint == "home.join_by_code":
            assert len(changed) <= 1 and changed <= ids  # A's or B's code, nothing else
            if changed:  # one new phone, a spectator, and nothing else
                new = set(after["phones"]) - set(before["phones"])
                assert len(new) == 1 and next(iter(new))[3] is None
                assert set(before["phones"]) <= set(after["phones"])
                assert {k: v for k, v in before.items() if k != "phones"} == \
                       {k: v for k, v in after.items() if k != "phones"}
        elif req.endpoint.startswith("events."):
            # Event writes never touch an existing table (seating a round makes new ones),
            # except EVENT_TABLE_WRITES at the event's own tables, never at A or B.
            if req.endpoint in EVENT_TABLE_WRITES:
                assert not changed & ids, f"{req.endpoint} touched {changed & ids}"
            else:
                assert not changed & existing, f"an event write touched {changed & existing}"
            if req.endpoint in DIRECTOR_ROUTES:
                self._check_director(before, headers)
        elif req.endpoint == "home.remove_place":
            # Only the phone's own list changes: no table, seat or phone.
            assert status == 303 and not changed, f"removing from the list changed {changed}"
        elif req.endpoint == "home.create_table":
            assert status == 303
            assert len(changed) == 1 and not changed & existing, f"a new table touched {changed}"
        elif req.endpoint.startswith("groups."):
            # A group's writes touch no table, except a new table made for the group.
            if req.rule.startswith(GROUP):
                self._check_group(before, params)
            if req.rule == GROUP + "/delete":
                # Its tables play on, out of the group: their rows change, no other's. (By
                # its address: an odd method sent to the confirm page's address is a POST.)
                assert changed <= self.group_tables(before, params), \
                    f"deleting a group touched {changed}"
            elif req.endpoint in ("groups.keep_table", "groups.attach_table"):
                # The kept table joins the new group: its row changes, no other table's.
                assert changed <= {tid}, f"keeping a table's players touched {changed}"
                assert status == 303 or not changed
            elif req.endpoint == "groups.create_table":
                assert status == 303
                assert len(changed) == 1 and not changed & existing, \
                    f"a new table touched {changed}"
            else:
                assert not changed, f"{req.endpoint} touched the tables {changed}"
        else:
            raise AssertionError(f"no oracle for POST {req.endpoint}")

    def _check_join(self, before, after, joined, token):
        """A QR scan adds one spectator phone; a rejoin token also seats it and is used up."""
        new = set(after["phones"]) - set(before["phones"])
        rejoin = [s for s in before["seats"] if s[0] == joined and s[4] == token.strip().upper()]
        if not rejoin:
            assert len(new) == 1 and next(iter(new))[3] is None
            assert set(before["phones"]) <= set(after["phones"])
            assert {k: v for k, v in before.items() if k != "phones"} == \
                   {k: v for k, v in after.items() if k != "phones"}
        else:
            assert not any(s[0] == joined and s[4] == rejoin[0][4] for s in after["seats"])

    def group_tables(self, rows, params) -> set:
        """The ids of the tables that record into the group `params` names."""
        conn = sqlite3.connect(self.db)
        try:
            columns = [c[1] for c in conn.execute("PRAGMA table_info(tables)").fetchall()]
        finally:
            conn.close()
        at = columns.index("group_id")
        return {t[0] for t in rows["tables"] if t[at] == str(params.get("group_id"))}

    def _check_group(self, before, params):
        """A group's page answered, or a write went through: only for a phone the group
        lists (not removed)."""
        from companion.groups.group import group_hash
        secret = self.identity_sent
        assert secret is not None, "a group's page was served without a phone cookie"
        group_id = str(params.get("group_id"))
        digest = group_hash(secret, group_id)
        # group_phones: (group_id, secret_hash, n, creator, created_at, removed_at)
        assert any(r[0] == group_id and r[1] == digest and r[5] is None
                   for r in before["group_phones"]), "a group answered a phone not in it"

    def _check_director(self, before, headers):
        """A director page answered: only for a phone whose cookie the event lists as a
        director device (its creator, or a phone that opened a director link), not revoked."""
        secret = self.identity_sent
        assert secret is not None, "a director page was served without a phone cookie"
        digest = director_hash(secret, self.event_id)
        # event_directors: (secret_hash, event_id, created_at, device_id, name, seen_at,
        # link_id, creator, revoked_at); a revoked device directs nothing.
        assert any(row[0] == digest and row[8] is None for row in before["event_directors"]), \
            "a director page was served to a phone that isn't (or no longer is) a director"

    def _check_table_access(self, req, before, tid, headers):
        """A table route answered 2xx/3xx: only for a phone holding that table's cookie."""
        assert tid is not None, "a made-up table id was answered with a success"
        secret = self.identity_sent
        assert secret is not None, "a table page was served without a phone cookie"
        digest = phone_hash(secret, tid)
        phone = next((p for p in before["phones"] if p[1] == tid and p[2] == digest), None)
        assert phone is not None, "a table page was served to a phone of another table"
        if req.method == "POST" and req.endpoint in LOG_WRITES:
            assert phone[3] is not None, "a spectator changed the log"
        if req.endpoint in HOST_TOOLS:
            host_seat = self.table_row(before, tid)[7]
            held = any(p[1] == tid and p[3] == host_seat for p in before["phones"])
            assert phone[3] is not None and (phone[3] == host_seat or not held), \
                "a phone that is not the host used a host tool"


def _note(text: str, how=note) -> None:
    """Hypothesis's note/event, which only work inside a Hypothesis example (not for seeds)."""
    try:
        how(text)
    except Exception:  # noqa: BLE001 - outside @given (the seed requests)
        pass


def _flat(pairs):
    for k, v in pairs:
        if isinstance(v, list):
            for item in v:
                yield k, item
        else:
            yield k, v


def _cross_site(headers: dict) -> bool:
    """What a browser's headers say: this POST comes from another site (as security.py reads it)."""
    if headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return True
    origin = headers.get("Origin")
    if origin in (None, "null"):
        return False
    try:
        return urlsplit(origin).netloc != "localhost"
    except ValueError:
        return True


# ---------------------------------------------------------------- seeds: one good request per route

def seed(rule: str, method: str, endpoint: str, who: str, fields=(), *, table=TABLE_A,
         params=None, query=(), hx=True) -> Req:
    """A request a phone would send, expected to succeed (run before the random ones)."""
    if params is None:
        params = {"table_id": table} if "<table_id>" in rule else {}
    return Req(method, rule, endpoint, params, list(query),
               "form" if method == "POST" else "none", list(fields), None, None,
               {"HX-Request": "true"} if hx else {}, who, "own", CSRF_VALID, "form", "", True)


TRICK = [("variant", "family"), ("c1", "14R"), ("c2", "5Y"), ("c3", "ROOK"), ("trump", "Y"),
         ("check", "1")]
# A games.csv of one game, as another server's group exports it (docs/GROUPS.md).
GAMES_CSV = ("id,game,started_at,finished_at,minutes,table_id,players,teams,scores,winners,"
             "settings\r\n7,scorepad,2026-01-02T20:00:00,2026-01-02T20:30:00,30,OLDTABLE,"
             "Ann | Bob,,Ann: 60 | Bob: 20,Ann,{}\r\n")
NEW_SCOREPAD = [("name_0", "Ann"), ("name_1", "Bob"), ("me", "0"), ("target", "100")]
NEW_ROOK = [("name_0", "Ann"), ("name_1", "Bob"), ("name_2", "Cy"), ("name_3", "Dee"),
            ("me", "0"), ("variant", "family"), ("confirm", "on")]
SEEDS = [  # in order: the confirmation needs B's pending hand, the rematch a finished game
    seed("/", "GET", "home.start", "nobody", query=[("code", "ABCDEF")]),
    seed("/new", "GET", "home.choose_game", "nobody"),
    seed("/new/<slug>", "GET", "home.new_table", "stranger", params={"slug": "rook"}),
    seed("/j", "GET", "home.join_page", "nobody"),
    seed("/J", "GET", "home.join_page", "stranger", query=[("old", "1")]),
    seed("/j", "POST", "home.join_by_token", "stranger", [("token", TOKEN_A)]),
    seed("/J/<token>", "GET", "home.old_join_link", "stranger", params={"token": TOKEN_A}),
    seed("/j/<token>", "GET", "home.old_join_link", "nobody", params={"token": TOKEN_A_LOWER}),
    seed("/manifest.webmanifest", "GET", "home.manifest", "nobody"),
    seed("/sw.js", "GET", "home.service_worker", "nobody"),
    seed("/healthz", "GET", "health.healthz", "nobody"),
    seed(TABLE, "GET", "table.show", "ann", hx=False),
    seed(TABLE + "/play", "GET", "table.play_fragment", "bob", query=[("since", "0")]),
    seed(TABLE + "/play", "GET", "table.play_fragment", "spectator", query=[("since", "0")]),
    seed(TABLE + "/play", "GET", "table.play_fragment", "ann", query=[("since", "0")]),
    seed(TABLE + "/play", "GET", "table.play_fragment", "ann", query=[("since", VERSION)]),
    seed(TABLE + "/stream", "GET", "table.stream", "bob"),
    seed(TABLE + "/seats", "GET", "table.seats", "spectator"),
    seed(TABLE + "/history", "GET", "table.history", "ann"),
    seed("/rook/trick", "GET", "tools.rook_trick", "nobody", query=TRICK),
    seed(TABLE + "/trick", "GET", "tools.table_trick", "yan", table=TABLE_B, query=TRICK),
    seed("/zocknroll/best", "GET", "tools.zocknroll_best", "nobody",
         query=[("board", "beginner"), ("d3", "3"), ("d5", "2"), ("check", "1")]),
    seed("/rainbow-rummy/check", "GET", "rainbow_rummy_tools.check", "nobody",
         query=[("q", "build"), ("card", "5J"), ("onto", "6S"), ("check", "1")]),
    seed("/rocca/check", "GET", "rocca_tools.check", "nobody",
         query=[("card", "7H"), ("onto", "7S"), ("check", "1"), ("start", "5D")]),
    seed("/rockit/check", "GET", "rockit_tools.check", "nobody",
         query=[("trick_0", "9D 10D JD QD KD"), ("trick_1", "8D AD JS JH"), ("check", "1")]),
    seed("/language", "GET", "i18n.choose", "nobody", query=[("to", "ja"), ("next", "/")]),
    seed("/new/<slug>", "POST", "home.create_table", "ann", NEW_SCOREPAD,
         params={"slug": "scorepad"}),
    seed("/new/<slug>", "POST", "home.create_table", "stranger", NEW_ROOK, params={"slug": "rook"}),
    seed("/join", "POST", "home.join_by_code", "stranger", [("code", CODE_A)]),
    seed("/join", "POST", "home.join_by_code", "zed", [("code", CODE_A_TYPED)]),
    seed(TABLE + "/actions", "POST", "table.enter", "ann",
         [("sid", SID_NEW), ("version", VERSION), ("score_0", "3"), ("score_1", "-4"),
          ("score_2", "0")]),
    seed(TABLE + "/entries/<int:seq>/edit", "GET", "table.edit_form", "bob",
         params={"table_id": TABLE_A, "seq": SEQ_LAST}, hx=False),
    seed(TABLE + "/entries/<int:seq>/edit", "POST", "table.edit", "ann",
         [("sid", SID_NEW), ("version", VERSION), ("score_0", "5"), ("score_1", "-4"),
          ("score_2", "0")],
         params={"table_id": TABLE_A, "seq": SEQ_LAST}, hx=False),
    seed(TABLE + "/undo", "POST", "table.undo", "bob", [("sid", SID_NEW), ("target", SEQ_LAST)]),
    seed(TABLE + "/seats", "POST", "table.claim", "spectator", [("seat", "2")]),
    seed(TABLE + "/host/rejoin", "POST", "table.host_rejoin", "ann", [("seat", "1")]),
    seed(TABLE + "/host/release", "POST", "table.host_release", "ann", [("seat", "1")]),
    seed(TABLE + "/host/pass", "POST", "table.host_pass", "ann", [("seat", "1")]),
    seed(TABLE + "/actions", "POST", "table.enter", "zed",
         [("sid", SID_NEW), ("version", VERSION), ("bidder", "Zed"), ("bid", "150"),
          ("points_A", "120")], table=TABLE_B),
    seed(TABLE + "/confirm", "POST", "table.confirm", "yan",
         [("sid", SID_NEW), ("target", SEQ_PENDING)], table=TABLE_B),
    seed(TABLE + "/actions", "POST", "table.enter", "ann",
         [("sid", SID_NEW), ("version", VERSION), ("kind", "finish")]),
    seed(TABLE + "/rematch", "POST", "table.rematch", "bob",
         [("sid", SID_NEW), ("version", VERSION)]),
    # Bob, seated at A, may keep its players; Yan, seated at B, does.
    seed("/g/keep/<table_id>", "GET", "groups.keep_page", "bob", hx=False),
    seed("/g/keep/<table_id>", "POST", "groups.keep_table", "yan", [("name", "Kept")],
         table=TABLE_B),
    # Ann, A's host, records A's games in her group.
    seed("/g/attach/<table_id>", "GET", "groups.attach_page", "ann", hx=False),
    seed("/g/attach/<table_id>", "POST", "groups.attach_table", "ann",
         [("group", GROUP_ID)]),
    seed("/places/remove", "POST", "home.remove_place", "bob", [("kind", "table"),
                                                                 ("ref", TABLE_A)]),
    # The event: Ann directs it; its round 1 is seated on one table.
    seed("/events/new", "GET", "events.choose_game", "nobody"),
    seed("/events/new/<slug>", "GET", "events.new_event", "stranger", params={"slug": "rook"}),
    seed("/events/new/<slug>", "POST", "events.create", "stranger",
         [("event_name", "Cup"), ("event_rounds", "3"), ("entrants", "Ann\nBob\nCy")],
         params={"slug": "scorepad"}),
    seed(EVENT, "GET", "events.dashboard", "ann", params={"event_id": EVENT_ID}, hx=False),
    seed(EVENT, "GET", "events.dashboard", "ann", params={"event_id": EVENT_ID},
         query=[("tables", "open")]),
    seed(EVENT + "/cards", "GET", "events.cards", "ann", params={"event_id": EVENT_ID}),
    seed(EVENT + "/cards", "GET", "events.cards", "ann", params={"event_id": EVENT_ID},
         query=[("per_page", "4"), ("tables", "6")]),
    seed(EVENT + "/cards", "GET", "events.cards", "ann", params={"event_id": EVENT_ID},
         query=[("table", "2")]),
    seed(EVENT + "/correct", "GET", "events.correct_form", "ann", params={"event_id": EVENT_ID},
         query=[("round", "1"), ("table", "1")]),
    seed(EVENT + "/correct", "POST", "events.correct", "ann",
         [("round", "1"), ("table", "1"), ("place_0", "1"), ("place_1", "2"), ("place_2", "3"),
          ("place_3", "4"), ("why", "Slip misread")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/lock", "POST", "events.lock", "ann", [("round", "1")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/seat", "POST", "events.seat", "ann", params={"event_id": EVENT_ID}),
    seed(EVENT + "/results.csv", "GET", "events.results_csv", "ann",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/standings", "GET", "events.standings", "nobody", params={"event_id": EVENT_ID}),
    seed(EVENT + "/projector", "GET", "events.projector", "stranger",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/projector", "GET", "events.projector", "stranger",
         params={"event_id": EVENT_ID}, query=[("page", "2"), ("rows", "3")]),
    seed(EVENT + "/players", "GET", "events.players", "nobody", params={"event_id": EVENT_ID},
         query=[("name", "Cy")]),
    seed(EVENT + "/entrants", "POST", "events.change_entrants", "ann",
         [("action", "add"), ("name", "Eve")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/register", "POST", "events.register", "stranger",
         [("member_0", "Fay")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/registration", "POST", "events.registration", "ann",
         [("action", "close")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/pick", "POST", "events.pick", "stranger", [("name", "Cy")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/pick", "POST", "events.pick", "stranger",
         [("name", "Cy"), ("code", CLAIM_CODE_CY)], params={"event_id": EVENT_ID}),
    # Cy's phone taps "I'm here" after round 1 is seated: Cy plays already, nothing to do.
    seed(EVENT + "/check-in", "POST", "events.check_in", "stranger",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/slips", "GET", "events.slips", "ann", params={"event_id": EVENT_ID}),
    seed(EVENT + "/my-table", "POST", "events.my_table", "stranger",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/t/<int:table_no>", "GET", "events.table_card", "stranger",
         params={"event_id": EVENT_ID, "table_no": "1"}),
    seed(EVENT + "/pairings", "GET", "events.pairings", "nobody", params={"event_id": EVENT_ID}),
    seed(EVENT + "/director", "GET", "events.director_page", "nobody",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/director", "POST", "events.director_join", "stranger",
         [("token", DIRECTOR_TOKEN)], params={"event_id": EVENT_ID}),
    seed(EVENT + "/director/<token>", "GET", "events.old_director_link", "stranger",
         params={"event_id": EVENT_ID, "token": DIRECTOR_TOKEN}),
    seed(EVENT + "/clock", "POST", "events.clock", "ann", [("action", "start"), ("minutes", "60")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/director-link", "POST", "events.director_link", "ann", [("keep", "on")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/director-devices", "POST", "events.director_devices", "ann",
         [("action", "rename"), ("device", DEVICE_LAST), ("name", "Desk laptop")],
         params={"event_id": EVENT_ID}),
    # The director's tools: round 2 (nothing played yet) is unseated and seated again with
    # the late arrivals (two tables of three), then two entrants change tables and the two
    # tables are paired again.
    seed(EVENT + "/unseat", "POST", "events.unseat", "ann", [("round", CURRENT_ROUND)],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/seat", "POST", "events.seat", "ann", params={"event_id": EVENT_ID}),
    seed(EVENT + "/swap", "POST", "events.swap", "ann",
         [("round", CURRENT_ROUND), ("entrant_a", FIRST_SEATED), ("entrant_b", LAST_SEATED)],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/pair-again", "POST", "events.pair_again", "ann",
         [("round", CURRENT_ROUND), ("who", "Jo")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/cut", "POST", "events.cut", "ann", [("size", "4")],
         params={"event_id": CUP_ID}),
    seed(EVENT + "/adjustments", "POST", "events.adjustments", "ann",
         [("action", "add"), ("entrant", "Cy"), ("points", "-2"), ("reason", "Late")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/adjustments", "POST", "events.adjustments", "ann",
         [("action", "withdraw"), ("id", "1")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/standings.csv", "GET", "events.standings_csv", "ann",
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/export.zip", "GET", "events.export_zip", "ann", params={"event_id": EVENT_ID}),
    seed(EVENT + "/news", "GET", "events.news", "nobody", params={"event_id": EVENT_ID}),
    seed(EVENT + "/announce", "POST", "events.announce", "ann",
         [("action", "send"), ("text", "Round 2 starts in 5 minutes"), ("who", "Jo")],
         params={"event_id": EVENT_ID}),
    # Claims: the director releases Cy's claim and gives Cy a new code; a phone says "not me".
    seed(EVENT + "/claims", "POST", "events.claims_action", "ann",
         [("action", "release"), ("player", "Cy")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/claims", "POST", "events.claims_action", "ann",
         [("action", "reassign"), ("player", "Cy")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/claims", "POST", "events.claims_action", "ann",
         [("action", "codes_off")], params={"event_id": EVENT_ID}),
    seed(EVENT + "/not-me", "POST", "events.not_me", "stranger", params={"event_id": EVENT_ID}),
    # The director's keep-apart group and fixed table.
    seed(EVENT + "/pairing-rules", "POST", "events.pairing_rules", "ann",
         [("action", "apart_add"), ("group", "Club"), ("members", "Cy\nEve")],
         params={"event_id": EVENT_ID}),
    seed(EVENT + "/pairing-rules", "POST", "events.pairing_rules", "ann",
         [("action", "fix"), ("name", "Cy"), ("table", "1")], params={"event_id": EVENT_ID}),
    # Groups: the stranger makes one; Bob joins Ann's by its link; Ann's phone renames Bob,
    # makes a table for the group, reads its games and removes Bob's phone.
    seed("/g/new", "GET", "groups.new_group", "nobody"),
    seed("/g/new", "POST", "groups.create_group", "stranger",
         [("name", "Friday"), ("players", "Ann\nBob\nCy")]),
    seed("/g/join", "GET", "groups.join_page", "nobody"),
    seed("/g/join", "POST", "groups.join_by_token", "bob", [("token", GROUP_TOKEN)]),
    seed(GROUP, "GET", "groups.show", "ann", params={"group_id": GROUP_ID}, hx=False),
    seed(GROUP + "/players/<int:player_id>/rename", "POST", "groups.rename_player", "ann",
         [("name", "Robert")], params={"group_id": GROUP_ID, "player_id": "2"}),
    seed(GROUP + "/new/<slug>", "GET", "groups.new_table", "ann",
         params={"group_id": GROUP_ID, "slug": "scorepad"}),
    seed(GROUP + "/new/<slug>", "POST", "groups.create_table", "ann", NEW_SCOREPAD,
         params={"group_id": GROUP_ID, "slug": "scorepad"}),
    seed(GROUP + "/games.json", "GET", "groups.games_json", "ann", params={"group_id": GROUP_ID}),
    seed(GROUP + "/games.csv", "GET", "groups.games_csv", "ann", params={"group_id": GROUP_ID}),
    seed(GROUP + "/stats.json", "GET", "groups.stats_json", "ann", params={"group_id": GROUP_ID}),
    seed(GROUP + "/players/<int:player_id>", "GET", "groups.player_page", "ann",
         params={"group_id": GROUP_ID, "player_id": "1"}, query=[("page", "1")], hx=False),
    seed(GROUP + "/games/<int:game_id>", "GET", "groups.game_page", "ann",
         params={"group_id": GROUP_ID, "game_id": "1"}, hx=False),
    # Bobby (player 3, from the world's group table) is Bob (player 2, now Robert).
    seed(GROUP + "/players/<int:player_id>/merge", "GET", "groups.merge_page", "ann",
         params={"group_id": GROUP_ID, "player_id": "3"}, query=[("into", "2")], hx=False),
    seed(GROUP + "/players/<int:player_id>/merge", "POST", "groups.merge_players", "ann",
         [("into", "2")], params={"group_id": GROUP_ID, "player_id": "3"}),
    seed(GROUP + "/games/<int:game_id>/delete", "GET", "groups.delete_game_page", "ann",
         params={"group_id": GROUP_ID, "game_id": "1"}, hx=False),
    seed(GROUP + "/games/<int:game_id>/delete", "POST", "groups.delete_game", "ann",
         params={"group_id": GROUP_ID, "game_id": "1"}),
    seed(GROUP + "/import", "GET", "groups.import_page", "ann", params={"group_id": GROUP_ID},
         hx=False),
    seed(GROUP + "/import", "POST", "groups.import_games", "ann", [("csv", GAMES_CSV)],
         params={"group_id": GROUP_ID}),
    seed(GROUP + "/phones/<int:n>/remove", "POST", "groups.remove_phone", "ann",
         params={"group_id": GROUP_ID, "n": "2"}),
    seed(GROUP + "/delete", "GET", "groups.delete_group_page", "ann",
         params={"group_id": GROUP_ID}, hx=False),
    seed(GROUP + "/delete", "POST", "groups.delete_group", "ann",
         params={"group_id": GROUP_ID}),
]


def stale_notices(body: str) -> list[str]:
    """The message of each "someone saved first" notice (`.notice.stale`, role=status)."""
    return [p.text for p in select(body, '.notice.stale[role="status"] > p')]


# ---------------------------------------------------------------- the tests

SENT: Counter = Counter()        # requests sent, per fuzz test
EXAMPLES = {                     # max_examples per fuzz test (one request per example)
    "get_routes": 2000,         # 1300 before the event pages doubled the GET routes
    "table_writes": 1700,
    "home_writes": 1500,        # the event forms share these requests
    "odd_bodies_and_methods": 1100,
}
MIN_REQUESTS = 5_000
FUZZ = dict(deadline=None, print_blob=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                   HealthCheck.large_base_example])


def route_list(app, *, methods=("GET", "POST"), table: bool | None = None):
    """(rule, method, endpoint) for every fuzzed rule of the live url_map."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        if table is not None and rule.rule.startswith(TABLE) != table:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method in methods:
                out.append((rule.rule, method, rule.endpoint))
    return sorted(out)


def run_fuzz(tmp_path, name: str, routes_of, *, seeds: bool = True, **draw_options):
    """The seed request of each route, then EXAMPLES[name] generated requests.

    Every seed must succeed (so the world and the field names are right, and each handler's
    success path runs under the oracles). Returns the routes and the generated requests'
    answers, counted by (endpoint, method, status class).
    """
    world = [World(tmp_path)]
    routes = routes_of(world[0].app)
    assert routes
    if seeds:
        wanted = {(rule, method) for rule, method, _endpoint in routes}
        for req in SEEDS:
            if (req.rule, req.method) in wanted:
                status, _ok = world[0].send(req, Counter())
                assert status < 400, f"the seed {req.method} {req.rule} ({req.who}) got {status}"
    stats: Counter = Counter()
    started = time.monotonic()

    @settings(max_examples=EXAMPLES[name], **FUZZ)
    @given(req=requests(routes, **draw_options))
    def fuzz(req):
        SENT[name] += 1
        _status, ok = world[0].send(req, stats)
        if not ok:  # the database grew too big: a fresh world
            world.append(World(tmp_path, len(world)))
            world.pop(0)

    fuzz()
    print(f"\n{name}: {SENT[name]} requests in {time.monotonic() - started:.1f} s, "
          f"{len(world)} app(s); (endpoint, method, status class) -> count:")
    for key, n in sorted(stats.items()):
        print(f"  {key}: {n}")
    assert SENT[name] >= EXAMPLES[name]
    return routes, stats


def answered(stats: Counter, endpoint: str, method: str, klass: int) -> int:
    return stats[(endpoint, method, klass)]


def successes(stats: Counter) -> int:
    return sum(n for (_endpoint, _method, klass), n in stats.items() if klass in (2, 3))
