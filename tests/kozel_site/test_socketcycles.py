"""A closed WebSocket is freed as it closes, not left in cycles for a full collection
(kozel_site/runtime/socketcycles.py; the soak of docs/performance.md grew with them)."""

import json
import os
import subprocess
import sys

import pytest

from tests.daphne_server import ROOT

# A daphne server in this process, on a free port, with the site's application; sockets
# to the echo consumer opened and closed from a thread; then what only the collector
# could free (gc.DEBUG_SAVEALL keeps it to be counted).
PROBE = """
import gc, json, sys, threading
import daphne.server  # installs daphne's reactor, as `daphne` does
from twisted.internet import reactor
import bench.echo
from django.conf import settings
if sys.argv[1] == "unpatched":
    from daphne.http_protocol import WebRequest
    from daphne.ws_protocol import WebSocketProtocol
    WebSocketProtocol.onConnect, WebRequest.process = ORIGINAL
server = daphne.server.Server(bench.echo.application,
                              endpoints=["tcp:port=0:interface=127.0.0.1"], signal_handlers=False)
result = {}

def clients():
    from websockets.sync.client import connect
    port = server.listening_addresses[0][1]
    for _ in range(5):
        with connect(f"ws://127.0.0.1:{port}/ws/echo/", origin=f"http://127.0.0.1:{port}") as ws:
            ws.send("ping")
            assert ws.recv(timeout=10) == "ping"
    reactor.callFromThread(reactor.callLater, 1.5, count)  # let daphne reap the consumers

def count():
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    kinds = {}
    for thing in gc.garbage:
        name = type(thing).__name__
        if name in ("WebSocketProtocol", "WebRequest", "HTTPChannel", "EchoConsumer"):
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


@pytest.mark.parametrize("variant", ["patched", "unpatched"])
def test_closed_sockets_leave_no_cycles_for_the_collector(variant, tmp_path):
    prelude = ("from daphne.http_protocol import WebRequest\n"
               "from daphne.ws_protocol import WebSocketProtocol\n"
               "ORIGINAL = (WebSocketProtocol.onConnect, WebRequest.process)\n")
    # The unpatched run proves the probe can see the cycles the patch breaks.
    script = PROBE.replace("import bench.echo", "import daphne.http_protocol, daphne.ws_protocol\n"
                           + prelude + "import bench.echo")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings",
               KOZEL_CLOCK_IN_SERVER="0", SQLITE_PATH=str(tmp_path / "probe.sqlite3"))
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    out = subprocess.run([sys.executable, "-c", script, variant], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    left = json.loads(out.stdout.strip().splitlines()[-1])
    if variant == "patched":
        assert left == {}
    else:
        assert left.get("WebSocketProtocol") == 5 and left.get("HTTPChannel") == 5
