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
