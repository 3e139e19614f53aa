"""RULES.md 8 and 9: the end of the game, the goats, rating points, timeouts and leaving."""

from fractions import Fraction

import pytest

from games.rules import (IllegalAction, apply, interrupt, legal_actions, play, start_round,
                         summarize)
from games.rules.record import Replay
from ratings.formulas import (finished_game_points, game_points, interrupted_game_points,
                              round_half_up)

from .positions import FISH_CHAIN, deal, position


def test_the_game_ends_when_an_open_score_reaches_101_and_that_player_is_the_goat():
    state = position("1-2", "5-6 0-0", "0-3", chain="1-1", scores=[0, 90, 30],
                     opened=[False, True, True])
    state, events = apply(state, play(0, "1-2", "right"))
    assert state.scores == (0, 101, 33)
    assert state.phase == "finished" and state.goats == (1,)
    assert events[-1] == {"type": "game_over", "goats": [1], "scores": [0, 101, 33]}
    assert legal_actions(state) == ()
    with pytest.raises(IllegalAction):
        start_round(state, deal("0-1 0-2 0-3 1-2 1-3 2-3 4-5", "0-4 0-5 1-4 1-5 2-4 3-4 5-6",
                                "0-0 1-1 2-2 3-3 4-4 0-6 1-6"))


def test_100_does_not_end_the_game():
    state = position("1-2", "5-6", "0-3", chain="1-1", scores=[0, 89, 30],
                     opened=[False, True, True])
    state, _ = apply(state, play(0, "1-2", "right"))
    assert state.scores[1] == 100 and state.phase == "deal"


def test_every_player_at_101_or_more_is_a_goat():
    state = position("1-2", "5-6 0-0", "3-6 4-4", "0-3", chain="1-1", scores=[0, 90, 95, 50],
                     opened=[False, True, True, True])
    state, _ = apply(state, play(0, "1-2", "right"))
    assert state.goats == (1, 2) and state.scores == (0, 101, 112, 53)
    assert finished_game_points(state.scores, state.goats) == [10, 0, 0, 5]


def test_remembered_points_never_end_the_game():
    state = position("1-2", "1-3", chain="1-1", remembered=[0, 120])
    state, _ = apply(state, play(0, "1-2", "right"))
    assert state.remembered[1] == 124 and state.phase == "deal"


# -- rating points --------------------------------------------------------------------

def test_the_rating_example_of_a_finished_game_score_25_gives_8():
    assert finished_game_points([25, 101], goats=[1]) == [8, 0]


@pytest.mark.parametrize("score, points", [
    (0, 10), (5, 10), (15, 9), (25, 8), (94, 1), (95, 1), (96, 1), (100, 1), (84, 2), (85, 2),
])
def test_finished_game_points_round_half_up_and_are_never_below_1(score, points):
    assert finished_game_points([score, 150], goats=[1]) == [points, 0]


def test_the_rating_example_of_a_timeout():
    """RULES.md 9: Alex (32) times out; Masha (30): 0.2 -> 0 -> 1; Olya (13): 1.9 -> 2."""
    assert interrupted_game_points([30, 32, 13], interrupted_by=1) == [1, 0, 2]


@pytest.mark.parametrize("value, rounded", [
    (Fraction(15, 2), 8), (Fraction(1, 2), 1), (Fraction(1, 5), 0), (Fraction(19, 10), 2),
    (Fraction(5, 2), 3), (Fraction(-1, 2), -1), (Fraction(-3, 2), -2), (0, 0), (7, 7),
])
def test_rounding_is_half_away_from_zero_not_pythons_half_to_even(value, rounded):
    assert round_half_up(value) == rounded


def test_a_timeout_or_a_leaver_with_a_lower_score_still_gives_the_others_1():
    assert interrupted_game_points([40, 10], interrupted_by=1) == [1, 0]


# -- interruption ---------------------------------------------------------------------

@pytest.mark.parametrize("reason", ["timeout", "left"])
def test_a_timeout_or_leaving_interrupts_the_game_at_once_and_the_round_is_not_scored(reason):
    state = position("1-2 5-5", "0-3", "6-6 0-1", "0-5", chain="1-1", scores=[30, 32, 13, 0],
                     opened=[True, True, True, False], remembered=[0, 0, 0, 9])
    state, events = interrupt(state, 1, reason)
    assert state.phase == "interrupted" and legal_actions(state) == ()
    assert state.scores == (30, 32, 13, 0) and state.remembered == (0, 0, 0, 9)
    assert events == [{"type": "interrupted", "seat": 1, "reason": reason,
                       "scores": [30, 32, 13, 0], "aborted": False}]
    summary = summarize(Replay(state), rate=game_points)
    assert summary["status"] == "interrupted" and summary["interrupted_by"] == 1
    assert summary["rating_points"] == [1, 0, 2, 3]  # Serg: (32 - 0) / 10 = 3.2 -> 3


def test_a_finished_game_cannot_be_interrupted():
    state = position("1-2", "5-6 0-0", chain="1-1", scores=[0, 90], opened=[False, True])
    state, _ = apply(state, play(0, "1-2", "right"))
    with pytest.raises(IllegalAction, match="already over"):
        interrupt(state, 0)


@pytest.mark.parametrize("seat, reason", [(4, "timeout"), (-1, "left"), (0, "bored")])
def test_an_interrupt_names_a_seat_and_a_reason(seat, reason):
    state = position("1-2", "5-6 0-0", chain="1-1")
    with pytest.raises(IllegalAction):
        interrupt(state, seat, reason)


# -- aborted games (RULES.md 9, the decision against rating farming) ---------------------

@pytest.mark.parametrize("reason", ["timeout", "left"])
def test_an_interrupt_before_the_first_round_ended_aborts_the_game_for_nobody(reason):
    state = position("1-2 5-5", "0-3", "6-6 0-1", chain="1-1")  # round 1, nothing scored yet
    state, events = interrupt(state, 1, reason)
    assert state.aborted and events[0]["aborted"] is True
    summary = summarize(Replay(state), rate=game_points)
    assert summary["status"] == "aborted" and summary["rating_points"] == [0, 0, 0]


def test_a_first_round_ended_in_a_draw_has_been_scored_so_a_later_interrupt_is_rated():
    # RULES.md 7.4's draw: Masha 4, Alex 14, Olya 14, Serg 3.  Nobody is credited and every
    # score and remembered point is still 0, yet the round has ended and been scored: an
    # interrupt now is rated, not aborted.  Olya leaves; the others get max(1, (0 - 0) / 10) = 1.
    state = position("2-5 1-3", "6-6 1-1", "5-5 0-4", "0-3", chain=FISH_CHAIN, fish="one")
    state, _ = apply(state, play(0, "2-5", "right"))
    assert state.bank == 35 and not any(state.scores) and not any(state.remembered)
    state, events = interrupt(state, 2, "left")
    assert not state.aborted and events[0]["aborted"] is False
    summary = summarize(Replay(state), rate=game_points)
    assert summary["status"] == "interrupted" and summary["rating_points"] == [1, 1, 0, 1]
