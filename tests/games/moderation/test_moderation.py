"""Moderation — abort, annul, close and reopen accounts, the running games page,
and the log of every action (who, when, why)."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import ModeratorAction, Player, User
from accounts.moderators import GROUP_NAME
from games.moderation import service as moderation
from games.play import notify, service as services
from games.play.errors import PlayError
from games.lobby import service as requests
from games.models import MatchStatus, Move
from ratings.models import RatingRecord, RatingTotal
from tests.ratings import played
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(make_user):
    person = make_user("moder", is_staff=True)
    person.groups.add(Group.objects.get(name=GROUP_NAME))
    return User.objects.get(pk=person.pk)  # fresh, so its permissions are read anew


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client


@pytest.fixture
def people(make_user):
    return [make_user("Masha"), make_user("Alex"), make_user("Olya")]


def finished_game(people):
    record = played.load("finished_rules8")
    return played.play(played.seat_table(people, record), people, record)


def running_game(people):
    record = played.load("interrupted_rules9")
    users = [people[0], people[2], people[1]]   # Masha, Olya, Alex as in RULES.md 9
    return played.play(played.seat_table(users, record), users, record)


def ratings():
    return {p.user.username: (p.rating, p.games_played, p.times_goat)
            for p in Player.objects.select_related("user")}


def test_the_running_games_page_pages_through_its_games(mod_client, make_user, monkeypatch):
    monkeypatch.setattr("games.moderation.views.RUNNING_PER_PAGE", 1)
    for name in ("lonely", "alone"):
        requests.create_request(make_user(name), players=2)
    first = " ".join(mod_client.get("/moderation/").content.decode().split())
    assert '<nav class="pager" aria-label="Страницы">' in first
    assert '<span class="current">1 / 2</span>' in first and 'href="?page=2" rel="next"' in first
    second = " ".join(mod_client.get("/moderation/?page=2").content.decode().split())
    assert '<span class="current">2 / 2</span>' in second and 'href="?page=1" rel="prev"' in second
    assert 'rel="next"' not in second


def test_only_moderators_reach_the_pages(client, make_user, people):
    assert client.get("/moderation/").status_code == 302  # to the log-in page
    client.force_login(people[0])
    assert client.get("/moderation/").status_code == 403
    staff = make_user("staffer", is_staff=True)          # staff without the moderators group
    client.force_login(staff)
    assert client.get("/moderation/").status_code == 403
    match = running_game(people)
    assert client.post(f"/moderation/games/{match.pk}/abort/", {"reason": "test"}).status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING


def test_the_running_games_page_lists_games_with_watch_links(mod_client, people, make_user):
    match = running_game(people)
    waiting = requests.create_request(make_user("lonely"), players=2, private=True)
    page = mod_client.get("/moderation/").content.decode()
    assert f'href="/games/{match.pk}/"' in page and f'href="/games/{waiting.pk}/"' in page
    assert "Masha" in page and "lonely" in page
    # Staff may watch a private table too.
    assert mod_client.get(f"/games/{waiting.pk}/").status_code == 200


def heard_in_the_room(match_id, action):
    """Run ``action`` while a room of the match listens on the channel layer: (what it
    returned, the first notice the room heard).  One event loop throughout, as a server
    process has: the publish/subscribe layer keeps a loop's channels to that loop."""

    async def listening():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(notify.match_group(match_id), channel)
        result = await sync_to_async(action)()
        message = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard(notify.match_group(match_id), channel)
        return result, message

    return async_to_sync(listening)()


def test_aborting_a_running_game_stops_it_without_ratings_and_tells_the_room(
        mod_client, moderator, people, django_capture_on_commit_callbacks):
    match = running_game(people)
    before = match.version

    def abort():
        with django_capture_on_commit_callbacks(execute=True):
            return mod_client.post(f"/moderation/games/{match.pk}/abort/",
                                   {"reason": "cheating suspected"})

    response, message = heard_in_the_room(match.pk, abort)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.deadline is None and match.ended_at
    assert match.version == before + 1
    assert Move.objects.get(match=match, number=match.version).kind == "abort"
    assert not RatingRecord.objects.exists()
    assert all(v == (0, 0, 0) for v in ratings().values())
    assert message["type"] == "match.changed" and message["version"] == match.version
    action = ModeratorAction.objects.get()
    assert (action.moderator, action.action, action.match, action.reason) == (
        moderator, "abort", match, "cheating suspected")
    # The clock no longer touches it, and nobody can move in it.
    assert match.pk not in services.due_match_ids()
    with pytest.raises(PlayError):
        services.leave_game(match.pk, people[0])
    # Its pages exist now that it is over.
    assert mod_client.get(f"/games/{match.pk}/record/").status_code == 200


