"""The analysis after a game (games/bots/analysis.py): a planted blunder is marked, forced
moves are not decisions, and a game that has not ended is never analysed."""

from __future__ import annotations

import copy

import pytest

from games import rules
from games.bots import analysis
from games.rules.simulate import play_game


def by_pips(state, seat):
    """A quick judge: shedding pips is good (the outcome is the pips a play sheds)."""
    return {a: float(a.tile.pips) for a in rules.legal_actions(state)}


def all_equal(state, seat):
    return {a: 0.0 for a in rules.legal_actions(state)}


class Planter:
    """The heuristic, but once, at the first choice where the tiles it may play differ by
    7 pips or more, it plays the lightest: the blunder planted (by ``by_pips``)."""

    def __init__(self, seed):
        self.heuristic = rules.HeuristicPlayer(seed)
        self.planted = None

    def choose(self, view):
        plays = [rules.action_from_json(m) for m in view["legal"] if "play" in m]
        pips = [a.tile.pips for a in plays]
        if self.planted is None and plays and max(pips) - min(pips) >= 7:
            worst = min(plays, key=lambda a: a.tile.pips)
            self.planted = (view["round"], len(view["moves"]), worst.tile.name)
            return worst
        return self.heuristic.choose(view)


@pytest.fixture(scope="module")
def planted_game():
    planter = Planter(1)
    players = [planter] + [rules.HeuristicPlayer(s) for s in (2, 3, 4)]
    record, state = play_game(4, fish="one", seed=7, players=players)
    assert state.phase == rules.FINISHED and planter.planted is not None
    return record, planter.planted


def test_a_planted_blunder_is_marked_a_mistake(planted_game):
    record, (round_number, index, tile) = planted_game
    result = analysis.analyse(record, by_pips, scale=1)
    [decision] = [d for d in result["decisions"]
                  if (d["round"], d["index"]) == (round_number, index)]
    assert decision["seat"] == 0 and decision["played"]["play"] == tile
    assert decision["loss"] >= analysis.MISTAKE_POINTS
    assert decision["mark"] == analysis.MISTAKE
    assert rules.tile(decision["best"]["play"]).pips > rules.tile(tile).pips
    assert decision["choices"][0]["move"] == decision["best"]  # best first
    me = result["players"][0]
    assert me["mistakes"] >= 1 and me["decisions"] == sum(d["seat"] == 0 for d in result["decisions"])
    assert me["average_loss"] == round(me["total_loss"] / me["decisions"], 2)


def test_marks_follow_the_thresholds():
    assert analysis.mark_of(analysis.MISTAKE_POINTS) == analysis.MISTAKE
    assert analysis.mark_of(analysis.INACCURACY_POINTS) == analysis.INACCURACY
    assert analysis.mark_of(analysis.INACCURACY_POINTS - 0.01) is None
    assert analysis.MISTAKE_POINTS > analysis.INACCURACY_POINTS


def test_equal_choices_mark_nothing(planted_game):
    record, _planted = planted_game
    result = analysis.analyse(record, all_equal)
    assert result["decisions"] and not any(d["mark"] for d in result["decisions"])
    assert all(p["average_loss"] == 0 for p in result["players"])


def test_forced_moves_draws_and_knocks_are_not_decisions(planted_game):
    record, _planted = planted_game
    found = {(d.round, d.index): d for d in analysis.decisions(record)}
    state = rules.new_game(record.game_variant)
    forced = 0
    for number, rnd in enumerate(record.rounds, 1):
        state, _ = rules.start_round(state, rnd.deal)
        for index, action in enumerate(rnd.moves):
            legal = rules.legal_actions(state)
            plays = {(a.tile, a.end if state.left != state.right else None) for a in legal
                     if a.kind == rules.PLAY}
            if action.kind != rules.PLAY or len(plays) == 1:
                forced += 1
                assert (number, index) not in found, (number, index, action)
            else:
                assert found[number, index].played.tile is action.tile
                assert len(found[number, index].choices) == len(plays)
            state, _ = rules.apply(state, action)
    assert forced and found
    # The first round's lead is the holder's 1-1 (RULES.md 4): never a choice.
    assert (1, 0) not in found


