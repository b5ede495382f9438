"""Helpers shared by every test suite (and the perf scripts): environment checks, a free
port, and reading HTML with a parser instead of regular expressions.

Standard library only (CI installs just the `[test]` extra). `machine()` describes the machine
for the perf scripts' reports. There are no __init__.py files
under tests/, so pytest puts each conftest's folder on sys.path: tests/conftest.py makes
this module importable everywhere as `from helpers import ...`. A script run on its own
(`python tests/perf/bench_load.py`) puts tests/ on sys.path itself first.

Reading HTML: every function takes a page or fragment (a string) or an already parsed
`Node`. Selectors are a small CSS subset: `tag`, `#id`, `.class`, `[attr]`, `[attr=v]`
(also `~=`, `^=`, `$=`, `*=`), compounds of those (`tr.rk-row[data-trick="3"]`), and the
descendant (` `) and child (`>`) combinators, e.g. `#sheet tfoot td[data-player]`.
"""
from __future__ import annotations

import importlib.util
import os
import re
import socket
import sys
from html.parser import HTMLParser

__all__ = [
    "in_ci", "free_port",
    "Node", "parse", "select", "select_one", "text_of", "attr", "attrs", "links", "forms",
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


# ---------------------------------------------------------------- a tiny DOM

VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# An open <li> is closed by the next <li>, and so on (HTML's optional end tags).
_CLOSES = {"li": {"li"}, "option": {"option"}, "tr": {"tr", "td", "th"}, "td": {"td", "th"},
           "th": {"td", "th"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}}


NOT_SHOWN = frozenset({"style", "script"})


class Node:
    """One element: `tag`, `attrs` (name -> value, entities decoded), `children` (Nodes and
    text strings), `parent`, `start_tag` (its start tag's source) and `html` (its exact
    source, start tag to end tag)."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None, source: str,
                 start: int):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []
        self._source, self._start, self._end = source, start, len(source)
        self.start_tag = ""

    def __repr__(self) -> str:
        return f"<Node {self.html[:80]!r}>"

    @property
    def html(self) -> str:
        """The element's own source text (outer HTML)."""
        return self._source[self._start:self._end]

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def get(self, name: str, default=None):
        return self.attrs.get(name, default)

    def strings(self):
        """The text nodes below, in order; not a <style>'s or a <script>'s (never shown)."""
        for child in self.children:
            if isinstance(child, str):
                yield child
            elif child.tag not in NOT_SHOWN:
                yield from child.strings()

    @property
    def text(self) -> str:
        """The text inside (tags dropped, entities decoded, whitespace collapsed)."""
        return re.sub(r"\s+", " ", " ".join(self.strings())).strip()

    def elements(self):
        """Every element below this one, in document order."""
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.elements()

    def select(self, selector: str) -> list[Node]:
        chain = _parse_selector(selector)
        return [node for node in self.elements() if _matches(node, chain)]

    def select_one(self, selector: str) -> Node | None:
        found = self.select(selector)
        return found[0] if found else None


class _Builder(HTMLParser):
    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.source = source
        # Where each line starts: HTMLParser.getpos() counts lines by "\n" alone.
        self.lines = [0] + [m.end() for m in re.finditer("\n", source)]
        self.root = Node("#document", {}, None, source, 0)
        self.stack = [self.root]

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        closes = _CLOSES.get(tag)
        if closes and self.stack[-1].tag in closes:
            self._close(len(self.stack) - 1, self._offset())
        parent = self.stack[-1]
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, parent,
                    self.source, self._offset())
        node.start_tag = self.get_starttag_text() or ""
        parent.children.append(node)
        if tag in VOID:
            node._end = node._start + len(node.start_tag)
        else:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self._close(len(self.stack) - 1, self._offset() + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                at = self._offset()
                end = self.source.find(">", at)
                self._close(depth, end + 1 if end >= 0 else len(self.source))
                return                                # an end tag nothing opened: ignored

    def _close(self, depth: int, end: int) -> None:
        for node in self.stack[depth:]:
            node._end = end
        del self.stack[depth:]

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str | Node) -> Node:
    """The parsed document (a `#document` Node); a Node is returned as it is."""
    if isinstance(html, Node):
        return html
    builder = _Builder(html)
    builder.feed(html)
    builder.close()
    return builder.root


_COMPOUND = re.compile(r"""
    (?P<tag>[\w-]+|\*)
  | \#(?P<id>[\w-]+)
  | \.(?P<cls>[\w-]+)
  | \[\s*(?P<attr>[\w:-]+)\s*(?:(?P<op>[~^$*]?=)\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\]\s]+))\s*)?\]
""", re.X)
_SELECTORS: dict[str, list] = {}


def _parse_selector(selector: str) -> list:
    """`a > b c` -> [(None, a), ('>', b), (' ', c)], each compound a list of tests."""
    if selector in _SELECTORS:
        return _SELECTORS[selector]
    chain, combinator, rest = [], None, selector.strip()
    while rest:
        tests, pos = [], 0
        while pos < len(rest) and rest[pos] not in " >\t\n":
            m = _COMPOUND.match(rest, pos)
            if not m:
                raise ValueError(f"unsupported selector {selector!r} at {rest[pos:]!r}")
            value = next((v for v in (m["dq"], m["sq"], m["bare"]) if v is not None), None)
            tests.append((m["tag"], m["id"], m["cls"], m["attr"], m["op"], value))
            pos = m.end()
        chain.append((combinator, tests))
        rest = rest[pos:]
        stripped = rest.lstrip()
        combinator = ">" if stripped.startswith(">") else " "
        rest = stripped[1:].lstrip() if combinator == ">" else stripped
    _SELECTORS[selector] = chain
    return chain


def _compound_matches(node: Node, tests) -> bool:
    for tag, id_, cls, name, op, value in tests:
        if tag and tag != "*" and node.tag != tag:
            return False
        if id_ and node.attrs.get("id") != id_:
            return False
        if cls and cls not in node.classes:
            return False
        if name:
            have = node.attrs.get(name)
            if have is None:
                return False
            if op == "=" and have != value:
                return False
            if op == "~=" and value not in have.split():
                return False
            if op == "^=" and not have.startswith(value):
                return False
            if op == "$=" and not have.endswith(value):
                return False
            if op == "*=" and value not in have:
                return False
    return True


def _matches(node: Node, chain) -> bool:
    combinator, tests = chain[-1]
    if not _compound_matches(node, tests):
        return False
    if len(chain) == 1:
        return True
    parent = node.parent
    if combinator == ">":
        return parent is not None and parent.tag != "#document" and _matches(parent, chain[:-1])
    while parent is not None and parent.tag != "#document":
        if _matches(parent, chain[:-1]):
            return True
        parent = parent.parent
    return False


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
    return select(html, "form")


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
    for node in select(html, "input[name]"):
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
    doc = parse(html)
    for node in doc.select('input[name="csrf_token"]'):
        if node.attrs.get("value"):
            return node.attrs["value"]
    for node in doc.elements():
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
