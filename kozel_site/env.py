"""The site's configuration, read from the environment.

Pure functions over a mapping (normally ``os.environ``), so that tests can check both
setups -- the embedded default and the scaled-out one -- without restarting Django.
"""

import os
import re
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# Only ever good for a developer's machine: settings refuse it once DEBUG is off.
DEV_SECRET_KEY = "django-insecure-kozel-development-key-do-not-deploy"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, not {raw!r}.")


def env_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_seconds_range(env: Mapping[str, str], name: str,
                      default: tuple[float, float]) -> tuple[float, float]:
    """A range of seconds written "low,high" (or one number for both), e.g. "0.05,0.1".

    Tests that drive a real server set short ones (a bot's thinking time) this way.
    """
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        parts = [float(part) for part in raw.split(",")]
    except ValueError:
        parts = []
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2 or not 0 <= parts[0] <= parts[1]:
        raise ImproperlyConfigured(
            f"{name} must be seconds as \"low,high\" with 0 <= low <= high, not {raw!r}."
        )
    return parts[0], parts[1]


def env_list(env: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    raw = env.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_and_debug(env: Mapping[str, str]) -> tuple[str, bool]:
    """SECRET_KEY and DEBUG.

    The key is SECRET_KEY, else the one kept in the file SECRET_KEY_FILE names (made there
    on first use: what `make run` does), else the development key. Any real key turns
    DEBUG off unless DEBUG says otherwise; with the development key DEBUG is on, a
    developer's copy. DEBUG off with the development key is refused: anyone could forge
    sessions and reset links.
    """
    secret = env.get("SECRET_KEY", "").strip()
    key_file = env.get("SECRET_KEY_FILE", "").strip()
    if not secret and key_file:
        secret = kept_secret_key(Path(key_file))
    secret = secret or DEV_SECRET_KEY
    debug = env_bool(env, "DEBUG", default=secret == DEV_SECRET_KEY)
    if not debug and secret == DEV_SECRET_KEY:
        raise ImproperlyConfigured(
            "DEBUG is off but SECRET_KEY is the development key. "
            "Set SECRET_KEY to a long random string before serving the site to anyone."
        )
    return secret, debug


def kept_secret_key(path: Path) -> str:
    """The secret key kept in ``path``; made (random, readable by its owner only) if the
    file does not exist yet, and the same on every later start."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if not key:
            raise ImproperlyConfigured(f"SECRET_KEY_FILE {path} is empty: delete it to have a new key made.")
        return key
    key = secrets.token_urlsafe(50)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def database(env: Mapping[str, str], base_dir: Path) -> dict:
    """PostgreSQL when DATABASE_URL is set, else an SQLite file in WAL mode."""
    url = env.get("DATABASE_URL", "").strip()
    if url:
        config = dj_database_url.parse(
            url,
            conn_max_age=env_int(env, "DB_CONN_MAX_AGE", 0),
            conn_health_checks=True,
        )
        if config["ENGINE"] != "django.db.backends.postgresql":
            raise ImproperlyConfigured(
                "DATABASE_URL must point at PostgreSQL (postgres://...); "
                "leave it unset for the embedded SQLite database."
            )
        # A database that stops answering must not hold a server's database threads for
        # the operating system's TCP timeouts (minutes): a move then fails at once, and
        # its player may try again.  Both can be set in DATABASE_URL's query instead.
        options = config.setdefault("OPTIONS", {})
        options.setdefault("connect_timeout", 5)         # seconds
        options.setdefault("tcp_user_timeout", 10_000)   # milliseconds unacknowledged
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": env.get("SQLITE_PATH", "").strip() or str(base_dir / "db.sqlite3"),
        # Keep each thread's connection: opening one (a file, the pragmas) costs more than
        # a whole move, and channels' database thread opened one per call.
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            # WAL lets readers go on while one writer writes; NORMAL sync is safe in WAL.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            # Take the write lock when a transaction starts, so two writers queue up
            # (for up to `timeout` seconds) instead of failing half-way with "locked".
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }


def channel_layers(env: Mapping[str, str]) -> dict:
    """Redis when REDIS_URL is set (any number of server processes), else in-memory."""
    url = env.get("REDIS_URL", "").strip()
    if url:
        # Redis's publish/subscribe: a notice is one PUBLISH, and Redis hands it to the one
        # subscriber of each server process that has a socket of the group open (its
        # fan-out, games/live/fanout.py).  Nothing is queued in Redis, so nothing there
        # can fill up or expire; a notice published while a process is cut off from Redis
        # is lost, and the pages' heartbeat mends that (games/live/base.py).
        return {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                            "CONFIG": {"hosts": [{"address": url, "socket_connect_timeout": 2,
                                                  "socket_timeout": 5}],
                                       "prefix": _channel_prefix(url)}}}
    # One channel of each process hears every group's notices (games/live/fanout.py), and a
    # message to a full channel is dropped without an error: room for a busy minute.
    # (For every channel: this layer takes no "channel_capacity" patterns.)  It sweeps
    # for expired messages once a second (kozel_site/runtime/memory_layer.py).
    return {"default": {"BACKEND": "kozel_site.runtime.memory_layer.SweepingInMemoryChannelLayer",
                        "CONFIG": {"capacity": 100_000}}}


def _channel_prefix(redis_url: str) -> str:
    """Redis's publish/subscribe ignores the database number, so it goes into the names:
    two sites sharing one Redis on different databases never hear each other's notices."""
    database = urlparse(redis_url).path.strip("/") or "0"
    return "kozel" if database == "0" else f"kozel{database}"


def caches(env: Mapping[str, str]) -> dict:
    """Redis when REDIS_URL is set, shared by all processes; else one process's memory.

    Kept there: the counts of sign-ups and password-reset mails (django-ratelimit), which
    must hold across processes, hence Redis when there are several. The log-in throttle
    counts failures in the database, and sessions live in the database too.  Django's
    Redis cache, with one client per process (kozel_site/runtime/redis_cache.py).
    """
    url = env.get("REDIS_URL", "").strip()
    if url:
        return {
            "default": {
                "BACKEND": "kozel_site.runtime.redis_cache.SharedRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "kozel",
            }
        }
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def login_lock(env: Mapping[str, str]) -> tuple[int, timedelta]:
    """How many failed log-ins in a row lock a login name on one address, and for how long."""
    limit = env_int(env, "LOGIN_FAILURE_LIMIT", 5)
    minutes = env_int(env, "LOGIN_LOCK_MINUTES", 15)
    if limit < 1 or minutes < 1:
        raise ImproperlyConfigured("LOGIN_FAILURE_LIMIT and LOGIN_LOCK_MINUTES must be at least 1.")
    return limit, timedelta(minutes=minutes)


def login_address_limit(env: Mapping[str, str]) -> int:
    """How many failed log-ins under any names lock a whole address (for LOGIN_LOCK_MINUTES)."""
    limit = env_int(env, "LOGIN_ADDRESS_FAILURE_LIMIT", 20)
    if limit < 1:
        raise ImproperlyConfigured("LOGIN_ADDRESS_FAILURE_LIMIT must be at least 1.")
    return limit


def trusted_proxies(env: Mapping[str, str]) -> int:
    """How many reverse proxies of our own stand in front of the site (0: none, the
    socket's address is the client's); see kozel_site/clientaddress.py."""
    count = env_int(env, "TRUSTED_PROXIES", 0)
    if count < 0:
        raise ImproperlyConfigured("TRUSTED_PROXIES must be 0 or more.")
    return count


_RATE = re.compile(r"[1-9][0-9]*/[1-9]?[0-9]*[smhd]")


_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_parts(rate: str) -> tuple[int, int]:
    """A rate in that notation as (count, seconds): "3/15m" is (3, 900)."""
    count, period = rate.split("/")
    return int(count), int(period[:-1] or 1) * _SECONDS[period[-1]]


def rate(env: Mapping[str, str], name: str, default: str) -> str:
    """A limit in django-ratelimit's notation: "5/h" is five an hour, "3/15m" three in a
    quarter of an hour (s, m, h, d)."""
    raw = env.get(name, "").strip() or default
    if not _RATE.fullmatch(raw):
        raise ImproperlyConfigured(f'{name} must be a count per period such as "5/h" or "3/15m", not {raw!r}.')
    return raw
