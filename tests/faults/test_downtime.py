"""The site's own downtime (RULES.md 9), scaled out: the ``manage.py clock`` process (or
two of them) is killed during a turn and started again after it would have run out.  The
embedded setup's case (the clock inside daphne) is tests/games/play/test_restart.py.

These need PostgreSQL and Redis (CI's first pass); the embedded pass skips them.
"""

import pytest

from tests.games.play.test_restart import outage_over_a_turn

from .conftest import ManagedProcess

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
