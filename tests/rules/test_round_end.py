"""RULES.md 6: a round ends when a player goes out or places the fish."""

import pytest

from games.rules import IllegalAction, apply, knock, legal_actions, play, start_round, tile

from .positions import FISH_CHAIN, deal, position


def test_a_player_who_plays_their_last_tile_is_out_and_the_round_ends_at_once():
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1")
    state, events = apply(state, play(0, "1-2", "right"))
    assert [e["type"] for e in events] == ["played", "round_ended"]
    assert events[-1]["result"] == "out" and events[-1]["seat"] == 0
    assert state.phase == "deal" and legal_actions(state) == ()
    assert state.leader == 0


def test_the_rules_example_of_a_fish():
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN)
    state, events = apply(state, play(0, "2-5", "right"))
    assert (state.left, state.right) == (2, 2)
    assert events[-1]["result"] == "fish" and events[-1]["seat"] == 0  # the fisherman
    assert state.leader == 0


def test_it_is_fish_even_with_the_double_still_in_a_hand():
    state = position("2-5 1-1", "2-2", "6-6 0-1", "0-5", chain=FISH_CHAIN)
    _, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["result"] == "fish"


def test_it_is_fish_even_with_the_double_still_in_the_bazaar():
    state = position("2-5 1-1", "0-3", chain=FISH_CHAIN, draws="2-2")
    assert state.bazaar[0] == tile("2-2").index  # it lies in the bazaar
    _, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["result"] == "fish"


def test_equal_ends_are_no_fish_while_a_non_double_of_that_value_is_out_of_the_chain():
    # 2-6 is still in seat 2's hand.
    state = position("2-5 1-1", "0-3", "6-6 2-6", "0-5", chain="2-4 4-1 1-2 2-0 0-6 6-3 3-5")
    state, events = apply(state, play(0, "2-5", "right"))
    assert (state.left, state.right) == (2, 2)
    assert events[-1]["type"] == "played" and state.phase == "play" and state.turn == 1


def test_going_out_wins_over_fish():
    state = position("2-5", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN)
    _, events = apply(state, play(0, "2-5", "right"))
    assert events[-1]["result"] == "out" and events[-1]["seat"] == 0


def test_the_fisherman_leads_the_next_round():
    state = position("2-5 1-1", "0-3", "6-6 0-1", "0-5", chain=FISH_CHAIN, turn=0)
    state, _ = apply(state, play(0, "2-5", "right"))
    state, events = start_round(state, deal("0-0 1-2 1-3 1-4 1-5 2-3 2-4",
                                            "3-3 0-4 0-5 0-6 1-6 2-6 3-4",
                                            "4-4 5-5 6-6 3-5 3-6 4-5 4-6",
                                            "1-1 2-2 0-1 0-2 0-3 2-5 5-6"))
    assert state.turn == 0 and events[0]["leader"] == 0 and events[0]["lead"] is None


def test_the_safety_net_everyone_knocks_in_turn_and_the_last_player_to_play_is_the_fisherman():
    # Unreachable under the rules (RULES.md 6 says so); built by hand to test the net.
    state = position("0-1", "0-2", "0-4", chain="3-5", last_player=1, turn=2)
    state.bazaar = ()
    state.hands = (tile("0-1").bit, tile("0-2").bit, tile("0-4").bit)
    state, _ = apply(state, knock(2))
    state, _ = apply(state, knock(0))
    assert state.phase == "play"
    state, events = apply(state, knock(1))
    assert events[-1]["type"] == "round_ended"
    assert events[-1]["result"] == "fish" and events[-1]["seat"] == 1


def test_a_play_after_the_round_ended_is_refused():
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1")
    state, _ = apply(state, play(0, "1-2", "right"))
    with pytest.raises(IllegalAction, match="round is over"):
        apply(state, play(1, "0-3", "right"))
