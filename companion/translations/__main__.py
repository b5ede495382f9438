"""``python -m companion.translations update|compile|init SLUG LANG`` (docs/I18N.md).

``update``   extract every marked message into the app's and each game's template and
             bring every language's ``.po`` in step (run from anywhere: the repository is
             found from this file); ``--root DIR --game SLUG`` does the same for a game laid
             out under another folder (tests/toygame), without the app's catalogue.
``compile``  write each ``.mo`` from its ``.po`` (under ``--root`` too).
``init``     start a game's catalogue in a language (after ``update``).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from . import compile_all, init, update


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.translations",
                                     description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("update", help="extract and update every catalogue")
    up.add_argument("--root", type=Path, help="a folder laid out like the repository")
    up.add_argument("--game", action="append", dest="games",
                    help="with --root: the game(s) under it (the app's catalogue is left alone)")
    comp = commands.add_parser("compile", help="compile every .po into its .mo")
    comp.add_argument("--root", type=Path)
    start = commands.add_parser("init", help="start a game's catalogue in a language")
    start.add_argument("slug")
    start.add_argument("language")
    start.add_argument("--root", type=Path)
    args = parser.parse_args(argv)
    if args.command == "update":
        if args.root is not None and not args.games:
            parser.error("--root needs --game SLUG")
        update(args.root, args.games, main=args.root is None)
    elif args.command == "compile":
        compile_all(args.root)
    else:
        init(args.slug, args.language, args.root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
