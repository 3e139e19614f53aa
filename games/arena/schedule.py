"""The site's own arenas (RULES.md 12: scheduled open arenas), from
settings.KOZEL_ARENA_SCHEDULE, made by the clock's sweep as each slot comes within its
announcement time.  Each slot has a key of its own (``Arena.schedule_key``, unique), so
that any number of clocks make it once."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Arena


def slots(entry: dict, now: datetime) -> list[datetime]:
    """The starts of ``entry``'s slots from now until its announcement time ahead."""
    ahead = now + timedelta(hours=entry.get("announce_hours", 1))
    local = now.astimezone(ZoneInfo(settings.TIME_ZONE))
    if entry["every"] == "hour":
        first = local.replace(minute=entry.get("minute", 0), second=0, microsecond=0)
        step = timedelta(hours=1)
    elif entry["every"] == "day":
        hour, minute = (int(part) for part in entry["time"].split(":"))
        first = datetime.combine(local.date(), time(hour, minute), local.tzinfo)
        step = timedelta(days=1)
    else:
        raise ValueError(f"KOZEL_ARENA_SCHEDULE: every is 'hour' or 'day', not {entry['every']!r}")
    found, start = [], first
    while start <= ahead:
        if start + timedelta(minutes=entry["minutes"]) > now:  # not over yet
            found.append(start)
        start += step
    return found


def key_of(entry: dict, start: datetime) -> str:
    return f"{entry['key']}:{start.astimezone(ZoneInfo('UTC')).strftime('%Y-%m-%dT%H:%M')}"


def sweep(now=None) -> int:
    """Make the scheduled arenas due to be announced; how many were made."""
    now = now or timezone.now()
    wanted = {key_of(entry, start): (entry, start)
              for entry in settings.KOZEL_ARENA_SCHEDULE for start in slots(entry, now)}
    if not wanted:
        return 0
    there = set(Arena.objects.filter(schedule_key__in=wanted).values_list("schedule_key",
                                                                          flat=True))
    made = 0
    for key, (entry, start) in wanted.items():
        if key in there:
            continue
        table = entry["table"]
        try:
            with transaction.atomic():
                Arena.objects.create(
                    name=entry["name"], schedule_key=key, starts_at=start,
                    ends_at=start + timedelta(minutes=entry["minutes"]),
                    seats_count=4 if table == "pairs" else table, pairs=table == "pairs",
                    fish=entry["fish"], turn_seconds=entry["turn_seconds"],
                    rated=entry["rated"], private=False)
            made += 1
        except IntegrityError:  # another clock made it meanwhile
            continue
    return made
