"""Players over real sockets, for tests against real server processes (tests/daphne_server.py).

Like tests/games/wsclient.py (whose frame parsing they reuse) they read the frames the
room sends and click what a person would; unlike it they talk to a daphne process over
TCP with the ``websockets`` client, and they reconnect, as the page's script does, when
the server goes away.  Every action a player saw acknowledged -- its own updated view
arrived -- is written down, so a test can hold the move log to it.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time

from django.conf import settings
from django.test import Client
from websockets.asyncio.client import connect

from games.live.base import BEAT_SECONDS
from tests.games.wsclient import BUTTON, ROOM

NOTICE_ERROR = re.compile(r'<div id="room-notice" class="room-notice error"[^>]*>([^<]*)<')


def session_cookie(user) -> str:
    """A session for ``user`` (made in the test process, kept in the shared database)."""
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Player:
    """One person at one game, connected to the server at ``port()`` (asked at every
    connection, so a test may move players between servers)."""

    def __init__(self, match_id: int, cookie: str, port, seat: int, rng: random.Random):
        self.match_id, self.cookie, self.port, self.seat, self.rng = match_id, cookie, port, seat, rng
        self.ws = None
        self.headers: dict[str, str] = {}  # e.g. Accept-Language
        self.status, self.turn_mine, self.version, self.last_room = None, False, -1, ""
        self.acknowledged: list[tuple[int, dict]] = []  # (version acted on, message)
        self.refusals: list[str] = []
        self.connections = 0
        self.changed = asyncio.Event()
        self._sending = asyncio.Lock()
        # (the version a newer view must pass to acknowledge the action, or None: only a
        # refusal answers it; the future its answer goes to)
        self._waiting: tuple[int | None, asyncio.Future] | None = None
        self._reader: asyncio.Task | None = None
        self._beating: asyncio.Task | None = None

    @property
    def connected(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def connect(self, within: float = 60.0) -> None:
        """Connect (again), trying until the server answers; the full view comes first.

        ``within`` outlasts a restarted server's own start (DaphneServer.ready_timeout)."""
        deadline = time.monotonic() + within
        while True:
            port = self.port()
            try:
                self.ws = await connect(f"ws://127.0.0.1:{port}/ws/games/{self.match_id}/",
                                        origin=f"http://127.0.0.1:{port}",
                                        additional_headers={"Cookie": self.cookie, **self.headers},
                                        open_timeout=5, ping_interval=None, max_size=2 ** 22)
                first = await asyncio.wait_for(self.ws.recv(), 10)
                break
            except (OSError, asyncio.TimeoutError, Exception) as error:
                if self.ws is not None:
                    await self.ws.close()
                if time.monotonic() > deadline:
                    raise AssertionError(f"seat {self.seat} could not reconnect: {error!r}")
                await asyncio.sleep(0.2)
        self.connections += 1
        self._on_frame(first)
        self._reader = asyncio.ensure_future(self._read())
        if self._beating is not None:
            self._beating.cancel()
        self._beating = asyncio.ensure_future(self._beat(self.ws))

    async def _beat(self, ws) -> None:
        """The page's heartbeat (games/live/base.py): the version shown, every few seconds."""
        try:
            while True:
                await asyncio.sleep(BEAT_SECONDS)
                await ws.send(json.dumps({"beat": self.version}))
        except Exception:
            pass  # the socket is gone: the next connection beats anew

    async def close(self) -> None:
        if self._beating is not None:
            self._beating.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                self._on_frame(frame)
        except Exception:
            pass  # the server went away: the caller reconnects
        finally:
            self.changed.set()
            if self._waiting and not self._waiting[1].done():
                self._waiting[1].set_result("closed")

    def _on_frame(self, frame: str) -> None:
        found = ROOM.search(frame)
        if found:
            status, mine, version = found.groups()
            if int(version) >= self.version:
                self.status, self.turn_mine, self.version = status, mine == "true", int(version)
                self.last_room = frame
            if self._waiting and self._waiting[0] is not None \
                    and int(version) > self._waiting[0] and not self._waiting[1].done():
                self._waiting[1].set_result("acknowledged")
        else:
            refused = NOTICE_ERROR.search(frame)
            if refused:
                self.refusals.append(html.unescape(refused.group(1)))
                if self._waiting and not self._waiting[1].done():
                    self._waiting[1].set_result("refused")
        self.changed.set()

    def choices(self) -> list[dict]:
        """What the clickable buttons of the last room frame send (as in wsclient.Seat)."""
        out = []
        for kind, vals in BUTTON.findall(self.last_room):
            data = json.loads(html.unescape(vals))
            if kind == "data-playable" and "end" not in data and "play" in data \
                    and re.search(rf'data-tile="{data["play"]}"[^>]*data-choose-end', self.last_room):
                continue
            out.append(data)
        return out

    async def send(self, message: dict, timeout: float = 10.0) -> str:
        """Send a move; "acknowledged", "refused", "closed" or "timeout".

        One at a time (a test may repeat a move while the table's task plays), so that an
        answer goes to the move it answers.  A newer view acknowledges only a move made on
        the latest view, in turn (then nobody else can change the game); a move on an
        older view, such as a repeat, is answered by its refusal, and newer views that
        arrive meanwhile are other people's moves."""
        async with self._sending:
            version = message.get("version", self.version)
            future = asyncio.get_running_loop().create_future()
            self._waiting = (version if version == self.version else None, future)
            try:
                await self.ws.send(json.dumps(message))
                outcome = await asyncio.wait_for(future, timeout)
            except asyncio.TimeoutError:
                outcome = "timeout"
            except Exception:
                outcome = "closed"
            finally:
                self._waiting = None
            if outcome == "closed" and self._reader is not None:
                # websockets refuses a send on a lost socket without ever suspending, and
                # the reader may not have run since the loss: until it has, ``connected``
                # still says yes, and a table moving this seat again at once spun without
                # yielding, starving every task of the loop (the reconnects too) until its
                # deadline.  The reader ends as soon as it runs.
                await asyncio.wait([self._reader], timeout=timeout)
        if outcome == "acknowledged":
            self.acknowledged.append((version, message))
        return outcome

    async def move(self) -> str:
        return await self.send(dict(self.rng.choice(self.choices())))


