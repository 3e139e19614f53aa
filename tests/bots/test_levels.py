"""Every level plays whole games without an illegal move, and the rules' invariants hold
after every action (each of the 28 tiles in one place, scores never falling, a game that
ends): thousands of games a level (issue 41); ``KOZEL_BOT_GAMES`` plays another number."""

import os
import random

import pytest

import games.rules as rules
from games.bots import knowledge_for, levels
from games.rules.tiles import ALL_MASK

GAMES = int(os.environ.get("KOZEL_BOT_GAMES", "0"))
TABLES = [(4, "one", False), (4, "all", True), (3, "one", False), (2, "all", False),
          (4, "all", False), (3, "all", False)]


def check(state, before):
    if state.phase == rules.PLAYING:
        places = [state.table, *state.hands, sum(1 << i for i in state.bazaar)]
        total = 0
        for mask in places:
            assert not total & mask, "a tile in two places"
            total |= mask
        assert total == ALL_MASK, "a tile is missing"
    if not state.variant.has_writing:  # sea goat writes scores off (RULES.md 13)
        assert all(a <= b for a, b in zip(before.scores, state.scores))


def play_game(variant, players, seed):
    rng = random.Random(seed)
    state = rules.new_game(variant)
    actions = 0
    while not state.over:
        assert state.round < 500, "a game that does not end"
        state, _ = rules.start_round(state, rng=rng)
        while state.phase == rules.PLAYING:
            seat = state.turn
            knowledge = knowledge_for(state, seat)
            action = players[seat](knowledge, rng.getrandbits(32))
            assert action in rules.legal_actions(state)
            before = state
            state, _ = rules.apply(state, action)  # raises IllegalAction if it is not
            check(state, before)
            actions += 1
    assert state.goats or state.winners
    return state


def level(name, playouts=None):
    return lambda knowledge, seed: levels.choose(knowledge, name, seed=seed, playouts=playouts)


@pytest.mark.slow
@pytest.mark.parametrize("name,games", [(levels.BEGINNER, 2000), (levels.HEURISTIC, 2000)])
def test_the_quick_levels_play_whole_games(name, games):
    for number in range(GAMES or games):
        seats, fish, pairs = TABLES[number % len(TABLES)]
        play_game(rules.Variant(seats, fish, pairs), [level(name)] * seats, number)


@pytest.mark.slow
def test_the_master_plays_whole_games_against_the_others():
    # Searching two or three worlds a move: what is tested is that its choice is legal.
    for number in range(GAMES or 2000):
        seats, fish, pairs = TABLES[number % len(TABLES)]
        players = [level(levels.MASTER, playouts=3), level(levels.HEURISTIC),
                   level(levels.BEGINNER), level(levels.MASTER, playouts=2)][:seats]
        play_game(rules.Variant(seats, fish, pairs), players, 1000 + number)


def test_every_level_plays_sea_goat():
    for number, name in enumerate(levels.LEVELS):
        variant = rules.Variant(3, None, False, rules.SEA_GOAT)
        play_game(variant, [level(name, playouts=3 if name == levels.MASTER else None)] * 3,
                  2000 + number)


def test_a_level_that_does_not_exist_is_refused():
    state, _ = rules.start_round(rules.new_game(4, "all"), rng=random.Random(5))
    state, _ = rules.apply(state, rules.legal_actions(state)[0])
    with pytest.raises(ValueError):
        levels.choose(knowledge_for(state, state.turn), "grandmaster", seed=1)
