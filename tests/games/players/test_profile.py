import re
from datetime import datetime
from datetime import timezone as dt_timezone

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Player


def profile_numbers(page):
    """The profile's numbers by their labels: {"Рейтинг": "1357", ..., "Последняя партия": ...}."""
    stats = page.split('<dl class="stats">')[1].split("</dl>")[0]
    numbers = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", stats))
    numbers.update(re.findall(r'data-stat="rated-games">(рейтинговых): (\d+)<', stats))
    numbers.update((f"{label} в парах", count) for label, count in re.findall(
        r'data-stat="rated-pair-games">(рейтинговых): (\d+)<', stats))
    numbers["Последняя партия"] = re.search(
        r"Последняя партия: (?:<time [^>]*>)?([^<]*)(?:</time>)?<br>", page).group(1)
    return numbers


def test_the_profile_page_shows_a_players_numbers(client, user):
    # Numbers no other part of the page shows, each checked against its own label.
    Player.objects.filter(user=user).update(
        rating=1357, games_played=246, times_goat=97, pair_games=35,
        last_game_at=datetime(2019, 3, 14, 12, 0, tzinfo=dt_timezone.utc))
    page = client.get("/players/masha/").content.decode()
    assert "<h1>masha</h1>" in page
    assert profile_numbers(page) == {
        # Games played: the games listed (none here); the rated ones apart.
        "Рейтинг": "1357", "Сыграно партий": "0", "рейтинговых": "246", "Раз козлом": "97",
        "В парах": "0", "рейтинговых в парах": "35",
        "Последняя партия": "14 марта 2019 г.",  # 15:00 in Moscow; Russian "j E Y г."
    }


def test_a_player_with_no_games_shows_zeros(client, user):
    page = client.get("/players/masha/").content.decode()
    assert profile_numbers(page) == {
        "Рейтинг": "0", "Сыграно партий": "0", "рейтинговых": "0", "Раз козлом": "0",
        "В парах": "0", "рейтинговых в парах": "0", "Последняя партия": "ещё не было",
    }


def test_the_profile_is_found_in_any_case_and_in_cyrillic(client, make_user):
    make_user("Ёжик")
    assert client.get("/players/ЁЖИК/").status_code == 200
    assert client.get("/players/%D1%91%D0%B6%D0%B8%D0%BA/").status_code == 200  # "ёжик"


def test_an_unknown_player_is_404(client, db):
    assert client.get("/players/nobody/").status_code == 404


def test_a_rating_never_goes_negative(user):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(user=user).update(rating=-1)


def test_a_player_is_not_goat_more_often_than_they_played(user):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(user=user).update(games_played=1, times_goat=2)


def test_the_ladder_index_exists(db):
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Player._meta.db_table)
    assert constraints["player_ladder_idx"]["columns"] == ["rating", "id"]


# -- the rating history and the games -------------------------------------------------

from datetime import timedelta  # noqa: E402

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.models import MatchStatus  # noqa: E402
from ratings.services import record_game  # noqa: E402


@pytest.fixture
def ended_game(make_match):
    """ended_game([masha, olya], points=[8, 0], goats=[1]) -> a finished rated game."""
    moments = iter(range(1, 10_000))

    def make(people, points, goats=(), status=MatchStatus.FINISHED, rated=True, private=False,
             interrupted_by=None):
        ended = timezone.now() - timedelta(days=400) + timedelta(hours=next(moments))
        match = make_match(people, status=status, rated=rated, private=private, ended_at=ended,
                           result={"goats": list(goats), "interrupted_by": interrupted_by,
                                   "reason": "timeout" if interrupted_by is not None else None,
                                   "scores": [101 if s in goats else 25 for s in range(len(people))],
                                   "rating_points": points})
        record_game(match, points, goats)
        return match
    return make


