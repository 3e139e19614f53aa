"""A pair game's end and rating points (RULES.md 11), played through games.play.service
from the hand-written pair record (tests/ratings/records/pairs_fish.json: its one round
is worked out by hand in tests/rules/test_pair_record.py)."""

from datetime import timedelta

import pytest

from accounts.models import Player
from games.models import MatchStatus, RoundScore
from games.play import service as services
from ratings.models import RatingRecord

from . import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("Masha", "Alex", "Olya", "Serg")]


def pair_table(users, record):
    match = played.seat_table(users, record)
    match.pairs = True
    match.save(update_fields=["pairs"])
    return match


def ratings(users):
    return [Player.objects.get(user=u).rating for u in users]


def test_fish_for_one_makes_both_players_of_pair_b_goats(four):
    record = played.load("pairs_fish")
    match = played.play(pair_table(four, record), four, record)
    assert match.status == MatchStatus.FINISHED
    assert match.result["goats"] == [1, 3] and match.result["scores"] == [0, 124, 0, 124]
    assert match.result["rating_points"] == [10, 0, 10, 0]
    assert ratings(four) == [10, 0, 10, 0]
    goats = {r.player.user.username: r.goat for r in RatingRecord.objects.filter(match=match)}
    assert goats == {"Masha": False, "Alex": True, "Olya": False, "Serg": True}
    assert played.record_json(match)["pairs"] is True
    assert played.record_json(match) == record.to_json()


def test_a_timeout_gives_nothing_to_who_timed_out_and_their_partner(four):
    record = played.load("pairs_fish")
    record.fish = "all"  # fish for all: pair A 54, pair B 70, and the game goes on
    match = played.play(pair_table(four, record), four, record)
    assert match.status == MatchStatus.PLAYING and match.state["scores"] == [54, 70, 54, 70]
    assert RoundScore.objects.filter(match=match).count() == 4
    # The clock deals round 2 when the pause ends; then the leader's turn runs out.
    assert services.run_due(match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.state["phase"] == "play" and match.state["turn"] == 1  # the fisherman leads
    assert services.run_due(match.pk, now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED and match.result["interrupted_by"] == 1
    # Alex timed out: Alex and Serg get nothing; Masha and Olya (70 - 54) / 10 = 1.6 -> 2.
    assert match.result["rating_points"] == [2, 0, 2, 0]
    assert ratings(four) == [2, 0, 2, 0]
