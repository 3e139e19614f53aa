"""games.play.clock: the sweep, and the site's own downtime (RULES.md 9), on a clock the
test controls: every sweep is given the time it runs at."""

from datetime import timedelta

import pytest

from games.lobby import service as requests
from games.models import ClockBeat, MatchStatus
from games.play import clock

pytestmark = pytest.mark.django_db

# (A timeout in the first round aborts the game, RULES.md 9: these games are in round 1.)
TURN = 10  # seconds per turn in these games
TICK = timedelta(seconds=1)  # the controlled clock's interval: well inside the outage limit


@pytest.fixture(autouse=True)
def _outage_after_three_seconds(settings):
    settings.KOZEL_CLOCK_OUTAGE = 3


def a_started_game(make_user, name):
    masha, alex = make_user(f"{name}1"), make_user(f"{name}2")
    match = requests.create_request(masha, players=2, turn_seconds=TURN)
    requests.join_request(alex, match.pk)
    match.refresh_from_db()
    return match


def keep_time(start, end):
    """A clock sweeping every TICK from ``start`` to ``end`` (both included)."""
    now = start
    while now <= end:
        clock.sweep_once(now)
        now += TICK


def test_a_clock_that_keeps_running_times_the_idle_player_out(make_user):
    match = a_started_game(make_user, "ck")
    deadline = match.deadline
    # Sweeps 1 s apart from 10 s before the deadline to 0.5 s after it: never an outage.
    keep_time(deadline - timedelta(seconds=TURN), deadline - timedelta(seconds=0.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.deadline == deadline
    clock.sweep_once(deadline + timedelta(seconds=0.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"


def test_a_turn_that_ran_out_while_no_clock_ran_gets_its_full_time_again(make_user):
    match = a_started_game(make_user, "cd")
    deadline, version = match.deadline, match.version
    start = deadline - timedelta(seconds=TURN)
    keep_time(start, start + 2 * TICK)  # the clock runs for 2 s, then the site is down...
    back = deadline + timedelta(seconds=8)  # ...for 16 s: the turn ran out 8 s ago
    clock.sweep_once(back)
    match.refresh_from_db()
    # Given its full 10 s from the clock's return, not timed out; no move was made.
    assert match.status == MatchStatus.PLAYING
    assert match.deadline == back + timedelta(seconds=TURN)
    assert match.version == version and match.moves.filter(kind="timeout").count() == 0
    assert ClockBeat.objects.get().beat_at == back
    # The clock runs on; at 9.5 s the turn still runs, and once its 10 s are over the idle
    # player is timed out as usual.
    keep_time(back + TICK, back + timedelta(seconds=TURN - 0.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    clock.sweep_once(back + timedelta(seconds=TURN + 0.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"


def test_a_gap_shorter_than_the_outage_limit_is_no_outage(make_user):
    match = a_started_game(make_user, "cs")
    deadline = match.deadline
    # (A clock keeps time from the turn's start: the first beat ever is an outage, which
    # would give the running turn its time again.)
    keep_time(deadline - timedelta(seconds=TURN), deadline - timedelta(seconds=1))
    clock.sweep_once(deadline + timedelta(seconds=1.5))  # 2.5 s since the last beat: < 3 s
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


def test_the_first_clock_ever_gives_a_passed_turn_its_full_time(make_user):
    match = a_started_game(make_user, "cf")
    assert not ClockBeat.objects.exists()  # no clock has ever run: an outage of unknown length
    back = match.deadline + timedelta(hours=1)
    clock.sweep_once(back)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.deadline == back + timedelta(seconds=TURN)


def test_the_latest_beat_of_any_clock_counts(make_user):
    """Two clocks: one kept time while the other was down, so when the second comes back
    there was no outage, and the turn that ran out is timed out at once."""
    match = a_started_game(make_user, "cm")
    deadline = match.deadline
    keep_time(deadline - timedelta(seconds=TURN), deadline - timedelta(seconds=0.5))  # clock A
    # Clock B, back after a long time, sweeps 0.1 s after A's last beat -- at the same
    # beat row, so it sees A's beat.
    clock.sweep_once(deadline - timedelta(seconds=0.4) + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


def test_a_sweep_that_beats_late_does_not_move_the_beat_back(make_user):
    """Two clocks: A's sweep took its time, then waited for the beat row while B beat
    (and perhaps gave the time of a long outage, which takes a while).  A's beat, older
    than B's, must not replace it: the next sweep, 2.5 s after B's, finds no outage, and
    the turn that ran out meanwhile is timed out."""
    match = a_started_game(make_user, "cl")
    deadline = match.deadline
    keep_time(deadline - timedelta(seconds=TURN), deadline - timedelta(seconds=3))
    clock.sweep_once(deadline - timedelta(seconds=2))    # clock B
    clock.sweep_once(deadline - timedelta(seconds=4.5))  # clock A, beating late
    assert ClockBeat.objects.get().beat_at == deadline - timedelta(seconds=2)
    clock.sweep_once(deadline + timedelta(seconds=0.5))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"


def test_a_move_made_after_the_time_was_given_again_is_not_overwritten(make_user):
    """give_time_again writes only if the match is still at the version and deadline it
    read: a deadline it finds moved on is left alone."""
    from games.play import service, store

    match = a_started_game(make_user, "cv")
    read = type(match).objects.get(pk=match.pk)
    type(match).objects.filter(pk=match.pk).update(deadline=match.deadline + TICK)
    assert not store.move_deadline(read, read.deadline + timedelta(hours=1))
    match.refresh_from_db()
    assert match.deadline == read.deadline + TICK
    assert service.give_time_again(match.deadline + TICK) == 1


def test_a_turn_still_running_after_an_outage_gets_its_full_time_again_too(make_user):
    """RULES.md 9's decision: every turn that was running while no clock kept time gets
    its full time again, whether or not it ran out -- here 6 s of a 10 s turn were left
    when the clock came back after 4 s away."""
    match = a_started_game(make_user, "cr")
    deadline = match.deadline
    start = deadline - timedelta(seconds=TURN)
    keep_time(start, start)  # one beat at the turn's start, then nothing for 4 s
    back = start + timedelta(seconds=4)
    clock.sweep_once(back)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.deadline == back + timedelta(seconds=TURN)


def test_a_clock_that_has_just_started_notices_a_restart_shorter_than_the_outage_limit(
        make_user, settings):
    """A restart of the only server takes a second or more: its clock's first sweep finds
    the last beat older than KOZEL_CLOCK_RESTART (1 s) and gives the running turn its
    time again, though the gap is under KOZEL_CLOCK_OUTAGE (3 s)."""
    settings.KOZEL_CLOCK_RESTART = 1
    match = a_started_game(make_user, "cs")
    start = match.deadline - timedelta(seconds=TURN)
    keep_time(start, start)
    back = start + timedelta(seconds=1.5)
    clock.sweep_once(back, starting=True)
    match.refresh_from_db()
    assert match.deadline == back + timedelta(seconds=TURN)
    # A clock starting beside others that keep time (a beat 0.2 s old) is no outage.
    given = match.deadline
    clock.sweep_once(back + timedelta(seconds=0.2), starting=True)
    match.refresh_from_db()
    assert match.deadline == given
