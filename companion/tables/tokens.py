"""Random identifiers: table ids, join tokens, join codes and phone secrets."""
from __future__ import annotations

import base64
import hashlib
import secrets

# Letters only, without the look-alikes I, L and O, so a code read aloud or off a
# small screen is typed right the first time.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_table_id() -> str:
    """A public table id for URLs (72 random bits; access needs the token or a cookie)."""
    return secrets.token_urlsafe(9)


def new_token() -> str:
    """A join token of 160 random bits in upper-case base32 (QR alphanumeric mode)."""
    return base64.b32encode(secrets.token_bytes(20)).decode("ascii")


def new_code() -> str:
    """A short join code for typing, e.g. 'KQWMTR'."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """Upper-case a typed code and drop spaces and dashes."""
    return "".join(ch for ch in (text or "").upper() if ch.isalpha())


def new_secret() -> str:
    """A phone's secret, kept only in its one HttpOnly cookie (the same for every table)."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """What the database keeps of a one-off secret (a director's link token, an old
    per-table cookie)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def scoped_hash(secret: str, scope: str) -> str:
    """What the database keeps of a phone's secret for one table or event (`scope`, e.g.
    ``"table:<id>"``): one phone holds one secret for every table, yet its rows can't be
    matched across tables, and a leaked row reveals nothing of the other tables."""
    return hashlib.sha256(f"{scope}\n{secret}".encode("utf-8")).hexdigest()


def phone_hash(secret: str, table_id: str) -> str:
    """What the database keeps of a phone's secret at one table."""
    return scoped_hash(secret, f"table:{table_id}")


def new_submission_id() -> str:
    """A one-time id for one rendering of a form (idempotent submissions)."""
    return secrets.token_urlsafe(16)
