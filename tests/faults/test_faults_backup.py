"""`companion backup PATH` while the server takes a stream of entries, and a restore.

Six phones keep entering rounds on three tables of the real server while `companion
backup` (a separate process, the same instance folder) runs several times. Each copy:

- passes `PRAGMA integrity_check` and the log's structural checks;
- holds every entry acknowledged before that backup started;
- is a consistent snapshot: each table's log in the copy is exactly the first rows of
  that table's final log (nothing torn, nothing from the future without its past), and
  the table's version matches its newest entry.

A copy is restored by following the README ("Back up and restore": stop the server, move
companion.db and its -wal/-shm away, copy the backup in, start) and the server then shows
the restored sheets to the same phones, and play goes on. A backup never overwrites: an
existing target file is refused (exit code 2) and left untouched.
"""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import threading

import pytest
from fault_helpers import (
    Client,
    Server,
    connect_ro,
    game_rows,
    integrity,
    log_problems,
    new_sid,
    saved_seq,
)
from helpers import totals

TABLES = 3
NAMES = ["Ann", "Bob"]
BACKUPS = 4


def backup(server: Server, target) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMPANION_INSTANCE_PATH": str(server.instance)}
    return subprocess.run([sys.executable, "-P", "-m", "companion.cli", "backup", str(target)],
                          cwd=server.instance, env=env, capture_output=True, text=True,
                          timeout=120)


def rows_by_table(db_path) -> dict[str, list[tuple]]:
    found: dict[str, list[tuple]] = {}
    for row in game_rows(db_path):
        found.setdefault(row[0], []).append(row)
    return found


def sums(rows: list[tuple]) -> dict[str, int]:
    result = dict.fromkeys(NAMES, 0)
    for row in rows:
        for name, value in row[4]["scores"].items():
            result[name] += value
    return result


@pytest.mark.slow
def test_backup_while_serving_is_consistent_and_restores(tmp_path):
    server = Server(tmp_path / "instance").start()
    seats: list[tuple[Client, str, int]] = []
    readers: dict[str, Client] = {}
    acked: dict[str, tuple[str, dict]] = {}
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[str] = []

    def stream(client: Client, table_id: str, pos: int, rng: random.Random) -> None:
        try:
            for _ in range(5000):                  # bounded; stopped long before
                if stop.is_set():
                    return
                sid, value = new_sid("b-"), rng.randint(1, 99)
                r = client.enter(table_id, {pos: value}, sid=sid,
                                 version=client.version(table_id))
                if r.status == 200:
                    assert saved_seq(r.text), r.plain[:300]
                    with lock:
                        acked[sid] = (table_id, {NAMES[pos]: value})
                else:
                    assert r.status == 409, (r.status, r.plain[:300])
        except BaseException as exc:
            errors.append(f"{client.name}: {exc!r}")

    try:
        for t in range(TABLES):
            ann = Client(server.url, f"t{t}-Ann")
            table_id = ann.create_table(NAMES)
            bob = Client(server.url, f"t{t}-Bob")
            bob.join(ann.join_path(table_id), table_id, 1)
            readers[table_id] = ann
            seats += [(ann, table_id, 0), (bob, table_id, 1)]
        threads = [threading.Thread(target=stream, args=(c, t, pos, random.Random()), daemon=True)
                   for c, t, pos in seats]
        for thread in threads:
            thread.start()

        copies = []
        for i in range(BACKUPS):
            # Wait (bounded) for some new entries, so every copy sees a different log.
            for _ in range(200):
                with lock:
                    if len(acked) >= 10 * (i + 1):
                        break
                stop.wait(0.02)
            with lock:
                before = set(acked)
            target = tmp_path / f"copy-{i}.db"
            r = backup(server, target)
            assert r.returncode == 0, r.stderr
            assert f"to {target}" in r.stdout
            copies.append((target, before))
        # A folder as the target: the copy goes in as companion-backup.db.
        folder = tmp_path / "folder"
        folder.mkdir()
        r = backup(server, folder)
        assert r.returncode == 0, r.stderr
        copies.append((folder / "companion-backup.db", set()))
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        assert not any(t.is_alive() for t in threads)

        final = rows_by_table(server.db_path)
        assert integrity(server.db_path) == "ok"
        assert {row[5] for rows in final.values() for row in rows} == set(acked)
        for path, before in copies:
            assert integrity(path) == "ok", path
            assert log_problems(path) == [], path
            copy = rows_by_table(path)
            stored = {row[5] for rows in copy.values() for row in rows}
            assert before <= stored, f"{path}: acknowledged entries missing from the copy"
            for table_id, rows in copy.items():
                assert rows == final[table_id][:len(rows)], f"{path}: {table_id} not a prefix"
        # The stream went on after the first copy: restoring it really goes back in time.
        restore_from, _ = copies[0]
        restored = rows_by_table(restore_from)
        assert any(len(restored.get(t, [])) < len(final[t]) for t in final)

        # Never overwrite: an existing file is refused and left as it was.
        digest = hashlib.sha256(restore_from.read_bytes()).hexdigest()
        mtime = restore_from.stat().st_mtime_ns
        r = backup(server, restore_from)
        assert r.returncode == 2 and "already exists" in r.stderr, (r.returncode, r.stderr)
        assert hashlib.sha256(restore_from.read_bytes()).hexdigest() == digest
        assert restore_from.stat().st_mtime_ns == mtime
        r = backup(server, folder)
        assert r.returncode == 2 and "already exists" in r.stderr, (r.returncode, r.stderr)

        # Restore, step by step as the README says.
        server.stop()                                                   # 1. stop the server
        aside = tmp_path / "aside"
        aside.mkdir()
        for suffix in ("", "-wal", "-shm"):                             # 2. move them away
            live = server.instance / f"companion.db{suffix}"
            if live.exists():
                shutil.move(str(live), str(aside / live.name))
        shutil.copyfile(restore_from, server.instance / "companion.db")  # 3. copy it in
        server.start()                                                  # 4. start again

        for table_id, reader in readers.items():
            rows = restored.get(table_id, [])
            assert totals(reader.page(table_id)) == sums(rows), table_id
        # The same phones play on: the next entry follows the restored log.
        table_id, rows = next(iter(restored.items()))
        reader = readers[table_id]
        form_version = reader.version(table_id)
        r = reader.enter(table_id, {0: 5}, sid=new_sid("after-"), version=form_version)
        assert r.status == 200 and saved_seq(r.text) == len(_all_actions(server, table_id)), \
            r.plain[:300]
        assert totals(reader.page(table_id)) == {**sums(rows), "Ann": sums(rows)["Ann"] + 5}
        assert integrity(server.db_path) == "ok" and log_problems(server.db_path) == []
    finally:
        stop.set()
        server.kill()


