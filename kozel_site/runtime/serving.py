"""What a daphne server process changes in Python and Twisted before it serves (each
module says why; docs/performance.md says what each buys, measured).  With
``KOZEL_SERVER_TUNING=0`` nothing is changed, to measure against."""

from __future__ import annotations

import os

from kozel_site.runtime import interpreter, twisted_write


def tune() -> None:
    if os.environ.get("KOZEL_SERVER_TUNING", "1") == "0":
        return
    interpreter.tune_server_process()
    twisted_write.install()
