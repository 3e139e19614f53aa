import pytest


@pytest.fixture(autouse=True)
def _no_schedule(settings):
    # The site's own arenas are made only where a test asks for them (test_schedule.py).
    settings.KOZEL_ARENA_SCHEDULE = []
