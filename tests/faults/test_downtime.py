"""The site's own downtime (RULES.md 9) with ``manage.py clock`` processes: the clocks are
killed during a turn and started again after it would have run out.  The embedded setup's
one clock (inside daphne) is tests/games/play/test_restart.py's.

The first two need PostgreSQL and Redis (CI's first pass); the embedded pass skips them.
The last runs on the embedded setup's SQLite: the clock inside daphne and two more
``manage.py clock`` processes beside it.
"""

import sys

import pytest

from tests.games.play.test_restart import outage_over_a_turn

from .conftest import QUICK_PLAYERS, ManagedProcess

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_turn_that_ran_out_while_the_clock_process_was_down_gets_its_full_time_again(
        scaled_out, make_user):
    (server,), clock = scaled_out(servers=1)
    outage_over_a_turn(make_user, "dt", clock.kill, clock.start,
                       lambda: clock.log_tail() + "\n" + server.log_tail())


def test_two_clock_processes_coming_back_at_once_give_the_turn_its_full_time(
        scaled_out, make_user, tmp_path):
    """Any number of clocks: both killed, both started again together.  Whichever beats
    first gives the time; the other finds its fresh beat, and neither times the turn out."""
    (server,), clock = scaled_out(servers=1)
    other = ManagedProcess(clock.argv, clock.env, tmp_path / "clock-2.log").start()
    both = (clock, other)
    try:
        outage_over_a_turn(make_user, "dt2", lambda: [c.kill() for c in both],
                           lambda: [c.start() for c in both],
                           lambda: "\n".join(c.log_tail() for c in both) + server.log_tail())
    finally:
        other.stop()


def test_three_clocks_on_the_embedded_database_coming_back_at_once_give_the_turn_its_time(
        transactional_db, make_user, tmp_path):
    """Any number of clocks on SQLite too: daphne's own and two ``manage.py clock``
    processes, all killed, all started again together.  One gives the time under the beat
    row's lock (SQLite's IMMEDIATE transactions); the others find its fresh beat."""
    from tests.daphne_server import DaphneServer, live_server_env

    env = live_server_env(**QUICK_PLAYERS, KOZEL_CLOCK_INTERVAL="0.05")
    server = DaphneServer(env=env, log_dir=tmp_path).start()
    clocks = [ManagedProcess([sys.executable, "-m", "tests.seeded_server", "manage.py", "clock"],
                             env, tmp_path / f"clock-{n}.log").start() for n in (1, 2)]

    def kill():
        server.kill()
        for clock in clocks:
            clock.kill()

    def start():
        for clock in clocks:
            clock.start()
        server.start()

    try:
        outage_over_a_turn(make_user, "dt3", kill, start,
                           lambda: "\n".join(c.log_tail() for c in clocks) + server.log_tail())
    finally:
        for clock in clocks:
            clock.stop()
        server.stop()


def five_second_restart_times_out_nobody(make_user, name, kill, start, log_tail):
    """Issue 39: a server killed (SIGKILL) 1 s into a 10 s turn and started again 5 s
    later.  The turn had time left when the site came back, so the old rule kept its
    deadline and the page, still reconnecting, was timed out.  Now every turn running
    while no server kept the clock gets its full time again from the return (RULES.md 9),
    and a clock that has just started notices an outage shorter than a turn."""
    import time

    from datetime import timedelta

    from django.utils import timezone

    from games.lobby import service as requests
    from games.models import ClockBeat, Match, MatchStatus
    from tests.waiting import wait_for

    masha, alex = make_user(f"{name}1"), make_user(f"{name}2")
    match = requests.create_request(masha, players=2, turn_seconds=10)
    requests.join_request(alex, match.pk)
    match.refresh_from_db()
    first_deadline = match.deadline
    assert wait_for(lambda: ClockBeat.objects.filter(
        beat_at__gte=match.started_at).exists()), log_tail()
    time.sleep(max(0.0, 1 - (timezone.now() - match.started_at).total_seconds()))
    kill()
    killed = timezone.now()
    time.sleep(5)
    start()
    assert wait_for(lambda: ClockBeat.objects.filter(
        beat_at__gte=killed + timedelta(seconds=5)).exists()), log_tail()
    match.refresh_from_db()
    assert match.deadline >= killed + timedelta(seconds=15), log_tail()
    # Past the turn's first deadline (and the time it had left when the server died),
    # nobody is timed out.
    time.sleep(max(0.0, (first_deadline - timezone.now()).total_seconds() + 1.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING, log_tail()
    assert not match.moves.filter(kind="timeout").exists()
    assert Match.objects.get(pk=match.pk).deadline == match.deadline


def test_a_five_second_restart_of_the_embedded_server_times_out_nobody(server, make_user):
    five_second_restart_times_out_nobody(make_user, "r5", server.kill, server.start,
                                         server.log_tail)


def test_a_five_second_restart_of_the_scaled_out_site_times_out_nobody(scaled_out, make_user):
    (daphne,), clock = scaled_out(servers=1)

    def kill():
        clock.kill()
        daphne.kill()

    def start():
        daphne.start()
        clock.start()

    five_second_restart_times_out_nobody(make_user, "r5s", kill, start,
                                         lambda: clock.log_tail() + "\n" + daphne.log_tail())