def game_rows(page):
    body = page.split('class="games-table"')[1].split("</tbody>")[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>")[1], re.S)


def test_the_profile_draws_the_rating_history_as_svg(client, make_user, ended_game):
    masha, olya = make_user("masha"), make_user("olya")
    ended_game([masha, olya], [8, 0], goats=[1])
    ended_game([masha, olya], [3, 0], goats=[1])
    page = client.get("/players/masha/").content.decode()
    svg = page.split('<figure class="rating-chart">')[1].split("</figure>")[0]
    assert "<svg" in svg and 'class="line"' in svg and "<script" not in page.split("</header>")[1]
    assert "11" in svg  # the current rating is the chart's title
    path = re.search(r'class="line" d="([^"]+)"', svg).group(1)
    assert path.startswith("M") and path.count("V") == 2  # two steps: +8, then +3
    assert "История рейтинга" in page


def test_a_new_player_has_no_chart_and_no_games(client, user):
    page = client.get("/players/masha/").content.decode()
    assert "rating-chart" not in page
    assert "Рейтинговых партий пока нет." in page and "Партий пока нет." in page


def test_the_games_table_links_every_game(client, make_user, ended_game):
    masha, olya, alex = make_user("masha"), make_user("olya"), make_user("alex")
    won = ended_game([masha, olya], [8, 0], goats=[1])
    lost = ended_game([alex, masha], [8, 0], goats=[1])
    timed_out = ended_game([masha, alex], [0, 1], status=MatchStatus.INTERRUPTED, interrupted_by=0)
    page = client.get("/players/masha/").content.decode()
    rows = game_rows(page)
    assert len(rows) == 3
    newest = rows[0]
    assert f'href="/games/{timed_out.pk}/record/"' in newest and "кончилось время" in newest
    assert "+0" in newest and 'href="/players/alex/"' in newest
    assert f'href="/games/{lost.pk}/record/"' in rows[1] and "козёл" in rows[1]
    assert f'href="/games/{won.pk}/record/"' in rows[2] and "не козёл" in rows[2] and "+8" in rows[2]
    assert re.search(r">8</td>", rows[1])  # rating after: 8, then 8, then 8


def test_games_played_counts_every_game_listed_with_bots_and_unrated_ones(
        client, make_user, make_match, ended_game):
    masha, olya = make_user("masha"), make_user("olya")
    ended_game([masha, olya], [8, 0], goats=[1])
    make_match([masha, None], status=MatchStatus.FINISHED, rated=False,
               ended_at=timezone.now(), result={"goats": [1], "interrupted_by": None,
                                                "reason": None, "scores": [20, 101],
                                                "rating_points": None})
    page = client.get("/players/masha/").content.decode()
    numbers = profile_numbers(page)
    assert len(game_rows(page)) == 2
    assert numbers["Сыграно партий"] == "2" and numbers["рейтинговых"] == "1"


def test_the_games_table_pages_with_the_same_queries(client, make_user, ended_game):
    masha, olya = make_user("masha"), make_user("olya")
    ended_game([masha, olya], [5, 0], goats=[1])
    with CaptureQueriesContext(connection) as few:
        client.get("/players/masha/")
    for _ in range(24):
        ended_game([masha, olya], [5, 0], goats=[1])
    with CaptureQueriesContext(connection) as many:
        first = client.get("/players/masha/").content.decode()
    assert len(many) == len(few)
    assert len(game_rows(first)) == 20 and "Страница 1 из 2" in first
    second = client.get("/players/masha/?page=2").content.decode()
    assert len(game_rows(second)) == 5


def test_an_annulled_game_is_marked(client, make_user, ended_game):
    from django.contrib.auth.models import Group

    from accounts.models import User
    from games.moderation import service as moderation

    masha, olya = make_user("masha"), make_user("olya")
    annulled = ended_game([masha, olya], [8, 0], goats=[1])
    ended_game([masha, olya], [2, 0], goats=[1])
    moder = make_user("moder", is_staff=True)
    moder.groups.add(Group.objects.get(name="moderators"))
    moderation.annul_game(annulled.pk, User.objects.get(pk=moder.pk), "fixed game")
    page = client.get("/players/masha/").content.decode()
    rows = game_rows(page)
    assert "аннулирована" in rows[1] and "<s>+8</s>" in rows[1]
    assert Player.objects.get(user=masha).rating == 2


# -- private games stay private ----------------------------------------------------------

@pytest.fixture
def secret_game(make_user, ended_game):
    """masha's page: an open game with alex (+8), then a private one with olya (+2)."""
    masha, olya, alex = make_user("masha"), make_user("olya"), make_user("alex")
    ended_game([masha, alex], [8, 0], goats=[1])
    return ended_game([masha, olya], [2, 0], goats=[1], private=True)


def chart_steps(page):
    """How many rating records the chart draws: one "V" (a step) each."""
    svg = page.split('<figure class="rating-chart">')[1].split("</figure>")[0]
    return re.search(r'class="line" d="([^"]+)"', svg).group(1).count("V")


def masha_page_for(client, viewer):
    if viewer is not None:
        client.force_login(viewer)
    return client.get("/players/masha/").content.decode()


@pytest.mark.parametrize("stranger", ["anonymous", "a player", "staff, not a moderator"])
def test_a_stranger_sees_no_private_game(client, make_user, secret_game, stranger):
    viewer = {"anonymous": None, "a player": make_user("petya"),
              "staff, not a moderator": make_user("clerk", is_staff=True)}[stranger]
    page = masha_page_for(client, viewer)
    rows = game_rows(page)
    assert len(rows) == 1 and 'href="/players/alex/"' in rows[0]
    assert "olya" not in page and "+2" not in page and "закрытая" not in page
    assert chart_steps(page) == 1   # the open game's +8 only


@pytest.mark.parametrize("who", ["masha", "olya", "a moderator", "a superuser"])
def test_its_players_and_moderators_see_a_private_game(client, make_user, secret_game, who):
    from django.contrib.auth.models import Group

    from accounts.models import User

    if who == "a moderator":
        viewer = make_user("moder", is_staff=True)
        viewer.groups.add(Group.objects.get(name="moderators"))
    elif who == "a superuser":
        viewer = make_user("boss", is_staff=True, is_superuser=True)
    else:
        viewer = User.objects.get(username=who)
    page = masha_page_for(client, User.objects.get(pk=viewer.pk))
    rows = game_rows(page)
    assert len(rows) == 2
    assert 'href="/players/olya/"' in rows[0] or "<b>olya</b>" in rows[0]
    assert f'href="/games/{secret_game.pk}/record/"' in rows[0] and "+2" in rows[0]
    assert chart_steps(page) == 2   # +8, then the private +2
