"""A game's chats on its page after the game: both, for its players and moderators only."""

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.moderators import GROUP_NAME
from accounts.models import User
from games.models import ChatMessage
from tests.ratings import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(people, make_user):
    record = played.load("finished_rules8")
    match = played.play(played.seat_table(people, record), people, record)
    watcher = make_user("Watcher")
    ChatMessage.objects.create(match=match, author=people[0], room="players", text="<b>gg</b> all")
    ChatMessage.objects.create(match=match, author=people[1], room="players",
                               text="see https://example.org/x and www.example.com")
    ChatMessage.objects.create(match=match, author=watcher, room="spectators", text="nice fish")
    ChatMessage.objects.create(match=match, author=watcher, room="spectators", text="gone line",
                               deleted_at=timezone.now())
    return match


def test_its_players_read_both_chats_after_the_game(client, people, finished):
    client.force_login(people[1])
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    assert "&lt;b&gt;gg&lt;/b&gt; all" in page and "nice fish" in page
    assert "gone line" not in page
    # A link stays text, there as in the room.
    assert "see https://example.org/x and www.example.com" in page
    assert 'href="https://example.org' not in page and 'href="http://www.example.com' not in page


def test_other_people_do_not_read_them(client, make_user, finished):
    assert "nice fish" not in client.get(f"/games/{finished.pk}/record/").content.decode()
    client.force_login(make_user("Stranger"))
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    assert "gg</b> all" not in page and "gg&lt;/b&gt; all" not in page and "nice fish" not in page


def test_moderators_read_them_with_the_deleted_lines(client, make_user, finished):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(User.objects.get(pk=person.pk))
    page = client.get(f"/games/{finished.pk}/record/").content.decode()
    assert "nice fish" in page and "gone line" in page