def test_every_action_needs_a_reason(mod_client, people):
    match = running_game(people)
    for reason in ("", "  ", "x"):
        mod_client.post(f"/moderation/games/{match.pk}/abort/", {"reason": reason})
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and not ModeratorAction.objects.exists()
    with pytest.raises(moderation.ModerationError):
        moderation.abort_game(match.pk, User.objects.get(username="moder"), "")


def test_only_running_games_are_aborted_and_only_ended_rated_ones_annulled(moderator, people):
    match = finished_game(people)
    with pytest.raises(moderation.ModerationError):
        moderation.abort_game(match.pk, moderator, "too late")
    bots = requests.play_with_bots(people[0], 2)
    moderation.abort_game(bots.pk, moderator, "stuck")
    with pytest.raises(moderation.ModerationError):
        moderation.annul_game(bots.pk, moderator, "unrated and aborted")


def test_annulling_a_finished_game_restores_every_rating(mod_client, moderator, people):
    before = ratings()
    match = finished_game(people)
    assert ratings() != before
    played_totals = list(RatingTotal.objects.values_list("player", "points", "games", "goats"))
    assert mod_client.post(f"/moderation/games/{match.pk}/annul/", {"reason": "collusion"}).status_code == 302

    assert ratings() == before
    for player in Player.objects.all():
        assert player.rating == sum(RatingRecord.objects.filter(player=player).values_list("points", flat=True))
        assert player.last_game_at is None
    # The history keeps the game and shows its annulment.
    records = RatingRecord.objects.filter(match=match)
    assert records.count() == 6
    masha = Player.objects.get(user__username="Masha")
    assert list(RatingRecord.objects.filter(player=masha).order_by("created_at", "id")
                .values_list("points", "rating_after", "annuls__points")) == [(8, 8, None), (-8, 0, 8)]
    # The period ladders forget it too.
    assert set(RatingTotal.objects.values_list("points", "games", "goats")) == {(0, 0, 0)}
    assert len(played_totals) == RatingTotal.objects.count()
    action = ModeratorAction.objects.get(action="annul")
    assert (action.moderator, action.match, action.reason) == (moderator, match, "collusion")
    # Once only.
    with pytest.raises(moderation.ModerationError):
        moderation.annul_game(match.pk, moderator, "again")
    assert ratings() == before
    page = mod_client.get(f"/games/{match.pk}/record/").content.decode()
    assert "annul" in page.lower() or "аннулир" in page.lower()


def test_annulling_an_older_game_keeps_the_later_ones(moderator, people):
    first = finished_game(people)                  # Masha +8, Alex 0 (goat), Olya +10
    second = running_game(people)
    services.leave_game(second.pk, people[1])      # Masha +1, Olya +2, Alex (left) 0
    assert ratings()["Masha"] == (9, 2, 0) and ratings()["Alex"] == (0, 2, 1)
    moderation.annul_game(first.pk, moderator, "first game was fixed")
    assert ratings() == {"Masha": (1, 1, 0), "Alex": (0, 1, 0), "Olya": (2, 1, 0), "moder": (0, 0, 0)}
    masha = Player.objects.get(user__username="Masha")
    assert list(RatingRecord.objects.filter(player=masha).order_by("created_at", "id")
                .values_list("points", "rating_after")) == [(8, 8), (1, 9), (-8, 1)]
    second.refresh_from_db()
    assert masha.last_game_at == second.ended_at


def test_annulling_an_interrupted_game(moderator, people):
    match = running_game(people)
    services.leave_game(match.pk, people[1])
    moderation.annul_game(match.pk, moderator, "left on purpose to spoil it")
    assert all(v[0] == 0 and v[1] == 0 for v in ratings().values())


