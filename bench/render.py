"""Benchmark: the game room's frames as a server renders them after each move, side by
side with the same frames built with nothing kept from the version before (the
baseline), in one run.

A server renders every seat's frame of every version of a match (games/room/cache.py,
games/room/html.py).  Parts that recur from version to version -- the players' lines, a
hand waiting for its turn, the bar's words, the turn line -- are kept across versions by
what they show.  Both sides render the four seats' frames of the same versions of random
four-player games (played through the rules service, no database), from fresh snapshots;
the baseline clears the kept parts before each version, as if every version were the
first.  They run in alternating slices of equal time, so a noisy machine slows both
alike.  Prints, for each, the versions rendered per second, the time per version (four
frames) and the frame's mean size.

    .venv/bin/python bench/render.py [--seconds 10] [--games 20]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings")

SLICE = 0.5  # seconds of one side before the other's turn
SEATS = 4


def game_states(games: int, rng: random.Random) -> list:
    """Every state, after every action, of ``games`` random games."""
    from games import rules

    states = []
    for _game in range(games):
        state = rules.new_game(SEATS, rules.FISH_ONE)
        while not state.over:
            state, _events = rules.start_round(state, rng=rng)
            while state.phase == rules.PLAYING:
                state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
                states.append(state)
    return states


def snapshot_of(state, version: int):
    """A room snapshot of a match at ``state``, as a server holds it (nothing saved)."""
    from django.utils import timezone

    from accounts.models import User
    from games.room import cache as snapshots
    from games.models import Match, MatchStatus, Seat

    match = Match(pk=1, seats_count=SEATS, status=MatchStatus.PLAYING, version=version,
                  deadline=timezone.now(), rated=True)
    seats = [Seat(number=n, user=User(pk=n + 1, username=f"игрок{n}")) for n in range(SEATS)]
    return snapshots.Snapshot(match, seats, [], state)


class Side:
    def __init__(self, name: str, before_each_version) -> None:
        self.name, self.before_each_version = name, before_each_version
        self.versions = self.frames = self.bytes = 0
        self.seconds = 0.0

    def run_for(self, seconds: float, versions) -> None:
        from games.room import cache as snapshots
        from games.room.consumer import announce

        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            snapshot = next(versions)
            start = time.perf_counter()
            self.before_each_version()
            for seat in range(SEATS):
                frame = snapshots.render(snapshot, seat, "ru", announce)
                self.bytes += len(frame)
                self.frames += 1
            self.seconds += time.perf_counter() - start
            self.versions += 1

    def report(self) -> str:
        return (f"{self.name:>9}: {self.versions / self.seconds:8.0f} versions/s, "
                f"{1e6 * self.seconds / self.versions:6.0f} µs per version of four frames, "
                f"{self.bytes / self.frames:6.0f} characters a frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="of each side")
    parser.add_argument("--games", type=int, default=20,
                        help="random games whose versions are rendered")
    args = parser.parse_args()

    import django
    django.setup()
    from games.room import html as room_html

    states = game_states(args.games, random.Random(2026))

    def fresh_snapshots():  # a snapshot keeps its version's shared parts: always a new one
        while True:
            for version, state in enumerate(states):
                yield snapshot_of(state, version)

    sides = [Side("kept", lambda: None), Side("afresh", room_html.forget_kept_parts)]
    streams = {side.name: fresh_snapshots() for side in sides}
    print(f"{len(states)} versions of {args.games} random four-player games, "
          f"{args.seconds:g} s a side")
    for side in sides:  # warm up: imports, translations, the tiles' drawings
        side.run_for(0.2, streams[side.name])
        side.versions = side.frames = side.bytes = 0
        side.seconds = 0.0
    spent = 0.0
    while spent < args.seconds:
        for side in sides:
            side.run_for(SLICE, streams[side.name])
        spent += SLICE
    for side in sides:
        print(side.report())
    kept, afresh = sides
    ratio = (kept.seconds / kept.versions) / (afresh.seconds / afresh.versions)
    print(f"kept / afresh, time per version: {ratio:.2f}")


if __name__ == "__main__":
    main()
