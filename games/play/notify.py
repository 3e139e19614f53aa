"""Telling connected clients that something changed, once the change is committed.

Group messages carry versions and public events only, never a hand: each process's hub
loads the match once and every consumer renders its own seat's view (DESIGN.md, a change
end to end, step 5).
"""

import asyncio
import logging
import threading
from contextlib import contextmanager
from typing import NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


_outbox = threading.local()


class Notice(NamedTuple):
    group: str
    message: dict
    # A change of a match as this process committed it (games.play.store.Committed):
    # its own rooms show it without reading it back (games/room/cache.py).  Never sent.
    committed: object = None


@contextmanager
def collected():
    """Collect the notices of what runs inside, instead of sending them, for a caller on
    an event loop to send after it (``send_collected``).

    Sending from a worker thread means waiting there until the event loop has sent: on
    channels' one database thread that wait would hold up every other consumer's work
    while the loop is busy.  Notices are still only collected once the transaction has
    committed.
    """
    previous = getattr(_outbox, "notices", None)
    _outbox.notices = notices = []
    try:
        yield notices
    finally:
        _outbox.notices = previous


# Seconds to wait before each further try of a notice that could not be sent.
RETRY_AFTER = (0.2, 0.5, 1.0)


async def _group_send(notice: Notice) -> None:
    """Send ``notice``, trying again for a moment if the channel layer fails.

    Just after Redis restarted, a pooled connection may still be the old server's: the
    first command on it fails, and the next one gets a new connection.  A notice lost
    then was lost for good -- the servers' resync after the restart (games/room/layerwatch.py)
    had already happened -- and its players waited for a turn they never saw.  A notice
    sent twice does no harm: rooms skip a version they have shown.  Never raises: a notice
    that cannot be sent at all is mended by that resync or the client's.
    """
    layer = get_channel_layer()
    for wait in (*RETRY_AFTER, None):
        try:
            await layer.group_send(notice.group, notice.message)
            return
        except Exception as error:
            if wait is None:
                log.exception("could not notify group %s", notice.group)
                return
            log.warning("could not notify group %s (%r); trying again", notice.group, error)
            await asyncio.sleep(wait)


async def send_collected(notices: list[Notice], shown_here: bool = False) -> None:
    """Send the collected notices.  ``shown_here``: this process's rooms have been shown
    the changes already (games/room/hub.py ``show_here``); the match's group is then told
    only if other processes can be in it -- with the in-memory layer there are none."""
    local = shown_here and isinstance(get_channel_layer(), InMemoryChannelLayer)
    for notice in notices:
        if local and notice.message.get("type") == "match.changed":
            continue
        await _group_send(notice)


def _send(notice: Notice) -> None:
    notices = getattr(_outbox, "notices", None)
    if notices is not None:
        notices.append(notice)
        return
    async_to_sync(_group_send)(notice)  # a lost notice never fails the move itself


def after_commit(group: str, message: dict, committed=None) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: _send(Notice(group, message, committed)))


def match_changed(match_id: int, version: int, events: list[dict], committed=None) -> None:
    """Tell the match's group it is at ``version``, and what happened (never a hand)."""
    after_commit(match_group(match_id), {"type": "match.changed", "match": match_id,
                                         "version": version, "events": public_events(events)},
                 committed)
    if any(event.get("type") == "round_started" for event in events):
        lobby_changed()  # the lobby lists the games being played with their round


def match_retimed(match_id: int, version: int) -> None:
    """Tell the match's group its turn was given a new deadline at the same ``version``
    (after the site's downtime, RULES.md 9): the rooms show the new countdown."""
    after_commit(match_group(match_id), {"type": "match.retimed", "match": match_id,
                                         "version": version})


def public_events(events: list[dict]) -> list[dict]:
    """The events as the match's group hears them: a round's end without the hands left
    in play (the rooms show those from the match's state)."""
    return [{k: v for k, v in e.items() if k != "hands"} for e in events]


def lobby_changed() -> None:
    after_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def go_to_match(user_ids, match_id: int) -> None:
    """Take these users' open lobby pages to the game room (their table is full)."""
    for user_id in user_ids:
        after_commit(user_group(user_id), {"type": "lobby.start", "match_id": match_id})
