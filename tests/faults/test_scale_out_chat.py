"""The chat and the count of watchers scaled out: two daphne processes sharing
PostgreSQL and Redis.  A player's line reaches the other player on the other process and
no spectator; a spectator's reaches the spectator on the other process; both processes'
rooms count the spectators of both.  (These need PostgreSQL and Redis, like the rest of
tests/faults/test_scale_out.py.)"""

import asyncio
import json
import re
import time

import pytest
from websockets.asyncio.client import connect

from .players import session_cookie
from .test_crash import seat_tables

pytestmark = pytest.mark.django_db(transaction=True)
WATCHING = re.compile(r'id="room-watching"[^>]*data-watching="(\d+)"')


class Tab:
    def __init__(self, server, match_id, cookie):
        self.url = f"ws://127.0.0.1:{server.port}/ws/games/{match_id}/"
        self.origin = f"http://127.0.0.1:{server.port}"
        self.cookie = cookie
        self.frames: list[str] = []

    async def open(self):
        self.ws = await connect(self.url, origin=self.origin,
                                additional_headers={"Cookie": self.cookie}, max_size=2 ** 22)
        self.frames.append(await asyncio.wait_for(self.ws.recv(), 10))
        self.reading = asyncio.ensure_future(self._read())

    async def _read(self):
        try:
            async for frame in self.ws:
                self.frames.append(frame)
        except Exception:
            pass

    def text(self) -> str:
        return "".join(self.frames)

    def watching(self) -> int | None:
        found = WATCHING.findall(self.text())
        return int(found[-1]) if found else None


async def until(condition, seconds=15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def test_chat_and_watchers_across_server_processes(scaled_out, make_user):
    (first, second), _clock = scaled_out()
    ((match, users),) = seat_tables(make_user, [2])
    watchers = [make_user("watcher-one"), make_user("watcher-two")]
    cookies = {u.pk: session_cookie(u) for u in users + watchers}
    match.refresh_from_db()
    before = match.version

    async def main():
        a, b = Tab(first, match.pk, cookies[users[0].pk]), Tab(second, match.pk, cookies[users[1].pk])
        w1, w2 = (Tab(first, match.pk, cookies[watchers[0].pk]),
                  Tab(second, match.pk, cookies[watchers[1].pk]))
        for tab in (a, b, w1, w2):
            await tab.open()
        assert await until(lambda: a.watching() == 2 and b.watching() == 2)
        await a.ws.send(json.dumps({"chat": "from a player"}))
        assert await until(lambda: "from a player" in b.text())
        await w1.ws.send(json.dumps({"chat": "from a spectator"}))
        assert await until(lambda: "from a spectator" in w2.text())
        await b.ws.send(json.dumps({"chat": "after that"}))
        assert await until(lambda: "after that" in a.text())
        assert "from a spectator" not in a.text() + b.text()
        assert "from a player" not in w1.text() + w2.text()
        await w2.ws.close()
        assert await until(lambda: a.watching() == 1)
        for tab in (a, b, w1):
            await tab.ws.close()

    asyncio.run(main())
    match.refresh_from_db()
    assert match.version == before
