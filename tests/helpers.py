"""Helpers shared by every test suite (and the perf scripts): environment checks, a free
port, and reading HTML with a parser instead of regular expressions.

Pages are read with BeautifulSoup (its pure-Python "html.parser" builder; the `[test]` extra
installs it) and CSS selectors with soupsieve (docs/DECISIONS.md). `machine()` describes the
machine for the perf scripts' reports. There are no __init__.py files under tests/, so
pytest puts each conftest's folder on sys.path: tests/conftest.py makes this module
importable everywhere as `from helpers import ...`. A script run on its own
(`python tests/perf/bench_load.py`) puts tests/ on sys.path itself first.

Reading HTML: every function takes a page or fragment (a string) or an already parsed
`Node`; selectors are CSS as soupsieve reads them (quote an attribute value that isn't a
CSS identifier: `[data-trick="3"]`), e.g. `#sheet tfoot td[data-player]`.
"""
from __future__ import annotations

import importlib.util
import os
import re
import socket
import sys
import threading
from collections import OrderedDict

from bs4 import BeautifulSoup, SoupStrainer, Tag
from bs4.dammit import EntitySubstitution
from bs4.element import PreformattedString
from bs4.formatter import HTMLFormatter

__all__ = [
    "in_ci", "free_port",
    "Node", "Page", "parse", "select", "select_one", "text_of", "attr", "attrs", "links", "forms",
    "form_block", "inputs", "alerts", "csrf_from", "totals",
]


# ---------------------------------------------------------------- environment

