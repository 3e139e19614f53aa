"""Where the game's database work runs for the event loop.

Off it, in a thread, as Channels does: on SQLite on channels' one database thread
(``database_sync_to_async``'s default), since the database has one writer at a time and
lives in the process; on PostgreSQL on the loop's pool of threads, each with a connection
of its own, so that the waits for the server (above all for a commit to reach the disk)
of different tables overlap.  Correctness does not depend on the thread: every change of
a game is a compare-and-swap on its version (games/play/store.py).

One exception, ``move_call``: on SQLite a player's move runs on the event loop itself.
The trip to the database thread costs more than the move: the thread lets go of the
interpreter lock inside every SQLite call and then waits for the busy loop to give it
back, and the moves of every table queue behind each other there.  On the loop, the
move's transaction is a few short statements on a database in this process; what the
loop must never do is wait there.  So its connection

- never sleeps in SQLite's busy handler: when another connection (the clock's sweep, an
  HTTP request) holds the write lock, the move fails at once -- having written nothing,
  since the lock is taken as the transaction begins (``transaction_mode`` IMMEDIATE) --
  and is tried again after giving the loop back for a moment, until the database's
  ``timeout`` has passed;
- never checkpoints the write-ahead log, which waits for the disk: every
  ``CHECKPOINT_EVERY`` moves the database thread does it.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from contextlib import contextmanager, suppress

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

log = logging.getLogger(__name__)

FIRST_PAUSE = 0.0002  # seconds after a move found the database locked; doubled each time
LONGEST_PAUSE = 0.005
CHECKPOINT_EVERY = 200  # moves written on the loop between checkpoints

SQLITE_AUTOCHECKPOINT = 1000  # pages: SQLite's default, for every other connection
_moves_since_checkpoint = 0
_checkpointing: asyncio.Task | None = None  # the latest checkpoint asked for


def database_call(function):
    """``function`` as an awaitable run off the event loop, closing stale connections
    around it as ``database_sync_to_async`` does."""
    return database_sync_to_async(function, thread_sensitive=_one_writer())


async def move_call(function, *args):
    """``function(*args)``, a player's move: on SQLite on the event loop (above), else as
    ``database_call``.  ``function`` must write nothing unless it completes, since a try
    that found the database locked is made again."""
    if not _one_writer():
        return await database_call(function)(*args)
    timeout = _lock_timeout()
    give_up = time.monotonic() + timeout
    pause = FIRST_PAUSE
    while True:
        try:
            with _loop_hidden(), _loops_terms(timeout):
                result = function(*args)
            break
        except OperationalError as error:
            if not is_locked(error) or time.monotonic() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)
    _count_move()
    return result


def is_locked(error: Exception) -> bool:
    """Whether ``error`` says another connection holds the lock: "database is locked", or
    "database table is locked" (an in-memory database's shared cache)."""
    return isinstance(error, OperationalError) and "is locked" in str(error)


def _one_writer() -> bool:
    return settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.sqlite3"


def _lock_timeout() -> float:
    """How long any connection waits for the write lock (the database's ``timeout``)."""
    return float(settings.DATABASES[DEFAULT_DB_ALIAS].get("OPTIONS", {}).get("timeout", 5))


@contextmanager
def _loops_terms(timeout: float):
    """This thread's connection, while inside: no busy wait, no checkpoints.  Set back
    afterwards, since the same thread may also serve ordinary calls (a test's)."""
    db = connections[DEFAULT_DB_ALIAS]
    db.close_if_unusable_or_obsolete()  # one that failed is replaced, as between requests
    db.ensure_connection()
    raw = db.connection
    raw.execute("PRAGMA busy_timeout = 0")
    raw.execute("PRAGMA wal_autocheckpoint = 0")
    try:
        yield
    finally:
        with suppress(sqlite3.Error):  # not over the call's own error
            raw.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            raw.execute(f"PRAGMA wal_autocheckpoint = {SQLITE_AUTOCHECKPOINT}")


@contextmanager
def _loop_hidden():
    """Django refuses database calls from a thread running an event loop, since they
    would block it: a move is meant to, being short and never waiting for a lock."""
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


def _count_move() -> None:
    global _moves_since_checkpoint, _checkpointing
    _moves_since_checkpoint += 1
    if _moves_since_checkpoint >= CHECKPOINT_EVERY and not checkpoint_running():
        _moves_since_checkpoint = 0
        _checkpointing = asyncio.ensure_future(_checkpoint_off_the_loop())


def checkpoint_running() -> bool:
    """Whether a checkpoint asked for on this loop is still under way."""
    return (_checkpointing is not None and not _checkpointing.done()
            and _checkpointing.get_loop() is asyncio.get_running_loop())


async def _checkpoint_off_the_loop() -> None:
    try:
        busy, _log, _copied = await database_call(checkpoint)()
    except Exception:  # the next one will try again; the moves go on meanwhile
        log.exception("could not checkpoint the database's write-ahead log")
        return
    if busy:
        log.warning("the database's write-ahead log could not be started again: a reader "
                    "held it for longer than the database's timeout")


def checkpoint() -> tuple[int, int, int]:
    """Copy the write-ahead log's pages into the database file and have the next write
    start the log again from its beginning.  On the database thread: it waits for the disk,
    and (RESTART) for the write in progress; a move that comes meanwhile finds the database
    locked and is tried again, as when any other connection writes.  A checkpoint that let
    writers go on (PASSIVE) would, under a steady stream of moves, never find the log
    wholly copied, and the log would grow for as long as the stream lasts.  SQLite's
    answer: whether it gave up waiting (1 or 0), the log's pages, the pages copied."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(RESTART)")
        return tuple(cursor.fetchone())
