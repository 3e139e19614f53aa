"""Closed WebSockets freed as they close, not at some later full garbage collection.

A daphne WebSocket connection sits in reference cycles that outlive it: autobahn
resolves the protocol's ``is_closed`` future with the protocol itself, and the HTTP
request that was upgraded and its HTTP channel (kept alive by its idle timer) refer to
each other.  Reference counting cannot free a cycle; only a full collection finds it,
and a busy but steady server runs one rarely (kozel_site/asgi.py tunes the collector
so).  Meanwhile every closed socket kept some tens of kilobytes (its protocol, request,
buffers and transport): in a ten-minute soak the finished games' sockets made the server
grow by about 2.5 MB a minute (docs/performance.md).  Each cycle is broken here instead.
"""

from __future__ import annotations

_INSTALLED = "_kozel_breaks_cycles"


def install() -> None:
    """Patch daphne's WebSocket protocol and HTTP request (in a daphne process; once)."""
    from daphne.http_protocol import WebRequest
    from daphne.ws_protocol import WebSocketProtocol

    if getattr(WebSocketProtocol, _INSTALLED, False):
        return
    connected, process = WebSocketProtocol.onConnect, WebRequest.process

    def onConnect(self, request):  # noqa: N802 (autobahn's name)
        # The future's result becomes None once its callbacks have run.
        self.is_closed.addBoth(_forget)
        return connected(self, request)

    def process_request(self):
        process(self)
        # An upgraded request has handed its socket to the WebSocket protocol; it and
        # its HTTP channel (which still lists it) are left to themselves.
        if self.transport is None and self.channel is not None and self in self.channel.requests:
            self.channel.requests.remove(self)

    WebSocketProtocol.onConnect = onConnect
    WebRequest.process = process_request
    setattr(WebSocketProtocol, _INSTALLED, True)


def _forget(_result) -> None:
    return None
