"""The channel layers: channels' own, with two changes each.

The embedded setup's in-memory layer sweeps for expired messages at most once a second:
channels walks every channel and every group membership of the process, looking for
expired messages, on every ``receive`` and ``group_send``, and with a thousand players
connected that walk was a large part of each move's cost (docs/performance.md).
Messages still expire after ``expiry`` seconds and memberships after ``group_expiry``;
they are only looked for less often.

The scaled-out setup's Redis layer waits for a free connection when all its pool's are in
use, instead of failing: redis-py's pool raised "Too many connections" once a hundred
commands were under way, and in a burst of moves (bench/load.py's scaled peak) the
notices of dozens of moves were lost that way -- their players were never shown them.
"""

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer
from redis.asyncio import BlockingConnectionPool

CLEAN_EVERY = 1.0  # seconds

# Connections to Redis per server process, and how long a command may wait for one.
REDIS_CONNECTIONS = 100
REDIS_CONNECTION_WAIT = 20.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    _cleaned = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned >= CLEAN_EVERY:
            self._cleaned = now
            super()._clean_expired()


class RedisChannelLayer(ChannelsRedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), max_connections=REDIS_CONNECTIONS,
                                               timeout=REDIS_CONNECTION_WAIT, **host)
