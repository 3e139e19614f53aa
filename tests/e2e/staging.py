"""A running game put straight into the database at a chosen moment, for browser tests
that look at how a room shows that moment (not at how play gets there)."""

from __future__ import annotations

import random
from datetime import timedelta

from games import rules


def a_moment(wanted, seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400,
             pairs: bool = False):
    """The first state of random games (seeds 0, 1, ...) for which ``wanted(state)``."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = rules.new_game(seats, fish, pairs=pairs)
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


def running_match(make_match, people: list, state, version: int = 5):
    """A playing match of ``people`` (None: a bot) at ``state``, its turn's deadline an
    hour away so that nothing moves while the test looks."""
    from django.utils import timezone

    from games.models import MatchStatus

    now = timezone.now()
    return make_match(people, seats_count=len(people), status=MatchStatus.PLAYING,
                      state=state.to_json(), version=version, started_at=now,
                      deadline=now + timedelta(hours=1), pairs=state.pairs)


def a_round_end(seats: int = 2, fish: str = rules.FISH_ALL, pairs: bool = False,
                wanted=lambda state: True, tries: int = 400):
    """The first state between two rounds (its summary shown) of random games for which
    ``wanted(state)``; a state whose game it ended is passed by."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = rules.new_game(seats, fish, pairs=pairs)
        while not state.over:
            state, _events = rules.start_round(state, rng=rng)
            while state.phase == rules.PLAYING:
                state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
            if state.phase == rules.DEAL and wanted(state):
                return state
    raise AssertionError("no game of the tried seeds came to the wanted round's end")


def a_game_end(seats: int = 2, fish: str = rules.FISH_ALL, pairs: bool = False, seed: int = 0):
    """The last state of a random game played to its end."""
    rng = random.Random(seed)
    state = rules.new_game(seats, fish, pairs=pairs)
    while not state.over:
        state, _events = rules.start_round(state, rng=rng)
        while state.phase == rules.PLAYING:
            state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
    return state


def staged_match(make_match, people: list, state, version: int = 5, **fields):
    """A match of ``people`` (None: a bot) at ``state``, as the services leave it: still
    playing (its deadline an hour away, so that nothing moves while the test looks), or,
    for a state whose game is over, finished with its result and rating points."""
    from django.utils import timezone

    from games.play.finish import ending_of

    if not state.over:
        return running_match(make_match, people, state, version)
    ended, _ending = ending_of(state)
    return make_match(people, seats_count=len(people), state=state.to_json(), version=version,
                      started_at=timezone.now(), pairs=state.pairs, rated=True,
                      **dict(ended, **fields))
