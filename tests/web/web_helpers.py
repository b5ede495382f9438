"""Helpers for the Flask test-client suite: one `Phone` per test client (its own cookies).

The module name is unique across tests/ because pytest imports test-side modules by
basename (there are no __init__.py files under tests/).
"""
from __future__ import annotations

import re
import sqlite3
from urllib.parse import urlsplit

from companion import create_app
from helpers import attr, csrf_from, form_block, inputs, select, select_one, text_of

HX = {"HX-Request": "true"}


def make_app(tmp_path, **overrides):
    config = {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path),
        "DATABASE": str(tmp_path / "test.db"),
        "SECRET_KEY": "test",
        "JOIN_RATE_LIMIT": "1000 per minute",
        # One test client is one address: the creation quotas (tested on their own in
        # test_web_quotas.py) would stop the suites that create many tables.
        "TABLE_CREATE_LIMIT": (100_000, 60.0),
        "EVENT_CREATE_LIMIT": (100_000, 60.0),
        "EVENT_TABLE_LIMIT": (1_000_000, 60.0),
        # Likewise the RockIt check's limit (tested in test_web_tool_limits.py), whose
        # refusals wait a second each.
        "TOOL_RATE_LIMIT": "100000 per minute",
    }
    config.update(overrides)
    app = create_app(config)
    assert app.config.get("WTF_CSRF_ENABLED", True), "CSRF must stay on in these tests"
    return app


def local_link(url: str) -> str:
    """A link shown on a page without its scheme and host: its path and its fragment
    ("HTTP://10.0.0.1/j#ABC" -> "/j#ABC")."""
    parts = urlsplit(url)
    return parts.path + ("#" + parts.fragment if parts.fragment else "")


def round_rows(page: str) -> int:
    """How many round rows the score sheet shows."""
    body = select_one(page, "tbody")
    return sum(1 for th in body.select('th[scope="row"]') if re.fullmatch(r"\d+", th.text))


def standings(page: str) -> list[tuple[str, str]]:
    """(entrant, points as shown) of every row of an event's standings table, in order."""
    return [(row.get("data-entrant"), text_of(row, 'td[class="points"]'))
            for row in select(page, "tr[data-entrant]")]


