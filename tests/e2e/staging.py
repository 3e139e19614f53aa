"""A running game put straight into the database at a chosen moment, for browser tests
that look at how a room shows that moment (not at how play gets there)."""

from __future__ import annotations

import random
from datetime import timedelta

from games import rules


def a_moment(wanted, seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400):
    """The first state of random games (seeds 0, 1, ...) for which ``wanted(state)``."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = rules.new_game(seats, fish)
        while not state.over:
            state, _events = rules.start_round(state, rng=rng)
            while state.phase == rules.PLAYING:
                if wanted(state):
                    return state
                state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
    raise AssertionError("no game of the tried seeds came to the wanted moment")


def can_draw(state) -> bool:
    return any("draw" in action.to_json() for action in rules.legal_actions(state))


def has_remembered_points(state) -> bool:
    return any(rules.spectator_view(state)["remembered"])


def running_match(make_match, people: list, state, version: int = 5, **fields):
    """A playing match of ``people`` (None: a bot) at ``state``, its turn's deadline an
    hour away so that nothing moves while the test looks; ``fields``, more of its own."""
    from django.utils import timezone

    from games.models import MatchStatus

    now = timezone.now()
    return make_match(people, seats_count=len(people), status=MatchStatus.PLAYING,
                      state=state.to_json(), version=version, started_at=now,
                      deadline=now + timedelta(hours=1), **fields)
