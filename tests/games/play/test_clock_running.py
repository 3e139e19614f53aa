"""A clock that keeps running is no outage, however late its sweeps come (RULES.md 9: the
site was not down): its database busy for longer than KOZEL_CLOCK_OUTAGE gives no turn
its time again -- a busy server that took itself for a downed one gave every running
turn its time again, and with it a notice and a load per game, which made it busier
still.  A pause of the clock's process itself still counts."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async

from games.lobby import service as requests
from games.models import ClockBeat, Match
from games.play import clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _outage_after_one_second(settings):
    settings.KOZEL_CLOCK_OUTAGE = 1
    settings.KOZEL_CLOCK_RESTART = 1


def a_started_game(make_user):
    masha, alex = make_user("run1"), make_user("run2")
    match = requests.create_request(masha, players=2, turn_seconds=60)
    requests.join_request(alex, match.pk)
    return Match.objects.get(pk=match.pk)


async def test_a_clock_whose_database_is_slow_for_a_while_gives_no_time_again(
        make_user, monkeypatch):
    match = await database_sync_to_async(a_started_game)(make_user)
    slow_once = []

    def a_busy_database(now):  # one sweep's call waits 2.5 s for the database thread
        if not slow_once:
            slow_once.append(now)
            time.sleep(2.5)

    monkeypatch.setattr(clock, "_sweeps", [*clock._sweeps, a_busy_database])
    stop = asyncio.Event()
    ticking = asyncio.ensure_future(clock.run(interval=0.05, stop=stop))
    try:
        for _ in range(100):
            await asyncio.sleep(0.1)
            if slow_once:
                break
        # (The first sweep ever gave the turn its time: no clock had ever run.)
        beat_before = await database_sync_to_async(lambda: ClockBeat.objects.get().beat_at)()
        deadline = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).deadline)()
        await asyncio.sleep(3.5)  # the slow sweep, then sweeps 2.5 s after the last beat
    finally:
        stop.set()
        await ticking
    after = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    beat_after = await database_sync_to_async(lambda: ClockBeat.objects.get().beat_at)()
    assert slow_once and (beat_after - beat_before).total_seconds() > 2
    assert after.deadline == deadline  # not given its time again


async def test_a_pause_of_the_clocks_own_process_still_counts():
    running = clock.Running(every=0.05)
    try:
        await asyncio.sleep(0.2)
        assert running.without_pause()
        time.sleep(1.3)  # the whole loop held up: as a stopped process or a sleeping machine
        assert not running.without_pause()
        await asyncio.sleep(0.2)
        assert running.without_pause()
    finally:
        running.stop()
