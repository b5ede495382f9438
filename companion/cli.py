"""The `companion` command: serve the app on the LAN, export a table's log."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

from companion.net import is_loopback_url, lan_addresses


def serve(args: argparse.Namespace) -> int:
    """Run the app under gevent's WSGI server, printing the LAN URL and its QR code."""
    from gevent import monkey

    monkey.patch_all()
    from gevent.pywsgi import WSGIServer

    from companion import create_app
    from companion.web.qr import qr_terminal

    if args.host is None:
        # Behind a proxy only the proxy may reach the backend: a phone talking to it
        # directly could write its own X-Forwarded-For.
        args.host = "127.0.0.1" if args.behind_proxy else "0.0.0.0"
    try:
        app = create_app()
    except RuntimeError as exc:     # a bad setting (secret key, TRUSTED_PROXIES): one line
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    if args.behind_proxy:
        app.config["TRUSTED_PROXIES"] = 1
    if args.public_url:
        app.config["PUBLIC_URL"] = args.public_url.rstrip("/")
    urls = _urls(args)
    main_url = (args.public_url or app.config.get("PUBLIC_URL") or urls[0]).rstrip("/")
    if (not app.config.get("PUBLIC_URL") and args.host not in ("0.0.0.0", "::")
            and not app.config["TRUSTED_PROXIES"]):
        app.config["PUBLIC_URL"] = main_url
    app.config["LAN_URL"] = main_url
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        print(f"Table Companion is running behind a proxy: it trusts {hops} proxy "
              f"hop{'s' if hops != 1 else ''} (X-Forwarded-For/-Proto/-Host/-Prefix) and "
              f"listens on {args.host}:{args.port}.")
        if app.config.get("PUBLIC_URL"):
            print(f"QR codes and links carry {app.config['PUBLIC_URL']}.\n")
        else:
            print("QR codes and links carry the address the proxy reports for each request "
                  "(set --public-url to fix one).\n")
    elif is_loopback_url(main_url):
        # 127.0.0.1 (or localhost) is this computer to every device: a phone opening it
        # reaches itself, never this server. Say so instead of printing a useless QR.
        print("Table Companion is running, but only this computer can open it:\n")
        print(f"    {main_url}\n")
        print(f"Phones can't reach {args.host}: to every phone that address is the phone "
              "itself.\nTo let phones on the same Wi-Fi join, stop this (Ctrl+C) and run:\n\n"
              f"    companion serve --host 0.0.0.0 --port {args.port}\n")
    else:
        print("Table Companion is running. On a phone on the same Wi-Fi, open:\n")
        print(f"    {main_url}\n")
        print(qr_terminal(main_url))
    for other in urls[1:]:
        print(f"  also: {other}")
    print(f"Database: {app.config['DATABASE']}")
    print("Press Ctrl+C to stop.", flush=True)
    server = WSGIServer((args.host, args.port), app, log=None if args.quiet else "default")
    _stop_on_signals(server)
    try:
        server.serve_forever(stop_timeout=STOP_TIMEOUT)
    except KeyboardInterrupt:
        _end_streams()
    print("\nStopped.")
    return 0


#: Seconds `companion serve` waits for answers under way when told to stop.
STOP_TIMEOUT = 2.0


def _end_streams() -> None:
    """End every live stream now (each phone reconnects when the server is back)."""
    import gevent

    from companion.web import streams

    gevent.spawn(streams.stop_all).join(1)


def _stop_on_signals(server) -> None:
    """SIGTERM (systemd, docker, kill) stops the server the way Ctrl+C does: live streams
    end at once, answers under way get STOP_TIMEOUT seconds, then the process exits."""
    import signal

    import gevent

    def stop() -> None:
        _end_streams()
        server.stop(timeout=STOP_TIMEOUT)

    gevent.signal_handler(signal.SIGTERM, lambda: gevent.spawn(stop))


def _urls(args: argparse.Namespace) -> list[str]:
    if args.host in ("0.0.0.0", "::"):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [args.host]
    return [f"http://{host}:{args.port}" for host in hosts]


def _existing_database() -> str | None:
    """The database a command reads, or None (with a one-line message) when there is none:
    reading commands never create an instance folder or an empty database."""
    from companion import default_instance_path

    instance = Path(default_instance_path())
    database = instance / "companion.db"
    if not database.is_file():
        print(f"companion: there is no database at {database} (give --instance, or set "
              "COMPANION_INSTANCE_PATH, to the folder `companion serve` uses).",
              file=sys.stderr)
        return None
    return str(database)


