"""The lobby's WebSocket consumer: the open requests, live, on every lobby page."""

from __future__ import annotations

import asyncio
import logging
import weakref

from games.room.closing import ClosingOnce
from django.utils import timezone, translation

from games.play import notify
from games.play.dbcall import database_call
from games.lobby import visits
from games.room import layerwatch, socketcaps
from games.room.consumer import (CLOSE_FLOOD, CLOSE_NOT_A_MESSAGE, CLOSE_TOO_LARGE,
                                 CLOSE_TOO_MANY_SOCKETS, MAX_MESSAGE_BYTES, refuse,
                                 scope_language)
from games.room.perloop import PerLoop
from kozel_site.clientaddress import scope_address

log = logging.getLogger(__name__)


class LobbyConsumer(ClosingOnce):
    """``/ws/lobby/``: the open requests, live; and the way to one's table when it fills."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when a handler failed: the slot is free again
            slot = getattr(self, "slot", None)
            if slot is not None:
                await slot.give_back()

    async def connect(self):
        self.user = self.scope["user"]
        self.language = scope_language(self.scope)
        self.connected_at = timezone.now()
        who, address = socketcaps.owner(self.scope), scope_address(self.scope)
        if await socketcaps.over_account_rate(who):
            await refuse(self, CLOSE_FLOOD, "account-rate", who, "lobby connections")
            return
        self.slot = socketcaps.lobby_slot(address)
        if not await self.slot.take():
            await refuse(self, CLOSE_TOO_MANY_SOCKETS, "lobby-sockets",
                         f"address:{address}", "lobby")
            return
        self.groups_joined = [notify.LOBBY_GROUP]
        if self.user.is_authenticated:
            self.groups_joined.append(notify.user_group(self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.pages = lobby_pages()
        self.pages.add(self)
        await self.send_requests()

    async def disconnect(self, code):
        slot = getattr(self, "slot", None)
        if slot is not None:
            await slot.give_back()
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "pages", None) is not None:
            self.pages.discard(self)

    async def receive(self, text_data=None, bytes_data=None):
        # The lobby takes its actions as ordinary form posts; a message here is a mistake.
        await self.close(code=CLOSE_TOO_LARGE if (text_data or "") and
                         len(text_data) > MAX_MESSAGE_BYTES else CLOSE_NOT_A_MESSAGE)

    async def lobby_changed(self, event):
        await self.send_requests()

    async def lobby_start(self, event):
        url = f"/games/{int(event['match_id'])}/"
        await self.send(text_data=f'<div id="lobby-redirect" hx-swap-oob="true" '
                                  f'data-redirect="{url}"></div>')

    async def resync(self):
        """After Redis came back (``LobbyPages``): the list afresh, and the way to a table
        that filled since this page connected -- its "lobby.start" may have been lost."""
        await self.send_requests(started_since=self.connected_at)

    async def send_requests(self, started_since=None):
        await self.send(text_data=await database_call(self._render)(started_since))

    def _render(self, started_since=None):
        from games.lobby.listing import requests_fragment  # the lobby's own module renders its list

        with translation.override(self.language):
            return requests_fragment(self.user, started_since,
                                     visits.entered(self.scope.get("session")))


class LobbyPages:
    """The open lobby pages of one server process, for the watch on Redis
    (games/room/layerwatch.py): a notice published while the process was cut off from Redis is
    lost, so when Redis is back every page gets its list again."""

    def __init__(self) -> None:
        self.consumers: weakref.WeakSet = weakref.WeakSet()

    def __len__(self) -> int:
        return len(self.consumers)

    def add(self, consumer: LobbyConsumer) -> None:
        self.consumers.add(consumer)
        watch = layerwatch.watch()
        if watch is not None:
            watch.add(self)

    def discard(self, consumer: LobbyConsumer) -> None:
        self.consumers.discard(consumer)
        watch = layerwatch.watch()
        if watch is not None and not self.consumers:
            watch.discard(self)

    async def resync(self, since: float) -> None:
        results = await asyncio.gather(*(page.resync() for page in list(self.consumers)),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):  # a page closing meanwhile: it reloads anyway
                log.warning("a lobby page could not resync: %r", result)


_lobby_pages: PerLoop[LobbyPages] = PerLoop(LobbyPages)


def lobby_pages() -> LobbyPages:
    """The running loop's (the server process's) open lobby pages (games/room/perloop.py)."""
    return _lobby_pages.get()