class Phone:
    """One browser: a Flask test client with its own cookie jar."""

    def __init__(self, app, name: str = "phone"):
        self.app = app
        self.name = name
        self.client = app.test_client()
        self._csrf: str | None = None

    # ------------------------------------------------------------ raw requests
    def _check(self, response):
        assert response.status_code < 500, (
            f"{self.name}: server error {response.status_code}\n{response.get_data(as_text=True)[:3000]}")
        return response

    def get(self, url: str, *, hx: bool = False, headers: dict | None = None, **kw):
        h = dict(HX) if hx else {}
        h.update(headers or {})
        return self._check(self.client.get(url, headers=h, **kw))

    def post(self, url: str, data: dict | None = None, *, hx: bool = False, csrf: bool = True,
             headers: dict | None = None, **kw):
        data = dict(data or {})
        if csrf and "csrf_token" not in data:
            data["csrf_token"] = self.csrf()
        h = dict(HX) if hx else {}
        h.update(headers or {})
        return self._check(self.client.post(url, data=data, headers=h, **kw))

    def csrf(self) -> str:
        """A CSRF token for this phone's session, read from a rendered page."""
        if self._csrf is None:
            self._csrf = csrf_from(self.get("/").get_data(as_text=True))
        return self._csrf

    def cookie(self, key: str) -> str | None:
        c = self.client.get_cookie(key)
        return c.value if c else None

    def secret(self) -> str | None:
        """The phone's identity: what the database's scoped hashes (`tokens.phone_hash`,
        `pass_hash`, `director_hash`) are made of. The `tc` cookie holds a key for it."""
        from companion.web.cookies import identity_of
        conn = sqlite3.connect(self.app.config["DATABASE"])
        try:
            return identity_of(conn, self.cookie("tc"))
        finally:
            conn.close()

    def clone(self, name: str | None = None) -> "Phone":
        """A second client carrying the same cookies (the same phone, another connection)."""
        twin = Phone(self.app, name or self.name + "'")
        for key in ("session",) + tuple(k for k in self._cookie_names() if k != "session"):
            value = self.cookie(key)
            if value is not None:
                twin.client.set_cookie(key, value)
        twin._csrf = self._csrf
        return twin

    def _cookie_names(self) -> list[str]:
        jar = getattr(self.client, "_cookies", {})
        return [key[2] for key in jar]

    # ------------------------------------------------------------ flows
    def create_table(self, names: list[str], me: int = 0, **settings) -> str:
        """Create a score pad table; this phone sits at row `me` and hosts. Returns its id."""
        data = {f"name_{i}": n for i, n in enumerate(names)}
        data["me"] = str(me)
        data.update({k: str(v) for k, v in settings.items()})
        r = self.post("/new/scorepad", data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        path = urlsplit(r.headers["Location"]).path
        match = re.fullmatch(r"/t/([\w-]+)", path)
        assert match, path
        return match.group(1)

    def page(self, table_id: str, **kw) -> str:
        r = self.get(f"/t/{table_id}", **kw)
        assert r.status_code == 200, (r.status_code, r.get_data(as_text=True)[:2000])
        return r.get_data(as_text=True)

    def join_path(self, table_id: str) -> str:
        """The QR's join link without its base ("/j#<TOKEN>"), read from `#join-url` on the
        table page."""
        return local_link(attr(self.page(table_id), "a#join-url", "href"))

    def pick(self, event_id: str, name: str, code: str | None = None):
        """"This is me" on an event's players' page: this phone claims `name` with the
        player's claim code (`code`; None: the right one, read from the database as the
        director's slip shows it; "": none)."""
        if code is None:
            code = claim_code(self.app.config["DATABASE"], event_id, name) or ""
        data = {"name": name}
        if code:
            data["code"] = code
        return self.post(f"/e/{event_id}/pick", data)

    def join(self, link: str, **kw):
        """Open a link whose secret rides in its fragment ("/j#<TOKEN>", a director link
        "/e/<id>/director#<TOKEN>", or the whole URL) as its page's script does
        (static/js/join.js): POST the token to the link's path. A link without a fragment
        is simply opened (GET)."""
        parts = urlsplit(link)
        if not parts.fragment:
            return self.get(link, **kw)
        return self.post(parts.path, {"token": parts.fragment}, **kw)

    def claim(self, table_id: str, seat):
        return self.post(f"/t/{table_id}/seats", {"seat": str(seat)})

    def entry_form(self, table_id: str, page: str | None = None) -> dict[str, str]:
        """The hidden fields (csrf_token, sid, version) and boxes of the entry form."""
        page = page if page is not None else self.page(table_id)
        return inputs(form_block(page, 'id="entry-form"'))

    def enter(self, table_id: str, scores: dict[int, object], *, sid: str | None = None,
              version=None, hx: bool = True, form: dict | None = None, extra: dict | None = None):
        """Post one round (score_<pos> fields) the way htmx does.

        An empty box is never a score, so, as a player must, this types 0 in every score box
        of the form that `scores` doesn't name (a test of empty boxes names them, with "").
        Without the form (`sid` and `version` given) only `scores` is posted."""
        if form is None and (sid is None or version is None):
            form = self.entry_form(table_id)
        data = {"sid": sid if sid is not None else form["sid"],
                "version": str(version if version is not None else form["version"])}
        data.update({key: "0" for key in (form or {}) if key.startswith("score_")})
        data.update({f"score_{pos}": str(v) for pos, v in scores.items()})
        data.update(extra or {})
        return self.post(f"/t/{table_id}/actions", data, hx=hx)

    def undo(self, table_id: str, target: int, *, sid: str, from_history: bool = False,
             hx: bool = True):
        data = {"sid": sid, "target": str(target)}
        if from_history:
            data["from"] = "history"
        return self.post(f"/t/{table_id}/undo", data, hx=hx)


def play_part(body: str, part: str) -> str:
    """The sheet (`part` "sheet") or the entry form ("entry") of a /play answer or a table
    page: the source of its ``<section id="...">``."""
    return select_one(body, f"section#{part}").html


def seq_saved(response) -> int:
    """The entry number from 'Saved as entry #N.'"""
    match = re.search(r"Saved as entry #(\d+)\.", response.get_data(as_text=True))
    assert match, response.get_data(as_text=True)[:3000]
    return int(match.group(1))


# ---------------------------------------------------------------- the database, read directly

DATA_TABLES = ("tables", "seats", "phones", "actions", "changes")


def db_rows(db_path: str, sql: str, params=()) -> list[tuple]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def claim_code(db_path: str, event_id: str, name: str) -> str | None:
    """The claim code of the player `name` names (as the players' page finds names: a
    player's own name, or an entrant's, ignoring case; a team's name: its first player)."""
    from companion.rules.game import name_key
    rows = db_rows(db_path, "SELECT player, entrant, code FROM event_players WHERE event_id = ?"
                   " ORDER BY rowid", (event_id,))
    for wanted in (lambda r: r[0] == name, lambda r: r[1] == name,
                   lambda r: name_key(r[0]) == name_key(name),
                   lambda r: name_key(r[1]) == name_key(name)):
        found = next((r[2] for r in rows if wanted(r)), None)
        if found:
            return found
    return None


def count(db_path: str, table: str, where: str = "1", params=()) -> int:
    return db_rows(db_path, f"SELECT COUNT(*) FROM {table} WHERE {where}", params)[0][0]


def snapshot(db_path: str) -> dict[str, list[tuple]]:
    """Every row of the app's data tables, for before/after comparisons."""
    conn = sqlite3.connect(db_path)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in DATA_TABLES}
    finally:
        conn.close()


def create_game_table(phone: "Phone", slug: str, names: list[str], **fields) -> str:
    """Create a `slug` table for `names` from the new-table form (this phone is seat 0, the
    host); `fields` are house rules and table switches. Returns the table id."""
    data = {f"name_{i}": n for i, n in enumerate(names)}
    data.update({"me": "0", **{k: str(v) for k, v in fields.items()}})
    r = phone.post(f"/new/{slug}", data)
    assert r.status_code == 303, text_of(r.get_data(as_text=True))[:500]
    return re.fullmatch(r"/t/([\w-]+)", urlsplit(r.headers["Location"]).path).group(1)

