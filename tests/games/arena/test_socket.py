"""The arena page's socket: its live part on connecting, an answer to every beat (the
part again when the page is behind), and the live part again when a game changes the
standings; a private arena's socket is refused to whoever has not opened its link."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.arena import service
from tests.games.wsclient import communicator, session_cookie

from .helpers import an_arena

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_beats_are_answered_and_a_behind_page_gets_the_live_part(make_user):
    person = await sync_to_async(make_user)("masha")
    arena = await sync_to_async(an_arena)()
    socket = communicator(f"/ws/arenas/{arena.pk}/", await sync_to_async(session_cookie)(person))
    connected, _ = await socket.connect(timeout=10)
    assert connected
    first = await socket.receive_from(timeout=10)
    assert 'data-shown-version="0"' in first and 'data-testid="arena-join"' in first
    for _ in range(3):  # up to date: the version it shows, every time
        await socket.send_json_to({"beat": 0})
        answer = await socket.receive_from(timeout=10)
        assert 'data-shown-version="0"' in answer and "arena-join" not in answer
    await sync_to_async(service.join)(arena, person)
    await socket.receive_from(timeout=10)  # the change, told to the page
    await asyncio.sleep(1.1)  # the version the beats compare with is read once a second
    await socket.send_json_to({"beat": 0})  # a page that missed it is sent it
    again = await socket.receive_from(timeout=10)
    assert 'data-shown-version="1"' in again and 'data-state="waiting"' in again
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_private_arena_is_refused_without_its_link(make_user):
    person = await sync_to_async(make_user)("masha")
    arena = await sync_to_async(an_arena)(private=True)
    socket = communicator(f"/ws/arenas/{arena.pk}/", await sync_to_async(session_cookie)(person))
    connected, code = await socket.connect(timeout=10)
    assert (connected, code) == (False, 4403)  # as a private table's room
