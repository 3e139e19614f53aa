"""games/play/pgmeanwhile.py: a statement sent to PostgreSQL, other work done while it is
answered, and the answer read after -- as psycopg's own execute would have given it."""

import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction

from games.play import pgmeanwhile, store as movesql
from games.models import Match, Move

from ..conftest import a_game

PAUSE = 0.3  # seconds the server takes over a statement that sleeps first


def test_placeholders_are_numbered_for_libpq():
    assert pgmeanwhile.numbered("UPDATE t SET a = %s WHERE b = %s::int") == \
        "UPDATE t SET a = $1 WHERE b = $2::int"
    with pytest.raises(ValueError):
        pgmeanwhile.numbered("SELECT 100 % 7 WHERE a = %s")


postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                     reason="the statement's asynchronous send is libpq's")


def a_started_match(make_user) -> Match:
    return a_game(make_user, 2)[0]


def raw():
    connection.ensure_connection()
    return connection.connection


SLOW_TOUCH = ("WITH pause AS (SELECT pg_sleep(%s)) UPDATE games_match SET version = %s "
              "WHERE id = %s AND EXISTS (SELECT 1 FROM pause)")


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_the_work_is_done_while_the_server_answers(make_user):
    match = a_started_match(make_user)
    conn = raw()
    assert pgmeanwhile.can_overlap(conn)
    seen = {}

    def meanwhile():
        seen["after"] = time.monotonic() - began
        seen["busy"] = conn.pgconn.is_busy()

    began = time.monotonic()
    changed = pgmeanwhile.rowcount_meanwhile(conn, SLOW_TOUCH,
                                             [PAUSE, match.version + 1, match.pk], meanwhile)
    took = time.monotonic() - began
    assert changed == 1
    assert seen["busy"] and seen["after"] < PAUSE / 2  # long before the answer
    assert took >= PAUSE
    assert Match.objects.get(pk=match.pk).version == match.version + 1  # committed


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_refused_statement_raises_after_the_work_and_the_connection_goes_on(
        make_user):
    """A match row held elsewhere: NOWAIT refuses the move at once, the error is
    Django's and says so (the game room then takes the locked way), and the next
    statement on the same connection works."""
    match = a_started_match(make_user)
    version = match.version
    taken, release, done = threading.Event(), threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                taken.set()
                release.wait(5)
        finally:
            connections.close_all()
            done.set()

    threading.Thread(target=hold).start()
    assert taken.wait(5)
    worked = []
    moved = Match.objects.get(pk=match.pk)
    moved.version = version + 1
    moves = [Move(match=moved, number=version + 1, seat=0, kind="knock", payload={})]
    try:
        with pytest.raises(OperationalError) as refused:
            movesql.save_moves_if_at(moved, ("version",), version, moves, nowait=True,
                                     meanwhile=lambda: worked.append(True))
    finally:
        release.set()
        done.wait(5)
    assert movesql.is_lock_refused(refused.value) and worked == [True]
    assert movesql.save_moves_if_at(moved, ("version",), version, moves, nowait=True,
                                    meanwhile=lambda: worked.append(True))
    assert worked == [True, True]
    assert Move.objects.filter(match=match).count() == version + 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_failure_of_the_work_does_not_change_the_statements_outcome(
        make_user, caplog):
    match = a_started_match(make_user)

    def meanwhile():
        raise RuntimeError("a frame could not be made")

    assert pgmeanwhile.rowcount_meanwhile(raw(), SLOW_TOUCH,
                                          [0, match.version + 1, match.pk], meanwhile) == 1
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert "a frame could not be made" in caplog.text


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_values_go_as_psycopg_sends_them(make_user):
    """The values are dumped by psycopg's own adapters: JSON with text a statement
    would have to escape, times and numbers arrive as the ORM would store them."""
    match = a_started_match(make_user)
    awkward = ["it's", 'say "рыба"', "back\\slash", "%s $1 ?", "ё\n\t"]
    version = match.version
    moved = Match.objects.get(pk=match.pk)
    moved.version, moved.result = version + 1, {"moved": awkward}
    moves = [Move(match=moved, number=version + 1, seat=1, kind="draw",
                  payload={"why": awkward})]
    made = []
    assert movesql.save_moves_if_at(moved, ("version", "result", "deadline"), version,
                                    moves, meanwhile=lambda: made.append(1))
    stored = Match.objects.get(pk=match.pk)
    assert made == [1]
    assert (stored.version, stored.result, stored.deadline) == \
        (version + 1, {"moved": awkward}, moved.deadline)
    assert Move.objects.get(match=match, number=version + 1).payload == {"why": awkward}


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_the_work_comes_first_and_the_statement_is_psycopgs(
        make_user):
    match = a_started_match(make_user)
    order = []
    with transaction.atomic():
        assert not pgmeanwhile.can_overlap(raw())
        moved = Match.objects.get(pk=match.pk)
        moved.version = match.version + 1
        assert movesql.save_moves_if_at(
            moved, ("version",), match.version,
            [Move(match=moved, number=match.version + 1, seat=0, kind="knock",
                  payload={})], meanwhile=lambda: order.append("work"))
        order.append("written")
    assert order == ["work", "written"]
    assert Match.objects.get(pk=match.pk).version == match.version + 1
