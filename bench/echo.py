"""The site with a bare echo WebSocket at ``/ws/echo/``: the baseline of bench/load.py.

bench/load.py serves ``bench.echo:application`` with daphne: the site's own application
(kozel_site/asgi.py, with everything it sets up in a server process) and its WebSocket
routes, plus the echo route behind the same origin check and session middleware.  The
site itself never serves it.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings")

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from kozel_site.origins import SameOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from kozel_site import asgi as site  # noqa: E402  (sets Django up first)

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from games.room.consumer import GameConsumer  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    """``/ws/echo/``: sends every message straight back.

    The baseline of bench/load.py: the same server, origin check, session middleware and
    WebSocket path as the game room, with no database and no rendering; like the room, no
    channel-layer channel and no database trip before each message.
    """

    channel_layer_alias = None
    dispatch = GameConsumer.dispatch

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


application = ProtocolTypeRouter(
    {
        "http": site.django_asgi_app,
        "websocket": SameOriginValidator(
            # The echo first: the site's routes end with a catch-all that refuses any
            # other path.
            AuthMiddlewareStack(URLRouter([path("ws/echo/", EchoConsumer.as_asgi()),
                                           *websocket_urlpatterns]))
        ),
    }
)
