"""RULES.md 10's limits as an arena meets them -- the hook for them.

RULES.md 10 (issue 39, built apart) bars a player banned for leaving from joining a
rated arena, and plays unrated a table of people who have already played 3 rated games
together in 24 hours.  The arena asks only these two questions, here; until the limits
exist, nobody is barred and every table of a rated arena is rated.
"""

from __future__ import annotations


def refusal_to_join(arena, user) -> str | None:
    """Why ``user`` may not join ``arena`` now (RULES.md 10, leavers), or None."""
    return None


def table_is_rated(arena, users) -> bool:
    """Whether a table of ``users`` seated by ``arena`` is rated (RULES.md 10, the same
    people again); its arena points are counted either way (RULES.md 12)."""
    return arena.rated
