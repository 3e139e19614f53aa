"""kozel_site/runtime/serving.py: a daphne process tunes Python and Twisted before it
serves; ``KOZEL_SERVER_TUNING=0`` leaves both as they are.  Each in a fresh interpreter
that imports the site as daphne does."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import daphne.server  # what daphne has imported when it loads the application
import kozel_site.asgi
from twisted.internet import tcp
print(json.dumps({"thresholds": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                  "switch": sys.getswitchinterval(),
                  "write_at_once": getattr(tcp.Connection, "_kozel_writes_at_once", False)}))
"""


def probe(**env) -> dict:
    environment = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings", **env)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_server_process_is_tuned_and_can_be_left_as_python_makes_it():
    from kozel_site.runtime import interpreter

    tuned = probe()
    assert tuned["thresholds"] == list(interpreter.GC_THRESHOLDS)
    assert tuned["frozen"] > 10_000  # what the site loaded, out of the collector's reach
    assert tuned["switch"] == interpreter.SWITCH_INTERVAL
    assert tuned["write_at_once"] is True
    plain = probe(KOZEL_SERVER_TUNING="0")
    assert plain["thresholds"] == [700, 10, 10] and plain["frozen"] == 0
    assert plain["write_at_once"] is False
