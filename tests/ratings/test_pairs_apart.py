"""The ratings pages tell games in pairs (RULES.md 11) from games alone: the counts the
services keep, the ladder's "2×2" column, the player page's counts, filter and marks,
and the chart's rings; a private game stays hidden from strangers in all of them."""

import importlib
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import Player, User
from games.models import MatchStatus
from games.moderation import service as moderation
from ratings.chart import rating_chart
from ratings.models import RatingTotal
from ratings.services import rebuild_totals, record_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("masha", "alex", "olya", "serg")]


@pytest.fixture
def ended(make_match):
    """ended(people, points, pairs=..., private=...) -> a finished rated game, its
    rating records written as the game's end writes them."""
    # A second apart, in this week and month (the period ladders show these only).
    moment, seconds = timezone.now() - timedelta(minutes=5), iter(range(1000))

    def make(people, points, pairs=False, private=False):
        match = make_match(people, status=MatchStatus.FINISHED, rated=True, pairs=pairs,
                           private=private, ended_at=moment + timedelta(seconds=next(seconds)),
                           result={"goats": [1], "interrupted_by": None, "reason": None,
                                   "scores": [20, 101, 20, 101][:len(people)],
                                   "rating_points": points})
        record_game(match, points, goats=[1])
        return match
    return make


@pytest.fixture
def evening(four, ended):
    """masha's games: one alone with alex (+8), then one in pairs with olya against
    alex and serg (+9); the pair game's id."""
    masha, alex, olya, serg = four
    ended([masha, alex], [8, 0])
    return ended([masha, alex, olya, serg], [9, 0, 9, 0], pairs=True)


def player_counts(user):
    player = Player.objects.get(user=user)
    return player.games_played, player.pair_games


def period_counts():
    return {(t.player_id, t.period, t.start): (t.games, t.pair_games)
            for t in RatingTotal.objects.all()}


def moderator(make_user):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name="moderators"))
    return User.objects.get(pk=person.pk)


def test_a_rated_pair_game_counts_apart_until_it_is_annulled(four, evening, make_user):
    masha, alex, olya, serg = four
    assert player_counts(masha) == (2, 1) and player_counts(olya) == (1, 1)
    kept = period_counts()
    assert sum(pairs for _games, pairs in kept.values()) == 4 * 2  # a week and a month each
    assert rebuild_totals() and period_counts() == kept  # the sums from the records agree

    moderation.annul_game(evening.pk, moderator(make_user), "a fixed game")
    assert player_counts(masha) == (1, 0) and player_counts(olya) == (0, 0)
    assert {pairs for _games, pairs in period_counts().values()} == {0}
    rebuild_totals()
    assert {pairs for _games, pairs in period_counts().values()} == {0}


def test_the_ladder_shows_each_players_games_in_pairs(client, four, evening):
    masha, alex, olya, serg = four
    for period in ("all", "week", "month"):
        page = client.get("/ratings/", {"period": period}).content.decode()
        assert 'title="игры в парах (2 на 2)">2×2</abbr></th>' in page
        cells = {u.username: re.search(
            rf'<tr id="p-{u.pk}"[^>]*>.*?<td class="num">(\d+)</td>\s*'
            r'<td class="num pairs-col">(\d+)</td>', page, re.S).groups() for u in four}
        # (games, of them in pairs)
        assert cells == {"masha": ("2", "1"), "alex": ("2", "1"), "olya": ("1", "1"),
                         "serg": ("1", "1")}, period


def profile(client, login="masha", **query):
    return client.get(f"/players/{login}/", query).content.decode()


def stats(page):
    box = page.split('<dl class="stats">')[1].split("</dl>")[0]
    return {name: re.search(rf'data-stat="{name}">(?:<dt>[^<]*</dt>)?<dd>(\d+)</dd>'
                            if name in ("games", "pair-games") else
                            rf'data-stat="{name}">[^<\d]*(\d+)<', box).group(1)
            for name in ("games", "rated-games", "pair-games", "rated-pair-games")}


def game_links(page):
    body = page.split('class="games-table"')[1].split("</tbody>")[0]
    return [int(n) for n in re.findall(r'href="/games/(\d+)/record/"', body)]


