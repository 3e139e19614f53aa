"""The turn clock: a sweep over due deadlines (DESIGN.md, Time).

Deadlines live in the database, so nothing is lost across restarts, and any number of
sweeps may run at once: each due match is decided by ``service.run_due`` and written
with the same compare-and-swap as a move, so a late move and a timeout cannot both win,
and two clocks never act twice.  The sweep runs inside the server process in the
embedded setup (kozel_site/asgi.py) and as ``manage.py clock`` when scaled out.

Every sweep first beats: it records its time in the one ClockBeat row, which so holds
the latest sweep of any clock.  A clock that finds the beat older than
KOZEL_CLOCK_OUTAGE, or none at all (no clock has ever run), knows the site was down and
first gives every turn that was running meanwhile its full time again, whether or not it
ran out (RULES.md 9).  A clock's first sweep after its process started is stricter: a
beat older than KOZEL_CLOCK_RESTART means no other clock kept time while this one was
starting -- a restart of the only server, however short -- and counts as an outage too.
A clock that has kept running is never one: its sweeps may come late when the database
is busy, but it was keeping time (``Running``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from typing import Callable

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import ClockBeat
from games.play import notify, service, thinking, workers
from games.live.dbcall import database_call
from games.live.fanout import publish_committed
from kozel_site.runtime.daphne import when_serving

log = logging.getLogger(__name__)


def beat(now=None, starting: bool = False, kept_time: bool = False) -> bool:
    """Record this sweep's time; before that, if no clock has swept for longer than
    KOZEL_CLOCK_OUTAGE (or ever; or, for the first sweep of a clock that has just
    started, ``starting``, for longer than KOZEL_CLOCK_RESTART), give every running turn
    its full time again.  Whether there was such an outage.

    The beat row is locked while this is decided (on PostgreSQL; SQLite has one writer
    anyway), so of several clocks coming back at once one gives the time and the others
    then find its fresh beat, rather than timing out what it is giving time to."""
    now = now or timezone.now()
    with transaction.atomic():
        last = ClockBeat.objects.select_for_update().filter(pk=1).first()
        if last is None:  # the first clock ever (or the row was cleared): it cannot know
            last, _created = ClockBeat.objects.get_or_create(pk=1)
        limit = settings.KOZEL_CLOCK_RESTART if starting else settings.KOZEL_CLOCK_OUTAGE
        outage = not kept_time and (last.beat_at is None
                                    or now - last.beat_at > timedelta(seconds=limit))
        if outage:
            given = service.give_time_again(now)
            log.info("clock: no clock since %s; %d running turn(s) given their time again",
                     last.beat_at or "ever", given)
        # Never back: a sweep that waited here for the row while another clock beat (or
        # gave an outage's time, which takes a while) holds an older ``now``.
        ClockBeat.objects.filter(Q(beat_at__isnull=True) | Q(beat_at__lt=now), pk=1) \
            .update(beat_at=now)
    return outage


Sweep = Callable[[datetime], object]
_sweeps: list[Sweep] = []


def every_sweep(sweep: Sweep) -> Sweep:
    """Run ``sweep(now)`` in every sweep of the clock, after the deadlines: how the contexts
    above games.play keep their own time (the offers of one more game, an arena's
    seating) with nobody connected and across restarts."""
    if sweep not in _sweeps:
        _sweeps.append(sweep)
    return sweep


def sweep_once(now=None, starting: bool = False) -> int:
    """Beat, then handle every match due ``now`` (returns how many were acted on), then run
    the sweeps registered with ``every_sweep``.  ``starting``: the first sweep of a clock
    that has just started (``beat``)."""
    now = now or timezone.now()
    acted = sum(run_due(match_id, now) for match_id in beat_then_due(now, starting))
    run_registered(now)
    return acted


def beat_then_due(now, starting: bool = False, kept_time: bool = False) -> list[int]:
    """The sweep's beat (``beat``), then the matches due ``now`` but those whose master
    is searching in the pool (read again once the search is done)."""
    beat(now, starting, kept_time)
    return [match_id for match_id in service.due_match_ids(now)
            if not thinking.searching(match_id)]


def run_due(match_id: int, now) -> bool:
    """What is due in one match, done; whether anything was."""
    try:
        return service.run_due(match_id, now)
    except Exception:  # one broken match must not stop the clock for all the others
        log.exception("clock: match %s failed", match_id)
        return False


def run_registered(now) -> None:
    for sweep in list(_sweeps):
        try:
            sweep(now)
        except Exception:  # nor one context's sweep every other one
            log.exception("clock: %s.%s failed", sweep.__module__, sweep.__qualname__)


class Running:
    """Whether this clock's process has run without a pause: a task on its event loop
    notes the time every ``every`` seconds, and a gap of more than KOZEL_CLOCK_OUTAGE
    between two notes (the process stopped, its machine asleep) is a pause.  A busy
    database does not hold the loop up, so it makes no pause."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.noted = time.time()  # the wall clock, as the beats are
        self.paused = False
        self.task = asyncio.ensure_future(self._note())

    async def _note(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.note()

    def note(self) -> None:
        now = time.time()
        if now - self.noted > settings.KOZEL_CLOCK_OUTAGE:
            self.paused = True
        self.noted = now

    def without_pause(self) -> bool:
        """Whether the process has run without a pause since this was last asked."""
        self.note()  # a pause not noted yet (the sweep came first after it) counts too
        kept, self.paused = not self.paused, False
        return kept

    def stop(self) -> None:
        self.task.cancel()


def _collecting(work):
    """``work`` as a database call that returns what it returned and the notices it made,
    which run() sends on the event loop (games.play.notify.collected)."""
    def call(*args):
        close_old_connections()
        with notify.collected() as notices:
            result = work(*args)
        return result, notices
    return database_call(call)


async def run(interval: float | None = None, stop: asyncio.Event | None = None) -> None:
    """Sweep forever (or until ``stop`` is set), every ``interval`` seconds
    (settings.KOZEL_CLOCK_INTERVAL by default), off the event loop.

    A sweep is many short database calls -- the beat, then each due match, then the
    registered sweeps -- not one long one: in the embedded setup the server's requests
    share the clock's database thread, and a player's move waits for one match's
    business at most, not for the whole sweep's.  Between sweeps, a master's search that
    is done wakes the clock to play that move at once."""
    interval = interval if interval is not None else settings.KOZEL_CLOCK_INTERVAL
    log.info("clock: running, a sweep every %.2f s", interval)
    # Masters think, and analyses are made, in this clock's pool of worker processes,
    # never in the sweep.
    workers.start()
    first, one_match, rest = (_collecting(beat_then_due), _collecting(run_due),
                              _collecting(run_registered))
    loop, searched = asyncio.get_running_loop(), asyncio.Event()
    thinking.when_done(lambda: loop.call_soon_threadsafe(searched.set))
    starting = True  # until a sweep has beaten: this clock has just started
    # Whether this clock has kept time since its last beat: its process ran without a
    # pause and every sweep reached the database (``beat``).
    running, failed = Running(every=0.25), False
    next_sweep = loop.time()
    try:
        while stop is None or not stop.is_set():
            searched.clear()
            whole = loop.time() >= next_sweep
            try:
                now = timezone.now()
                if whole:
                    kept_time = running.without_pause() and not failed and not starting
                    failed = True  # until this sweep is through
                    due, notices = await first(now, starting, kept_time)
                    starting = False
                    await notify.send_collected(notices)
                else:  # woken by a master's search: its move now, not at the next sweep
                    due = thinking.done()
                for match_id in due:
                    _acted, notices = await one_match(match_id, now)
                    # A deal, a bot's move, a timeout: the server's own rooms show it from
                    # what was written (the embedded setup), as a player's move.
                    await publish_committed(notices)
                if whole:
                    _none, notices = await rest(now)
                    await notify.send_collected(notices)
                    failed = False
            except Exception:
                log.exception("clock: sweep failed; trying again")
            if whole:  # the next one an interval after this one ended, however long it took
                next_sweep = loop.time() + interval
            try:
                await asyncio.wait_for(searched.wait(), max(0.0, next_sweep - loop.time()))
            except asyncio.TimeoutError:
                pass
    finally:
        running.stop()
        thinking.when_done(None)
        workers.stop()
        thinking.forget()


def start_in_server() -> None:
    """Run the sweep on daphne's own event loop from the moment the server starts.

    The embedded setup's channel layer lives in memory, on that loop: notices the sweep
    sends must be sent from it, so the sweep is a task there rather than a thread.
    Started with the server, not with the first visitor, so that after a restart every
    game's deadlines are enforced even with nobody connected.
    """
    when_serving(run)
