"""Where the game's database work runs for the event loop: off it, in a thread.

On SQLite, on channels' one database thread (``database_sync_to_async``'s default): the
database has one writer at a time and lives in the process, so more threads would only
queue in its busy handler.  On PostgreSQL, on the loop's pool of threads, each with a
connection of its own, so that the waits for the server (above all for a commit to reach
the disk) of different tables overlap.  Correctness does not depend on the thread: every
change of a game is a compare-and-swap on its version (games/play/store.py).
"""

from channels.db import database_sync_to_async
from django.conf import settings


def database_call(function):
    """``function`` as an awaitable run off the event loop, closing stale connections
    around it as ``database_sync_to_async`` does."""
    return database_sync_to_async(function, thread_sensitive=_one_writer())


def _one_writer() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
