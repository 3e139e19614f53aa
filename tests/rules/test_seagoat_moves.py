"""Sea goat's moves (RULES.md 13): two doubles at once, the lead of 6-6 (for a hundred,
and only by whoever is writing), a first round that section 4 opens with 6-6; the variant,
the state's JSON, views and interrupts."""

import json

import pytest

from games.rules import (DOUBLES, GameState, IllegalAction, InvalidState, MalformedAction,
                         RandomPlayer, SEA_GOAT, Variant, action_from_json, apply, interrupt,
                         legal_actions, new_game, play, spectator_view, start_round, two_doubles,
                         view_for)
from games.rules.state import INTERRUPTED, PLAY
from games.rules.variant import GAMES

from .positions import deal, position
from .seagoat_positions import sea_position

MASHA, ALEX, OLYA = 0, 1, 2


def refusal(state, action) -> IllegalAction:
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert state.to_json() == before
    return refused.value


# -- two doubles at once --------------------------------------------------------------

def test_two_doubles_at_once_are_offered_and_played_as_one_move():
    # Ends 2 and 5; Masha holds 2-2 and 5-5: one on each end, in one turn.
    state = sea_position("2-2 5-5 0-1", "3-4", "4-6", chain="2-5", leader=0)
    both = two_doubles(MASHA, "2-2", "5-5")
    assert both in legal_actions(state)
    assert action_from_json({"seat": 0, "play": ["5-5", "2-2"]}) is both  # in any order
    assert both.to_json() == {"seat": 0, "play": ["2-2", "5-5"]}
    assert [a for a in legal_actions(state) if a.kind == DOUBLES] == [both]
    state, events = apply(state, both)
    assert state.chain == ((2, 2), (2, 5), (5, 5)) and (state.left, state.right) == (2, 5)
    assert state.hand(MASHA) == [action_from_json({"seat": 0, "play": "0-1"}).tile]
    assert events == [{"type": "played_doubles", "seat": 0, "left": "2-2", "right": "5-5"}]
    assert state.turn == ALEX and state.moves == (both,)


def test_one_double_of_the_two_may_still_be_played_alone():
    state = sea_position("2-2 5-5 0-1", "3-4", "4-6", chain="2-5", leader=0)
    legal = legal_actions(state)
    assert play(MASHA, "2-2", "left") in legal and play(MASHA, "5-5", "right") in legal


@pytest.mark.parametrize("hand, chain, action, code", [
    # holding only one of the two
    ("2-2 0-1", "2-5", two_doubles(MASHA, "2-2", "5-5"), "not-held"),
    # doubles that do not match the ends (2 and 5)
    ("2-2 3-3 0-1", "2-5", two_doubles(MASHA, "2-2", "3-3"), "two-doubles-fit"),
    # both ends show 2 (2-3 3-4 4-2): two different doubles cannot go one on each
    ("2-2 4-4 0-1", "2-3 3-4 4-2", two_doubles(MASHA, "2-2", "4-4"), "two-doubles-ends"),
    # never a round's lead
    ("2-2 5-5 0-1", "", two_doubles(MASHA, "2-2", "5-5"), "two-doubles-lead"),
])
def test_two_doubles_where_rules_md_13_does_not_allow_them_are_refused(hand, chain, action,
                                                                       code):
    state = sea_position(hand, "3-6", "4-6", chain=chain, leader=0)
    assert not any(a.kind == DOUBLES for a in legal_actions(state))
    assert refusal(state, action).code == code


def test_kozel_plays_one_tile_at_a_time():
    state = position("2-2 5-5 0-1", "3-4", "4-6", chain="2-5")
    assert not any(a.kind == DOUBLES for a in legal_actions(state))
    assert refusal(state, two_doubles(MASHA, "2-2", "5-5")).code == "one-tile"


@pytest.mark.parametrize("move", [
    {"seat": 0, "play": ["2-2", "2-2"]},          # one double twice
    {"seat": 0, "play": ["2-2", "2-5"]},          # not two doubles
    {"seat": 0, "play": ["2-2"]},                 # one
    {"seat": 0, "play": ["2-2", "5-5", "1-1"]},   # three
    {"seat": 0, "play": ["2-2", "5-5"], "end": "left"},  # each double has its end
])
def test_a_malformed_two_doubles_move_is_refused(move):
    with pytest.raises(MalformedAction):
        action_from_json(move)


def test_two_doubles_never_end_in_a_fish_and_the_ends_keep_their_values():
    # A double keeps its end's value: the ends stay 2 and 5, different, so never a fish.
    state = sea_position("2-2 5-5 0-1", "3-4", "4-6", chain="2-5", leader=0)
    state, _ = apply(state, two_doubles(MASHA, "5-5", "2-2"))
    assert state.phase == PLAY and state.left != state.right


# -- the lead of 6-6 ------------------------------------------------------------------

LEADS = "6-6 0-1 3-4"


@pytest.mark.parametrize("scores, pairs, allowed", [
    ((0, 0, 0), False, False),   # nobody writing
    ((0, 40, 0), False, False),  # Alex writing
    ((40, 0, 0), False, True),   # Masha writing
    ((0, 40), True, False),      # the other pair writing
    ((40, 0), True, True),       # her pair writing (Olya's and hers)
])
def test_a_later_rounds_lead_of_6_6_is_for_whoever_is_writing_only(scores, pairs, allowed):
    hands = [LEADS, "1-2", "2-3"] + (["2-4"] if pairs else [])
    state = sea_position(*hands, unit_scores=scores, pairs=pairs, leader=MASHA, round=3)
    six = play(MASHA, "6-6")
    assert (six in legal_actions(state)) is allowed
    assert play(MASHA, "0-1") in legal_actions(state)  # any other tile
    if not allowed:
        refused = refusal(state, six)
        assert (refused.code, refused.rule) == ("hundred-not-writing", "13")
        return
    state, _ = apply(state, six)
    assert state.hundred == MASHA
    assert view_for(state, ALEX)["hundred"] == MASHA  # announced to the table


