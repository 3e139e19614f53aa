"""SQLite's checkpoints on a thread of their own, never on the event loop.

In WAL mode a commit appends the pages it changed to the write-ahead log, and now and
then a checkpoint copies them back into the database file, waiting for the disk to
flush both files.  By default the connection whose commit takes the log past 1,000
pages runs it, inside that commit: on the embedded site that is the event loop's
connection (games/play/loopdb.py), so every room of the process waited for the disk
meanwhile -- 5 to 36 ms about once a second at 250 games, and as long as the disk
takes when its flush stalls (docs/performance.md, fourteenth round).

So the loop's connection never checkpoints (``wal_autocheckpoint`` 0), and a thread of
the process does, every second, on a connection of its own.  Its checkpoints are
PASSIVE: they copy what no reader still needs and never wait for, nor hold up, a writer
or a reader.  The log is started afresh by the first writer after a checkpoint that
copied all of it, as before -- which a writer busy meanwhile can keep from happening, so
a long log is helped along (``Checkpointer._checkpoint``).  Every other connection (HTTP
requests, management commands) keeps SQLite's default.
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
ROUNDS = 4  # checkpoints at most, one after another, for the pages that came meanwhile
LONG_LOG = 4000  # pages (16 MB): a log longer than this is started afresh (RESTART)

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
    """Checkpoints one database every ``interval`` seconds until stopped.

    ``last`` is the last checkpoint's answer: (1 if it could not finish -- the write lock
    or a reader in its way -- else 0, pages in the log, pages of it copied); ``tries``
    how many it has tried, failed ones included."""

    def __init__(self, path: str, interval: float = INTERVAL) -> None:
        super().__init__(name="sqlite-checkpoints", daemon=True)
        self.path, self.interval = path, interval
        self.last: tuple[int, int, int] | None = None
        self.tries = 0
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
                self.last = self._checkpoint(connection)
                failing = False
            except Exception:  # the thread must go on: without it the log would only grow
                if not failing:  # once, not every second
                    logger.exception("checkpoint of %s failed; trying again every %s s",
                                     self.path, self.interval)
                failing = True
                if connection is not None:
                    connection.close()
                connection = None
            self.tries += 1
        if connection is not None:
            connection.close()

    @staticmethod
    def _checkpoint(connection: sqlite3.Connection) -> tuple[int, int, int]:
        """Copy the log back, and have it started afresh; the last answer.

        A writer starts the log afresh only if, when it begins, every page in it has been
        copied back.  A checkpoint takes milliseconds and a busy writer adds pages
        meanwhile, so with one checkpoint a second the log grew without end (to about
        200 MB in the load benchmark's 30-s peak).  So the pages that came during one
        checkpoint are copied by another at once (a few rounds at most; the last, finding
        nothing new, costs next to nothing), and a log still longer than ``LONG_LOG``
        after them gets a RESTART checkpoint: it takes the write lock if it is free
        (waiting for nobody) and holds it while it copies the last few pages, so that none
        come meanwhile; a move then finds the database locked and is tried again
        (games/play/loopdb.py) while the loop goes on."""
        last = None
        for _round in range(ROUNDS):
            # The GIL is let go for the checkpoint, disk waits and all.
            answer = tuple(connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
            _busy, pages, copied = answer
            if copied < pages or answer == last:  # a reader needs the rest; or all copied
                break
            last = answer
        if answer[1] > LONG_LOG:
            answer = tuple(connection.execute("PRAGMA wal_checkpoint(RESTART)").fetchone())
        return answer

    def _connect(self) -> sqlite3.Connection:
        # mode=rw: a database that has gone away is an error, not a new empty file.
        return sqlite3.connect(f"file:{quote(self.path)}?mode=rw", uri=True,
                               isolation_level=None, timeout=0)
