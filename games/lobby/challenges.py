"""A direct challenge: a private table with the challenger's settings
(their last request's terms, games.lobby.remembered), offered to one person, whose lobby
and friends pages show it live (their user group hears "lobby.changed"); one click
accepts it (a seat at the table, through the private link's own check: the table starts
through games.play.service.start when full) or declines it.

A person the challenged one blocked, or who blocked them, cannot challenge them
(accounts.friends).  A challenge is open while its table waits; getting up from the table
withdraws it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from accounts import friends
from accounts.models import Block, Challenge
from games.lobby import remembered, service
from games.lobby.forms import RequestForm
from games.models import Match, MatchStatus
from games.play import notify
from games.play.errors import PlayError


def _tell(*user_ids) -> None:
    """These people's lobby and friends pages show their challenges anew."""
    for user_id in user_ids:
        notify.after_commit(notify.user_group(user_id), {"type": "lobby.changed"})


def terms_of(user) -> dict:
    """The terms of ``user``'s challenge: their request form's last choices where the
    form still takes them, else the form's defaults -- but for two players: a challenge is
    first of all a game of two.  Always a private table."""
    defaults = {name: field.initial for name, field in RequestForm.base_fields.items()
                if field.initial is not None}
    defaults["players"] = 2
    form = RequestForm({**defaults, **remembered.initial(user, "request", RequestForm)})
    if not form.is_valid():
        form = RequestForm(defaults)
        form.is_valid()
    terms = {key: value for key, value in form.cleaned_data.items()
             if key not in remembered.NOT_REMEMBERED}
    terms["private"] = True
    return terms


@transaction.atomic
def challenge(user, person, *, address: str | None = None,
              client_seed: str | None = None) -> Challenge:
    """``user`` opens a private table with their settings and challenges ``person`` to it."""
    if person.pk == user.pk:
        raise PlayError(_("You cannot challenge yourself."), "invalid")
    if not person.is_active or friends.blocked_between(user, person):
        raise PlayError(_("You cannot challenge this player."), "blocked")
    match = service.create_request(user, address=address, client_seed=client_seed,
                                   **terms_of(user))
    made = Challenge.objects.create(challenger=user, challenged=person, match=match)
    _tell(person.pk, user.pk)
    return made


def open_for(user):
    """The open challenges to ``user``, the latest first (none from people blocked
    either way: a block removes them, this only makes sure)."""
    return _open().filter(challenged=user).select_related("challenger")


def made_by(user):
    """The open challenges ``user`` made."""
    return _open().filter(challenger=user).select_related("challenged")


def open_of(user) -> tuple[list[Challenge], list[Challenge]]:
    """The open challenges to ``user`` and those they made, read in one query (the
    lobby's list is rendered for every page on every change)."""
    both = list(_open().filter(Q(challenged=user) | Q(challenger=user))
                .select_related("challenger", "challenged"))
    return ([made for made in both if made.challenged_id == user.pk],
            [made for made in both if made.challenger_id == user.pk])


def _open():
    """Challenges whose table still waits, between people with no block either way."""
    blocked = Block.objects.filter(Q(blocker=OuterRef("challenger"), blocked=OuterRef("challenged"))
                                   | Q(blocker=OuterRef("challenged"), blocked=OuterRef("challenger")))
    return (Challenge.objects.filter(match__status=MatchStatus.WAITING)
            .exclude(Exists(blocked)).select_related("match").order_by("-created_at", "-pk"))


def _open_challenge(user, challenge_id: int) -> Challenge:
    made = (Challenge.objects.select_related("match", "challenger")
            .filter(pk=challenge_id, challenged=user).first())
    if made is None or made.match.status != MatchStatus.WAITING:
        raise PlayError(_("This challenge is no longer open."), "gone")
    return made


@transaction.atomic
def accept(user, challenge_id: int, *, address: str | None = None,
           client_seed: str | None = None) -> Match:
    """``user`` takes a seat at the table they were challenged to (the game starts when
    it is full)."""
    made = _open_challenge(user, challenge_id)
    if friends.blocked_between(user, made.challenger):
        raise PlayError(_("This challenge is no longer open."), "gone")
    match = service.join_request(user, made.match_id, invite_token=made.match.invite_token,
                                 address=address, client_seed=client_seed)
    Challenge.objects.filter(pk=made.pk).delete()
    _tell(made.challenger_id, user.pk)
    return match


@transaction.atomic
def decline(user, challenge_id: int) -> None:
    """``user`` says no; a table at which only its challenger sits closes."""
    made = _open_challenge(user, challenge_id)
    match = made.match
    made.delete()
    people = list(match.seats.values_list("user_id", flat=True))
    if people == [made.challenger_id] and not match.challenges.exists():
        service.leave_request(made.challenger, match.pk)
    _tell(made.challenger_id, user.pk)
