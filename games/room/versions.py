"""The committed version of the matches whose rooms beat in this process: what a room's
heartbeat compares the page's view with (games/live/base.py), since a notice may have
been lost (its process killed between commit and notice, Redis restarting).

Every room of a match beats every few seconds: the rooms of one process share one read
per match while it is fresh (``FRESH``), and the reads asked for at about the same time
are one query for all their matches.
"""

from __future__ import annotations

import asyncio
import logging
import time

from games.live.dbcall import database_call
from games.live.perloop import PerLoop
from games.models import Match

log = logging.getLogger(__name__)

FRESH = 1.0     # seconds a read version answers later beats
GATHER = 0.02   # seconds the beats of other matches may join a read


def committed_versions(match_ids: list[int]) -> dict[int, int]:
    """The version of each of these matches as committed (off the loop)."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


class CommittedVersions:
    def __init__(self) -> None:
        self.known: dict[int, tuple[int, float]] = {}  # match -> (version, read at)
        self.asked: dict[int, asyncio.Future] = {}
        self.reading: asyncio.Task | None = None

    async def of(self, match_id: int) -> int | None:
        """The match's committed version, read at most ``FRESH`` seconds ago; None if it
        cannot be read now (the database away) or the match is gone."""
        kept = self.known.get(match_id)
        if kept is not None and time.monotonic() - kept[1] < FRESH:
            return kept[0]
        future = self.asked.get(match_id)
        if future is None:
            future = self.asked[match_id] = asyncio.get_running_loop().create_future()
            if self.reading is None or self.reading.done():
                self.reading = asyncio.ensure_future(self._read())
        return await asyncio.shield(future)

    async def _read(self) -> None:
        await asyncio.sleep(GATHER)
        asked, self.asked = self.asked, {}
        try:
            versions = await database_call(committed_versions)(list(asked))
        except Exception as error:  # the page is told it is alive; the next beat asks again
            log.warning("rooms: cannot read their matches' versions: %r", error)
            versions = {}
        now = time.monotonic()
        for match_id, future in asked.items():
            version = versions.get(match_id)
            if version is not None:
                self.known[match_id] = (version, now)
            if not future.done():
                future.set_result(version)
        # What no room asked about lately goes: memory stays flat as games come and go.
        self.known = {match_id: kept for match_id, kept in self.known.items()
                      if now - kept[1] < FRESH}
        if self.asked:  # asked while this read was under way
            self.reading = asyncio.ensure_future(self._read())


_per_loop: PerLoop[CommittedVersions] = PerLoop(CommittedVersions)


def committed() -> CommittedVersions:
    """The running loop's (the server process's) reader."""
    return _per_loop.get()
