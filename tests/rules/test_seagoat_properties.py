"""Sea goat's invariants over thousands of random games (hypothesis), alone and in pairs:

- the 28 tiles are accounted for at every step, and no view holds a hidden tile;
- at most one unit (a player, or a pair) is writing: only it has a score above 0;
- every round is scored as RULES.md 13 says, worked out again here from the hands left,
  the round's moves and the scores before it (a model written from RULES.md alone);
- the game ends, won by one unit, as RULES.md 13 says;
- the state survives JSON at every step, and replaying the game's record gives it back.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (GameState, HeuristicPlayer, RandomPlayer, SEA_GOAT, Variant, replay,
                         loads_record, summarize)
from games.rules.simulate import play_game
from games.rules.tiles import tile

from .test_properties import check_tiles_accounted, check_views

TABLES = [(2, False), (3, False), (4, False), (4, True)]
games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(TABLES))


class RulesModel:
    """RULES.md 13's scoring, written again from the rule book, for checking the engine."""

    SPECIAL = {("0-0",): 25, ("6-6",): 50, ("0-0", "6-6"): 75}

    def __init__(self, seats: int, pairs: bool):
        self.units = [(0, 2), (1, 3)] if pairs else [(s,) for s in range(seats)]
        self.scores = [0] * len(self.units)
        self.winners, self.how = [], None

    def unit_of(self, seat):
        return next(u for u, seats in enumerate(self.units) if seat in seats)

    def hand_points(self, hand):
        special = self.SPECIAL.get(tuple(sorted(hand)))
        return special if special is not None else sum(tile(n).pips for n in hand)

    def score_round(self, ended: dict, round_moves, round_number: int) -> dict:
        points = [self.hand_points(h) for h in ended["hands"]]
        by_unit = [sum(points[s] for s in seats) for seats in self.units]
        if ended["result"] == "out":
            winner = self.unit_of(ended["seat"])
        else:
            fewest = [u for u, p in enumerate(by_unit) if p == min(by_unit)]
            winner = fewest[0] if len(fewest) == 1 else None
        won = sum(p for u, p in enumerate(by_unit) if u != winner) if winner is not None else 0
        lead = round_moves[0]
        hundred = (lead["seat"] if round_number > 1 and lead.get("play") == "6-6" else None)
        if hundred is not None:  # only the unit writing may lead 6-6 in a later round
            assert self.scores[self.unit_of(hundred)] > 0
        went_out = ended["seat"] if ended["result"] == "out" else None
        written_off = False
        if hundred is not None and went_out != hundred:
            self.scores[self.unit_of(hundred)] = 0
            written_off = True
        writing = [u for u, s in enumerate(self.scores) if s > 0]
        if winner is not None:
            if writing == [winner]:
                self.scores[winner] += won
            elif not writing and won >= 25:
                self.scores[winner] = won
            elif writing and won >= 25:
                self.scores = [0] * len(self.units)
                written_off = True
        last = round_moves[-1]
        if hundred is not None and went_out == hundred:
            self.how = "hundred"
        elif went_out is not None and isinstance(last["play"], list):
            self.how = "two-doubles"
        elif went_out is not None and last["play"] in ("0-0", "6-6"):
            self.how = "last-double"
        elif max(self.scores) >= 125:
            self.how = "125"
        if self.how is not None:
            unit = self.scores.index(max(self.scores)) if self.how == "125" \
                else self.unit_of(went_out)
            self.winners = list(self.units[unit])
        return {"points": points, "winner": winner, "won": won, "hundred": hundred,
                "written_off": written_off}


def check_writing(state: GameState):
    units = state.variant.units
    unit_scores = [state.scores[seats[0]] for seats in units]
    assert all(state.scores[s] == unit_scores[u] for u, seats in enumerate(units) for s in seats)
    writing = [u for u, score in enumerate(unit_scores) if score > 0]
    assert len(writing) <= 1
    assert state.writing == (writing[0] if writing else None)
    assert not any(state.remembered) and not any(state.opened) and state.bank == 0
    assert state.goats == ()


def play_checked(seed: int, seats: int, pairs: bool, players=None):
    model = RulesModel(seats, pairs)
    ended = []

    def step(state, events):
        check_tiles_accounted(state)
        check_writing(state)
        for event in events:
            if event["type"] != "round_ended":
                continue
            ended.append(event)
            moves = [a.to_json() for a in state.moves]
            expected = model.score_round(event, moves, state.round)
            assert {k: event[k] for k in expected} == expected, (seed, state.round)
            unit_scores = [state.scores[seats[0]] for seats in state.variant.units]
            assert unit_scores == model.scores, (seed, state.round)
            assert list(state.winners) == model.winners and state.how == model.how

    record, final = play_game(seats, seed=seed, pairs=pairs, game=SEA_GOAT, on_step=step,
                              players=players)
    return record, final, ended


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_round_is_scored_as_rules_md_13_says_and_every_game_is_won(game):
    seed, (seats, pairs) = game
    _, final, ended = play_checked(seed, seats, pairs)
    assert final.over and final.how is not None
    assert len(final.winners) == (2 if pairs else 1)
    if final.how == "125":
        assert all(final.scores[s] >= 125 for s in final.winners)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_a_sea_goat_record_replayed_gives_the_same_rounds_and_state(game):
    seed, (seats, pairs) = game
    record, final, ended = play_checked(seed, seats, pairs)
    replayed = replay(loads_record(record.dumps()))
    assert replayed.state.to_json() == final.to_json()
    assert replayed.rounds == ended
    line = summarize(replayed)
    assert line["status"] == "finished" and line["winners"] == list(final.winners)
    assert line["how"] == final.how and line["rating_points"] is None


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_sea_goat_state_survives_json_and_no_view_holds_a_hidden_tile(game):
    seed, (seats, pairs) = game

    def check(state, events):
        assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
        check_views(state)

    play_game(seats, seed=seed, pairs=pairs, game=SEA_GOAT, on_step=check)


@settings(max_examples=100, deadline=None)
@given(games)
def test_heuristic_players_play_sea_goat_to_its_end(game):
    seed, (seats, pairs) = game
    players = [HeuristicPlayer(seed + s) if s % 2 == 0 else RandomPlayer(seed + s)
               for s in range(seats)]
    _, final, _ = play_checked(seed, seats, pairs, players=players)
    assert final.over and final.variant == Variant(seats, None, pairs, SEA_GOAT)
