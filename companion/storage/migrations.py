"""Additive schema migrations (sqlite-utils `Migrations`), applied on start.

Never drop-and-create: add a new function at the end for every change.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from sqlite_utils import Migrations

from .db import connect

migrations = Migrations("companion")


@migrations()
def m001_tables_seats_phones_actions(db):
    db.execute("""
        CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            token TEXT NOT NULL UNIQUE,
            code TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            settings TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing',
            version INTEGER NOT NULL DEFAULT 0,
            host_seat INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE seats (
            table_id TEXT NOT NULL REFERENCES tables(id),
            pos INTEGER NOT NULL,
            name TEXT NOT NULL,
            team TEXT,
            rejoin_token TEXT UNIQUE,
            PRIMARY KEY (table_id, pos)
        )""")
    # A phone is one browser that has opened a table: it holds the secret in a cookie.
    # `seat` is NULL for a spectator; one seat has at most one phone.
    db.execute("""
        CREATE TABLE phones (
            id INTEGER PRIMARY KEY,
            table_id TEXT NOT NULL REFERENCES tables(id),
            secret_hash TEXT NOT NULL UNIQUE,
            seat INTEGER,
            created_at TEXT NOT NULL,
            seen_at TEXT NOT NULL
        )""")
    db.execute("CREATE UNIQUE INDEX phones_one_per_seat ON phones(table_id, seat) WHERE seat IS NOT NULL")
    # The action log: append-only. Undo appends an action and sets `undone_by` on its target.
    db.execute("""
        CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            seat INTEGER,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            submission_id TEXT,
            created_at TEXT NOT NULL,
            undone_by INTEGER,
            PRIMARY KEY (table_id, seq)
        )""")
    db.execute("CREATE UNIQUE INDEX actions_submission ON actions(table_id, submission_id) WHERE submission_id IS NOT NULL")
    # One row per change of any table, read by every worker's live poller.
    db.execute("""
        CREATE TABLE changes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            created_at TEXT NOT NULL
        )""")


@migrations()
def m002_table_options_and_pending_entries(db):
    # Table options that are not the game's rules (e.g. opponents confirm each hand).
    db.execute("ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}'")
    # An entry waiting for the other team's confirmation counts once `confirmed_by` is set.
    db.execute("ALTER TABLE actions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE actions ADD COLUMN confirmed_by INTEGER")


@migrations()
def m003_events(db):
    # A tournament ("event"): its director holds the secret in a cookie, like a table's host.
    db.execute("""
        CREATE TABLE events (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            settings TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            rounds INTEGER NOT NULL,
            secret_hash TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""")
    # An entrant is a player, or a team (members lists its players) in team games.
    db.execute("""
        CREATE TABLE event_entrants (
            event_id TEXT NOT NULL REFERENCES events(id),
            pos INTEGER NOT NULL,
            name TEXT NOT NULL,
            members TEXT NOT NULL DEFAULT '[]',
            dropped INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (event_id, name)
        )""")
    db.execute("""
        CREATE TABLE event_rounds (
            event_id TEXT NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            byes TEXT NOT NULL DEFAULT '[]',
            seated_at TEXT NOT NULL,
            locked_at TEXT,
            PRIMARY KEY (event_id, round)
        )""")
    # One row per table of a round: the companion table playing it and who sits there.
    db.execute("""
        CREATE TABLE event_seatings (
            event_id TEXT NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            table_id TEXT NOT NULL REFERENCES tables(id),
            entrants TEXT NOT NULL,
            PRIMARY KEY (event_id, round, table_no)
        )""")
    # A table's result: taken from its finished sheet (source 'table') or set by the director.
    db.execute("""
        CREATE TABLE event_results (
            event_id TEXT NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            result TEXT NOT NULL,
            source TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (event_id, round, table_no)
        )""")
    # Every correction by the director: who, when, why, the result before and after.
    db.execute("""
        CREATE TABLE event_audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            who TEXT NOT NULL,
            why TEXT NOT NULL,
            old TEXT,
            new TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""")


@migrations()
def m004_event_registration_table_size_version(db):
    # Players may register themselves through the event's QR while `registration` is 1.
    db.execute("ALTER TABLE events ADD COLUMN registration INTEGER NOT NULL DEFAULT 0")
    # The director's players-per-table for the table games (NULL: the game's default).
    db.execute("ALTER TABLE events ADD COLUMN table_size INTEGER")
    # Bumped by every write to the event, so its pages may be cached per version.
    db.execute("ALTER TABLE events ADD COLUMN version INTEGER NOT NULL DEFAULT 0")


@migrations()
def m005_closed_event_tables_and_directors_tools(db):
    # An event's tables: only that table's entrants sit down; the director holds the host tools.
    db.execute("ALTER TABLE tables ADD COLUMN event_id TEXT")
    db.execute("CREATE INDEX IF NOT EXISTS event_seatings_table ON event_seatings(table_id)")
    # A player's pass: the phone that registered or picked an entrant on the players' page
    # holds the secret in a cookie; it may take that entrant's seat (member: the player's
    # own name in a team, when known).
    db.execute("""
        CREATE TABLE event_passes (
            secret_hash TEXT PRIMARY KEY,
            event_id TEXT NOT NULL REFERENCES events(id),
            entrant TEXT NOT NULL,
            member TEXT,
            created_at TEXT NOT NULL
        )""")
    # More browsers with the director's role (the director's QR / link); each holds a secret.
    db.execute("""
        CREATE TABLE event_directors (
            secret_hash TEXT PRIMARY KEY,
            event_id TEXT NOT NULL REFERENCES events(id),
            created_at TEXT NOT NULL
        )""")
    # The director link's one token (hashed); a new link replaces the old one.
    db.execute("ALTER TABLE events ADD COLUMN director_token_hash TEXT")
    # The director's choices: scoring, tie-break order, late entry, pairing, table sizes (JSON).
    db.execute("ALTER TABLE events ADD COLUMN config TEXT NOT NULL DEFAULT '{}'")
    # The round clock (JSON: round, seconds, started_at / remaining, running).
    db.execute("ALTER TABLE events ADD COLUMN clock TEXT")
    # The first round a late arrival could play (NULL: listed before round 1).
    db.execute("ALTER TABLE event_entrants ADD COLUMN late_from INTEGER")
    # Penalties and bonuses: points added to an entrant's total, with the director's reason.
    db.execute("""
        CREATE TABLE event_adjustments (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL REFERENCES events(id),
            entrant TEXT NOT NULL,
            points REAL NOT NULL,
            reason TEXT NOT NULL,
            round INTEGER,
            who TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""")
    # The audit log covers every director's change now, not only results: kind says which
    # (result, swap, unseat, penalty); old/new hold what changed.
    db.execute("ALTER TABLE event_audit ADD COLUMN kind TEXT NOT NULL DEFAULT 'result'")
    # Rate limits that hold across worker processes (Flask-Limiter's memory counts per
    # process): one row per counted request.
    db.execute("""
        CREATE TABLE rate_hits (
            bucket TEXT NOT NULL,
            key TEXT NOT NULL,
            at REAL NOT NULL
        )""")
    db.execute("CREATE INDEX rate_hits_lookup ON rate_hits(bucket, key, at)")


@migrations()
def m006_table_opened_at(db):
    # When a phone last opened the table's page (refreshed at most hourly): `companion
    # prune` removes finished tables nobody has opened for a long time. NULL: never since
    # this column came; the table's newest action or phone then counts.
    db.execute("ALTER TABLE tables ADD COLUMN opened_at TEXT")


@migrations()
def m007_removed_phones_and_locked_seats(db):
    # The host removed this phone from its seat: it may watch, and sits down again only
    # through a rejoin code the host gives out.
    db.execute("ALTER TABLE phones ADD COLUMN removed INTEGER NOT NULL DEFAULT 0")
    # The seat a removed phone held opens only with the host's rejoin code (not to the next
    # phone that taps it, nor to the removed phone with its cookies cleared).
    db.execute("ALTER TABLE seats ADD COLUMN locked INTEGER NOT NULL DEFAULT 0")


@migrations()
def m008_stored_folds(db):
    # The fold of a table's log (companion/tables/fold.py), written in the same transaction
    # as the action that changed it, so a write never replays the whole log. Trusted only
    # while `seq` is the newest action that changes the sheet and `rules` the running rules
    # code's fingerprint; otherwise the log is replayed. `game`: the current game (state,
    # summary, errors, where it starts). A cache of the log: a missing row costs one replay.
    db.execute("""
        CREATE TABLE table_folds (
            table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            rules TEXT NOT NULL,
            game BLOB NOT NULL,
            past_seq INTEGER NOT NULL
        )""")
    # The earlier games' summaries of that fold, in a row of their own: rewritten only when
    # they change (a rematch, an undo or a confirmation before the current game), by the
    # write `past_seq` names, and not rewritten with every entry (an update rewrites the
    # whole row, and these grow with every game).
    db.execute("""
        CREATE TABLE table_fold_pasts (
            table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            past_seq INTEGER NOT NULL,
            past BLOB NOT NULL
        )""")
    # The entry waiting for the other team's confirmation (at most one a table), found
    # without reading the table's whole log.
    db.execute("CREATE INDEX actions_waiting ON actions(table_id, seq) WHERE pending = 1 AND "
               "confirmed_by IS NULL AND undone_by IS NULL")


def migrate(path: str | Path) -> None:
    """Apply pending migrations to the database at `path`.

    Several server workers start at once; an exclusive file lock (where the platform
    has one) keeps them from applying the same migration twice.
    """
    lock_path = Path(str(path) + ".migrate-lock")
    with _exclusive(lock_path):
        db = connect(path)
        try:
            migrations.apply(db)
        finally:
            db.conn.close()


@contextlib.contextmanager
def _exclusive(lock_path: Path):
    try:
        import fcntl
    except ImportError:  # Windows: a single `companion serve` process, no race.
        yield
        return
    with os.fdopen(os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@migrations()
def m009_chrome_version(db):
    # The version of the newest write that changed what a table page's chrome shows (seats,
    # phones, host; companion/web/table.py): a live refresh or a write's answer carries the
    # chrome only to a phone whose page is older than that. Existing tables: their version.
    db.execute("ALTER TABLE tables ADD COLUMN chrome_version INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE tables SET chrome_version = version")


@migrations()
def m010_entrant_claims(db):
    # Every player of an event (a table game's entrant, or each member of a team) has a
    # short claim code the director hands out: "This is me" asks for it (see
    # companion/events/claims.py). Existing entrants get theirs here.
    import json
    import secrets

    from companion.tables.tokens import CODE_ALPHABET, CODE_LENGTH

    def code() -> str:
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))

    db.execute("""
        CREATE TABLE event_players (
            event_id TEXT NOT NULL REFERENCES events(id),
            player TEXT NOT NULL,
            entrant TEXT NOT NULL,
            code TEXT NOT NULL,
            PRIMARY KEY (event_id, player)
        )""")
    db.execute("CREATE INDEX event_players_entrant ON event_players(event_id, entrant)")
    teams: dict[tuple[str, str], list] = {}
    for event_id, name, members in db.execute(
            "SELECT event_id, name, members FROM event_entrants ORDER BY event_id, pos").fetchall():
        members = json.loads(members or "[]") or [name]
        if len(members) > 1:
            teams[(event_id, name)] = members
        for player in members:
            db.execute("INSERT OR IGNORE INTO event_players (event_id, player, entrant, code)"
                       " VALUES (?, ?, ?, ?)", [event_id, player, name, code()])
    # A pass is now a claim: one phone per player. How the phone came by it: "register"
    # (it registered itself), "code" (it typed the player's claim code), "open" (the event
    # had codes switched off), "kept" (it held the pass before claims existed).
    db.execute("ALTER TABLE event_passes ADD COLUMN via TEXT NOT NULL DEFAULT 'kept'")
    # Second claims of the player refused while this phone held it, for the director.
    db.execute("ALTER TABLE event_passes ADD COLUMN refused INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE event_passes ADD COLUMN refused_at TEXT")
    # Existing passes stay claims, oldest first; a later phone holding the same player
    # loses it. A team pass that named no player goes to the team's first unclaimed player.
    held: set[tuple[str, str, str]] = set()
    for rowid, event_id, entrant, member in db.execute(
            "SELECT rowid, event_id, entrant, member FROM event_passes"
            " ORDER BY created_at, rowid").fetchall():
        if member is None and (event_id, entrant) in teams:
            member = next((m for m in teams[(event_id, entrant)]
                           if (event_id, entrant, m) not in held), None)
            if member is None:
                db.execute("DELETE FROM event_passes WHERE rowid = ?", [rowid])
                continue
            db.execute("UPDATE event_passes SET member = ? WHERE rowid = ?", [member, rowid])
        key = (event_id, entrant, member or "")
        if key in held:
            db.execute("DELETE FROM event_passes WHERE rowid = ?", [rowid])
        else:
            held.add(key)
    db.execute("CREATE UNIQUE INDEX event_passes_one_phone ON event_passes"
               "(event_id, entrant, COALESCE(member, ''))")


@migrations()
def m011_retired_tables(db):
    # A table of a round the director unseated after a phone had opened it: it takes no
    # more entries and its phones are told why (tables without any phone are deleted
    # instead). `retired_reason`: why, as JSON ({"round": N}: round N was seated again);
    # the page words it in the phone's language.
    db.execute("ALTER TABLE tables ADD COLUMN retired_at TEXT")
    db.execute("ALTER TABLE tables ADD COLUMN retired_reason TEXT")
    # An event's tables, found without reading every table (`companion prune`).
    db.execute("CREATE INDEX IF NOT EXISTS tables_event ON tables(event_id) "
               "WHERE event_id IS NOT NULL")


@migrations()
def m012_director_devices_and_phone_keys(db):
    # Director devices: every browser directing an event has a row here, the creating one
    # included (until now it was only events.secret_hash), with a name the director gives
    # it, when it was last seen, the link it came through (NULL: the creating browser) and,
    # once revoked, when: a revoked row stays for the list's history and the audit.
    db.execute("ALTER TABLE event_directors ADD COLUMN device_id TEXT")
    db.execute("ALTER TABLE event_directors ADD COLUMN name TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE event_directors ADD COLUMN seen_at TEXT")
    db.execute("ALTER TABLE event_directors ADD COLUMN link_id INTEGER")
    db.execute("ALTER TABLE event_directors ADD COLUMN creator INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE event_directors ADD COLUMN revoked_at TEXT")
    db.execute("UPDATE event_directors SET creator = 1 WHERE secret_hash IN"
               " (SELECT secret_hash FROM events)")
    db.execute("INSERT OR IGNORE INTO event_directors (secret_hash, event_id, created_at, creator)"
               " SELECT secret_hash, id, created_at, 1 FROM events")
    db.execute("UPDATE event_directors SET device_id = lower(hex(randomblob(8)))"
               " WHERE device_id IS NULL")
    db.execute("CREATE UNIQUE INDEX event_directors_device ON event_directors(event_id, device_id)")
    # Director links: each works once and for a short time; only the token's hash is kept.
    db.execute("""
        CREATE TABLE director_links (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL REFERENCES events(id),
            token_hash TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            used_at TEXT,
            ended_at TEXT
        )""")
    # The link of before worked any number of times and never expired: it ends here.
    db.execute("UPDATE events SET director_token_hash = NULL")
    # Phone keys: the `tc` cookie holds a key the server issued; the row maps its hash to
    # the phone's identity (what every scoped hash is made of), kept XOR-ed with a hash of
    # the key so a copy of the database can't be turned into a working cookie. A retired
    # key (rotated, or an old secret converted once) keeps its row with `retired_at` and
    # no identity: shown again it proves nothing.
    db.execute("""
        CREATE TABLE phone_keys (
            key_hash TEXT PRIMARY KEY,
            identity TEXT,
            created_at TEXT NOT NULL,
            retired_at TEXT
        )""")
    # Phones that held a secret before keys were issued keep their roles: a well-formed
    # secret the server has no key for is converted once into a key, but only on an
    # install that had phones, passes or events before (a new install converts nothing).
    db.execute("CREATE TABLE app_flags (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO app_flags (name, value) SELECT 'legacy_secrets', datetime('now')"
               " WHERE EXISTS (SELECT 1 FROM phones) OR EXISTS (SELECT 1 FROM events)"
               " OR EXISTS (SELECT 1 FROM event_passes)")
    # A phone that received the host role from another phone gets a new key on its next
    # request (the host's request can't reach its cookie).
    db.execute("ALTER TABLE phones ADD COLUMN rotate INTEGER NOT NULL DEFAULT 0")


@migrations()
def m013_corrections_after_lock(db):
    # A director's correction of a locked round is kept apart in the log: `after_lock` 1
    # marks it, `paired` lists (JSON) the later rounds already seated when it was made,
    # whose pairings stand.
    db.execute("ALTER TABLE event_audit ADD COLUMN after_lock INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE event_audit ADD COLUMN paired TEXT")


@migrations()
def m014_seat_rows_say_change(db):
    # A seat row of a table's log says what changed under "change" ("claim", "leave",
    # "host"...), no longer "event": that word names a tournament everywhere else.
    db.execute("UPDATE actions SET payload = json_set(json_remove(payload, '$.event'),"
               " '$.change', json_extract(payload, '$.event'))"
               " WHERE kind = 'seat' AND json_type(payload, '$.event') IS NOT NULL")


@migrations()
def m015_phone_places(db):
    # A phone's places: the tables it created, joined or watches and the events it directs
    # or holds a pass for, for the start page's "Your tables" (companion/tables/places.py).
    # `owner`: a hash of the phone's identity scoped to this list; `place`: a hash of it
    # scoped to the place; `sealed`: which table or event, sealed with the identity, so a
    # copy of the database can't match a phone's rows at two tables. No timestamp, and no
    # rowid (rows lie in hash order): nothing to match a row with a table's phones by time.
    # `n`: the order the phone joined its places in (the oldest go past a cap). `hidden`:
    # removed from the list (the seat stays); joining again shows it again. What the phone
    # may do there is read from the table's and event's own rows.
    db.execute("""
        CREATE TABLE phone_places (
            owner TEXT NOT NULL,
            place TEXT NOT NULL,
            sealed TEXT NOT NULL,
            n INTEGER NOT NULL,
            hidden INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, place)
        ) WITHOUT ROWID""")
    # The rows above can't be filled here: the tables' rows keep only scoped hashes, made
    # from identities the database doesn't hold. A phone's places at the tables and events
    # that exist now are found on its first visit to the start page instead (the newest
    # rowid of each, in `phone_places_older`, is the bound; a new install has none), once
    # per phone (`phone_places_scanned`). A place whose table is forgotten (`companion
    # prune`) drops out of the list with it; its row goes with the phone's oldest.
    db.execute("CREATE TABLE phone_places_scanned (owner TEXT PRIMARY KEY) WITHOUT ROWID")
    db.execute("CREATE TABLE phone_places_older (kind TEXT PRIMARY KEY, last_rowid INTEGER"
               " NOT NULL)")
    db.execute("INSERT INTO phone_places_older (kind, last_rowid) SELECT 'table', MAX(rowid)"
               " FROM tables HAVING MAX(rowid) IS NOT NULL")
    db.execute("INSERT INTO phone_places_older (kind, last_rowid) SELECT 'event', MAX(rowid)"
               " FROM events HAVING MAX(rowid) IS NOT NULL")


@migrations()
def m016_groups(db):
    # Groups: a family or a club whose tables record every finished game. `token`: the
    # group's secret link (like a table's join token, shown again on the group's page to
    # its phones). `deleted_at`: a group deleted (after a confirm) answers as unknown.
    db.execute("""
        CREATE TABLE groups (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            version INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            deleted_at TEXT
        )""")
    # The group's players. `key`: the name as compared (rules.game.name_key), unique among
    # the players not merged away; `merged_into`: the player this one became (a merge
    # keeps the row, so a record can still name who played).
    db.execute("""
        CREATE TABLE group_players (
            group_id TEXT NOT NULL REFERENCES groups(id),
            id INTEGER NOT NULL,
            name TEXT NOT NULL,
            key TEXT NOT NULL,
            created_at TEXT NOT NULL,
            merged_into INTEGER,
            PRIMARY KEY (group_id, id)
        )""")
    db.execute("CREATE UNIQUE INDEX group_players_key ON group_players (group_id, key)"
               " WHERE merged_into IS NULL")
    # The phones holding the group's link: a hash of the phone's identity scoped to the
    # group (tokens.scoped_hash(secret, "group:<id>")), never the identity. `n`: the
    # order phones came in (the group page names them "Phone 1", "Phone 2"...);
    # `creator`: the phone that made the group (it may remove the others); `removed_at`:
    # removed, its link no longer opens the group for it.
    db.execute("""
        CREATE TABLE group_phones (
            group_id TEXT NOT NULL REFERENCES groups(id),
            secret_hash TEXT NOT NULL,
            n INTEGER NOT NULL,
            creator INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            removed_at TEXT,
            PRIMARY KEY (group_id, secret_hash)
        ) WITHOUT ROWID""")
    # A table made for (or attached to) a group records its finished games there.
    db.execute("ALTER TABLE tables ADD COLUMN group_id TEXT REFERENCES groups(id)")
    db.execute("CREATE INDEX tables_group ON tables (group_id) WHERE group_id IS NOT NULL")
    # One row per finished game of a group's table: `game_no` counts the table's games
    # (1 = its first), so an undone or edited last hand rewrites or removes the same row
    # until a rematch moves the table on. `players` (names in seat order), `teams` (lists
    # of names, or NULL), `scores` (name or team label -> total), `winners` (names),
    # `settings` and `summary` (the game's final summary, for figures computed later) are
    # JSON. `deleted_at`: taken out of the record by a phone of the group (audited).
    db.execute("""
        CREATE TABLE group_games (
            id INTEGER PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id),
            table_id TEXT NOT NULL,
            game_no INTEGER NOT NULL,
            game TEXT NOT NULL,
            settings TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            players TEXT NOT NULL,
            teams TEXT,
            scores TEXT NOT NULL,
            winners TEXT NOT NULL,
            lower_wins INTEGER NOT NULL DEFAULT 0,
            summary TEXT NOT NULL,
            deleted_at TEXT,
            UNIQUE (table_id, game_no)
        )""")
    db.execute("CREATE INDEX group_games_recent ON group_games (group_id, finished_at)")
    # A recorded game per player: what the per-player figures are summed from as games
    # finish (never recomputed from every log). `team`: "A"/"B" in team games.
    db.execute("""
        CREATE TABLE group_game_players (
            game_id INTEGER NOT NULL REFERENCES group_games(id) ON DELETE CASCADE,
            group_id TEXT NOT NULL,
            player_id INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            team TEXT,
            score REAL,
            place INTEGER,
            won INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        )""")
    db.execute("CREATE INDEX group_game_players_player ON group_game_players"
               " (group_id, player_id)")
    # Every change to a group by its phones: `kind` ("create", "join", "remove_phone",
    # "rename", "add_player", "merge", "delete_game", "attach"...), `phone` (its number in
    # group_phones), what it was and what it became (JSON).
    db.execute("""
        CREATE TABLE group_audit (
            id INTEGER PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id),
            kind TEXT NOT NULL,
            phone INTEGER,
            old TEXT,
            new TEXT,
            created_at TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX group_audit_group ON group_audit (group_id, id)")


