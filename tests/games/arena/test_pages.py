"""The arenas' pages: the list, creating one (open or private by link), the arena's page
with its standings and the viewer's own state, join, pause and come back, a moderator's
cancellation in the moderation log, and the podiums on player pages."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import ModeratorAction, User
from accounts.moderators import GROUP_NAME
from games.arena import seating
from games.models import Arena, ArenaPlayer

from .helpers import an_arena, give_seeds, join_all, play_to_end, seat_now

pytestmark = pytest.mark.django_db


def test_the_list_shows_upcoming_running_and_finished(client, make_user):
    an_arena(name="Скоро", starts_in=10)
    running = an_arena(name="Идёт")
    join_all(running, [make_user("a"), make_user("b")])
    over = an_arena(name="Прошла", starts_in=-100)
    Arena.objects.filter(pk=over.pk).update(over_at=timezone.now())
    an_arena(name="Тайная", private=True)
    page = client.get("/arenas/").content.decode()
    assert "Скоро" in page and "Идёт" in page and "Прошла" in page
    assert "Тайная" not in page
    assert "2 игрока" in page


def test_creating_an_open_and_a_private_arena(client, make_user):
    client.force_login(make_user("creator"))
    form = {"name": "Моя арена", "start_now": "on", "minutes": "45", "table": "pairs",
            "fish": "one", "turn_seconds": "25", "rated": "on"}
    response = client.post("/arenas/new/", form)
    arena = Arena.objects.get(name="Моя арена")
    assert response.url == f"/arenas/{arena.pk}/"
    assert (arena.seats_count, arena.pairs, arena.fish, arena.minutes) == (4, True, "one", 45)
    response = client.post("/arenas/new/", dict(form, name="Тайная", private="on"))
    secret = Arena.objects.get(name="Тайная")
    assert response.url == f"/arenas/private/{secret.invite_token}/"
    other = client.__class__()
    assert other.get(f"/arenas/{secret.pk}/").status_code == 404  # by its link only
    assert other.get(f"/arenas/private/{secret.invite_token}/").status_code == 200
    bad = client.post("/arenas/new/", dict(form, minutes="5"))
    assert bad.status_code == 400
    later = (timezone.localtime() + timedelta(days=8)).strftime("%Y-%m-%dT%H:%M")
    bad = client.post("/arenas/new/", dict(form, start_now="", starts_at=later))
    assert bad.status_code == 400


def test_join_pause_and_come_back_from_the_page(client, make_user):
    person = make_user("masha")
    client.force_login(person)
    arena = an_arena()
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-testid="arena-join"' in page
    client.post(f"/arenas/{arena.pk}/join/", HTTP_HX_REQUEST="true")
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-state="waiting"' in page and 'data-player="masha"' in page
    client.post(f"/arenas/{arena.pk}/pause/")
    assert ArenaPlayer.objects.get(arena=arena, user=person).paused
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-state="paused"' in page and 'data-testid="arena-back"' in page
    client.post(f"/arenas/{arena.pk}/join/")
    assert not ArenaPlayer.objects.get(arena=arena, user=person).paused


def test_you_are_next_and_at_table(client, make_user):
    people = [make_user(f"p{n}") for n in range(4)]
    arena = an_arena(seats=3)
    join_all(arena, people[:2])
    client.force_login(people[0])
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-testid="arena-next"' not in page  # two wait for a table of three
    join_all(arena, people[2:3])
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-testid="arena-next"' in page
    [match] = seat_now(arena)
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert f'data-arena-seat="{match.pk}"' in page and match.commitment in page


def test_a_moderator_cancels_with_a_reason_in_the_log(client, make_user):
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    arena = an_arena()
    client.force_login(make_user("someone"))
    client.post(f"/arenas/{arena.pk}/cancel/", {"reason": "проверка"})
    assert Arena.objects.get(pk=arena.pk).cancelled_at is None
    client.force_login(User.objects.get(pk=moderator.pk))
    client.post(f"/arenas/{arena.pk}/cancel/", {"reason": "ошибка в настройках"})
    arena.refresh_from_db()
    assert arena.cancelled_at is not None and arena.phase() == "cancelled"
    logged = ModeratorAction.objects.get(arena=arena)
    assert (logged.action, logged.reason, logged.moderator_id) == (
        "arena_cancel", "ошибка в настройках", moderator.pk)


def test_the_podium_shows_on_the_arena_and_player_pages(client, make_user):
    people = [make_user(f"p{n}") for n in range(2)]
    users = {p.pk: p for p in people}
    arena = an_arena(seats=2)
    join_all(arena, people)
    [match] = seat_now(arena)
    give_seeds(match, users)
    play_to_end(match, users)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    seating.sweep()
    arena.refresh_from_db()
    assert arena.phase() == "over"
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    assert 'data-testid="arena-podium"' in page
    profile = client.get("/players/p0/").content.decode()
    assert 'data-testid="podiums"' in profile and "Тестовая арена" in profile
