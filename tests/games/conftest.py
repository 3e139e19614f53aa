"""Fixtures for playing games through games.play.service."""

import threading

import pytest
from django.db import close_old_connections

from games import rules
from games.models import MatchStatus, Move
from games.lobby import service as requests
from games.play.errors import PlayError
from games.records import log as records
from tests.waiting import wait_for, wait_until  # noqa: F401  (the games tests wait with these)


@pytest.fixture(autouse=True)
def _no_waiting(settings):
    # Bots answer and rounds are dealt as soon as the clock looks; tests drive the clock.
    settings.KOZEL_BOT_DELAY = (0, 0)
    settings.KOZEL_ROUND_PAUSE = 0
    settings.KOZEL_CLOCK_IN_SERVER = False
    settings.KOZEL_WS_FLOOD = (1000.0, 1000)  # test players move far faster than people
    settings.KOZEL_WS_ACCOUNT_RATE = "100000/s"  # over all of one account's sockets too


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
    match = requests.create_request(people[0], players=players, turn_seconds=30)
    for person in people[1:]:
        requests.join_request(person, match.pk)
    match.refresh_from_db()
    return match, dict(enumerate(people))


def play_first_round(match, people):
    """Play the first round to its end through the services, each seat's move chosen
    from its own view; the match is then in the pause before round 2."""
    from games.play import service as services

    while (state := state_of(match)).phase == rules.PLAYING:
        services.act(match.pk, people[state.turn], human_move(match, state.turn), match.version)
    assert state.last_round is not None and state.phase == rules.DEAL
    return state


def the_winner(match, before: int, seat: int) -> str:
    """Which of a late move by ``seat`` and the timeout of its turn won on ``match``,
    which was at version ``before``: "move" or "timeout" -- after checking that the log
    holds the one, once, and not the other, and that the match is its log replayed."""
    match.refresh_from_db()
    log = list(Move.objects.filter(match=match).order_by("number"))
    assert [m.number for m in log] == list(range(1, match.version + 1))  # once each, no gap
    assert records.state_after(match) == rules.GameState.from_json(match.state)
    after = [(m.kind, m.seat) for m in log[before:]]
    if after == [("timeout", seat)]:
        assert match.status == MatchStatus.ABORTED  # round 1: RULES.md 9, aborted
        assert (match.result["reason"], match.result["interrupted_by"]) == ("timeout", seat)
        return "timeout"
    # The move, and perhaps the knocks made for players after it (RULES.md 5, rule 3).
    assert after[0][0] in ("play", "draw") and after[0][1] == seat, after
    assert all(kind == "knock" for kind, _seat in after[1:]), after
    assert not any(m.kind == "timeout" for m in log)
    assert match.status == MatchStatus.PLAYING
    return "move"


def at_once(*calls) -> list:
    """Run the calls on threads of their own (each with its own database connection),
    released together; what each returned, or the code of its refusal (PlayError)."""
    results, start = [None] * len(calls), threading.Barrier(len(calls))

    def run(index, call):
        start.wait()
        try:
            results[index] = call()
        except PlayError as refusal:
            results[index] = refusal.code
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def times_out(match_id: int) -> None:
    """The running game ``match_id`` ends by a timeout (RULES.md 9): the clock runs out
    for whoever is to move (bots move first, never timing out).  How the tests of one
    more game end a game: one its person left offers nothing to wait for (issue 42)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match
    from games.play import service

    later = timezone.now() + timedelta(days=1)
    for _step in range(200):
        if not Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).exists():
            return
        service.run_due(match_id, later)
    raise AssertionError(f"game {match_id} did not time out")
