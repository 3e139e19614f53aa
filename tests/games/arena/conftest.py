import pytest


@pytest.fixture(autouse=True)
def _no_schedule(settings):
    # The site's own arenas are made only where a test asks for them (test_schedule.py).
    settings.KOZEL_ARENA_SCHEDULE = []


@pytest.fixture(autouse=True)
def _tables_seated_when_the_test_says(settings):
    # The clock's sweeps that deal the rounds (tests/games/arena/helpers.py play_to_end)
    # also seat; a long gathering keeps them from seating anyone behind a test's back,
    # and seat_now() looks far enough ahead.  (Tests of the gathering set their own.)
    settings.KOZEL_ARENA_GATHER = 9
