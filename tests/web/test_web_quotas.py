"""Anonymous growth is bounded: creating tables and events is limited per
address, across worker processes (the count is in the database), generous enough for a
club; over the quota the answer is 429 in plain words and nothing is created."""
from __future__ import annotations

from helpers import text_of
from web_helpers import Phone, count, make_app

from companion import create_app


def _real_limits(tmp_path, **extra):
    """An app with the shipped quotas (make_app lifts them for the other suites)."""
    defaults = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path),
                           "DATABASE": str(tmp_path / "q.db")}).config
    return make_app(tmp_path, DATABASE=str(tmp_path / "q.db"),
                    TABLE_CREATE_LIMIT=defaults["TABLE_CREATE_LIMIT"],
                    EVENT_CREATE_LIMIT=defaults["EVENT_CREATE_LIMIT"],
                    EVENT_TABLE_LIMIT=defaults["EVENT_TABLE_LIMIT"], **extra)


def _new_table(phone: Phone):
    return phone.client.post("/new/scorepad", data={"name_0": "Ann", "name_1": "Bob",
                                                    "me": "0", "csrf_token": phone.csrf()})


def test_the_shipped_quotas_are_generous_for_a_club(tmp_path):
    config = _real_limits(tmp_path).config
    assert config["TABLE_CREATE_LIMIT"] == (30, 60.0)
    assert config["EVENT_CREATE_LIMIT"] == (10, 60.0)
    # An event's tables, counted when a round is seated (test_web_event_growth.py).
    assert config["EVENT_TABLE_LIMIT"] == (2000, 3600.0)


def test_tables_from_one_address_stop_at_the_quota_across_workers(tmp_path):
    # Two app instances on one database: two gunicorn workers behind one port.
    one, two = _real_limits(tmp_path), _real_limits(tmp_path)
    phones = [Phone(one, "A"), Phone(two, "B")]
    answers = [_new_table(phones[i % 2]).status_code for i in range(33)]
    assert answers[:30] == [303] * 30
    assert answers[30:] == [429] * 3
    assert count(str(tmp_path / "q.db"), "tables") == 30
    r = _new_table(phones[0])
    assert r.status_code == 429 and "Wait a minute" in text_of(r.get_data(as_text=True))


def test_another_address_is_not_held_back(tmp_path):
    app = _real_limits(tmp_path)
    phone = Phone(app, "A")
    for _ in range(30):
        assert _new_table(phone).status_code == 303
    assert _new_table(phone).status_code == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    page = other.get("/new/scorepad").get_data(as_text=True)
    from helpers import inputs
    r = other.post("/new/scorepad", data={"name_0": "Ann", "name_1": "Bob", "me": "0",
                                          "csrf_token": inputs(page)["csrf_token"]})
    assert r.status_code == 303


def test_events_stop_at_their_quota(tmp_path):
    app = _real_limits(tmp_path)
    director = Phone(app, "Director")
    data = {"event_name": "Club", "event_rounds": "1", "entrants": "Ann\nBob\nCy\nDee"}
    answers = [director.client.post("/events/new/scorepad",
                                    data={**data, "csrf_token": director.csrf()}).status_code
               for _ in range(11)]
    assert answers == [303] * 10 + [429]
    assert count(str(tmp_path / "q.db"), "events") == 10
