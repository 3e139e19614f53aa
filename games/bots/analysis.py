"""The analysis after a game: where did each player's points go?

From a game's record (RECORD.md) it replays every player's decisions -- a choice among
tiles or ends; a forced play, a draw or a knock is not a choice -- and asks a *judge* for
the expected outcome of every choice that player had at that moment.  The choice made
is compared with the best: a loss of MISTAKE_POINTS or more is a mistake ("ошибка"), of
INACCURACY_POINTS or more an inaccuracy ("неточность").  Each player gets a summary:
decisions, average expected loss per decision, mistakes, inaccuracies.

The judge is a function ``judge(state, seat) -> {Action: expected outcome}`` (higher is
better for ``seat``: its pair's in a pair game).  The site's is ``master_judge``: the
master bot's search from what that seat saw (``knowledge_for``, which holds nothing
else), so the analysis never knows more than the player did.  Tests pass quick judges.
The master's outcomes are rating points (RULES.md 8: one for every 10 points of score
a player stays below 100, none for the goat); a loss is told in points of score, ten to
a rating point (``SCALE``), so that "it cost you 8 points" reads as a player counts.

Pure Python on games.rules and games.bots, as every module of games/bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import games.rules as rules
from games.rules import LEFT, PLAY, RIGHT, Action, GameState, Record

from .knowledge import knowledge_for
from .master import evaluate

__all__ = ["MISTAKE", "INACCURACY", "MISTAKE_POINTS", "INACCURACY_POINTS", "Decision",
           "NotOver", "Unsupported", "decisions", "analyse", "choices", "mark_of",
           "master_judge", "judge_decision", "result_of", "FORMAT"]

FORMAT = "kozel-analysis/1"
MISTAKE, INACCURACY = "mistake", "inaccuracy"
# Expected points of score lost against the best choice: a few points of a round are a
# small slip, six a real one (the goat's risk counts in, at its price in rating points).
MISTAKE_POINTS = 6.0
INACCURACY_POINTS = 2.0
# Points of score to one unit of the judge's outcome (a rating point, RULES.md 8).
SCALE = 10.0

Judge = Callable[[GameState, int], dict]


class NotOver(ValueError):
    """The record's game has not ended: a running game is never analysed."""


class Unsupported(ValueError):
    """A game the analysis cannot judge (only Kozel is analysed, not sea goat)."""


@dataclass(frozen=True)
class Decision:
    """A choice a player had: ``round`` (1 first), ``index`` (the move's place in its
    round's moves, 0 first), ``ply`` (its place among the game's record moves, 0 first),
    the state before it, the choices it had (distinct plays) and the one made."""

    round: int
    index: int
    ply: int
    seat: int
    state: GameState
    choices: tuple[Action, ...]
    played: Action


def _canonical(state: GameState, action: Action) -> Action:
    """One action for each distinct choice: a play names its end as the rules would place
    it (RECORD.md), and when both ends show the same value the two ends are one choice
    (the right end, where a record's play without an end goes)."""
    if action.kind != PLAY or state.left < 0:
        return action
    end = action.end
    if end is None:
        end = RIGHT if action.tile.has(state.right) else LEFT
    if state.left == state.right:
        end = RIGHT
    return rules.play(action.seat, action.tile, end)


def choices(state: GameState) -> tuple[Action, ...]:
    """The distinct choices of the seat to move (empty unless it may play; one when it
    is forced)."""
    seen: list[Action] = []
    for action in rules.legal_actions(state):
        if action.kind != PLAY:
            return ()  # a draw or a knock: never a choice (nothing else is legal then)
        action = _canonical(state, action)
        if action not in seen:
            seen.append(action)
    return tuple(seen)


def decisions(record: Record, *, stopped: bool = False) -> Iterator[Decision]:
    """Every decision of the record's game, in order.

    The game must be over (``NotOver`` otherwise): finished, or interrupted as the
    record says; ``stopped``: the caller knows it was stopped otherwise (a moderator's
    abort, which a record does not name).  Checked before the first decision is yielded.
    """
    if record.variant != rules.KOZEL:
        raise Unsupported("only Kozel games are analysed")
    final = rules.replay(record).state  # InvalidRecord for a broken one
    if not final.over and not stopped:
        raise NotOver("the game has not ended: a running game is never analysed")
    state = rules.new_game(record.game_variant)
    ply = 0
    for number, rnd in enumerate(record.rounds, 1):
        state, _events = rules.start_round(state, rnd.deal)
        for index, action in enumerate(rnd.moves):
            options = choices(state)
            if len(options) > 1:
                yield Decision(number, index, ply, action.seat, state, options,
                               _canonical(state, action))
            state, _events = rules.apply(state, action)
            ply += 1


