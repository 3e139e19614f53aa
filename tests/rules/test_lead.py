"""RULES.md 4: who leads, and with what."""

import pytest

from games.rules import IllegalAction, apply, legal_actions, new_game, play, start_round

from .positions import deal, position

# Four hands that hold every tile; each test moves the doubles around.
FOUR = ["1-1 0-1 0-2 0-3 2-3 4-5 5-6", "2-2 1-2 1-3 0-4 2-4 3-5 4-6",
        "3-3 1-4 1-5 0-5 2-5 3-6 0-6", "4-4 5-5 6-6 0-0 1-6 2-6 3-4"]


def first_round(*hands, seats=None, bazaar=None):
    state = new_game(seats or len(hands))
    state, events = start_round(state, deal(*hands, bazaar=bazaar))
    return state, events


def test_the_holder_of_1_1_leads_with_1_1():
    state, events = first_round(*FOUR)
    assert state.turn == 0
    assert [a.tile.name for a in legal_actions(state)] == ["1-1"]
    assert events[0] == {"type": "round_started", "round": 1, "leader": 0, "lead": "1-1",
                         "bazaar": 0}


def test_leading_with_another_tile_than_the_required_double_is_refused():
    state, _ = first_round(*FOUR)
    with pytest.raises(IllegalAction, match="opens with 1-1") as refused:
        apply(state, play(0, "0-1"))
    assert refused.value.rule == "4"


A = "0-1 0-2 0-3 1-2 1-3 2-3 4-5"  # no double
B = "0-4 0-5 1-4 1-5 2-4 3-4"        # no double, one tile short


@pytest.mark.parametrize("hands, leader, lead", [
    # nobody holds 1-1 (it is in the bazaar): 2-2 leads
    (["2-2 0-1 0-2 0-3 1-2 1-3 2-3", "3-3 4-4 0-4 0-5 1-4 1-5 2-4"], 0, "2-2"),
    # neither 1-1 nor 2-2 in a hand: 3-3, then 4-4, 5-5, 6-6
    ([A, "3-3 4-4 0-4 0-5 1-4 1-5 2-4"], 1, "3-3"),
    ([A, "4-4 5-5 0-4 0-5 1-4 1-5 2-4"], 1, "4-4"),
    ([A, "5-5 6-6 0-4 0-5 1-4 1-5 2-4"], 1, "5-5"),
    (["0-0 0-2 0-3 1-2 1-3 2-3 4-5", "6-6 " + B], 1, "6-6"),
    # 0-0 comes after 6-6
    (["0-0 0-2 0-3 1-2 1-3 2-3 4-5", "0-1 " + B], 0, "0-0"),
    # no double in any hand: the highest non-double, 5-6 first
    ([A, "5-6 " + B], 1, "5-6"),
    (["4-6 0-2 0-3 1-2 1-3 2-3 4-5", "0-1 " + B], 0, "4-6"),
    # 3-6 and 4-5 both sum to 9: the higher half decides (RULES.md 4, Decision)
    ([A, "3-6 " + B], 1, "3-6"),
    ([A, "0-6 " + B], 0, "4-5"),
])
def test_the_first_lead_goes_by_doubles_1_1_to_6_6_then_0_0_then_the_highest_tile(
        hands, leader, lead):
    state, _ = first_round(*hands)
    assert state.turn == leader
    assert [a.tile.name for a in legal_actions(state)] == [lead]


def test_tiles_in_the_bazaar_are_not_considered_for_the_lead():
    # 1-1 and 2-2 lie in the bazaar; 3-3 in seat 1's hand leads.
    state, _ = first_round(A, "3-3 " + B)
    assert {t.name for t in state.hand(0) + state.hand(1)}.isdisjoint({"1-1", "2-2"})
    assert state.turn == 1 and legal_actions(state)[0].tile.name == "3-3"


def test_every_later_round_is_led_by_who_went_out_with_any_tile():
    # Seat 1 goes out in round 1; it leads round 2 with a tile of its choice.
    state = position("0-2 0-3", "1-2", chain="1-1", turn=1)
    state, events = apply(state, play(1, "1-2", "right"))
    assert events[-1]["result"] == "out" and events[-1]["seat"] == 1
    # Seat 0 holds 1-1 this time; still seat 1 leads, with any of its tiles.
    state, events = start_round(state, deal("1-1 " + B, A))
    assert state.turn == 1 and events[0]["lead"] is None
    assert sorted(a.tile.name for a in legal_actions(state)) == sorted(A.split())
