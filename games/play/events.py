"""A game's start and end, told to whoever subscribed (DESIGN.md, a change end to end).

``games.play`` knows nothing of the contexts above it.  They subscribe when the site
loads (``games.apps``): ratings writes a rated game's rating records, the lobby offers
one more game, an arena scores the game.  Every handler runs inside the transaction of
the change that ended the game (``games.play.store.commit``), in the order they
subscribed: if one fails, the change is not written and nothing of the end is either.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from games import rules
from games.models import Match


@dataclass(frozen=True)
class GameEnded:
    """A game's rules state came to its end: finished, interrupted or aborted (RULES.md
    8 and 9).  Not a moderator's abort, which stops a game without a result."""

    match: Match               # the match as the ending change was computed from
    state: rules.GameState     # its rules state at the end
    points: list[int]          # rating points per seat (RULES.md 8, 9, 11)
    goats: tuple[int, ...]
    at: datetime               # when it ended
    aborted: bool              # interrupted before its first round ended: no rating records


@dataclass(frozen=True)
class GameStarting:
    """A full table is about to be dealt its first round (games.play.service.start, inside
    the transaction that starts it).  A subscriber may say the game cannot count for the
    ratings: ratings does when the same people have played together too often (RULES.md
    10).  ``match`` is the waiting table, its seats taken."""

    match: Match
    at: datetime


# A starting handler answers why the game must be played unrated, or None.
StartingHandler = Callable[[GameStarting], "str | None"]
_game_starting: list[StartingHandler] = []


def on_game_starting(handler: StartingHandler) -> StartingHandler:
    """Ask ``handler(event)`` before every game starts from now on (once per handler)."""
    if handler not in _game_starting:
        _game_starting.append(handler)
    return handler


def game_starting(event: GameStarting) -> str | None:
    """Ask every subscriber (inside the starting transaction); the first reason given for
    playing the game unrated, or None."""
    reasons = [handler(event) for handler in list(_game_starting)]
    return next((reason for reason in reasons if reason), None)


Handler = Callable[[GameEnded], None]
_game_ended: list[Handler] = []


def on_game_ended(handler: Handler) -> Handler:
    """Call ``handler(event)`` at the end of every game from now on (once per handler)."""
    if handler not in _game_ended:
        _game_ended.append(handler)
    return handler


def game_ended(event: GameEnded) -> None:
    """Tell every subscriber (inside the ending change's transaction)."""
    for handler in list(_game_ended):
        handler(event)


def subscribers() -> list[Handler]:
    """Who hears of a game's end, in order (for the tests and the docs)."""
    return list(_game_ended)
