"""The ladder at /ratings/ — ranks, pages, finding a player, periods."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Player
from ratings.models import RatingTotal
from ratings.services import period_starts, set_listed

from . import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(make_user):
    """listed("masha", 40, games=3) -> a player with that rating on the ladder."""
    def make(name, rating, games=1, goats=0, last=None):
        user = make_user(name)
        Player.objects.filter(user=user).update(rating=rating, games_played=games,
                                                times_goat=goats, last_game_at=last or timezone.now())
        return user
    return make


def names_on(page: str) -> list[str]:
    body = page.split("<tbody>")[1].split("</tbody>")[0] if "<tbody>" in page else ""
    return re.findall(r'<td class="name"><a href="[^"]+">([^<]+)</a>', body)


def ranks_on(page: str) -> list[int]:
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    return [int(n) for n in re.findall(r'<tr id="p-\d+"[^>]*>\s*<td class="num">(\d+)</td>', body)]


def test_players_by_rating_with_competition_ranks(client, listed):
    listed("olya", 30, games=4, goats=1)
    listed("masha", 50, games=6)
    listed("alex", 40)
    listed("serg", 40)
    page = client.get("/ratings/").content.decode()
    assert names_on(page) == ["masha", "alex", "serg", "olya"]  # older account first on ties
    assert ranks_on(page) == [1, 2, 2, 4]
    for header in ("Рейтинг", "Игры", "Козёл", "Последняя партия"):
        assert f">{header}</th>" in page, header


def test_the_ladder_lists_open_accounts_with_rated_games_only(client, listed, make_user):
    listed("masha", 10)
    make_user("newbie")                       # no rated game yet
    closed = listed("closed", 99)
    closed.is_active = False
    closed.save()
    set_listed(closed.player, False)          # as games.moderation closes an account
    assert names_on(client.get("/ratings/").content.decode()) == ["masha"]


def test_pages_keep_ranks_across_a_tie_on_the_boundary(client, listed):
    for number in range(30):
        listed(f"p{number:02}", 100 - number if number < 24 else 70)
    first = client.get("/ratings/", {"size": 25}).content.decode()
    second = client.get("/ratings/", {"size": 25, "page": 2}).content.decode()
    assert ranks_on(first)[-2:] == [24, 25]   # p24 ends page 1, tied with those below
    assert names_on(second) == ["p25", "p26", "p27", "p28", "p29"]
    assert ranks_on(second) == [25] * 5
    assert 'rel="prev"' in second and "?size=25" in second
    assert client.get("/ratings/", {"page": 99, "size": 25}).status_code == 200  # the last page
    assert client.get("/ratings/", {"page": "x", "size": 7}).status_code == 200


def test_one_page_costs_the_same_queries_whatever_its_size(client, listed):
    for number in range(120):
        listed(f"p{number:03}", number % 17)
    counts = {}
    for size in (25, 50, 100):
        for period in ("all", "week", "month"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get("/ratings/", {"size": size, "period": period, "page": 2}).status_code == 200
            counts[size, period] = len(queries)
    assert len({counts[s, "all"] for s in (25, 50, 100)}) == 1, counts
    assert len({counts[s, "week"] for s in (25, 50, 100)}) == 1, counts
    assert counts[25, "all"] <= 4, counts  # count, page, rank (+ nothing per row)


def test_finding_a_player_opens_their_page_of_the_ladder(client, listed):
    for number in range(60):
        listed(f"p{number:02}", 100 - number)
    page = client.get("/ratings/", {"q": "P55", "size": 25}).content.decode()
    assert "p55" in names_on(page) and names_on(page)[0] == "p50"
    assert re.search(r'<tr id="p-\d+" class="highlight">\s*<td class="num">56</td>', page)


def test_a_missing_or_unlisted_player_is_said_so(client, listed, make_user):
    listed("masha", 10)
    make_user("newbie")
    page = client.get("/ratings/", {"q": "mas"}).content.decode()
    assert "Никого не зовут" in page and ">masha</a>" in page  # a suggestion
    page = client.get("/ratings/", {"q": "newbie"}).content.decode()
    assert "ещё нет рейтинговых партий" in page


def test_the_week_and_month_rank_points_earned_in_the_period(client, listed):
    masha, alex, olya = listed("masha", 500), listed("alex", 10), listed("olya", 20)
    today = timezone.localdate()
    (_week, this_week), (_month, this_month) = period_starts(today)
    earlier = this_week - timedelta(days=7)
    for user, start, points in [(alex, this_week, 9), (olya, this_week, 5), (masha, earlier, 50)]:
        RatingTotal.objects.create(player=user.player, period="week", start=start, points=points,
                                   games=1)
    for user, points in [(masha, 3), (alex, 9), (olya, 9)]:
        RatingTotal.objects.create(player=user.player, period="month", start=this_month,
                                   points=points, games=2)
    week_page = client.get("/ratings/", {"period": "week"}).content.decode()
    assert names_on(week_page) == ["alex", "olya"]
    month_page = client.get("/ratings/", {"period": "month"}).content.decode()
    assert names_on(month_page) == ["alex", "olya", "masha"] and ranks_on(month_page) == [1, 1, 3]
    assert names_on(client.get("/ratings/").content.decode()) == ["masha", "olya", "alex"]


def test_games_played_through_the_services_reach_the_period_ladders(client, make_user):
    users = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    record = played.load("finished_rules8")
    played.play(played.seat_table(users, record), users, record)
    for period in ("all", "week", "month"):
        page = client.get("/ratings/", {"period": period}).content.decode()
        assert names_on(page) == ["Olya", "Masha", "Alex"], period
        assert ranks_on(page) == [1, 2, 3]


def test_the_header_links_to_the_ladder(client, db):
    assert 'href="/ratings/"' in client.get("/").content.decode()
