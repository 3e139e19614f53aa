"""The turn clock: a sweep over due deadlines (DESIGN.md, Time).

Deadlines live in the database, so nothing is lost across restarts and any number of
sweeps may run at once: each match is taken under ``select_for_update(skip_locked=True)``
inside ``services.run_due``, in the same kind of locked transaction as a move, so a late
move and a timeout cannot both win.  The sweep runs inside the server process in the
embedded setup (see kozel_site/asgi.py) and as ``manage.py clock`` when scaled out.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.room import cache as snapshots, hub as roomhub
from games.play import loopdb, notify, service as services
from games.play.dbcall import write_call

log = logging.getLogger(__name__)



def sweep_once() -> int:
    """Handle every match due now; returns how many were acted on."""
    close_old_connections()
    acted = 0
    for match_id in services.due_match_ids():
        try:
            acted += services.run_due(match_id)
        except Exception:  # one broken match must not stop the clock for all the others
            log.exception("clock: match %s failed", match_id)
    return acted


def _sweep_collecting() -> list:
    # The sweep's notices are sent by run() on the event loop, rather than from this
    # thread while it waits for that loop (games.play.notify.collected).
    with notify.collected() as notices:
        sweep_once()
    return notices


def _run_one_collecting(match_id: int) -> list:
    with notify.collected() as notices:
        try:
            services.run_due(match_id)
        except Exception as error:  # one broken match must not stop the clock for the others
            if loopdb.is_locked(error):
                raise  # nothing done; games/play/loopdb.py tries it again
            log.exception("clock: match %s failed", match_id)
    return notices


async def run(interval: float | None = None, stop: asyncio.Event | None = None) -> None:
    """Sweep forever (or until ``stop`` is set), every ``interval`` seconds
    (settings.KOZEL_CLOCK_INTERVAL by default).

    On PostgreSQL the sweep runs in a worker thread of its own (thread_sensitive=False),
    so it never queues behind the consumers' database calls.  On SQLite, which has one
    writer at a time, each due match is instead one short call where the players' moves
    run (on the event loop, games/play/loopdb.py; or on channels' database thread): a writer
    in a second thread made the moves wait in SQLite's busy handler, which sleeps 1 to
    100 ms at a time (docs/performance.md).
    """
    from django.db import connection

    interval = interval if interval is not None else settings.KOZEL_CLOCK_INTERVAL
    log.info("clock: running, a sweep every %.2f s", interval)
    if connection.vendor == "sqlite":
        async def sweep():
            for match_id in await write_call(services.due_match_ids):
                await send(await write_call(_run_one_collecting, match_id))
    else:
        in_worker = sync_to_async(_sweep_collecting, thread_sensitive=False)

        async def sweep():
            await send(await in_worker())

    async def send(notices):
        # In a server process (the embedded clock) its room consumers show these changes
        # without reading them back; a separate clock process has none to prime.
        snapshots.snapshots().prime(notices)
        hub = roomhub.hub_if_any()
        if hub is not None:
            hub.show_here(notices)
        await notify.send_collected(notices)

    while stop is None or not stop.is_set():
        try:
            await sweep()
        except Exception:
            log.exception("clock: sweep failed; trying again")
        await asyncio.sleep(interval)


def start_in_server() -> None:
    """Run the sweep on daphne's own event loop from the moment the server starts.

    The embedded setup's channel layer lives in memory, on that loop: notices the sweep
    sends must be sent from it, so the sweep is a task there rather than a thread.
    Started with the server, not with the first visitor, so that after a restart every
    game's deadlines are enforced even with nobody connected.
    """
    from twisted.internet import reactor

    def start():
        asyncio.ensure_future(run())

    reactor.callWhenRunning(start)
