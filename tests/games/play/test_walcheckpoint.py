"""games/play/walcheckpoint.py: the event loop's SQLite connection never checkpoints; a thread
of the process does, on a connection of its own."""

import asyncio
import logging
import os
import sqlite3

import pytest
from django.db import connection, connections

from games.play import loopdb, walcheckpoint
from games.models import Match

from ..conftest import wait_for

PAGE = 4096
ROW = b"x" * 3000  # a row of its own page, nearly


def a_wal_database(path) -> sqlite3.Connection:
    """A writer on a new database in WAL mode, as the site opens its SQLite file."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA synchronous=NORMAL")
    writer.execute("CREATE TABLE t (x BLOB)")
    return writer


def write_pages(writer: sqlite3.Connection, commits: int) -> None:
    for _ in range(commits):
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("INSERT INTO t VALUES (?)", (ROW,))
        writer.execute("COMMIT")


def wal_pages(path) -> int:
    return os.path.getsize(f"{path}-wal") // PAGE


@pytest.fixture
def checkpointer(tmp_path):
    """A checkpointer of a new database (``.path``) that looks every 50 ms; stopped after."""
    path = str(tmp_path / "site.sqlite3")
    started = walcheckpoint.Checkpointer(path, interval=0.05)
    yield started
    started.stop()
    started.join(5)


def test_a_writer_handed_over_never_checkpoints_itself(tmp_path):
    path = tmp_path / "site.sqlite3"
    by_default = a_wal_database(tmp_path / "default.sqlite3")
    write_pages(by_default, 1500)
    handed_over = a_wal_database(path)

    assert walcheckpoint.take_over(handed_over, str(path))
    checkpointer = walcheckpoint.running(str(path))  # the one it started
    checkpointer.stop()  # nobody checkpoints now, unless the writer does
    checkpointer.join(5)
    write_pages(handed_over, 1500)

    assert handed_over.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert wal_pages(tmp_path / "default.sqlite3") < 1100  # its own checkpoints started it afresh
    assert wal_pages(path) >= 1500                         # none: the log only grew


def test_the_checkpointer_copies_the_log_back_and_the_writer_starts_it_afresh(checkpointer):
    writer = a_wal_database(checkpointer.path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    checkpointer.start()

    write_pages(writer, 300)
    assert wait_for(lambda: checkpointer.last is not None and checkpointer.last[1] >= 300
                    and checkpointer.last[2] == checkpointer.last[1])
    one_batch = wal_pages(checkpointer.path)
    write_pages(writer, 300)
    # All of it was copied back, so the writer wrote from the log's start again: the log
    # holds about one interval's pages, not everything written since the database began.
    assert wal_pages(checkpointer.path) < one_batch * 1.2
    assert writer.execute("SELECT count(*) FROM t").fetchone()[0] == 600
    reader = sqlite3.connect(checkpointer.path)
    assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 600


def test_a_checkpoint_never_waits_for_nor_holds_up_a_writer(checkpointer):
    writer = a_wal_database(checkpointer.path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    write_pages(writer, 200)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, held through the checkpoint
    writer.execute("INSERT INTO t VALUES (?)", (ROW,))
    checkpointer.start()

    assert wait_for(lambda: checkpointer.last is not None and checkpointer.last[2] >= 200)
    writer.execute("COMMIT")
    write_pages(writer, 10)  # and the writer writes on while checkpoints run
    assert writer.execute("SELECT count(*) FROM t").fetchone()[0] == 211


def test_a_long_log_is_started_afresh_with_the_write_lock_held(checkpointer, monkeypatch):
    monkeypatch.setattr(walcheckpoint, "LONG_LOG", 100)  # pages
    writer = a_wal_database(checkpointer.path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    write_pages(writer, 10)
    reader = sqlite3.connect(checkpointer.path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 10  # a snapshot it keeps
    write_pages(writer, 300)
    checkpointer.start()

    # The reader needs the log's later pages where they are: a RESTART is tried, and
    # says it could not finish (busy), having waited for no one.
    assert wait_for(lambda: checkpointer.last is not None and checkpointer.last[0] == 1)
    reader.execute("COMMIT")
    assert wait_for(lambda: checkpointer.last[0] == 0
                    and checkpointer.last[1] == checkpointer.last[2] > 100)
    write_pages(writer, 5)  # the next writer starts the log afresh
    assert wait_for(lambda: checkpointer.last[1] < 50)
    assert writer.execute("SELECT count(*) FROM t").fetchone()[0] == 315


def test_a_short_log_is_only_copied_back(checkpointer):
    writer = a_wal_database(checkpointer.path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    write_pages(writer, 10)
    reader = sqlite3.connect(checkpointer.path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM t").fetchone()
    write_pages(writer, 300)
    checkpointer.start()

    assert wait_for(lambda: checkpointer.last is not None)
    seen = checkpointer.tries
    assert wait_for(lambda: checkpointer.tries >= seen + 3)  # the reader still in the way
    busy, pages, copied = checkpointer.last
    assert (busy, copied < pages) == (0, True)  # PASSIVE: what the reader allows, no more
    reader.execute("COMMIT")


def test_a_database_gone_stops_its_checkpoints_and_is_not_made_anew(checkpointer, caplog):
    caplog.set_level(logging.INFO, logger="games.play.walcheckpoint")
    checkpointer.start()

    checkpointer.join(5)
    assert not checkpointer.is_alive()
    assert "is gone" in caplog.text
    assert not os.path.exists(checkpointer.path)  # mode=rw: no empty database made


def test_a_failing_checkpoint_is_logged_once_and_the_thread_goes_on(checkpointer, caplog):
    caplog.set_level(logging.ERROR, logger="games.play.walcheckpoint")
    with open(checkpointer.path, "wb") as not_a_database:
        not_a_database.write(b"not SQLite" * 1000)
    checkpointer.start()

    assert wait_for(lambda: "failed" in caplog.text)
    failed = checkpointer.tries
    assert wait_for(lambda: checkpointer.tries >= failed + 5)  # failing all along
    assert caplog.text.count("failed") == 1
    os.remove(checkpointer.path)
    a_wal_database(checkpointer.path).close()
    assert wait_for(lambda: checkpointer.last is not None and checkpointer.last[0] == 0)
    assert checkpointer.is_alive()


def test_a_checkpointer_that_stopped_is_started_anew(tmp_path):
    path = str(tmp_path / "site.sqlite3")
    a_wal_database(path).close()
    first = walcheckpoint.running(path)
    first.stop()
    first.join(5)

    again = walcheckpoint.running(path)
    assert again is not first and again.is_alive()
    assert walcheckpoint.running(path) is again
    again.stop()


def test_an_in_memory_database_is_left_as_it_was():
    memory = sqlite3.connect(":memory:")
    before = memory.execute("PRAGMA wal_autocheckpoint").fetchone()[0]

    assert not walcheckpoint.take_over(memory, ":memory:")
    assert memory.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == before == 1000


@pytest.mark.django_db(transaction=True)
async def test_the_event_loops_connection_hands_its_checkpoints_over():
    if connection.vendor != "sqlite":
        pytest.skip("the event loop writes only on SQLite")

    def the_raw_connection():
        Match.objects.exists()
        return connections["default"].connection, connections["default"].settings_dict["NAME"]

    raw, path = await loopdb.run(the_raw_connection)
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert walcheckpoint.running(path).is_alive()
    elsewhere, _ = await asyncio.to_thread(the_raw_connection)  # a request's connection
    assert elsewhere is not raw
    assert elsewhere.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
