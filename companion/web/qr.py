"""QR codes as inline SVG (the `qrcode` package's matrix, no Pillow) and in the terminal."""
from __future__ import annotations

import functools
import io
from urllib.parse import urlsplit

import qrcode
from markupsafe import Markup, escape


@functools.lru_cache(maxsize=1024)
def qr_svg(text: str, label: str = "QR code") -> Markup:
    """An SVG QR code of `text`, ready to inline in a page (no external image).

    One path of lines a module thick, a line per run of dark modules in a row, each move
    relative to the end of the last ("M2 2.5h7m1 0h1m2 0h3...m-27 1h1"): a quarter of the
    bytes of the `qrcode` package's own SVG (a square per module), a fifth once compressed,
    and drawn to the same pixels; it matters on the table page, whose first load must stay
    under 25 kB. The path is stroked black (`stroke="#000"`, which CSS may change); a
    line's ends are cut square (the default butt caps), so a run covers exactly its modules. Cached: drawing one takes several milliseconds and a table's join URL never
    changes.
    """
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    qr.add_data(text)
    qr.make(fit=True)
    matrix = qr.get_matrix()    # border included
    size = len(matrix)
    moves = []
    pen = None                  # where the last run ended
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < size and row[x]:
                x += 1
            if pen is None:
                moves.append(f"M{start} {y}.5h{x - start}")
            else:
                moves.append(f"m{start - pen[0]} {y - pen[1]}h{x - start}")
            pen = (x, y)
    # No width/height: CSS scales the code to the screen (the viewBox keeps it square).
    return Markup(f'<svg class="qr" role="img" aria-label="{escape(label)}" '
                  f'viewBox="0 0 {size} {size}" xmlns="http://www.w3.org/2000/svg" '
                  f'shape-rendering="crispEdges"><path stroke="#000" d="{"".join(moves)}"/></svg>')


def qr_terminal(text: str) -> str:
    """A QR code of `text` drawn with block characters for a terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(text)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def qr_url(base: str, path: str) -> str:
    """A URL in upper case where that is safe (scheme and host), so QR alphanumeric mode applies.

    `path` keeps its case (e.g. "/j#<BASE32 TOKEN>": the qrcode package puts the upper-case
    token in a segment of its own, alphanumeric mode); a path prefix in `base` keeps its
    case.
    """
    parts = urlsplit(base.rstrip("/"))
    return f"{parts.scheme.upper()}://{parts.netloc.upper()}{parts.path}{path}"


def shown_url(url: str) -> str:
    """`url` as a phone's browser shows it: scheme and host in lower case (both are
    case-insensitive, so it is the same address), path and fragment as they are.

    The inverse of :func:`qr_url` for people: the QR carries the upper-case form for its
    compact alphanumeric mode, while the link printed under it reads like any other web
    address.
    """
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return url
    rest = url[len(parts.scheme) + 3 + len(parts.netloc):]
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{rest}"
