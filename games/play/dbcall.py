"""Where the game room's database calls run: channels' one thread, or a pool.

Channels runs every ``database_sync_to_async`` call of a process on one thread (DESIGN.md,
known traps).  On SQLite that is the right place: the database has one writer at a time
and lives in the process, so more threads would only queue in its busy handler
(docs/performance.md).  On PostgreSQL a call spends most of its time waiting for the
server -- above all for a commit to reach the disk -- and on one thread every move of the
process waited for the one before it: there moves and loads run on the event loop's pool
of threads, each thread with its own connection, and their waits overlap.  Correctness
does not depend on the thread: a move locks its match row (games.play.service).

On SQLite, the room's writes do not make the trip at all (``write_call``): they run on the
event loop, which never waits there for a lock (games/play/loopdb.py).
"""

from channels.db import database_sync_to_async
from django.conf import settings

from games.play import loopdb


def database_call(function):
    """``function`` as an awaitable run off the event loop, closing stale connections
    around it as ``database_sync_to_async`` does."""
    return database_sync_to_async(function, thread_sensitive=_one_writer())


def _one_writer() -> bool:
    # Read from the settings, not from ``django.db.connection``: on the event loop that
    # would make each consumer task a database wrapper of its own (a context-local one),
    # some kilobytes for every open socket, never used for a query.
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


async def write_call(function, *args):
    """A game room's write (a player's move, the turn clock's action) and what goes with
    it: on SQLite on the event loop itself (games/play/loopdb.py), elsewhere as ``database_call``."""
    if _one_writer() and settings.KOZEL_MOVES_ON_LOOP:
        return await loopdb.run(function, *args)
    return await database_call(function)(*args)


def conditional_moves_on_loop() -> bool:
    """On PostgreSQL, whether a conditional move (one statement, games/play/store.py) is
    made on the event loop (games/play/loopdb.py, ``run_now``)."""
    return (not _one_writer() and settings.KOZEL_MOVES_ON_LOOP
            and settings.KOZEL_CONDITIONAL_MOVES)
