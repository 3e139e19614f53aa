"""Times in the viewer's own time zone, not the site's (Moscow), at phone and desktop
sizes: a chat line's time, whether it was in the chat when the room opened or came over
the socket later, and the end of a moderator's mute in the refusal of a line."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as tz
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SENT = datetime(2026, 12, 6, 21, 14, tzinfo=tz.utc)  # 00:14 in Moscow, the next day


def write(page, text):
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def hh_mm(moment: datetime, zone: str) -> str:
    return moment.astimezone(ZoneInfo(zone)).strftime("%H:%M")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_chat_times_and_a_mute_are_shown_in_the_viewers_zone(
        people, daphne_server, make_user, make_match, tmp_path, phone):
    from games.models import ChatMessage, ChatSilence

    zone = "America/New_York" if phone else "UTC"
    masha_user, alex_user = make_user("masha"), make_user("alex")
    match = running_match(make_match, [masha_user, alex_user], a_moment(lambda s: s.turn == 0))
    ChatMessage.objects.create(match=match, author=alex_user, room="players",
                               text="Добрый вечер", created_at=SENT)
    masha = people("masha", phone=phone, viewport=None if phone else WIDE, timezone_id=zone)
    masha.enter_room(masha_user, daphne_server, match.pk)
    page = masha.page
    old = page.locator("#chat-lines .chat-line", has_text="Добрый вечер").locator(".chat-time")
    expect(old).to_have_text(hh_mm(SENT, zone))
    assert hh_mm(SENT, zone) != hh_mm(SENT, "Europe/Moscow")

    # A line that comes over the socket: in her zone too.
    write(page, "Привет")
    new = page.locator("#chat-lines .chat-line", has_text="Привет").locator(".chat-time")
    expect(new).to_have_attribute("data-localized", "true")
    sent = datetime.fromisoformat(new.get_attribute("datetime"))
    assert new.inner_text() == hh_mm(sent, zone)

    # Muted until 02:23 UTC: the refusal says when in her zone.
    until = (datetime.now(tz.utc) + timedelta(days=2)).replace(hour=2, minute=23, second=0,
                                                               microsecond=0)
    ChatSilence.objects.create(person=masha_user, until=until)
    write(page, "А теперь?")
    notice = page.locator(".error time[data-local]")
    expect(notice).to_have_attribute("data-localized", "true")
    assert hh_mm(until, zone) in notice.inner_text()
    assert hh_mm(until, "Europe/Moscow") not in notice.inner_text()
    page.screenshot(path=str(tmp_path / f"chat-times-{'phone' if phone else 'desktop'}.png"),
                    full_page=True)
    assert masha.errors == []

