import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from kozel_site.appendonly import AppendOnlyError
from ratings.models import RatingRecord


@pytest.fixture
def game(make_match, make_user):
    return make_match([make_user("masha"), make_user("olya")], status="finished")


def test_one_rating_record_per_game_and_player(game):
    masha, olya = (seat.user.player for seat in game.seats.all())
    RatingRecord.objects.create(match=game, player=masha, points=8, rating_after=8)
    RatingRecord.objects.create(match=game, player=olya, points=0, rating_after=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingRecord.objects.create(match=game, player=masha, points=1, rating_after=9)


@pytest.mark.parametrize("points, rating_after", [(-1, 0), (5, 4)])
def test_rating_points_are_never_negative_and_included_in_the_rating_after(game, points, rating_after):
    player = game.seats.first().user.player
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingRecord.objects.create(match=game, player=player, points=points, rating_after=rating_after)


def test_rating_records_are_history(game):
    player = game.seats.first().user.player
    record = RatingRecord.objects.create(match=game, player=player, points=3, rating_after=3)
    with pytest.raises(AppendOnlyError):
        RatingRecord.objects.filter(pk=record.pk).update(points=30)
    with pytest.raises(ProtectedError):
        game.delete()
    with pytest.raises(ProtectedError):
        player.delete()


def test_history_and_period_indexes_exist(db):
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, RatingRecord._meta.db_table)
    assert found["ratingrecord_history_idx"]["columns"][:3] == ["player_id", "created_at", "id"]
    assert found["ratingrecord_period_idx"]["columns"] == ["created_at"]