def _all_actions(server: Server, table_id: str) -> list:
    conn = connect_ro(server.db_path)
    try:
        return conn.execute("SELECT seq FROM actions WHERE table_id = ?", [table_id]).fetchall()
    finally:
        conn.close()


def _cli_backup(instance, target) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMPANION_INSTANCE_PATH": str(instance)}
    return subprocess.run([sys.executable, "-P", "-m", "companion.cli", "backup", str(target)],
                          cwd=instance, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("kind", ["dangling", "to_file", "in_folder"])
def test_backup_refuses_a_symbolic_link(tmp_path, kind):
    """A backup never writes through a symbolic link: a link pointing nowhere (whose target
    the copy would create), one pointing at a file, and the copy's name inside a folder
    given as target. Exit code 2, a plain sentence, and nothing written anywhere."""
    instance = tmp_path / "instance"
    instance.mkdir()
    env = {**os.environ, "COMPANION_INSTANCE_PATH": str(instance)}
    subprocess.run([sys.executable, "-P", "-c", "import companion; companion.create_app()"],
                   cwd=instance, env=env, check=True, timeout=120)
    assert (instance / "companion.db").is_file()
    elsewhere = tmp_path / "elsewhere.db"
    folder = tmp_path / "backups"
    folder.mkdir()
    if kind == "dangling":
        link = target = tmp_path / "copy.db"
    elif kind == "to_file":
        elsewhere.write_bytes(b"precious")
        link = target = tmp_path / "copy.db"
    else:
        link, target = folder / "companion-backup.db", folder
    link.symlink_to(elsewhere)
    r = _cli_backup(instance, target)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "symbolic link" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert link.is_symlink()
    if kind == "to_file":
        assert elsewhere.read_bytes() == b"precious"
    else:
        assert not elsewhere.exists()
    # A new name in the same place still works.
    fresh = tmp_path / "fresh.db"
    r = _cli_backup(instance, fresh)
    assert r.returncode == 0 and fresh.stat().st_size > 0, r.stderr
