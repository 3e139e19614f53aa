"""The embedded setup's channel layer: channels' in-memory one, with two changes.

The embedded setup's in-memory layer sweeps for expired messages at most once a second:
channels walks every channel and every group membership of the process, looking for
expired messages, on every ``receive`` and ``group_send``, and with a thousand players
connected that walk was a large part of each move's cost (docs/performance.md).
Messages still expire after ``expiry`` seconds and memberships after ``group_expiry``;
they are only looked for less often.  And its ``group_send`` puts the message on each
member's queue in turn, where channels starts a task per member and waits for them all:
putting a message on an in-memory queue never waits, and every move sends a notice.

The scaled-out setup uses channels-redis' publish/subscribe layer as it is
(kozel_site/env.py).
"""

import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

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
