"""games/play/loopdb.py: on SQLite a move runs on the event loop, which never waits there for
a lock another connection holds."""

import asyncio
import threading
import time

import pytest
from django.db import OperationalError, connection, connections

from games.play import loopdb, service as services
from games.models import Match, Move

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db(transaction=True)

HELD = 0.4  # seconds another thread keeps the write lock


@pytest.fixture(autouse=True)
def _sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("moves run on the event loop only on SQLite")


def hold_the_write_lock(taken: threading.Event, seconds: float) -> threading.Thread:
    """Another connection (as an HTTP request on Django's thread would) takes SQLite's
    write lock and keeps it for ``seconds``."""
    def hold():
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("BEGIN IMMEDIATE")
                cursor.execute("UPDATE games_match SET private = private")
                taken.set()
                time.sleep(seconds)
                cursor.execute("COMMIT")
        finally:
            connections["default"].close()

    thread = threading.Thread(target=hold)
    thread.start()
    return thread


async def ticks_while(awaitable) -> tuple[object, int]:
    """``awaitable``'s result, and how often a task on the same loop woke every 10 ms
    meanwhile (none if the loop was stuck)."""
    ticks = 0
    done = False

    async def ticker():
        nonlocal ticks
        while not done:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.ensure_future(ticker())
    try:
        result = await awaitable
    finally:
        done = True
        await task
    return result, ticks


def a_started_game(make_user):
    people = [make_user(f"петля{n}") for n in range(2)]
    match = services.create_request(people[0], players=2)
    services.join_request(people[1], match.pk)
    match.refresh_from_db()
    seat = state_of(match).turn
    return match, people, seat, human_move(match, seat)


async def test_a_move_waits_for_another_connections_lock_without_stopping_the_loop(make_user):
    match, people, seat, message = await asyncio.to_thread(a_started_game, make_user)
    taken = threading.Event()
    holder = hold_the_write_lock(taken, HELD)
    await asyncio.to_thread(taken.wait, 5)
    began = time.monotonic()

    version, ticks = await ticks_while(
        loopdb.run(services.act, match.pk, people[seat], message, match.version))

    waited = time.monotonic() - began
    await asyncio.to_thread(holder.join)
    assert version == match.version + 1
    assert waited >= HELD * 0.5          # it did wait for the lock ...
    assert ticks >= HELD * 0.5 / 0.01 * 0.5  # ... and the loop went on meanwhile
    logged = await asyncio.to_thread(lambda: list(Move.objects.filter(match=match)
                                                  .values_list("number", flat=True)))
    assert logged.count(version) == 1    # applied once, however often it was tried


async def test_one_connection_serves_every_room_and_waits_for_locks_again_after(make_user):
    match, _people, _seat, _message = await asyncio.to_thread(a_started_game, make_user)

    def update_and_tell_the_connection():
        Match.objects.filter(pk=match.pk).update(private=False)
        return connections["default"].connection

    async def in_a_task_of_its_own():  # as each game room's consumer runs
        return await loopdb.run(update_and_tell_the_connection)

    used = {id(raw) for raw in await asyncio.gather(*(in_a_task_of_its_own() for _ in range(3)))}
    raw = await loopdb.run(update_and_tell_the_connection)
    assert used == {id(raw)}  # the loop thread's one connection, not one per task
    # (the driver's own connection: Django's refuses to run on the loop)
    waits = raw.execute("PRAGMA busy_timeout").fetchone()[0]
    assert waits == int(loopdb._timeout() * 1000) > 0


async def test_other_database_errors_are_not_tried_again():
    calls = []

    def broken():
        calls.append(1)
        raise OperationalError("no such table: nowhere")

    with pytest.raises(OperationalError, match="no such table"):
        await loopdb.run(broken)
    assert calls == [1]


async def test_django_still_refuses_database_calls_on_the_loop_outside_it():
    from django.core.exceptions import SynchronousOnlyOperation

    with pytest.raises(SynchronousOnlyOperation):
        Match.objects.count()


async def test_the_clock_acts_on_a_due_match_once_the_lock_is_free(make_user, caplog):
    from datetime import timedelta

    from django.utils import timezone

    from games.play import clock
    from games.models import MatchStatus

    match, _people, _seat, _message = await asyncio.to_thread(a_started_game, make_user)
    await asyncio.to_thread(lambda: Match.objects.filter(pk=match.pk).update(
        deadline=timezone.now() - timedelta(seconds=1)))  # the player to move ran out of time
    taken = threading.Event()
    holder = hold_the_write_lock(taken, HELD)
    await asyncio.to_thread(taken.wait, 5)
    stop = asyncio.Event()
    sweeping = asyncio.ensure_future(clock.run(interval=0.02, stop=stop))
    try:
        status = None
        for _ in range(300):
            await asyncio.sleep(0.01)
            status = await asyncio.to_thread(
                lambda: Match.objects.values_list("status", flat=True).get(pk=match.pk))
            if status != MatchStatus.PLAYING:
                break
    finally:
        stop.set()
        await sweeping
        await asyncio.to_thread(holder.join)
    assert status == MatchStatus.INTERRUPTED
    assert not [r for r in caplog.records if r.name == "games.play.clock" and r.levelname == "ERROR"]
