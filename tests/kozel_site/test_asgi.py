"""The ASGI application: HTTP to Django, WebSockets behind the origin check."""

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator

from kozel_site.asgi import application


async def test_http_goes_to_django():
    communicator = HttpCommunicator(application, "GET", "/rules/", headers=[(b"host", b"testserver")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert "Козёл".encode() in response["body"]


# Channels tidies database connections around every consumer, even the one that refuses.
@pytest.mark.django_db(transaction=True)
async def test_websocket_from_another_site_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"http://evil.example"), (b"host", b"localhost")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


GC_PROBE = """
import gc, sys
import daphne.server  # as when daphne serves the application
import kozel_site.asgi
from django.conf import settings
print(gc.get_freeze_count() > 0, gc.get_threshold() == settings.KOZEL_GC_THRESHOLDS)
"""


@pytest.mark.parametrize("tuned, expected", [("1", "True True"), ("0", "False False")])
def test_a_server_process_freezes_its_start_up_objects_out_of_garbage_collection(tuned, expected):
    import os
    import subprocess
    import sys

    from tests.daphne_server import ROOT

    env = dict(os.environ, KOZEL_GC_TUNED=tuned, DJANGO_SETTINGS_MODULE="kozel_site.settings")
    out = subprocess.run([sys.executable, "-c", GC_PROBE], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == expected, out.stderr[-2000:]



SWITCH_PROBE = """
import sys
import daphne.server  # as when daphne serves the application
import kozel_site.asgi
print(sys.getswitchinterval())
"""


@pytest.mark.parametrize("setting, expected", [(None, 0.001), ("0.005", 0.005)])
def test_a_server_process_hands_the_gil_over_every_millisecond(setting, expected):
    import os
    import subprocess
    import sys

    from tests.daphne_server import ROOT

    env = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings")
    env.pop("KOZEL_SWITCH_INTERVAL", None)
    if setting is not None:
        env["KOZEL_SWITCH_INTERVAL"] = setting
    out = subprocess.run([sys.executable, "-c", SWITCH_PROBE], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert float(out.stdout.strip().splitlines()[-1]) == expected, out.stderr[-2000:]


SENDNOW_PROBE = """
import daphne.server  # as when daphne serves the application
from twisted.internet import tcp
assert not getattr(tcp.Connection, "_kozel_sends_now", False)
import kozel_site.asgi
print(getattr(tcp.Connection, "_kozel_sends_now", False))
"""


def test_a_server_process_writes_frames_as_they_are_sent():
    """kozel_site/runtime/sendnow.py is installed with the application (tests/kozel_site/test_sendnow.py)."""
    import os
    import subprocess
    import sys

    from tests.daphne_server import ROOT

    env = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings")
    out = subprocess.run([sys.executable, "-c", SENDNOW_PROBE], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "True", out.stderr[-2000:]
