"""The table's chat in real browsers: two players talk (one with a quick phrase on a
phone), a spectator (who came from the lobby's list of games being played) writes to
the spectators only, the room counts its watchers, and nothing of it changes the game.
Then a player reports a line, and a moderator mutes its author and deletes it, each with
a reason that the moderation log keeps: the line leaves the rooms, and the author's next
line is refused, saying so.  One server and one table for all of it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from accounts.moderators import GROUP_NAME
from games.lobby import service as requests
from games.models import ChatMessage, Match
from games.play import notify

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def a_moderator(make_user):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    return person


def chat_line(page, text):
    return page.locator("#chat-lines .chat-text", has_text=text)


def write(page, text):
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_players_and_spectators_chat_apart_and_a_moderator_deletes_and_mutes(
        people, daphne_server, make_user, tmp_path):
    masha_user, alex_user = make_user("masha"), make_user("alex")
    # Its notices are dropped: nobody is in the lobby, and this thread runs Playwright's
    # event loop, where they could not be sent synchronously.
    with notify.collected():
        match = requests.create_request(masha_user, players=2)
        requests.join_request(alex_user, match.pk)
    version = Match.objects.get(pk=match.pk).version

    masha, alex = people("masha"), people("alex", phone=True)
    vera, oleg = people("vera"), people("oleg", phone=True)
    for person, user in ((masha, masha_user), (alex, alex_user),
                         (vera, make_user("vera")), (oleg, make_user("oleg"))):
        person.log_in_as(user, daphne_server)
        if person is vera:  # the lobby lists the game; a click opens the spectator's room
            person.open_lobby()
            person.page.locator(f'[data-playing="{match.pk}"] [data-action="watch"]').click()
            person.page.wait_for_url(f"**/games/{match.pk}/")
        else:
            person.page.goto(f"/games/{match.pk}/")
        person.page.locator("#room").wait_for()
    assert masha.page.locator(".chat-title").inner_text() == "Чат игроков"
    assert vera.page.locator(".chat-title").inner_text() == "Чат зрителей"

    write(masha.page, "Привет, <b>всем</b>")
    chat_line(alex.page, "Привет, <b>всем</b>").wait_for()  # as text, not markup
    assert alex.page.locator("#chat-lines b", has_text="всем").count() == 0
    assert masha.page.input_value("#chat-text") == ""  # emptied once sent

    alex.page.locator("[data-chat-quick]", has_text="Хорошая игра!").click()
    chat_line(masha.page, "Хорошая игра!").wait_for()

    write(vera.page, "Смотрю с интересом")
    chat_line(oleg.page, "Смотрю с интересом").wait_for()
    # A later line of the players reaches them: the spectator's would have come before it.
    write(alex.page, "Ходи")
    chat_line(masha.page, "Ходи").wait_for()
    for player in (masha, alex):
        assert chat_line(player.page, "Смотрю").count() == 0
    for spectator in (vera, oleg):
        assert chat_line(spectator.page, "Привет").count() == 0
        assert chat_line(spectator.page, "Хорошая игра!").count() == 0

    # Two watch (the players are not counted), in every room of the table.
    masha.page.locator('#room-watching[data-watching="2"]').wait_for()
    assert masha.page.locator("#room-watching").inner_text() == "Зрителей: 2"
    assert Match.objects.get(pk=match.pk).version == version  # no line is a move
    # No sideways scroll on a phone with the chat under the table.
    assert alex.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert [e for p in (masha, alex, vera, oleg) for e in p.errors] == []

    # -- moderation: Alex reports Masha's first line ---------------------------------
    rude = chat_line(alex.page, "Привет, <b>всем</b>").locator("xpath=..")
    rude.locator("[data-chat-report]").click()
    expect(alex.page.locator("#chat-notice")).to_have_text("Сообщение отправлено модераторам.")
    moder = people("moder")
    moder.log_in_as(a_moderator(make_user), daphne_server)
    page = moder.page
    page.goto("/moderation/chat/")
    reported = page.locator("[data-reported]", has_text="Привет, <b>всем</b>")
    # The author muted for a day, then the line deleted, each with its reason.
    reported.locator('form[action*="/mute/"] textarea[name="reason"]').fill("Грубит за столом")
    reported.locator('form[action*="/mute/"] button[type="submit"]').click()
    expect(page.locator(".messages")).to_contain_text("запрещено писать в чат")
    reported.locator('form[action$="/delete/"] textarea[name="reason"]').fill("Оскорбление")
    reported.locator('form[action$="/delete/"] button[type="submit"]').click()
    expect(page.locator(".messages")).to_contain_text("удалено")

    for player in (masha, alex):  # gone from the rooms that showed it
        expect(chat_line(player.page, "Привет, <b>всем</b>")).to_have_count(0)
    write(masha.page, "А теперь?")
    expect(masha.page.locator("#chat-notice.error")).to_contain_text("Модератор запретил вам")
    assert not ChatMessage.objects.filter(text="А теперь?").exists()

    page.goto("/moderation/")
    log = page.locator(".log-table tbody")
    expect(log.locator("tr", has_text="Оскорбление")).to_contain_text(f"#{match.pk}")
    expect(log.locator("tr", has_text="Грубит за столом")).to_contain_text("masha")
    page.screenshot(path=str(tmp_path / "moderation-log.png"), full_page=True)
    assert [e for p in (masha, alex, moder) for e in p.errors] == []
