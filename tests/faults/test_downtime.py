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