def test_a_first_round_that_section_4_opens_with_6_6_is_no_lead_for_a_hundred():
    # 1-1 ... 5-5 all lie in the bazaar: Olya holds 6-6 and must lead it (RULES.md 4).
    first = deal("0-0 0-1 0-2 1-2 1-3 1-4 1-5", "0-3 0-4 2-3 2-4 2-5 3-4 3-5",
                 "6-6 0-5 0-6 1-6 2-6 3-6 4-5", bazaar="1-1 2-2 3-3 4-4 5-5 4-6 5-6")
    state, events = start_round(new_game(Variant(3, None, name=SEA_GOAT)), first)
    assert events[0]["lead"] == "6-6" and legal_actions(state) == (play(OLYA, "6-6"),)
    state, _ = apply(state, play(OLYA, "6-6"))
    assert state.hundred is None
    players = [RandomPlayer(seat) for seat in range(3)]
    while state.phase == PLAY:
        state, _ = apply(state, players[state.turn].choose(view_for(state, state.turn)))
    assert state.last_round["hundred"] is None
    assert state.how != "hundred"


# -- the variant ------------------------------------------------------------------------

def test_sea_goat_is_a_variant():
    game = GAMES[SEA_GOAT]
    assert (game.seats, game.pairs, game.fish_rule, game.rated, game.end_score) == \
        ((2, 3, 4), True, False, False, 125)
    variant = Variant(4, None, True, SEA_GOAT)
    assert variant.has_writing and variant.has_two_doubles and not variant.can_be_rated
    assert not variant.has_fish_rule and variant.end_score == 125
    assert not Variant(4).has_writing and not Variant(4).has_two_doubles
    for seats in (2, 3, 4):
        assert Variant(seats, None, name=SEA_GOAT).units == tuple((s,) for s in range(seats))


@pytest.mark.parametrize("seats, fish, pairs", [(3, "all", False), (3, None, True),
                                                 (5, None, False)])
def test_a_sea_goat_table_it_is_not_played_at_is_refused(seats, fish, pairs):
    with pytest.raises(InvalidState):
        Variant(seats, fish, pairs, SEA_GOAT)


# -- the state's JSON, views, interrupts ----------------------------------------------------

def test_the_state_of_a_sea_goat_game_round_trips_through_json_with_its_own_fields():
    state = sea_position("0-4", "2-5", "0-5", chain="6-6 6-1 1-2",
                         moves_text="1:6-6 2:1-6/r 0:1-2/r", turn=ALEX,
                         unit_scores=(0, 65, 0), leader=ALEX)
    data = state.to_json()
    assert (data["variant"], data["writing"], data["hundred"], data["winners"], data["how"]) \
        == (SEA_GOAT, ALEX, ALEX, [], None)
    assert GameState.from_json(json.loads(json.dumps(data))) == state
    state, _ = apply(state, play(ALEX, "2-5", "right"))  # out: he wins the hundred
    data = state.to_json()
    assert (data["writing"], data["hundred"], data["winners"], data["how"]) == \
        (ALEX, None, [ALEX], "hundred")
    assert GameState.from_json(json.loads(json.dumps(data))) == state


def test_a_kozel_states_json_is_unchanged():
    data = position("0-4", "2-5", "0-5", chain="1-2").to_json()
    assert not {"writing", "hundred", "winners", "how"} & set(data)
    assert "writing" not in view_for(position("0-4", "2-5", chain="1-2"), 0)


@pytest.mark.parametrize("change, message", [
    ({"scores": [30, 40, 0]}, "at most one"),
    ({"writing": 2}, "writing"),
    ({"how": "125"}, "finished"),
    ({"how": "fish"}, "way to win"),
    ({"remembered": [0, 3, 0]}, "remembered"),
    ({"variant": "donkey"}, "unknown game"),
])
def test_an_impossible_sea_goat_state_is_refused(change, message):
    data = sea_position("0-4", "2-5", "0-5", chain="1-2", unit_scores=(0, 40, 0)).to_json()
    data.update(change)
    with pytest.raises(InvalidState, match=message):
        GameState.from_json(data)


def test_views_show_who_is_writing_and_the_scores_to_everyone():
    state = sea_position("0-4", "2-5", "0-5", chain="1-2", unit_scores=(0, 40, 0), leader=0)
    for view in [view_for(state, seat) for seat in range(3)] + [spectator_view(state)]:
        assert view["writing"] == ALEX and view["scores"] == [0, 40, 0]
        assert view["hundred"] is None and view["winners"] == [] and view["how"] is None
        assert view["variant"] == SEA_GOAT and view["fish"] is None


def test_an_interrupted_sea_goat_game_has_no_winner_and_is_never_aborted():
    game = new_game(Variant(2, None, name=SEA_GOAT))
    state, _ = start_round(game, deal("0-0 0-1 0-2 0-3 1-1 1-2 1-3",
                                      "2-2 2-3 2-4 3-3 3-4 4-4 4-5"))
    state, events = interrupt(state, ALEX)
    assert state.phase == INTERRUPTED and state.winners == () and state.how is None
    assert not state.aborted and events[0]["aborted"] is False
