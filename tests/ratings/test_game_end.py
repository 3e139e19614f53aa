"""Rating points when a game ends, played end to end through games.play.service.

The examples of RULES.md 8 and 9 are whole games: their records (tests/ratings/records)
are dealt and played move by move through the services, and the clock or a player's
leaving ends the interrupted one.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from accounts.models import Player
from games.play import service as services
from games.play.errors import PlayError
from games.models import Match, MatchStatus, RoundScore
from ratings.models import RatingRecord, RatingTotal
from ratings.services import period_starts, rebuild_totals, record_game

from . import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("Masha", "Alex", "Olya")}


def ratings(*users):
    return [Player.objects.get(user=u).rating for u in users]


def test_the_finished_example_of_rules_8_score_25_gives_8(people):
    """RULES.md 8: the goat gets nothing; score 25 -> 7.5 -> 8; score 0 -> 10."""
    record = played.load("finished_rules8")
    users = [people["Masha"], people["Alex"], people["Olya"]]
    match = played.play(played.seat_table(users, record), users, record)

    assert match.status == MatchStatus.FINISHED
    assert match.result["scores"] == [25, 110, 0]
    assert match.result["goats"] == [1]
    assert match.result["rating_points"] == [8, 0, 10]
    assert ratings(*users) == [8, 0, 10]
    records = {r.player.user.username: r for r in RatingRecord.objects.filter(match=match)}
    assert {n: (r.points, r.rating_after, r.goat) for n, r in records.items()} == {
        "Masha": (8, 8, False), "Alex": (0, 0, True), "Olya": (10, 10, False)}
    alex = Player.objects.get(user=people["Alex"])
    assert (alex.games_played, alex.times_goat, alex.last_game_at) == (1, 1, match.ended_at)
    # Four rounds were scored, and the log is the record that was played.
    assert RoundScore.objects.filter(match=match).count() == 4 * 3
    assert played.record_json(match) == played.load("finished_rules8").to_json()


def test_the_timeout_example_of_rules_9(people):
    """RULES.md 9: Alex (32) times out; Masha (30): 0.2 -> 0 -> 1; Olya (13): 1.9 -> 2."""
    record = played.load("interrupted_rules9")
    users = [people["Masha"], people["Olya"], people["Alex"]]
    match = played.play(played.seat_table(users, record), users, record)
    assert match.status == MatchStatus.PLAYING
    assert match.state["scores"] == [30, 13, 32] and match.state["turn"] == 2

    assert not services.run_due(match.pk, now=match.deadline - timedelta(seconds=1))
    assert services.run_due(match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    assert match.result["interrupted_by"] == 2 and match.result["reason"] == "timeout"
    assert match.result["rating_points"] == [1, 2, 0]
    assert ratings(*users) == [1, 2, 0]
    assert RatingRecord.objects.filter(match=match).count() == 3
    # The round in progress was not scored: two rounds of score rows only.
    assert set(RoundScore.objects.filter(match=match).values_list("round_number", flat=True)) == {1, 2}


def test_leaving_is_scored_like_the_timeout_of_rules_9(people):
    record = played.load("interrupted_rules9")
    users = [people["Masha"], people["Olya"], people["Alex"]]
    match = played.play(played.seat_table(users, record), users, record)
    services.leave_game(match.pk, people["Alex"])
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED and match.result["reason"] == "left"
    assert ratings(*users) == [1, 2, 0]
    assert played.record_json(match)["interrupt"] == {"seat": 2, "reason": "left"}


def test_an_unrated_game_leaves_no_records_and_changes_no_numbers(people):
    record = played.load("finished_rules8")
    users = [people["Masha"], people["Alex"], people["Olya"]]
    match = played.play(played.seat_table(users, record, rated=False), users, record)
    assert match.status == MatchStatus.FINISHED
    assert not RatingRecord.objects.exists() and not RatingTotal.objects.exists()
    assert ratings(*users) == [0, 0, 0]
    assert Player.objects.get(user=people["Masha"]).games_played == 0


def test_an_end_processed_twice_is_credited_once(people):
    record = played.load("finished_rules8")
    users = [people["Masha"], people["Alex"], people["Olya"]]
    match = played.play(played.seat_table(users, record), users, record)
    assert not record_game(match, match.result["rating_points"], match.result["goats"])
    assert ratings(*users) == [8, 0, 10]
    assert Player.objects.get(user=people["Masha"]).games_played == 1
    assert RatingRecord.objects.filter(match=match).count() == 3
    # A second end through the services is refused before it reaches the ratings.
    with pytest.raises(PlayError):
        services.leave_game(match.pk, people["Alex"])
    assert not services.run_due(match.pk, now=timezone.now() + timedelta(days=1))
    assert ratings(*users) == [8, 0, 10]


def test_ratings_add_up_over_games_and_equal_the_sum_of_the_records(people):
    first = played.load("finished_rules8")
    users = [people["Masha"], people["Alex"], people["Olya"]]
    played.play(played.seat_table(users, first), users, first)
    second = played.load("interrupted_rules9")
    again = [people["Masha"], people["Olya"], people["Alex"]]
    match = played.play(played.seat_table(again, second), again, second)
    services.leave_game(match.pk, people["Alex"])
    assert ratings(*users) == [8 + 1, 0 + 0, 10 + 2]
    for player in Player.objects.all():
        history = list(RatingRecord.objects.filter(player=player).order_by("created_at", "id"))
        assert player.rating == sum(r.points for r in history)
        assert [r.rating_after for r in history] == [
            sum(r.points for r in history[:i + 1]) for i in range(len(history))]
        assert player.games_played == len(history)


def test_the_period_totals_sum_the_games_of_the_week_and_month(people):
    record = played.load("finished_rules8")
    users = [people["Masha"], people["Alex"], people["Olya"]]
    match = played.play(played.seat_table(users, record), users, record)
    week, month = period_starts(match.ended_at)
    masha = Player.objects.get(user=people["Masha"])
    for period, start in (week, month):
        total = RatingTotal.objects.get(player=masha, period=period, start=start)
        assert (total.points, total.games, total.goats) == (8, 1, 0)
    alex_total = RatingTotal.objects.get(player__user=people["Alex"], period="week")
    assert (alex_total.points, alex_total.games, alex_total.goats) == (0, 1, 1)
    kept = sorted(RatingTotal.objects.values_list("player", "period", "start", "points", "games", "goats"))
    rebuild_totals()
    assert sorted(RatingTotal.objects.values_list("player", "period", "start", "points", "games", "goats")) == kept


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_a_timeout_and_a_leave_at_once_end_the_game_once(make_user):
    """Two processes ending one game at the same moment: the match lock makes one wait,
    and the second finds the game over; the points are credited once."""
    people = {name: make_user(name) for name in ("Masha", "Alex", "Olya")}
    record = played.load("interrupted_rules9")
    users = [people["Masha"], people["Olya"], people["Alex"]]
    match = played.play(played.seat_table(users, record), users, record)
    barrier = threading.Barrier(2)
    outcomes = []

    def timeout():
        barrier.wait()
        try:
            outcomes.append(("timeout", services.run_due(match.pk, now=timezone.now() + timedelta(days=1))))
        finally:
            connections.close_all()

    def leave():
        barrier.wait()
        try:
            services.leave_game(match.pk, people["Alex"])
            outcomes.append(("leave", True))
        except PlayError:
            outcomes.append(("leave", False))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=timeout), threading.Thread(target=leave)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won for _, won in outcomes) == [False, True], outcomes
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    assert RatingRecord.objects.filter(match=match).count() == 3
    assert ratings(*users) == [1, 2, 0]
    assert Match.objects.get(pk=match.pk).moves.filter(kind__in=["timeout", "leave"]).count() == 1


def test_period_starts_are_local_monday_and_first_of_month(settings):
    from datetime import date, datetime
    from datetime import timezone as tz

    # 21:30 UTC on Sunday 31 May 2026 is already Monday 1 June in Moscow.
    moment = datetime(2026, 5, 31, 21, 30, tzinfo=tz.utc)
    assert dict(period_starts(moment)) == {"week": date(2026, 6, 1), "month": date(2026, 6, 1)}
    assert dict(period_starts(date(2026, 6, 7))) == {"week": date(2026, 6, 1), "month": date(2026, 6, 1)}
