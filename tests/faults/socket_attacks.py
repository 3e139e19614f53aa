"""The red team's socket attacks, as coroutines a test runs against real server processes:
one account's reconnect loops, and one account opening many sockets to one game at once.
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.live.base import CLOSE_FLOOD

STALE_MOVE = '{"draw": true, "version": 0}'  # refused as stale: answered by the full view


def is_view(frame: str) -> bool:
    return '<div id="room"' in frame


async def open_socket(port: int, path: str, cookie: str = ""):
    """A socket that got its first frame, or the close code it got instead."""
    ws = await connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                       additional_headers={"Cookie": cookie} if cookie else {},
                       open_timeout=10, ping_interval=None, max_size=2 ** 22)
    try:
        first = await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed as closed:
        return None, closed.rcvd.code if closed.rcvd else None, ""
    return ws, None, first


async def reconnect_loop(ports, match_id: int, cookie: str, resyncs: int = 15,
                         within: float = 30.0) -> tuple[int, int | None]:
    """One loop of the attack: connect (to each of ``ports`` in turn), send ``resyncs``
    stale moves, each answered by a full view, close and connect again -- until the
    server refuses the account for its rate (4429).  (Full views it got, the code that
    ended it: 4429, or None if ``within`` seconds passed first.)"""
    views, turn = 0, 0
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        port = ports[turn % len(ports)]
        turn += 1
        try:
            ws, code, first = await open_socket(port, f"/ws/games/{match_id}/", cookie)
        except (InvalidStatus, OSError):
            continue
        if ws is None:
            if code == CLOSE_FLOOD:
                return views, code
            continue  # over the sockets per game (4409): an attacker tries again
        views += is_view(first)
        try:
            for _ in range(resyncs):
                await ws.send(STALE_MOVE)
            answered = 0
            while answered < resyncs:
                if is_view(await asyncio.wait_for(ws.recv(), 10)):
                    views += 1
                    answered += 1
        except ConnectionClosed as closed:
            if closed.rcvd and closed.rcvd.code == CLOSE_FLOOD:
                return views, CLOSE_FLOOD
        finally:
            await ws.close()
    return views, None
