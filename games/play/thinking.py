"""Where masters think: in the worker processes of the process that runs the clock
(games/play/workers.py), so that a bot's search never runs in a server's event-loop
process nor holds the database's thread (DESIGN.md, Speed).

The clock's sweep reads a due bot's state and its seat's Knowledge in its database call
and hands them here (``answer``); the search runs in a worker process; a later sweep
finds the choice done and applies it through the ordinary path (``service.run_due``: a
compare-and-swap on the match's version, so a choice made for a version the match has
left is dropped and asked again).

The time a master gets is a share of the machine (``share``): ``BOT_MASTER_SECONDS``
times min(1, workers / (2 x the pieces of work queued or under way + 1)), and a search
that waited in the queue ends by ``BOT_MASTER_SECONDS`` after it was asked for (after at
least one world), so that many bots' tables at once make each master search less, never
the bots slower.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from django.conf import settings

from games import rules
from games.bots import Knowledge, levels
from games.play import workers

log = logging.getLogger(__name__)

# Seconds after which a finished search nobody came for (its match ended, or moved on
# and was never due again) is forgotten.
FORGET_AFTER = 30.0

_lock = threading.RLock()
_on_done = None  # when_done's


@dataclass
class _Search:
    version: int
    future: Future
    asked_at: float = field(default_factory=time.monotonic)


_searches: dict[int, _Search] = {}  # match id -> its bot's search under way or done


@dataclass
class Figures:
    """What this process's masters thought: since it started (``figures``), and since the
    last line logged (``_window``), which bench/load.py's bots' mode reads."""
    moves: int = 0
    playouts: int = 0
    seconds: float = 0.0
    waited_max: float = 0.0  # the longest from asking the pool to its answer
    last_pid: int = 0

    def add(self, thought: levels.Thought, waited: float) -> None:
        self.moves += 1
        self.playouts += thought.playouts
        self.seconds += thought.seconds
        self.waited_max = max(self.waited_max, waited)
        self.last_pid = thought.pid


figures = Figures()
_window = Figures()
_window_began = time.monotonic()
# Seconds between the INFO lines on what the masters thought (none while none moved).
LOG_EVERY = 5.0
LOG_LINE = "bots: master moves=%d playouts_per_move=%.0f search_s_per_move=%.3f " \
           "waited_max_s=%.3f thinking_now=%d workers=%d"


def running() -> bool:
    """Whether masters think in a pool here (this process runs the clock)."""
    return workers.running()


def forget() -> None:
    """Drop every search under way or done (the pool stopped)."""
    with _lock:
        _searches.clear()


def searching(match_id: int) -> bool:
    """Whether a master of ``match_id`` is searching in the pool now: the sweep need not
    read that match again until its search is done."""
    with _lock:
        search = _searches.get(match_id)
        return search is not None and not search.future.done()


def thinking_now() -> int:
    """How many searches are queued or under way in this process's pool."""
    with _lock:
        return sum(not search.future.done() for search in _searches.values())


def share() -> float:
    """The seconds a master asking now may search: its share of the workers, beside the
    searches and the analyses' decisions already queued or under way -- half a fair
    share once there are any, so that the queue drains well before the bots' time is up
    rather than just in time."""
    busy = workers.busy()
    return settings.BOT_MASTER_SECONDS * min(1.0, workers.size() / (2 * busy + 1))


def answer(match_id: int, version: int, knowledge: Knowledge, level: str,
           seed: int) -> rules.Action | None:
    """The bot's choice for ``match_id`` at ``version`` if its search is done; else None,
    having asked the pool for it (once per version)."""
    with _lock:
        _forget_old()
        search = _searches.get(match_id)
        if search is not None and search.version == version:
            if not search.future.done():
                return None
            del _searches[match_id]
            try:
                thought = search.future.result()
            except BrokenProcessPool:  # a worker process died: ask again (a new pool)
                pass
            except Exception:
                log.exception("bots: a master's search failed; asking again")
            else:
                waited = time.monotonic() - search.asked_at
                figures.add(thought, waited)
                _window.add(thought, waited)
                _log_window()
                return thought.action
        elif search is not None:  # the match moved on: that search is of no use
            search.future.cancel()
            del _searches[match_id]
        seconds = share()
        until = time.time() + settings.BOT_MASTER_SECONDS
        future = workers.submit(levels.think, knowledge, level, seed=seed, seconds=seconds,
                                until=until)
        if future is not None:
            _searches[match_id] = _Search(version, future)
            future.add_done_callback(_tell_done)
        return None


def when_done(tell) -> None:
    """Call ``tell()`` (from the pool's thread) each time a search is done: the clock then
    plays that move at once rather than at its next sweep."""
    global _on_done
    _on_done = tell


def done() -> list[int]:
    """The matches whose master's search is done and waits to be played."""
    with _lock:
        _forget_old()
        return [match_id for match_id, search in _searches.items() if search.future.done()
                and not search.future.cancelled()]


def _tell_done(_future: Future) -> None:
    if _on_done is not None:
        _on_done()


def _forget_old() -> None:
    now = time.monotonic()
    for match_id in [m for m, s in _searches.items()
                     if s.future.done() and now - s.asked_at > FORGET_AFTER]:
        del _searches[match_id]


def _log_window() -> None:
    global _window, _window_began
    if time.monotonic() - _window_began < LOG_EVERY:
        return
    w = _window
    log.info(LOG_LINE, w.moves, w.playouts / w.moves, w.seconds / w.moves, w.waited_max,
             thinking_now(), workers.size())
    _window, _window_began = Figures(), time.monotonic()
