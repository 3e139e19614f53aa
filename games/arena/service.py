"""What a person does in an arena (RULES.md 12): create one, join it, pause and come back,
give the client seed of the table they were seated at; and a moderator's cancellation.

A player's seating state is their ArenaPlayer row: ``table`` (at one of its tables),
``paused``, or waiting since ``waiting_since``.  The seating sweep (games/arena/seating.py)
takes waiting players with a compare-and-swap on those columns; every change here is a
conditional update as well, so the two never both win.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ModeratorAction
from accounts.moderators import is_moderator
from games.arena import groups, limits
from games.models import Arena, ArenaGame, ArenaPlayer, Match, MatchStatus
from games.play import seeds
from games.play.errors import PlayError

REASON_MIN, REASON_MAX = 3, 500


def create(user, **settings) -> Arena:
    """A new arena with RULES.md 12's settings (checked by games/arena/forms.py)."""
    arena = Arena.objects.create(created_by=user, **settings)
    return arena


def entry(arena: Arena, user) -> ArenaPlayer | None:
    if not user.is_authenticated:
        return None
    return ArenaPlayer.objects.filter(arena=arena, user=user).first()


@transaction.atomic
def join(arena: Arena, user) -> ArenaPlayer:
    """``user`` joins (from its announcement until it ends), or comes back if paused."""
    if not user.is_authenticated:
        raise PlayError(_("Log in to join the arena."), "login")
    phase = arena.phase()
    if phase not in ("upcoming", "running"):
        raise PlayError(_("This arena is over: nobody joins it now."), "over")
    player = entry(arena, user)
    if player is None:
        refusal = limits.refusal_to_join(arena, user)
        if refusal:
            raise PlayError(refusal, "barred")
        player, created = ArenaPlayer.objects.get_or_create(
            arena=arena, user=user, defaults={"waiting_since": timezone.now()})
        if not created:
            come_back(player)
    else:
        come_back(player)
    groups.arena_changed(arena.pk)
    return player


def come_back(player: ArenaPlayer) -> None:
    ArenaPlayer.objects.filter(pk=player.pk, paused=True).update(
        paused=False, waiting_since=timezone.now())
    player.refresh_from_db()


@transaction.atomic
def pause(arena: Arena, user) -> ArenaPlayer:
    """``user`` is not seated again until they come back; their points stay.  A player at
    a table finishes its game first (they are paused once it ends)."""
    player = entry(arena, user)
    if player is None:
        raise PlayError(_("You have not joined this arena."), "not-joined")
    ArenaPlayer.objects.filter(pk=player.pk).update(paused=True, waiting_since=None)
    player.refresh_from_db()
    groups.arena_changed(arena.pk)
    return player


@transaction.atomic
def give_seed(match_id: int, user, client_seed: object) -> ArenaGame:
    """The client seed ``user``'s browser gave for their seat at an arena table, after
    it was shown the table's commitment (RECORD.md kozel-fair/1); the game starts once
    every seat gave one (games/arena/seating.py ``start_if_ready``)."""
    table = ArenaGame.objects.select_for_update().filter(match_id=match_id).first()
    if table is None:
        raise PlayError(_("There is no such arena table."), "gone")
    match = table.match
    seat = next((n for n, u in match.seat_users.items() if u == getattr(user, "pk", None)),
                None)
    if seat is None:
        raise PlayError(_("You do not sit at this table."), "not-seated")
    if match.status != MatchStatus.WAITING:
        raise PlayError(_("The game has started already."), "started")
    if str(seat) in table.seeds:
        raise PlayError(_("Your client seed is in already."), "answered")
    if not isinstance(client_seed, str) or not client_seed:
        raise PlayError(seeds.invalid_client_seed_message(), "invalid")
    table.seeds[str(seat)] = seeds.client_seed(client_seed)
    table.save(update_fields=["seeds"])
    return table


def check_reason(moderator, reason: str) -> str:
    if not (moderator.is_active and is_moderator(moderator)):
        raise PlayError(_("Only moderators may do this."), "forbidden")
    reason = (reason or "").strip()
    if not REASON_MIN <= len(reason) <= REASON_MAX:
        raise PlayError(_("Give a reason of 3 to 500 characters."), "invalid")
    return reason


@transaction.atomic
def cancel(arena_id: int, moderator, reason: str) -> Arena:
    """A moderator cancels an arena, with a reason in the moderation log: no table is
    seated from now on; games being played go on as ordinary games and still count for
    its players' ratings, not for the arena."""
    reason = check_reason(moderator, reason)
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        raise PlayError(_("There is no such arena."), "gone")
    if arena.phase() in ("over", "cancelled"):
        raise PlayError(_("Only an arena that is not over can be cancelled."), "over")
    arena.cancelled_at = timezone.now()
    arena.cancel_reason = reason
    arena.save(update_fields=["cancelled_at", "cancel_reason"])
    ModeratorAction.objects.create(moderator=moderator, action=ModeratorAction.Kind.ARENA_CANCEL,
                                   reason=reason, arena=arena)
    # Tables still collecting seeds are never dealt from: they go with it.
    waiting = list(ArenaGame.objects.filter(arena=arena, match__status=MatchStatus.WAITING)
                   .values_list("match_id", flat=True))
    ArenaPlayer.objects.filter(arena=arena).update(table=None, waiting_since=None)
    Match.objects.filter(pk__in=waiting, status=MatchStatus.WAITING).delete()
    groups.arena_changed(arena.pk)
    return arena
