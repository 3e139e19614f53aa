"""Views: a seat sees its own hand and the public table, and nothing hidden."""

import json

import pytest

from games.rules import apply, play, seat_view, spectator_view, view_for

from .positions import position


def test_a_seat_sees_its_hand_its_legal_actions_and_only_counts_of_the_rest():
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5", draws="6-6 1-1",
                     scores=[20, 0], remembered=[0, 7], opened=[True, False], fish="one", bank=12)
    view = view_for(state, 0)
    assert view["hand"] == ["0-1", "3-6", "5-5"]
    assert view["hand_counts"] == [3, 2]
    assert view["bazaar"] == len(state.bazaar) == 28 - 6
    assert view["chain"] == [[3, 5]] and view["ends"] == [3, 5]
    assert view["turn"] == 0
    assert sorted(a["play"] for a in view["legal"]) == ["3-6", "5-5"]
    assert view["scores"] == [20, 0] and view["remembered"] == [0, 7]
    assert view["opened"] == [True, False] and view["bank"] == 12
    text = json.dumps(view)
    for hidden in ("2-2", "4-4", "6-6", "1-1"):
        assert hidden not in text


def test_a_seat_that_is_not_to_move_has_no_legal_actions():
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5")
    assert view_for(state, 1)["legal"] == [] and view_for(state, 1)["hand"] == ["2-2", "4-4"]


def test_a_spectator_sees_no_hand_at_all():
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5")
    view = spectator_view(state)
    assert view["hand"] is None and view["legal"] == [] and view["seat"] is None
    text = json.dumps(view)
    for hidden in ("3-6", "5-5", "0-1", "2-2", "4-4"):
        assert hidden not in text


def test_after_a_round_its_summary_shows_what_was_left_in_every_hand_but_not_the_bazaar():
    state = position("1-2", "0-3", "6-6 0-1", "0-5", chain="1-1", draws="2-2")
    state, _ = apply(state, play(0, "1-2", "right"))
    view = view_for(state, 1)
    assert view["last_round"]["hands"] == [[], ["0-3"], ["0-1", "6-6"], ["0-5"]]
    assert "2-2" not in json.dumps(view)


@pytest.mark.parametrize("seat", [2, -1, "0", 1.0])
def test_a_view_of_no_such_seat_is_refused(seat):
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5")
    with pytest.raises(ValueError):
        view_for(state, seat)


def test_a_seats_own_part_is_its_hand_and_on_its_turn_its_legal_actions():
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5", draws="6-6 1-1")
    assert seat_view(state, 0) == {"hand": view_for(state, 0)["hand"],
                                   "legal": view_for(state, 0)["legal"]}
    assert sorted(a["play"] for a in seat_view(state, 0)["legal"]) == ["3-6", "5-5"]
    assert seat_view(state, 1) == {"hand": ["2-2", "4-4"], "legal": []}
    assert "6-6" not in json.dumps(seat_view(state, 0)) + json.dumps(seat_view(state, 1))


@pytest.mark.parametrize("seat", [2, -1, "0", 1.0, None])
def test_a_seats_own_part_of_no_such_seat_is_refused(seat):
    state = position("3-6 5-5 0-1", "2-2 4-4", chain="3-5")
    with pytest.raises(ValueError):
        seat_view(state, seat)
