"""What the chat answers its writer, beside the chat, at phone and desktop sizes: a line
that is sent empties the field; a refused one (a moderator's mute) stays in it, the reason
shown next to the chat rather than at the top of the page; a report's receipt goes away
after a few seconds, and the reported line keeps a mark (after a reload too)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def write(page, text):
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def line(page, text):
    return page.locator("#chat-lines .chat-line", has_text=text)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_chat_answers_beside_it_and_keeps_a_refused_line(
        people, daphne_server, make_user, make_match, tmp_path, phone):
    from django.utils import timezone

    from games.models import ChatMessage, ChatReport, ChatSilence

    masha_user, alex_user = make_user("masha"), make_user("alex")
    match = running_match(make_match, [masha_user, alex_user], a_moment(lambda s: s.turn == 0))
    ChatMessage.objects.create(match=match, author=alex_user, room="players", text="Ходи давай")
    masha = people("masha", phone=phone, viewport=None if phone else WIDE)
    masha.enter_room(masha_user, daphne_server, match.pk)
    page = masha.page
    size = "phone" if phone else "desktop"

    write(page, "Привет")  # sent: the field is emptied
    line(page, "Привет").wait_for()
    expect(page.locator("#chat-text")).to_have_value("")

    # A report: a receipt beside the chat that goes, and a mark that stays.
    rude = line(page, "Ходи давай")
    rude.locator("[data-chat-report]").click()
    notice = page.locator("#chat-notice")
    expect(notice).to_have_text("Сообщение отправлено модераторам.")
    expect(rude.locator("[data-chat-reported]")).to_have_text("отправлено модераторам")
    expect(rude.locator("[data-chat-report]")).to_have_count(0)
    assert ChatReport.objects.filter(reporter=masha_user).count() == 1
    page.screenshot(path=str(tmp_path / f"chat-reported-{size}.png"), full_page=True)
    expect(notice).to_have_text("", timeout=8_000)
    expect(notice).to_be_hidden()

    # Muted: the line is refused, stays in the field, and the reason is beside the chat.
    ChatSilence.objects.create(person=masha_user, until=timezone.now() + timedelta(hours=5))
    write(page, "А теперь?")
    expect(page.locator("#chat-notice.error")).to_contain_text("Модератор запретил вам")
    expect(page.locator("#chat-text")).to_have_value("А теперь?")
    assert page.locator("#room-notice").inner_text() == ""
    field, reason = page.locator("#chat-text").bounding_box(), notice.bounding_box()
    assert abs(reason["y"] - field["y"]) < 120, (field, reason)  # next to the field
    page.locator("#chat-notice").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"chat-refused-{size}.png"))
    assert not ChatMessage.objects.filter(text="А теперь?").exists()

    page.reload()
    masha.wait_until_live()
    expect(line(page, "Ходи давай").locator("[data-chat-reported]")).to_have_count(1)
    assert masha.errors == []
