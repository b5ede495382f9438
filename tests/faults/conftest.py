"""Fixtures for the fault tests: a small real disk (tmpfs) that can fill up or turn read-only."""
from __future__ import annotations

import errno
import gc
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import in_ci

DISK_SIZE = "4m"


@dataclass
class SmallDisk:
    """A tmpfs mounted for one test. `fill()` takes every free byte; `read_only()` remounts it."""

    path: Path

    @property
    def filler(self) -> Path:
        return self.path / "filler"

    def fill(self) -> int:
        """Write a filler file until the disk says ENOSPC; returns its size."""
        written = 0
        with open(self.filler, "ab", buffering=0) as fh:
            for chunk in (1 << 16, 1 << 12, 1 << 9):
                block = b"\0" * chunk
                for _ in range(1 << 16):       # bounded: at most 4 GiB of 64 KiB writes
                    try:
                        written += fh.write(block)
                    except OSError as exc:
                        assert exc.errno == errno.ENOSPC, exc
                        break
        assert os.statvfs(self.path).f_bavail == 0, "the disk is not full"
        return written

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def _mount(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["mount", *args, str(self.path)], capture_output=True, text=True)

    def read_only(self) -> None:
        gc.collect()   # no stray connection object of this process may hold a file open
        r = self._mount("-o", "remount,ro")
        assert r.returncode == 0, f"remount read-only failed: {r.stderr}"
        with pytest.raises(OSError):
            (self.path / "probe").write_bytes(b"x")

    def read_write(self) -> None:
        r = self._mount("-o", "remount,rw")
        assert r.returncode == 0, f"remount read-write failed: {r.stderr}"


@pytest.fixture
def small_disk(tmp_path):
    """A fresh 4 MiB tmpfs at tmp_path/disk, unmounted afterwards.

    Mounting needs root (or CAP_SYS_ADMIN). Where that is refused the tests skip, except
    in CI (the `CI` environment variable is set), where they must run and so fail.
    """
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE},mode=0755",
                            "tmpfs", str(mount_point)], capture_output=True, text=True)
        problem = (r.stderr.strip() or f"exit code {r.returncode}") if r.returncode else None
    except FileNotFoundError:
        problem = "there is no `mount` command"
    if problem:
        message = (f"can't mount a tmpfs for the disk-full and read-only checks ({problem}); "
                   "they need root or CAP_SYS_ADMIN")
        if in_ci():
            pytest.fail(message + ", and must run in CI", pytrace=False)
        pytest.skip(message)
    disk = SmallDisk(mount_point)
    try:
        yield disk
    finally:
        gc.collect()
        subprocess.run(["mount", "-o", "remount,rw", str(mount_point)], capture_output=True)
        r = subprocess.run(["umount", str(mount_point)], capture_output=True, text=True)
        if r.returncode != 0:
            # Something still holds a file open: detach now, the kernel frees it later.
            subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)
