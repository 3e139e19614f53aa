"""The end of a game: its status and result, the rating points of a rated game (RULES.md
8 and 9) and the offer of one more game (games.lobby.rematch), written with the change
that ends it (games.play.store)."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from django.utils import timezone

from games import rules
from games.models import Match, MatchStatus
from games.play import notify
from ratings.formulas import finished_game_points, interrupted_game_points


class Ending(NamedTuple):
    points: list[int]      # rating points per seat
    goats: tuple[int, ...]
    at: datetime | None = None  # when the game ended (the rating records' time)
    aborted: bool = False  # interrupted in the first round: no rating records (RULES.md 9)


def ending_of(state: rules.GameState) -> tuple[dict, Ending]:
    """The match columns of a game whose rules state is over, and its ending."""
    if state.phase == rules.FINISHED:
        status, points = MatchStatus.FINISHED, finished_game_points(state.scores, state.goats)
    elif state.aborted:
        # Against rating farming (RULES.md 9): before a round is scored nobody has played
        # for anything, so a leave or timeout then gives nobody points.  The result keeps
        # who interrupted and why, which tells it from a moderator's abort (no result).
        status, points = MatchStatus.ABORTED, [0] * state.seats
    else:
        status = MatchStatus.INTERRUPTED
        points = interrupted_game_points(state.scores, state.interrupted_by, state.pairs)
    now = timezone.now()
    fields = {
        "status": status, "ended_at": now, "deadline": None,
        "result": {"goats": list(state.goats), "interrupted_by": state.interrupted_by,
                   "reason": state.interrupt_reason, "scores": list(state.scores),
                   "rating_points": points},
    }
    return fields, Ending(points, tuple(state.goats), now, aborted=state.aborted)


def record(match: Match, ending: Ending) -> None:
    """Inside the change's transaction: the rating records of a rated game (an unrated
    or aborted one has none), one more game offered to its people, and the lobby told
    after commit (the table is free again)."""
    from games.lobby import rematch
    from ratings.services import record_game

    if not ending.aborted:
        record_game(match, ending.points, ending.goats, ended_at=ending.at)
    rematch.offer(match)
    notify.lobby_changed()
