"""ASGI entry point: plain HTTP goes to Django, WebSockets to the channels consumers.

Served by daphne: `daphne kozel_site.asgi:application` (what `make run` does).
"""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings")
# Django must be set up before anything imports models (the routing below does).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from kozel_site.origins import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers send Origin with a WebSocket handshake: refuse any page but the site's
        # own (scheme, host and port), and give the consumers the logged-in user from the
        # session cookie.
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The embedded setup's turn clock runs inside the daphne process (DESIGN.md, Time).
from django.conf import settings  # noqa: E402

if settings.KOZEL_CLOCK_IN_SERVER and "daphne.server" in sys.modules:
    from games.play.clock import start_in_server  # noqa: E402

    start_in_server()

if "daphne.server" in sys.modules:
    from kozel_site.runtime import sendnow, socketcycles  # noqa: E402

    socketcycles.install()
    sendnow.install()  # frames written as they are sent (kozel_site/runtime/sendnow.py)

# Garbage collection in a server process (docs/performance.md): everything loaded at start
# (Django, the templates, the translations) lives as long as the process, yet the
# default collector scanned it again in every full collection, and with a thousand open
# game rooms a full collection stopped the event loop for hundreds of milliseconds.  So
# the start-up objects are frozen out of collections, and collections run less often.
# (Which is also why a closed socket must not be left to the collector: socketcycles.)
if settings.KOZEL_GC_TUNED and "daphne.server" in sys.modules:
    import gc  # noqa: E402

    gc.freeze()
    gc.set_threshold(*settings.KOZEL_GC_THRESHOLDS)

# How often the interpreter offers the GIL to another thread (Python's default: every
# 5 ms).  A database thread (a move on PostgreSQL, a room's load) lets go of the GIL
# inside every database call and then waits to get it back from the busy event loop:
# with 1 ms, bench/load.py's peak went from 254-274 to 280-312 actions/s, when moves
# still ran on a thread on SQLite too (docs/performance.md).
if "daphne.server" in sys.modules:
    sys.setswitchinterval(settings.KOZEL_SWITCH_INTERVAL)
