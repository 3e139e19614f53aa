"""A moderator mutes an account from the player's moderation page, at phone and desktop
sizes -- also after deleting the reported line first, which takes that line (and the
mute beside it) off the list of reported lines: the mute holds, and the page says until
when, in the moderator's own time zone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match
from .test_chat_in_browser import a_moderator

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_moderator_deletes_a_reported_line_then_mutes_its_author_from_the_players_page(
        people, daphne_server, make_user, make_match, tmp_path, phone):
    from games.models import ChatMessage, ChatReport, ChatSilence

    masha, alex = make_user("masha"), make_user("alex")
    match = running_match(make_match, [masha, alex], a_moment(lambda s: s.turn == 0))
    rude = ChatMessage.objects.create(match=match, author=masha, room="players", text="Грубость")
    ChatReport.objects.create(message=rude, reporter=alex)
    moder = people("moder", phone=phone, viewport=None if phone else WIDE, timezone_id="UTC")
    moder.log_in_as(a_moderator(make_user), daphne_server)
    page = moder.page
    page.goto("/moderation/chat/")
    reported = page.locator("[data-reported]", has_text="Грубость")
    reported.locator('form[action$="/delete/"] textarea[name="reason"]').fill("Оскорбление")
    reported.locator('form[action$="/delete/"] button[type="submit"]').click()
    expect(page.locator(".messages")).to_contain_text("удалено")
    expect(page.locator("[data-reported]")).to_have_count(0)  # and its mute form with it

    page.goto("/moderation/players/masha/")
    expect(page.locator("main")).to_contain_text("Писать в чат не запрещено.")
    form = page.locator('form[data-form="chat-mute"]')
    form.locator('textarea[name="reason"]').fill("Грубит за столом")
    form.locator('input[name="hours"]').fill("48")
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/moderation/players/masha/")
    expect(page.locator(".messages")).to_contain_text("запрещено писать в чат")
    silence = ChatSilence.objects.get(person=masha)
    muted = page.locator("[data-muted-until] time[data-local]")
    expect(muted).to_have_attribute("data-localized", "true")
    assert silence.until.strftime("%H:%M") in muted.inner_text()  # UTC, the moderator's zone
    expect(page.locator(".log-table tbody tr", has_text="Грубит за столом")).to_have_count(1)
    page.screenshot(path=str(tmp_path / f"moderation-mute-{'phone' if phone else 'desktop'}.png"),
                    full_page=True)
    assert ChatMessage.objects.get(pk=rude.pk).deleted_at is not None
    assert moder.errors == []
