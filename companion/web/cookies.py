"""The phone cookie: one HttpOnly cookie per table, holding that phone's secret."""
from __future__ import annotations

from flask import Response, request

MAX_AGE = 60 * 60 * 24 * 365


def cookie_name(table_id: str) -> str:
    return f"tc_{table_id}"


def phone_secret(table_id: str) -> str | None:
    """This browser's secret for a table, if it has joined it."""
    return request.cookies.get(cookie_name(table_id))


def set_phone_cookie(response: Response, table_id: str, secret: str) -> None:
    """Remember the phone so a reload, a lock screen or a re-scan lands in the same seat."""
    response.set_cookie(cookie_name(table_id), secret, max_age=MAX_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure, path="/")