def test_two_ends_showing_one_value_are_one_choice():
    state = rules.new_game(2, fish="all")
    hands = [["1-1", "1-2", "2-3", "0-4", "4-4", "5-5", "6-6"],
             ["1-3", "1-4", "1-5", "0-6", "2-6", "3-6", "4-6"]]
    bazaar = [t.name for t in rules.TILES if t.name not in hands[0] + hands[1]]
    deal = rules.deal_from_json({"hands": hands, "bazaar": bazaar}, 2)
    state, _ = rules.start_round(state, deal)
    state, _ = rules.apply(state, rules.play(0, "1-1"))  # ends 1 and 1
    options = analysis.choices(state)
    assert {a.tile.name for a in options} == {"1-3", "1-4", "1-5"}
    assert len(options) == 3  # not six: left and right are the same choice here


def test_a_game_that_has_not_ended_is_never_analysed(planted_game):
    record, _planted = planted_game
    running = copy.deepcopy(record)
    running.rounds[-1].moves = running.rounds[-1].moves[:-1]
    with pytest.raises(analysis.NotOver):
        analysis.analyse(running, by_pips, scale=1)
    with pytest.raises(analysis.NotOver):
        next(analysis.decisions(running))


def test_progress_is_told(planted_game):
    record, _planted = planted_game
    told = []
    result = analysis.analyse(record, all_equal, progress=lambda done, total: told.append((done, total)))
    total = len(result["decisions"])
    assert told[0] == (0, total) and told[-1] == (total, total) and len(told) == total + 1


def test_sea_goat_is_not_analysed():
    record, _state = play_game(4, seed=3, game=rules.SEA_GOAT)
    with pytest.raises(analysis.Unsupported):
        analysis.analyse(record, all_equal)


# -- with the master's judgement ------------------------------------------------------

def fish_after(view, action) -> bool:
    """Whether ``action`` places a fish (RULES.md 6), from the view."""
    left, right = view["ends"]
    if action.end == "left":
        left = action.tile.other(left)
    else:
        right = action.tile.other(right)
    if left != right:
        return False
    table = {rules.tile(f"{min(a, b)}-{max(a, b)}") for a, b in view["chain"]} | {action.tile}
    return all(rules.tile(f"{min(left, v)}-{max(left, v)}") in table for v in range(7) if v != left)


class FishPlanter:
    """The heuristic, but once, when it may place a fish with 15 pips or more left in
    hand (or play on), it places the fish: in fish for one the heaviest hand takes every
    hand's points."""

    def __init__(self, seed):
        self.heuristic = rules.HeuristicPlayer(seed)
        self.planted = None

    def choose(self, view):
        plays = [rules.action_from_json(m) for m in view["legal"] if "play" in m]
        if self.planted is None and view["ends"] and len({a.tile for a in plays}) > 1:
            fish = [a for a in plays if fish_after(view, a)]
            left = sum(rules.tile(n).pips for n in view["hand"])
            if fish and len(fish) < len(plays) and left - fish[0].tile.pips >= 15:
                self.planted = (view["round"], len(view["moves"]), fish[0].tile.name)
                return fish[0]
        return self.heuristic.choose(view)


def a_lost_fish():
    """A game where seat 0 placed a fish that then credited it everyone's points."""
    for seed in range(80):
        planter = FishPlanter(1)
        players = [planter] + [rules.HeuristicPlayer(s) for s in (2, 3, 4)]
        record, state = play_game(4, fish="one", seed=seed, players=players)
        if planter.planted is None or not state.over:
            continue
        ended = rules.replay(record).rounds[planter.planted[0] - 1]
        if ended["result"] == "fish" and ended["seat"] == 0 and ended["credited"][0] >= 15:
            return record, planter.planted
    raise AssertionError("no lost fish was planted in the seeds tried")


def test_the_master_marks_a_planted_lost_fish_a_mistake():
    record, (round_number, index, tile) = a_lost_fish()
    result = analysis.analyse(record, analysis.master_judge(playouts=8, seed=1))
    [decision] = [d for d in result["decisions"]
                  if (d["round"], d["index"]) == (round_number, index)]
    assert decision["played"]["play"] == tile and decision["seat"] == 0
    assert decision["mark"] == analysis.MISTAKE, decision
    assert result["players"][0]["mistakes"] >= 1
