"""What every WebSocket of the site shares: once it is closing, nothing more is sent.

A socket closed for a flood can still have frames queued for it (the hub's, the lobby's
list); sent after the close they reach daphne's closed protocol, which raises and logs a
traceback for each.  They are dropped here instead: nobody can receive them.

The client can close first, too (a tab closed, a page left): daphne tells the consumer
only once the connection is gone, and a frame sent in between reaches the same closed
protocol, which raises (kozel_site/runtime/daphne.py).  That socket is closing as well."""

from channels.generic.websocket import AsyncWebsocketConsumer

from kozel_site.runtime.daphne import SocketClosing


class ClosingOnce(AsyncWebsocketConsumer):
    closing = False

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.closing:
            return
        self.closing = bool(close)
        try:
            await super().send(text_data, bytes_data, close)
        except SocketClosing:
            self.closing = True  # its disconnect is on the way

    async def close(self, code=None, reason=None):
        if self.closing:
            return
        self.closing = True
        await super().close(code, reason)

    async def websocket_disconnect(self, message):
        self.closing = True
        await super().websocket_disconnect(message)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every WebSocket path the site does not serve: refused at the handshake (daphne
    answers HTTP 403), with no log line of its own -- rather than the router's
    "No route found" error, an HTTP 500 and a traceback."""

    async def connect(self):
        await self.close()
