"""games.play.thinking: masters think in the clock's worker processes (games.play.workers),
not in the process that runs the clock (a server's), and their tables still play to the
end."""

import os
import time

import pytest

from accounts.models import User
from games import rules
from games.bots import knowledge_for, levels
from games.lobby import service as requests
from games.models import Match, MatchStatus
from games.play import bots, clock, service, store, thinking, workers

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(settings):
    settings.BOT_MASTER_SECONDS = 0.02
    workers.start(1)
    yield thinking
    workers.stop()
    thinking.forget()


def _masters_turn(make_user):
    """A table of one person and three masters, played on (heuristically, in this process)
    until a master is to move with a choice."""
    match = requests.play_with_bots(make_user("me"), 4, level=levels.MASTER)
    for _move in range(200):
        match.refresh_from_db()
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.DEAL:
            store.commit(service._deal(match, state))
            continue
        if match.seat_users[state.turn] is None and len(knowledge_for(state, state.turn).legal) > 1:
            return match, state
        action = bots.choose(state, state.turn, levels.HEURISTIC)
        after, events, knocks = rules.apply_turn(state, action)
        store.commit(service._turn(match, after, events, action, knocks))
    pytest.skip("no master with a choice in 200 moves")


def _wait_for(ask, seconds=20.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = ask()
        if got is not None:
            return got
        time.sleep(0.005)
    raise AssertionError("the pool never answered")


def test_a_master_thinks_in_another_process_and_the_ask_returns_at_once(make_user, pool):
    match, state = _masters_turn(make_user)
    k = knowledge_for(state, state.turn)
    started = time.perf_counter()
    assert thinking.answer(match.pk, match.version, k, levels.MASTER, 1) is None
    assert time.perf_counter() - started < 0.1  # asking does not wait for the search
    action = _wait_for(lambda: thinking.answer(match.pk, match.version, k, levels.MASTER, 1))
    assert action in k.legal
    assert thinking.figures.last_pid not in (0, os.getpid())
    assert thinking.figures.playouts > 0


def test_a_search_for_a_version_the_match_left_is_not_played(make_user, pool):
    match, state = _masters_turn(make_user)
    k = knowledge_for(state, state.turn)
    assert thinking.answer(match.pk, match.version, k, levels.MASTER, 1) is None
    _wait_for(lambda: thinking._searches[match.pk].future.done() or None)
    # Asked at another version: the old choice is dropped and a new search begins.
    assert thinking.answer(match.pk, match.version + 1, k, levels.MASTER, 1) is None
    assert thinking._searches[match.pk].version == match.version + 1


def test_many_masters_at_once_each_search_a_share(settings, pool):
    settings.BOT_MASTER_SECONDS = 0.5
    assert thinking.share() == pytest.approx(0.5)
    with workers._lock:  # three pieces of work under way in a pool of one worker
        for _n in range(3):
            workers._pending.add(thinking.Future())
    try:
        assert thinking.share() == pytest.approx(0.5 / 7)
    finally:
        workers._pending.clear()


def test_the_clock_plays_a_masters_move_from_the_pool(make_user, pool):
    match, state = _masters_turn(make_user)
    Match.objects.filter(pk=match.pk).update(deadline=match.deadline.replace(year=2000))
    assert service.run_due(match.pk) is False  # asked, not yet answered: nothing done
    _wait_for(lambda: service.run_due(match.pk) or None)
    match.refresh_from_db()
    assert match.version > 1 and thinking.figures.moves >= 1


def test_a_table_of_masters_plays_to_the_end_through_the_clock(make_user, pool):
    match, _state = _masters_turn(make_user)
    person = match.seat_users[0]

    user = User.objects.get(pk=person)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.PLAYING and match.seat_users.get(state.turn) == person:
            action = bots.choose(state, state.turn, levels.HEURISTIC)
            service.act(match.pk, user, {k: v for k, v in action.to_json().items()
                                         if k != "seat"}, match.version)
            continue
        Match.objects.filter(pk=match.pk).update(deadline=match.deadline.replace(year=2000))
        clock.sweep_once()
        time.sleep(0.002)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert thinking.figures.moves > 10 and thinking.figures.last_pid != os.getpid()
