"""Fixtures for playing games through games.play.service."""

import time

import pytest

from games import rules
from games.play import service as services


@pytest.fixture(autouse=True)
def _no_waiting(settings):
    # Bots answer and rounds are dealt as soon as the clock looks; tests drive the clock.
    settings.KOZEL_BOT_DELAY = (0, 0)
    settings.KOZEL_ROUND_PAUSE = 0
    settings.KOZEL_CLOCK_IN_SERVER = False
    settings.KOZEL_WS_FLOOD = (1000.0, 1000)  # test players move far faster than people


def state_of(match):
    match.refresh_from_db()
    return rules.GameState.from_json(match.state)


def human_move(match, seat, player=None):
    """A legal move for ``seat``, chosen from its own view, as a client message."""
    state = state_of(match)
    view = rules.view_for(state, seat)
    action = (player or rules.RandomPlayer(match.version)).choose(view)
    message = action.to_json()
    del message["seat"]
    return message


def a_game(make_user, players):
    """A started game of ``players`` new accounts, and its players by seat."""
    people = [make_user(f"player{n}") for n in range(players)]
    match = services.create_request(people[0], players=players, turn_seconds=30)
    for person in people[1:]:
        services.join_request(person, match.pk)
    match.refresh_from_db()
    return match, dict(enumerate(people))


def wait_for(predicate, seconds: float = 20.0, every: float = 0.05) -> bool:
    """Whether ``predicate()`` came true within ``seconds``, asked every ``every`` s."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False
