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


async def published(group: str, publish_all) -> tuple[list, int]:
    """``publish_all(publish)`` publishes notices by ``publish(version)`` from one process:
    the versions another process receives, in its order, and the round trips the sender
    made."""
    sender, listener = configured_layer(), configured_layer()
    channel = await listener.new_channel()
    await listener.group_add(group, channel)
    try:
        await publish_all(lambda version: sender.group_send(
            group, {"type": "match.changed", "version": version}))
        received = await receive_all(listener, channel)
        return [m["version"] for m in received], sender._get_layer()._shards[0].batches
    finally:
        await sender.flush()
        await listener.flush()


async def published_at_once() -> tuple[list, int]:
    """BURST notices published at the same moment by as many tasks of one process."""
    return await published("match-together", lambda publish: asyncio.gather(
        *(publish(version) for version in range(BURST))))


def test_notices_published_at_once_go_together_in_their_order():
    """A notice does not wait for the round trips of those published before it
    (channels-redis sent them one by one, each after the last one's answer): the first
    goes alone, the rest together, in the order they were published."""
    versions, round_trips = asyncio.run(published_at_once())
    assert versions == list(range(BURST))
    assert round_trips <= 3


async def published_one_by_one(count: int) -> tuple[list, int]:
    async def each_after_the_last(publish):
        for version in range(count):
            await publish(version)
    return await published("match-one-by-one", each_after_the_last)


def test_notices_published_one_at_a_time_each_go_alone_in_their_order():
    """At human pace a batch is one notice: sent as a plain PUBLISH, not a pipeline."""
    versions, round_trips = asyncio.run(published_one_by_one(5))
    assert versions == list(range(5)) and round_trips == 5