def load_conftest():
    """tests/conftest.py as a module, for the perf scripts that run outside pytest: one copy
    of the server starter and the Chromium settings (path, flags, the phone's viewport)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conftest.py")
    spec = importlib.util.spec_from_file_location("companion_test_support", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def in_ci() -> bool:
    """True when the `CI` environment variable is set (to anything but 0/false/no)."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on `host` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def machine(*packages: str, chromium: str | None = None) -> dict:
    """What a benchmark ran on, for its JSON and report: the date (UTC), CPUs and their model,
    memory, OS, kernel, Python and SQLite versions, the 1-minute/5-minute/15-minute load
    average before it started, the installed versions of `packages` (a key each, with "_"
    for "-") and, given its path, Chromium's `--version`."""
    import platform
    import sqlite3
    import subprocess
    import time
    from importlib.metadata import PackageNotFoundError, version

    def lines(path: str) -> list[str]:
        try:
            with open(path) as fh:
                return fh.read().splitlines()
        except OSError:
            return []

    def field(path: str, key: str, sep: str) -> str | None:
        return next((line.split(sep, 1)[1].strip().strip('"') for line in lines(path)
                     if line.startswith(key)), None)

    mem_kb = field("/proc/meminfo", "MemTotal", ":")
    info = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "nproc": os.cpu_count(),
            "cpu": field("/proc/cpuinfo", "model name", ":") or platform.processor() or "?",
            "memory_gib": round(int(mem_kb.split()[0]) / 1024 / 1024, 1) if mem_kb else None,
            "os": field("/etc/os-release", "PRETTY_NAME", "=") or platform.platform(),
            "kernel": platform.release(), "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version, "loadavg_before": list(os.getloadavg())}
    for name in packages:
        try:
            info[name.replace("-", "_")] = version(name)
        except PackageNotFoundError:
            info[name.replace("-", "_")] = None
    if chromium is not None:
        try:
            info["chromium"] = subprocess.run([chromium, "--version"], capture_output=True,
                                              text=True, timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            info["chromium"] = "?"
    return info


# ---------------------------------------------------------------- the parsed page

NOT_SHOWN = frozenset({"style", "script"})


class _AsWritten(HTMLFormatter):
    """Writes an element the way the templates do: attributes in their order (BeautifulSoup
    sorts them by default) and `<input ...>` without a closing slash."""

    def __init__(self):
        super().__init__(entity_substitution=EntitySubstitution.substitute_xml,
                         void_element_close_prefix="")

    def attributes(self, tag):
        return list(tag.attrs.items())


AS_WRITTEN = _AsWritten()


class Node(Tag):
    """One element, a BeautifulSoup `Tag` (`attrs`, `get`, `parent`, `children`, `select`,
    `select_one`, ...) with the names the tests read it by: `tag`, `id`, `classes`, `text`
    (what a player sees), `html`, `start_tag` and `elements()`."""

    @property
    def tag(self) -> str:
        return self.name

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def html(self) -> str:
        """The element's HTML (outer HTML), written again from the parse: attributes in their
        order and double-quoted (single-quoted if the value has a `"`), a bare attribute as
        `name=""`, `&`, `<` and `>` as entities, every other character as itself."""
        return self.decode(formatter=AS_WRITTEN)

    @property
    def start_tag(self) -> str:
        """The element's start tag, as `html` writes it."""
        quoted = EntitySubstitution.quoted_attribute_value
        return "<" + self.name + "".join(
            f" {name}={quoted(AS_WRITTEN.attribute_value(value))}"
            for name, value in AS_WRITTEN.attributes(self)) + ">"

    def strings(self):
        """The text below, in order: not a <style>'s or a <script>'s (never shown), nor a
        comment or the doctype."""
        for child in self.children:
            if isinstance(child, Tag):
                if child.name not in NOT_SHOWN:
                    yield from Node.strings(child)
            elif not isinstance(child, PreformattedString):
                yield child

    @property
    def text(self) -> str:
        """The text inside (tags dropped, entities decoded, whitespace collapsed)."""
        return " ".join(" ".join(self.strings()).split())

    def elements(self):
        """Every element below this one, in document order."""
        return self.find_all(True)


class Page(Node, BeautifulSoup):
    """A parsed page or fragment: the document, itself a `Node` (its `tag` is "[document]")."""


#: The last pages parsed, by (text, the one tag kept or None for the whole page): tests read
#: one page several times over (`attr`, `text_of`, `inputs`...), and it is parsed once.
_PARSED: OrderedDict[tuple[str, str | None], Page] = OrderedDict()
_KEPT = 16
_PARSED_LOCK = threading.Lock()      # some tests read answers in several threads at once


def parse(html: str | Node, only: str | None = None) -> Node:
    """The parsed document (a `Page`); an element is returned as it is. With `only` (a tag
    name) and a text not parsed yet, just the `only` elements (with all they hold) are built:
    BeautifulSoup builds a whole page at about two and a half times the cost of reading it,
    and `form_block`, `inputs` and `csrf_from` need no more. The parse is shared between
    calls with the same text: read it, don't change it."""
    if isinstance(html, Tag):
        return html
    with _PARSED_LOCK:
        for key in ((html, None), (html, only)):
            if key in _PARSED:
                _PARSED.move_to_end(key)
                return _PARSED[key]
    # `class` stays one string, as it is in the page (soupsieve splits it for `.class`).
    page = Page(html, "html.parser", element_classes={Tag: Node}, multi_valued_attributes=None,
                parse_only=SoupStrainer(only) if only else None)
    with _PARSED_LOCK:
        _PARSED[(html, only)] = page
        if len(_PARSED) > _KEPT:
            _PARSED.popitem(last=False)
    return page


# ---------------------------------------------------------------- reading pages

def select(html: str | Node, selector: str) -> list[Node]:
    """Every element matching the CSS `selector`, in document order."""
    return parse(html).select(selector)


def select_one(html: str | Node, selector: str) -> Node:
    """The first element matching `selector`; fails the test if there is none."""
    node = parse(html).select_one(selector)
    if node is None:
        page = html.html if isinstance(html, Node) else html
        raise AssertionError(f"no {selector!r} in the page:\n{page[:3000]}")
    return node


def text_of(html: str | Node, selector: str | None = None) -> str:
    """The visible text of a page, or of its first element matching `selector` (tags
    dropped, entities decoded, whitespace collapsed)."""
    node = parse(html)
    return (select_one(node, selector) if selector else node).text


def attr(html: str | Node, selector: str, name: str) -> str | None:
    """Attribute `name` (entities decoded) of the first element matching `selector`, which
    must exist; None if that element has no such attribute."""
    return select_one(html, selector).attrs.get(name)


def attrs(html: str | Node, selector: str, name: str) -> list[str]:
    """Attribute `name` of every element matching `selector` that has it, in page order."""
    return [n.attrs[name] for n in select(html, selector) if name in n.attrs]


def links(html: str | Node, selector: str = "a[href]") -> list[str]:
    """The href of every link (entities decoded, so `&amp;` is `&`)."""
    return attrs(html, selector, "href")


def forms(html: str | Node) -> list[Node]:
    """Every <form> of the page."""
    return parse(html, only="form").select("form")


def form_block(html: str | Node, marker: str) -> str:
    """The source of the first <form> whose start tag contains `marker` (e.g.
    'id="entry-form"', 'class="undo"', "/rematch"); fails the test if there is none."""
    for form in forms(html):
        if marker in form.start_tag:
            return form.html
    page = html.html if isinstance(html, Node) else html
    raise AssertionError(f"no <form> with {marker!r} in the page:\n{page[:3000]}")


def inputs(html: str | Node) -> dict[str, str]:
    """name -> value of every <input> (the first one wins per name; no value is "")."""
    found: dict[str, str] = {}
    for node in parse(html, only="input").select("input[name]"):
        found.setdefault(node.attrs["name"], node.attrs.get("value", ""))
    return found


def alerts(html: str | Node) -> list[str]:
    """The message of every `role="alert"` element: the text of the <p> it starts with
    (an alert that doesn't start with a <p> has no message here)."""
    found = []
    for alert in select(html, '[role="alert"]'):
        first = next((c for c in alert.children if not (isinstance(c, str) and not c.strip())),
                     None)
        if isinstance(first, Node) and first.tag == "p":
            found.append(first.text)
    return found


def csrf_from(html: str | Node) -> str:
    """The page's CSRF token: a `csrf_token` hidden input's, else the one in `<body
    hx-headers...>` (the header htmx sends)."""
    for node in parse(html, only="input").select('input[name="csrf_token"]'):
        if node.attrs.get("value"):
            return node.attrs["value"]
    for node in parse(html).elements():
        for name, value in node.attrs.items():
            match = name.startswith("hx-headers") and re.search(
                r'"X-CSRFToken":\s*"([^"]+)"', value)
            if match:
                return match.group(1)
    raise AssertionError("no CSRF token in the page")


def totals(html: str | Node) -> dict[str, int]:
    """The score sheet's totals row: player name -> total (`td[data-player]` cells)."""
    return {node.attrs["data-player"]: int(node.text)
            for node in select(html, "td[data-player]") if re.fullmatch(r"-?\d+", node.text)}
