"""Players the site provides, and what the analysis after a game builds on: pure Python
on ``games.rules``, deciding from a seat's ``Knowledge`` only (DESIGN.md, Bots).

    from games.bots import knowledge_for, levels, master
    k = knowledge_for(state, seat)            # all that seat may know
    levels.choose(k, levels.MASTER, seed=1, seconds=0.5)
    master.evaluate(k, playouts=64, seed=1)   # {action: expected rating points}
"""

from . import levels, master
from .knowledge import Knowledge, knowledge_for, knowledge_from_view

__all__ = ["Knowledge", "knowledge_for", "knowledge_from_view", "levels", "master"]
