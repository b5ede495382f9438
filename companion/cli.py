"""The `companion` command: serve the app on the LAN, export a table's log."""
from __future__ import annotations

import argparse
import contextlib
import json
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
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.")
    return 0


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
        print(f"companion: there is no database at {database} (set COMPANION_INSTANCE_PATH "
              "to the folder `companion serve` uses).", file=sys.stderr)
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
        table = _find_table(db, args.table)
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
    try:
        size = backup_to(app.config["DATABASE"], target)
    except (OSError, FileExistsError, ValueError) as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 2
    print(f"Backed up {app.config['DATABASE']} to {target} ({size:,} bytes).")
    return 0


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="serve the app on this machine's network")
    p_serve.add_argument("--host", default=None,
                         help="address to listen on (default: all; 127.0.0.1 with --behind-proxy)")
    p_serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p_serve.add_argument("--public-url", help="the URL phones should use, if not the LAN address")
    p_serve.add_argument("--quiet", action="store_true", help="don't log every request")
    p_serve.add_argument("--behind-proxy", action="store_true",
                         help="trust one reverse proxy's X-Forwarded-* headers (nginx, Caddy)")
    p_serve.set_defaults(func=serve)
    p_export = sub.add_parser("export", help="print a table's log as JSON")
    p_export.add_argument("table", help="the table's id (from its URL) or its join code")
    p_export.add_argument("-o", "--output", help="write to this new file instead of the screen")
    p_export.add_argument("--force", action="store_true", help="replace the --output file")
    p_export.set_defaults(func=export)
    p_backup = sub.add_parser("backup", help="write a consistent copy of the database")
    p_backup.add_argument("path", help="the new file (or a folder) for the copy; never overwritten")
    p_backup.set_defaults(func=backup)
    p_prune = sub.add_parser("prune", help="remove finished or retired tables nobody has opened for long")
    p_prune.add_argument("--older-than", required=True, metavar="AGE",
                         help="e.g. 90d (days), 12w (weeks) or 36h (hours)")
    p_prune.add_argument("--dry-run", action="store_true", help="only count them")
    p_prune.set_defaults(func=prune)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `companion` console script."""
    args = build_parser().parse_args(_ids_are_not_options(sys.argv[1:] if argv is None else argv))
    return args.func(args)


def _ids_are_not_options(argv: list[str]) -> list[str]:
    """A table id may start with "-" (ids are URL-safe base64): `export -abc` means the
    table "-abc", not an option, so put "--" before the first word that is no option of
    export's."""
    if not argv or argv[0] != "export":
        return list(argv)
    known = {"-o", "--output", "--force", "-h", "--help", "--"}
    out, i = ["export"], 1
    while i < len(argv):
        word = argv[i]
        if word in ("-o", "--output") and i + 1 < len(argv):
            out += [word, argv[i + 1]]
            i += 2
            continue
        if word.startswith("-") and word not in known and not word.startswith("--output="):
            return out + ["--"] + argv[i:] if "--" not in argv[:i] else out + argv[i:]
        out.append(word)
        i += 1
    return out


if __name__ == "__main__":
    sys.exit(main())
