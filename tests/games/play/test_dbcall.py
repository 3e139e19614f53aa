"""games/play/dbcall.py: on SQLite a player's move runs on the event loop, which must never
wait there -- not for another connection's write lock, not for a checkpoint."""

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, connection, connections, transaction
from django.utils import timezone

from games.models import ClockBeat
from games.play import dbcall

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded database's way"),
]


def database_file() -> str:
    return connections["default"].settings_dict["NAME"]


def write_a_beat() -> int:
    """A short transaction, as a move's: one row changed; the thread it ran on."""
    with transaction.atomic():
        ClockBeat.objects.update_or_create(pk=1, defaults={"beat_at": timezone.now()})
    return threading.get_ident()


class WriteLockHeld:
    """Another connection (as the clock's sweep or a request would) holding the write lock
    for ``seconds``, from a thread of its own."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.taken = threading.Event()
        self.released_at = None
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        other = sqlite3.connect(database_file(), timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        self.taken.set()
        time.sleep(self.seconds)
        other.execute("COMMIT")
        self.released_at = time.monotonic()
        other.close()

    async def __aenter__(self):
        self.thread.start()
        await asyncio.get_running_loop().run_in_executor(None, self.taken.wait)
        return self

    async def __aexit__(self, *exc):
        await asyncio.get_running_loop().run_in_executor(None, self.thread.join)


async def ticks_while(awaitable):
    """How often a 5 ms timer fired on the loop while ``awaitable`` ran, and its result."""
    ticks = 0
    done = asyncio.Event()

    async def tick():
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.ensure_future(tick())
    try:
        return await awaitable, ticks
    finally:
        done.set()
        await ticker


async def test_a_move_runs_on_the_loops_own_thread():
    await database_sync_to_async(write_a_beat)()  # the row exists
    ran_on = await dbcall.move_call(write_a_beat)
    assert ran_on == threading.get_ident()


async def test_a_move_waits_for_another_writer_without_stopping_the_loop():
    await database_sync_to_async(write_a_beat)()
    async with WriteLockHeld(0.4) as lock:
        began = time.monotonic()
        _ran_on, ticks = await ticks_while(dbcall.move_call(write_a_beat))
        written_at = time.monotonic()
    assert written_at >= lock.released_at > began  # it waited for the lock...
    assert ticks >= 30  # ...while the loop went on (0.4 s: some 80 ticks of 5 ms)


async def test_a_move_that_never_gets_the_lock_fails_having_written_nothing(settings):
    await database_sync_to_async(write_a_beat)()
    settings.DATABASES["default"]["OPTIONS"]["timeout"] = 0.2
    try:
        async with WriteLockHeld(0.8):
            began = time.monotonic()
            with pytest.raises(OperationalError, match="locked"):
                await ticks_while(dbcall.move_call(write_a_beat))
            gave_up = time.monotonic() - began
    finally:
        settings.DATABASES["default"]["OPTIONS"]["timeout"] = 20
    assert 0.2 <= gave_up < 0.6
    # The connection is as any other again: it waits for a lock, and checkpoints.
    with dbcall._loop_hidden():  # the loop's thread's own, as the move saw it
        raw = connections["default"].connection
        assert raw.execute("PRAGMA busy_timeout").fetchone()[0] == 200
        assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000


async def test_the_loops_moves_leave_the_checkpoints_to_the_database_thread(monkeypatch):
    """The write-ahead log is started again after a checkpoint; the loop's connection never
    makes one, so without the database thread's it would grow with every move.  Here the
    loop waits for each checkpoint, so that the log's size depends on nothing else."""
    wal = Path(database_file() + "-wal")
    await database_sync_to_async(write_a_beat)()

    def restart_the_log():
        with connections["default"].cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def moves(count):
        for _ in range(count):
            await dbcall.move_call(write_a_beat)
            while dbcall.checkpoint_running():
                await asyncio.sleep(0.005)

    await moves(1)  # a checkpoint counted by earlier tests' moves comes now, if at all
    monkeypatch.setattr(dbcall, "_moves_since_checkpoint", 0)
    await database_sync_to_async(restart_the_log)()
    await moves(50)
    fifty_moves = wal.stat().st_size  # no checkpoint yet: the log holds all fifty
    assert fifty_moves > 0

    await moves(3 * dbcall.CHECKPOINT_EVERY)
    # Written back every CHECKPOINT_EVERY moves, the log was started again each time: it
    # never held more than that many moves (without, it would hold them all).
    assert wal.stat().st_size <= 1.2 * fifty_moves * dbcall.CHECKPOINT_EVERY / 50
