"""The Redis channel layer as configured (kozel_site/env.py) keeps a busy process's
notices: a process that falls behind reading, or a burst of notices sent at once, loses
none (with channels-redis' queue layer, both once lost notices: a full queue dropped
them, and redis-py's pool refused commands past a hundred connections)."""

import asyncio
import os

import pytest
from django.utils.module_loading import import_string

from kozel_site import env

NOTICES = 600  # a few seconds of notices for a process holding hundreds of seats
BURST = 400  # moves of a busy process whose notices are sent at the same moment


def configured_layer():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis: set REDIS_URL (CI's first pass does)")
    config = env.channel_layers({"REDIS_URL": os.environ["REDIS_URL"]})["default"]
    return import_string(config["BACKEND"])(**dict(config["CONFIG"], prefix="kozel-layer-test"))


async def receive_all(layer, channel, within: float = 1.0) -> list:
    received = []
    while True:
        try:
            received.append(await asyncio.wait_for(layer.receive(channel), within))
        except asyncio.TimeoutError:
            return received


async def fallen_behind() -> tuple[int, list]:
    """Send NOTICES group messages to 3 consumers of one process that is not reading (a
    busy event loop), then read: how many each consumer gets, and the last one's order."""
    sender, listener = configured_layer(), configured_layer()  # two processes' layers
    channels = [await listener.new_channel() for _ in range(3)]
    for channel in channels:
        await listener.group_add("match-capacity", channel)
    try:
        for version in range(NOTICES):
            await sender.group_send("match-capacity", {"type": "match.changed", "version": version})
        counts = []
        for channel in channels:
            received = await receive_all(listener, channel)
            counts.append(len(received))
        return counts, [m["version"] for m in received]
    finally:
        await sender.flush()
        await listener.flush()


def test_a_process_that_falls_behind_loses_no_notice_and_keeps_their_order():
    counts, versions = asyncio.run(fallen_behind())
    assert counts == [NOTICES] * 3 and versions == list(range(NOTICES))


async def burst_delivered() -> tuple[int, int]:
    """Send BURST group messages at once, each to a group of 4 consumers of another
    process: (how many sends failed, how many messages the first consumer got)."""
    sender, listener = configured_layer(), configured_layer()
    channels = [await listener.new_channel() for _ in range(4)]
    for channel in channels:
        await listener.group_add("match-burst", channel)
    try:
        results = await asyncio.gather(*(
            sender.group_send("match-burst", {"type": "match.changed", "version": version})
            for version in range(BURST)), return_exceptions=True)
        failed = sum(isinstance(r, Exception) for r in results)
        return failed, len(await receive_all(listener, channels[0]))
    finally:
        await sender.flush()
        await listener.flush()


def test_a_burst_of_notices_all_arrive():
    assert asyncio.run(burst_delivered()) == (0, BURST)
