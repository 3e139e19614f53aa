"""The load benchmark's echo baseline (/ws/echo/) is bench/echo.py's: the site never serves it."""

import pytest

from games import routing


def test_the_echo_route_is_off_by_default():
    assert not any("echo" in str(p.pattern) for p in routing.websocket_urlpatterns)


# Channels closes stale database connections around every message, so the
# test needs database access although the echo consumer itself never queries.
@pytest.mark.django_db(transaction=True)
async def test_the_echo_consumer_sends_back_what_it_gets():
    from channels.testing import WebsocketCommunicator

    from bench.echo import EchoConsumer

    ws = WebsocketCommunicator(EchoConsumer.as_asgi(), "/ws/echo/")
    connected, _ = await ws.connect()
    assert connected
    await ws.send_to(text_data='{"play": "1-2", "version": 7}')
    assert await ws.receive_from() == '{"play": "1-2", "version": 7}'
    await ws.disconnect()
