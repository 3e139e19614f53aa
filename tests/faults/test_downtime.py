"""The site's own downtime (RULES.md 9), scaled out: the ``manage.py clock`` process is
killed during a turn and started again after it would have run out.  The embedded setup's
case (the clock inside daphne) is tests/games/play/test_restart.py.

These need PostgreSQL and Redis (CI's first pass); the embedded pass skips them.
"""

import pytest

from tests.games.play.test_restart import outage_over_a_turn

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_turn_that_ran_out_while_the_clock_process_was_down_gets_its_full_time_again(
        scaled_out, make_user):
    (server,), clock = scaled_out(servers=1)
    outage_over_a_turn(make_user, "dt", clock.kill, clock.start,
                       lambda: clock.log_tail() + "\n" + server.log_tail())
