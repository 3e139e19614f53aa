"""RULES.md 11: rating points of a pair game, as pure formulas.  Each seat holds its
pair's open score, seats 0 and 2 one pair, 1 and 3 the other."""

import pytest

from ratings.formulas import finished_game_points, game_points, interrupted_game_points


def test_the_end_both_goats_get_nothing_and_the_other_pair_100_minus_its_score():
    # Pair B at 104 loses; pair A at 25: 7.5 -> 8 each.
    assert finished_game_points([25, 104, 25, 104], goats=[1, 3]) == [8, 0, 8, 0]


@pytest.mark.parametrize("timed_out, points", [
    (0, [0, 1, 0, 1]),   # pair A (30) timed out: pair B (42) gets max(1, -1.2 -> -1) = 1
    (2, [0, 1, 0, 1]),   # the partner's timeout is the pair's too
    (1, [1, 0, 1, 0]),   # pair B (42) timed out: pair A (30) 1.2 -> 1
    (3, [1, 0, 1, 0]),
])
def test_a_timeout_gives_nothing_to_who_timed_out_and_their_partner(timed_out, points):
    assert interrupted_game_points([30, 42, 30, 42], timed_out, pairs=True) == points


def test_the_other_pair_gets_the_difference_of_the_pairs_scores_over_ten():
    # Pair A (85) leaves; pair B (10): (85 - 10) / 10 = 7.5 -> 8 each.
    assert game_points("interrupted", [85, 10, 85, 10], [], 2, pairs=True) == [0, 8, 0, 8]
    # The same scores with four players alone: the leaver's partner would be rated.
    assert game_points("interrupted", [85, 10, 85, 10], [], 2) == [1, 8, 0, 8]


def test_an_aborted_pair_game_gives_nobody_anything():
    assert game_points("aborted", [0, 0, 0, 0], [], 1, pairs=True) == [0, 0, 0, 0]
