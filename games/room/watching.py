"""How many are watching a game: its spectators' sockets, counted across every server
process in the shared cache (Redis when scaled out, the one process's memory in the
embedded setup), and shown in each of the match's rooms.

A spectator's room adds itself on connecting and takes itself off when it ends; after a
change the new count goes to the match's group, whose fan-out in each process shows it
to that process's rooms (games/live/fanout.py).  A process killed outright cannot take its
spectators off: their count stays too high until the cache forgets it (``KEPT``).
"""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string

from games.play import notify

KEPT = 6 * 60 * 60  # seconds a count is kept after its last change


def _key(match_id: int) -> str:
    return f"kozel:watching:{match_id}"


async def count(match_id: int) -> int:
    return max(0, int(await cache.aget(_key(match_id), 0)))


async def _changed(match_id: int, by: int) -> int:
    key = _key(match_id)
    await cache.aadd(key, 0, KEPT)
    try:
        now = await (cache.aincr(key) if by > 0 else cache.adecr(key))
    except ValueError:  # forgotten meanwhile: start again from nothing
        await cache.aset(key, max(0, by), KEPT)
        now = max(0, by)
    await cache.atouch(key, KEPT)
    now = max(0, now)
    await notify.send_collected([notify.notice(
        notify.match_group(match_id), {"type": "room.watching", "match": match_id, "count": now})])
    return now


async def arrived(match_id: int) -> int:
    return await _changed(match_id, 1)


async def left(match_id: int) -> int:
    return await _changed(match_id, -1)


def html(count_: int) -> str:
    """The room's line of how many watch (an out-of-band swap of ``#room-watching``)."""
    return render_to_string("games/_watching.html", {"count": max(0, int(count_)), "oob": True})
