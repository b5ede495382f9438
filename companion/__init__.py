"""Table Companion: a live shared score sheet and rule checker beside a real table."""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Flask is imported lazily so `companion.rules` stays free of it
    from flask import Flask

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """`templates/` or `static/`: inside the package when installed, else the repo's top level."""
    inside = PACKAGE_DIR / name
    return str(inside if inside.is_dir() else PACKAGE_DIR.parent / name)


def default_instance_path() -> str:
    """Where the database lives: $COMPANION_INSTANCE_PATH, the checkout's instance/, or ./instance."""
    env = os.environ.get("COMPANION_INSTANCE_PATH")
    if env:
        return str(Path(env).resolve())
    checkout = PACKAGE_DIR.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "instance").is_dir():
        return str(checkout / "instance")
    return str(Path.cwd() / "instance")


def make_private(path: str | Path) -> None:
    """Take group and others' permissions off a file this process owns (a database,
    key or backup made by an older version with 0644); nothing else is changed."""
    try:
        mode = os.stat(path).st_mode & 0o777
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
    except OSError:      # missing, or not ours to change: left as it is
        pass


#: A secret key shorter than this is refused: an empty or cut-off file would sign every
#: cookie with (almost) nothing.
MIN_SECRET_KEY_CHARS = 32


def _secret_key(instance_path: str) -> str:
    """A secret key kept in the instance folder, so every worker process shares it.

    Two processes may start on a fresh instance folder at once. The key is written whole to
    a temporary file and then linked into place: ``os.link`` fails if the key already
    exists, so the first writer wins and everyone reads a complete key (a reader never sees
    a file being written). A key file that is empty or too short stops the start with a
    plain error instead of serving with a useless key.
    """
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        tmp = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)       # atomic, and never replaces a key another process made
        except FileExistsError:
            pass
        except OSError:              # a file system without hard links: rename, if still free
            if not path.exists():
                os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    make_private(path)
    key = path.read_text().strip()
    if len(key) < MIN_SECRET_KEY_CHARS:
        raise RuntimeError(f"The secret key in {path} is empty or too short. Delete the file "
                           "and start again: a new key is made (everyone's phone then joins "
                           "its tables again).")
    return key


def create_app(test_config: dict | None = None) -> "Flask":
    """Build the app. `test_config` overrides everything (tests pass DATABASE etc.)."""
    from flask import Flask

    from .web.answers import SESSION_LIFETIME

    instance_path = (test_config or {}).get("INSTANCE_PATH") or default_instance_path()
    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True,
                template_folder=_asset_dir("templates"), static_folder=_asset_dir("static"))
    # The instance folder holds the database and the secret key: only this user may
    # look inside a folder the app makes (an existing one keeps the operator's modes;
    # `companion doctor` shows them).
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "companion.db"),
        # e.g. "http://192.168.1.23:8000": the base of every QR code and link (see
        # companion.web.urls); without it, the LAN address and the server's port.
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL") or None,
        # How many reverse proxies (nginx, Caddy) stand in front of this app: their
        # X-Forwarded-* headers are believed for exactly that many hops (web/proxy.py);
        # 0 ignores them. Checked at start: a bad value stops it with a plain error.
        TRUSTED_PROXIES=os.environ.get("COMPANION_TRUSTED_PROXIES", 0),
        LIVE_POLL_INTERVAL=0.05,     # seconds between reads of the changes table
        LIVE_KEEPALIVE=5.0,          # seconds between pings on a stream (a phone that left
                                     # is noticed at the next one)
        LIVE_MAX_SECONDS=300.0,      # a stream ends after this; the page reconnects
        STREAMS_PER_ADDRESS=200,     # open live streams from one address (web/streams.py)
        STREAM_FD_RESERVE=128,       # descriptors kept free for everything but streams
        JOIN_RATE_LIMIT="20 per minute",
        TABLE_CREATE_LIMIT=(30, 60.0),   # tables per address per minute (web/quotas.py)
        EVENT_CREATE_LIMIT=(10, 60.0),   # events per address per minute
        EVENT_TABLE_LIMIT=(2000, 3600.0),  # an event's tables per address per hour, counted
                                           # when a round is seated (web/quotas.py)
        # The RockIt board check (web/rockit_tools.py, web/offload.py): checks per address
        # (per worker process), where they run ("auto": a helper process under gevent,
        # inline otherwise; "process"; "inline"), how many may wait or run at once in a
        # worker's helper, and the seconds after which a check is stopped.
        TOOL_RATE_LIMIT="30 per minute",
        TOOL_LIMIT_DELAY=1.0,        # seconds a refusal over that limit waits (a flood's pace)
        TOOL_POOL="auto",
        TOOL_POOL_JOBS=4,
        TOOL_POOL_CAP=5.0,
        WTF_CSRF_TIME_LIMIT=None,    # a table page stays open for hours
        WTF_CSRF_SSL_STRICT=False,   # LAN servers are plain http; CSRF tokens still apply
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # The session cookie holds the CSRF secret: permanent, so a form or an entry kept
        # offline survives a browser restart; sent again only a month after it was last set
        # (web/answers.py), not with every answer.
        PERMANENT_SESSION_LIFETIME=SESSION_LIFETIME,
        SESSION_REFRESH_EACH_REQUEST=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        # Our forms are small: refuse huge bodies (413) rather than parse them, the same on
        # every Werkzeug version.
        MAX_CONTENT_LENGTH=200_000,
        MAX_FORM_MEMORY_SIZE=100_000,
        # Seconds a client has to send a request's whole body (web/bodies.py): one that
        # trickles it in gets a 408 instead of holding a worker's connection.
        BODY_TIMEOUT=10.0,
        COMPRESS_MIMETYPES=["text/html", "text/css", "application/javascript",
                            "text/javascript", "application/json", "image/svg+xml",
                            "application/manifest+json"],
        # Pages and fragments: brotli where the browser offers it (Chromium does to https://
        # and localhost; over plain http on the LAN it offers gzip). Level 5: a Rook table
        # page in ~0.35 ms, 9% smaller than gzip's level 6 (4 would save 0.1 ms for 7% more).
        # Static files come precompressed (web/assets.py).
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=5,
        COMPRESS_ALGORITHM_STREAMING=["gzip", "deflate"],
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from . import storage, web
    from .web.streams import raise_fd_limit

    app.config["FD_LIMIT"] = raise_fd_limit()   # many phones, many sockets: see streams.py
    storage.init_app(app)
    web.init_app(app)
    return app
