"""The channel layers: channels' own, with two changes each.

The embedded setup's in-memory layer sweeps for expired messages at most once a second:
channels walks every channel and every group membership of the process, looking for
expired messages, on every ``receive`` and ``group_send``, and with a thousand players
connected that walk was a large part of each move's cost (docs/performance.md).
Messages still expire after ``expiry`` seconds and memberships after ``group_expiry``;
they are only looked for less often.  And its ``group_send`` puts the message on each
member's queue in turn, where channels starts a task per member and waits for them all:
putting a message on an in-memory queue never waits, and every move sends a notice.

The scaled-out setup's Redis layer waits for a free connection when all its pool's are in
use, instead of failing: redis-py's pool raised "Too many connections" once a hundred
commands were under way, and in a burst of moves (bench/load.py's scaled peak) the
notices of dozens of moves were lost that way -- their players were never shown them.
"""

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer
from redis.asyncio import ConnectionPool

CLEAN_EVERY = 1.0  # seconds

REDIS_CONNECTIONS = 100  # per server process


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


class WaitingConnectionPool(ConnectionPool):
    """redis-py's pool, where a command waits for a connection when all are in use.

    (redis-py's own BlockingConnectionPool does too, but passes every command through one
    condition and a timeout: the scaled setup's round trips doubled with it.)"""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._released = asyncio.Event()

    async def get_connection(self, *args, **kwargs):
        while not self.can_get_connection():
            await self._released.wait()
        # No await between the check and the taking: no other command can come between.
        return await super().get_connection()

    async def release(self, connection):
        try:
            await super().release(connection)
        finally:
            self._released.set()  # wakes every waiter, to check again
            self._released.clear()


class RedisChannelLayer(ChannelsRedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        return WaitingConnectionPool.from_url(host.pop("address"),
                                              max_connections=REDIS_CONNECTIONS, **host)
