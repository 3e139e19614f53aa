"""RULES.md 9, the decision against rating farming: a rated game interrupted before its
first round has ended is aborted -- no rating points, no rating record -- and every page
and the record say so.  Played through the lobby and games.play.service."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Player
from games.lobby import service as requests
from games.models import Match, MatchStatus
from games.play import service as services
from games.rules.record import replay_text
from ratings.formulas import game_points
from ratings.models import RatingRecord

from . import played

pytestmark = pytest.mark.django_db


def rating(user):
    return Player.objects.get(user=user).rating


def a_started_table(owner, joiner):
    match = requests.create_request(owner, players=2, turn_seconds=10)
    requests.join_request(joiner, match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.rated
    return match


def test_leaving_at_once_aborts_the_game_and_every_page_and_the_record_say_so(make_user, client):
    masha, alex = make_user("masha"), make_user("alex")
    match = a_started_table(masha, alex)
    services.leave_game(match.pk, alex)
    match.refresh_from_db()
    # Rated as an interrupt, masha would get max(1, round_half_up((0 - 0) / 10)) = 1; aborted,
    # nobody gets anything.
    assert match.status == MatchStatus.ABORTED
    assert (match.result["interrupted_by"], match.result["reason"]) == (1, "left")
    assert [rating(masha), rating(alex)] == [0, 0]
    assert not RatingRecord.objects.filter(match=match).exists()

    client.force_login(masha)
    room = client.get(reverse("games:room", args=[match.pk])).content.decode()
    assert "Партия отменена" in room and "Вышел из игры в первом раунде: alex." in room
    page = client.get(reverse("records:game", args=[match.pk])).content.decode()
    assert "Партия отменена до конца первого раунда" in page and "Вышел из игры: alex." in page
    history = client.get(reverse("players:profile", args=["masha"])).content.decode()
    assert "отменена: первый раунд не закончен" in history
    record = client.get(reverse("records:download", args=[match.pk])).content
    summary = replay_text(record, rate=game_points)
    assert summary["status"] == "aborted" and summary["rating_points"] == [0, 0]
    assert json.loads(record)["interrupt"] == {"seat": 1, "reason": "left"}


def test_the_aborted_game_page_in_english(make_user, client):
    masha, alex = make_user("masha"), make_user("alex")
    match = a_started_table(masha, alex)
    services.leave_game(match.pk, alex)
    page = client.get(reverse("records:game", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "aborted before the first round ended" in page.content.decode()


def test_a_timeout_in_the_first_round_aborts_the_game(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = a_started_table(masha, alex)
    assert services.run_due(match.pk, now=timezone.now() + timedelta(seconds=11))
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"
    assert [rating(masha), rating(alex)] == [0, 0]
    assert not RatingRecord.objects.filter(match=match).exists()


def test_a_leave_after_the_first_round_ended_is_rated_as_before(make_user):
    # The record of RULES.md 9's example: Alex (32) leaves; Masha (30): 0.2 -> 0 -> 1;
    # Olya (13): 1.9 -> 2; Alex 0.
    people = [make_user(n) for n in ("Masha", "Olya", "Alex")]
    record = played.load("interrupted_rules9")
    match = played.play(played.seat_table(people, record), people, record)
    services.leave_game(match.pk, people[2])
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    assert [rating(p) for p in people] == [1, 2, 0]
    assert RatingRecord.objects.filter(match=match).count() == 3


def test_the_farm_loop_ten_times_gains_nothing(make_user):
    """Hostile: a farmer opens a rated 2-seat table, a fresh account joins and leaves at
    once, ten times.  Rated as interrupts, each loop would give the farmer 1 (10 in all)."""
    farmer = make_user("farmer")
    for n in range(10):
        helper = make_user(f"sock{n}")
        match = a_started_table(farmer, helper)
        services.leave_game(match.pk, helper)
        assert Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED
    assert rating(farmer) == 0
    assert not RatingRecord.objects.exists()
    assert Player.objects.get(user=farmer).games_played == 0
