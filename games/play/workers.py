"""The worker processes of a process that runs the clock (the daphne process in the
embedded setup, each ``manage.py clock`` when scaled out): where the site's CPU-heavy
work runs -- a master's search (games/play/thinking.py) and the decisions of an analysis
(games/records/analysing.py) -- never in a server's event loop nor in the database's
thread (DESIGN.md, Speed).

One pool for both: spawned processes at a lower CPU priority than the servers,
KOZEL_WORKERS of them, started when the clock starts.  Work is taken first come, first
served, and every piece of it is short -- a search ends by BOT_MASTER_SECONDS, an
analysis hands over one decision at a time and never more than one per worker -- so a
master's search waits behind at most one decision of an analysis per worker.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

log = logging.getLogger(__name__)

# The niceness of the worker processes, at least (whatever the process that started them
# runs at): the servers, PostgreSQL and Redis come first; a master searches less, and an
# analysis takes longer, on a busy machine.
NICE = 5
# Seconds between a worker's looks at whether the process that started it still lives.
PARENT_LOOK_EVERY = 1.0

_lock = threading.RLock()
_pool: ProcessPoolExecutor | None = None
_size = 0
_pending: set[Future] = set()  # queued or under way


def _in_worker() -> None:
    """Each worker process's start: a lower priority, and an end with its parent."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, max(NICE, os.getpriority(os.PRIO_PROCESS, 0)))
    except OSError:  # not allowed here: same priority, still another process
        pass
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True,
                     name="end-with-parent").start()


def _end_with(parent: int) -> None:
    # A server or clock killed outright (SIGKILL, a crash) cannot stop its pool: without
    # this its workers would live on, orphaned, and the next start would add more.
    while os.getppid() == parent:
        time.sleep(PARENT_LOOK_EVERY)
    os._exit(0)


def start(workers: int | None = None) -> None:
    """Give this process its pool (``workers`` or KOZEL_WORKERS spawned processes)."""
    global _pool, _size
    with _lock:
        if _pool is None:
            _size = workers or settings.KOZEL_WORKERS
            # Spawned: a fresh interpreter, not a fork of a server with its loop, sockets
            # and database connections; the work needs only games.bots and games.rules.
            _pool = ProcessPoolExecutor(max_workers=_size,
                                        mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_in_worker)
            log.info("workers: a pool of %d process(es) for masters and analyses", _size)


def running() -> bool:
    return _pool is not None


def size() -> int:
    """How many worker processes the pool has (0 without one)."""
    return _size if _pool is not None else 0


def busy() -> int:
    """How many pieces of work are queued or under way."""
    with _lock:
        return len(_pending)


def stop() -> None:
    global _pool
    with _lock:
        pool, _pool = _pool, None
        _pending.clear()
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def submit(work, /, *args, **kwargs) -> Future | None:
    """Queue ``work(*args, **kwargs)`` (picklable, a module's function) in the pool: its
    future, or None when the pool has just broken (a worker process died) and was
    started again -- the caller asks again later.  A broken pool's futures fail with
    BrokenProcessPool; the next submit finds it broken and replaces it.  RuntimeError
    without a pool."""
    with _lock:
        if _pool is None:
            raise RuntimeError("no pool: start() first")
        try:
            future = _pool.submit(work, *args, **kwargs)
        except BrokenProcessPool:
            _renew()
            return None
        _pending.add(future)
    future.add_done_callback(_done)
    return future


def _done(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def _renew() -> None:
    global _pool
    with _lock:
        log.error("workers: the pool broke (a worker process died); starting a new one")
        broken, _pool = _pool, None
        _pending.clear()
        broken.shutdown(wait=False, cancel_futures=True)
        start(_size)
