"""Following and blocking players.

- Following is one way: the players one follows are one's friends list (their presence
  and table: games.players.friends).
- A block is one way too: the blocked person cannot challenge the blocker nor see their
  chat lines, and the blocker no longer sees the blocked person's (games.room.chat).  A
  block removes the follows between the two, both ways, and their open challenges; while
  it stands neither can follow the other.

A block made or lifted is told (``blocks_changed``, with ``blocker_id`` and
``blocked_id``), so that the chats open for either person show or hide lines at once
(games.room subscribes).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils.translation import gettext as _

from accounts.models import Block, Challenge, Follow

# Sent inside the transaction that made or lifted a block: blocker_id, blocked_id.
blocks_changed = Signal()


class FriendsError(Exception):
    """A refusal, with a message for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _not_oneself(user, other) -> None:
    if user.pk == other.pk:
        raise FriendsError(_("That is your own account."))


def follow(follower, followed) -> bool:
    """``follower`` follows ``followed``; False if they already did."""
    _not_oneself(follower, followed)
    if blocked_between(follower, followed):
        raise FriendsError(_("You cannot follow this player."))
    _follow, created = Follow.objects.get_or_create(follower=follower, followed=followed)
    return created


def unfollow(follower, followed) -> bool:
    """``follower`` stops following ``followed``; False if they did not."""
    deleted, _rows = Follow.objects.filter(follower=follower, followed=followed).delete()
    return bool(deleted)


@transaction.atomic
def block(blocker, blocked) -> bool:
    """``blocker`` blocks ``blocked``; the follows both ways and the open challenges
    between them go.  False if the block was there already."""
    _not_oneself(blocker, blocked)
    _block, created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    Follow.objects.filter(Q(follower=blocker, followed=blocked)
                          | Q(follower=blocked, followed=blocker)).delete()
    Challenge.objects.filter(Q(challenger=blocker, challenged=blocked)
                             | Q(challenger=blocked, challenged=blocker)).delete()
    if created:
        blocks_changed.send(Block, blocker_id=blocker.pk, blocked_id=blocked.pk)
    return created


@transaction.atomic
def unblock(blocker, blocked) -> bool:
    """``blocker`` lifts their block of ``blocked``; False if there was none."""
    deleted, _rows = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    if deleted:
        blocks_changed.send(Block, blocker_id=blocker.pk, blocked_id=blocked.pk)
    return bool(deleted)


def is_blocked(blocker, blocked) -> bool:
    """Whether ``blocker`` has blocked ``blocked`` (one way)."""
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def blocked_between(user, other) -> bool:
    """Whether either of the two has blocked the other."""
    return Block.objects.filter(Q(blocker=user, blocked=other)
                                | Q(blocker=other, blocked=user)).exists()


def is_following(follower, followed) -> bool:
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def followed_ids(user) -> list[int]:
    """The ids of the players ``user`` follows, the earliest followed first."""
    return list(Follow.objects.filter(follower=user).order_by("created_at", "pk")
                .values_list("followed_id", flat=True))


def hidden_chat_authors(user_id: int) -> set[int]:
    """The people whose chat lines ``user_id`` is not shown: those they blocked, and
    those who blocked them."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)) \
        .values_list("blocker_id", "blocked_id")
    return {blocked if blocker == user_id else blocker for blocker, blocked in pairs}
