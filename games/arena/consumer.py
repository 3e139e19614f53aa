"""An arena page's WebSocket, ``/ws/arenas/<id>/`` (what every socket shares:
games/live/base.py): its standings, tables and the viewer's own state, sent again
whenever the arena's group says it changed, or a page's beat shows an older version (a
notice lost); the viewer's own seating (its commitment, then their browser's client
seed, ``{"seed": "...", "table": <game>}``), and the way to the game once it starts."""

from __future__ import annotations

from django.utils import translation

from games.arena import groups, present, seating, service, views
from games.live import caps
from games.live.base import CLOSE_NO_SUCH_PAGE, CLOSE_PRIVATE, LiveConsumer
from games.live.dbcall import database_call
from games.live.perloop import PerLoop
from games.live.shared import SharedRead
from games.models import Arena
from games.play import notify
from games.play.errors import PlayError

FRESH = 1.0  # seconds a read of an arena's version answers the pages' beats


class _Request:
    """What views.may_see reads of a request, from the socket's scope."""

    def __init__(self, scope):
        self.user = scope["user"]
        self.session = scope.get("session") or {}


class ArenaConsumer(LiveConsumer):
    what = "arena"

    async def admit(self) -> bool:
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        self.shown_version = None
        found, visible = await database_call(self._find)()
        if not found:
            await self.close(code=CLOSE_NO_SUCH_PAGE)
            return False
        if not visible:
            await self.close(code=CLOSE_PRIVATE)
            return False
        return True

    def _find(self):
        arena = Arena.objects.filter(pk=self.arena_id).first()
        if arena is None:
            return False, False
        return True, views.may_see(_Request(self.scope), arena)

    def place(self):
        return caps.arena_slot(self.owner, self.arena_id)

    async def opened(self) -> None:
        await self.listen(groups.arena_group(self.arena_id))
        if self.user.is_authenticated:
            await self.listen(notify.user_group(self.user.pk))
        await self.send_live()

    async def on_message(self, data: dict) -> None:
        if set(data) != {"seed", "table"} or type(data["table"]) is not int:
            await self.send_notice(translation.gettext("That is not a message of this page."),
                                   error=True)
            return
        try:
            notices = await database_call(self._give_seed)(data["table"], data["seed"])
        except PlayError as refusal:
            await self.send_notice(refusal.message, error=True)
            return
        await notify.send_collected(notices)

    def _give_seed(self, match_id: int, seed) -> list:
        # The notices (the start, the arena's change) are sent from the loop, after.
        with notify.collected() as notices:
            game = service.give_seed(match_id, self.user, seed)
            seating.start_if_ready(game.pk)
        return notices

    async def on_beat(self, version: int | None) -> None:
        now = await arena_version(self.arena_id)
        if now is not None and version != now:
            await self.send_live()
        elif version is not None:
            # Up to date: the version it shows, which tells the page it is alive and
            # counts as a view (static/js/kozel.js), so it beats only when idle.
            await self.send(text_data=f'<div id="arena-version" hx-swap-oob="true" '
                                      f'data-shown-version="{version}" hidden></div>')
        else:
            await self.answer_beat()

    async def arena_changed(self, message: dict) -> None:
        await self.send_live()

    async def arena_seated(self, message: dict) -> None:
        await self.send_live()

    async def lobby_start(self, message: dict) -> None:
        """The game of this player's table started: the page goes to it."""
        url = f"/games/{int(message['match_id'])}/"
        await self.send(text_data=f'<div id="arena-redirect" hx-swap-oob="true" '
                                  f'data-redirect="{url}"></div>')

    async def send_live(self) -> None:
        html, version = await database_call(self._render)()
        if html is None:
            await self.close(code=CLOSE_NO_SUCH_PAGE)
            return
        await self.send(text_data=html)
        self.shown_version = version

    def _render(self):
        arena = Arena.objects.filter(pk=self.arena_id).first()
        if arena is None:
            return None, None
        with translation.override(self.language):
            return present.live_fragment(arena, self.user), arena.version


def _read_version(arena_id: int):
    async def read():
        try:
            return await database_call(
                lambda: Arena.objects.filter(pk=arena_id).values_list("version", flat=True)
                .first())()
        except Exception:  # the database away: the pages are only told they are alive
            return None
    return read


_versions: PerLoop[dict] = PerLoop(dict)


async def arena_version(arena_id: int) -> int | None:
    """The arena's version, read once a second at most for all its pages here."""
    reads = _versions.get()
    if arena_id not in reads:
        reads[arena_id] = SharedRead(_read_version(arena_id), FRESH)
    return await reads[arena_id].get()