def mark_of(loss: float) -> str | None:
    if loss >= MISTAKE_POINTS:
        return MISTAKE
    if loss >= INACCURACY_POINTS:
        return INACCURACY
    return None


def _judged(decision: Decision, judge: Judge, scale: float) -> dict:
    raw = judge(decision.state, decision.seat)
    values: dict[Action, float] = {}
    for action, value in raw.items():
        action = _canonical(decision.state, action)
        if action in decision.choices:  # both ends of one choice: the same, take the best
            values[action] = max(value, values.get(action, value))
    missing = [a for a in decision.choices if a not in values]
    if missing:
        raise ValueError(f"the judge gave no value for {missing[0]}")
    best = max(decision.choices, key=lambda a: values[a])
    loss = max(0.0, values[best] - values[decision.played]) * scale
    return {
        "round": decision.round, "index": decision.index, "ply": decision.ply,
        "seat": decision.seat,
        "played": decision.played.to_json(), "best": best.to_json(),
        "choices": sorted(({"move": a.to_json(), "value": round(values[a], 3)}
                           for a in decision.choices), key=lambda c: -c["value"]),
        "loss": round(loss, 2), "mark": mark_of(loss),
    }


def analyse(record: Record, judge: Judge, *, stopped: bool = False, scale: float = SCALE,
            progress: Callable[[int, int], None] | None = None) -> dict:
    """The analysis of a game that is over (``NotOver`` for one that is not): every
    decision judged, and a summary per player.  ``progress(done, total)`` is called
    before the first decision and after each.  A loss is the judge's difference times
    ``scale`` (points of score to one unit of the judge's outcome).

    ``{"format": "kozel-analysis/1", "decisions": [{"round", "index", "ply", "seat",
    "played", "best", "choices": [{"move", "value"}...] (best first), "loss", "mark"}...],
    "players": [{"seat", "decisions", "average_loss", "total_loss", "mistakes",
    "inaccuracies"}...], "thresholds": {"mistake", "inaccuracy"}}``
    """
    found = list(decisions(record, stopped=stopped))
    total = len(found)
    if progress:
        progress(0, total)
    judged = []
    for done, decision in enumerate(found, 1):
        judged.append(_judged(decision, judge, scale))
        if progress:
            progress(done, total)
    return result_of(judged, len(record.players), scale)


def result_of(judged: list[dict], seats: int, scale: float = SCALE) -> dict:
    """The analysis from its judged decisions, in order (``analyse``'s result)."""
    return {"format": FORMAT, "decisions": judged, "players": summary(judged, seats),
            "thresholds": {MISTAKE: MISTAKE_POINTS, INACCURACY: INACCURACY_POINTS},
            "scale": scale}


def summary(judged: list[dict], seats: int) -> list[dict]:
    players = []
    for seat in range(seats):
        mine = [d for d in judged if d["seat"] == seat]
        total = sum(d["loss"] for d in mine)
        players.append({
            "seat": seat, "decisions": len(mine),
            "average_loss": round(total / len(mine), 2) if mine else 0.0,
            "total_loss": round(total, 2),
            "mistakes": sum(d["mark"] == MISTAKE for d in mine),
            "inaccuracies": sum(d["mark"] == INACCURACY for d in mine),
        })
    return players


def master_judge(*, playouts: int | None = None, seconds: float | None = None,
                 seed: int = 0) -> Judge:
    """The master's judgement of a seat's choices, from what that seat saw then: its
    knowledge (games.bots.knowledge) holds nothing else, so the judge cannot peek.  Each
    call searches with its own seed (``seed`` and the call's number), so an analysis is
    the same every time it is made."""
    calls = iter(range(10**9))

    def judge(state: GameState, seat: int) -> dict:
        return evaluate(knowledge_for(state, seat), seconds=seconds, playouts=playouts,
                        seed=_seed_of(seed, next(calls)))

    return judge


def judge_decision(decision: Decision, number: int, *, playouts: int | None = None,
                   seconds: float | None = None, seed: int = 0,
                   scale: float = SCALE) -> dict:
    """The ``number``-th decision of a game (0 first) judged as ``analyse`` with
    ``master_judge(playouts=, seconds=, seed=)`` judges it: a piece of an analysis for a
    worker process (picklable in and out), so that an analysis made a decision at a time
    is the one made at once."""
    def judge(state: GameState, seat: int) -> dict:
        return evaluate(knowledge_for(state, seat), seconds=seconds, playouts=playouts,
                        seed=_seed_of(seed, number))
    return _judged(decision, judge, scale)


def _seed_of(seed: int, number: int) -> int:
    return seed * 1_000_003 + number
