"""Benchmark: the game room's frames as a server renders them after each move, from the
templates (games/room/html.py, templates/games/room/) side by side with the f-strings
they replaced (bench/room_html_fstrings.py, the baseline), in one run.

A server renders every seat's frame of every version of a match (games/room/cache.py).
Both sides render the four seats' frames of the same versions of random four-player
games (played through the rules service, no database), from fresh snapshots, each the
way it runs on the site: the seat's context (games.room.present.room_context, the same
code for both) and its HTML -- the baseline with its parts kept across versions and
seats, as it kept them.  They run in alternating slices of equal time, so a noisy
machine slows both alike.  Prints, for each, the versions rendered per second, the time
per frame (context and HTML; wall clock, and this process's CPU, which on a machine
shared with others is the steadier figure) and the frame's mean size.

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


def python_cpu_ms() -> float:
    """The CPU time of bench/load.py's fixed piece of Python (best of five): this
    machine's speed moves between sittings, and with it every figure below; it tells
    sittings apart."""
    import json

    def work() -> float:
        began = time.process_time()
        for i in range(20_000):
            json.loads(json.dumps({"seat": i % 4, "tile": f"{i % 7}-{i % 6}", "version": i}))
        return time.process_time() - began

    return min(work() for _ in range(5)) * 1000


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


def template_frame(snapshot, seat: int, language: str) -> str:
    """A frame as the site renders it now: from the templates."""
    from games.room import cache as snapshots
    from games.room.present import announce

    return snapshots.render(snapshot, seat, language, announce)


def fstring_frame(snapshot, seat: int, language: str) -> str:
    """A frame as games/room/cache.py rendered it with the f-strings (the baseline)."""
    from django.utils import translation

    from games.room.present import announce
    from games.room.present import room_context

    import room_html_fstrings

    shared = snapshot.parts.setdefault(language, {})
    with translation.override(language):
        context = room_context(snapshot.match, seat, state=snapshot.state, seats=snapshot.seats,
                               shared=shared)
        return room_html_fstrings.room(context, announce((), context["names"]), shared, language)


class Side:
    def __init__(self, name: str, frame) -> None:
        self.name, self.frame = name, frame
        self.versions = self.frames = self.bytes = 0
        self.seconds = self.cpu_seconds = 0.0

    def run_for(self, seconds: float, versions) -> None:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            snapshot = next(versions)
            start, cpu_start = time.perf_counter(), time.process_time()
            for seat in range(SEATS):
                frame = self.frame(snapshot, seat, "ru")
                self.bytes += len(frame)
                self.frames += 1
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu_start
            self.versions += 1

    def report(self) -> str:
        return (f"{self.name:>9}: {self.versions / self.seconds:8.0f} versions/s, "
                f"{1e6 * self.seconds / self.frames:6.0f} µs a frame "
                f"({1e6 * self.cpu_seconds / self.frames:.0f} µs of this process's CPU), "
                f"{self.bytes / self.frames:6.0f} characters a frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="of each side")
    parser.add_argument("--games", type=int, default=20,
                        help="random games whose versions are rendered")
    args = parser.parse_args()

    import django
    django.setup()
    from django.template import engines
    engines["jinja2"].env.auto_reload = False  # as with DEBUG off: no file looked at again

    states = game_states(args.games, random.Random(2026))

    def fresh_snapshots():  # a snapshot keeps its version's shared context: always a new one
        while True:
            for version, state in enumerate(states):
                yield snapshot_of(state, version)

    sides = [Side("templates", template_frame), Side("f-strings", fstring_frame)]
    streams = {side.name: fresh_snapshots() for side in sides}
    print(f"{len(states)} versions of {args.games} random four-player games, "
          f"{args.seconds:g} s a side; the fixed piece of Python: {python_cpu_ms():.0f} ms of CPU")
    for side in sides:  # warm up: imports, translations, the tiles' drawings
        side.run_for(0.2, streams[side.name])
        side.versions = side.frames = side.bytes = 0
        side.seconds = side.cpu_seconds = 0.0
    spent = 0.0
    while spent < args.seconds:
        for side in sides:
            side.run_for(SLICE, streams[side.name])
        spent += SLICE
    for side in sides:
        print(side.report())
    templates, fstrings = sides
    ratio = (templates.seconds / templates.frames) / (fstrings.seconds / fstrings.frames)
    print(f"templates / f-strings, time per frame: {ratio:.2f}")


if __name__ == "__main__":
    main()
