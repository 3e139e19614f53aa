"""Caps on WebSockets across sockets and server processes, kept in Django's cache (Redis,
shared by every process, when REDIS_URL is set; the one process's memory otherwise).

- A rate of messages and new connections for one account over all its sockets
  (KOZEL_WS_ACCOUNT_RATE, fixed windows): the per-socket flood limit
  (KOZEL_WS_FLOOD) alone starts afresh with every reconnection, and every connection
  costs a full view from the database.
- Open sockets of one account to one game (KOZEL_WS_SOCKETS_PER_GAME), and of one client
  address to the lobby (KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS).  Each open socket holds one
  of its owner's numbered slots, a cache key taken with an atomic ``add``; the socket
  gives it back when it closes and renews it while it lives, and a slot whose process
  died expires after KOZEL_WS_SLOT_TTL seconds.

An anonymous visitor is counted by client address (kozel_site.clientaddress).  If the
cache cannot be reached, sockets are let through: the per-socket limits still hold, and a
game must not stop because Redis flapped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

from games.live.perloop import PerLoop
from kozel_site.clientaddress import scope_address
from kozel_site.env import rate_parts

log = logging.getLogger(__name__)

REFUSAL_LOG_SECONDS = 60  # one log line per owner and kind of refusal in this long


def _account(user_id: int) -> str:
    return f"user:{user_id}"


def owner(scope) -> str:
    """Whom a socket counts against: its account, or an anonymous visitor's address."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return _account(user.pk)
    return f"address:{scope_address(scope)}"


def _in_memory() -> bool:
    """Whether the cache is the process's own memory (the embedded setup)."""
    return isinstance(caches["default"], LocMemCache)


def cache_call(function):
    """``function`` as an awaitable.  Redis's calls block (a round trip): they run on a
    worker thread, not the loop, nor the one database thread the moves queue on.  The
    embedded setup's cache is the process's own memory, whose calls return at once: they
    run on the loop, sparing every message a trip to a thread and back."""
    off = sync_to_async(function, thread_sensitive=False)

    async def call(*args):
        if _in_memory():
            return function(*args)
        return await off(*args)
    return call


async def over_account_rate(who: str) -> bool:
    """Counts one message or connection of ``who``; True once over KOZEL_WS_ACCOUNT_RATE.

    Every message of every socket passes here, so the count is one call from the event
    loop: in Redis one round trip (the count and its expiry together) on the loop's own
    client, rather than django-ratelimit's two on a worker thread; in the process's memory
    a call that returns at once.  Fixed windows, as django-ratelimit counts them."""
    limit, period = rate_parts(settings.KOZEL_WS_ACCOUNT_RATE)
    key = f"ws-rate:{who}:{int(time.time() // period)}"
    try:
        if _in_memory():
            cache.add(key, 0, period + 1)
            count = cache.incr(key)
        else:
            key = cache.make_key(key)
            async with _redis().pipeline(transaction=False) as pipe:
                count, _expires = await pipe.incr(key).expire(key, period + 1).execute()
    except Exception as error:  # the cache unreachable: let it through (module docstring)
        log.warning("socket caps: the cache is unavailable: %s", error)
        return False
    return count > limit


def _redis_client() -> redis.asyncio.Redis:
    return redis.asyncio.Redis.from_url(settings.CACHES["default"]["LOCATION"])


_redis = PerLoop(_redis_client).get  # a client's connections belong to one event loop


def _log_refusal_once(what: str, who: str, detail: str) -> None:
    try:
        first = cache.add(f"ws-refusal-logged:{what}:{who}", 1, REFUSAL_LOG_SECONDS)
    except Exception:
        first = True
    if first:
        log.warning("socket refused (%s) for %s: %s", what, who, detail)


async def log_refusal_once(what: str, who: str, detail: str) -> None:
    """At most one log line per owner and kind of refusal a minute, however many sockets."""
    await cache_call(_log_refusal_once)(what, who, detail)


class Slot:
    """One open socket's place among its owner's ``cap`` places under ``name``."""

    def __init__(self, name: str, cap: int) -> None:
        self.name, self.cap = name, cap
        self.token = secrets.token_hex(8)
        self.key: str | None = None
        self.renewing: asyncio.Task | None = None

    def _take(self) -> bool:
        ttl = settings.KOZEL_WS_SLOT_TTL
        try:
            for number in range(self.cap):
                key = _slot_key(self.name, number)
                if cache.add(key, self.token, ttl):
                    self.key = key
                    return True
        except Exception as error:  # the cache unreachable: let it through
            log.warning("socket caps: the cache is unavailable: %s", error)
            return True
        return False

    def _renew(self) -> None:
        if self.key is None:
            return
        ttl = settings.KOZEL_WS_SLOT_TTL
        try:
            if cache.get(self.key) == self.token:
                cache.touch(self.key, ttl)
            else:  # it expired meanwhile (a long stall): take it again if it is free
                cache.add(self.key, self.token, ttl)
        except Exception as error:
            log.warning("socket caps: the cache is unavailable: %s", error)

    def _give_back(self) -> None:
        key, self.key = self.key, None
        if key is None:
            return
        try:
            if cache.get(key) == self.token:  # never another socket's slot after expiry
                cache.delete(key)
        except Exception as error:  # it expires by itself
            log.warning("socket caps: the cache is unavailable: %s", error)

    async def take(self) -> bool:
        """True if a place was free (and is now this socket's, renewed while it lives)."""
        if not await cache_call(self._take)():
            return False
        self.renewing = asyncio.ensure_future(self._keep())
        return True

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(settings.KOZEL_WS_SLOT_TTL / 3)
            await cache_call(self._renew)()

    async def give_back(self) -> None:
        """Once the socket has closed; again does nothing."""
        renewing, self.renewing = self.renewing, None
        if renewing is not None:
            renewing.cancel()
        if self.key is not None:
            await cache_call(self._give_back)()


def _slot_key(name: str, number: int) -> str:
    return f"ws-slot:{name}:{number}"


def _game_slots(who: str, match_id: int) -> str:
    return f"game:{match_id}:{who}"


def game_slot(who: str, match_id: int) -> Slot:
    return Slot(_game_slots(who, match_id), settings.KOZEL_WS_SOCKETS_PER_GAME)


def at_game_rooms(people) -> set[tuple[int, int]] | None:
    """Which of these (match id, user id) have a socket open to the match's room now, in
    any server process: those holding one of their slots there.  How the offer of one
    more game tells who is still at the table (games/lobby/rematch.py).  None if the
    cache cannot be reached."""
    cap = settings.KOZEL_WS_SOCKETS_PER_GAME
    keys = {_slot_key(_game_slots(_account(user_id), match_id), number): (match_id, user_id)
            for match_id, user_id in people for number in range(cap)}
    try:
        found = cache.get_many(list(keys))
    except Exception as error:
        log.warning("socket caps: the cache is unavailable: %s", error)
        return None
    return {keys[key] for key in found}


def lobby_slot(address: str) -> Slot:
    return Slot(f"lobby:{address}", settings.KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS)


def arena_slot(who: str, arena_id: int) -> Slot:
    """An account's (or a visitor's) sockets to one arena's page: as many as to a game."""
    return Slot(f"arena:{arena_id}:{who}", settings.KOZEL_WS_SOCKETS_PER_GAME)
