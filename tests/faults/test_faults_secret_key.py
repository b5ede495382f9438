"""The secret key is made safely when several processes start on a fresh instance folder at
once: every process gets the same whole key, and an empty key stops the start
with a plain error instead of signing cookies with nothing."""
from __future__ import annotations

import multiprocessing

import pytest

from companion import MIN_SECRET_KEY_CHARS, _secret_key, create_app


def _start(folder: str, barrier, results) -> None:
    barrier.wait()                       # every process reaches for the key at the same time
    results.put(_secret_key(folder))


@pytest.mark.parametrize("attempt", range(5))
def test_processes_starting_together_share_one_whole_key(tmp_path, attempt):
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(8), ctx.Queue()
    workers = [ctx.Process(target=_start, args=(str(tmp_path), barrier, results))
               for _ in range(8)]
    for w in workers:
        w.start()
    keys = [results.get(timeout=20) for _ in workers]
    for w in workers:
        w.join(timeout=20)
        assert w.exitcode == 0
    assert len(set(keys)) == 1 and len(keys[0]) >= MIN_SECRET_KEY_CHARS
    assert (tmp_path / "secret_key").read_text().strip() == keys[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"]   # no temp files left


@pytest.mark.parametrize("content", ["", "\n", "short"])
def test_an_empty_or_cut_key_refuses_to_start(tmp_path, content):
    (tmp_path / "secret_key").write_text(content)
    with pytest.raises(RuntimeError, match="empty or too short"):
        create_app({"INSTANCE_PATH": str(tmp_path), "DATABASE": str(tmp_path / "c.db")})


def test_an_existing_key_is_kept(tmp_path):
    (tmp_path / "secret_key").write_text("k" * 64 + "\n")
    assert _secret_key(str(tmp_path)) == "k" * 64
