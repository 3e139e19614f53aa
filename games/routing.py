"""WebSocket routes, mounted by kozel_site/asgi.py behind the origin check and the session."""

from django.urls import path, re_path

from games.arena.consumer import ArenaConsumer
from games.lobby.consumer import FriendsConsumer, LobbyConsumer
from games.live.base import NoSuchSocket
from games.room.consumer import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:match_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/friends/", FriendsConsumer.as_asgi()),
    path("ws/arenas/<int:arena_id>/", ArenaConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),  # last: any other path is refused cleanly
]
