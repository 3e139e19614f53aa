"""WebSocket routes, mounted by kozel_site/asgi.py behind the origin check and the session."""

websocket_urlpatterns = []
