"""A closed daphne WebSocket is freed as it closes, not at some later full collection.

A daphne WebSocket connection sits in reference cycles that outlive it: autobahn resolves
the protocol's ``is_closed`` future with the protocol itself, and the HTTP request that
was upgraded and its HTTP channel (kept alive by its idle timer) refer to each other.
Reference counting cannot free a cycle; only a collection of the generation the objects
have reached finds it.  A socket lives as long as its game, so by its close it is among
the oldest objects, and a server whose collector is tuned for fewer passes
(kozel_site/runtime/interpreter.py) reaches them rarely: every closed socket would keep
its protocol, request, buffers and transport, and a server's memory would grow with
every finished game.  Each cycle is broken here instead.

The patch wraps daphne's ``WebSocketProtocol.onConnect`` and ``WebRequest.process`` and
reads Twisted's ``HTTPChannel.requests``: it is checked against the daphne it was
written for.
"""

from __future__ import annotations

import daphne

from kozel_site.runtime import require_version

WRITTEN_FOR = "4.2."
_INSTALLED = "_kozel_breaks_cycles"


def install() -> None:
    """Patch daphne's WebSocket protocol and HTTP request (in a daphne process; once)."""
    from daphne.http_protocol import WebRequest
    from daphne.ws_protocol import WebSocketProtocol

    require_version("socket_cycles", "daphne", daphne.__version__, WRITTEN_FOR,
                    "WebSocketProtocol.onConnect, WebRequest.process and HTTPChannel.requests")
    if getattr(WebSocketProtocol, _INSTALLED, False):
        return
    connected, process = WebSocketProtocol.onConnect, WebRequest.process

    def onConnect(self, request):  # noqa: N802 (autobahn's name)
        # The future's result (the protocol) becomes None once its callbacks have run.
        self.is_closed.addBoth(_forget)
        return connected(self, request)

    def process_request(self):
        process(self)
        # An upgraded request has handed its socket to the WebSocket protocol; it and its
        # HTTP channel (which still lists it) are left to themselves.
        if self.transport is None and self.channel is not None and self in self.channel.requests:
            self.channel.requests.remove(self)

    WebSocketProtocol.onConnect = onConnect
    WebRequest.process = process_request
    setattr(WebSocketProtocol, _INSTALLED, True)


def _forget(_result) -> None:
    return None
