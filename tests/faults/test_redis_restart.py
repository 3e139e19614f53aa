"""A notice sent just after Redis restarted still arrives (games/live/notices.py), and a lobby
page that missed one is mended by its heartbeat once Redis is back (games/live/base.py).

The server's pooled Redis connections are then still the old server's, and the first
command on one fails.  The whole-game check is tests/faults/test_scale_out.py; this one
pins the cause it once failed on.
"""

import asyncio
import json
import logging

import pytest
from channels.layers import get_channel_layer
from django.utils.module_loading import import_string
from websockets.asyncio.client import connect

from games.live.base import BEAT_SECONDS
from games.lobby import listing
from games.play import notify
from games.lobby import service as requests
from kozel_site import env

from .players import session_cookie

pytestmark = pytest.mark.django_db


async def test_a_notice_sent_on_a_connection_from_before_the_restart_still_arrives(
        own_redis, settings, caplog):
    settings.CHANNEL_LAYERS = env.channel_layers(
        {"REDIS_URL": f"redis://127.0.0.1:{own_redis.port}/0"})
    notifier = get_channel_layer()
    await notifier.group_send("warm-up", {"type": "match.changed"})  # a pooled connection

    own_redis.kill()
    own_redis.start()
    await asyncio.to_thread(own_redis.ready)

    # A listener connected afresh, as a room hub of another server process would be.
    config = settings.CHANNEL_LAYERS["default"]
    listener = import_string(config["BACKEND"])(**config["CONFIG"])
    channel = await listener.new_channel()
    await listener.group_add("match-1", channel)

    message = {"type": "match.changed", "match": 1, "version": 7, "events": []}
    with caplog.at_level(logging.WARNING, logger="games.play.notify"):
        await notify.send_collected([notify.Notice("match-1", message)])
    received = await asyncio.wait_for(listener.receive(channel), timeout=5)
    assert received == message
    # The first try met the old connection (else this test shows nothing).
    assert any("trying again" in r.getMessage() for r in caplog.records)
    await listener.flush()
    await notifier.flush()



def test_a_lobby_page_is_taken_to_a_table_that_filled_while_redis_was_away(
        scaled_out, own_redis, make_user):
    """The table's "lobby.start" never reaches the page (Redis is away; here it is also
    sent to another Redis), and Redis comes back only after the table stopped counting
    as just started: the page's heartbeat still gets it its list again, with the way to
    the table."""
    (server,), _clock = scaled_out(redis_url=f"redis://127.0.0.1:{own_redis.port}/0",
                                   servers=1)
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    cookie = session_cookie(masha)
    redirect = f'data-redirect="/games/{match.pk}/"'

    async def main():
        async with connect(f"ws://127.0.0.1:{server.port}/ws/lobby/",
                           origin=f"http://127.0.0.1:{server.port}",
                           additional_headers={"Cookie": cookie}, ping_interval=None) as page:
            first = await asyncio.wait_for(page.recv(), 10)
            assert 'id="lobby-requests"' in first and "data-redirect" not in first
            own_redis.kill()
            await asyncio.to_thread(requests.join_request, alex, match.pk)
            await asyncio.sleep(listing.JUST_STARTED.total_seconds() + 1)
            own_redis.start()
            await asyncio.to_thread(own_redis.ready)

            async def beat():  # as the page does (static/js/kozel.js)
                while True:
                    await page.send(json.dumps({"beat": None}))
                    await asyncio.sleep(BEAT_SECONDS)

            beating = asyncio.ensure_future(beat())
            frames = []
            try:
                while redirect not in (frames[-1] if frames else ""):
                    frames.append(await asyncio.wait_for(page.recv(), 10))
            except asyncio.TimeoutError:
                raise AssertionError(f"no way to the table came: {frames}\n"
                                     f"{server.log_tail()}") from None
            finally:
                beating.cancel()

    asyncio.run(main())
