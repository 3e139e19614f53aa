"""How a server process's Python runs: the interpreter lock's switch interval and the
cyclic garbage collector's pace.

- The event loop and channels' database thread share one interpreter lock.  The thread
  lets go of it inside every database call and must get it back from the busy loop: every
  5 ms by Python's default, every ``SWITCH_INTERVAL`` here.
- A server allocates many short-lived containers per message (frames, dicts, futures).
  At Python's default thresholds (700, 10, 10) the collector runs every few messages and
  walks the long-lived objects of Django, the templates and a thousand open sockets again
  and again.  What is loaded at start is frozen out of its reach (``gc.freeze``), and a
  collection starts after ``GC_THRESHOLDS[0]`` new containers instead of 700.  Reference
  counting still frees at once everything that is not in a cycle; cycles wait a little
  longer.
"""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL = 0.001  # seconds
GC_THRESHOLDS = (50_000, 20, 100)


def tune_switch_interval() -> None:
    """In a server process (daphne), before it serves."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def tune_garbage_collector() -> None:
    """Once the site is loaded, in a server process (daphne), before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
