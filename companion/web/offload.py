"""CPU-heavy checks off the server's event loop: one helper process per server process.

The server is gevent-based: every request of a worker process runs as a greenlet on one
thread, so a request that computes for 0.4 s holds every other request of that worker (the
live tables' entries included) for 0.4 s. A gevent thread pool would not help: pure Python
holds the GIL. So the few checks that can compute for long (the RockIt board check and its
arrangement search) run in a helper process, started on first use, one per server process
(each gunicorn worker has its own):

- one job at a time, and at most ``max_jobs`` waiting or running: a further job is refused
  at once (:class:`Busy`) rather than queued without end;
- a job that runs past ``cap`` seconds has its helper killed (the next job starts a new
  one) and :class:`TooSlow` is raised;
- the helper runs at a lower CPU priority (``nice``), so on a busy machine the live tables
  get the processor first;
- waiting for the answer yields to the other greenlets (gevent's ``wait_read`` on the pipe).

The helper is a fresh interpreter (``python -c``) talking pickles over two pipes; it ends
when its server process closes them (or dies). Where gevent is not in use (tests, ``flask
run``) the jobs run inline unless the app's ``TOOL_POOL`` setting says ``"process"``;
``"inline"`` turns the helper off everywhere.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

#: Lower priority of the helper process (Unix ``nice`` increment).
HELPER_NICE = 10


class Busy(Exception):
    """The helper has as many jobs as it may hold: the caller answers "busy, try again"."""


class TooSlow(Exception):
    """A job ran past its time cap and was stopped."""


def gevent_patched() -> bool:
    """True when this process runs under gevent's monkey patching (``companion serve``,
    gunicorn's gevent workers)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return False
    return bool(monkey.is_module_patched("socket"))


def _helper(read_fd: int, write_fd: int, nice: int) -> None:
    """The helper process: run each ``(function, args, kwargs)`` received and send back
    ``("ok", result)`` or ``("error", exception)``, until the server's end of the pipe
    closes."""
    if nice:
        try:
            os.nice(nice)
        except (AttributeError, OSError):  # pragma: no cover - not on every platform
            pass
    jobs = Connection(read_fd, writable=False)
    answers = Connection(write_fd, readable=False)
    while True:
        try:
            function, args, kwargs = jobs.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", function(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the server
            answer = ("error", exc)
        try:
            answers.send(answer)
        except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable result or exception
            answers.send(("error", RuntimeError(f"the helper could not send its answer: "
                                                f"{exc!r}")))


