"""The channel layers: channels' in-memory one (embedded) and channels-redis'
publish/subscribe one (scaled out), each with changes for a busy server.

The in-memory layer, with two changes.

The embedded setup's in-memory layer sweeps for expired messages at most once a second:
channels walks every channel and every group membership of the process, looking for
expired messages, on every ``receive`` and ``group_send``, and with a thousand players
connected that walk was a large part of each move's cost (docs/performance.md).
Messages still expire after ``expiry`` seconds and memberships after ``group_expiry``;
they are only looked for less often.  And its ``group_send`` puts the message on each
member's queue in turn, where channels starts a task per member and waits for them all:
putting a message on an in-memory queue never waits, and every move sends a notice.

The publish/subscribe layer publishes in batches (``RedisPubSubChannelLayer``).
"""

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis import pubsub

CLEAN_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    _cleaned = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned >= CLEAN_EVERY:
            self._cleaned = now
            super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                await self.send(channel, message)
            except ChannelFull:  # as channels does: a full channel misses this message
                pass


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels-redis' publish/subscribe layer, whose processes publish in batches."""

    def _get_layer(self):
        layer = super()._get_layer()
        if not isinstance(layer._shards[0], BatchingShard):  # just made: nothing connected yet
            layer._shards = [BatchingShard(shard.host, layer) for shard in layer._shards]
        return layer


class BatchingShard(pubsub.RedisSingleShardConnection):
    """A process's connection to one Redis server, publishing in batches.

    channels-redis publishes one message at a time, under a lock of the connection: a
    notice waited for the round trips of all the notices before it, so a process
    published no faster than one round trip after another, and at the scaled peak its
    notices queued there for seconds (docs/performance.md, tenth round).  Here what is
    published while a batch is on its way goes in the next one, as one pipeline (one
    round trip), in the order it was published; a batch of one is a plain PUBLISH (about
    40 µs less of a process's time than a pipeline of one, redis-py on this machine).
    The lock still guards the connection's life (flush).
    """

    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        self._outgoing: list[tuple] = []  # (channel, message, the publisher's future)
        self._sending: asyncio.Task | None = None
        self.batches = 0  # round trips made

    async def publish(self, channel, message):
        published = asyncio.get_running_loop().create_future()
        self._outgoing.append((channel, message, published))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send_outgoing())
        await published

    async def _send_outgoing(self):
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            try:
                async with self._lock:
                    self._ensure_redis()
                    if len(batch) == 1:  # most of the time at human pace: a pipeline's
                        await self._redis.publish(*batch[0][:2])  # upkeep costs more
                    else:
                        async with self._redis.pipeline(transaction=False) as pipe:
                            for channel, message, _published in batch:
                                pipe.publish(channel, message)
                            await pipe.execute()
                self.batches += 1
            except asyncio.CancelledError:
                for *_, published in batch + self._outgoing:
                    published.cancel()
                raise
            except Exception as error:  # each publisher decides (games/play/notify.py tries again)
                _settle(batch, error)
            else:
                _settle(batch, None)


def _settle(batch, error: Exception | None) -> None:
    for *_, published in batch:
        if published.done():  # its publisher went away (cancelled)
            continue
        if error is None:
            published.set_result(None)
        else:
            published.set_exception(error)
