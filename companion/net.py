"""This machine's addresses on the local network (read from the interfaces; no packets sent)."""
from __future__ import annotations

import ipaddress
from pathlib import Path


def lan_addresses() -> list[str]:
    """This machine's private IPv4 addresses, the default route's interface first.

    Reads the interfaces (no packets are sent); on Linux the default route's
    interface from /proc/net/route comes first.
    """
    import ifaddr

    default_iface = _default_route_interface()
    found: list[tuple[int, str]] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6
            addr = ipaddress.ip_address(ip.ip)
            if addr.is_loopback or addr.is_link_local or not addr.is_private:
                continue
            rank = 0 if adapter.name == default_iface else 1
            found.append((rank, ip.ip))
    return [ip for _, ip in sorted(found)]


def _default_route_interface() -> str | None:
    try:
        for line in Path("/proc/net/route").read_text().splitlines()[1:]:
            fields = line.split()
            if len(fields) > 1 and fields[1] == "00000000":
                return fields[0]
    except OSError:
        pass
    return None


def is_loopback_url(url: str) -> bool:
    """Whether `url` names this machine only (localhost, 127.x, ::1): no other phone
    reaches it."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
