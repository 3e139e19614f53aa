"""Moves on SQLite run on the event loop itself, never waiting there for a lock; so do
most moves on PostgreSQL, as one statement that never waits for a lock (``run_now``).

DESIGN.md has a move go "off the event loop", to a database thread.  On PostgreSQL that
is where a move runs when it must lock and read the match (games/play/dbcall.py).  On the
embedded SQLite database the trip cost more than the move: the move's thread let go of
the GIL inside every SQLite call and had to wait for the busy event loop to offer it
back, so a 0.5 ms move took 2 ms of that one thread, and moves queued behind each other
there (docs/performance.md, sixth round).
SQLite is a library in this process with one writer at a time, so the room's writes --
the players' moves and the turn clock's -- run on the loop's own connection instead,
in one short call each, and the loop's other work waits that long.

What the loop must never do is sleep in SQLite's busy handler: when another thread holds
the write lock (an HTTP request on Django's thread), the handler sleeps 1, 2, 5, 10 ...
ms at a time, and the whole server would stop with it.  So the loop's connection has no
busy timeout: a write that finds the database locked fails at once, before it changed
anything, and is tried again after giving the loop back for a moment, until the usual
timeout has passed.  Nor does the loop's connection run SQLite's checkpoints, which
wait for the disk: a thread of the process does (games/play/walcheckpoint.py).

On PostgreSQL a move on the version its room showed is one statement, one round trip to
the server (games/play/store.py, ``save_moves_if_at``), which took longer on a database
thread than on the loop: the thread waited for the GIL after the round trip, and for the
loop to take its result (docs/performance.md, eighth round).  It locks the match row
with NOWAIT, so it never waits for another transaction: a row another one holds sends
the move the locked way, on a thread.  The price is that the loop waits for the round
trip: the database must be near (this is for a server on the same host or network; a
distant one wants ``KOZEL_MOVES_ON_LOOP=0``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
import weakref
from contextlib import contextmanager, suppress

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

from games.play import walcheckpoint

FIRST_PAUSE = 0.0002  # seconds; doubled after every try, up to LONGEST_PAUSE
LONGEST_PAUSE = 0.005

# The loop's SQLite connection of each database wrapper, once its checkpoints are left to
# a thread (games/play/walcheckpoint.py); a new connection (after an error) is handed over anew.
_handed_over: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def run(function, *args):
    """``function(*args)`` on this thread's SQLite connection (games.play.dbcall.write_call
    sends it here), tried again, the loop running meanwhile, for as long as the database
    is locked by another connection.

    A try that finds the database locked has changed nothing: the lock is taken when
    the transaction begins (``transaction_mode`` IMMEDIATE), before any statement."""
    timeout = _timeout()
    give_up = time.monotonic() + timeout
    pause = FIRST_PAUSE
    while True:
        try:
            with _loop_hidden(), _no_busy_wait(timeout):
                return function(*args)
        except OperationalError as error:
            if not is_locked(error) or time.monotonic() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)


def run_now(function, *args):
    """``function(*args)`` on this thread's PostgreSQL connection, at once: a move written
    in one statement that never waits for a lock (games.play.service.act_on_known, with
    ``nowait``).  The connection is kept for the process's life; one that failed is
    closed if it is no longer usable, and the next call opens another."""
    with _loop_hidden():
        db = connections[DEFAULT_DB_ALIAS]  # the thread's (with the loop showing: the task's)
        if db.connection is not None and db.errors_occurred:
            if db.is_usable():
                db.errors_occurred = False
            else:
                db.close()
        return function(*args)


def _timeout() -> float:
    """How long a connection waits for a lock (the database's ``timeout`` option)."""
    return float(settings.DATABASES[DEFAULT_DB_ALIAS].get("OPTIONS", {}).get("timeout", 5))


def is_locked(error: Exception) -> bool:
    """Whether ``error`` says another connection holds the lock: "database is locked", or
    "database table is locked" (the shared cache of an in-memory database)."""
    return isinstance(error, OperationalError) and "is locked" in str(error)


@contextmanager
def _no_busy_wait(timeout: float):
    """While inside, this thread's connection fails at once on a lock, not sleeping in
    SQLite's busy handler; outside, it waits as every connection does."""
    raw = _the_loops_connection()
    raw.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        # Not over the call's own error: a connection that cannot take this is unusable
        # anyway (and only ever used here with the loop running).
        with suppress(sqlite3.Error):
            raw.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")


def _the_loops_connection() -> sqlite3.Connection:
    """This thread's SQLite connection, opened if need be.  It never checkpoints: a
    checkpoint waits for the disk, and the loop would wait with it (games/play/walcheckpoint.py)."""
    db = connections[DEFAULT_DB_ALIAS]
    db.ensure_connection()
    raw = db.connection
    if _handed_over.get(db) is not raw:
        walcheckpoint.take_over(raw, db.settings_dict["NAME"])
        _handed_over[db] = raw
    return raw


@contextmanager
def _loop_hidden():
    """Django refuses database calls from a thread running an event loop, since they
    would block it: this one is meant to, being short and never waiting for a lock."""
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)
