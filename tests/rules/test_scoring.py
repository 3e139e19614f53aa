"""RULES.md 7: round points, open score and remembered points, fish, the fish bank."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import apply, play
from games.rules.scoring import (FISH, OUT, Tally, credit, round_points, score_columns,
                                 score_round)
from games.rules.tiles import mask_of

from .positions import FISH_CHAIN, position, tiles


# -- 7.1 round points ---------------------------------------------------------------

@pytest.mark.parametrize("hand, points", [
    ("", 0),                 # the player who went out
    ("5-6", 11),
    ("1-2 3-3 6-6", 21),
    ("0-0", 10),             # a lone 0-0 counts 10
    ("0-0 0-1", 1),          # 0-0 among other tiles counts 0
    ("0-0 0-0"[:3], 10),
])
def test_round_points_are_the_pips_left_and_a_lone_0_0_counts_10(hand, points):
    assert round_points(mask_of(tiles(hand))) == points


# -- 7.2 crediting ------------------------------------------------------------------

@pytest.mark.parametrize("before, points, after", [
    (Tally(20, 0, True), 5, Tally(25, 0, True)),      # opened: score grows
    (Tally(0, 7, False), 13, Tally(20, 0, True)),     # more than 12 opens, with remembered
    (Tally(0, 7, False), 12, Tally(0, 19, False)),    # 12 does not open
    (Tally(0, 19, False), 4, Tally(0, 23, False)),    # remembered may grow past 12
    (Tally(0, 0, False), 0, Tally(0, 0, False)),
])
def test_crediting_round_points(before, points, after):
    assert credit(before, points) == after


def test_the_worked_example_of_a_round_with_one_player_out():
    """RULES.md 7.3: Masha +19 goes out -> 0; Alex 0 + 3 -> +3; Olya +7 + 13 -> 20 opened;
    Serg +4 + 5 -> +9.  Played through the rules from a position."""
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1",
                     remembered=[19, 0, 7, 4])
    state, events = apply(state, play(0, "1-2", "right"))
    ended = events[-1]
    assert ended["result"] == "out" and ended["seat"] == 0
    assert ended["points"] == [0, 3, 13, 5]
    assert ended["credited"] == [0, 3, 13, 5]
    assert state.scores == (0, 0, 20, 0)
    assert state.remembered == (0, 3, 0, 9)
    assert state.opened == (False, False, True, False)


def test_a_player_who_goes_out_keeps_their_open_score():
    state = position("1-2", "0-3", chain="1-1", scores=[40, 0], opened=[True, False])
    state, _ = apply(state, play(0, "1-2", "right"))
    assert state.scores[0] == 40 and state.remembered[0] == 0


# -- 7.4 fish -------------------------------------------------------------------------

def test_fish_for_all_credits_everyone_their_own_points_the_fisherman_too():
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="all",
                     remembered=[4, 0, 7, 4])
    state, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["points"] == [2, 3, 13, 5]
    assert events[-1]["credited"] == [2, 3, 13, 5]
    assert state.remembered == (6, 3, 0, 9) and state.scores == (0, 0, 20, 0)


def test_the_worked_example_of_fish_for_one():
    """RULES.md 7.4: Masha 2, Alex 3, Olya 13 (remembered +7), Serg 5: T = 23; Olya opens
    with 7 + 23 = 30; the others keep their open scores and lose their remembered points."""
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="one",
                     scores=[0, 15, 0, 0], opened=[False, True, False, False],
                     remembered=[4, 0, 7, 6])
    state, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["points"] == [2, 3, 13, 5]
    assert events[-1]["credited"] == [0, 0, 23, 0]  # by the rule of 7.2: T, which opens her
    assert state.scores == (0, 15, 30, 0)
    assert state.remembered == (0, 0, 0, 0)
    assert state.bank == 0


def test_the_worked_example_of_a_fish_for_one_draw():
    """RULES.md 7.4: Alex 14, Olya 14, Masha 4, Serg 3: a draw, the bank becomes +35."""
    state = position("2-5 1-3", "6-6 1-1", "5-5 0-4", "0-3", chain=FISH_CHAIN, fish="one",
                     remembered=[4, 2, 0, 9])
    state, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["points"] == [4, 14, 14, 3]
    assert events[-1]["credited"] == [0, 0, 0, 0]
    assert state.bank == 35
    assert state.remembered == (4, 2, 0, 9) and state.scores == (0, 0, 0, 0)


# -- 7.5 the fish bank ----------------------------------------------------------------

def test_the_bank_goes_with_t_to_the_single_top_scorer_of_the_next_fish():
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, fish="one", bank=35)
    state, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["credited"] == [0, 0, 23 + 35, 0]
    assert state.scores[2] == 58 and state.bank == 0


def test_the_bank_goes_to_the_single_top_scorer_of_a_round_ended_by_someone_out():
    # Serg has 5 points, the most; with the bank of 35 it is one credit of 40: it opens him.
    state = position("1-2", "0-3", "0-4", "0-5", chain="1-1", fish="one", bank=35)
    state, events = apply(state, play(0, "1-2", "right"))
    assert events[-1]["credited"] == [0, 3, 4, 40]
    assert state.scores == (0, 0, 0, 40) and state.opened[3]
    assert state.bank == 0


def test_a_second_fish_for_one_draw_adds_its_t_to_the_bank():
    state = position("2-5 1-3", "6-6 1-1", "5-5 0-4", "0-3", chain=FISH_CHAIN, fish="one",
                     bank=35)
    state, _ = apply(state, play(0, "2-5", "right"))
    assert state.bank == 70


def test_a_round_out_with_a_shared_top_score_leaves_the_bank_untouched():
    # Alex and Olya share the most points (4): everyone credited as in 7.3, the bank stays.
    state = position("1-2", "0-4", "1-3", "0-3", chain="1-1", fish="one", bank=35,
                     remembered=[5, 0, 0, 0])
    state, events = apply(state, play(0, "1-2", "right"))
    assert events[-1]["credited"] == [0, 4, 4, 3]
    assert state.bank == 35
    assert state.remembered == (0, 4, 4, 3)


@pytest.mark.parametrize("result, seat, points, tallies, rule, bank, credited, after, bank_after", [
    # fish for one, single top: T to the top, others lose remembered
    (FISH, 0, (2, 3, 13, 5), [(0, 0, False), (0, 0, False), (0, 7, False), (0, 0, False)],
     "one", 0, (0, 0, 23, 0), [(0, 0, False), (0, 0, False), (30, 0, True), (0, 0, False)], 0),
    # fish for one, two players tie: nothing credited, T to the bank
    (FISH, 0, (4, 14, 14, 3), [(0, 3, False)] * 4, "one", 0, (0, 0, 0, 0),
     [(0, 3, False)] * 4, 35),
    # out with a bank and a single top: bank on top of own points, as one credit
    (OUT, 1, (12, 0, 3), [(0, 0, False)] * 3, "one", 10, (22, 0, 3),
     [(22, 0, True), (0, 0, False), (0, 3, False)], 0),
    # out, bank, tie at the top: bank untouched
    (OUT, 1, (5, 0, 5), [(0, 0, False)] * 3, "one", 10, (5, 0, 5),
     [(0, 5, False), (0, 0, False), (0, 5, False)], 10),
    # fish for all with two players
    (FISH, 1, (7, 20), [(10, 0, True), (0, 6, False)], "all", 0, (7, 20),
     [(17, 0, True), (26, 0, True)], 0),
])
def test_score_round_table(result, seat, points, tallies, rule, bank, credited, after, bank_after):
    scored = score_round(result, seat, points, [Tally(*t) for t in tallies], rule, bank)
    assert scored.credited == credited
    assert [tuple(t) for t in scored.tallies] == [tuple(t) for t in after]
    assert scored.bank == bank_after


# -- the engine's fast path ----------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.sampled_from((OUT, FISH)), st.integers(0, n - 1),
    st.lists(st.integers(0, 40), min_size=n, max_size=n),
    st.lists(st.tuples(st.integers(0, 120), st.integers(0, 12), st.booleans()),
             min_size=n, max_size=n),
    st.sampled_from(("all", "one")), st.sampled_from((0, 0, 7, 30)))))
def test_score_columns_is_score_round_on_columns(case):
    result, seat, points, tallies, rule, bank = case
    tallies = [Tally(*t) for t in tallies]
    scored = score_round(result, seat, tuple(points), tallies, rule, bank)
    credited, scores, remembered, opened, bank_after = score_columns(
        result, seat, tuple(points), [t.score for t in tallies],
        [t.remembered for t in tallies], [t.opened for t in tallies], rule, bank)
    assert credited == list(scored.credited) and bank_after == scored.bank
    assert list(zip(scores, remembered, opened)) == [tuple(t) for t in scored.tallies]
    assert all(type(o) is bool for o in opened)
