"""Benchmark: how long the analysis of a whole 4-player game takes (issue 41, point 5:
at most 60 s on this machine) with the site's budget per decision.

Plays ``--games`` whole 4-player games of today's heuristic bots (seeded), then analyses
each with the master's judgement as the site does (games/bots/analysis.py), one after
the other in this one process, and prints per game its decisions, its seconds and its
marks, then the slowest game.

    .venv/bin/python bench/analysis.py [--games 3] [--playouts 256] [--seconds 0.15] [--fish one]

The defaults are the site's (kozel_site/settings.py): KOZEL_ANALYSIS_PLAYOUTS worlds a
decision (256), capped at KOZEL_ANALYSIS_SECONDS (0.15 s; 0: no cap).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import games.rules as rules  # noqa: E402
from games.bots import analysis, master  # noqa: E402
from games.rules.simulate import play_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=float,
                        default=float(os.environ.get("KOZEL_ANALYSIS_SECONDS", "0.15")))
    parser.add_argument("--playouts", type=int,
                        default=int(os.environ.get("KOZEL_ANALYSIS_PLAYOUTS", "256")))
    parser.add_argument("--fish", default="one", choices=("one", "all"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    playouts, seconds = args.playouts or None, args.seconds or None
    budget = f"{playouts} worlds, at most {seconds} s"
    print(f"analysis of whole 4-player games, fish {args.fish}, {budget} a decision")
    slowest = 0.0
    for number in range(args.games):
        seed = args.seed + number
        record, _state = play_game(4, fish=args.fish, seed=seed,
                                   players=[rules.HeuristicPlayer(seed * 10 + s) for s in range(4)])
        worlds = []

        def judge(state, seat, inner=analysis.master_judge(playouts=playouts, seconds=seconds,
                                                           seed=seed)):
            values = inner(state, seat)
            worlds.append(master.last_stats["worlds"])
            return values

        started = time.perf_counter()
        result = analysis.analyse(record, judge)
        spent = time.perf_counter() - started
        slowest = max(slowest, spent)
        marks = sum(p["mistakes"] for p in result["players"]), \
            sum(p["inaccuracies"] for p in result["players"])
        print(f"game {seed}: {len(record.rounds)} rounds, {len(result['decisions'])} decisions, "
              f"{spent:.1f} s ({spent / max(1, len(result['decisions'])):.3f} s a decision, "
              f"{sum(worlds) / max(1, len(worlds)):.0f} worlds each); "
              f"{marks[0]} mistakes, {marks[1]} inaccuracies")
    print(f"slowest game: {slowest:.1f} s (goal: at most 60 s)")


if __name__ == "__main__":
    main()
