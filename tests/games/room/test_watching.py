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


# -- issue 42, point 5: who is watching -------------------------------------------------------

async def test_the_count_opens_who_watches_logins_named_and_guests_counted():
    from asgiref.sync import sync_to_async
    from django.test import Client

    from games.room import watching

    a, b, w1, w2 = await make_users("wwa", "wwb", "Zoya", "anton")
    match_id = await start_table([a, b])
    pa = Seat(match_id, a)
    await pa.connect()
    assert await watching.watchers(match_id) == {"names": [], "guests": 0}
    viewers = [Seat(match_id, w1), Seat(match_id, w2), Seat(match_id, w2),
               Seat(match_id, None), Seat(match_id, None)]
    for viewer in viewers:
        await viewer.connect()
    # Each login once, however many pages it has open; the anonymous counted, not named;
    # the players are not spectators.
    assert await watching.watchers(match_id) == {"names": ["anton", "Zoya"], "guests": 2}
    assert await wait_until(lambda: shows(pa, 5))
    # The count is a button that opens the list, from the room's own page.
    frame = [f for f in pa.frames if 'id="room-watching"' in f][-1]
    assert "data-watching-open" in frame and f'data-url="/games/{match_id}/watching/"' in frame
    page = (await sync_to_async(Client().get)(f"/games/{match_id}/watching/")).content.decode()
    assert ">anton</a>" in page and ">Zoya</a>" in page and "и ещё 2 гостя" in page
    assert "wwa" not in page and "wwb" not in page
    await viewers[1].ws.disconnect()  # anton's second page stays
    await viewers[0].ws.disconnect()
    await viewers[3].ws.disconnect()
    assert await watching.watchers(match_id) == {"names": ["anton"], "guests": 1}
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies["django_language"] = "en"
    page = (await sync_to_async(english.get)(f"/games/{match_id}/watching/")).content.decode()
    assert ">anton</a>" in page and "and 1 more guest<" in page
    for seat in (pa, viewers[2], viewers[4]):
        await seat.ws.disconnect()
    assert await watching.watchers(match_id) == {"names": [], "guests": 0}
    page = (await sync_to_async(Client().get)(f"/games/{match_id}/watching/")).content.decode()
    assert "Сейчас никто не смотрит." in page


async def test_a_private_tables_watchers_are_not_shown_to_others(client=None):
    from asgiref.sync import sync_to_async
    from django.test import Client

    from games.models import Match

    a, b = await make_users("pwa", "pwb")
    match_id = await start_table([a, b])
    await sync_to_async(Match.objects.filter(pk=match_id).update)(private=True)
    answer = await sync_to_async(Client().get)(f"/games/{match_id}/watching/")
    assert answer.status_code == 404
