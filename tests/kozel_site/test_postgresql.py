"""kozel_site/postgresql: a kept connection is checked without a round trip when its
socket is quiet, and a connection the server closed is still found out and replaced.

PostgreSQL only (CI's first pass; DATABASE_URL set); the embedded pass skips these.
"""

import os

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

from kozel_site import env

pytestmark = [
    pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def kept():
    """A connection to the test database as a server process keeps one: CONN_MAX_AGE set
    and health checks on (kozel_site/env.py), opened now."""
    config = env.database({"DATABASE_URL": os.environ["DATABASE_URL"], "DB_CONN_MAX_AGE": "600"},
                          None)
    config["NAME"] = connection.settings_dict["NAME"]  # the test database
    wrapper = ConnectionHandler({"default": config})["default"]
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def between_calls(wrapper):
    """What channels does around every database_sync_to_async call (close_old_connections)."""
    wrapper.close_if_unusable_or_obsolete()


def backend_pid(wrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_quiet_kept_connection_is_used_again_without_a_select_1(kept, monkeypatch):
    pid = backend_pid(kept)
    asked = []
    monkeypatch.setattr(type(kept), "is_usable", lambda self: asked.append(1) or True)
    between_calls(kept)
    assert backend_pid(kept) == pid and asked == []
    assert kept.health_check_enabled and kept.health_check_done


def test_a_connection_the_server_closed_is_replaced_before_it_is_used(kept):
    pid = backend_pid(kept)
    with connection.cursor() as cursor:  # as a restart or an administrator would
        cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])  # waits until it is gone
        assert cursor.fetchone()[0]
    between_calls(kept)
    assert backend_pid(kept) != pid  # no error on the first use: a fresh connection


def test_a_connection_with_a_transaction_open_gets_the_full_check(kept, monkeypatch):
    asked = []
    real = type(kept).is_usable
    monkeypatch.setattr(type(kept), "is_usable", lambda self: asked.append(1) or real(self))
    kept.connection.execute("BEGIN")  # psycopg's own: Django does not know of it
    kept.health_check_done = False
    kept.close_if_health_check_failed()
    assert asked == [1]
    kept.connection.execute("ROLLBACK")
