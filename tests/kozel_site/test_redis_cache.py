"""Django's Redis cache as configured (kozel_site/runtime/redis_cache.py): under ASGI
every asyncio context that touches the cache gets a cache object of its own, as every
consumer's task and every request does.  A finished context must leave no connection
pool and no open connection to Redis waiting for the garbage collector."""

import asyncio
import gc
import os

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import CacheHandler

from kozel_site import env

CONTEXTS = 40


@pytest.fixture
def cache_handler():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis: set REDIS_URL (CI's first pass does)")
    return CacheHandler(env.caches({"REDIS_URL": os.environ["REDIS_URL"]}))


def live(kind) -> int:
    return sum(isinstance(o, kind) for o in gc.get_objects())


async def test_contexts_share_one_client_and_leave_no_pool_behind(cache_handler):
    def use_the_cache():  # as socketcaps does: a worker thread, the caller's context
        cache = cache_handler["default"]
        cache.set("redis-cache-test", 1, 5)
        assert cache.get("redis-cache-test") == 1
        return cache

    async def one_context():
        return await sync_to_async(use_the_cache, thread_sensitive=False)()

    first = await asyncio.ensure_future(one_context())
    gc.collect()
    gc.disable()  # what a rarely collecting server keeps is what reference counting keeps
    try:
        pools, connections = live(redis.ConnectionPool), live(redis.Connection)
        caches = [await asyncio.ensure_future(one_context()) for _ in range(CONTEXTS)]
        assert len({id(cache) for cache in caches + [first]}) > 1  # a cache per context
        caches.clear()
        assert live(redis.ConnectionPool) == pools
        assert live(redis.Connection) <= connections + 2  # the worker threads' own, at most
    finally:
        gc.enable()
