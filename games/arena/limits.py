"""RULES.md 10's limits as an arena meets them.

A player barred from rated tables for leaving (ratings.limits) may not join a rated
arena, and a table of people who have already played 3 rated games together in 24
hours is played unrated.  That is decided by the game's start, in its own transaction
(ratings.limits.unrated_why, which also records why), so that two processes cannot both
count it rated; the arena's page says so at seating (``unrated_again``).
"""

from __future__ import annotations

from ratings import limits


def refusal_to_join(arena, user) -> str | None:
    """Why ``user`` may not join ``arena`` now (RULES.md 10, leavers), or None."""
    if not arena.rated:
        return None
    bar = limits.bar_of(user)
    return limits.barred_message(bar) if bar is not None else None


def table_is_rated(arena, users) -> bool:
    """Whether a table of ``users`` seated by ``arena`` is asked for as rated; its start may
    still make it unrated (RULES.md 10); its arena points count either way (RULES.md 12)."""
    return arena.rated


def unrated_again(arena, user_ids) -> bool:
    """Whether a seated table's game will be unrated because its people have played
    together too often (RULES.md 10)."""
    return arena.rated and limits.same_people_again(user_ids)


def unrated_message() -> str:
    """What the page says of such a table, in the active language."""
    return limits.unrated_message()
