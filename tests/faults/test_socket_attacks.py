"""The red team's socket attacks against a real daphne process, at a small scale.

Without caps across sockets, 10 loops of one account, each connecting and sending 15
resyncs, would make 75 full reloads a second for as long as they ran, and one account
could hold 300 sockets open to one game.  With them (games/live/caps.py), the
account's messages and connections over all its sockets share one rate, each over it
closed with 4429; an account's sockets to one game, and one address's lobby sockets, are
capped, one more closed with 4409; and the log gets one line per refused account, not one
per socket.
"""

import asyncio
import random

import pytest

from games.lobby import service as requests
from games.live.base import CLOSE_FLOOD, CLOSE_TOO_MANY_SOCKETS

from .players import Player, session_cookie
from .socket_attacks import STALE_MOVE, is_view, open_socket, reconnect_loop

pytestmark = pytest.mark.django_db(transaction=True)
ACCOUNT_RATE = 60   # messages and connections of one account (a day's window: see below)


def a_server(tmp_path, **settings):
    from tests.daphne_server import DaphneServer, live_server_env

    return DaphneServer(env=live_server_env(**settings), log_dir=tmp_path)


@pytest.fixture
def attacked(tmp_path):
    """A daphne process with the site's own limits, but ACCOUNT_RATE a day: the rate's
    window is fixed (games/live/caps.py), and a minute's could end in the middle of
    the test and let twice as many through."""
    server = a_server(tmp_path, KOZEL_WS_ACCOUNT_RATE=f"{ACCOUNT_RATE}/d").start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def a_game(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    return match, session_cookie(masha), session_cookie(alex)


def refusal_lines(server, what: str) -> list[str]:
    return [line for line in server.log_path.read_text(errors="replace").splitlines()
            if f"socket refused ({what})" in line]


def test_ten_reconnect_loops_of_one_account_get_the_accounts_rate_together(attacked, make_user):
    match, masha, alex = a_game(make_user)
    seats = [Player(match.pk, cookie, lambda: attacked.port, seat, random.Random(seat))
             for seat, cookie in enumerate((masha, alex))]

    async def main():
        loops = await asyncio.gather(*(reconnect_loop([attacked.port], match.pk, masha)
                                       for _ in range(10)))
        # Refused now on any new socket of the account; the other player plays on.
        _ws, code, _first = await open_socket(attacked.port, f"/ws/games/{match.pk}/", masha)
        opponent = seats[1]
        await opponent.connect()
        answer = await opponent.send({"draw": True, "version": 0})
        await opponent.close()
        return loops, code, answer

    loops, code, answer = asyncio.run(main())
    print("full views per loop:", [views for views, _ended in loops])
    assert [ended for _views, ended in loops] == [CLOSE_FLOOD] * 10
    # Every full view cost the account one count (its connection's or its message's).
    views = sum(views for views, _ended in loops)
    assert 0 < views <= ACCOUNT_RATE, views
    assert code == CLOSE_FLOOD
    assert answer == "refused"  # a stale move, answered as ever: the account is not held
    assert len(refusal_lines(attacked, "account-rate")) == 1


def test_one_account_opening_thirty_sockets_to_one_game_at_once_keeps_five(
        daphne_server, make_user):
    match, masha, alex = a_game(make_user)
    path = f"/ws/games/{match.pk}/"

    async def main():
        opened = await asyncio.gather(*(open_socket(daphne_server.port, path, masha)
                                        for _ in range(30)))
        kept = [ws for ws, _code, _first in opened if ws is not None]
        codes = sorted(code for _ws, code, _first in opened if code is not None)
        # The five kept still work: each one's stale move is answered by its full view.
        for ws in kept:
            await ws.send(STALE_MOVE)
        views = [is_view(await next_view(ws)) for ws in kept]
        for ws in kept:
            await ws.close()
        return len(kept), codes, views

    kept, codes, views = asyncio.run(main())
    assert kept == 5 and codes == [CLOSE_TOO_MANY_SOCKETS] * 25
    assert all(views)
    assert len(refusal_lines(daphne_server, "game-sockets")) == 1


async def next_view(ws):
    while True:
        frame = await asyncio.wait_for(ws.recv(), 10)
        if is_view(frame):
            return frame


def test_one_address_opening_twenty_five_lobby_sockets_at_once_keeps_twenty(daphne_server, db):
    async def main():
        opened = await asyncio.gather(*(open_socket(daphne_server.port, "/ws/lobby/")
                                        for _ in range(25)))
        for ws, _code, _first in opened:
            if ws is not None:
                await ws.close()
        return sorted(code for _ws, code, _first in opened if code is not None), \
            sum(ws is not None for ws, _code, _first in opened)

    codes, kept = asyncio.run(main())
    assert kept == 20 and codes == [CLOSE_TOO_MANY_SOCKETS] * 5
    assert len(refusal_lines(daphne_server, "lobby-sockets")) == 1
