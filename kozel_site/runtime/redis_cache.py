"""Django's Redis cache with one client, and so one set of connections, per process.

Django keeps one cache object per thread and per asyncio context (``caches`` is an
asgiref ``Local``), and each of its ``RedisCache`` objects builds a client with
connection pools of its own.  Under ASGI every request and every WebSocket consumer's
task is a context of its own, so each that touched the cache opened a connection to
Redis; when the context ended, its pool and that open socket were left in reference
cycles (redis-py's pool and its event dispatcher refer to each other) until a full
collection, which a server whose collector is tuned for fewer passes
(kozel_site/runtime/interpreter.py) makes rarely.  A server's memory and its count of
Redis connections then grew with every socket it served.

Here every cache object of a process shares one client: redis-py's connection pools are
safe to share between threads.  The client is Django's private ``_cache`` property, so
this is checked against the Django it was written for.
"""

from __future__ import annotations

import threading

import django
from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

from kozel_site.runtime import require_version

WRITTEN_FOR = "5.2."
require_version("redis_cache", "Django", django.__version__, WRITTEN_FOR,
                "RedisCache._cache and RedisCacheClient._get_connection_pool")

_clients: dict[tuple, object] = {}  # (servers, options) -> the process's client
_clients_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    """Django's ``RedisCache``, whose instances in one process share one client."""

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = self._class(self._servers, **self._options)
                # The client makes its pools on first use; made here, under the lock, two
                # threads' first calls cannot each make one.
                client._get_connection_pool(write=True)
                client._get_connection_pool(write=False)
                _clients[key] = client
        return client
