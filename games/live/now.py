"""The server's clock as the live pages read it: every countdown on a page (a turn, an offer
of one more game, an arena's start and end) is set by a ``data-now`` the server sent, so a
page whose own clock is off still counts the server's seconds (static/js/kozel.js)."""

import time


def now_ms() -> int:
    """The server's clock in milliseconds, as a page's ``data-now`` carries it."""
    return int(time.time() * 1000)
