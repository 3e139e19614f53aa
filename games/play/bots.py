"""Bots: seats the server plays, at a level (games.bots.levels), from their seat's
knowledge only (games.bots.knowledge: what a person there would see, and the round's
public moves).

The clock plays a bot's move when the bot's short, human-like deadline passes (see
services._time_for), so bots need no browser and go on across restarts.  A master
searches for ``settings.BOT_MASTER_SECONDS`` per move.
"""

from __future__ import annotations

import random

from django.conf import settings

from games import rules
from games.bots import knowledge_for, levels

LEVELS = levels.LEVELS
BEGINNER, HEURISTIC, MASTER = levels.BEGINNER, levels.HEURISTIC, levels.MASTER

# Where bots' choices take their seeds (ties, the master's worlds); the tests seed it
# (tests/seeding.py) so that a failing test's games can be played again.
_RANDOM = random.Random()


def choose(state: rules.GameState, seat: int, level: str = HEURISTIC) -> rules.Action:
    """The move of a bot of ``level`` in ``seat`` (its turn)."""
    seconds = settings.BOT_MASTER_SECONDS if level == MASTER else None
    return levels.choose(knowledge_for(state, seat), level or HEURISTIC,
                         seed=_RANDOM.getrandbits(64), seconds=seconds)
