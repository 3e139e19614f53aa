"""Real game records for arena tests: games played through the rules by random players
from their own views (games.rules.simulate), renamed, cut and interrupted as needed."""

from __future__ import annotations

from games.rules.simulate import play_game


def finished_record(names, seed: int, fish: str = "all", pairs: bool = False) -> dict:
    record, _state = play_game(len(names), fish, seed=seed, pairs=pairs)
    record.players = list(names)
    return record.to_json()


def interrupted_record(names, seed: int, rounds: int, seat: int, reason: str = "timeout",
                       fish: str = "all", pairs: bool = False) -> dict:
    """The game of ``seed`` cut after its first ``rounds`` rounds (0: aborted), then
    interrupted by ``seat``."""
    record, _state = play_game(len(names), fish, seed=seed, pairs=pairs)
    record.players = list(names)
    record.rounds = record.rounds[:rounds]
    record.interrupt = (seat, reason)
    return record.to_json()


def unfinished_record(names, seed: int, fish: str = "all") -> dict:
    record, _state = play_game(len(names), fish, seed=seed)
    record.players = list(names)
    record.rounds = record.rounds[:1]
    record.rounds[0].moves = record.rounds[0].moves[:2]
    return record.to_json()
