"""What the site asks of the daphne server it runs in: a task started with the server.

daphne runs Twisted's reactor over asyncio; a coroutine that must live as long as the
server (the embedded setup's turn clock) is started once the reactor runs, on its loop.
"""

from __future__ import annotations

import asyncio


def when_serving(make_coroutine) -> None:
    """Start ``make_coroutine()`` as a task on the server's loop once it runs."""
    from twisted.internet import reactor

    reactor.callWhenRunning(lambda: asyncio.ensure_future(make_coroutine()))
