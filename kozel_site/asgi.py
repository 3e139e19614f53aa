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

# A server process's Python and Twisted, tuned for serving (kozel_site/runtime/serving.py).
if "daphne.server" in sys.modules:
    from kozel_site.runtime import serving  # noqa: E402

    serving.tune()
