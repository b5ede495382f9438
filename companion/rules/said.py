"""Sentences that remember how they were made, so a translation layer can remake them.

A rules module builds every player-facing sentence from a table of English ``str.format``
templates. A :class:`Said` is that sentence as a plain ``str`` (so every caller, test and
JSON dump sees ordinary English text) that also carries the template, its context and the
values filled in, some of them Saids themselves ("draw {cards}" with ``cards`` = "2
cards"). :func:`rebuild` remakes the sentence with another language's templates.

Three shapes: a message (``template`` + ``values``), sentences joined by ``sep`` (``parts``)
and a list ending with a conjunction ("head, face or profile": ``parts`` + ``conj``).

Pure Python: no Flask, no gettext. The web passes a ``lookup(context, template)`` function.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["LIST_PATTERN", "LIST_SEPARATOR", "N_", "Said", "extract", "fields_of", "joined",
           "listing", "message", "rebuild", "revived", "said_of", "storable", "templates_in"]

#: The msgids (context "list") a translation uses to lay out a :func:`listing`.
LIST_SEPARATOR = ", "
LIST_PATTERN = "{items} {conj} {last}"

Lookup = Callable[[str, str], str]


class Said(str):
    """A sentence (an ordinary ``str``) plus how it was built; see the module docstring."""

    context: str | None
    template: str | None
    values: Mapping[str, Any]
    parts: tuple[Any, ...] | None
    sep: str
    conj: Any

    def __new__(cls, text: str, *, context: str | None = None, template: str | None = None,
                values: Mapping[str, Any] | None = None, parts: Iterable[Any] | None = None,
                sep: str = "", conj: Any = None) -> "Said":
        """The sentence ``text``; the keywords record how it was made (see :func:`message`)."""
        said = super().__new__(cls, text)
        said.context, said.template = context, template
        said.values = dict(values or {})
        said.parts = None if parts is None else tuple(parts)
        said.sep, said.conj = sep, conj
        return said

    # A Said is immutable like any str: copies may share it (the rules deep-copy states).
    def __copy__(self) -> "Said":
        return self

    def __deepcopy__(self, memo: dict) -> "Said":
        return self

    def __reduce__(self):
        """Pickle with its recipe (e.g. across worker processes)."""
        return (_remake, (str(self), self.context, self.template, self.values, self.parts,
                          self.sep, self.conj))


def _remake(text, context, template, values, parts, sep, conj) -> Said:
    return Said(text, context=context, template=template, values=values, parts=parts, sep=sep,
                conj=conj)


#: The key a :func:`storable` Said is stored under in JSON (a dict of this one key).
KEPT_KEY = "said"


def storable(value: Any) -> Any:
    """`value` (a summary: dicts, lists, strings, numbers) ready for JSON with every Said
    kept whole: as ``{"said": [text, context, template, values, parts, sep, conj]}``
    rather than as its English text, so a record read back later (:func:`revived`) is
    still shown in the reader's language. A plain str, number or None is unchanged."""
    if isinstance(value, Said):
        return {KEPT_KEY: [str(value), value.context, value.template, storable(value.values),
                           storable(list(value.parts)) if value.parts is not None else None,
                           value.sep, storable(value.conj)]}
    if isinstance(value, Mapping):
        return {k: storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v) for v in value]
    return value


def revived(value: Any) -> Any:
    """The inverse of :func:`storable`: JSON read back, its kept sentences Saids again. A
    malformed kept entry comes back as its English text (or as it is)."""
    if isinstance(value, Mapping):
        if len(value) == 1 and KEPT_KEY in value:
            recipe = value[KEPT_KEY]
            if isinstance(recipe, list) and len(recipe) == 7 and isinstance(recipe[0], str):
                text, context, template, values, parts, sep, conj = recipe
                return Said(text, context=context, template=template,
                            values=revived(values) if isinstance(values, Mapping) else None,
                            parts=revived(parts) if isinstance(parts, list) else None,
                            sep=sep if isinstance(sep, str) else "", conj=revived(conj))
            return value
        return {k: revived(v) for k, v in value.items()}
    if isinstance(value, list):
        return [revived(v) for v in value]
    return value


