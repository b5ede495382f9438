"""Compile once per test process what every test app compiles the same way.

The suite makes about a thousand Flask apps (one per test, so no test sees another's
database, quotas or caches). Each new app compiles the same ~70 URL rules (Werkzeug builds
two URL builders per rule with Python's `compile`) and, on its first pages, the same Jinja
templates: about 0.2 s of CPU an app, measured, which was a fifth of the suite's CPU time.
Neither compilation depends on anything per app, so the first app's results serve the rest:

- templates: Jinja's own `BytecodeCache` hook, in memory for the process. A bucket's key is
  the template's name and file, and its checksum the source, so a changed or different
  template (a game installed by tests/game_install.py) is compiled afresh.
- URL builders: the code Werkzeug generates for a rule depends only on the rule's text and
  parsed trace, its defaults and whether unknown arguments are appended; the compiled function is
  shared and bound to each rule exactly as Werkzeug binds it.

The apps behave exactly as before: they run the same template code and build the same URLs;
only the repeated compiling is skipped. Nothing here is imported by the app itself.
"""
from __future__ import annotations

import jinja2
from flask import Flask
from werkzeug.routing.rules import Rule


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Jinja bytecode kept in a dict for the life of the test process."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


_BUILDERS: dict[tuple, object] = {}
_compile_builder = Rule._compile_builder


def _shared_builder(self: Rule, append_unknown: bool = True):
    """Werkzeug's `Rule._compile_builder`, compiled once per distinct rule shape."""
    defaults = self.defaults or {}
    try:
        key = (self.rule, tuple(self._trace), append_unknown,
               tuple(sorted((name, repr(value), type(self._converters.get(name)).__name__)
                            for name, value in defaults.items())))
        hash(key)
    except TypeError:  # an unhashable trace: compile as Werkzeug does
        return _compile_builder(self, append_unknown)
    builder = _BUILDERS.get(key)
    if builder is None:
        builder = _BUILDERS[key] = _compile_builder(self, append_unknown)
    return builder


def install() -> None:
    """Share the two compilations for every app this process makes from now on."""
    if "bytecode_cache" not in Flask.jinja_options:
        Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": MemoryBytecodeCache()}
    Rule._compile_builder = _shared_builder
