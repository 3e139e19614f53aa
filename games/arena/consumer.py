"""An arena page's WebSocket, ``/ws/arenas/<id>/`` (what every socket shares:
games/live/base.py): its standings, tables and the viewer's own state, sent again
whenever the arena's group says it changed, or a page's beat shows an older version (a
notice lost); the viewer's own seating (its commitment, then their browser's client
seed, ``{"seed": "...", "table": <game>}``), and the way to the game once it starts."""

from __future__ import annotations

import asyncio
import time

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
READ_EVERY = 1.0  # seconds at least between two reads of an arena's view in a process


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
            await self.send_live(version=now)
        elif version is not None:
            # Up to date: the version it shows, which tells the page it is alive and
            # counts as a view (static/js/kozel.js), so it beats only when idle.
            await self.send(text_data=f'<div id="arena-version" hx-swap-oob="true" '
                                      f'data-shown-version="{version}" hidden></div>')
        else:
            await self.answer_beat()

    async def arena_changed(self, message: dict) -> None:
        await self.show_version(message.get("version"))

    async def arena_seated(self, message: dict) -> None:
        await self.show_version(message.get("version"))

    async def show_version(self, version: int | None) -> None:
        # Notices come in bursts (a seating, games ending, players joining): one view
        # answers all those whose version it shows.
        if version is not None and self.shown_version is not None \
                and self.shown_version >= version:
            return
        await self.send_live(version=version)

    async def lobby_start(self, message: dict) -> None:
        """The game of this player's table started: the page goes to it."""
        url = f"/games/{int(message['match_id'])}/"
        await self.send(text_data=f'<div id="arena-redirect" hx-swap-oob="true" '
                                  f'data-redirect="{url}"></div>')

    async def send_live(self, version: int | None = None) -> None:
        """The arena's view as every page shows it (read once in this process for all its
        pages: ``snapshot_of``), and this viewer's own part."""
        snapshot = await snapshot_of(self.arena_id, version)
        if snapshot is None:
            await self.close(code=CLOSE_NO_SUCH_PAGE)
            return
        with translation.override(self.language):
            html = snapshot.shared_fragment(self.language) \
                + present.mine_fragment(snapshot, self.user, self.language) \
                + present.clock_now()
        await self.send(text_data=html)
        self.shown_version = snapshot.version


class _Snapshots:
    """A process's latest view of each arena its pages show, and the next read of it.

    Reads of one arena are READ_EVERY apart at least: a burst of changes is shown in a
    view or two, not one each, which keeps the cost of 200 watching pages off the games'
    moves."""

    KEPT = 200  # arenas; the oldest are forgotten beyond

    def __init__(self) -> None:
        self.latest: dict[int, tuple[float, present.Snapshot]] = {}
        self.next_read: dict[int, tuple[float, asyncio.Future]] = {}

    async def get(self, arena_id: int, version: int | None) -> present.Snapshot | None:
        now = time.monotonic()
        latest = self.latest.get(arena_id)
        if latest is not None:
            read_at, snapshot = latest
            if (version is None and now - read_at < FRESH) or \
                    (version is not None and snapshot.version >= version):
                return snapshot
        # A read that starts from now on shows every change committed before now.
        due = self.next_read.get(arena_id)
        if due is None or due[0] < now:
            after = latest[0] + READ_EVERY if latest is not None else now
            starts = max(now, after, due[0] + READ_EVERY if due is not None else now)
            due = (starts, asyncio.ensure_future(self._read(arena_id, starts)))
            self.next_read[arena_id] = due
        return await asyncio.shield(due[1])

    async def _read(self, arena_id: int, starts: float) -> present.Snapshot | None:
        await asyncio.sleep(max(0.0, starts - time.monotonic()))
        read_at = time.monotonic()
        snapshot = await database_call(_read_snapshot)(arena_id)
        if snapshot is not None:
            latest = self.latest.pop(arena_id, None)
            if latest is not None and latest[0] > read_at:  # a later read came back first
                snapshot_kept = latest
            else:
                snapshot_kept = (read_at, snapshot)
            self.latest[arena_id] = snapshot_kept
            while len(self.latest) > self.KEPT:
                del self.latest[next(iter(self.latest))]
        return snapshot


def _read_snapshot(arena_id: int) -> present.Snapshot | None:
    arena = Arena.objects.filter(pk=arena_id).first()
    return present.Snapshot(arena) if arena is not None else None


_snapshots: PerLoop[_Snapshots] = PerLoop(_Snapshots)


async def snapshot_of(arena_id: int, version: int | None = None) -> present.Snapshot | None:
    """The arena's view read here: at least ``version``, or, without one, read within the
    last FRESH seconds."""
    return await _snapshots.get().get(arena_id, version)


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
