"""The friends page (issue 42, point 6): the players one follows, who is online now and
at which table -- watch a public game, join a public request -- and nothing that reveals
a private table to someone who may not see it."""

import re

import pytest

from accounts import friends, presence
from games.lobby import service as requests
from games.models import Match
from games.players.friends import friend_rows

ROW = re.compile(r'<li class="friend[^"]*" data-friend="([^"]+)">(.*?)</li>', re.S)


def rows_of(client) -> dict[str, str]:
    answer = client.get("/friends/")
    assert answer.status_code == 200
    return dict(ROW.findall(answer.content.decode()))


@pytest.fixture
def viewer(make_user):
    return make_user("viewer")


def test_the_page_needs_a_log_in(client, db):
    assert client.get("/friends/").status_code == 302


def test_online_friends_come_first_with_their_tables(client, viewer, make_user):
    idle, watcher, player, waiting, away = (make_user(n) for n in
                                            ("idle", "watcher", "player", "waiting", "away"))
    for person in (idle, watcher, player, waiting, away):
        friends.follow(viewer, person)
    friends.follow(idle, viewer)  # one way: who follows the viewer is not listed for it
    presence.touch(idle.pk)
    presence.touch(watcher.pk)
    game = requests.create_request(player, players=2)
    requests.join_request(make_user("other"), game.pk)          # playing, public
    request = requests.create_request(waiting, players=3)        # waiting, public, 2 free
    client.force_login(viewer)
    rows = rows_of(client)
    assert list(rows) == ["idle", "player", "watcher", "away", "waiting"]
    assert 'data-presence="online"' in rows["idle"] and "в сети" in rows["idle"]
    assert 'data-presence="offline"' in rows["away"] and "не в сети" in rows["away"]
    # A game being played: online, with a link to watch it.
    assert 'data-presence="online"' in rows["player"]
    assert f'href="/games/{game.pk}/"' in rows["player"] and "Смотреть" in rows["player"]
    # A public request with room: a seat to take.
    assert f'action="/games/{request.pk}/join/"' in rows["waiting"]
    assert "Сесть (свободно мест: 2)" in rows["waiting"]
    # No table: a challenge.
    assert 'action="/players/away/challenge/"' in rows["away"]


def test_a_private_table_shows_only_that_the_friend_plays(client, viewer, make_user):
    olya, serg, vera = make_user("olya"), make_user("serg"), make_user("vera")
    friends.follow(viewer, olya)
    friends.follow(viewer, vera)
    game = requests.create_request(olya, players=2, private=True)
    requests.join_request(serg, game.pk, invite_token=game.invite_token)
    waiting = requests.create_request(vera, players=2, private=True)
    client.force_login(viewer)
    page = client.get("/friends/").content.decode()
    rows = dict(ROW.findall(page))
    assert "играет" in rows["olya"] and 'data-table="hidden"' in rows["olya"]
    assert "за столом" in rows["vera"]
    for match in (game, waiting):
        assert f"/games/{match.pk}/" not in page and match.invite_token not in page
    assert "/challenge/" not in rows["olya"]  # busy: nothing to offer
    # A player at that private table sees it.
    friends.follow(serg, olya)
    row = next(r for r in friend_rows(serg) if r.person == olya)
    assert row.match == game and not row.hidden_table


def test_a_friend_who_closed_the_account_is_not_listed(client, viewer, make_user):
    gone = make_user("gone")
    friends.follow(viewer, gone)
    gone.is_active = False
    gone.save()
    client.force_login(viewer)
    assert rows_of(client) == {}
    assert "Вы пока ни на кого не подписаны" in client.get("/friends/").content.decode()


def test_the_player_page_offers_follow_challenge_and_block(client, viewer, make_user):
    petya = make_user("petya")
    client.force_login(viewer)
    page = client.get("/players/petya/").content.decode()
    assert "Подписаться" in page and "Заблокировать" in page and "Вызвать на игру" in page
    friends.follow(viewer, petya)
    page = client.get("/players/petya/").content.decode()
    assert "Отписаться" in page and "Подписаться<" not in page
    friends.block(viewer, petya)
    page = client.get("/players/petya/").content.decode()
    assert "Разблокировать" in page and "Отписаться" not in page and "Вызвать на игру" not in page
    # The blocked person's view of the blocker's page offers neither follow nor challenge.
    client.force_login(petya)
    page = client.get("/players/viewer/").content.decode()
    assert "Подписаться" not in page and "Вызвать на игру" not in page
    # One's own page: the way to the friends list, no buttons.
    client.force_login(viewer)
    page = client.get("/players/viewer/").content.decode()
    assert 'href="/friends/"' in page and 'data-testid="friend-actions"' not in page


def test_english_msgids(client, viewer, make_user):
    make_user("petya")
    client.force_login(viewer)
    page = client.get("/players/petya/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Follow" in page and "Block" in page and "Challenge" in page
    page = client.get("/friends/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The players you follow" in page


def test_no_private_match_of_a_friend_reaches_the_lobby(make_user, viewer):
    olya = make_user("olya")
    friends.follow(viewer, olya)
    requests.create_request(olya, players=2, private=True)
    assert Match.objects.filter(private=True).count() == 1
    [row] = friend_rows(viewer)
    assert row.match is None and row.hidden_table


@pytest.mark.django_db(transaction=True)
async def test_a_page_with_a_socket_marks_its_person_online(make_user):
    from channels.db import database_sync_to_async

    from tests.games.wsclient import logged_in

    person = await database_sync_to_async(make_user)("online_one")
    assert presence.online_ids([person.pk]) == set()
    ws = await logged_in("/ws/lobby/", person)
    connected, _ = await ws.connect(timeout=10)
    assert connected
    await ws.receive_from(timeout=10)
    assert presence.online_ids([person.pk]) == {person.pk}
    await ws.disconnect()


def test_the_lobby_links_to_the_friends_page(client, viewer):
    client.force_login(viewer)
    assert 'href="/friends/"' in client.get("/").content.decode()
    client.logout()
    assert 'href="/friends/"' not in client.get("/").content.decode()
