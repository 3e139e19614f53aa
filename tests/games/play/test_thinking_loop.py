"""While a master thinks for its whole 0.5 s, the process that runs the clock (a server,
in the embedded setup) keeps answering: its event loop and its one database thread
(games/live/dbcall.py) are never held by the search (DESIGN.md, Speed)."""

import asyncio
import os
import time

import pytest
from channels.db import database_sync_to_async

from games.bots import levels
from games.live.dbcall import database_call
from games.models import Match
from games.play import clock, thinking, workers

from .test_thinking import _masters_turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_the_database_thread_answers_within_100_ms_while_a_master_thinks(
        make_user, settings):
    settings.BOT_MASTER_SECONDS = 0.5
    settings.KOZEL_WORKERS = 1
    match, _state = await database_sync_to_async(_masters_turn)(make_user)
    version = match.version

    @database_call
    def current_version():
        return Match.objects.filter(pk=match.pk).values_list("version", flat=True).get()

    # The pool's worker is spawned before the timing starts (a server starts it once).
    workers.start()
    await asyncio.get_running_loop().run_in_executor(
        None, lambda: workers.submit(os.getpid).result())
    await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(
        deadline=match.deadline.replace(year=2000))
    stop = asyncio.Event()
    ticking = asyncio.ensure_future(clock.run(interval=0.01, stop=stop))
    waits, started = [], time.perf_counter()
    try:
        while time.perf_counter() - started < 20:
            asked = time.perf_counter()
            now = await current_version()
            waits.append(time.perf_counter() - asked)
            if now != version:
                break
            await asyncio.sleep(0.01)
    finally:
        stop.set()
        await ticking
    took = time.perf_counter() - started
    assert now != version, "the master never moved"
    assert took >= 0.4  # it did think its 0.5 s (one world at least) ...
    assert max(waits) < 0.1, f"the database thread was held {max(waits):.3f} s"  # ... elsewhere
    assert len(waits) > 10
    assert thinking.figures.last_pid != os.getpid()
