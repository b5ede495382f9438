"""QR codes as inline SVG (the `qrcode` package, no Pillow) and in the terminal."""
from __future__ import annotations

import functools
import io
import re
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape


@functools.lru_cache(maxsize=1024)
def qr_svg(text: str, label: str = "QR code") -> Markup:
    """An SVG QR code of `text`, ready to inline in a page (no external image).

    Cached: drawing one takes several milliseconds and a table's join URL never changes.
    """
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2,
                       image_factory=qrcode.image.svg.SvgPathImage)
    qr.add_data(text)
    qr.make(fit=True)
    image = qr.make_image()
    svg = image.to_string(encoding="unicode")
    # Drop the XML prolog and fixed size so CSS can scale the code to the screen.
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r'^<svg width="[^"]*" height="[^"]*"', "<svg", svg)
    svg = svg.replace("<svg", f'<svg class="qr" role="img" aria-label="{escape(label)}"', 1)
    return Markup(svg)


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

    `path` must already be upper case (e.g. "/J/<BASE32 TOKEN>"); a path prefix in `base`
    keeps its case.
    """
    parts = urlsplit(base.rstrip("/"))
    return f"{parts.scheme.upper()}://{parts.netloc.upper()}{parts.path}{path}"
