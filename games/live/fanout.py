"""One member per server process of every group its sockets listen to.

A notice sent to a group (games/live/notices.py) reaches each process once, however many
of its sockets listen -- the four seats and the spectators of a match, a thousand lobby
pages -- and the process's fan-out hands it to each of them: it calls the socket's
method named after the message's type (``"match.changed"`` -> ``match_changed``), as
Channels does for a consumer's own channel.  The sockets of one match then share one load
of its new version (games/room/cache.py).

A socket joins its groups after it is accepted (a frame may only be sent after that) and
before it loads its first view, so no change committed after that load goes unheard.
A notice can still be lost -- its process killed between a commit and the notice, Redis
restarting -- and a page then learns of what it missed from its heartbeat
(games/live/base.py), never from a poll here.

The fan-out lives on its process's event loop, one per loop (tests run each on a loop of
their own).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from channels.consumer import get_handler_name
from channels.layers import get_channel_layer

from games.live.notices import SHOWN_HERE, Notice, send_collected
from games.live.perloop import PerLoop

log = logging.getLogger(__name__)

RETRY_AFTER = 1.0  # seconds before receiving again when the layer failed (Redis away)

# A socket whose page could not be updated is closed with this code ("internal error"):
# the page reconnects and is sent its full view.
CLOSE_NOT_UPDATED = 1011


class Fanout:
    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.groups: dict[str, set] = {}  # group -> its sockets in this process
        self.channel: str | None = None
        self.listening: asyncio.Task | None = None
        # Group changes go one at a time: the last socket of a group leaving while the
        # next one arrives must not have its discard overtake the newcomer's add.
        self.membership = asyncio.Lock()

    async def join(self, group: str, socket) -> None:
        """From now on, ``socket`` hears every notice to ``group``."""
        self.groups.setdefault(group, set()).add(socket)
        if self.channel is None:
            self.channel = await self.layer.new_channel()
        if self.listening is None or self.listening.done():
            self.listening = asyncio.ensure_future(self._listen())
        async with self.membership:
            # Asked again for every newcomer: that renews the in-memory layer's membership
            # expiry; the publish/subscribe layer subscribes a process only once.
            if group in self.groups:
                await self.layer.group_add(group, self.channel)

    async def leave(self, group: str, socket) -> None:
        members = self.groups.get(group)
        if members is None or socket not in members:
            return
        members.discard(socket)
        if members:
            return
        del self.groups[group]
        async with self.membership:
            if group not in self.groups:  # nobody came back meanwhile
                await self.layer.group_discard(group, self.channel)

    def members(self, group: str) -> list:
        return list(self.groups.get(group, ()))

    def __len__(self) -> int:
        """The number of sockets here (each counted once per group it listens to)."""
        return sum(len(members) for members in self.groups.values())

    def show_here(self, notices, first=None) -> None:
        """Show the notices this process has just committed to its own sockets at once
        (``first``, the sender's, before the others), rather than when they come back from
        the channel layer: the other players at a table whose seats are all in this
        process (as the proxy places them, docs/operations.md) see a move without a round
        trip through Redis, and still see it while Redis is away.  Only the notices a
        socket can tell it has shown (``SHOWN_HERE``): they are sent all the same, for the
        other processes, and when they come back here they are passed by."""
        for notice in notices:
            if notice.message.get("type") in SHOWN_HERE:
                self._hand_out(notice.group, notice.message, first)

    async def _listen(self) -> None:
        while self.groups:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: the pages' heartbeats resync them
                log.warning("fan-out: cannot receive from the channel layer: %r", error)
                await asyncio.sleep(RETRY_AFTER)
                continue
            group = message.get("group")
            if isinstance(group, str):
                self._hand_out(group, message)

    def _hand_out(self, group: str, message: dict, first=None) -> None:
        sockets = sorted(self.groups.get(group, ()), key=lambda socket: socket is not first)
        for socket in sockets:
            handler = getattr(socket, get_handler_name(message), None)
            if handler is not None:
                asyncio.ensure_future(self._call(socket, handler, message))

    @staticmethod
    async def _call(socket, handler, message: dict) -> None:
        # One socket's failure must not keep the others of its group from their frames.
        try:
            await handler(message)
        except Exception:
            log.exception("%s: a socket could not be updated; closing it so that its page "
                          "reconnects", message.get("group"))
            await socket.close(code=CLOSE_NOT_UPDATED)


_per_loop: PerLoop[Fanout] = PerLoop(Fanout)

# What keeps the changes this process commits, to show them without reading them back
# (games/room/cache.py registers its snapshots: games/apps.py).
_keepers: list[Callable[[list[Notice]], None]] = []


def keep_committed_with(keeper: Callable[[list[Notice]], None]) -> None:
    """Have ``keeper(notices)`` see the changes this process commits (on its loop) before
    its sockets are shown them."""
    if keeper not in _keepers:
        _keepers.append(keeper)


async def publish_committed(notices: list[Notice], first=None) -> None:
    """The notices of changes this process has just committed (a move, or the clock's
    deal, bot move or timeout): kept (``keep_committed_with``), shown to this process's
    sockets at once (``show_here``, ``first``'s socket first), and sent to the other
    processes'."""
    for keeper in _keepers:
        keeper(notices)
    fanout().show_here(notices, first=first)
    await send_collected(notices, shown_here=True)


def fanout() -> Fanout:
    """The fan-out of the running event loop: one per server process."""
    return _per_loop.get()
