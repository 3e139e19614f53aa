"""The site's own arenas: a setting, made by the clock's sweep once per slot, however
many clocks sweep."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.arena import schedule
from games.models import Arena
from tests.games.conftest import at_once

pytestmark = pytest.mark.django_db(transaction=True)

MOSCOW = ZoneInfo("Europe/Moscow")
HOURLY = {"key": "hourly", "name": "Часовая арена", "every": "hour", "minute": 0,
          "minutes": 30, "table": 3, "fish": "all", "turn_seconds": 20, "rated": True,
          "announce_hours": 1}
DAILY = {"key": "daily", "name": "Вечерняя арена пар", "every": "day", "time": "20:00",
         "minutes": 120, "table": "pairs", "fish": "one", "turn_seconds": 30, "rated": True,
         "announce_hours": 24}


def test_the_schedule_is_a_setting_materialised_once_per_slot(settings):
    settings.TIME_ZONE = "Europe/Moscow"
    settings.KOZEL_ARENA_SCHEDULE = [HOURLY, DAILY]
    now = datetime(2026, 12, 6, 10, 40, tzinfo=MOSCOW)
    made = schedule.sweep(now)
    # 10:00 is over at 10:30; 11:00 is within the hour ahead; 20:00 today within the day.
    starts = sorted((a.name, a.starts_at.astimezone(MOSCOW).strftime("%H:%M"), a.minutes,
                     a.seats_count, a.pairs) for a in Arena.objects.all())
    assert made == 2
    assert starts == [("Вечерняя арена пар", "20:00", 120, 4, True),
                      ("Часовая арена", "11:00", 30, 3, False)]
    assert schedule.sweep(now + timedelta(minutes=5)) == 0
    assert schedule.sweep(now + timedelta(minutes=25)) == 1  # 12:00 comes within the hour


def test_two_clocks_make_a_slot_once(settings):
    settings.KOZEL_ARENA_SCHEDULE = [HOURLY]
    now = datetime(2026, 12, 6, 10, 40, tzinfo=MOSCOW)
    at_once(lambda: schedule.sweep(now), lambda: schedule.sweep(now))
    assert Arena.objects.count() == 1
