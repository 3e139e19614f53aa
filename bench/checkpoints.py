"""Benchmark: a move's commit on the embedded SQLite database with its checkpoints left to
a thread (games/play/walcheckpoint.py), side by side with the writer running them itself,
SQLite's default (the baseline), in one run.

On the embedded site the event loop writes the moves (games/play/loopdb.py) and waits for
every commit; a commit that takes the write-ahead log past 1,000 pages also runs the
checkpoint, which waits for the disk.  Both sides here write the site's moves
(games.play.store.save_moves_if_at, the match row and the log's entry) on ``--games``
four-player matches of a fresh database file, in turn (a checkpoint copies each page
once, however often it was written: one match would make it look cheap), at ``--rate``
commits a second (500, about the load
benchmark's peak; 0: as fast as they go), in alternating slices of equal time, so a
noisy machine slows both alike; each side ends its slice by copying back what is left,
so neither leaves work to the other.  Prints, for each, the commits per second, the
commit's p50, p99 and longest, how many took over 5 ms, this process's CPU per commit
(the checkpointing thread's included: the work moves, it does not go away), and how long
the log had grown when the slice ended (a log that is never started afresh only grows).

    .venv/bin/python bench/checkpoints.py [--seconds 20] [--rate 500] [--games 250]
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


SLICE = 5.0  # seconds of one side before the other's turn
SLOW = 0.005  # a commit longer than this held the loop up noticeably


class Side:
    """One way of checkpointing, and what it measured."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.reset()

    def reset(self) -> None:
        self.commits: list[float] = []
        self.cpu = 0.0
        self.longest_log = 0  # pages

    def run_for(self, seconds: float, rate: float, commit) -> None:
        """``commit()`` every 1/``rate`` s (as fast as it goes if 0) for ``seconds``."""
        now = time.perf_counter()
        until, next_at = now + seconds, now
        while now < until:
            if next_at > now:
                time.sleep(next_at - now)
            began = time.perf_counter()
            assert commit(), "the condition held"
            now = time.perf_counter()
            self.commits.append(now - began)
            if rate:
                next_at = max(next_at + 1 / rate, now)  # late: no burst to catch up


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
    parser.add_argument("--seconds", type=float, default=20, help="per side")
    parser.add_argument("--rate", type=float, default=500, help="commits a second; 0: at once")
    parser.add_argument("--games", type=int, default=250, help="matches written in turn")
    args = parser.parse_args()
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="kozel-checkpoints-"))
    path = workdir / "bench.sqlite3"
    django_on_a_fresh_sqlite_file(path)
    from django.db import connection

    from games.play import store as movesql, walcheckpoint
    from games.models import Move, MoveKind

    matches = [move_statement.started_match(f"bench{game}_") for game in range(args.games)]
    fields = ("version", "state", "deadline")
    turn = {"next": 0}

    def next_move():
        """The next match in turn one version on, and its log's next entry."""
        match = matches[turn["next"] % len(matches)]
        turn["next"] += 1
        moved = copy.copy(match)
        version = match.version
        moved.version = match.version = version + 1
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

    sides = [(Side("the writer checkpoints (SQLite's default)"), writer_checkpoints,
              lambda: None),
             (Side("a thread checkpoints (walcheckpoint)"), thread_checkpoints, thread_stops)]

    def one_slice(side, begin, end, seconds) -> None:
        cpu = time.process_time()
        begin()
        side.run_for(seconds, args.rate, lambda: commit(*next_move()))
        end()
        # Copies back what is left, and tells how long the log had grown since it
        # last started afresh.
        _busy, pages, _copied = raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        side.cpu += time.process_time() - cpu
        side.longest_log = max(side.longest_log, pages)

    for side, begin, end in sides:  # the statement caches, the file's first pages
        one_slice(side, begin, end, SLICE)
        side.reset()
    spent = 0.0
    while spent < args.seconds:
        for side, begin, end in sides:
            one_slice(side, begin, end, SLICE)
        spent += SLICE

    rate = f"{args.rate:g} a second" if args.rate else "as fast as they go"
    print(f"a move's commit on SQLite (WAL, synchronous NORMAL), {rate}, "
          f"{args.seconds:g} s each, alternating")
    reports = []
    for side, _begin, _end in sides:
        times = sorted(side.commits)
        count = len(times)
        slow = sum(1 for t in times if t > SLOW)
        report = {"p50": 1000 * times[count // 2], "p99": 1000 * times[int(count * 0.99)],
                  "max": 1000 * times[-1], "slow": slow, "count": count,
                  "cpu_us": 1e6 * side.cpu / count}
        reports.append(report)
        print(f"  {side.name:42s} {count / args.seconds:7.0f} commits/s  p50 {report['p50']:.3f} ms, "
              f"p99 {report['p99']:.3f} ms, longest {report['max']:.1f} ms;  over "
              f"{1000 * SLOW:g} ms: {slow} ({1000 * slow / count:.1f} per 1,000);  "
              f"CPU {report['cpu_us']:.0f} us;  the log up to "
              f"{side.longest_log * 4096 / 2**20:.1f} MB")
    baseline, ours = reports
    print(f"  thread / writer: p99 {ours['p99'] / baseline['p99']:.2f}x, longest "
          f"{ours['max'] / baseline['max']:.2f}x, CPU {ours['cpu_us'] / baseline['cpu_us']:.2f}x")
    connection.close()
    shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