class Table:
    """The players of one game; ``play`` moves whoever's turn it is until the game ends."""

    def __init__(self, players: list[Player]):
        self.players = players
        self.outcomes: list[str] = []

    def mover(self) -> Player | None:
        latest = max(p.version for p in self.players)
        for player in self.players:
            if player.connected and player.turn_mine and player.version == latest \
                    and player.status == "playing" and player.choices():
                return player
        return None

    def describe(self) -> str:
        """What each player last saw, for a failing test's message."""
        return "; ".join(
            f"seat {p.seat} {p.status} v{p.version} mine={p.turn_mine} "
            f"connected={p.connected} choices={p.choices()} refusals={p.refusals[-2:]}"
            for p in self.players) + f"; last outcomes {self.outcomes[-5:]}"

    def over(self) -> bool:
        return any(p.status in ("finished", "interrupted") for p in self.players)

    async def settle(self, within: float = 15.0) -> None:
        """Once the game ended for one player: let the others' last frame arrive before the
        test looks (``play`` stops at the first player who sees the end).  A player whose
        socket was dropped reconnects, as the page would; a live socket is only waited on,
        so a notice lost on it still fails the test."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline and not all(
                p.status in ("finished", "interrupted") for p in self.players):
            for player in self.players:
                if not player.connected:
                    await player.connect()
            await asyncio.sleep(0.05)

    async def play(self, until: float, pause: float = 0.0) -> None:
        while not self.over():
            if time.monotonic() > until:
                raise AssertionError("the game did not end in time: " + self.describe())
            for player in self.players:
                if not player.connected:
                    await player.connect()
            mover = self.mover()
            if mover is None:
                for player in self.players:
                    player.changed.clear()
                waits = [asyncio.ensure_future(p.changed.wait()) for p in self.players]
                await asyncio.wait(waits, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
                for wait in waits:
                    wait.cancel()
                continue
            self.outcomes.append(await mover.move())
            if pause:
                await asyncio.sleep(pause)


async def until_acknowledged(tables: list[Table], count: int, playing: list[asyncio.Future],
                             within: float = 120.0) -> None:
    """Wait until the players of ``tables`` saw ``count`` moves acknowledged in all; fail
    (never hang) if a game's task ended first or it takes longer than ``within``."""
    deadline = time.monotonic() + within
    while sum(len(p.acknowledged) for t in tables for p in t.players) < count:
        for task in playing:
            if task.done():
                task.result()  # its failure, if it failed
                raise AssertionError(f"a game ended before {count} moves were acknowledged")
        if time.monotonic() > deadline:
            raise AssertionError(f"fewer than {count} moves acknowledged in {within} s")
        await asyncio.sleep(0.005)
