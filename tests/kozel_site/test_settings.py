"""Both setups: the embedded default and the scaled-out one, read from the environment."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.utils import ConnectionHandler
from django.utils.module_loading import import_string

from kozel_site import env

ROOT = Path(__file__).resolve().parents[2]
PG_URL = "postgres://kozel:secret@db.internal:5433/kozel"
REDIS_URL = "redis://cache.internal:6379/2"


def test_with_nothing_set_the_site_is_a_developers_copy():
    secret, debug = env.secret_and_debug({})
    assert secret == env.DEV_SECRET_KEY
    assert debug is True


def test_a_real_secret_turns_debug_off_unless_asked_for():
    assert env.secret_and_debug({"SECRET_KEY": "s" * 50}) == ("s" * 50, False)
    assert env.secret_and_debug({"SECRET_KEY": "s" * 50, "DEBUG": "on"}) == ("s" * 50, True)


@pytest.mark.parametrize("debug", ["0", "false", "off", "no"])
def test_debug_off_with_the_development_secret_is_refused(debug):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        env.secret_and_debug({"DEBUG": debug})


def test_a_garbled_flag_is_refused_rather_than_guessed():
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env.secret_and_debug({"DEBUG": "maybe"})


def test_a_kept_secret_key_is_made_once_and_used_with_debug_off(tmp_path):
    key_file = tmp_path / ".secret_key"
    secret, debug = env.secret_and_debug({"SECRET_KEY_FILE": str(key_file)})
    assert debug is False and len(secret) >= 50 and secret != env.DEV_SECRET_KEY
    assert key_file.read_text().strip() == secret
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert env.secret_and_debug({"SECRET_KEY_FILE": str(key_file)}) == (secret, False)
    assert env.secret_and_debug({"SECRET_KEY_FILE": str(key_file), "DEBUG": "1"}) == (secret, True)
    # SECRET_KEY, when set, is the key.
    assert env.secret_and_debug({"SECRET_KEY_FILE": str(key_file), "SECRET_KEY": "s" * 50}) == ("s" * 50, False)


def test_an_emptied_secret_key_file_is_refused(tmp_path):
    key_file = tmp_path / ".secret_key"
    key_file.write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE"):
        env.secret_and_debug({"SECRET_KEY_FILE": str(key_file)})


def _django_setup(extra_env):
    environment = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "SECRET_KEY_FILE", "DEBUG")}
    environment.update(extra_env, DJANGO_SETTINGS_MODULE="kozel_site.settings")
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )


@pytest.mark.slow
def test_the_site_refuses_to_start_with_debug_off_and_the_development_secret():
    refused = _django_setup({"DEBUG": "0"})
    assert refused.returncode != 0
    assert "ImproperlyConfigured" in refused.stderr and "SECRET_KEY" in refused.stderr
    started = _django_setup({"DEBUG": "0", "SECRET_KEY": "a-long-random-production-secret-" * 2})
    assert started.returncode == 0, started.stderr
    assert "started" in started.stdout


def test_safe_local_defaults():
    assert env.env_list({}, "ALLOWED_HOSTS", ["127.0.0.1", "localhost"]) == ["127.0.0.1", "localhost"]
    assert env.env_list({"ALLOWED_HOSTS": "kozel.example, www.kozel.example"}, "ALLOWED_HOSTS", []) == [
        "kozel.example",
        "www.kozel.example",
    ]
    assert env.login_lock({}) == (5, timedelta(minutes=15))
    assert env.login_address_limit({}) == 20
    assert env.trusted_proxies({}) == 0  # the socket's address; X-Forwarded-For ignored
    assert env.login_lock({"LOGIN_FAILURE_LIMIT": "3", "LOGIN_LOCK_MINUTES": "2"}) == (3, timedelta(minutes=2))


@pytest.mark.parametrize("raw, expected", [("", "5/h"), ("3/15m", "3/15m"), ("100/d", "100/d")])
def test_a_rate_is_a_count_per_period(raw, expected):
    assert env.rate({"SIGNUP_RATE": raw}, "SIGNUP_RATE", "5/h") == expected


@pytest.mark.parametrize("rate, parts", [("300/m", (300, 60)), ("3/15m", (3, 900)),
                                         ("5/h", (5, 3600)), ("60/d", (60, 86400)),
                                         ("10/s", (10, 1)), ("2/10s", (2, 10))])
def test_a_rate_counts_so_many_in_so_many_seconds(rate, parts):
    assert env.rate_parts(rate) == parts


@pytest.mark.parametrize("raw", ["5", "five/h", "5/hour", "0/h", "-1/h", "5/h; drop"])
def test_a_garbled_rate_is_refused(raw):
    with pytest.raises(ImproperlyConfigured, match="SIGNUP_RATE"):
        env.rate({"SIGNUP_RATE": raw}, "SIGNUP_RATE", "5/h")


def test_a_negative_number_of_proxies_is_refused():
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        env.trusted_proxies({"TRUSTED_PROXIES": "-1"})


def test_embedded_database_is_sqlite_in_wal_mode(tmp_path, django_db_blocker):
    config = env.database({}, ROOT)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(ROOT / "db.sqlite3")

    # Open a real database file with exactly these options and ask SQLite what it got.
    handler = ConnectionHandler({"default": {**config, "NAME": str(tmp_path / "kozel.sqlite3")}})
    wrapper = handler["default"]
    try:
        with django_db_blocker.unblock(), wrapper.cursor() as cursor:
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
            assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] == 20000
    finally:
        wrapper.close()


def test_database_url_switches_to_postgresql():
    config = env.database({"DATABASE_URL": PG_URL}, ROOT)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["HOST"], config["PORT"]) == (
        "kozel", "kozel", "db.internal", 5433,
    )


def test_a_silent_postgresql_cannot_hold_the_server_for_minutes():
    """Moves are written on the event loop: connecting and unanswered sends time out."""
    options = env.database({"DATABASE_URL": PG_URL}, ROOT)["OPTIONS"]
    assert (options["connect_timeout"], options["tcp_user_timeout"]) == (5, 10_000)
    chosen = env.database({"DATABASE_URL": PG_URL + "?connect_timeout=2"}, ROOT)["OPTIONS"]
    assert chosen["connect_timeout"] == 2  # the URL's own choice stands


POSTGRESQL_SOCKETS = Path("/var/run/postgresql")


def test_a_postgresql_on_this_host_is_reached_through_its_socket():
    """docs/operations.md: the socket's directory, percent-encoded, in place of a host;
    libpq takes the TCP options env.py adds (it ignores them for a socket)."""
    url = "postgres://postgres@%2Fvar%2Frun%2Fpostgresql/postgres"
    config = env.database({"DATABASE_URL": url}, ROOT)
    assert (config["HOST"], config["NAME"]) == (str(POSTGRESQL_SOCKETS), "postgres")
    if not (POSTGRESQL_SOCKETS / ".s.PGSQL.5432").exists():
        pytest.skip("no PostgreSQL socket on this machine")
    import psycopg
    with psycopg.connect(host=config["HOST"], dbname=config["NAME"], user=config["USER"],
                         **config["OPTIONS"]) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_database_url_must_be_postgresql():
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        env.database({"DATABASE_URL": "mysql://root@127.0.0.1/kozel"}, ROOT)


def test_redis_url_switches_channel_layer_and_cache_to_redis():
    # channels' own in-memory layer
    assert env.channel_layers({})["default"]["BACKEND"] == "kozel_site.runtime.memory_layer.SweepingInMemoryChannelLayer"
    layer = env.channel_layers({"REDIS_URL": REDIS_URL})["default"]
    # channels-redis' publish/subscribe layer
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"][0]["address"] == REDIS_URL

    assert env.caches({})["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    cache = env.caches({"REDIS_URL": REDIS_URL})["default"]
    assert cache["BACKEND"] == "kozel_site.runtime.redis_cache.SharedRedisCache"
    assert cache["LOCATION"] == REDIS_URL



def test_sites_on_different_redis_databases_publish_under_different_names():
    # Publish/subscribe ignores the database number; the channel names must not.
    def prefix(url):
        return env.channel_layers({"REDIS_URL": url})["default"]["CONFIG"]["prefix"]
    assert prefix("redis://127.0.0.1:6379") == prefix("redis://127.0.0.1:6379/0") == "kozel"
    assert prefix("redis://127.0.0.1:6379/3") == "kozel3"
    assert prefix("redis://127.0.0.1:6379/3") != prefix("redis://127.0.0.1:6379/4")

# The running suite: whatever this run's environment chose really works.


@pytest.mark.django_db
def test_this_run_uses_the_database_its_environment_names():
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1


def test_this_run_uses_the_channel_layer_and_cache_its_environment_names():
    redis = bool(os.environ.get("REDIS_URL"))
    layer = import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    assert issubclass(layer, RedisPubSubChannelLayer) is redis
    assert ("redis" in settings.CACHES["default"]["BACKEND"]) is redis


async def test_the_configured_channel_layer_carries_a_message():
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("settings-check", channel)
    await layer.group_send("settings-check", {"type": "check", "text": "Козёл"})
    assert await layer.receive(channel) == {"type": "check", "text": "Козёл"}
    await layer.group_discard("settings-check", channel)


def test_the_configured_cache_stores_and_returns():
    from django.core.cache import cache

    cache.set("settings-check", {"text": "Козёл"}, 30)
    assert cache.get("settings-check") == {"text": "Козёл"}
    cache.delete("settings-check")
