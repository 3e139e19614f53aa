"""How many are watching a game: its spectators' sockets, counted across every server
process in the shared cache (Redis when scaled out, the one process's memory in the
embedded setup), and shown in each of the match's rooms.

A spectator's room adds itself on connecting and takes itself off when it ends; after a
change the new count goes to the match's group, whose fan-out in each process shows it
to that process's rooms (games/live/fanout.py).  A process killed outright cannot take its
spectators off: their count stays too high until the cache forgets it (``KEPT``).

Who watches: each process keeps its own spectators of a
match in memory -- the logins of those logged in, and how many sockets are anonymous --
and writes that one entry to the shared cache whenever it changes, under a key of its own
(no other process writes it, so no change is lost to another's).  The match's list of
processes with spectators is one more key.  The list is read only when someone opens it
(``watchers``: two cache reads, no database query), never with a frame.
"""

from __future__ import annotations

import uuid
from collections import Counter

from django.core.cache import cache
from django.template.loader import render_to_string

from games.play import notify

KEPT = 6 * 60 * 60  # seconds a count is kept after its last change
PROCESS = uuid.uuid4().hex[:12]  # this process's own key for the spectators it holds

# This process's spectators: match -> Counter of login -> sockets ("" for the anonymous).
_here: dict[int, Counter] = {}


def _key(match_id: int) -> str:
    return f"kozel:watching:{match_id}"


def _names_key(match_id: int, process: str) -> str:
    return f"kozel:watchers:{match_id}:{process}"


def _processes_key(match_id: int) -> str:
    return f"kozel:watchers:{match_id}"


async def _note(match_id: int, name: str, by: int) -> None:
    """This process's spectators of ``match_id`` changed by ``by`` sockets of ``name``
    ("" anonymous): its entry in the shared cache written again, and the process named in
    the match's list (added again if the cache forgot it, or another process's write of
    the list crossed this one's)."""
    here = _here.setdefault(match_id, Counter())
    here[name] += by
    if here[name] <= 0:
        del here[name]
    if not here:
        del _here[match_id]
    await cache.aset(_names_key(match_id, PROCESS), dict(here), KEPT)
    processes = await cache.aget(_processes_key(match_id)) or []
    if PROCESS not in processes:
        await cache.aset(_processes_key(match_id), [*processes, PROCESS][-64:], KEPT)


async def watchers(match_id: int) -> dict:
    """Who watches ``match_id`` across the processes: the logins of logged-in spectators
    (each once, however many pages they have open), sorted, and how many anonymous
    sockets watch (``guests``)."""
    processes = await cache.aget(_processes_key(match_id)) or []
    entries = await cache.aget_many([_names_key(match_id, p) for p in processes])
    names: set[str] = set()
    guests = 0
    for entry in entries.values():
        for name, sockets in entry.items():
            if sockets <= 0:
                continue
            if name:
                names.add(name)
            else:
                guests += sockets
    return {"names": sorted(names, key=str.casefold), "guests": guests}


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


async def arrived(match_id: int, name: str = "") -> int:
    """A spectator's socket opened: ``name``, their login ("" anonymous)."""
    await _note(match_id, name, 1)
    return await _changed(match_id, 1)


async def left(match_id: int, name: str = "") -> int:
    await _note(match_id, name, -1)
    return await _changed(match_id, -1)


def html(count_: int, match_id: int) -> str:
    """The room's line of how many watch (an out-of-band swap of ``#room-watching``): a
    button that opens the list of who watches (``list_html``)."""
    return render_to_string("games/_watching.html", {"count": max(0, int(count_)), "oob": True,
                                                     "match_id": match_id})


def list_html(seen: dict) -> str:
    """Who watches (``watchers``): the logged-in by login, the anonymous counted."""
    return render_to_string("games/_watchers.html", seen)
