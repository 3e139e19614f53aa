"""The Redis channel layer as configured (kozel_site/env.py, kozel_site/layers.py) keeps a
busy process's notices: all the consumers of one server process share one Redis queue,
and channels-redis drops a group message to a full queue without an error; and a burst of
notices waits for Redis connections instead of failing."""

import asyncio
import os

import pytest
from channels_redis.core import RedisChannelLayer as ChannelsRedisChannelLayer

from kozel_site import env
from kozel_site.layers import RedisChannelLayer

NOTICES = 600  # a few seconds of notices for a process holding hundreds of seats


def layer_config() -> dict:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis: set REDIS_URL (CI's first pass does)")
    config = env.channel_layers({"REDIS_URL": os.environ["REDIS_URL"]})["default"]["CONFIG"]
    return dict(config, prefix="kozel-capacity-test")


async def sent_and_received(config: dict) -> int:
    """Send NOTICES group messages to 3 consumers of one process that is not reading
    (a busy event loop), then read: how many the last consumer gets."""
    layer = RedisChannelLayer(**config)
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("match-capacity", channel)
    try:
        for version in range(NOTICES):
            await layer.group_send("match-capacity", {"type": "match.changed", "version": version})
        received = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channels[-1]), 1.0)
            except asyncio.TimeoutError:
                return len(received)
            received.append(message["version"])
    finally:
        await layer.flush()
        await layer.close_pools()


def test_a_process_that_falls_behind_loses_no_notice():
    assert asyncio.run(sent_and_received(layer_config())) == NOTICES


def test_with_channels_redis_defaults_it_would():
    # The reason for the setting: the same backlog with the default capacity loses notices.
    config = {k: v for k, v in layer_config().items() if k not in ("capacity", "channel_capacity")}
    assert asyncio.run(sent_and_received(config)) < NOTICES


BURST = 400  # moves of a busy process whose notices are sent at the same moment


async def burst_delivered(layer) -> tuple[int, int]:
    """Send BURST group messages at once, each to its own group of 4 consumers of this
    process: (how many sends failed, how many messages arrived)."""
    channels = [await layer.new_channel() for _ in range(4)]
    for channel in channels:
        await layer.group_add("match-burst", channel)
    try:
        results = await asyncio.gather(*(
            layer.group_send("match-burst", {"type": "match.changed", "version": version})
            for version in range(BURST)), return_exceptions=True)
        failed = sum(isinstance(r, Exception) for r in results)
        arrived = 0
        while True:
            try:
                await asyncio.wait_for(layer.receive(channels[0]), 1.0)
            except asyncio.TimeoutError:
                return failed, arrived
            arrived += 1
    finally:
        await layer.flush()
        await layer.close_pools()


def test_a_burst_of_notices_waits_for_connections():
    assert asyncio.run(burst_delivered(RedisChannelLayer(**layer_config()))) == (0, BURST)


def test_with_channels_redis_own_pool_a_burst_loses_notices():
    # The reason for the pool: redis-py's own refuses commands past 100 connections.
    failed, arrived = asyncio.run(burst_delivered(ChannelsRedisChannelLayer(**layer_config())))
    assert failed > 0 and arrived < BURST
