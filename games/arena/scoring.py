"""An arena game's end (games.play.events, subscribed in games/apps.py): inside the
transaction that ends it, the game is marked ended and its players are free to be seated
again -- paused if they timed out (RULES.md 12) -- and the arena's pages are told after
commit.  The points themselves are never stored: the standings are computed from the
games' results (games/arena/results.py)."""

from __future__ import annotations

from django.db.models import Case, Value, When
from django.utils import timezone

from games import rules
from games.arena import groups
from games.models import OVER, Arena, ArenaGame, ArenaPlayer
from games.play.events import GameEnded


def on_game_ended(event: GameEnded) -> None:
    game = ArenaGame.objects.filter(match_id=event.match.pk).first()
    if game is None:
        return
    timed_out = None
    if event.state.interrupted_by is not None and event.state.interrupt_reason == rules.TIMEOUT:
        timed_out = event.match.seat_users.get(event.state.interrupted_by)
    release(game, event.at, timed_out)


def release(game: ArenaGame, now, timed_out: int | None = None) -> None:
    """The game is over: its players wait again (or stay paused); ``timed_out``, the user
    who timed out, is paused."""
    ArenaGame.objects.filter(pk=game.pk).update(ended=True)
    at_table = ArenaPlayer.objects.filter(arena_id=game.arena_id, table_id=game.match_id)
    if timed_out is not None:
        at_table.filter(user_id=timed_out).update(paused=True)
    at_table.update(table=None, waiting_since=Case(When(paused=True, then=Value(None)),
                                                  default=Value(now)))
    arena = Arena.objects.get(pk=game.arena_id)
    close_if_over(arena, now)
    groups.arena_changed(arena.pk)


def close_if_over(arena: Arena, now=None) -> bool:
    """RULES.md 12, the end: over once its time is up and its last game has ended."""
    now = now or timezone.now()
    if arena.over_at is not None or arena.cancelled_at is not None or now < arena.ends_at:
        return False
    running = ArenaGame.objects.filter(arena=arena, ended=False) \
        .exclude(match__status__in=OVER).exists()
    if running:
        return False
    updated = Arena.objects.filter(pk=arena.pk, over_at__isnull=True).update(over_at=now)
    if updated:
        arena.over_at = now
        ArenaPlayer.objects.filter(arena=arena).update(waiting_since=None)
        groups.arena_changed(arena.pk)
    return bool(updated)
