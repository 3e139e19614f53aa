"""SQLite's checkpoints on a thread of their own, never on the event loop.

In WAL mode a commit appends the pages it changed to the write-ahead log, and now and
then a checkpoint copies them back into the database file, waiting for the disk to
flush both files.  By default the connection whose commit takes the log past 1,000
pages runs it, inside that commit: on the embedded site that is the event loop's
connection (games/loopdb.py), so every room of the process waited for the disk
meanwhile -- 5 to 15 ms about once a second at 250 games, and as long as the disk
takes when its flush stalls (docs/performance.md, fourteenth round).

So the loop's connection never checkpoints (``wal_autocheckpoint`` 0), and a thread of
the process does, every second, on a connection of its own.  Its checkpoints are
PASSIVE: they copy what no reader still needs and never wait for, nor hold up, a writer
or a reader.  The log is started afresh by the first writer after a checkpoint that
copied all of it, as before.  Every other connection (HTTP requests, management
commands) keeps SQLite's default.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from urllib.parse import quote

logger = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds between checkpoints

_checkpointers: dict[str, Checkpointer] = {}
_starting = threading.Lock()


def take_over(connection: sqlite3.Connection, path: str) -> bool:
    """Leave ``connection``'s checkpoints to this process's checkpointer of the database
    at ``path`` (started if none runs); whether it did -- not for a database that is not
    a file in WAL mode (an in-memory one), whose connection is left as it was."""
    if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        return False
    running(path)
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    return True


def running(path: str) -> Checkpointer:
    """This process's checkpointer of the database at ``path``, started if none runs."""
    key = str(Path(path).resolve())
    with _starting:
        checkpointer = _checkpointers.get(key)
        if checkpointer is None or not checkpointer.is_alive():
            checkpointer = _checkpointers[key] = Checkpointer(key)
            checkpointer.start()
        return checkpointer


class Checkpointer(threading.Thread):
    """Runs a PASSIVE checkpoint of one database every ``interval`` seconds until stopped.

    ``last`` is the last checkpoint's answer: (1 if another checkpoint was running,
    pages in the log, pages of it copied)."""

    def __init__(self, path: str, interval: float = INTERVAL) -> None:
        super().__init__(name="sqlite-checkpoints", daemon=True)
        self.path, self.interval = path, interval
        self.last: tuple[int, int, int] | None = None
        self._stopped = threading.Event()

    def stop(self) -> None:
        self._stopped.set()

    def run(self) -> None:
        connection, failing = None, False
        while not self._stopped.wait(self.interval):
            if not os.path.exists(self.path):
                # Deleted (a test database at the end of its run): nothing to checkpoint.
                # A connection that takes over again starts a new checkpointer.
                logger.info("%s is gone; its checkpoints stop", self.path)
                break
            try:
                if connection is None:
                    connection = self._connect()
                # The GIL is let go for the checkpoint, disk waits and all.
                self.last = tuple(connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
                failing = False
            except Exception:  # the thread must go on: without it the log would only grow
                if not failing:  # once, not every second
                    logger.exception("checkpoint of %s failed; trying again every %s s",
                                     self.path, self.interval)
                failing = True
                if connection is not None:
                    connection.close()
                connection = None
        if connection is not None:
            connection.close()

    def _connect(self) -> sqlite3.Connection:
        # mode=rw: a database that has gone away is an error, not a new empty file.
        return sqlite3.connect(f"file:{quote(self.path)}?mode=rw", uri=True,
                               isolation_level=None, timeout=0)
