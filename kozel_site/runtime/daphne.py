"""What the site asks of the daphne server it runs in, and what it must know of it.

daphne runs Twisted's reactor over asyncio; a coroutine that must live as long as the
server (the embedded setup's turn clock) is started once the reactor runs, on its loop.

Once a WebSocket's closing handshake has begun (the client's close frame came, or the
server's was sent) and before daphne tells the consumer that the socket is gone, a frame
sent on it reaches autobahn's protocol, which raises ``SocketClosing``.
"""

from __future__ import annotations

import asyncio

from autobahn.exception import Disconnected as SocketClosing

__all__ = ["SocketClosing", "when_serving"]


def when_serving(make_coroutine) -> None:
    """Start ``make_coroutine()`` as a task on the server's loop once it runs."""
    from twisted.internet import reactor

    reactor.callWhenRunning(lambda: asyncio.ensure_future(make_coroutine()))
