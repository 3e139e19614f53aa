"""How many watch a game: spectators' sockets counted in the shared cache and shown in
every room of the match, the players' too; players are not counted."""

import re

import pytest

from ..conftest import wait_until
from ..wsclient import Seat
from .test_consumer import make_users, start_table

pytestmark = pytest.mark.django_db(transaction=True)
WATCHING = re.compile(r'id="room-watching"[^>]*data-watching="(\d+)"')


def shown(seat) -> int | None:
    counts = [WATCHING.search(f) for f in seat.frames]
    counts = [int(c.group(1)) for c in counts if c]
    return counts[-1] if counts else None


async def shows(seat, count) -> bool:
    await seat.drain()
    return shown(seat) == count


async def test_the_room_shows_how_many_watch_and_players_do_not_count():
    a, b, w1, w2 = await make_users("wa", "wb", "ww1", "ww2")
    match_id = await start_table([a, b])
    pa, pb = Seat(match_id, a), Seat(match_id, b)
    for seat in (pa, pb):
        await seat.connect()
    assert shown(pa) == 0 and shown(pb) == 0
    first, second, anonymous = Seat(match_id, w1), Seat(match_id, w2), Seat(match_id, None)
    await first.connect()
    assert shown(first) == 1
    assert await wait_until(lambda: shows(pa, 1))
    await second.connect()
    await anonymous.connect()
    assert shown(anonymous) == 3
    assert await wait_until(lambda: shows(pb, 3))
    await second.ws.disconnect()
    assert await wait_until(lambda: shows(pa, 2))
    assert await wait_until(lambda: shows(first, 2))
    for seat in (pa, pb, first, anonymous):
        await seat.ws.disconnect()
