"""WebSocket routes, mounted by kozel_site/asgi.py behind the origin check and the session."""

from django.conf import settings
from django.urls import path

from games.lobby.consumer import LobbyConsumer
from games.room.consumer import EchoConsumer, GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:match_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]

if settings.KOZEL_BENCH_ECHO:  # bench/load.py's baseline; off by default
    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))