def test_the_player_page_counts_and_filters_the_games_in_pairs(client, four, evening, make_match):
    masha = four[0]
    alone = make_match([masha, None], status=MatchStatus.FINISHED, rated=False,
                       ended_at=timezone.now(), result={"goats": [1], "interrupted_by": None,
                                                        "reason": None, "scores": [5, 101],
                                                        "rating_points": None})
    page = profile(client)
    assert stats(page) == {"games": "3", "rated-games": "2", "pair-games": "1",
                           "rated-pair-games": "1"}
    assert ">В парах</dt>" in page
    assert '<a href="?games=pairs#games"' in page and '<a href="?games=alone#games"' in page
    everything = game_links(page)
    assert everything[0] == alone.pk and len(everything) == 3
    pairs = profile(client, games="pairs")
    assert game_links(pairs) == [evening.pk]
    assert 'aria-current="page" class="current">В парах</a>' in pairs
    assert game_links(profile(client, games="alone")) == [alone.pk, everything[2]]
    # The counts stay the player's, whatever the list shows.
    assert stats(pairs) == stats(page)
    assert game_links(profile(client, games="nonsense")) == everything


def test_a_player_with_no_game_in_pairs_gets_no_filter(client, four, ended):
    ended(four[:2], [8, 0])
    page = profile(client)
    assert stats(page)["pair-games"] == "0" and "?games=pairs" not in page
    assert "Партий в парах ещё не было." in profile(client, games="pairs")


def rings(page):
    svg = page.split('<figure class="rating-chart">')[1].split("</figure>")[0]
    return re.findall(r'<circle class="pair-game" cx="([\d.]+)" cy="([\d.]+)"', svg)


def test_the_chart_rings_the_steps_of_games_in_pairs(client, four, evening):
    page = profile(client)
    [(x, y)] = rings(page)
    # On the staircase's last step: the pair game's +9 took masha from 8 to 17.
    path = re.search(r'class="line" d="([^"]+)"', page).group(1)
    assert f"H{x}V{y}" in path
    assert "игра в парах (2 на 2)" in page
    assert rings(profile(client, "alex")) and "pair-game" in profile(client, "serg")


@pytest.mark.parametrize("viewer", ["anonymous", "a player", "masha", "a moderator"])
def test_a_private_game_in_pairs_stays_hidden_from_strangers(client, four, ended, make_user,
                                                             viewer):
    masha, alex, olya, serg = four
    ended([masha, alex], [8, 0])
    secret = ended([masha, alex, olya, serg], [9, 0, 9, 0], pairs=True, private=True)
    who = {"anonymous": None, "a player": make_user("petya"), "masha": masha,
           "a moderator": moderator(make_user)}[viewer]
    if who is not None:
        client.force_login(who)
    page = profile(client)
    sees = viewer in ("masha", "a moderator")
    assert stats(page)["pair-games"] == ("1" if sees else "0")
    assert stats(page)["rated-pair-games"] == "1"  # the ladder's number, as "rated" is
    assert bool(rings(page)) == sees
    assert ("?games=pairs" in page) == sees
    in_pairs = profile(client, games="pairs")
    if sees:
        assert game_links(in_pairs) == [secret.pk]
    else:
        assert "games-table" not in in_pairs and f"/games/{secret.pk}/" not in in_pairs


def test_rings_are_one_per_pixel_column():
    day = 86_400.0
    points = [(day * n, n) for n in range(1, 1001)]
    chart = rating_chart(points, start=0.0, now=1001 * day, marked=points[::2])
    columns = [x for x, _y in chart.marks]
    assert len(columns) == len(set(columns)) and 100 < len(columns) <= chart.plot_right
    assert rating_chart(points[:3], marked=[]).marks == []


def test_the_migration_counts_the_pair_games_played_before_it(four, evening, ended):
    ended(four[2:], [3, 0])
    before = {p.pk: p.pair_games for p in Player.objects.all()}
    totals = {t.pk: t.pair_games for t in RatingTotal.objects.all()}
    Player.objects.update(pair_games=0)
    RatingTotal.objects.update(pair_games=0)
    migration = importlib.import_module("ratings.migrations.0004_pair_games")
    migration.count_pair_games(apps, None)
    assert {p.pk: p.pair_games for p in Player.objects.all()} == before
    assert {t.pk: t.pair_games for t in RatingTotal.objects.all()} == totals
    assert sum(before.values()) == 4
