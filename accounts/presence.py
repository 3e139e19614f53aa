"""Who is online now: a person is seen whenever a page of theirs with a socket connects
or beats (games.live.base), and counts as online for ``ONLINE_SECONDS`` after.

Kept in Django's cache (Redis, shared by every process, when REDIS_URL is set; the one
process's memory in the embedded setup, where that process is the whole site): a mark
per person that expires by itself, so nothing needs clearing when a page goes away.
"""

from __future__ import annotations

from django.core.cache import cache

ONLINE_SECONDS = 90
# A socket marks its person at most this often (each mark is one cache write).
TOUCH_EVERY = 30.0


def _key(user_id: int) -> str:
    return f"online:{int(user_id)}"


def touch(user_id: int) -> None:
    cache.set(_key(user_id), 1, ONLINE_SECONDS)


def online_ids(user_ids) -> set[int]:
    """Those of ``user_ids`` seen in the last ``ONLINE_SECONDS``."""
    ids = [int(pk) for pk in user_ids]
    if not ids:
        return set()
    found = cache.get_many([_key(pk) for pk in ids])
    return {pk for pk in ids if _key(pk) in found}
