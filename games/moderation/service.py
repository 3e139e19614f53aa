"""What moderators do to games and people, each with a reason, in the moderation log.

Every function here (the chat's too: deleting a line, muting an account for a time)
runs in one transaction with the change it logs (accounts'
ModeratorAction: who, when, what, why) and tells connected clients after commit.  A
change of a game goes the one way all of them go (games.play.service); an annulment
locks the match, then its players, as ratings.services does.  The staff pages in
games/moderation/views.py and nothing else call these.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ModeratorAction, Player, User
from accounts.moderators import is_moderator
from games.lobby import service as lobby
from games.play import notify, service as services
from games.play.errors import PlayError
from games.models import RUNNING, ChatMessage, ChatSilence, Match, MatchStatus
from ratings import limits, services as ratings

REASON_MIN, REASON_MAX = 3, 500
ENDED = (MatchStatus.FINISHED, MatchStatus.INTERRUPTED)


class ModerationError(Exception):
    """A refusal, with a message for the moderator.  Nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _check(moderator, reason: str) -> str:
    if not (moderator.is_active and is_moderator(moderator)):
        raise ModerationError(_("Only moderators may do this."))
    reason = (reason or "").strip()
    if not REASON_MIN <= len(reason) <= REASON_MAX:
        raise ModerationError(_("Give a reason of 3 to 500 characters."))
    return reason


def _log(moderator, action: str, reason: str, *, match=None, person=None) -> ModeratorAction:
    return ModeratorAction.objects.create(moderator=moderator, action=action, reason=reason,
                                          match=match, person=person)


