"""RULES.md 5: a turn is exactly one of play, draw or knock."""

import pytest

from games.rules import (IllegalAction, MalformedAction, apply, apply_turn, draw, knock,
                         legal_actions, play)
from games.rules import action_from_json

from .positions import all_but, position



def names(actions):
    return sorted((a.kind, a.tile.name if a.tile else None, a.end) for a in actions)


def test_holding_a_tile_that_fits_the_player_must_play_one_of_them():
    state = position("3-6 5-5 0-1", "2-2", chain="3-5")
    assert names(legal_actions(state)) == [("play", "3-6", "left"), ("play", "5-5", "right")]
    with pytest.raises(IllegalAction, match="must play") as refused:
        apply(state, draw(0))
    assert refused.value.rule == "5.1"
    with pytest.raises(IllegalAction, match="must play"):
        apply(state, knock(0))


def test_a_tile_is_played_on_an_end_of_the_players_choice_where_it_fits():
    state = position("3-5 0-1", "2-2", chain="3-6 6-5")
    assert names(legal_actions(state)) == [("play", "3-5", "left"), ("play", "3-5", "right")]
    left, events = apply(state, play(0, "3-5", "left"))
    assert left.chain == ((5, 3), (3, 6), (6, 5)) and (left.left, left.right) == (5, 5)
    assert events == [{"type": "played", "seat": 0, "tile": "3-5", "end": "left"}]
    right, _ = apply(state, play(0, "5-3", "right"))
    assert right.chain == ((3, 6), (6, 5), (5, 3)) and (right.left, right.right) == (3, 3)


def test_a_tile_that_fits_two_different_ends_needs_its_end_named():
    state = position("3-5 0-1", "2-2", chain="3-6 6-5")
    with pytest.raises(IllegalAction, match="fits both ends") as refused:
        apply(state, play(0, "3-5"))
    error = refused.value
    assert (error.code, error.rule, error.params) == ("choose-end", "5.1", {"tile": "3-5"})


def test_an_unnamed_end_goes_where_the_tile_fits_or_right_on_equal_ends():
    state = position("3-6 0-1", "2-2", chain="3-5")
    new, _ = apply(state, play(0, "3-6"))
    assert new.chain == ((6, 3), (3, 5))
    state = position("3-6 0-1", "2-2", chain="3-5 5-0 0-3")
    new, _ = apply(state, play(0, "3-6"))
    assert new.chain == ((3, 5), (5, 0), (0, 3), (3, 6))


def test_a_tile_on_an_end_it_does_not_fit_is_refused():
    state = position("3-6 0-1", "2-2", chain="3-5")
    with pytest.raises(IllegalAction, match="does not fit the right end"):
        apply(state, play(0, "3-6", "right"))
    with pytest.raises(IllegalAction, match="fits neither open end"):
        apply(state, play(0, "0-1", "left"))


def test_a_tile_not_in_hand_is_refused():
    state = position("3-6 0-1", "2-2", chain="3-5")
    with pytest.raises(IllegalAction, match="you do not hold 5-6"):
        apply(state, play(0, "5-6", "right"))


def test_only_the_seat_to_move_may_act():
    state = position("3-6 0-1", "2-2", chain="3-5")
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, play(1, "2-2", "left"))
    with pytest.raises(IllegalAction, match="no seat 3"):
        apply(state, knock(3))


def test_with_nothing_that_fits_the_player_draws_one_tile_at_a_time_until_one_fits():
    state = position("0-1 0-2", "2-2", chain="3-5", draws="1-2 6-6 3-4 0-0")
    assert legal_actions(state) == (draw(0),)
    with pytest.raises(IllegalAction, match="draw from the bazaar"):
        apply(state, play(0, "0-1", "left"))
    with pytest.raises(IllegalAction, match="not empty") as refused:
        apply(state, knock(0))
    assert refused.value.rule == "5.3"
    size = len(state.bazaar)
    state, events = apply(state, draw(0))           # 1-2 does not fit: draw again
    assert events == [{"type": "drew", "seat": 0, "bazaar": size - 1}]
    assert state.turn == 0 and legal_actions(state) == (draw(0),)
    state, _ = apply(state, draw(0))                # 6-6 does not fit either
    state, _ = apply(state, draw(0))                # 3-4 fits the left end: play it
    assert {t.name for t in state.hand(0)} == {"0-1", "0-2", "1-2", "6-6", "3-4"}
    assert names(legal_actions(state)) == [("play", "3-4", "left")]
    with pytest.raises(IllegalAction, match="must play"):
        apply(state, draw(0))
    state, _ = apply(state, play(0, "3-4"))
    assert state.turn == 1 and len(state.hand(0)) == 4


