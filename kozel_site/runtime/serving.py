"""What a daphne server process changes in Python, Twisted and daphne before it serves
(each module says why).

``KOZEL_SERVER_TUNING`` names the changes to make, comma-separated, out of ``PARTS``
(all of them when it is unset); ``0`` or an empty value makes none, so that the site
can be run with and without each.
"""

from __future__ import annotations

import os

from kozel_site.runtime import interpreter, socket_cycles, twisted_write

PARTS = {
    "gc": interpreter.tune_garbage_collector,
    "switch": interpreter.tune_switch_interval,
    "write": twisted_write.install,
    "cycles": socket_cycles.install,
}


def chosen_parts() -> list[str]:
    value = os.environ.get("KOZEL_SERVER_TUNING", ",".join(PARTS)).strip()
    if value in ("", "0"):
        return []
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = sorted(set(names) - set(PARTS))
    if unknown:
        raise ValueError(f"KOZEL_SERVER_TUNING: unknown {', '.join(unknown)} "
                         f"(known: {', '.join(PARTS)}, or 0 for none)")
    return names


def tune() -> None:
    for name in chosen_parts():
        PARTS[name]()
