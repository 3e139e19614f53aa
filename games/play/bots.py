"""Bots: seats the server plays with the rules service's heuristic player.

A bot decides from its own seat's view only, exactly what a person there would see.
The clock plays a bot's move when the bot's short, human-like deadline passes (see
services._time_for), so bots need no browser and go on across restarts.
"""

from games import rules

_PLAYER = rules.HeuristicPlayer()


def choose(state: rules.GameState, seat: int) -> rules.Action:
    return _PLAYER.choose(rules.view_for(state, seat))
