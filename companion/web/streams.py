"""Live streams and file descriptors: many phones need many open connections.

Every open live stream (`/t/<id>/stream`) holds a socket, one file descriptor, for as long
as the page is open. At the common `ulimit -n 1024` a server ran out at ~930 streams and
then failed every request, the start page included. So:

- at start the soft limit on open files is raised to the hard limit where the system
  allows (:func:`raise_fd_limit`);
- a process admits streams only while a reserve of descriptors stays free for the
  database, static files and ordinary requests (``STREAM_FD_RESERVE``), and at most
  ``STREAMS_PER_ADDRESS`` from one client address (one phone opens one; a hotspot or a
  school network puts many phones behind one address, hence generous);
- a stream refused gets a plain 503; the page then refreshes by polling every 2 s.

The counts are per process (each gunicorn worker has its own descriptors).

A server that is asked to stop (SIGTERM from systemd, docker or gunicorn's master) ends its
streams at once (:func:`stop_all`): each phone reconnects by itself to whatever serves next,
and the process exits within a few seconds instead of waiting out ``LIVE_MAX_SECONDS``.
"""
from __future__ import annotations

import threading
from collections import Counter

try:
    import resource
except ImportError:  # Windows: no rlimits
    resource = None

#: Never ask for more than this many descriptors, whatever the hard limit says.
MAX_FD_LIMIT = 65536

_lock = threading.Lock()
_open: Counter[str] = Counter()
_stopping = False


def stop_all() -> None:
    """This process is stopping: every live stream ends at its next wake-up, now."""
    global _stopping
    _stopping = True
    from companion.tables.live import hub   # tables sits below web; import lazily
    hub.wake_all()


def stopping() -> bool:
    """Whether :func:`stop_all` was called (streams end, new ones are refused)."""
    return _stopping


def raise_fd_limit() -> int | None:
    """Raise this process's soft limit on open files to its hard limit (at most
    :data:`MAX_FD_LIMIT`); returns the soft limit now in force (None where unknown)."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_FD_LIMIT if hard == resource.RLIM_INFINITY else min(hard, MAX_FD_LIMIT)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def fd_limit() -> int | None:
    """The soft limit on open files in force now (None where unknown or unlimited)."""
    if resource is None:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def admit(address: str, per_address: int, reserve: int) -> bool:
    """Count one more open stream from `address`, or say no (nothing counted): when that
    address already holds `per_address` streams, or when fewer than `reserve` descriptors
    would stay free for everything else."""
    limit = fd_limit()
    with _lock:
        if _open[address] >= per_address:
            return False
        if limit is not None and sum(_open.values()) >= max(limit - reserve, 0):
            return False
        _open[address] += 1
        return True


def release(address: str) -> None:
    """A stream from `address` ended (the phone left, the stream timed out)."""
    with _lock:
        _open[address] -= 1
        if _open[address] <= 0:
            del _open[address]


def open_streams(address: str | None = None) -> int:
    """How many streams are open in this process (from `address`, or in all)."""
    with _lock:
        return _open[address] if address is not None else sum(_open.values())
