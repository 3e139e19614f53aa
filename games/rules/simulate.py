"""Whole games played by players from their own views: for tests, bots' trials and benchmarks."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .deal import random_deal
from .engine import apply, new_game, start_round
from .players import RandomPlayer
from .record import Record, RecordRound
from .state import GameState, PLAY
from .variant import GAMES, KOZEL, Variant
from .views import view_for

MAX_ROUNDS = 1000  # a game always ends long before; this only guards a bug from looping


def play_game(seats: int, fish: str = "all", seed: int = 0, players: Sequence | None = None,
              on_step: Callable[[GameState, list], None] | None = None,
              max_rounds: int = MAX_ROUNDS, pairs: bool = False,
              game: str = KOZEL) -> tuple[Record, GameState]:
    """Play a game to its end; return its record and its final state.

    ``game`` names the game (variant.py's GAMES); ``fish`` is ignored for a game without
    a fish rule (sea goat).

    ``players`` choose from ``view_for`` (default: seeded random players); ``on_step`` is
    called with every new state and its events, for tests that check invariants.
    """
    rng = random.Random(seed)
    players = players or [RandomPlayer(seed * 10 + s) for s in range(seats)]
    variant = Variant(seats, fish if GAMES[game].fish_rule else None, pairs, game)
    state = new_game(variant)
    record = Record([f"player{s + 1}" for s in range(seats)], variant.fish, 30, pairs=pairs,
                    variant=game)
    while not state.over and state.round < max_rounds:
        deal = random_deal(seats, rng)
        state, events = start_round(state, deal)
        record.rounds.append(RecordRound(deal))
        if on_step:
            on_step(state, events)
        while state.phase == PLAY:
            action = players[state.turn].choose(view_for(state, state.turn))
            state, events = apply(state, action)
            record.rounds[-1].moves.append(action)
            if on_step:
                on_step(state, events)
    return record, state
