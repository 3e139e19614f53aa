"""Benchmark: a move's statement and the four seats' frames of its version, the frames
rendered while PostgreSQL answers the statement (games/play/pgmeanwhile.py), side by side with
the same frames rendered after the answer (the baseline), in one run.

A game room on PostgreSQL writes a move in one statement on the event loop
(games/play/store.py, ``save_moves_if_at``) and then renders every seat's frame of the new
version; the loop waited for the answer doing nothing.  Both sides here write the same
statement on one four-player match of a fresh database and render the four seats'
frames of versions of random four-player games (bench/render.py's, kept parts and all,
as a server renders them); one renders them once the statement has been sent, the other
after its answer.  They run in alternating slices of equal time, as bench/move_statement.py
runs its sides, so a noisy machine slows both alike.  Prints, for each, the time from
sending the statement to having its answer and the four frames (p50, p95), and this
process's CPU per move.

    .venv/bin/python bench/meanwhile.py [--seconds 10]
        [--database-url postgres://postgres@127.0.0.1:5432/kozel_bench_sql]
"""

from __future__ import annotations

import copy
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import move_statement  # noqa: E402  (bench/, beside this file)
import render  # noqa: E402


def main() -> None:
    args = move_statement.arguments(__doc__)
    move_statement.django_on_a_fresh_database(args.database_url)
    from django.db import connection

    from games.room import cache as snapshots
    from games.play import store as movesql
    from games.room.consumer import announce
    from games.models import Move, MoveKind

    match = move_statement.started_match()
    fields = ("version", "state", "deadline")
    at = {"version": match.version}
    states = render.game_states(20, random.Random(2026))

    def next_move():
        """The match one version on, its log's next entry, and a snapshot to render (a
        version of a random game: what is rendered does not depend on what is written)."""
        moved = copy.copy(match)
        version = at["version"]
        moved.version = at["version"] = version + 1
        move = Move(match=moved, number=moved.version, seat=1, kind=MoveKind.PLAY,
                    payload={"play": "3-5", "end": "left", "seat": 1})
        snapshot = render.snapshot_of(states[version % len(states)], version)
        return moved, version, move, snapshot

    def four_frames(snapshot) -> None:
        for seat in range(render.SEATS):
            snapshots.prepare_frame(snapshot, seat, "ru", announce, [])

    def meanwhile(moved, version, move, snapshot) -> bool:
        return movesql.save_moves_if_at(moved, fields, version, [move], nowait=True,
                                        meanwhile=lambda: four_frames(snapshot))

    def after(moved, version, move, snapshot) -> bool:
        written = movesql.save_moves_if_at(moved, fields, version, [move], nowait=True)
        four_frames(snapshot)
        return written

    reports = move_statement.alternate(
        [move_statement.Side("frames while PostgreSQL answers", meanwhile),
         move_statement.Side("frames after the answer", after)], args.seconds, next_move)
    print(f"a move's statement and its four frames, {args.seconds:g} s each, alternating")
    for r in reports:
        print(f"  {r['side']:32s} {r['statements']:6d} moves  sent -> answered and rendered: "
              f"p50 {r['p50_ms']:.3f} ms, p95 {r['p95_ms']:.3f} ms;  CPU here {r['cpu_us']:.0f} us")
    ours, baseline = reports
    print(f"  meanwhile / after: p50 {ours['p50_ms'] / baseline['p50_ms']:.2f}x, "
          f"p95 {ours['p95_ms'] / baseline['p95_ms']:.2f}x, "
          f"CPU {ours['cpu_us'] / baseline['cpu_us']:.2f}x")
    connection.close()


if __name__ == "__main__":
    main()
