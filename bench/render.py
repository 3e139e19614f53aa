"""Benchmark: the game room's frames as a server renders them after each action
(games/room/cache.py, games/room/html.py, templates/games/room/).

A server shows every version of a match to each of its sockets: the table (``#table``)
is the same markup for every viewer, rendered once per version and language and kept on
the snapshot; each socket adds its own small part (``#room``: the mover's hand with its
buttons, a waiting seat's hand, a spectator's nothing).  This renders, from fresh
snapshots of every version of random four-player games (played through the rules
service, no database), each kind of fragment and the whole of an action -- the table once
and the parts of four seats and one spectator -- and prints for each the time per
fragment (wall clock, and this process's CPU, the steadier figure on a machine shared
with others) and its mean size.

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

SEATS = 4
LANGUAGE = "ru"


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
    from games.models import Match, MatchStatus, Seat
    from games.room import cache

    match = Match(pk=1, seats_count=SEATS, status=MatchStatus.PLAYING, version=version,
                  deadline=timezone.now(), rated=True)
    seats = [Seat(number=n, user=User(pk=n + 1, username=f"игрок{n}")) for n in range(SEATS)]
    return cache.Snapshot(match, seats, [], state)


class Kind:
    """One kind of fragment: its count, time and size."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = self.chars = 0
        self.seconds = self.cpu = 0.0

    def add(self, seconds: float, cpu: float, chars: int) -> None:
        self.count += 1
        self.seconds += seconds
        self.cpu += cpu
        self.chars += chars

    def report(self) -> str:
        if not self.count:
            return f"{self.name:>24}: none"
        return (f"{self.name:>24}: {1e6 * self.seconds / self.count:7.0f} µs "
                f"({1e6 * self.cpu / self.count:5.0f} µs of this process's CPU), "
                f"{self.chars / self.count:6.0f} characters")


def timed(kind: Kind, render):
    start, cpu_start = time.perf_counter(), time.process_time()
    out = render()
    kind.add(time.perf_counter() - start, time.process_time() - cpu_start, len(out))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--games", type=int, default=20,
                        help="random games whose versions are rendered")
    args = parser.parse_args()

    import django
    django.setup()
    from django.template import engines

    from games.room import cache
    engines["jinja2"].env.auto_reload = False  # as with DEBUG off: no file looked at again

    states = game_states(args.games, random.Random(2026))
    kinds = {name: Kind(name) for name in (
        "table (once a version)", "mover's part", "waiting seat's part", "spectator's part",
        "action: all five frames")}

    def run(seconds: float) -> None:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for version, state in enumerate(states):
                snapshot = snapshot_of(state, version)
                start, cpu_start = time.perf_counter(), time.process_time()
                chars = len(timed(kinds["table (once a version)"],
                                  lambda: cache.table(snapshot, LANGUAGE)))
                for seat in (*range(SEATS), None):
                    kind = ("spectator's part" if seat is None else "mover's part"
                            if seat == state.turn and state.phase == "play"
                            else "waiting seat's part")
                    chars += len(timed(kinds[kind],
                                       lambda: cache.seat_part(snapshot, seat, LANGUAGE)))
                kinds["action: all five frames"].add(
                    time.perf_counter() - start, time.process_time() - cpu_start, chars)
                if time.perf_counter() > deadline:
                    return

    run(0.3)  # warm up: imports, translations, the tiles' drawings
    for kind in kinds.values():
        kind.__init__(kind.name)
    print(f"{len(states)} versions of {args.games} random four-player games, {args.seconds:g} s; "
          f"the fixed piece of Python: {python_cpu_ms():.0f} ms of CPU")
    run(args.seconds)
    for kind in kinds.values():
        print(kind.report())
    action = kinds["action: all five frames"]
    print(f"{action.count / action.seconds:.0f} versions/s; an action's frames are the table "
          f"once and five sockets' parts (four seats and a spectator)")


if __name__ == "__main__":
    main()
