"""A closed WebSocket is freed as it closes, not left in cycles for a full collection
(kozel_site/runtime/socket_cycles.py; without it the soak of docs/performance.md grew
with every finished game's sockets)."""

import json
import os
import subprocess
import sys

import pytest

from tests.daphne_server import ROOT

# A daphne server in this process, on a free port, with the site's application and its
# tuning as ``daphne`` runs it (or, as bench/tuning.py serves it, without the patch); lobby sockets
# opened and closed from a thread; then what only the collector could free
# (gc.DEBUG_SAVEALL keeps it to be counted).
PROBE = """
import gc, json, threading
import daphne.server  # installs daphne's reactor, as `daphne` does
from twisted.internet import reactor
import os
if os.environ.get("KOZEL_BENCH_WITHOUT"):
    import bench.tuning
import kozel_site.asgi
from django.core.management import call_command
call_command("migrate", verbosity=0)  # the lobby reads the open requests
server = daphne.server.Server(kozel_site.asgi.application,
                              endpoints=["tcp:port=0:interface=127.0.0.1"], signal_handlers=False)
result = {}

def clients():
    from websockets.sync.client import connect
    port = server.listening_addresses[0][1]
    for _ in range(5):
        with connect(f"ws://127.0.0.1:{port}/ws/lobby/", origin=f"http://127.0.0.1:{port}") as ws:
            ws.ping().wait(10)
    reactor.callFromThread(reactor.callLater, 1.5, count)  # let daphne reap the consumers

def count():
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    kinds = {}
    for thing in gc.garbage:
        name = type(thing).__name__
        if name in ("WebSocketProtocol", "WebRequest", "HTTPChannel"):
            kinds[name] = kinds.get(name, 0) + 1
    result.update(kinds)
    reactor.stop()

def started():
    if not server.listening_addresses:
        return reactor.callLater(0.05, started)
    threading.Thread(target=clients, daemon=True).start()

reactor.callLater(0.05, started)
server.run()
print(json.dumps(result))
"""


@pytest.mark.parametrize("tuning", ["cycles", "0"])  # "0": without any of the changes
def test_closed_sockets_leave_no_cycles_for_the_collector(tuning, tmp_path):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings",
               KOZEL_CLOCK_IN_SERVER="0",
               KOZEL_BENCH_WITHOUT="" if tuning == "cycles" else "gc,switch,write,cycles",
               SQLITE_PATH=str(tmp_path / "probe.sqlite3"))
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    left = json.loads(out.stdout.strip().splitlines()[-1])
    if tuning == "cycles":
        assert left == {}
    else:  # untuned: the probe sees the cycles the patch breaks
        assert left.get("WebSocketProtocol") == 5 and left.get("HTTPChannel") == 5
