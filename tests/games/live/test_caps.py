"""Caps across sockets over real WebSockets: sockets per account and game, lobby sockets per
address, one account's messages and connections over all its sockets; slots freed on
close and expiring when their process is gone."""

import json
import logging

import pytest
from channels.db import database_sync_to_async

from games.lobby import service as requests
from games.live import caps as socketcaps
from games.live.base import CLOSE_FLOOD, CLOSE_TOO_MANY_SOCKETS

from ..conftest import wait_until
from ..wsclient import logged_in

pytestmark = pytest.mark.django_db(transaction=True)


async def a_game():
    from accounts.models import User
    masha, alex = [await database_sync_to_async(User.objects.create_user)(name, password="x-Kozel-42")
                   for name in ("masha", "alex")]
    match = await database_sync_to_async(requests.create_request)(masha, players=2)
    await database_sync_to_async(requests.join_request)(alex, match.pk)
    return match.pk, masha, alex


async def open_room(match_id, user):
    """A connected socket that got its view, or the close code it got instead."""
    ws = await logged_in(f"/ws/games/{match_id}/", user)
    connected, code = await ws.connect()
    assert connected, code
    first = await ws.receive_output(timeout=5)
    if first["type"] == "websocket.close":
        return None, first.get("code")
    return ws, None


async def open_lobby(address, user=None):
    ws = await logged_in("/ws/lobby/", user)
    ws.scope["client"] = (address, 40000)
    connected, code = await ws.connect()
    assert connected, code
    first = await ws.receive_output(timeout=5)
    if first["type"] == "websocket.close":
        return None, first.get("code")
    return ws, None


async def close_all(sockets):
    for ws in sockets:
        await ws.disconnect()


async def test_the_sixth_socket_of_one_account_to_one_game_is_refused(caplog):
    match_id, masha, alex = await a_game()
    sockets = []
    for _ in range(5):
        ws, code = await open_room(match_id, masha)
        assert code is None
        sockets.append(ws)
    with caplog.at_level(logging.WARNING, logger="games.live.caps"):
        for _ in range(3):
            refused, code = await open_room(match_id, masha)
            assert refused is None and code == CLOSE_TOO_MANY_SOCKETS
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 1  # one line
    # Another account, and the same account at another game, are not held back.
    other, code = await open_room(match_id, alex)
    assert code is None
    await close_all(sockets + [other])


async def test_closing_a_socket_frees_its_slot():
    match_id, masha, _alex = await a_game()
    sockets = [(await open_room(match_id, masha))[0] for _ in range(5)]
    assert (await open_room(match_id, masha))[1] == CLOSE_TOO_MANY_SOCKETS
    await sockets.pop().disconnect()

    async def a_place_is_free():
        ws, code = await open_room(match_id, masha)
        if ws is not None:
            sockets.append(ws)
        return code is None

    assert await wait_until(a_place_is_free, seconds=5)
    await close_all(sockets)


async def test_a_reconnect_loop_of_resyncs_hits_the_account_limit(settings):
    # Each socket sends one message only: the per-socket flood limit never sees a flood.
    settings.KOZEL_WS_FLOOD = (1.0, 2)
    settings.KOZEL_WS_ACCOUNT_RATE = "30/m"
    match_id, masha, alex = await a_game()
    code = None
    for attempt in range(40):
        ws, code = await open_room(match_id, masha)
        if ws is None:
            break
        await ws.send_to(text_data=json.dumps({"draw": True, "version": 0}))  # stale: a resync
        answer = await ws.receive_output(timeout=5)
        await ws.disconnect()
        if answer["type"] == "websocket.close":
            code = answer.get("code")
            break
    assert code == CLOSE_FLOOD
    assert attempt < 20  # 2 counted a round: the 30th count is refused
    # The account stays refused on a new socket; another account plays on.
    assert (await open_room(match_id, masha))[1] == CLOSE_FLOOD
    other, other_code = await open_room(match_id, alex)
    assert other_code is None
    await other.disconnect()


async def test_lobby_sockets_from_one_address_are_capped(settings):
    settings.KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS = 3
    sockets = [(await open_lobby("203.0.113.5"))[0] for _ in range(3)]
    assert all(sockets)
    assert (await open_lobby("203.0.113.5"))[1] == CLOSE_TOO_MANY_SOCKETS
    elsewhere, code = await open_lobby("203.0.113.6")
    assert code is None
    await sockets.pop().disconnect()

    async def a_place_is_free():
        ws, code = await open_lobby("203.0.113.5")
        if ws is not None:
            sockets.append(ws)
        return code is None

    assert await wait_until(a_place_is_free, seconds=5)
    await close_all(sockets + [elsewhere])


async def test_the_lobby_address_is_the_proxys_word_behind_trusted_proxies(settings):
    settings.KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS = 1
    settings.TRUSTED_PROXIES = 1
    from ..wsclient import ORIGIN, HOST, communicator

    async def through_proxy(client):
        ws = communicator("/ws/lobby/")
        ws.scope["headers"] = [HOST, ORIGIN, (b"x-forwarded-for", f"6.6.6.6, {client}".encode())]
        ws.scope["client"] = ("10.0.0.1", 40000)
        assert (await ws.connect())[0]
        first = await ws.receive_output(timeout=5)
        return ws, first.get("code") if first["type"] == "websocket.close" else None

    first, code = await through_proxy("203.0.113.5")
    assert code is None
    assert (await through_proxy("203.0.113.5"))[1] == CLOSE_TOO_MANY_SOCKETS
    other, code = await through_proxy("203.0.113.9")  # same proxy, another client
    assert code is None
    await close_all([first, other])


async def test_a_slot_whose_process_died_expires(settings):
    settings.KOZEL_WS_SLOT_TTL = 1
    held = socketcaps.Slot("test:dead", 1)
    assert await held.take()
    held.renewing.cancel()  # its process is gone: nobody renews or gives it back
    assert not await socketcaps.Slot("test:dead", 1).take()
    later = socketcaps.Slot("test:dead", 1)
    assert await wait_until(later.take, seconds=5)
    await later.give_back()


async def test_a_living_socket_keeps_its_slot_past_the_ttl(settings):
    settings.KOZEL_WS_SLOT_TTL = 1
    living, dead = socketcaps.Slot("test:alive", 1), socketcaps.Slot("test:gone", 1)
    assert await living.take() and await dead.take()
    dead.renewing.cancel()
    try:
        for round_ in range(2):  # past two TTLs: the slot taken beside it expired meanwhile
            control = socketcaps.Slot("test:gone", 1)
            assert await wait_until(control.take, seconds=5)
            control.renewing.cancel()
            assert not await socketcaps.Slot("test:alive", 1).take()
    finally:
        await living.give_back()
