"""When Redis restarts, the room consumers of a server process join their groups again
and resync their clients.

Group memberships live in Redis (channels-redis).  A restarted Redis has forgotten them
and every notice sent while it was away: the consumers' sockets stay open, but they would
never hear of a move again -- the player whose turn it now is would never know.  So each
server process watches the Redis its channel layer uses (one INFO a second): when Redis
was unreachable, or answers with a new run id (it restarted), every room consumer of the
process joins its group again and sends its client the full view, loaded afresh (DESIGN.md,
known traps: a client must be able to resync from a full view at any time).

With the in-memory channel layer (the embedded setup) there is nothing to watch.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.utils.module_loading import import_string

log = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds between looks at Redis


def redis_url() -> str | None:
    layer = settings.CHANNEL_LAYERS.get("default", {})
    # By class, not by module name: the scaled setup's layer is our own subclass
    # (kozel_site/layers.py), and a name check once silently turned this watch off.
    if not issubclass(import_string(layer.get("BACKEND", "")), RedisChannelLayer):
        return None
    hosts = layer.get("CONFIG", {}).get("hosts") or []
    host = hosts[0] if hosts else None
    if isinstance(host, dict):
        host = host.get("address")
    return host if isinstance(host, str) else None


class Watch:
    def __init__(self, url: str) -> None:
        self.url = url
        self.consumers: weakref.WeakSet = weakref.WeakSet()
        self.task: asyncio.Task | None = None

    def add(self, consumer) -> None:
        self.consumers.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def discard(self, consumer) -> None:
        self.consumers.discard(consumer)

    async def run(self) -> None:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url, socket_timeout=2,
                                              socket_connect_timeout=2)
        known, lost = None, False
        try:
            while len(self.consumers):
                try:
                    run_id = (await client.info("server"))["run_id"]
                except Exception:
                    if not lost:
                        log.warning("channel layer: Redis at %s is unreachable", self.url)
                    lost = True
                else:
                    if known is not None and (lost or run_id != known):
                        log.warning("channel layer: Redis is back%s: %d consumers resync",
                                    " (restarted)" if run_id != known else "",
                                    len(self.consumers))
                        await self.resync()
                    known, lost = run_id, False
                await asyncio.sleep(INTERVAL)
        finally:
            await client.aclose()

    async def resync(self) -> None:
        since = time.monotonic()
        consumers = list(self.consumers)
        # Every consumer of one match shares one fresh load (games.snapshots).
        results = await asyncio.gather(*(c.rejoin(since) for c in consumers),
                                       return_exceptions=True)
        for consumer, result in zip(consumers, results):
            if isinstance(result, Exception):
                log.warning("channel layer: a consumer could not resync (%r); closing it so "
                            "that its client reconnects", result)
                await consumer.close(code=1012)  # "service restart": the page reconnects


_per_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch() -> Watch | None:
    """The watch of the running loop's process, or None when the layer is not Redis."""
    url = redis_url()
    if url is None:
        return None
    loop = asyncio.get_running_loop()
    kept = _per_loop.get(loop)
    if kept is None or kept.url != url:
        kept = _per_loop[loop] = Watch(url)
    return kept
