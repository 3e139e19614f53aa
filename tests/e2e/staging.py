"""A running game put straight into the database at a chosen moment, for browser tests
that look at how a room shows that moment (not at how play gets there)."""

from __future__ import annotations

import random
from datetime import timedelta

from games import rules


def random_game(seats: int, fish: str, pairs: bool, seed: int):
    """Every state of a random game played from ``seed`` to its end: after each deal and
    each action (so between rounds too, and last the game's end)."""
    rng = random.Random(seed)
    state = rules.new_game(seats, fish, pairs=pairs)
    while not state.over:
        state, _events = rules.start_round(state, rng=rng)
        yield state
        while state.phase == rules.PLAYING:
            state, _events = rules.apply(state, rng.choice(rules.legal_actions(state)))
            yield state


def first_state(wanted, seats: int, fish: str, pairs: bool, tries: int, what: str):
    """The first state of random games (seeds 0, 1, ...) for which ``wanted(state)``."""
    for seed in range(tries):
        for state in random_game(seats, fish, pairs, seed):
            if wanted(state):
                return state
    raise AssertionError(f"no game of the tried seeds came to {what}")


def a_moment(wanted, seats: int = 2, fish: str = rules.FISH_ALL, tries: int = 400,
             pairs: bool = False):
    """The first state of a round being played, of random games, for which ``wanted(state)``."""
    return first_state(lambda state: state.phase == rules.PLAYING and wanted(state),
                       seats, fish, pairs, tries, "the wanted moment")


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
    ``wanted(state)``; a round's end that ends the game is passed by."""
    return first_state(lambda state: state.phase == rules.DEAL and wanted(state),
                       seats, fish, pairs, tries, "the wanted round's end")


def a_game_end(seats: int = 2, fish: str = rules.FISH_ALL, pairs: bool = False, seed: int = 0):
    """The last state of a random game played to its end."""
    *_played, last = random_game(seats, fish, pairs, seed)
    return last


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
