"""Clean refusals over real WebSockets: a message nested too deep, a path
the site does not serve, a flood.  Each is refused with its own close code or HTTP status,
and the server's log gets no traceback.  The server is daphne in a subprocess
(tests/daphne_server.py), so its log is the one a site's operator reads."""

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.lobby import service as requests
from tests.faults.players import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

NESTED = "[" * 1000 + "]" * 1000  # 2,000 bytes, deeper than Python's json can recurse


def log_of(server) -> str:
    return server.log_path.read_text(errors="replace")


def no_traceback(server):
    log = log_of(server)
    assert "Traceback" not in log and "closed protocol" not in log, log[-3000:]


async def socket(server, path, cookie=""):
    return await connect(f"{server.ws_url}{path}", origin=server.url,
                         additional_headers={"Cookie": cookie} if cookie else {},
                         open_timeout=5, ping_interval=None)


def a_game(make_user):
    masha, alex = make_user("rf1"), make_user("rf2")
    match = requests.create_request(masha, players=2, turn_seconds=60)
    requests.join_request(alex, match.pk)
    return match, session_cookie(masha)


def test_a_message_nested_too_deep_is_refused_as_not_json_on_the_game_socket(
        daphne_server, make_user):
    match, cookie = a_game(make_user)

    async def main():
        ws = await socket(daphne_server, f"/ws/games/{match.pk}/", cookie)
        await ws.recv()  # the full view
        await ws.send(NESTED)
        answer = await asyncio.wait_for(ws.recv(), 10)
        await ws.close()
        return answer

    answer = asyncio.run(main())
    assert "не в формате JSON" in answer, answer  # Russian first: the session has no choice
    no_traceback(daphne_server)


def test_a_message_nested_too_deep_closes_the_lobby_socket_as_not_a_message(
        daphne_server, make_user):
    cookie = session_cookie(make_user("rf3"))

    async def main():
        ws = await socket(daphne_server, "/ws/lobby/", cookie)
        await ws.recv()
        await ws.send(NESTED)
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code

    assert asyncio.run(main()) == 4400
    no_traceback(daphne_server)


@pytest.mark.parametrize("path", ["/ws/", "/ws/games/abc/", "/ws/lobby/extra/", "/nothing/"])
def test_a_path_the_site_does_not_serve_is_refused_at_the_handshake(daphne_server, path):
    async def main():
        with pytest.raises(InvalidStatus) as refused:
            await socket(daphne_server, path)
        return refused.value.response.status_code

    assert asyncio.run(main()) == 403
    no_traceback(daphne_server)


def test_messages_after_a_flood_close_log_nothing(daphne_server, make_user):
    match, cookie = a_game(make_user)

    async def main():
        ws = await socket(daphne_server, f"/ws/games/{match.pk}/", cookie)
        await ws.recv()
        for _ in range(200):  # far over the flood limit's burst (16), all at once
            try:
                await ws.send(json.dumps({"draw": True, "version": 0}))
            except ConnectionClosed:
                break
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code

    assert asyncio.run(main()) == 4429
    # One more socket answered: the server has handled the flood's messages before it.
    async def again():
        ws = await socket(daphne_server, f"/ws/games/{match.pk}/", cookie)
        await ws.recv()
        await ws.close()
    asyncio.run(again())
    no_traceback(daphne_server)