class Helper:
    """One lazily started helper process and its bounded queue (see the module docstring).

    Thread- and greenlet-safe: the locks are made on first use, so under gevent they are
    gevent's (monkey patching happens before the first request)."""

    def __init__(self, max_jobs: int = 4, cap: float = 5.0, nice: int = HELPER_NICE):
        self.max_jobs = max_jobs
        self.cap = cap
        self.nice = nice
        self._process: subprocess.Popen | None = None
        self._jobs: Connection | None = None
        self._conn: Connection | None = None
        self._pid: int | None = None
        self._locks: tuple[Any, Any] | None = None
        self._guard = threading.Lock()
        self.started = 0          # helpers started so far (a restart after a kill counts)

    def _the_locks(self):
        with self._guard:
            if self._locks is None:
                self._locks = (threading.BoundedSemaphore(self.max_jobs), threading.Lock())
            return self._locks

    def _start(self) -> None:
        # A fresh interpreter (not a fork of a monkey-patched worker with its sockets, and
        # not multiprocessing's spawn, which re-imports the server's main script), given
        # this process's import path and two pipes.
        job_read, job_write = os.pipe()
        answer_read, answer_write = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        # Lower its priority first: importing the app's modules is CPU work too.
        code = ("import os, sys\n"
                "try:\n    os.nice(int(sys.argv[3]))\nexcept (AttributeError, OSError):\n"
                "    pass\n"
                "from companion.web.offload import _helper\n"
                "_helper(int(sys.argv[1]), int(sys.argv[2]), 0)")
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", code, str(job_read), str(answer_write), str(self.nice)],
                pass_fds=(job_read, answer_write), stdin=subprocess.DEVNULL, env=env)
        except OSError:
            os.close(job_write)
            os.close(answer_read)
            raise
        finally:
            os.close(job_read)
            os.close(answer_write)
        for fd in (job_write, answer_read):
            os.set_blocking(fd, True)
        self._process, self._pid = process, os.getpid()
        self._jobs = Connection(job_write, readable=False)
        self._conn = Connection(answer_read, writable=False)
        self.started += 1

    def _alive(self) -> bool:
        return (self._process is not None and self._pid == os.getpid()
                and self._process.poll() is None)

    def _stop(self) -> None:
        process, pid = self._process, self._pid
        for conn in (self._jobs, self._conn):
            if conn is not None:
                conn.close()
        self._process = self._conn = self._jobs = None
        if process is not None and pid == os.getpid() and process.poll() is None:
            process.kill()
            try:
                process.wait(2)
            except subprocess.TimeoutExpired:  # pragma: no cover - a kill is not refused
                pass

    def _wait(self, deadline: float) -> bool:
        """Wait until the answer can be read or the deadline passes; True when readable.
        Under gevent the wait yields to the other greenlets."""
        left = max(0.0, deadline - time.monotonic())
        if gevent_patched():
            from gevent.socket import wait_read
            try:
                wait_read(self._conn.fileno(), timeout=left, timeout_exc=TimeoutError)
            except TimeoutError:
                return False
            return True
        return self._conn.poll(left)

    def run(self, function: Callable, *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` in the helper process: its result, or its exception
        raised here. ``function`` and its arguments must pickle (a module-level function).
        Raises :class:`Busy` when ``max_jobs`` jobs already wait or run (or no helper can be
        started, or it died mid-job), :class:`TooSlow` after ``cap`` seconds (counted from
        the call, waiting included)."""
        admission, turn = self._the_locks()
        if not admission.acquire(blocking=False):
            raise Busy
        deadline = time.monotonic() + self.cap
        try:
            if not turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise TooSlow
            try:
                try:
                    if not self._alive():
                        self._stop()
                        self._start()
                    try:
                        self._jobs.send((function, args, kwargs))
                    except OSError:        # the helper died since: start a new one
                        self._stop()
                        self._start()
                        self._jobs.send((function, args, kwargs))
                except OSError:
                    # No process could be started (no memory, no descriptors): the caller
                    # says "busy, try again" rather than compute on the event loop.
                    self._stop()
                    raise Busy from None
                if not self._wait(deadline):
                    self._stop()           # the only way to stop pure Python mid-search
                    raise TooSlow
                try:
                    status, value = self._conn.recv()
                except (EOFError, OSError):
                    self._stop()           # it died mid-job (killed from outside)
                    raise Busy from None
            finally:
                turn.release()
        finally:
            admission.release()
        if status == "error":
            raise value
        return value

    def close(self) -> None:
        """Stop the helper process (a new job starts another)."""
        self._stop()


_helpers: dict[tuple[int, float], Helper] = {}
_helpers_guard = threading.Lock()


def helper(max_jobs: int, cap: float) -> Helper:
    """This process's helper for these bounds (one per distinct setting, in practice one)."""
    with _helpers_guard:
        found = _helpers.get((max_jobs, cap))
        if found is None:
            found = _helpers[(max_jobs, cap)] = Helper(max_jobs, cap)
        return found


def run_heavy(config: Any, function: Callable, *args: Any, **kwargs: Any) -> Any:
    """Run a CPU-heavy pure function as the app's ``TOOL_POOL`` setting says: ``"auto"``
    (the helper process under gevent, inline otherwise), ``"process"`` or ``"inline"``.
    May raise :class:`Busy` or :class:`TooSlow` (helper only)."""
    mode = config.get("TOOL_POOL", "auto")
    if mode == "inline" or (mode == "auto" and not gevent_patched()):
        return function(*args, **kwargs)
    return helper(int(config.get("TOOL_POOL_JOBS", 4)),
                  float(config.get("TOOL_POOL_CAP", 5.0))).run(function, *args, **kwargs)