def _locked(match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise ModerationError(_("There is no such game."))
    return match


# -- games ------------------------------------------------------------------------------

@transaction.atomic
def abort_game(match_id: int, moderator, reason: str) -> Match:
    """Stop a waiting or running game for good: no result, no ratings.

    The change goes the one way every change of a game goes (games.play.service.abort):
    the log gets an "abort" move, the match becomes "aborted" and its clock stops; the
    moderation log's entry is written in the same transaction.
    """
    reason = _check(moderator, reason)
    try:
        version = services.abort(match_id)
    except PlayError as refusal:
        raise ModerationError(refusal.message) from None
    if version is None:
        raise ModerationError(_("Only a waiting or running game can be aborted."))
    match = Match.objects.get(pk=match_id)
    _log(moderator, ModeratorAction.Kind.ABORT, reason, match=match)
    notify.lobby_changed()
    return match


@transaction.atomic
def annul_game(match_id: int, moderator, reason: str) -> Match:
    """Take back a finished or interrupted rated game's rating points (ratings.services
    keeps its records and adds compensating ones); the game itself stays as it was."""
    reason = _check(moderator, reason)
    match = _locked(match_id)
    if match.status not in ENDED or not match.rated:
        raise ModerationError(_("Only a finished or interrupted rated game can be annulled."))
    if ModeratorAction.objects.filter(match=match, action=ModeratorAction.Kind.ANNUL).exists():
        raise ModerationError(_("This game is annulled already."))
    try:
        ratings.annul_game(match)
    except ratings.AnnulError:
        raise ModerationError(_("This game has no rating points to take back.")) from None
    _log(moderator, ModeratorAction.Kind.ANNUL, reason, match=match)
    return match


def annulment_of(match) -> ModeratorAction | None:
    return (ModeratorAction.objects.filter(match=match, action=ModeratorAction.Kind.ANNUL)
            .select_related("moderator").first())


# -- people -----------------------------------------------------------------------------

def _check_person(moderator, person) -> None:
    if person.pk == moderator.pk:
        raise ModerationError(_("You cannot close or reopen your own account."))
    if (person.is_staff or person.is_superuser) and not moderator.is_superuser:
        raise ModerationError(_("Only an administrator may close or reopen a staff account."))


@transaction.atomic
def deactivate_player(person: User, moderator, reason: str) -> None:
    """Close an account: the person can no longer log in or play and leaves the ladders.

    A game they are playing ends as if they had left it (RULES.md 9: they get nothing, the
    others get their points); a request they wait at loses them.  Their history stays.
    """
    reason = _check(moderator, reason)
    _check_person(moderator, person)
    if not User.objects.filter(pk=person.pk, is_active=True).exists():
        raise ModerationError(_("This account is closed already."))
    # The game first: leaving locks the match, then the players (services' order).
    for match in Match.objects.filter(seats__user=person, status__in=RUNNING):
        try:
            if match.status == MatchStatus.PLAYING:
                services.leave_game(match.pk, person)
            else:
                lobby.leave_request(person, match.pk)
        except PlayError:
            pass  # it ended meanwhile: nothing left to leave
    User.objects.filter(pk=person.pk).update(is_active=False)
    person.is_active = False
    ratings.set_listed(Player.objects.get(user=person), False)
    _log(moderator, ModeratorAction.Kind.DEACTIVATE, reason, person=person)


@transaction.atomic
def reactivate_player(person: User, moderator, reason: str) -> None:
    """Reopen a closed account: the person may log in and play again, and is back on the
    ladders with everything they had."""
    reason = _check(moderator, reason)
    _check_person(moderator, person)
    if not User.objects.filter(pk=person.pk, is_active=False).exists():
        raise ModerationError(_("This account is open."))
    User.objects.filter(pk=person.pk).update(is_active=True)
    person.is_active = True
    ratings.set_listed(Player.objects.get(user=person), True)
    _log(moderator, ModeratorAction.Kind.REACTIVATE, reason, person=person)


@transaction.atomic
def lift_bar(person: User, moderator, reason: str) -> None:
    """Let a leaver sit down at rated tables again before their bar ends (RULES.md 10)."""
    reason = _check(moderator, reason)
    bar = limits.bar_of(person)
    if bar is None or not limits.lift(bar, moderator):
        raise ModerationError(_("This player is not barred from rated tables."))
    _log(moderator, ModeratorAction.Kind.LIFT_BAR, reason, person=person)


# -- chat -------------------------------------------------------------------------------

CHAT_MUTE_HOURS_MAX = 24 * 30


@transaction.atomic
def delete_chat_message(message_id: int, moderator, reason: str) -> ChatMessage:
    """Hide a chat line from everyone; it stays, deleted, for the log (whose entry names
    its game and its author).  The rooms showing it drop it after commit."""
    reason = _check(moderator, reason)
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise ModerationError(_("There is no such message."))
    if message.deleted_at is not None:
        raise ModerationError(_("This message is deleted already."))
    message.deleted_at = timezone.now()
    message.save(update_fields=["deleted_at"])
    _log(moderator, ModeratorAction.Kind.CHAT_DELETE, reason, match=message.match,
         person=message.author)
    notify.after_commit(notify.match_group(message.match_id),
                        {"type": "chat.deleted", "match": message.match_id, "message": message.pk})
    return message


@transaction.atomic
def mute_in_chat(person: User, moderator, reason: str, hours: int) -> ChatSilence:
    """Keep an account out of every chat for ``hours``: its next line is refused, saying
    until when (games/room/chat.py)."""
    reason = _check(moderator, reason)
    if person.pk == moderator.pk:
        raise ModerationError(_("You cannot mute yourself."))
    if type(hours) is not int or not 1 <= hours <= CHAT_MUTE_HOURS_MAX:
        raise ModerationError(_("Mute for 1 to 720 hours."))
    silence = ChatSilence.objects.create(person=person,
                                         until=timezone.now() + timedelta(hours=hours))
    _log(moderator, ModeratorAction.Kind.CHAT_MUTE, reason, person=person)
    return silence


def muted_until(person: User):
    """Until when ``person`` is muted in chat, if that is still ahead."""
    silence = (ChatSilence.objects.filter(person=person, until__gt=timezone.now())
               .order_by("-until").first())
    return silence.until if silence else None


def reported_chat():
    """Reported lines not yet deleted, the most reported first."""
    return (ChatMessage.objects.filter(reports__isnull=False, deleted_at__isnull=True)
            .annotate(report_count=Count("reports")).select_related("author", "match")
            .order_by("-report_count", "-created_at"))
