"""A notice sent just after Redis restarted still arrives (games/notify.py).

The server's pooled Redis connections are then still the old server's, and the first
command on one fails.  The whole-game check is tests/faults/test_scale_out.py; this one
pins the cause it once failed on.
"""

import asyncio
import logging

import pytest
from channels.layers import get_channel_layer
from django.utils.module_loading import import_string

from games import notify
from kozel_site import env

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
    with caplog.at_level(logging.WARNING, logger="games.notify"):
        await notify.send_collected([notify.Notice("match-1", message)])
    received = await asyncio.wait_for(listener.receive(channel), timeout=5)
    assert received == message
    # The first try met the old connection (else this test shows nothing).
    assert any("trying again" in r.getMessage() for r in caplog.records)
    await listener.flush()
    await notifier.flush()

