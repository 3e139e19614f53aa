"""One subscription per server process to the groups of the matches it has rooms open for.

The process's hub is the only member of a match's group here (games/play/notify.py): it
receives one message per change, however many seats and spectators of the match this
process serves, and hands it to them; they share one load of the new version
(games/room/cache.py) and each send their own seat's frame.

A consumer joins after its socket is accepted (a frame may only be sent after that) and
before it loads its first view, so no change committed after that load goes unheard.

A notice can be lost: its process may die between committing a change and sending the
notice (SIGKILL, a crash), or Redis may drop it.  Every player at that table would then
wait for a turn they never saw until the clock timed one of them out.  So the hub also
looks at the versions of its matches every ``KOZEL_ROOM_CATCH_UP`` seconds (one query for
all of them) and shows a version that was already committed at its previous look and
that a room here has still not shown: a lost notice is mended within one to two looks,
and a notice that is merely on its way is never raced.

The hub lives on its process's event loop, one per loop (tests run each on a loop of
their own), like games/room/cache.py.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer
from django.conf import settings

from games.room import cache as snapshots, chat, layerwatch
from games.play import notify
from games.play.dbcall import database_call
from games.models import Match
from games.room.perloop import PerLoop

log = logging.getLogger(__name__)

RETRY_AFTER = 1.0  # seconds before receiving again when the layer failed (Redis away)

# A consumer whose room could not be updated is closed with this code ("internal error"):
# its page reconnects and is sent its full view (static/js/kozel.js).
CLOSE_NOT_UPDATED = 1011
CHAT_MESSAGES = ("chat.said", "chat.deleted")


class RoomHub:
    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.rooms: dict[int, set] = {}  # match id -> its consumers in this process
        self.channel: str | None = None
        self.listening: asyncio.Task | None = None
        self.catching_up: asyncio.Task | None = None
        # Group changes go one at a time: the last consumer of a match leaving while the
        # next one arrives must not have its discard overtake the newcomer's add.
        self.membership = asyncio.Lock()
        self.snapshots = snapshots.snapshots()
        self.layer_watch = layerwatch.watch()  # Redis restarts (games/room/layerwatch.py)

    async def join(self, consumer, match_id: int) -> None:
        """From now on, ``consumer`` hears of every change of the match (and the match's
        snapshots are kept here while it has a room: games/room/cache.py)."""
        room = self.rooms.setdefault(match_id, set())
        if consumer not in room:
            room.add(consumer)
            self.snapshots.watch(match_id)
        if self.channel is None:
            self.channel = await self.layer.new_channel()
        if self.listening is None or self.listening.done():
            self.listening = asyncio.ensure_future(self._listen())
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = asyncio.ensure_future(self._catch_up())
        if self.layer_watch is not None:
            self.layer_watch.add(self)
        async with self.membership:
            # Asked again for every newcomer: that renews the in-memory layer's membership
            # expiry; the publish/subscribe layer subscribes a process only once.
            if match_id in self.rooms:
                await self.layer.group_add(notify.match_group(match_id), self.channel)

    async def leave(self, consumer, match_id: int) -> None:
        room = self.rooms.get(match_id)
        if room is None or consumer not in room:
            return
        room.discard(consumer)
        self.snapshots.unwatch(match_id)
        if room:
            return
        del self.rooms[match_id]
        if not self.rooms and self.layer_watch is not None:
            self.layer_watch.discard(self)
        async with self.membership:
            if match_id not in self.rooms:  # nobody came back meanwhile
                await self.layer.group_discard(notify.match_group(match_id), self.channel)

    def show_here(self, notices, first=None) -> None:
        """Show the changes this process has just committed to its own rooms at once
        (``first``, the mover's, before the others), rather than when their notices come
        back from the channel layer: the other players at a table whose seats are all in
        this process (as the proxy places them, docs/operations.md) see a move without a
        round trip through Redis, and still see it while Redis is away.  The notices are
        sent all the same, for the other processes; when one comes back here, its rooms
        are at its version already and are passed by."""
        for notice in notices:
            message = notice.message
            if message.get("type") == "match.changed" and self._behind(message):
                asyncio.ensure_future(self._deliver(message, first))

    def __len__(self) -> int:
        """The number of consumers here."""
        return sum(len(room) for room in self.rooms.values())

    async def _listen(self) -> None:
        while self.rooms:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: layerwatch resyncs every room after
                log.warning("room hub: cannot receive from the channel layer: %r", error)
                await asyncio.sleep(RETRY_AFTER)
                continue
            kind = message.get("type")
            if kind == "match.changed" and self._behind(message):
                asyncio.ensure_future(self._deliver(message))
            elif kind == "match.retimed":
                asyncio.ensure_future(self._retime(message))
            elif kind in CHAT_MESSAGES:
                asyncio.ensure_future(self._chat(message))
            elif kind == "room.watching":
                asyncio.ensure_future(self._watching(message))
            elif kind == "rematch.changed":
                asyncio.ensure_future(self._rematch(message))

    def _behind(self, message: dict) -> bool:
        """Whether a room here has yet to show this change (most notices of a change made
        in this process come back to find every room here at their version)."""
        version = message.get("version")
        return isinstance(version, int) and any(
            version > c.sent_version for c in self.rooms.get(message.get("match"), ()))

    async def _deliver(self, message: dict, first=None) -> None:
        match_id, version = message["match"], message["version"]
        waiting = sorted((c for c in self.rooms.get(match_id, ()) if version > c.sent_version),
                         key=lambda consumer: consumer is not first)
        if not waiting:
            return
        try:
            snapshot = await self.snapshots.at_least(match_id, version)
        except Exception:
            log.exception("match %s: could not load version %s for its rooms", match_id, version)
            for consumer in waiting:
                await consumer.close(code=CLOSE_NOT_UPDATED)
            return
        for consumer in waiting:
            # Asked again: a later notice's delivery may have overtaken this one during
            # the load, and the same frame must not be sent twice.
            if version > consumer.sent_version:
                await self._send(consumer, consumer.send_snapshot(snapshot))

    async def _chat(self, message: dict) -> None:
        """A chat line said or deleted: every room of the match here decides whether its
        reader sees it (games/room/chat.py).  A line lost with its notice is in the chat's
        history the next time the room connects."""
        rooms = list(self.rooms.get(message.get("match"), ()))
        if message["type"] == "chat.said":
            line = chat.Line(**message["line"])
            for consumer in rooms:
                await self._send(consumer, consumer.show_chat_line(line))
        else:
            for consumer in rooms:
                await self._send(consumer, consumer.drop_chat_line(message["message"]))

    async def _watching(self, message: dict) -> None:
        """How many watch the match now (games/room/watching.py), for its rooms here."""
        for consumer in list(self.rooms.get(message.get("match"), ())):
            await self._send(consumer, consumer.show_watching(message["count"]))

    async def _rematch(self, message: dict) -> None:
        """The offer of one more game after the match changed (games/lobby/rematch.py):
        every room of it here shows the offer as it is now."""
        for consumer in list(self.rooms.get(message.get("match"), ())):
            await self._send(consumer, consumer.show_rematch(message["offer"]))

    async def _retime(self, message: dict) -> None:
        """The match's turn has a new deadline at the same version (games.play.store's
        ``move_deadline``): load it, and show every room here the new countdown."""
        match_id = message.get("match")
        if not self.rooms.get(match_id):
            return
        try:
            snapshot = await self.snapshots.fresh(match_id, reuse=True)
        except Exception:
            log.exception("match %s: could not load its new deadline for its rooms", match_id)
            return
        for consumer in list(self.rooms.get(match_id, ())):
            await self._send(consumer, consumer.send_snapshot(snapshot))

    async def _catch_up(self) -> None:
        """Show every change whose notice never came (see the module's docstring)."""
        behind: dict[int, int] = {}  # match -> a version committed at the last look, not shown
        while self.rooms:
            await asyncio.sleep(settings.KOZEL_ROOM_CATCH_UP)
            if not self.rooms:
                return
            try:
                versions = await database_call(committed_versions)(list(self.rooms))
            except Exception as error:  # the database away: the next look tries again
                log.warning("room hub: cannot read the versions of its matches: %r", error)
                continue
            now_behind = {}
            for match_id, version in versions.items():
                # A room still loading its first view (sent_version -1) will show the
                # latest version anyway: it is not behind for want of a notice.
                room = [c for c in self.rooms.get(match_id, ()) if c.sent_version >= 0]
                if not any(c.sent_version < version for c in room):
                    continue
                now_behind[match_id] = version
                if any(c.sent_version < behind.get(match_id, -1) for c in room):
                    log.warning("match %s: no notice of version %s came here; showing it",
                                match_id, behind[match_id])
                    asyncio.ensure_future(self._deliver(
                        {"type": "match.changed", "match": match_id, "version": version}))
            behind = now_behind

    async def resync(self, since: float) -> None:
        """After Redis came back (layerwatch): send every consumer a view loaded since --
        the notices published meanwhile are gone.  (The layer's client has subscribed to
        the process's groups again on reconnecting.)"""
        consumers = [c for room in self.rooms.values() for c in room]
        await asyncio.gather(*(self._send(c, c.resend_view(since)) for c in consumers))

    @staticmethod
    async def _send(consumer, sending) -> None:
        # One consumer's failure must not keep the others of its room from their frames.
        try:
            await sending
        except Exception:
            log.exception("match %s: a room could not be updated; closing it so that its "
                          "client reconnects", consumer.match_id)
            await consumer.close(code=CLOSE_NOT_UPDATED)


def committed_versions(match_ids: list[int]) -> dict[int, int]:
    """The version of each of these matches as committed (database thread)."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


_per_loop: PerLoop[RoomHub] = PerLoop(RoomHub)


def hub() -> RoomHub:
    """The hub of the running event loop: one per server process (games/room/perloop.py)."""
    return _per_loop.get()
