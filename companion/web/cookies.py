"""Cookies: a phone's secret per table, an event director's secret, a player's pass."""
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


EVENT_MAX_AGE = 60 * 60 * 24 * 90


def director_cookie(event_id: str) -> str:
    """The cookie holding an event director's secret."""
    return f"te_{event_id}"


def pass_cookie(event_id: str) -> str:
    """The cookie holding a player's pass for an event (the entrant this phone is)."""
    return f"tp_{event_id}"


def director_secret(event_id: str) -> str | None:
    """This browser's director secret for an event, if it has one."""
    return request.cookies.get(director_cookie(event_id))


def pass_secret(event_id: str) -> str | None:
    """This phone's player pass for an event, if it registered or picked a name."""
    return request.cookies.get(pass_cookie(event_id))


def set_event_cookie(response: Response, name: str, secret: str) -> None:
    """A director's or player's event cookie: HttpOnly, SameSite=Lax, 90 days."""
    response.set_cookie(name, secret, max_age=EVENT_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/")
