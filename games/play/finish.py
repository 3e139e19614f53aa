"""The end of a game: its status and result and the rating points it brings (RULES.md 8,
9 and 11), written with the change that ends it (games.play.store), which then tells the
subscribers of the end (games.play.events: ratings, one more game, arenas)."""

from __future__ import annotations

from django.utils import timezone

from games import rules
from games.models import MatchStatus
from games.play.events import GameEnded
from ratings.formulas import finished_game_points, interrupted_game_points


def ending_of(match, state: rules.GameState) -> tuple[dict, GameEnded]:
    """The match columns of a game whose rules state is over, and the event of its end."""
    if not state.variant.can_be_rated:
        # Sea goat (RULES.md 13): never rated, never aborted; it has winners, not goats.
        status = MatchStatus.FINISHED if state.phase == rules.FINISHED else MatchStatus.INTERRUPTED
        points = [0] * state.seats
    elif state.phase == rules.FINISHED:
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
                   "rating_points": points if state.variant.can_be_rated else None},
    }
    if state.variant.has_writing:
        fields["result"].update(winners=list(state.winners), how=state.how)
    return fields, GameEnded(match, state, points, tuple(state.goats), now,
                             aborted=state.aborted)
