"""Dates and times in the viewer's own time zone, not the site's (Moscow), at phone and
desktop sizes (issue 42, defect 10): the moderation log, a player's past bars and the
"since" of a running game on the moderation pages.  Without JavaScript the site's time
is shown with its zone named (games/templatetags/moments.py)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as tz
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match
from .test_chat_in_browser import a_moderator

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AT = datetime(2026, 12, 6, 21, 14, tzinfo=tz.utc)  # 00:14 in Moscow, the next day


def shown(moment: datetime, zone: str) -> tuple[str, str]:
    local = moment.astimezone(ZoneInfo(zone))
    return local.strftime("%d.%m.%Y"), local.strftime("%H:%M")


def in_zone(locator, moment: datetime, zone: str) -> None:
    expect(locator).to_have_attribute("data-localized", "true")
    text = locator.inner_text()
    day, time = shown(moment, zone)
    assert day in text and time in text, (text, zone)
    moscow_day, moscow_time = shown(moment, "Europe/Moscow")
    assert moscow_time not in text and "MSK" not in text


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_moderation_dates_are_in_the_viewers_zone(people, daphne_server, make_user, make_match,
                                                  tmp_path, phone):
    from accounts.models import ModeratorAction
    from games.models import Match
    from ratings.models import Bar

    zone = "America/New_York" if phone else "UTC"
    masha, alex = make_user("masha"), make_user("alex")
    match = running_match(make_match, [masha, alex], a_moment(lambda s: s.turn == 0))
    Match.objects.filter(pk=match.pk).update(started_at=AT)
    moder_user = a_moderator(make_user)
    ModeratorAction.objects.create(moderator=moder_user, action="chat_mute", person=masha,
                                   reason="Грубит за столом", created_at=AT)
    Bar.objects.create(player=masha.player, since=AT, until=AT + timedelta(hours=1),
                       ended_at=AT + timedelta(minutes=30), lifted_by=moder_user)
    moder = people("moder", phone=phone, viewport=None if phone else WIDE, timezone_id=zone)
    moder.log_in_as(moder_user, daphne_server)
    page = moder.page
    size = "phone" if phone else "desktop"

    page.goto("/moderation/")
    since = page.locator(".running-list li", has_text=f"#{match.pk}").locator("time[data-local]")
    in_zone(since, AT, zone)
    logged = page.locator(".log-table tbody tr", has_text="Грубит за столом")
    in_zone(logged.locator("time[data-local]"), AT, zone)
    page.screenshot(path=str(tmp_path / f"moderation-index-{size}.png"), full_page=True)

    page.goto("/moderation/players/masha/")
    past = page.locator('[data-list="bars"] li').first
    times = past.locator("time[data-local]")
    expect(times).to_have_count(3)  # since, until, lifted
    in_zone(times.nth(0), AT, zone)
    in_zone(times.nth(1), AT + timedelta(hours=1), zone)
    in_zone(times.nth(2), AT + timedelta(minutes=30), zone)
    in_zone(page.locator(".log-table tbody tr", has_text="Грубит за столом")
            .locator("time[data-local]"), AT, zone)
    page.screenshot(path=str(tmp_path / f"moderation-player-{size}.png"), full_page=True)
    assert moder.errors == []


def test_without_javascript_the_sites_time_is_shown_with_its_zone_named():
    from django.template import Context, Template

    html = Template('{% load moments %}{{ when|local_time:"short" }}').render(
        Context({"when": AT}))
    assert 'datetime="2026-12-07T00:14:00+03:00"' in html and 'data-local="short"' in html
    assert "00:14 MSK" in html
