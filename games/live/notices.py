"""Notices to the sockets: sent to a group on the channel layer once the change they tell
of is committed, never before (a socket that hears of a version must be able to load it).

A notice names its group in the message itself (``"group"``), so that each process's
fan-out (games/live/fanout.py), the one member of its sockets' groups, hands it to the
sockets of that group.  Notices carry what anyone may know: versions, public events,
never a hand.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from contextlib import contextmanager
from typing import NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

_outbox = threading.local()

# Seconds to wait before each further try of a notice that could not be sent.
RETRY_AFTER = (0.2, 0.5, 1.0)


class Notice(NamedTuple):
    group: str
    message: dict
    # A change as this process committed it (games.play.store.Committed): the sockets
    # here show it without reading it back (games/room/cache.py).  Never sent.
    committed: object = None


@contextmanager
def collected():
    """Collect the notices of what runs inside, instead of sending them, for a caller on
    an event loop to send after it (``send_collected``).

    Sending from a worker thread means waiting there until the event loop has sent: on
    channels' one database thread that wait would hold up every other socket's work
    while the loop is busy.  Notices are still only collected once the transaction has
    committed.
    """
    previous = getattr(_outbox, "notices", None)
    _outbox.notices = notices = []
    try:
        yield notices
    finally:
        _outbox.notices = previous


def notice(group: str, message: dict, committed=None) -> Notice:
    """A notice of ``message`` to ``group``, the message naming its group."""
    return Notice(group, dict(message, group=group), committed)


def after_commit(group: str, message: dict, committed=None) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: _send(notice(group, message, committed)))


def _send(notice: Notice) -> None:
    notices = getattr(_outbox, "notices", None)
    if notices is not None:
        notices.append(notice)
        return
    async_to_sync(group_send)(notice)  # a lost notice never fails the change itself


async def group_send(notice: Notice) -> None:
    """Send ``notice``, trying again for a moment if the channel layer fails.

    Just after Redis restarted, a pooled connection may still be the old server's: the
    first command on it fails, and the next one gets a new connection.  A notice sent
    twice does no harm: sockets skip what they have shown.  Never raises: a notice that
    cannot be sent at all is made good by the pages' heartbeat (games/live/base.py).
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
    """Send the collected notices.  ``shown_here``: this process's sockets have been
    shown its versioned notices already (games/live/fanout.py ``show_here``); those are
    then sent only if other processes can hear them -- with the in-memory layer there are
    none."""
    local = shown_here and isinstance(get_channel_layer(), InMemoryChannelLayer)
    for notice in notices:
        if local and notice.message.get("type") in SHOWN_HERE:
            continue
        await group_send(notice)


# The notices a socket can tell it has shown already (a new version, which it compares
# with its own): these are shown to the committing process's sockets at once, and may
# reach them twice.
SHOWN_HERE = ("match.changed",)
