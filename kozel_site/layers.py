"""The embedded setup's channel layer: channels' in-memory layer, with its expiry sweep
at most once a second.

channels walks every channel and every group membership of the process, looking for
expired messages, on every ``receive`` and ``group_send``: with a thousand players
connected that walk was a large part of each move's cost (docs/performance.md).
Messages still expire after ``expiry`` seconds and memberships after ``group_expiry``;
they are only looked for less often.
"""

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    _cleaned = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned >= CLEAN_EVERY:
            self._cleaned = now
            super()._clean_expired()
