"""games/room/hub.py: a process hears each match's change once, and hands it to its rooms.

The rooms here are real consumers over channels' test WebSockets; Redis restarts, and
seats on two server processes, are in tests/faults/test_scale_out.py.
"""

import asyncio
import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.room import hub as roomhub
from games.play import notify, service as services
from games.room.consumer import GameConsumer

from .test_consumer import make_users, start_table
from ..wsclient import Seat
from ...waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _no_groups_left_over():
    # Redis outlives test runs, and match ids start again in every run's test database:
    # a group must hold only what this test put in it.
    await get_channel_layer().flush()


async def members(match_id):
    """The channels of this process in the match's group, as the layer keeps them: in
    memory (the embedded setup), or as this process's subscriptions to the group's Redis
    channel (the publish/subscribe layer)."""
    layer, group = get_channel_layer(), notify.match_group(match_id)
    if hasattr(layer, "_get_group_channel_name"):
        return set(layer.groups.get(layer._get_group_channel_name(group), ()))
    return set(layer.groups.get(group, {}))


async def seated(*names, spectator=False):
    """A running table of ``names`` with every seat's room open (and a spectator's)."""
    users = await make_users(*names)
    match_id = await start_table(users)
    seats = [Seat(match_id, u) for u in users] + ([Seat(match_id)] if spectator else [])
    for seat in seats:
        await seat.connect()
    return match_id, seats


async def close_all(seats):
    for seat in seats:
        await seat.ws.disconnect()


async def move_once(seats):
    mover = next(s for s in seats if s.turn_mine)
    version = mover.version
    await mover.ws.send_to(text_data=json.dumps(mover.choices()[0]))
    for seat in seats:
        while seat.version == version:
            await seat.receive()
    return version


async def test_one_member_per_process_however_many_rooms_and_every_room_is_told():
    match_id, seats = await seated("h1", "h2", "h3", "h4", spectator=True)
    hub = roomhub.hub()
    assert await members(match_id) == {hub.channel}
    assert len(hub.rooms[match_id]) == 5

    version = await move_once(seats)
    assert all(seat.version > version for seat in seats)
    await close_all(seats)


async def test_the_last_room_to_close_takes_the_process_out_of_the_group():
    match_id, seats = await seated("l1", "l2")
    hub = roomhub.hub()
    await seats[0].ws.disconnect()
    assert await members(match_id) == {hub.channel}
    await seats[1].ws.disconnect()
    assert await members(match_id) == set() and match_id not in hub.rooms
    assert match_id not in hub.snapshots.latest  # nor its snapshot kept

    # Back again: heard again.
    for seat in seats:
        await seat.connect()
    assert await members(match_id) == {hub.channel}
    version = await move_once(seats)
    assert all(seat.version > version for seat in seats)
    await close_all(seats)


async def test_a_room_that_opens_as_the_last_one_closes_is_still_told():
    # The leaving room's group_discard and the new room's group_add go one at a time,
    # so the discard cannot land after the add.
    users = await make_users("r1", "r2")
    match_id = await start_table(users)
    first, second = Seat(match_id, users[0]), Seat(match_id, users[1])
    await first.connect()
    await asyncio.gather(first.ws.disconnect(), second.connect())
    assert await members(match_id) == {roomhub.hub().channel}
    await first.connect()
    version = await move_once([first, second])
    assert second.version > version
    await close_all([first, second])


async def test_a_notice_for_a_match_with_no_room_here_is_ignored():
    match_id, seats = await seated("n1", "n2")
    hub = roomhub.hub()
    # The hub's channel gets a notice of a match it has no room for (a membership left
    # behind by a process that died, say): nothing is sent, nothing fails.
    await get_channel_layer().send(hub.channel, {"type": "match.changed", "match": match_id + 1000,
                                                 "version": 5, "events": []})
    version = await move_once(seats)
    assert all(seat.version > version for seat in seats)
    assert hub.listening is not None and not hub.listening.done()
    await close_all(seats)


async def test_the_player_who_moved_gets_one_frame_of_the_move_not_two():
    # It is shown the move at once (consumers.show_own_move); the hub then passes it by.
    _match_id, seats = await seated("o1", "o2")
    mover = next(s for s in seats if s.turn_mine)
    await move_once(seats)
    assert await mover.ws.receive_nothing(timeout=0.3)
    assert sum(f'data-version="{mover.version}"' in f for f in mover.frames) == 1
    await close_all(seats)


