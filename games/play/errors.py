"""A refusal of the site, for the person who caused it: ``PlayError``.

Every context raises it for what a person may not do (a move out of turn, a request that
is gone, a seed that is not one); the consumers and views show its message and change
nothing.  It lives at the bottom of ``games.play`` so that any context can raise it
without importing the service that runs games.
"""


class PlayError(Exception):
    """A refusal, with a message for the player who caused it.  Nothing was changed.

    ``code`` names the kind of refusal for the code that handles it ("stale" makes a room
    send its view again, "gone", "not-seated", "invalid", ...)."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
