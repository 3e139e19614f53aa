"""Bots: seats the server plays, at a level (games.bots.levels), from their seat's
knowledge only (games.bots.knowledge: what a person there would see, and the round's
public moves).

The clock plays a bot's move when the bot's short, human-like deadline passes (see
services._time_for), so bots need no browser and go on across restarts.  A master
searches for up to ``settings.BOT_MASTER_SECONDS`` per move: in the clock's pool of
worker processes (games/play/thinking.py) when the clock's process has one, never in
a server's event loop; beginners and the heuristic are cheap and choose at once.
"""

from __future__ import annotations

import random

from django.conf import settings

from games import rules
from games.bots import knowledge_for, levels
from games.play import thinking

LEVELS = levels.LEVELS
BEGINNER, HEURISTIC, MASTER = levels.BEGINNER, levels.HEURISTIC, levels.MASTER

# Where bots' choices take their seeds (ties, the master's worlds); the tests seed it
# (tests/seeding.py) so that a failing test's games can be played again.
_RANDOM = random.Random()


def choose(state: rules.GameState, seat: int, level: str = HEURISTIC) -> rules.Action:
    """The move of a bot of ``level`` in ``seat`` (its turn), chosen in this process."""
    seconds = settings.BOT_MASTER_SECONDS if level == MASTER else None
    return levels.choose(knowledge_for(state, seat), level or HEURISTIC,
                         seed=_RANDOM.getrandbits(64), seconds=seconds)


def move_of(match_id: int, version: int, state: rules.GameState, seat: int,
            level: str | None) -> rules.Action | None:
    """The bot's move in the match at ``version``, or None while a master thinks in the
    pool (a later sweep asks again).  Without a pool in this process (a test, a command
    that plays a game through) a master chooses here, as the other levels do."""
    if level == MASTER and thinking.running():
        return thinking.answer(match_id, version, knowledge_for(state, seat), MASTER,
                               _RANDOM.getrandbits(64))
    return choose(state, seat, level)
