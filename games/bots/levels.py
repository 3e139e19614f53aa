"""The levels of the site's bots, from a beginner to the master, by name.

Every level chooses from a seat's ``Knowledge`` only (knowledge.py):

- ``beginner``: plays a legal tile with little sense -- any of them, at random;
- ``heuristic``: a sound club player (``rules.HeuristicPlayer``: sheds heavy tiles,
  keeps its options open, places no fish it would lose), the site's bot before levels;
- ``master``: searches (master.py) for as long as it is given.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass

import games.rules as rules

from . import master
from .knowledge import Knowledge

BEGINNER, HEURISTIC, MASTER = "beginner", "heuristic", "master"
LEVELS = (BEGINNER, HEURISTIC, MASTER)  # weakest first: each is measured against the one before
DEFAULT_SECONDS = 1.0  # the master's time per move when none is given


def choose(knowledge: Knowledge, level: str = HEURISTIC, *, seed=0,
           seconds: float | None = None, playouts: int | None = None) -> rules.Action:
    """The action ``level`` plays with this knowledge.  ``seed`` breaks ties (and draws
    the master's worlds); ``seconds`` or ``playouts`` bound the master's search."""
    legal = knowledge.legal
    if not legal:
        raise ValueError("it is not this seat's turn: nothing to choose")
    if len(legal) == 1:
        return legal[0]
    if level == BEGINNER:
        return random.Random(seed).choice(legal)
    if level == HEURISTIC:
        return rules.HeuristicPlayer(seed).choose(knowledge.view())
    if level == MASTER:
        if seconds is None and playouts is None:
            seconds = DEFAULT_SECONDS
        return master.choose(knowledge, seconds=seconds, playouts=playouts, seed=seed)
    raise ValueError(f"no such level: {level!r}")


@dataclass(frozen=True)
class Thought:
    """A choice made by ``think`` (in whatever process ran it), with what it cost."""
    action: rules.Action
    playouts: int  # the master's playouts (0 for the other levels and forced moves)
    seconds: float
    pid: int  # the process that thought


def think(knowledge: Knowledge, level: str = HEURISTIC, *, seed=0,
          seconds: float | None = None, until: float | None = None) -> Thought:
    """``choose`` for a worker process (games/play/workers.py): picklable in and out.
    ``until`` (``time.time()``) ends the master's search earlier than ``seconds`` would
    if it was queued long; it always plays at least one world."""
    if until is not None and seconds is not None:
        seconds = max(0.0, min(seconds, until - time.time()))
    master.last_stats.clear()
    started = time.perf_counter()
    action = choose(knowledge, level, seed=seed, seconds=seconds)
    return Thought(action, master.last_stats.get("playouts", 0) if level == MASTER else 0,
                   time.perf_counter() - started, os.getpid())
