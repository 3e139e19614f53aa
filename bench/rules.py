"""Benchmark: random games of Kozel through the rules service's public API, side by side
with random games of the PyPI package ``dominoes`` (the baseline), in one run.

Both sides play uniformly random legal moves to the end of whole games, in alternating
slices of equal time, so a noisy machine slows both alike.  Prints actions per second
of each and the ratio.  Goal: Kozel at least 2x dominoes at 4 seats (issue 41: the
master bot's search lives on the rules' speed); docs/performance.md has the figures.

    .venv/bin/python bench/rules.py [--seconds 20] [--seats 4]

A Kozel action is any of play, draw or knock (each is one ``apply``); a dominoes action
is one ``make_move`` (it passes for a player by itself).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import dominoes  # noqa: E402

from games.rules import apply, legal_actions, new_game, start_round  # noqa: E402


def kozel_games(seconds: float, seats: int, rng: random.Random) -> tuple[int, int]:
    """Play whole random games for about ``seconds``; return (actions, games)."""
    actions = games = 0
    deadline = time.perf_counter() + seconds
    choice = rng.choice
    while time.perf_counter() < deadline:
        state = new_game(seats, "one")
        while not state.over:
            state, _ = start_round(state, rng=rng)
            while state.phase == "play":
                state, _ = apply(state, choice(legal_actions(state)))
                actions += 1
        games += 1
    return actions, games


def dominoes_games(seconds: float, rng: random.Random) -> tuple[int, int]:
    actions = games = 0
    deadline = time.perf_counter() + seconds
    choice = rng.choice
    while time.perf_counter() < deadline:
        game = dominoes.Game.new()
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
            actions += 1
        games += 1
    return actions, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="total time for both sides")
    parser.add_argument("--slices", type=int, default=10, help="alternating slices per side")
    parser.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    slice_seconds = args.seconds / (2 * args.slices)
    random.seed(1)  # dominoes deals with the global generator
    rng = random.Random(1)
    kozel_rates, dominoes_rates = [], []
    totals = {"kozel": [0, 0], "dominoes": [0, 0]}
    kozel_games(0.2, args.seats, rng)  # warm up caches on both sides
    dominoes_games(0.2, rng)
    for _ in range(args.slices):
        start = time.perf_counter()
        actions, games = kozel_games(slice_seconds, args.seats, rng)
        kozel_rates.append(actions / (time.perf_counter() - start))
        totals["kozel"][0] += actions
        totals["kozel"][1] += games
        start = time.perf_counter()
        actions, games = dominoes_games(slice_seconds, rng)
        dominoes_rates.append(actions / (time.perf_counter() - start))
        totals["dominoes"][0] += actions
        totals["dominoes"][1] += games
    kozel, baseline = statistics.median(kozel_rates), statistics.median(dominoes_rates)
    print(f"kozel rules ({args.seats} seats): {kozel:>10,.0f} actions/s "
          f"({totals['kozel'][0]:,} actions, {totals['kozel'][1]:,} whole games)")
    print(f"dominoes 6.1 (baseline):  {baseline:>10,.0f} actions/s "
          f"({totals['dominoes'][0]:,} actions, {totals['dominoes'][1]:,} whole games)")
    print(f"ratio: {kozel / baseline:.2f}x (goal: at least 2.00x at 4 seats); medians of "
          f"{args.slices} alternating slices of {slice_seconds:.1f} s")


if __name__ == "__main__":
    main()
