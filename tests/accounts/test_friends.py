"""Following and blocking (issue 42, point 6): the rules of accounts.friends, and the
posts that change them (POST only, logged in, CSRF, limited per account)."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from accounts import friends, presence
from accounts.models import Block, Follow


@pytest.fixture
def masha(make_user):
    return make_user("masha")


@pytest.fixture
def petya(make_user):
    return make_user("petya")


def test_follow_is_one_way_and_once(masha, petya):
    assert friends.follow(masha, petya) is True
    assert friends.follow(masha, petya) is False
    assert friends.is_following(masha, petya) and not friends.is_following(petya, masha)
    assert friends.followed_ids(masha) == [petya.pk]
    assert friends.unfollow(masha, petya) is True
    assert friends.unfollow(masha, petya) is False
    assert friends.followed_ids(masha) == []


def test_nobody_follows_or_blocks_themselves(masha):
    with pytest.raises(friends.FriendsError):
        friends.follow(masha, masha)
    with pytest.raises(friends.FriendsError):
        friends.block(masha, masha)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=masha, followed=masha)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=masha, blocked=masha)


def test_the_database_keeps_one_follow_and_one_block_per_pair(masha, petya):
    Follow.objects.create(follower=masha, followed=petya)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=masha, followed=petya)
    Block.objects.create(blocker=masha, blocked=petya)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=masha, blocked=petya)


def test_a_block_removes_the_follows_both_ways(masha, petya):
    friends.follow(masha, petya)
    friends.follow(petya, masha)
    assert friends.block(masha, petya) is True
    assert not Follow.objects.exists()
    assert friends.is_blocked(masha, petya) and not friends.is_blocked(petya, masha)
    assert friends.blocked_between(petya, masha)
    assert friends.block(masha, petya) is False


def test_while_a_block_stands_neither_can_follow_the_other(masha, petya):
    friends.block(masha, petya)
    for one, other in ((masha, petya), (petya, masha)):
        with pytest.raises(friends.FriendsError):
            friends.follow(one, other)
    assert friends.unblock(masha, petya) is True
    assert friends.unblock(masha, petya) is False
    assert friends.follow(petya, masha) is True


def test_chat_is_hidden_both_ways_across_a_block(masha, petya, make_user):
    olya = make_user("olya")
    friends.block(masha, petya)
    assert friends.hidden_chat_authors(masha.pk) == {petya.pk}
    assert friends.hidden_chat_authors(petya.pk) == {masha.pk}
    assert friends.hidden_chat_authors(olya.pk) == set()


def test_presence_marks_expire(masha, petya, monkeypatch):
    presence.touch(masha.pk)
    assert presence.online_ids([masha.pk, petya.pk]) == {masha.pk}
    assert presence.online_ids([]) == set()


# -- the posts ------------------------------------------------------------------------

def url(login, action):
    return f"/accounts/players/{login}/{action}/"


def test_the_posts_follow_unfollow_block_and_unblock(client, masha, petya):
    client.force_login(masha)
    answer = client.post(url("PETYA", "follow"))
    assert answer.status_code == 302 and answer["Location"] == "/players/petya/"
    assert friends.is_following(masha, petya)
    client.post(url("petya", "unfollow"))
    assert not friends.is_following(masha, petya)
    client.post(url("petya", "block"))
    assert friends.is_blocked(masha, petya)
    client.post(url("petya", "unblock"))
    assert not friends.is_blocked(masha, petya)


def test_a_refusal_is_a_message_not_an_error(client, masha):
    client.force_login(masha)
    page = client.post(url("masha", "follow"), follow=True).content.decode()
    assert "Это ваша собственная учётная запись." in page
    assert not Follow.objects.exists()


def test_only_posts_of_a_logged_in_person_with_a_csrf_token(masha, petya):
    anonymous = Client(enforce_csrf_checks=True)
    answer = anonymous.post(url("petya", "follow"))
    assert answer.status_code in (302, 403) and not Follow.objects.exists()
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(masha)
    assert checked.post(url("petya", "follow")).status_code == 403
    assert checked.get(url("petya", "follow")).status_code == 405
    assert not Follow.objects.exists()
    assert Client().post(url("petya", "follow")).status_code == 302  # to the log-in page
    assert Client().post(url("nobody", "follow")).status_code == 302
    client = Client()
    client.force_login(masha)
    assert client.post(url("nobody", "follow")).status_code == 404
    assert client.post(url("petya", "befriend")).status_code == 404


def test_the_posts_are_limited_per_account(client, masha, petya, settings):
    client.force_login(masha)
    answers = [client.post(url("petya", "follow" if n % 2 == 0 else "unfollow")).status_code
               for n in range(62)]
    assert answers[:60] == [302] * 60 and answers[60:] == [429, 429]
