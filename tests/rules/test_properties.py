"""Invariants over thousands of random games (hypothesis).

- the 28 tiles are accounted for at every step, each in exactly one place;
- no view ever holds a tile of another hand or of the bazaar;
- a record written then replayed gives the same results and the same final state;
- the state survives JSON at every step; refused actions change nothing;
- every game ends.
"""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (GameState, HeuristicPlayer, IllegalAction, MalformedAction, RandomPlayer,
                         apply, draw, knock, legal_actions, play, replay, seat_view,
                         spectator_view, view_for)
from games.rules.record import loads_record, summarize
from games.rules.simulate import play_game
from games.rules.state import PLAY
from games.rules.tiles import ALL_MASK, TILES, tile

games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]),
                  st.sampled_from(["all", "one"]))
TILE_NAME = re.compile(r"\b([0-6])-([0-6])\b")


def mask_of_indexes(indexes):
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


def check_tiles_accounted(state: GameState):
    if state.round == 0:
        return
    places = list(state.hands) + [state.table, mask_of_indexes(state.bazaar)]
    total = 0
    for mask in places:
        assert total & mask == 0, "a tile is in two places"
        total |= mask
    assert total == ALL_MASK, "a tile is missing"
    assert len(state.chain) == state.table.bit_count()


def tiles_named_in(view: dict) -> set:
    """Every tile a view mentions: by name in any string, and the chain's pairs."""
    text = json.dumps(view)
    named = {tile(f"{a}-{b}") for a, b in TILE_NAME.findall(text)}
    chain = {tile(f"{a}-{b}") for a, b in view.get("chain", ())}
    return named | chain


def check_views(state: GameState):
    on_table = {t for t in TILES if state.table & t.bit}
    for seat in list(range(state.seats)) + [None]:
        view = view_for(state, seat) if seat is not None else spectator_view(state)
        own = set(state.hand(seat)) if seat is not None else set()
        revealed = set()
        if state.phase != PLAY and state.last_round:  # a finished round shows its hands
            revealed = {tile(n) for h in state.last_round["hands"] for n in h}
        assert tiles_named_in(view) <= own | on_table | revealed, f"seat {seat} sees a hidden tile"
        assert view["hand_counts"] == [h.bit_count() for h in state.hands]
        assert view["bazaar"] == len(state.bazaar)
        assert "bazaar_tiles" not in view and "hands" not in view
        if seat is None:
            assert view["hand"] is None and view["legal"] == []
        else:  # a seat's own part (what a room adds to the spectator's view) is its view's
            own_part = seat_view(state, seat)
            assert own_part == {"hand": view["hand"], "legal": view["legal"]}
            assert tiles_named_in(own_part) <= own | on_table, f"seat {seat} sees a hidden tile"


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_game_ends_with_the_28_tiles_accounted_for_at_every_step(game):
    seed, seats, fish = game
    steps = []
    record, final = play_game(seats, fish, seed,
                              on_step=lambda s, ev: (check_tiles_accounted(s), steps.append(1)))
    assert final.over and final.goats
    assert all(score >= 101 for s, score in enumerate(final.scores) if s in final.goats)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_no_view_ever_holds_a_hidden_tile(game):
    seed, seats, fish = game
    play_game(seats, fish, seed, on_step=lambda s, ev: check_views(s))


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_a_record_written_then_replayed_gives_the_same_results_and_state(game):
    seed, seats, fish = game
    ended = []
    record, final = play_game(seats, fish, seed, on_step=lambda s, ev: ended.extend(
        e for e in ev if e["type"] == "round_ended"))
    replayed = replay(loads_record(record.dumps()))
    assert replayed.state.to_json() == final.to_json()
    assert replayed.rounds == ended
    summary = summarize(replayed)
    assert summary["goats"] == list(final.goats)
    assert summary["status"] == "finished"


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.data())
def test_the_state_survives_json_and_a_refused_action_changes_nothing(game, data):
    seed, seats, fish = game

    def check(state, events):
        assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
        if state.phase != PLAY:
            return
        before = state.to_json()
        legal = set(legal_actions(state))
        candidates = [draw(s) for s in range(seats)] + [knock(s) for s in range(seats)] + [
            play(s, t, e) for s in range(seats) for t in TILES[:28:3] for e in (None, "left", "right")]
        for action in candidates:
            if action in legal:
                continue
            try:
                apply(state, action)
            except (IllegalAction, MalformedAction):
                pass
            else:
                # An unnamed end is filled in when the choice is not the player's.
                assert action.end is None and action.kind == "play"
        assert state.to_json() == before

    play_game(seats, fish, seed, on_step=check)


@settings(max_examples=100, deadline=None)
@given(games)
def test_heuristic_players_play_only_legal_actions_to_the_end(game):
    seed, seats, fish = game
    players = [HeuristicPlayer(seed + s) if s % 2 == 0 else RandomPlayer(seed + s)
               for s in range(seats)]
    _, final = play_game(seats, fish, seed, players=players)
    assert final.over