async def every_room_shown_the_move(seats, version):
    """Every room gets a frame newer than ``version``, all the same one (an automatic
    knock may follow the move at once: then two versions later), with one seat to move."""
    for seat in seats:
        while seat.version == version:
            await seat.receive(timeout=3)
    assert len({seat.version for seat in seats}) == 1
    assert sum(seat.turn_mine for seat in seats) == 1


def commit_without_notice(match_id, user, message, version):
    """A move committed by a process that died before sending its notice: made here, its
    notices collected (games/play/notify.py) and dropped."""
    with notify.collected():
        services.act(match_id, user, message, version)


async def test_a_change_whose_notice_was_lost_reaches_every_room_all_the_same(settings):
    settings.KOZEL_ROOM_CATCH_UP = 0.2
    match_id, seats = await seated("c1", "c2", "c3", "c4", spectator=True)
    mover = next(s for s in seats if s.turn_mine)
    version = mover.version
    await database_sync_to_async(commit_without_notice)(
        match_id, mover.user, mover.choices()[0], version)
    await every_room_shown_the_move(seats, version)  # after one to two looks (0.2-0.4 s)
    await close_all(seats)


async def test_rooms_that_are_up_to_date_get_nothing_from_the_looks(settings):
    settings.KOZEL_ROOM_CATCH_UP = 0.05
    _match_id, seats = await seated("u1", "u2")
    await move_once(seats)
    for seat in seats:
        assert await seat.ws.receive_nothing(timeout=0.4)
    await close_all(seats)


async def test_a_room_still_loading_its_first_view_is_not_taken_for_a_lost_notice(settings, caplog):
    """A room joins the hub before it loads its first view (consumer.connect): the
    looks in that time find it at no version, which no lost notice explains."""
    settings.KOZEL_ROOM_CATCH_UP = 0.05
    match_id, seats = await seated("f1", "f2")
    loading = GameConsumer()
    loading.sent_version = -1  # as connect sets it, before the first view is sent
    hub = roomhub.hub()
    with caplog.at_level(logging.WARNING, logger=roomhub.__name__):
        await hub.join(loading, match_id)
        await asyncio.sleep(0.3)  # several looks
        await hub.leave(loading, match_id)
    assert not [r for r in caplog.records if "no notice" in r.getMessage()]
    await close_all(seats)


async def test_the_other_rooms_here_see_a_move_without_the_channel_layer(settings):
    """A move made in this process is shown to its other rooms here at once: the layer
    losing the notice (the hub's membership dropped, as Redis away would) does not keep
    the other players from it, and the catch-up looks are not what shows it."""
    settings.KOZEL_ROOM_CATCH_UP = 60
    match_id, seats = await seated("s1", "s2", "s3", "s4", spectator=True)
    hub = roomhub.hub()
    await get_channel_layer().group_discard(notify.match_group(match_id), hub.channel)
    mover = next(s for s in seats if s.turn_mine)
    version = mover.version
    await mover.ws.send_to(text_data=json.dumps(mover.choices()[0]))
    await every_room_shown_the_move(seats, version)
    await close_all(seats)


def outage_then_clock_back(match_id):
    """RULES.md 9: the site was down (no clock beat for a minute) while the turn ran out;
    a clock comes back and gives the turn its full time again.  Its notices, as the
    clock collects them, for the test to send as the clock's loop would."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import ClockBeat, Match
    from games.play import clock

    now = timezone.now()
    ClockBeat.objects.update_or_create(pk=1, defaults={"beat_at": now - timedelta(minutes=1)})
    Match.objects.filter(pk=match_id).update(deadline=now - timedelta(seconds=1))
    with notify.collected() as notices:
        clock.sweep_once(now)
    return notices, Match.objects.get(pk=match_id).deadline


async def test_a_turn_given_its_time_again_shows_its_new_countdown_in_every_room():
    """The clock gives the turn a new deadline without a move (the version stays): every
    room, the spectator's too, is sent the new countdown, not left at a passed one."""
    match_id, seats = await seated("t1", "t2", spectator=True)
    version = seats[0].version
    notices, deadline = await database_sync_to_async(outage_then_clock_back)(match_id)
    await notify.send_collected(notices)
    shown = f'data-deadline="{int(deadline.timestamp() * 1000)}"'
    for seat in seats:
        # Other frames may come first or between (the watchers' count, through Redis).
        async def countdown_shown():
            await seat.drain()
            return shown in seat.last_room
        assert await wait_until(countdown_shown, seconds=10), seat.frames[-3:]
        assert seat.version == version
    await close_all(seats)