def N_(text: str) -> str:
    """Mark a fixed sentence or label for the catalogue (``pybabel extract -k N_``).

    It returns ``text`` unchanged: the words are translated where they are shown (the web's
    ``say()``). The one marker for every layer: rules, services and web code import it here.
    """
    return text


def message(context: str, template: str, **values: Any) -> Said:
    """``template.format(**values)`` as a Said (``context`` names the template table)."""
    return Said(template.format(**values), context=context, template=template, values=values)


def said_of(error: BaseException) -> Any:
    """An exception's sentence, keeping a Said (``str(error)`` would lose its recipe)."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) else str(error)


def joined(parts: Iterable[Any], sep: str = " ") -> Said:
    """Sentences (Saids or plain strings) joined by ``sep``, as one Said."""
    parts = list(parts)
    return Said(sep.join(str(p) for p in parts), parts=parts, sep=sep)


def listing(items: Iterable[Any], conj: Any) -> Said:
    """"a", "a or b", "a, b or c" (``conj`` is the translated "or"/"and")."""
    items = list(items)
    if len(items) == 1:
        return Said(str(items[0]), parts=items, conj=conj)
    text = LIST_PATTERN.format(items=LIST_SEPARATOR.join(str(i) for i in items[:-1]),
                               conj=conj, last=items[-1])
    return Said(text, parts=items, conj=conj)


def rebuild(text: Any, lookup: Lookup) -> Any:
    """``text`` remade with ``lookup(context, english_template)``'s templates.

    Anything that is not a Said (names, card labels, numbers) comes back unchanged. A
    translated template that does not fit its values (a typo in a catalogue) falls back to
    the English sentence rather than failing the page.
    """
    if not isinstance(text, Said):
        return text
    if text.parts is not None:
        parts = [str(rebuild(p, lookup)) for p in text.parts]
        if text.conj is None:
            return text.sep.join(parts)
        if len(parts) == 1:
            return parts[0]
        sep = lookup("list", LIST_SEPARATOR)
        pattern = lookup("list", LIST_PATTERN)
        try:
            return pattern.format(items=sep.join(parts[:-1]), conj=rebuild(text.conj, lookup),
                                  last=parts[-1])
        except (KeyError, IndexError, ValueError):
            return str(text)
    if text.template is None:
        return str(text)
    template = lookup(text.context or "", text.template)
    values = {key: rebuild(value, lookup) for key, value in text.values.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(text)


def templates_in(source: str, names: Iterable[str]) -> list[tuple[int, str, str, str]]:
    """``(line, dict name, key, template)`` for each string value of the module-level dict
    literals called ``names`` in Python ``source`` (what :func:`extract` reads)."""
    import ast

    wanted = set(names)
    found: list[tuple[int, str, str, str]] = []
    for node in ast.parse(source).body:
        target = (node.target if isinstance(node, ast.AnnAssign)
                  else node.targets[0] if isinstance(node, ast.Assign) else None)
        if not (isinstance(target, ast.Name) and target.id in wanted
                and isinstance(node.value, ast.Dict)):
            continue
        for key, value in zip(node.value.keys, node.value.values):
            if (isinstance(key, ast.Constant) and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)):
                found.append((value.lineno, target.id, str(key.value), value.value))
    return found


def extract(fileobj, keywords, comment_tags, options):
    """A Babel extractor for template tables (see babel.cfg and docs/I18N.md).

    ``options["dicts"]`` names the module-level dicts and the gettext context of each, e.g.
    ``MESSAGES=rocca RULES=rocca-rule``. Each value becomes a ``pgettext(context, value)``
    message with its key as a translator comment.
    """
    spec = dict(item.split("=", 1) for item in options.get("dicts", "MESSAGES=messages").split())
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, name, key, template in templates_in(source, spec):
        fields = ", ".join(sorted(fields_of(template)))
        note = f"{name}[{key!r}]" + (f"; keep the fields {fields}" if fields else "")
        yield line, "pgettext", (spec[name], template), [note]
    # How rebuild() lays out a listing ("head, face or profile").
    yield 0, "pgettext", ("list", LIST_SEPARATOR), ["between the items of a list"]
    yield 0, "pgettext", ("list", LIST_PATTERN), ["a list: items, conjunction, last item"]


def fields_of(template: str) -> set[str]:
    """The replacement field names of a ``str.format`` template ("{player!r}" -> "player")."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
