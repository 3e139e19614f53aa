"""channels' in-memory channel layer (the embedded setup), sweeping for expired messages
and group members at most once a second instead of on every message.

channels 4.3's ``InMemoryChannelLayer`` walks every channel and every group member on
each ``send``, ``receive`` and ``group_send`` (``_clean_expired``): with a few hundred
games open, each move paid for a walk over all of them.  What it sweeps are messages
older than the layer's expiry (60 s) and memberships older than its group expiry (a
day), so a sweep a second frees them just as well.  The override touches a private
method: it is checked against the version of channels it was written for.
"""

from __future__ import annotations

import time

import channels
from channels.layers import InMemoryChannelLayer

from kozel_site.runtime import require_version

WRITTEN_FOR = "4.3."
require_version("memory_layer", "channels", channels.__version__, WRITTEN_FOR,
                "InMemoryChannelLayer._clean_expired")

SWEEP_EVERY = 1.0  # seconds


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    _swept_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at >= SWEEP_EVERY:
            self._swept_at = now
            super()._clean_expired()
