"""The embedded setup's in-memory channel layer (kozel_site/runtime/layers.py): a group message
reaches every member, in order, and a full member's queue misses it without keeping the
others from theirs -- as channels' own layer does, without a task per member."""

import asyncio

from kozel_site.runtime.layers import InMemoryChannelLayer


async def drain(layer, channel) -> list[int]:
    got = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), 0.05)
        except asyncio.TimeoutError:
            return got
        got.append(message["version"])


async def test_every_member_gets_every_message_in_order():
    layer = InMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("match-1", channel)
    await layer.group_add("match-2", channels[0])
    for version in range(5):
        await layer.group_send("match-1", {"type": "match.changed", "version": version})
    await layer.group_send("match-2", {"type": "match.changed", "version": 99})
    await layer.group_send("match-3", {"type": "match.changed", "version": 100})  # nobody
    assert await drain(layer, channels[0]) == [0, 1, 2, 3, 4, 99]
    assert await drain(layer, channels[1]) == [0, 1, 2, 3, 4]
    assert await drain(layer, channels[2]) == [0, 1, 2, 3, 4]


async def test_a_full_member_misses_the_message_and_the_others_still_get_it():
    layer = InMemoryChannelLayer(capacity=2)
    full, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match-1", full)
    await layer.group_add("match-1", other)
    for version in range(2):
        await layer.send(full, {"type": "match.changed", "version": version})
    await layer.group_send("match-1", {"type": "match.changed", "version": 7})  # no error
    assert await drain(layer, full) == [0, 1]
    assert await drain(layer, other) == [7]


async def test_a_member_gets_a_copy_of_the_message():
    layer = InMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("match-1", channel)
    message = {"type": "match.changed", "version": 1, "events": [{"type": "played"}]}
    await layer.group_send("match-1", message)
    message["events"].append({"type": "changed after sending"})
    received = await layer.receive(channel)
    assert received["events"] == [{"type": "played"}]