def test_when_the_bazaar_runs_out_first_the_player_knocks():
    # One tile left in the bazaar, and it does not fit: draw it, then knock.
    state = position("0-1", all_but("0-1 3-5 4-6"), chain="3-5", bazaar="4-6")
    state, _ = apply(state, draw(0))
    assert state.bazaar == () and state.turn == 0
    assert legal_actions(state) == (knock(0),)
    with pytest.raises(IllegalAction, match="bazaar is empty: knock") as refused:
        apply(state, draw(0))
    assert refused.value.rule == "5.2"
    state, events = apply(state, knock(0))
    assert events == [{"type": "knocked", "seat": 0}]
    assert state.turn == 1 and state.knocks == 1
    assert {t.name for t in state.hand(0)} == {"0-1", "4-6"}  # drawn tiles stay in hand


def test_turn_order_is_clockwise():
    state = position("0-1 3-6", "2-2 1-4", "5-6 0-0", chain="3-5", turn=2)
    state, _ = apply(state, play(2, "5-6", "right"))
    assert state.turn == 0


@pytest.mark.parametrize("message", [
    "play", None, [], {}, {"seat": 0}, {"seat": "0", "play": "3-6"},
    {"seat": 0, "play": "3-6", "draw": True}, {"seat": 0, "draw": 1}, {"seat": 0, "knock": "yes"},
    {"seat": 0, "play": "9-9"}, {"seat": 0, "play": "3-6", "end": "middle"},
    {"seat": 10**100, "knock": True}, {"seat": -1, "knock": True}, {"seat": True, "knock": True},
    {"seat": 0, "play": "3-6", "extra": 1}, {"seat": 0, "play": ["3-6"]},
])
def test_a_malformed_action_is_refused_with_a_readable_message(message):
    with pytest.raises(MalformedAction) as refused:
        action_from_json(message)
    assert str(refused.value)


def test_apply_refuses_what_is_not_an_action():
    state = position("3-6 0-1", "2-2", chain="3-5")
    with pytest.raises(MalformedAction):
        apply(state, ("play", 0, None, "left"))


# Seat 0 holds every tile with a 3 or a 6 that is not on the table (three seats, the
# bazaar empty, all 28 tiles accounted for); the others hold the rest.
THREES_AND_SIXES = "5-6 3-4 0-3 1-3 2-3 3-3 3-6 0-6 2-6 4-6 6-6"


def test_the_server_knocks_for_every_seat_that_can_only_knock_after_a_play():
    # The chain shows 3 and 5; seat 0 plays 5-6 on the right, so the ends show 3 and 6.
    # Seats 1 and 2 hold nothing with a 3 or a 6 and the bazaar is empty: each can only
    # knock (RULES.md 5.3), so the server knocks for both, and the turn comes back to
    # seat 0, who can play 3-4.
    state = position(THREES_AND_SIXES + " 1-6", "0-1 2-2 0-0 1-1 1-2 0-4 0-5",
                     "0-2 4-4 1-4 1-5 2-4 2-5 4-5 5-5", chain="3-5", bazaar="")
    state, events, knocks = apply_turn(state, play(0, "5-6"))
    assert knocks == [knock(1), knock(2)]
    assert events == [{"type": "played", "seat": 0, "tile": "5-6", "end": "right"},
                      {"type": "knocked", "seat": 1, "auto": True},
                      {"type": "knocked", "seat": 2, "auto": True}]
    assert state.turn == 0 and state.knocks == 2


def test_no_knock_is_made_for_a_seat_that_can_play_or_draw():
    # Seat 1 holds 1-6, which fits the new right end: nothing is made for it.
    state = position(THREES_AND_SIXES, "1-6 0-1 2-2 0-0 1-1 1-2 0-4 0-5",
                     "0-2 4-4 1-4 1-5 2-4 2-5 4-5 5-5", chain="3-5", bazaar="")
    state, events, knocks = apply_turn(state, play(0, "5-6"))
    assert knocks == [] and len(events) == 1 and state.turn == 1
    # With a tile in the bazaar, seat 1 must draw: that is the player's own to do.
    state = position(THREES_AND_SIXES + " 1-6", "0-1 2-2 1-1 1-2 0-4 0-5",
                     "0-2 4-4 1-4 1-5 2-4 2-5 4-5 5-5", chain="3-5", bazaar="0-0")
    state, events, knocks = apply_turn(state, play(0, "5-6"))
    assert knocks == [] and state.turn == 1
