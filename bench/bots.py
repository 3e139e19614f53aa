"""Benchmark: the bots' levels against each other, on duplicated deals.

Every *deal* (a seed of a whole game's deals, round after round) is played once for
every way of seating the sides, so that each seat of the deal is played by each side:
one bot of the tested level against the others of the level it is measured against,
in every seat in turn; in pairs, the tested pair in seats 0 and 2, then 1 and 3.  The
figures are means over the deals, with 95 % confidence intervals (1.96 standard
errors of the deals' means: the games of one deal are not independent).

    .venv/bin/python bench/bots.py --mode one-of-four --deals 250 --playouts 32
    .venv/bin/python bench/bots.py --mode ladder --deals 100
    .venv/bin/python bench/bots.py --mode pairs --deals 200
    .venv/bin/python bench/bots.py --mode three --deals 200
    .venv/bin/python bench/bots.py --mode speed

Modes: ``ladder`` (each level as one of four against three of the level below),
``one-of-four`` (the master against three heuristics: goal, the master is the goat in
at most 12 % of at least 1,000 games -- an equal player: 25 % --, and gets more rating
points per game than they do), ``pairs`` (two masters against two heuristics),
``three`` (the master against two heuristics at a table of three), ``speed`` (the
master's playouts per second).  ``--playouts`` is the master's worlds per move (a
fixed count, so that a run can be repeated; the site gives it time instead).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import games.rules as rules  # noqa: E402
from games.bots import knowledge_for, levels, master  # noqa: E402
from games.bots.master import rating_points  # noqa: E402

MAX_ROUNDS = 200


class Bot:
    def __init__(self, level: str, playouts: int, seed: str) -> None:
        self.level = level
        self.playouts = playouts
        self.rng = random.Random(seed)
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, state: rules.GameState, seat: int) -> rules.Action:
        knowledge = knowledge_for(state, seat)
        started = time.perf_counter()
        action = levels.choose(knowledge, self.level, seed=self.rng.getrandbits(64),
                               playouts=self.playouts if self.level == levels.MASTER else None)
        if len(knowledge.legal) > 1:
            self.decisions += 1
            self.seconds += time.perf_counter() - started
        return action


def play(variant: rules.Variant, bots: list[Bot], deal_seed: str) -> rules.GameState:
    """One game of ``bots`` (by seat), its rounds dealt from ``deal_seed``."""
    deals = random.Random(deal_seed)
    state = rules.new_game(variant)
    while not state.over and state.round < MAX_ROUNDS:
        state, _events = rules.start_round(state, rules.random_deal(variant.seats, deals))
        while state.phase == rules.PLAYING:
            seat = state.turn
            state, _events = rules.apply(state, bots[seat].choose(state, seat))
    return state


def points(state: rules.GameState, seat: int) -> int:
    return 0 if seat in state.goats else rating_points(state.scores[seat])


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def match(tested: str, against: str, variant: rules.Variant, sides: list[tuple[int, ...]],
          deals: int, playouts: int, seed: int, progress: int = 0) -> None:
    """Play ``deals`` deals, each once per seating of ``sides`` (the tested level's seats),
    and print the figures."""
    goat_rate, their_goat_rate, pts, their_pts, diff = [], [], [], [], []
    games = 0
    bots_made: list[Bot] = []
    started = time.perf_counter()
    for deal in range(deals):
        g = tg = p = tp = 0.0
        for tested_seats in sides:
            bots = [Bot(tested if s in tested_seats else against, playouts,
                        f"{seed}:{deal}:{tested_seats}:{s}") for s in range(variant.seats)]
            bots_made += bots
            state = play(variant, bots, f"{seed}:{deal}:deals")
            games += 1
            others = [s for s in range(variant.seats) if s not in tested_seats]
            # A tested pair is one goat (its two seats are goats together).
            g += any(s in state.goats for s in tested_seats)
            tg += statistics.fmean(s in state.goats for s in others) if not variant.pairs \
                else any(s in state.goats for s in others)
            p += statistics.fmean(points(state, s) for s in tested_seats)
            tp += statistics.fmean(points(state, s) for s in others)
        n = len(sides)
        goat_rate.append(100 * g / n)
        their_goat_rate.append(100 * tg / n)
        pts.append(p / n)
        their_pts.append(tp / n)
        diff.append((p - tp) / n)
        if progress and (deal + 1) % progress == 0 and deal + 1 < deals:
            mean, half = interval(goat_rate)
            print(f"  after {deal + 1} deals: goat %, tested {mean:.2f} ± {half:.2f}; "
                  f"points difference {interval(diff)[0]:.2f} ± {interval(diff)[1]:.2f}",
                  flush=True)
    spent = time.perf_counter() - started
    label = f"{tested} x{len(sides[0])} vs {against}"
    print(f"{label}: {variant}, {games} games ({deals} deals x {len(sides)} seatings), "
          f"master playouts {playouts}/move, {spent:.0f} s")
    for name, values in (("goat %, tested", goat_rate), ("goat %, each other", their_goat_rate),
                         ("rating points/game, tested", pts),
                         ("rating points/game, each other", their_pts),
                         ("points difference", diff)):
        mean, half = interval(values)
        print(f"  {name:32s} {mean:7.2f} ± {half:.2f}")
    for level in {tested, against}:
        made = [b for b in bots_made if b.level == level]
        decisions = sum(b.decisions for b in made)
        if decisions:
            print(f"  {level}: {decisions} decisions, "
                  f"{1000 * sum(b.seconds for b in made) / decisions:.2f} ms each")
    sys.stdout.flush()


def speed(seconds: float, seed: int) -> None:
    """The master's playouts per second on positions of real games."""
    rng = random.Random(seed)
    for seats, pairs in ((4, False), (4, True), (3, False), (2, False)):
        variant = rules.Variant(seats, rules.FISH_ONE, pairs)
        total = spent = 0.0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = rules.new_game(variant)
            state, _ = rules.start_round(state, rng=rng)
            while state.phase == rules.PLAYING:
                knowledge = knowledge_for(state, state.turn)
                if len(knowledge.legal) > 1:
                    master.evaluate(knowledge, playouts=20, seed=rng.getrandbits(32))
                    total += master.last_stats["playouts"]
                    spent += master.last_stats["seconds"]
                state, _ = rules.apply(state, rng.choice(rules.legal_actions(state)))
        print(f"master playouts/s, {variant}: {total / spent:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="one-of-four",
                        choices=("ladder", "one-of-four", "pairs", "three", "speed"))
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--playouts", type=int, default=32)
    parser.add_argument("--fish", default=rules.FISH_ONE, choices=(rules.FISH_ALL, rules.FISH_ONE))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5.0, help="speed mode: per table")
    parser.add_argument("--progress", type=int, default=0, metavar="DEALS",
                        help="print the figures so far every DEALS deals")
    parser.add_argument("--fish-aware", action="store_true",
                        help="the master's playouts mind who pays for a fish (master.FISH_AWARE)")
    args = parser.parse_args()
    if args.fish_aware:
        master.FISH_AWARE = True
        print("master.FISH_AWARE on")
    four = rules.Variant(4, args.fish)
    rotations4 = [(s,) for s in range(4)]
    if args.mode == "speed":
        speed(args.seconds, args.seed)
    elif args.mode == "ladder":
        for low, high in zip(levels.LEVELS, levels.LEVELS[1:]):
            match(high, low, four, rotations4, args.deals, args.playouts, args.seed, args.progress)
    elif args.mode == "one-of-four":
        match(levels.MASTER, levels.HEURISTIC, four, rotations4, args.deals, args.playouts,
              args.seed, args.progress)
    elif args.mode == "pairs":
        match(levels.MASTER, levels.HEURISTIC, rules.Variant(4, args.fish, True),
              [(0, 2), (1, 3)], args.deals, args.playouts, args.seed, args.progress)
    elif args.mode == "three":
        match(levels.MASTER, levels.HEURISTIC, rules.Variant(3, args.fish),
              [(s,) for s in range(3)], args.deals, args.playouts, args.seed, args.progress)


if __name__ == "__main__":
    main()
