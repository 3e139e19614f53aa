"""The lobby's WebSocket: ``/ws/lobby/``, the open requests, live, on every lobby page,
and the way to one's table when it fills (what every socket shares: games/live/base.py).

The list is sent again whenever the lobby's group says it changed, and when a page's
heartbeat shows a list older than the lobby's now (a notice lost: a process killed
between a change and its notice, Redis restarting).
"""

from __future__ import annotations

import time

from django.utils import timezone, translation

from games.live import caps
from games.live.base import CLOSE_NOT_A_MESSAGE, CLOSE_PRIVATE, LiveConsumer
from games.live.dbcall import database_call
from games.live.perloop import PerLoop
from games.live.shared import SharedRead
from games.lobby import visits
from games.lobby.listing import challenges_fragment, public_version, requests_fragment
from games.play import notify
from kozel_site.clientaddress import scope_address

FRESH = 1.0  # seconds a read of the lobby's version answers the pages' beats
RESEND = 15.0  # seconds after which a friends page's beat is answered with its challenges


class LobbyConsumer(LiveConsumer):
    what = "lobby"

    async def admit(self) -> bool:
        self.connected_at = timezone.now()
        self.shown_version = None
        return True

    def place(self):
        return caps.lobby_slot(scope_address(self.scope))

    async def opened(self) -> None:
        await self.listen(notify.LOBBY_GROUP)
        if self.user.is_authenticated:
            await self.listen(notify.user_group(self.user.pk))
        await self.send_requests()

    async def on_message(self, data: dict) -> None:
        # The lobby takes its actions as ordinary form posts; a message here is a mistake.
        await self.close(code=CLOSE_NOT_A_MESSAGE)

    async def on_refused(self, refusal: str) -> None:
        await self.close(code=CLOSE_NOT_A_MESSAGE)

    async def on_beat(self, version: int | None) -> None:
        """The list again if the lobby has changed since this page's was made (a notice
        lost), together with the way to a table that filled since the page connected."""
        now = await lobby_version()
        if now is not None and now != self.shown_version:
            await self.send_requests(started_since=self.connected_at)
        else:
            await self.answer_beat()

    async def lobby_changed(self, message: dict) -> None:
        await self.send_requests()

    async def lobby_start(self, message: dict) -> None:
        url = f"/games/{int(message['match_id'])}/"
        await self.send(text_data=f'<div id="lobby-redirect" hx-swap-oob="true" '
                                  f'data-redirect="{url}"></div>')

    async def send_requests(self, started_since=None) -> None:
        version = await lobby_version()
        await self.send(text_data=await database_call(self._render)(started_since, version))
        self.shown_version = version

    def _render(self, started_since, version):
        with translation.override(self.language):
            return requests_fragment(self.user, started_since,
                                     visits.entered(self.scope.get("session")), version)


async def _read_version() -> int | None:
    try:
        return await database_call(public_version)()
    except Exception:  # the database away: the pages are only told they are alive
        return None


_versions: PerLoop[SharedRead] = PerLoop(lambda: SharedRead(_read_version, FRESH))


async def lobby_version() -> int | None:
    """The lobby's public version, read once a second at most for all pages here."""
    return await _versions.get().get()


class FriendsConsumer(LiveConsumer):
    """The friends page's socket, ``/ws/friends/``: the person's direct challenges, live
    (their user group says "lobby.changed" when one comes, goes or is answered), and the
    way to their table when it fills."""

    what = "friends"

    async def admit(self) -> bool:
        if not self.user.is_authenticated:
            await self.refuse(CLOSE_PRIVATE, "friends-anonymous", self.what)
            return False
        return True

    def place(self):
        return caps.lobby_slot(scope_address(self.scope))

    async def opened(self) -> None:
        await self.listen(notify.user_group(self.user.pk))
        await self.send_challenges()

    async def on_message(self, data: dict) -> None:
        await self.close(code=CLOSE_NOT_A_MESSAGE)

    async def on_refused(self, refusal: str) -> None:
        await self.close(code=CLOSE_NOT_A_MESSAGE)

    async def on_beat(self, version: int | None) -> None:
        # A challenge whose notice was lost shows within RESEND seconds.
        if time.monotonic() - self.sent_at >= RESEND:
            await self.send_challenges()
        else:
            await self.answer_beat()

    async def lobby_changed(self, message: dict) -> None:
        await self.send_challenges()

    async def lobby_start(self, message: dict) -> None:
        url = f"/games/{int(message['match_id'])}/"
        await self.send(text_data=f'<div id="lobby-redirect" hx-swap-oob="true" '
                                  f'data-redirect="{url}"></div>')

    async def send_challenges(self) -> None:
        self.sent_at = time.monotonic()
        await self.send(text_data=await database_call(self._render)())

    def _render(self):
        with translation.override(self.language):
            return challenges_fragment(self.user)
