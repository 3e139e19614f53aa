"""Where database work runs for the event loop: off it, in a thread, as Channels does
(DESIGN.md, Known traps: every ``database_sync_to_async`` call of a process runs on one
thread, so the work inside must stay short).

On SQLite the calls keep Channels' default, one thread (``thread_sensitive``): the
database lives in the process and has one writer at a time, so one connection serves
them all.  On PostgreSQL each call runs on the loop's pool of threads, each with a
connection of its own, so that the waits for the server (above all for a commit to reach
the disk) of different tables overlap.  Correctness does not depend on the thread: every
change of a game is a compare-and-swap on its version (games/play/store.py).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS


def database_call(function):
    """``function`` as an awaitable run off the event loop, closing stale connections
    around it as ``database_sync_to_async`` does."""
    return database_sync_to_async(function, thread_sensitive=_one_writer())


def _one_writer() -> bool:
    return settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.sqlite3"