def test_closing_an_account_ends_their_game_as_if_they_left(mod_client, moderator, people):
    client = Client()
    match = running_game(people)
    alex = people[1]
    response = mod_client.post(f"/moderation/players/{alex.username}/", {"reason": "abusive chat"})
    assert response.status_code == 302
    alex.refresh_from_db()
    match.refresh_from_db()
    assert not alex.is_active and not alex.player.active
    assert match.status == MatchStatus.INTERRUPTED
    assert match.result["interrupted_by"] == 2 and match.result["reason"] == "left"
    assert match.result["rating_points"] == [1, 2, 0]
    assert ratings()["Masha"][0] == 1 and ratings()["Olya"][0] == 2
    action = ModeratorAction.objects.get(action="deactivate")
    assert (action.moderator, action.person, action.reason) == (moderator, alex, "abusive chat")
    # Off the ladder, and unable to log in.
    assert "Alex" not in client.get("/ratings/").content.decode().split("<tbody>")[-1]
    response = client.post(reverse("accounts:login"), {"username": "Alex", "password": "Kozel-test-pass-42"})
    assert not response.wsgi_request.user.is_authenticated


def test_a_closed_account_is_logged_out_and_cannot_play(client, moderator, people):
    masha = people[0]
    client.force_login(masha)
    moderation.deactivate_player(masha, moderator, "spam")
    assert not client.get("/").wsgi_request.user.is_authenticated
    response = post_form(client, reverse("games:create_request"), {"players": 2, "fish": "all", "turn_seconds": 30})
    assert response.status_code in (302, 403)
    assert not masha.seats.exists()


def test_a_waiting_request_loses_a_closed_account(moderator, people):
    request = requests.create_request(people[0], players=3)
    requests.join_request(people[1], request.pk)
    moderation.deactivate_player(people[1], moderator, "spam")
    assert list(request.seats.values_list("user__username", flat=True)) == ["Masha"]


def test_reopening_an_account_puts_the_player_back(mod_client, moderator, people):
    client = Client()
    finished_game(people)
    olya = people[2]
    moderation.deactivate_player(olya, moderator, "suspicious")
    assert RatingTotal.objects.filter(player=olya.player, active=True).count() == 0
    assert mod_client.post(f"/moderation/players/{olya.username}/", {"reason": "cleared"}).status_code == 302
    olya.refresh_from_db()
    assert olya.is_active and olya.player.active
    assert RatingTotal.objects.filter(player=olya.player, active=False).count() == 0
    assert ">Olya</a>" in client.get("/ratings/").content.decode()
    assert list(ModeratorAction.objects.order_by("created_at", "id").values_list("action", flat=True)) == [
        "deactivate", "reactivate"]
    assert ratings()["Olya"] == (10, 1, 0)


def test_moderators_cannot_close_staff_accounts_or_their_own(moderator, make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    with pytest.raises(moderation.ModerationError):
        moderation.deactivate_player(boss, moderator, "coup")
    with pytest.raises(moderation.ModerationError):
        moderation.deactivate_player(moderator, moderator, "tired")
    assert User.objects.get(pk=boss.pk).is_active


def test_the_log_is_read_only_in_the_admin(mod_client, moderator, people):
    match = running_game(people)
    moderation.abort_game(match.pk, moderator, "a reason to read")
    action = ModeratorAction.objects.get()
    changelist = reverse("admin:accounts_moderatoraction_changelist")
    page = mod_client.get(changelist).content.decode()
    assert "a reason to read" in page and "moder" in page
    change = reverse("admin:accounts_moderatoraction_change", args=[action.pk])
    assert mod_client.post(change, {"reason": "rewritten"}).status_code == 403
    assert ModeratorAction.objects.get().reason == "a reason to read"


def test_finding_a_game_by_its_number_refuses_what_is_not_one(mod_client, people):
    match = finished_game(people)
    found = mod_client.get(reverse("moderation:find_game"), {"id": f" #{match.pk} "})
    assert found.status_code == 302 and found["Location"] == reverse("moderation:game",
                                                                      args=[match.pk])
    for typed in ("²", "１２", "9" * 30, "-1", ""):  # a refusal, never a server error
        answer = mod_client.get(reverse("moderation:find_game"), {"id": typed})
        assert answer.status_code == 302, typed
        assert answer["Location"] == reverse("moderation:index"), typed
