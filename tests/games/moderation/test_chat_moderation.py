"""Moderating the chat: reported lines listed, a line deleted and an account muted for a
time, each with a reason in the moderation log; only moderators may."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import ModeratorAction, User
from accounts.moderators import GROUP_NAME
from games.lobby import service as requests
from games.models import ChatMessage, ChatReport, ChatSilence
from games.moderation import service as moderation
from games.room import chat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _chat_rate(settings):
    settings.KOZEL_CHAT_RATE = "100/m"


@pytest.fixture
def moderator(make_user):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    return User.objects.get(pk=person.pk)


@pytest.fixture
def table(make_user):
    a, b = make_user("Masha"), make_user("Alex")
    match = requests.create_request(a, players=2)
    requests.join_request(b, match.pk)
    return match, a, b


def reported_line(table):
    match, a, b = table
    line = chat.post(match.pk, a, 0, "a rude line")
    chat.report(match.pk, b, line.id)
    return ChatMessage.objects.get(pk=line.id)


def test_a_reported_line_is_listed_for_moderators_and_deleted_with_a_reason(client, moderator, table):
    message = reported_line(table)
    client.force_login(moderator)
    page = client.get("/moderation/chat/").content.decode()
    assert "a rude line" in page and f'data-reported="{message.pk}"' in page
    response = client.post(f"/moderation/chat/{message.pk}/delete/", {"reason": "insults"})
    assert response.status_code == 302
    message.refresh_from_db()
    assert message.deleted_at is not None
    entry = ModeratorAction.objects.get(action=ModeratorAction.Kind.CHAT_DELETE)
    assert (entry.moderator, entry.match_id, entry.person, entry.reason) == (
        moderator, message.match_id, message.author, "insults")
    assert "a rude line" not in client.get("/moderation/chat/").content.decode()
    assert chat.history(message.match_id, "players") == []  # no room shows it again


def test_a_deletion_needs_a_reason(client, moderator, table):
    message = reported_line(table)
    client.force_login(moderator)
    client.post(f"/moderation/chat/{message.pk}/delete/", {"reason": ""})
    message.refresh_from_db()
    assert message.deleted_at is None and not ModeratorAction.objects.exists()


def test_a_moderator_mutes_an_account_for_a_time_and_its_next_line_is_refused(
        client, moderator, table, make_user):
    match, a, _b = table
    client.force_login(moderator)
    client.post(f"/moderation/chat/mute/{a.username}/", {"reason": "spam", "hours": "2"})
    silence = ChatSilence.objects.get(person=a)
    assert timedelta(hours=1, minutes=59) < silence.until - timezone.now() <= timedelta(hours=2)
    entry = ModeratorAction.objects.get(action=ModeratorAction.Kind.CHAT_MUTE)
    assert (entry.moderator, entry.person, entry.match, entry.reason) == (moderator, a, None, "spam")
    with pytest.raises(chat.ChatRefused, match="Модератор запретил вам писать в чат до"):
        chat.post(match.pk, a, 0, "hello again")
    # The account is muted, not its seat at one table: at another game too.
    other = requests.create_request(make_user("Olya"), players=2)
    with pytest.raises(chat.ChatRefused, match="Модератор запретил вам писать в чат до"):
        chat.post(other.pk, a, None, "hello from the rail")
    # Once the time is over, the account writes again.
    ChatSilence.objects.filter(pk=silence.pk).update(until=timezone.now() - timedelta(seconds=1))
    chat.post(match.pk, a, 0, "hello again")


def test_a_mute_needs_a_reason(client, moderator, table):
    _match, a, _b = table
    client.force_login(moderator)
    client.post(f"/moderation/chat/mute/{a.username}/", {"reason": "", "hours": "2"})
    assert not ChatSilence.objects.exists() and not ModeratorAction.objects.exists()


def test_only_moderators_may_moderate_the_chat(client, table):
    message = reported_line(table)
    _match, a, b = table
    client.force_login(b)
    assert client.get("/moderation/chat/").status_code == 403
    assert client.post(f"/moderation/chat/{message.pk}/delete/", {"reason": "mine"}).status_code == 403
    with pytest.raises(moderation.ModerationError):
        moderation.mute_in_chat(a, b, "because", 1)
    message.refresh_from_db()
    assert message.deleted_at is None and not ChatSilence.objects.exists()


def test_a_report_is_filed_once_per_person(table):
    message = reported_line(table)
    match, _a, b = table
    chat.report(match.pk, b, message.pk)
    assert ChatReport.objects.filter(message=message).count() == 1