@contextlib.contextmanager
def _open_database():
    """The instance's database (migrated by the app), closed afterwards; None, after a
    one-line message, when there is none (see :func:`_existing_database`)."""
    if _existing_database() is None:
        yield None
        return
    from companion import create_app
    from companion.storage import connect

    db = connect(create_app().config["DATABASE"])
    try:
        yield db
    finally:
        db.conn.close()


def export(args: argparse.Namespace) -> int:
    """Print a table's whole log (or write it to a new file) as JSON."""
    from companion import tables

    wanted = args.table_option or args.table
    if not wanted or (args.table_option and args.table and args.table_option != args.table):
        print("companion export: give one table: its id or join code (or --table ID).",
              file=sys.stderr)
        return 2
    output = Path(args.output) if args.output else None
    if output is not None:
        if output.exists() and not args.force:
            print(f"companion export: {output} already exists; add --force to replace it.",
                  file=sys.stderr)
            return 2
        if not output.parent.is_dir():
            print(f"companion export: the folder {output.parent} doesn't exist.",
                  file=sys.stderr)
            return 2
    with _open_database() as db:
        if db is None:
            return 2
        table = _find_table(db, wanted)
        if table is None:
            return 2
        data = tables.export_table(db, table)
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def _find_table(db, wanted: str):
    """The table with this id, else with this join code; None after a one-line message."""
    from companion import tables
    from companion.tables import tokens

    try:
        return tables.get_table(db, wanted)
    except tables.NotFound:
        pass
    code = tokens.normalize_code(wanted)
    if len(code) == tokens.CODE_LENGTH and set(code) <= set(tokens.CODE_ALPHABET):
        try:
            return tables.find_by_code(db, code)
        except tables.TableError as exc:
            print(f"companion export: {exc.message}", file=sys.stderr)
            return None
    print(f"companion export: no table with the id {wanted!r}.", file=sys.stderr)
    return None


def backup(args: argparse.Namespace) -> int:
    """Write a consistent copy of the database (safe while the server runs)."""
    from companion import create_app
    from companion.storage import backup_to

    if _existing_database() is None:
        return 2
    app = create_app()
    target = Path(args.path)
    if target.is_dir():
        target = target / "companion-backup.db"
    key_target = target.with_name(target.name + ".secret_key")
    if key_target.exists() or key_target.is_symlink():
        print(f"companion backup: {key_target} already exists; choose a new file name.",
              file=sys.stderr)
        return 2
    try:
        size = backup_to(app.config["DATABASE"], target)
    except (OSError, FileExistsError, ValueError) as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 2
    try:
        _write_private(key_target, str(app.config["SECRET_KEY"]) + "\n")
    except OSError as exc:
        print(f"companion backup: the database was copied to {target}, but its secret key "
              f"could not be written to {key_target}: {exc}", file=sys.stderr)
        return 2
    print(f"Backed up {app.config['DATABASE']} to {target} ({size:,} bytes), and its secret "
          f"key to {key_target}. Both are readable by you only; keep them together.")
    return 0


