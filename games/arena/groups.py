"""The arena's notices (sent after commit, games/live/notices.py): its page's group, and
each player's own group (where their pages hear that they were seated)."""

from __future__ import annotations

from django.db.models import F

from games.models import Arena
from games.play import notify

def arena_group(arena_id: int) -> str:
    return f"arena-{arena_id}"


def arena_changed(arena_id: int) -> int:
    """Its standings, tables or waiting players changed: its pages show it anew.  Its
    new version."""
    Arena.objects.filter(pk=arena_id).update(version=F("version") + 1)
    # The version it now has (the row is this transaction's until it commits): a page's
    # socket that has shown it skips the notice (games/arena/consumer.py).
    version = Arena.objects.filter(pk=arena_id).values_list("version", flat=True).first()
    notify.after_commit(arena_group(arena_id), {"type": "arena.changed", "arena": arena_id,
                                                "version": version})
    return version


def seated(arena_id: int, user_ids, match_id: int, version: int) -> None:
    """These players were seated at ``match_id`` (the arena's ``version`` shows it): their
    arena pages show its commitment, give their client seeds and go to the game."""
    for user_id in user_ids:
        notify.after_commit(notify.user_group(user_id),
                            {"type": "arena.seated", "arena": arena_id, "match_id": match_id,
                             "version": version})
