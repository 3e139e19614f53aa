"""games/play/loopdb.py on PostgreSQL: a move on the version the room showed is one statement
made on the event loop's own connection (``run_now``), never waiting there for a lock."""

import asyncio
import threading
import time

import pytest
from django.db import DatabaseError, connection, connections, transaction

from games.room import cache as snapshots
from games.play import loopdb, service as services
from games.models import Match, Move

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db(transaction=True)

HELD = 0.5  # seconds another transaction keeps the match row


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("one-statement moves on the event loop are PostgreSQL's")


@pytest.fixture(autouse=True)
async def _close_the_loops_connection():
    yield
    loopdb.run_now(lambda: connections["default"].close())  # kept for the process's life


async def in_a_thread(function, *args):
    """``function(*args)`` on a worker thread, whose connection is closed after."""
    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()
    return await asyncio.to_thread(run)


def a_started_game(make_user):
    people = [make_user(f"круг{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    seat = state_of(match).turn
    return match, people, seat, human_move(match, seat), snapshots.load(match.pk)


def move_on_loop(shown, person, message):
    """What the game room does on the loop (games.room.consumer.GameConsumer.move): the
    statement sent, work done while PostgreSQL answers (games/play/pgmeanwhile.py), the
    answer read."""
    return loopdb.run_now(services.act_on_known, shown.match, shown.state, person, message,
                          shown.version, True, lambda *committing: None)


def raw_connection():
    return connections["default"].connection


async def test_a_move_is_written_on_the_loops_one_connection(make_user):
    match, people, seat, message, shown = await in_a_thread(a_started_game, make_user)
    assert move_on_loop(shown, people[seat], message) == shown.version + 1
    first = loopdb.run_now(raw_connection)
    assert loopdb.run_now(raw_connection) is first  # kept, not opened per move
    logged = await in_a_thread(lambda: list(
        Move.objects.filter(match=match).values_list("number", flat=True)))
    assert logged == list(range(1, shown.version + 2))


async def test_a_held_match_row_is_not_waited_for_on_the_loop(make_user):
    match, people, seat, message, shown = await in_a_thread(a_started_game, make_user)
    taken, done = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                taken.set()
                time.sleep(HELD)
        finally:
            connections.close_all()
            done.set()

    threading.Thread(target=hold).start()
    await asyncio.to_thread(taken.wait, 5)
    began = time.monotonic()
    assert move_on_loop(shown, people[seat], message) is None  # the locked way, then
    assert time.monotonic() - began < HELD / 2
    await asyncio.to_thread(done.wait, 5)
    # Once the row is free, the same move goes through (and only once).
    assert move_on_loop(shown, people[seat], message) == shown.version + 1
    assert move_on_loop(shown, people[seat], message) is None


async def test_a_lost_connection_fails_one_move_and_the_next_opens_another(make_user):
    match, people, seat, message, shown = await in_a_thread(a_started_game, make_user)
    backend = loopdb.run_now(lambda: (connections["default"].ensure_connection(),
                                      raw_connection().info.backend_pid)[1])

    def terminate():
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [backend])

    await in_a_thread(terminate)
    with pytest.raises(DatabaseError):  # the game room then takes the locked way
        move_on_loop(shown, people[seat], message)
    assert move_on_loop(shown, people[seat], message) == shown.version + 1
    assert loopdb.run_now(lambda: raw_connection().info.backend_pid) != backend