def _write_private(path: Path, text: str) -> None:
    """Write a new file readable by this user only (never through a link, never over a file)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


def prune(args: argparse.Namespace) -> int:
    """Remove finished tables nobody has opened for a long time, and tournament tables no
    seating needs any more (an event keeps the tables of its seated rounds)."""
    from companion.tables.prune import parse_age, prune as prune_tables

    try:
        age = parse_age(args.older_than)
    except ValueError as exc:
        print(f"companion prune: {exc}", file=sys.stderr)
        return 2
    with _open_database() as db:
        if db is None:
            return 2
        count = prune_tables(db, age, dry_run=args.dry_run)
    verb = "Would remove" if args.dry_run else "Removed"
    print(f"{verb} {count} table{'s' if count != 1 else ''} nobody has opened for "
          f"{args.older_than} (finished games, and tournament tables of rounds seated again).")
    return 0


def doctor(args: argparse.Namespace) -> int:
    """Print what phones will open and how this machine is set up (changes nothing)."""
    from companion.doctor import report

    return report(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion")
    # Every command takes --instance (the folder with companion.db and secret_key), so a
    # cron line needs no environment variable.
    instance = argparse.ArgumentParser(add_help=False)
    instance.add_argument("--instance", metavar="PATH",
                          help="the instance folder (companion.db, secret_key, config.py); "
                               "default: $COMPANION_INSTANCE_PATH, else ./instance")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", parents=[instance],
                             help="serve the app on this machine's network")
    p_serve.add_argument("--host", default=None,
                         help="address to listen on (default: all; 127.0.0.1 with --behind-proxy)")
    p_serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p_serve.add_argument("--public-url", help="the URL phones should use, if not the LAN address")
    p_serve.add_argument("--quiet", action="store_true", help="don't log every request")
    p_serve.add_argument("--behind-proxy", action="store_true",
                         help="trust one reverse proxy's X-Forwarded-* headers (nginx, Caddy)")
    p_serve.set_defaults(func=serve)
    p_export = sub.add_parser("export", parents=[instance], help="print a table's log as JSON")
    p_export.add_argument("table", nargs="?",
                          help="the table's id (from its URL) or its join code")
    p_export.add_argument("--table", dest="table_option", metavar="ID",
                          help="the same, as an option (for an id that starts with '-')")
    p_export.add_argument("-o", "--output", help="write to this new file instead of the screen")
    p_export.add_argument("--force", action="store_true", help="replace the --output file")
    p_export.set_defaults(func=export)
    p_backup = sub.add_parser("backup", parents=[instance],
                              help="write a consistent copy of the database and its secret key")
    p_backup.add_argument("path", help="the new file (or a folder) for the copy; never "
                                       "overwritten. The key goes to PATH.secret_key")
    p_backup.set_defaults(func=backup)
    p_prune = sub.add_parser("prune", parents=[instance],
                             help="remove finished or retired tables nobody has opened for long")
    p_prune.add_argument("--older-than", required=True, metavar="AGE",
                         help="e.g. 90d (days), 12w (weeks) or 36h (hours)")
    p_prune.add_argument("--dry-run", action="store_true", help="only count them")
    p_prune.set_defaults(func=prune)
    p_doctor = sub.add_parser("doctor", parents=[instance],
                              help="check what phones will open, limits, proxy and files")
    p_doctor.add_argument("--port", type=int, help="the port the server listens on (default: "
                                                   "from $COMPANION_BIND, else 8000)")
    p_doctor.add_argument("--public-url", help="the URL phones should use, as given to serve")
    p_doctor.set_defaults(func=doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `companion` console script."""
    args = build_parser().parse_args(_ids_are_not_options(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "instance", None):
        return args.func(args)
    # The app and the commands find the instance through this variable; set it for the
    # command only (tests call main() in-process).
    before = os.environ.get("COMPANION_INSTANCE_PATH")
    os.environ["COMPANION_INSTANCE_PATH"] = str(Path(args.instance).expanduser().resolve())
    try:
        return args.func(args)
    finally:
        if before is None:
            os.environ.pop("COMPANION_INSTANCE_PATH", None)
        else:
            os.environ["COMPANION_INSTANCE_PATH"] = before


#: export's options that take a value, and those that don't.
_EXPORT_VALUED = {"-o", "--output", "--instance", "--table"}
_EXPORT_FLAGS = {"--force", "-h", "--help"}


def _ids_are_not_options(argv: list[str]) -> list[str]:
    """A table id may start with "-" (ids are URL-safe base64): in `export -abc -o FILE`,
    "-abc" is the table, not an option. Export's own options (in any order, before or after
    the id) are kept; every other word is the id, put after "--"."""
    if not argv or argv[0] != "export":
        return list(argv)
    options, words, i = [], [], 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            words += argv[i + 1:]
            break
        if word in _EXPORT_VALUED and i + 1 < len(argv):
            # One word, so a value starting with "-" (an id, a file) is taken as a value.
            options.append(f"{'--output' if word == '-o' else word}={argv[i + 1]}")
            i += 2
            continue
        if word in _EXPORT_FLAGS or word.split("=", 1)[0] in _EXPORT_VALUED - {"-o"}:
            options.append(word)
        else:
            words.append(word)
        i += 1
    return ["export", *options, *(["--", *words] if words else [])]


if __name__ == "__main__":
    sys.exit(main())
