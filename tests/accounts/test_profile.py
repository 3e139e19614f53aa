import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Player


def test_the_profile_page_shows_a_players_numbers(client, user):
    Player.objects.filter(user=user).update(rating=42, games_played=7, times_goat=2, last_game_at=timezone.now())
    page = client.get("/players/masha/").content.decode()
    for text in ("masha", "Рейтинг", "42", "Сыграно партий", "7", "Был козлом", "2", "Последняя партия"):
        assert text in page


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
