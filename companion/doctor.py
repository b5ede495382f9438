"""`companion doctor`: what phones will open, and whether this machine is set up to serve them.

It reads; it never changes anything: no instance folder, database or key is created, no
migration applied. Each line is "name: value", with a "!" line under it when something
needs the operator's attention.
"""
from __future__ import annotations

import os
import socket
import stat
import sys
from pathlib import Path
from urllib.parse import urlsplit

from companion.net import is_loopback_url, lan_addresses

#: Defaults of the settings read here (the app's own, companion/__init__.py).
DEFAULTS = {"STREAM_FD_RESERVE": 128, "TRUSTED_PROXIES": 0, "PUBLIC_URL": None}


def _settings(instance: Path) -> dict:
    """The settings this report needs: defaults, then instance/config.py, then env vars,
    read the way create_app reads them (without building the app)."""
    values = dict(DEFAULTS)
    config = instance / "config.py"
    if config.is_file():
        scope: dict = {"__file__": str(config)}
        try:
            exec(compile(config.read_text(), str(config), "exec"), scope)   # noqa: S102
        except Exception as exc:  # noqa: BLE001 - report it, carry on
            values["CONFIG_ERROR"] = f"{type(exc).__name__}: {exc}"
        values.update({k: v for k, v in scope.items() if k.isupper()})
    if os.environ.get("COMPANION_PUBLIC_URL"):
        values["PUBLIC_URL"] = os.environ["COMPANION_PUBLIC_URL"]
    if os.environ.get("COMPANION_TRUSTED_PROXIES"):
        try:
            values["TRUSTED_PROXIES"] = int(os.environ["COMPANION_TRUSTED_PROXIES"])
        except ValueError:
            values["TRUSTED_PROXIES"] = os.environ["COMPANION_TRUSTED_PROXIES"]
    return values


def _bind_port() -> int:
    bind = os.environ.get("COMPANION_BIND", "")
    if bind and not bind.startswith("unix:") and ":" in bind:
        try:
            return int(bind.rsplit(":", 1)[1])
        except ValueError:
            pass
    return 8000


def _reachable(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _mode(path: Path) -> str:
    try:
        st = path.lstat()
    except OSError:
        return "missing"
    mode = stat.S_IMODE(st.st_mode)
    note = "" if not mode & 0o077 else "  (others may read it: chmod go-rwx)"
    return f"{mode:04o}{note}"


def report(args, out=None) -> int:
    """Print the report; 0 when nothing needs attention, 1 otherwise."""
    out = out or sys.stdout
    from companion import default_instance_path
    from companion.web.streams import MAX_FD_LIMIT

    problems = 0

    def line(name: str, value: object) -> None:
        print(f"{name + ':' if name else '':<24}{value}", file=out)

    def warn(text: str) -> None:
        nonlocal problems
        problems += 1
        print(f"{'':<24}! {text}", file=out)

    instance = Path(default_instance_path())
    settings = _settings(instance)
    port = args.port or _bind_port()

    # What phones open.
    public = (args.public_url or settings.get("PUBLIC_URL") or "").rstrip("/") or None
    lan = lan_addresses()
    if public:
        url = public
        line("Phones open", f"{url}  (public URL)")
    else:
        url = f"http://{lan[0] if lan else '127.0.0.1'}:{port}"
        line("Phones open", f"{url}  (LAN address and port; set COMPANION_PUBLIC_URL to change)")
    if is_loopback_url(url):
        warn("this is a loopback address: to every phone it is the phone itself.")
    if urlsplit(url).scheme == "http":
        if public:
            warn("plain http: anyone on the network can read join links and cookies; "
                 "put an https proxy in front (docs/DEPLOY.md).")
        else:
            line("", "plain http on the LAN (fine at home; use https for a public event)")
    host = urlsplit(url).hostname or "127.0.0.1"
    target_port = urlsplit(url).port or (443 if urlsplit(url).scheme == "https" else 80)
    if _reachable(host, target_port):
        line("Server", f"answering at {host}:{target_port}")
    else:
        line("Server", f"no server answering at {host}:{target_port}")
    if lan and not public:
        for other in lan[1:]:
            line("", f"also http://{other}:{port}")

    # Open files and live phones.
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        unlimited = resource.RLIM_INFINITY
        usable = MAX_FD_LIMIT if hard == unlimited else min(hard, MAX_FD_LIMIT)
        reserve = int(settings.get("STREAM_FD_RESERVE") or 0)
        phones = max(usable - reserve, 0)
        shown = lambda v: "unlimited" if v == unlimited else str(v)   # noqa: E731
        line("Open files", f"soft {shown(soft)}, hard {shown(hard)}; the server raises its "
                           f"limit to {usable}")
        workers = os.environ.get("COMPANION_WORKERS", "2")
        line("Live phones", f"about {phones:,} per process ({usable} - {reserve} kept free); "
                            f"gunicorn with {workers} workers: {workers} times that")
        if phones < 1000:
            warn("raise the hard limit (ulimit -Hn 65536 as root, or LimitNOFILE=65536 in "
                 "the systemd unit) for more phones.")
    except ImportError:
        line("Open files", "unknown on this system")

    # Proxy.
    hops = settings.get("TRUSTED_PROXIES", 0)
    if hops:
        line("Trusted proxies", f"{hops} (X-Forwarded-For/-Proto/-Host/-Prefix of that many "
                                "hops are believed)")
        bind = os.environ.get("COMPANION_BIND", "")
        if bind.startswith("0.0.0.0") or bind.startswith("[::]"):
            warn("the server listens on every address: a client talking to it directly can "
                 "pretend to be anyone; bind it to 127.0.0.1 (COMPANION_BIND=127.0.0.1:8000).")
    else:
        line("Trusted proxies", "none (forwarded headers are ignored; behind a proxy set "
                                "COMPANION_TRUSTED_PROXIES=1)")

    # Languages: a game without a Japanese catalogue shows its own words in English.
    from companion import translations
    from companion.rules import GAMES

    english_only = translations.missing("ja", GAMES)
    if english_only:
        line("Languages", f"English, 日本語; in English only: {', '.join(english_only)} "
                          "(no Japanese catalogue yet: docs/I18N.md)")
    else:
        line("Languages", "English, 日本語 (every game)")

    # The instance folder.
    line("Instance", str(instance))
    if "CONFIG_ERROR" in settings:
        warn(f"config.py can't be read: {settings['CONFIG_ERROR']}")
    if not instance.is_dir():
        warn("no such folder yet (`companion serve` makes it).")
        return 1
    line("  folder", _mode(instance))
    if stat.S_IMODE(instance.stat().st_mode) & 0o077:
        problems += 1
    for name in ("companion.db", "companion.db-wal", "companion.db-shm", "secret_key",
                 "config.py"):
        path = instance / name
        if path.exists():
            mode = _mode(path)
            line(f"  {name}", mode)
            if "others may read" in mode:
                problems += 1

    # Migrations, read without applying them.
    database = instance / "companion.db"
    if not database.is_file():
        line("Migrations", "no database yet (the server makes it)")
    else:
        import sqlite3

        from companion.storage.migrations import migrations

        try:
            conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            import sqlite_utils
            pending = migrations.pending(sqlite_utils.Database(conn))
            conn.close()
        except sqlite3.Error as exc:
            line("Migrations", f"can't be read ({exc})")
            problems += 1
        else:
            if pending:
                line("Migrations", f"{len(pending)} pending (the server applies them when it "
                                   "starts)")
                problems += 1
            else:
                line("Migrations", "current")
    return 1 if problems else 0
