"""What a daphne process changes in Python, Twisted and daphne before it serves (each
module says why, and docs/performance.md what it buys, measured).

``PARTS`` names each change; a server makes them all.  bench/load.py's ``--without``
serves the site with some left out, to measure what each buys (bench/tuning.py).
"""

from __future__ import annotations

from kozel_site.runtime import interpreter, socket_cycles, twisted_write

PARTS = {
    "gc": interpreter.tune_garbage_collector,
    "switch": interpreter.tune_switch_interval,
    "write": twisted_write.install,
    "cycles": socket_cycles.install,
}


def tune() -> None:
    for install in PARTS.values():
        install()
