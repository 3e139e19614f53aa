"""RULES.md 10's limits in an arena (games/arena/limits.py on ratings.limits)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.arena import service
from games.play.errors import PlayError
from ratings.models import Bar

from .helpers import an_arena

pytestmark = pytest.mark.django_db


def test_a_player_barred_for_leaving_may_not_join_a_rated_arena_but_an_unrated_one(make_user):
    lena = make_user("лена")
    Bar.objects.create(player=lena.player, until=timezone.now() + timedelta(hours=1))
    with pytest.raises(PlayError) as refused:
        service.join(an_arena(rated=True), lena)
    assert refused.value.code == "barred"
    assert service.join(an_arena(rated=False), lena) is not None


def test_the_bar_over_the_player_may_join_again(make_user):
    lena = make_user("лена")
    now = timezone.now()
    Bar.objects.create(player=lena.player, since=now - timedelta(hours=2),
                       until=now - timedelta(hours=1))
    assert service.join(an_arena(rated=True), lena) is not None
