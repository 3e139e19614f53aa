"""The WebSocket caps hold across server processes (games/live/caps.py): one
account's sockets to one game, and its messages and connections, are counted together on
every process, through Redis.

These need PostgreSQL and Redis (CI's first pass); the embedded pass skips them.
"""

import asyncio

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.lobby import service as requests
from games.live.base import CLOSE_FLOOD, CLOSE_TOO_MANY_SOCKETS
from tests.waiting import wait_until

from .players import session_cookie
from .socket_attacks import reconnect_loop

pytestmark = pytest.mark.django_db(transaction=True)


async def open_room(port: int, match_id: int, cookie: str):
    """A socket that got its first frame, or the close code it got instead."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws/games/{match_id}/",
                       origin=f"http://127.0.0.1:{port}", additional_headers={"Cookie": cookie},
                       open_timeout=10, ping_interval=None, max_size=2 ** 22)
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed as closed:
        return None, closed.rcvd.code if closed.rcvd else None
    return ws, None


def test_one_accounts_sockets_to_a_game_are_capped_over_both_processes(scaled_out, make_user):
    (first, second), _clock = scaled_out()
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    cookie = session_cookie(masha)

    async def main():
        open_ = []
        for port in (first.port, second.port, first.port, second.port, first.port):
            ws, code = await open_room(port, match.pk, cookie)
            assert code is None
            open_.append(ws)
        refused = [(await open_room(port, match.pk, cookie))[1]
                   for port in (first.port, second.port)]
        await open_.pop().close()  # one on the first process gone: a place on the second

        async def a_place_on_the_second():
            ws, code = await open_room(second.port, match.pk, cookie)
            if ws is not None:
                open_.append(ws)
            return code is None

        freed = await wait_until(a_place_on_the_second, seconds=10, every=0.1)
        for ws in open_:
            await ws.close()
        return refused, freed

    refused, freed = asyncio.run(main())
    assert refused == [CLOSE_TOO_MANY_SOCKETS, CLOSE_TOO_MANY_SOCKETS]
    assert freed


def test_reconnect_loops_over_both_processes_get_one_accounts_rate_together(
        scaled_out, make_user):
    """The red team's ten loops of one account, each reconnecting and sending 15 resyncs,
    every loop going to both processes in turn: the account's one rate (counted in Redis)
    ends them all, after no more full views than it allows in all."""
    rate = 60  # a day's window: a minute's could end during the test (fixed windows)
    (first, second), _clock = scaled_out(KOZEL_WS_ACCOUNT_RATE=f"{rate}/d")
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    cookie = session_cookie(masha)

    async def main():
        ports = [first.port, second.port]
        return await asyncio.gather(*(reconnect_loop(ports[n % 2:] + ports[:n % 2], match.pk,
                                                     cookie) for n in range(10)))

    loops = asyncio.run(main())
    assert [ended for _views, ended in loops] == [CLOSE_FLOOD] * 10
    views = sum(views for views, _ended in loops)
    assert 0 < views <= rate, views
