"""Telling connected clients that something changed, once the change is committed.

Group messages carry versions and public events only, never a hand: every consumer reads
the match itself and renders its own seat's view (DESIGN.md, a move end to end, step 4).
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict) -> None:
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:  # a lost notice is mended by the client's resync, never by failing a move
        log.exception("could not notify group %s", group)


def after_commit(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: _send(group, message))


def match_changed(match_id: int, version: int, events: list[dict]) -> None:
    public = [{k: v for k, v in e.items() if k != "hands"} for e in events]
    after_commit(match_group(match_id), {"type": "match.changed", "version": version,
                                         "events": public})


def lobby_changed() -> None:
    after_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def go_to_match(user_ids, match_id: int) -> None:
    """Take these users' open lobby pages to the game room (their table is full)."""
    for user_id in user_ids:
        after_commit(user_group(user_id), {"type": "lobby.start", "match_id": match_id})
