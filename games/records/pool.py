"""The worker processes that make analyses (games/records/analysis.py), owned by a
server process: a ``ProcessPoolExecutor`` of spawned processes, at a lower CPU priority
than the server, fed from the database.

A server's pool takes queued analyses with the same compare-and-swap as any worker
(``analysis.claim``), so the embedded setup (one daphne, its pool) and a scaled-out one
(many daphnes, ``manage.py analyse`` workers) share the work without a new service.  The
clock's sweep (registered in games/apps.py) queues again what a stopped worker left and
feeds this process's pool; a request feeds it at once.  The event loop never judges a
move: the work is a ``manage.py analyse`` call in a worker process.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management import call_command

from games.records import analysis
from kozel_site.runtime.daphne import when_serving

log = logging.getLogger(__name__)

# The niceness of the worker processes: the players' server comes first.
NICE = 10
# Seconds between the sweep's looks at the database for stale or queued analyses.
LOOK_EVERY = 1.0

_lock = threading.RLock()  # a future done at once calls back inside feed()
_pool: ProcessPoolExecutor | None = None
_running: set[Future] = set()
_last_look = 0.0


def start() -> None:
    """Give this process its pool (KOZEL_ANALYSIS_WORKERS processes, spawned)."""
    global _pool
    with _lock:
        if _pool is None:
            # Spawned: a fresh interpreter, not a fork of a server with its loop and
            # sockets; it sets Django up once, then runs `manage.py analyse --one`.
            _pool = ProcessPoolExecutor(max_workers=settings.KOZEL_ANALYSIS_WORKERS,
                                        mp_context=multiprocessing.get_context("spawn"),
                                        initializer=django.setup)
            log.info("analysis: a pool of %d worker process(es)", settings.KOZEL_ANALYSIS_WORKERS)


def _renew() -> None:
    global _pool
    log.error("analysis: the pool broke (a worker process died); starting a new one")
    broken, _pool = _pool, None
    broken.shutdown(wait=False, cancel_futures=True)
    _running.clear()
    start()


def stop() -> None:
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def feed() -> int:
    """Claim queued analyses for this process's pool while it has a free worker; how
    many were handed to it."""
    handed = 0
    with _lock:
        if _pool is None:
            return 0
        while len(_running) < settings.KOZEL_ANALYSIS_WORKERS:
            worker = analysis.worker_name()
            analysis_id = analysis.claim(worker)
            if analysis_id is None:
                break
            try:
                future = _pool.submit(call_command, "analyse", one=analysis_id, worker=worker,
                                      nice=NICE)
            except BrokenProcessPool:  # a worker process was killed: a new pool, and
                analysis.release(analysis_id, worker)  # the analysis waits for it
                _renew()
                break
            _running.add(future)
            future.add_done_callback(_finished)
            handed += 1
    return handed


def _finished(future: Future) -> None:
    with _lock:
        _running.discard(future)
    error = future.exception()
    if error is not None:  # its row is queued again once its beat is stale
        log.error("analysis: a worker process failed: %r", error)
    else:
        feed()


def sweep(now=None) -> None:
    """The clock's: now and then, queue again the analyses of stopped workers, and give
    this process's pool (if it has one) what is queued."""
    global _last_look
    if time.monotonic() - _last_look < LOOK_EVERY:
        return
    _last_look = time.monotonic()
    analysis.requeue_stale(now)
    feed()


def start_in_server() -> None:
    """A server's pool, in the daphne process (kozel_site/asgi.py).  Without the clock in
    this process (scaled out), the pool looks for queued work itself, off the loop.
    Started once the server runs, as the clock is (a module that merely imports the
    ASGI application starts nothing)."""
    when_serving(_serve)


async def _serve() -> None:
    start()
    if settings.KOZEL_CLOCK_IN_SERVER:
        return  # the clock's sweep feeds the pool
    look = sync_to_async(sweep, thread_sensitive=False)
    while True:
        await asyncio.sleep(LOOK_EVERY * 2)
        try:
            await look()
        except Exception:  # a database hiccup must not end the looking
            log.exception("analysis: looking for queued analyses failed")
