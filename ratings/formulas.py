"""Rating points of a game (RULES.md 8 and 9), as pure functions.

Rounding is "by the rules of mathematics": half away from zero (7.5 -> 8, 0.5 -> 1).
Python's built-in rounding goes half to even, so it is not used here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

MINIMUM_POINTS = 1


def round_half_up(value: Fraction | int) -> int:
    """Round half away from zero: 7.5 -> 8, 0.5 -> 1, -0.5 -> -1, 0.2 -> 0."""
    value = Fraction(value)
    magnitude = (abs(value) + Fraction(1, 2)).__floor__()
    return magnitude if value >= 0 else -magnitude


def _points(numerator: int) -> int:
    return max(MINIMUM_POINTS, round_half_up(Fraction(numerator, 10)))


def finished_game_points(scores: Sequence[int], goats: Sequence[int]) -> list[int]:
    """RULES.md 8: the goats (the rules say who they are) get 0; every other player
    max(1, (100 - score) / 10)."""
    return [0 if seat in goats else _points(100 - score) for seat, score in enumerate(scores)]


def interrupted_game_points(scores: Sequence[int], interrupted_by: int,
                            pairs: bool = False) -> list[int]:
    """RULES.md 9: the player who timed out or left gets 0; every other player
    max(1, (their score - my score) / 10), with open scores.

    In a pair game (RULES.md 11) the partner of who timed out or left gets 0 too, and
    the scores are the pairs' (each seat holds its pair's score)."""
    timed_out = scores[interrupted_by]
    return [0 if seat == interrupted_by or pairs and seat % 2 == interrupted_by % 2
            else _points(timed_out - score) for seat, score in enumerate(scores)]


# A pair game's end (RULES.md 11) needs no formula of its own: the goats are both players
# of the pair at 101 or more, and each seat's score is its pair's, so finished_game_points
# gives every player of the other pair max(1, (100 - their pair's score) / 10).


def game_points(status: str, scores: Sequence[int], goats: Sequence[int],
                interrupted_by: int | None, pairs: bool = False) -> list[int] | None:
    """The rating points of a game that is "finished", "interrupted" or "aborted" (all
    0: RULES.md 9, interrupted before the first round ended), None for one still being
    played, as ``manage.py replay`` prints them (RECORD.md)."""
    if status == "aborted":
        return [0] * len(scores)
    if status == "finished":
        return finished_game_points(scores, goats)
    if status == "interrupted":
        return interrupted_game_points(scores, interrupted_by, pairs)
    return None
