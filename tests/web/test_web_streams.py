"""Many phones need file descriptors: the soft limit is raised at start, a
client address holds a bounded number of live streams, a stream is refused with a plain
503 before descriptors run out (the page then polls), and a stream that ends frees its
slot at once."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from helpers import text_of
from web_helpers import make_app

from companion.web import streams


ADDRESS = "10.20.30.40"    # its own address: streams other tests left open don't count


def _open(client, table_id):
    return client.get(f"/t/{table_id}/stream", buffered=False,
                      environ_base={"REMOTE_ADDR": ADDRESS})


def test_one_address_holds_a_bounded_number_of_streams(tmp_path, new_phone):
    app = make_app(tmp_path, STREAMS_PER_ADDRESS=2, LIVE_MAX_SECONDS=30, LIVE_KEEPALIVE=0.1)
    from web_helpers import Phone
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"])
    first, second = _open(ann.client, table_id), _open(ann.client, table_id)
    assert (first.status_code, second.status_code) == (200, 200)
    assert next(first.response).startswith(b"retry:")
    third = _open(ann.client, table_id)
    assert third.status_code == 503
    assert "checks for changes every few seconds" in text_of(third.get_data(as_text=True))
    assert streams.open_streams(ADDRESS) == 2
    first.close()                                   # the phone left: its slot is free again
    assert streams.open_streams(ADDRESS) == 1
    again = _open(ann.client, table_id)
    assert again.status_code == 200
    second.close()
    again.close()
    assert streams.open_streams(ADDRESS) == 0


def test_a_stream_is_refused_before_descriptors_run_out(tmp_path, monkeypatch):
    app = make_app(tmp_path, STREAM_FD_RESERVE=100, LIVE_MAX_SECONDS=30, LIVE_KEEPALIVE=0.1)
    from web_helpers import Phone
    ann = Phone(app, "Ann")
    table_id = ann.create_table(["Ann", "Bob"])
    room = streams.open_streams() + 1 + 100                  # room for exactly one more stream
    monkeypatch.setattr(streams, "fd_limit", lambda: room)
    one = _open(ann.client, table_id)
    assert one.status_code == 200
    assert _open(ann.client, table_id).status_code == 503
    assert ann.get(f"/t/{table_id}").status_code == 200      # pages still work
    one.close()
    assert _open(ann.client, table_id).status_code == 200


def test_a_departed_phone_is_noticed_within_a_few_seconds(tmp_path):
    app = make_app(tmp_path)
    assert app.config["LIVE_KEEPALIVE"] <= 5


def test_the_soft_limit_is_raised_to_the_hard_limit_at_start():
    script = textwrap.dedent("""
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        low = min(256, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))
        from companion.web.streams import MAX_FD_LIMIT, raise_fd_limit
        now = raise_fd_limit()
        want = MAX_FD_LIMIT if hard == resource.RLIM_INFINITY else min(hard, MAX_FD_LIMIT)
        assert now == want == resource.getrlimit(resource.RLIMIT_NOFILE)[0], (now, want)
        print("ok", now)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr
