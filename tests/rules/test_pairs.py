"""RULES.md 11: pair games, two against two.  Seats 0 and 2 are pair A, seats 1 and 3
pair B; the pair is the scoring unit, and both partners always show their pair's score.

Names as in the rules' examples: Masha seat 0 and Olya seat 2 (pair A), Alex seat 1 and
Serg seat 3 (pair B)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import GameState, InvalidState, apply, new_game, play, replay, start_round, view_for
from games.rules.record import loads_record, summarize
from games.rules.simulate import play_game

from .positions import FISH_CHAIN, deal, position
from .test_properties import check_tiles_accounted, check_views


def pair_state(*hands, chain, fish="all", scores=(0, 0), remembered=(0, 0),
               opened=(False, False), bank=0, turn=0):
    """A pair game's position: the pair tallies [A, B] spread to their seats."""
    spread = lambda pair: [pair[s % 2] for s in range(4)]  # noqa: E731
    return position(*hands, chain=chain, fish=fish, pairs=True, turn=turn, bank=bank,
                    scores=spread(scores), remembered=spread(remembered),
                    opened=spread(opened))


def ended(events):
    return next(e for e in events if e["type"] == "round_ended")


def test_the_rules_worked_example_of_out():
    # Pair A at +7 remembered, pair B at 20 open.  Masha (seat 0) goes out with 1-2;
    # Olya holds 3-6 (9), Alex 0-6 (6), Serg 2-6 (8).
    # Pair A: round points 0 (its player went out), credited nothing, +7 lost -> 0.
    # Pair B: 6 + 8 = 14, credited 14 on an open 20 -> 34.
    state = pair_state("1-2", "0-6", "3-6", "2-6", chain="1-1",
                       scores=(0, 20), remembered=(7, 0), opened=(False, True))
    state, events = apply(state, play(0, "1-2", "right"))
    summary = ended(events)
    assert summary["points"] == [0, 6, 9, 8]          # per seat, RULES.md 7.1
    assert summary["pair_points"] == [0, 14]
    assert summary["pair_credited"] == [0, 14]
    assert summary["pair_scores"] == [0, 34] and summary["pair_remembered"] == [0, 0]
    assert summary["pair_opened"] == [False, True]
    assert state.scores == (0, 34, 0, 34) and state.remembered == (0, 0, 0, 0)
    assert state.leader == 0  # the player who went out leads the next round


def test_the_rules_worked_example_of_fish_for_one():
    # Masha places the fish with 2-5 and keeps 0-5 (5), Olya holds 4-5 (9): pair A 14;
    # Alex 1-5 (6), Serg 0-4 (4): pair B 10.  T = 24.  Pair A, at +5 remembered, is
    # credited 24 and opens with 5 + 24 = 29; pair B loses its +3.
    state = pair_state("2-5 0-5", "1-5", "4-5", "0-4", chain=FISH_CHAIN, fish="one",
                       remembered=(5, 3))
    state, events = apply(state, play(0, "2-5", "right"))
    summary = ended(events)
    assert summary["result"] == "fish" and summary["seat"] == 0
    assert summary["pair_points"] == [14, 10]
    assert summary["pair_credited"] == [24, 0]
    assert summary["pair_scores"] == [29, 0] and summary["pair_remembered"] == [0, 0]
    assert summary["pair_opened"] == [True, False]
    assert state.scores == (29, 0, 29, 0) and state.opened == (True, False, True, False)
    assert state.leader == 0  # the fisherman leads the next round


# Each row: hands by seat, chain, the move, fish rule, pair tallies before
# (scores, remembered, opened, bank), and after (pair_points, pair_credited, scores,
# remembered, bank).
SCORING = [
    pytest.param(  # fish for all: each pair its own points; 14 > 12 opens A, 10 is remembered
        ("2-5 0-5", "1-5", "4-5", "0-4"), FISH_CHAIN, (0, "2-5", "right"), "all",
        ((0, 0), (2, 1), (False, False), 0),
        ([14, 10], [14, 10], [16, 0], [0, 11], 0), id="fish-for-all"),
    pytest.param(  # fish for one, 10 against 10: a draw; T = 20 into the bank, remembered kept
        ("2-5 0-5", "1-5", "0-1 0-4", "1-3"), FISH_CHAIN, (0, "2-5", "right"), "one",
        ((0, 30), (4, 0), (False, True), 0),
        ([10, 10], [0, 0], [0, 30], [4, 0], 20), id="fish-for-one-draw"),
    pytest.param(  # the same draw with a bank of 20 from an earlier draw: T = 20 is added to
        # it and the bank carries on (RULES.md 7.5), nobody credited, remembered points kept
        ("2-5 0-5", "1-5", "0-1 0-4", "1-3"), FISH_CHAIN, (0, "2-5", "right"), "one",
        ((0, 30), (4, 0), (False, True), 20),
        ([10, 10], [0, 0], [0, 30], [4, 0], 40), id="fish-for-one-draw-bank-carries-on"),
    pytest.param(  # fish for one won by B (6 + 9 = 15 against 5 + 4 = 9): T 24 + bank 20
        ("2-5 0-5", "1-5", "0-4", "4-5"), FISH_CHAIN, (0, "2-5", "right"), "one",
        ((40, 0), (0, 6), (True, False), 20),
        ([9, 15], [0, 44], [40, 50], [0, 0], 0), id="fish-for-one-win-with-bank"),
    pytest.param(  # out with a bank: it goes to B, the pair with the most round points,
        # on top of its 14 as one credit (34 > 12 opens it, +2 remembered added)
        ("1-2", "0-6", "3-6", "2-6"), "1-1", (0, "1-2", "right"), "one",
        ((0, 0), (0, 2), (False, False), 20),
        ([0, 14], [0, 34], [0, 36], [0, 0], 0), id="out-bank-won"),
    pytest.param(  # a lone 0-0 counts 10 in its pair's points: Alex 10 + Serg 2 = 12, remembered
        ("1-2", "0-0", "3-6", "0-2"), "1-1", (0, "1-2", "right"), "all",
        ((0, 0), (0, 0), (False, False), 0),
        ([0, 12], [0, 12], [0, 0], [0, 12], 0), id="lone-zero-double"),
    pytest.param(  # Olya (seat 2) goes out: her pair is credited nothing, Masha's hand too
        ("5-6 4-6", "0-6", "1-2", "2-6"), "1-1", (2, "1-2", "right"), "all",
        ((10, 10), (3, 0), (True, True), 0),
        ([0, 14], [0, 14], [10, 24], [0, 0], 0), id="partner-out"),
]


@pytest.mark.parametrize("hands, chain, move, fish, before, after", SCORING)
def test_pair_scoring(hands, chain, move, fish, before, after):
    scores, remembered, opened, bank = before
    state = pair_state(*hands, chain=chain, fish=fish, scores=scores, remembered=remembered,
                       opened=opened, bank=bank, turn=move[0])
    state, events = apply(state, play(*move))
    summary = ended(events)
    points, credited, scores_after, remembered_after, bank_after = after
    assert summary["pair_points"] == points
    assert summary["pair_credited"] == credited
    assert summary["pair_scores"] == scores_after
    assert summary["pair_remembered"] == remembered_after
    assert summary["bank"] == bank_after == state.bank
    assert list(state.scores) == [scores_after[s % 2] for s in range(4)]
    assert list(state.remembered) == [remembered_after[s % 2] for s in range(4)]
    assert summary["credited"] == [credited[s % 2] for s in range(4)]


def test_turns_alternate_between_the_pairs_and_partners_see_only_their_own_hands():
    state = pair_state("1-2 5-5", "2-3 4-4", "3-4 6-6", "4-5 0-0", chain="1-1")
    turns = []
    for seat, played in enumerate(("1-2", "2-3", "3-4")):
        state, _ = apply(state, play(seat, played, "right"))
        turns.append(state.turn)
    assert turns == [1, 2, 3]  # pair B, pair A, pair B: partners sit opposite each other
    partner = view_for(state, 2)
    assert partner["hand"] == ["6-6"] and partner["hand_counts"] == [1, 1, 1, 2]
    assert "5-5" not in str(partner)  # the partner's (seat 0's) tile
    assert "4-5" not in str(partner) and "0-0" not in str(partner)  # seat 3's
    assert view_for(state, 0)["hand"] == ["5-5"]


def test_a_pair_at_101_loses_and_both_its_players_are_goats():
    # Pair B at 95 open is credited 6 + 8 = 14 -> 109: Alex and Serg are the goats.
    state = pair_state("1-2", "0-6", "3-6", "2-6", chain="1-1", scores=(30, 95),
                       opened=(True, True))
    state, events = apply(state, play(0, "1-2", "right"))
    assert state.phase == "finished" and state.goats == (1, 3)
    assert events[-1] == {"type": "game_over", "goats": [1, 3], "scores": [30, 109, 30, 109]}


def test_the_player_who_went_out_leads_the_next_round_with_any_tile():
    state = pair_state("1-2", "0-6", "3-6", "2-6", chain="1-1")
    state, _ = apply(state, play(0, "1-2", "right"))
    state, events = start_round(state, deal(
        "1-1 2-5 0-3 4-6 3-3 0-1 5-5", "0-0 0-2 0-4 0-5 0-6 1-2 1-3",
        "1-4 1-5 1-6 2-2 2-3 2-4 2-6", "3-4 3-5 3-6 4-4 4-5 5-6 6-6"))
    assert state.turn == 0 and state.lead == -1 and events[0]["leader"] == 0


def test_a_pair_game_needs_four_seats_and_old_states_load_as_games_alone():
    with pytest.raises(InvalidState):
        new_game(3, "all", pairs=True)
    alone = new_game(4, "all").to_json()
    del alone["pairs"]  # a state saved before pair games existed
    assert GameState.from_json(alone).pairs is False
    paired = new_game(4, "one", pairs=True)
    assert GameState.from_json(json.loads(json.dumps(paired.to_json()))).pairs is True
    assert view_for(paired, 1)["pairs"] is True and view_for(paired, None)["pairs"] is True


def test_a_pair_state_whose_partners_differ_is_refused():
    data = new_game(4, "all", pairs=True).to_json()
    data["scores"] = [5, 0, 0, 0]
    with pytest.raises(InvalidState, match="partners"):
        GameState.from_json(data)
    assert GameState.from_json(dict(data, pairs=False)).scores == (5, 0, 0, 0)


# -- many random pair games (hypothesis) -------------------------------------------------

pair_games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(["all", "one"]))


def check_pair_round(before: GameState, summary: dict):
    """A round's pair credits explain the pair tallies: a credited pair's score plus
    remembered points grow by exactly its credit; an uncredited pair's score stays and its
    remembered points stay or are lost.  Partners always show their pair's tally."""
    for pair in (0, 1):
        score, remembered = before.scores[pair], before.remembered[pair]
        credited = summary["pair_credited"][pair]
        after_score, after_remembered = summary["pair_scores"][pair], summary["pair_remembered"][pair]
        if credited:
            assert after_score + after_remembered == score + remembered + credited
        else:
            assert after_score == score and after_remembered in (0, remembered)
    assert summary["scores"] == [summary["pair_scores"][s % 2] for s in range(4)]
    assert sum(summary["pair_points"]) == (
        sum(summary["points"]) if summary["result"] == "fish"
        else sum(p for s, p in enumerate(summary["points"]) if s % 2 != summary["seat"] % 2))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_games)
def test_random_pair_games_keep_every_rule(game):
    seed, fish = game
    ended, credits, lost, previous = [], [0, 0], [0, 0], [new_game(4, fish, pairs=True)]

    def step(state, events):
        check_tiles_accounted(state)
        check_views(state)
        assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
        for event in events:
            if event["type"] == "round_ended":
                check_pair_round(previous[0], event)
                ended.append(event)
                for pair in (0, 1):
                    credits[pair] += event["pair_credited"][pair]
                    if not event["pair_credited"][pair]:
                        lost[pair] += previous[0].remembered[pair] - event["pair_remembered"][pair]
        previous[0] = state

    record, final = play_game(4, fish, seed, on_step=step, pairs=True)
    assert final.over and final.pairs
    # The goats are a whole pair, at 101 or more.
    assert final.goats in ((0, 2), (1, 3), (0, 1, 2, 3))
    assert all(final.scores[g] >= 101 for g in final.goats)
    # A pair's score (with its remembered points) is the sum of its credits, less the
    # remembered points it lost.
    for pair in (0, 1):
        assert final.scores[pair] + final.remembered[pair] == credits[pair] - lost[pair]
    replayed = replay(loads_record(record.dumps()))
    assert replayed.state.to_json() == final.to_json()
    assert replayed.rounds == ended
    assert summarize(replayed)["rounds"][0]["pair_points"] == ended[0]["pair_points"]


@pytest.mark.slow
@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair_games)
def test_thousands_of_random_pair_games_score_each_pair_the_sum_of_its_credits(game):
    """The lean half of the test above, over thousands of games: the tiles accounted for
    at every step, every round's credits explained, partners showing one tally, the
    goats a whole pair, and each pair's score the sum of its credits (less what it lost
    of its remembered points)."""
    seed, fish = game
    credits, lost, rounds, previous = [0, 0], [0, 0], [0], [new_game(4, fish, pairs=True)]

    def step(state, events):
        check_tiles_accounted(state)
        assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
        for event in events:
            if event["type"] == "round_ended":
                check_pair_round(previous[0], event)
                rounds[0] += 1
                for pair in (0, 1):
                    credits[pair] += event["pair_credited"][pair]
                    if not event["pair_credited"][pair]:
                        lost[pair] += previous[0].remembered[pair] - event["pair_remembered"][pair]
        previous[0] = state

    _record, final = play_game(4, fish, seed, on_step=step, pairs=True)
    assert final.over and rounds[0] == final.round
    assert final.goats in ((0, 2), (1, 3), (0, 1, 2, 3))
    assert all(final.scores[g] >= 101 for g in final.goats)
    assert not [s for s in range(4) if s not in final.goats and final.scores[s] >= 101]
    for pair in (0, 1):
        assert final.scores[pair] + final.remembered[pair] == credits[pair] - lost[pair]
        assert final.scores[pair] <= credits[pair]