@migrations()
def m017_group_stats(db):
    # A group's statistics are kept as games finish, not recomputed on each view:
    # `group_games.facts` holds what the game's own figures read from its log
    # (companion.stats.facts_of_summary, JSON), stored with the record so that an edited or
    # undone last hand takes out of the total exactly what was folded in;
    # `group_stats.stats` is the running total (companion.stats add/remove, JSON) of the
    # group's recorded games not deleted, `games` their count. A group without a row (its
    # records made before this) has its total built from its records when first needed.
    db.execute("ALTER TABLE group_games ADD COLUMN facts TEXT")
    db.execute("""
        CREATE TABLE group_stats (
            group_id TEXT PRIMARY KEY REFERENCES groups(id),
            stats TEXT NOT NULL,
            games INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID""")


@migrations()
def m018_event_groups(db):
    # An event run for a group (a club): every game finished at its tables is recorded in
    # the group like any table of the group's (the tables get `tables.group_id` when a
    # round is seated). NULL: an event of no group, or its group was deleted.
    db.execute("ALTER TABLE events ADD COLUMN group_id TEXT REFERENCES groups(id)")


@migrations()
def m021_check_in_and_fixed_tables(db):
    # Check-in before round 1 and a fixed table per entrant: `checked_in` is set by the
    # director's tap or the player's own phone while the event's check-in is on; round 1
    # leaves out whoever isn't, marking them `no_show` (and dropped, so every later round
    # leaves them out too until the director checks them in late). `fixed_table` is the
    # table number an entrant keeps every round (accessibility), NULL for none.
    db.execute("ALTER TABLE event_entrants ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE event_entrants ADD COLUMN no_show INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE event_entrants ADD COLUMN fixed_table INTEGER")


@migrations()
def m022_event_audit_lookup(db):
    # The director's log read by event (the dashboard) and the latest announcements
    # (kind "announce"), which every players' page asks for at each refresh: an index
    # rather than a scan of every event's log.
    db.execute("CREATE INDEX IF NOT EXISTS event_audit_event_kind"
               " ON event_audit (event_id, kind, id)")
