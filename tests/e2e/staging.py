"""A running game put straight into the database at a chosen moment, for browser tests
that look at how a room shows that moment (not at how play gets there)."""

from __future__ import annotations

import random
from datetime import timedelta

from games import rules


def moments(seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400):
    """Every state of random games (seeds 0, 1, ...): each turn of a round being played,
    and each pause before a round is dealt."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = rules.new_game(seats, fish)
        while not state.over:
            yield state
            state, _events = rules.start_round(state, rng=rng)
            while state.phase == rules.PLAYING:
                yield state
                state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))


def a_moment(wanted, seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400):
    """The first state of a round being played for which ``wanted(state)``."""
    return _first(lambda s: s.phase == rules.PLAYING and wanted(s), seats, fish, tries)


def between_rounds(seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400):
    """The first pause after a round ended (its summary shown, the next not dealt yet)."""
    return _first(lambda s: s.phase == rules.DEAL and s.last_round is not None, seats, fish,
                  tries)


def _first(wanted, seats, fish, tries):
    for state in moments(seats, fish, tries):
        if wanted(state):
            return state
    raise AssertionError("no game of the tried seeds came to the wanted moment")


def can_draw(state) -> bool:
    return any("draw" in action.to_json() for action in rules.legal_actions(state))


def has_remembered_points(state) -> bool:
    return any(rules.spectator_view(state)["remembered"])


def running_match(make_match, people: list, state, version: int = 5):
    """A playing match of ``people`` (None: a bot) at ``state``, its turn's deadline an
    hour away so that nothing moves while the test looks."""
    from django.utils import timezone

    from games.models import MatchStatus

    now = timezone.now()
    return make_match(people, seats_count=len(people), status=MatchStatus.PLAYING,
                      state=state.to_json(), version=version, started_at=now,
                      deadline=now + timedelta(hours=1))
