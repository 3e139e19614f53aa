"""When Redis restarts, the room hub of a server process resyncs its clients.

The scaled setup's channel layer is Redis's publish/subscribe (kozel_site/env.py): a
process's subscriptions live on its connection, and the layer's client subscribes again
when it reconnects, but every notice published while the process was cut off is gone --
the player whose turn it now is would not know it.  So each server process watches the
Redis its channel layer uses (one INFO a second): when Redis was unreachable, or answers
with a new run id (it restarted), every room consumer of the process's room hub
(games/room/hub.py), the one subscriber of its match groups, sends its client the full
view, loaded afresh (DESIGN.md, known traps: a client must be able to resync from a full
view at any time).  A notice lost in the moments before the layer has subscribed again is
mended by the hub's look at its games' versions.  Open lobby pages get their list again,
with the way to a table that filled meanwhile (games.lobby.consumer.LobbyPages).

With the in-memory channel layer (the embedded setup) there is nothing to watch.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from kozel_site.runtime.redis_layer import client as redis_client
from kozel_site.runtime.redis_layer import layer_redis_url, run_id as redis_run_id

log = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds between looks at Redis


redis_url = layer_redis_url  # the Redis to watch, if the channel layer is on Redis


class Watch:
    def __init__(self, url: str) -> None:
        self.url = url
        # What to resync: the room hub of the process while it has rooms open, and its
        # lobby pages (anything with an async ``resync(since)`` and a length).
        self.members: weakref.WeakSet = weakref.WeakSet()
        self.task: asyncio.Task | None = None

    def add(self, member) -> None:
        self.members.add(member)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def discard(self, member) -> None:
        self.members.discard(member)

    async def run(self) -> None:
        client = redis_client(self.url)
        known, lost = None, False
        try:
            while len(self.members):
                try:
                    run_id = await redis_run_id(client)
                except Exception:
                    if not lost:
                        log.warning("channel layer: Redis at %s is unreachable", self.url)
                    lost = True
                else:
                    if known is not None and (lost or run_id != known):
                        log.warning("channel layer: Redis is back%s: %d consumers resync",
                                    " (restarted)" if run_id != known else "",
                                    sum(len(m) for m in self.members))
                        await self.resync()
                    known, lost = run_id, False
                await asyncio.sleep(INTERVAL)
        finally:
            await client.aclose()

    async def resync(self) -> None:
        since = time.monotonic()
        # Every consumer of one match shares one fresh load (games.room.cache); a member
        # closes the sockets it could not resync, and their pages reconnect.
        results = await asyncio.gather(*(m.resync(since) for m in list(self.members)),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.error("channel layer: a resync failed", exc_info=result)


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
