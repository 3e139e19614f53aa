"""Benchmark: a move's commit on the embedded SQLite database with its checkpoints left to
a thread (games/walcheckpoint.py), side by side with the writer running them itself,
SQLite's default (the baseline), in one run.

On the embedded site the event loop writes the moves (games/loopdb.py) and waits for
every commit; a commit that takes the write-ahead log past 1,000 pages also runs the
checkpoint, which waits for the disk.  Both sides here write the site's moves
(games.movesql.save_moves_if_at, the match row and the log's entry) on one four-player
match of a fresh database file, one after another as fast as they go, in alternating
slices of equal time, so a noisy machine slows both alike; the thread's side ends its
slice by copying back what its thread had yet to, so it leaves no more work to the other
than the other leaves to it.  Prints, for each, the
commits per second, the commit's p50, p99 and longest, how many took over 5 ms, and this
process's CPU per commit (the checkpointing thread's included: the work moves, it does
not go away).

    .venv/bin/python bench/checkpoints.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import copy
import os
import pathlib
import shutil
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import move_statement  # noqa: E402  (bench/, beside this file)

SLICE = 2.0  # seconds of one side before the other's turn
SLOW = 0.005  # a commit longer than this held the loop up noticeably


def django_on_a_fresh_sqlite_file(path: pathlib.Path) -> None:
    """The site's embedded settings on a new database file, migrated."""
    os.environ.update(DJANGO_SETTINGS_MODULE="kozel_site.settings", SQLITE_PATH=str(path))
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", "--noinput", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="per side")
    args = parser.parse_args()
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="kozel-checkpoints-"))
    path = workdir / "bench.sqlite3"
    django_on_a_fresh_sqlite_file(path)
    from django.db import connection

    from games import movesql, walcheckpoint
    from games.models import Move, MoveKind

    match = move_statement.started_match()
    fields = ("version", "state", "deadline")
    at = {"version": match.version}

    def next_move():
        """The match one version on, and its log's next entry."""
        moved = copy.copy(match)
        version = at["version"]
        moved.version = at["version"] = version + 1
        move = Move(match=moved, number=moved.version, seat=1, kind=MoveKind.PLAY,
                    payload={"play": "3-5", "end": "left", "seat": 1})
        return moved, version, move

    def commit(moved, version, move) -> bool:
        return movesql.save_moves_if_at(moved, fields, version, [move])

    connection.ensure_connection()
    raw = connection.connection

    def writer_checkpoints() -> None:
        raw.execute("PRAGMA wal_autocheckpoint = 1000")

    def thread_checkpoints() -> None:
        walcheckpoint.take_over(raw, str(path))

    def thread_stops() -> None:
        checkpointer = walcheckpoint.running(str(path))
        checkpointer.stop()
        checkpointer.join()
        raw.execute("PRAGMA wal_checkpoint(PASSIVE)")  # what it had yet to copy

    sides = [(move_statement.Side("the writer checkpoints (SQLite's default)", commit),
              writer_checkpoints, lambda: None),
             (move_statement.Side("a thread checkpoints (walcheckpoint)", commit),
              thread_checkpoints, thread_stops)]

    def one_slice(side, begin, end, seconds) -> None:
        begin()
        side.run_for(seconds, next_move)
        cpu = time.process_time()
        end()
        side.cpu += time.process_time() - cpu

    for side, begin, end in sides:  # the statement caches, the file's first pages
        one_slice(side, begin, end, SLICE)
        side.round_trips.clear()
        side.cpu = 0.0
    spent = 0.0
    while spent < args.seconds:
        for side, begin, end in sides:
            one_slice(side, begin, end, SLICE)
        spent += SLICE

    print(f"a move's commit on SQLite (WAL, synchronous NORMAL), {args.seconds:g} s each, "
          f"alternating")
    reports = []
    for side, _begin, _end in sides:
        times = sorted(side.round_trips)
        count = len(times)
        slow = sum(1 for t in times if t > SLOW)
        report = {"p50": 1000 * times[count // 2], "p99": 1000 * times[int(count * 0.99)],
                  "max": 1000 * times[-1], "slow": slow, "count": count,
                  "cpu_us": 1e6 * side.cpu / count}
        reports.append(report)
        print(f"  {side.name:42s} {count / args.seconds:7.0f} commits/s  p50 {report['p50']:.3f} ms, "
              f"p99 {report['p99']:.3f} ms, longest {report['max']:.1f} ms;  over "
              f"{1000 * SLOW:g} ms: {slow} ({1000 * slow / count:.1f} per 1,000);  "
              f"CPU {report['cpu_us']:.0f} us")
    baseline, ours = reports
    print(f"  thread / writer: p99 {ours['p99'] / baseline['p99']:.2f}x, longest "
          f"{ours['max'] / baseline['max']:.2f}x, CPU {ours['cpu_us'] / baseline['cpu_us']:.2f}x")
    connection.close()
    shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
