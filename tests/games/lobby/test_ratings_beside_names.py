"""Issue 42, point 3: the lobby shows each person's rating beside their name -- in the
open requests and the games being played -- and no rating beside a bot; the ratings of a
whole list are read with its seats, however long the list (no query per name)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Player
from games.lobby import listing
from games.lobby import service as requests
from games.models import Match

REQUEST = re.compile(r'data-request="(\d+)">(.*?)class="terms"', re.S)
PLAYING = re.compile(r'data-playing="(\d+)">(.*?)</li>', re.S)


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" ,", ",")


def rated(make_user, name, rating):
    user = make_user(name)
    Player.objects.filter(user=user).update(rating=rating)
    return user


@pytest.mark.django_db
def test_an_open_request_shows_the_rating_of_each_person_seated(client, make_user):
    masha, alex = rated(make_user, "masha", 137), rated(make_user, "alex", 0)
    match = requests.create_request(masha, players=3)
    requests.join_request(alex, match.pk)
    page = client.get("/").content.decode()
    row = dict(REQUEST.findall(page))[str(match.pk)]
    seats = re.findall(r'<li class="seat (taken|free)">(.*?)</li>', row, re.S)
    assert [(kind, text(html)) for kind, html in seats] == [
        ("taken", "masha рейтинг 137"), ("taken", "alex рейтинг 0"), ("free", "свободно")]
    assert re.findall(r'data-rating="(\d+)"', row) == ["137", "0"]


@pytest.mark.django_db
def test_the_games_being_played_show_peoples_ratings_and_none_for_bots(client, make_user):
    masha, alex, vera = (rated(make_user, "masha", 25), rated(make_user, "alex", 310),
                         rated(make_user, "vera", 7))
    people = requests.create_request(masha, players=2)
    requests.join_request(alex, people.pk)
    bots = requests.play_with_bots(vera, players=3)
    rows = dict(PLAYING.findall(client.get("/").content.decode()))
    assert text(rows[str(people.pk)]).startswith("masha рейтинг 25, alex рейтинг 310 ")
    assert re.findall(r'data-rating="(\d+)"', rows[str(bots.pk)]) == ["7"]
    players = re.search(r'<span class="players">(.*?)</span>\s*<span class="aside">',
                        rows[str(bots.pk)], re.S).group(1)
    assert text(players).startswith("vera рейтинг 7, ")
    assert "рейтинг" not in text(players).removeprefix("vera рейтинг 7, ")  # two bots, no ratings


@pytest.mark.django_db
def test_a_longer_list_reads_no_more_queries(make_user):
    """The lobby's list is rendered for every lobby page on every change: its ratings
    come with the seats it reads anyway."""
    def count_queries():
        viewer = make_user(f"viewer{Match.objects.count()}")
        with CaptureQueriesContext(connection) as queries:
            listing.requests_fragment(viewer)
        return len(queries)

    def add_tables(n):
        for _ in range(n):
            first, second, third = (rated(make_user, f"p{Match.objects.count()}_{i}", 5)
                                    for i in range(3))
            waiting = requests.create_request(first, players=3)
            requests.join_request(second, waiting.pk)
            playing = requests.create_request(third, players=2)
            requests.join_request(rated(make_user, f"q{playing.pk}", 9), playing.pk)

    add_tables(1)
    few = count_queries()
    add_tables(4)
    assert count_queries() == few
