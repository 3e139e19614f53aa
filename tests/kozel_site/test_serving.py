"""kozel_site/runtime/serving.py: a daphne process tunes Python and Twisted before it
serves; bench/tuning.py serves it with some changes left out.  Each in a fresh interpreter
that imports the site as daphne does."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, os, sys
import daphne.server  # what daphne has imported when it loads the application
if os.environ.get("KOZEL_BENCH_WITHOUT") is not None:
    import bench.tuning  # the site as the benchmark serves it, some changes left out
else:
    import kozel_site.asgi
from twisted.internet import tcp
from daphne.ws_protocol import WebSocketProtocol
print(json.dumps({"breaks_cycles": getattr(WebSocketProtocol, "_kozel_breaks_cycles", False),
                  "thresholds": gc.get_threshold(), "frozen": gc.get_freeze_count(),
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
    assert tuned["write_at_once"] is True and tuned["breaks_cycles"] is True
    plain = probe(KOZEL_BENCH_WITHOUT="gc,switch,write,cycles")
    assert plain["thresholds"] == [700, 10, 10] and plain["frozen"] == 0
    assert plain["write_at_once"] is False and plain["breaks_cycles"] is False
    only_gc = probe(KOZEL_BENCH_WITHOUT="switch,write,cycles")
    assert only_gc["thresholds"] == list(interpreter.GC_THRESHOLDS)
    assert only_gc["switch"] == plain["switch"] and only_gc["write_at_once"] is False
    assert only_gc["breaks_cycles"] is False
    without_gc = probe(KOZEL_BENCH_WITHOUT="gc,cycles")
    assert without_gc["thresholds"] == [700, 10, 10] and without_gc["frozen"] == 0
    assert without_gc["switch"] == interpreter.SWITCH_INTERVAL
    assert without_gc["write_at_once"] is True


def test_the_benchmark_refuses_an_unknown_part():
    failed = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                            text=True, timeout=60,
                            env=dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings",
                                     KOZEL_BENCH_WITHOUT="gc,turbo"))
    assert failed.returncode != 0
    assert "--without: unknown turbo" in failed.stderr
