"""The turn clock: a sweep over due deadlines (DESIGN.md, Time).

Deadlines live in the database, so nothing is lost across restarts, and any number of
sweeps may run at once: each due match is decided by ``service.run_due`` and written
with the same compare-and-swap as a move, so a late move and a timeout cannot both win,
and two clocks never act twice.  The sweep runs inside the server process in the
embedded setup (kozel_site/asgi.py) and as ``manage.py clock`` when scaled out.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.db import close_old_connections

from games.play import notify, service
from games.play.dbcall import database_call

log = logging.getLogger(__name__)


def sweep_once() -> int:
    """Handle every match due now; returns how many were acted on."""
    close_old_connections()
    acted = 0
    for match_id in service.due_match_ids():
        try:
            acted += service.run_due(match_id)
        except Exception:  # one broken match must not stop the clock for all the others
            log.exception("clock: match %s failed", match_id)
    return acted


def _sweep_collecting() -> list:
    # The sweep's notices are sent by run() on the event loop (games.play.notify.collected).
    with notify.collected() as notices:
        sweep_once()
    return notices


async def run(interval: float | None = None, stop: asyncio.Event | None = None) -> None:
    """Sweep forever (or until ``stop`` is set), every ``interval`` seconds
    (settings.KOZEL_CLOCK_INTERVAL by default), off the event loop."""
    interval = interval if interval is not None else settings.KOZEL_CLOCK_INTERVAL
    log.info("clock: running, a sweep every %.2f s", interval)
    sweep = database_call(_sweep_collecting)
    while stop is None or not stop.is_set():
        try:
            await notify.send_collected(await sweep())
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
    from kozel_site.runtime.daphne import when_serving

    when_serving(run)
