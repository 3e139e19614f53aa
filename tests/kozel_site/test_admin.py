"""The admin, as a superuser and as a moderator (staff in the "moderators" group)."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.moderators import GROUP_NAME
from games.models import Match, Move, MoveKind, RoundScore
from ratings.models import RatingRecord


@pytest.fixture
def finished_match(make_match, make_user):
    masha, olya = make_user("masha"), make_user("olya")
    match = make_match([masha, olya, None], status="finished", fish="one")
    Move.objects.create(match=match, number=1, kind=MoveKind.DEAL, payload={"seed": 1})
    Move.objects.create(match=match, number=2, seat=0, kind=MoveKind.PLAY, payload={"tile": "1-1"})
    for seat in range(3):
        RoundScore.objects.create(
            match=match, round_number=1, seat=seat, points=seat * 7, credited=seat * 7,
            score_after=14 if seat == 2 else 0, remembered_after=7 if seat == 1 else 0,
            opened=seat == 2, result="out", result_seat=0, bank_after=0,
        )
    RatingRecord.objects.create(match=match, player=masha.player, points=10, rating_after=10)
    return match


@pytest.fixture
def admin_client(client, make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(boss)
    return client


@pytest.fixture
def moderator_client(client, make_user):
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(moderator)
    return client


def changelist(model):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change(obj):
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def test_every_admin_list_opens(admin_client, finished_match):
    assert admin_client.get("/admin/").status_code == 200
    for model in admin.site._registry:
        assert admin_client.get(changelist(model)).status_code == 200, model


def test_a_match_shows_its_seats_moves_scores_and_ratings_inline(admin_client, finished_match):
    page = admin_client.get(change(finished_match)).content.decode()
    for text in ("masha", "olya", "Bot 2", "1-1", "сдача", "ход костью", "Очки раундов", "Записи рейтинга"):
        assert text in page, text


def test_searching_and_filtering_matches(admin_client, finished_match, make_match):
    waiting = make_match(status="waiting")
    by_player = admin_client.get(changelist(Match), {"q": "olya"}).context["cl"].result_list
    assert list(by_player) == [finished_match]
    by_number = admin_client.get(changelist(Match), {"q": f"#{waiting.pk}"}).context["cl"].result_list
    assert list(by_number) == [waiting]
    by_status = admin_client.get(changelist(Match), {"status__exact": "waiting"}).context["cl"].result_list
    assert list(by_status) == [waiting]


def test_searching_users(admin_client, finished_match):
    from accounts.models import User

    found = admin_client.get(changelist(User), {"q": "mas"}).context["cl"].result_list
    assert [user.username for user in found] == ["masha"]


def test_history_cannot_be_edited_added_or_deleted(admin_client, finished_match):
    move = finished_match.moves.first()
    for model, obj in [
        (Match, finished_match), (Move, move), (RoundScore, finished_match.round_scores.first()),
        (RatingRecord, finished_match.rating_records.first()),
    ]:
        meta = model._meta
        page = admin_client.get(change(obj))
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert admin_client.post(change(obj), {}).status_code == 403
        assert admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 403
        delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[obj.pk])
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert finished_match.moves.get(pk=move.pk).payload == {"seed": 1}


def test_a_moderator_sees_everything(moderator_client, finished_match):
    assert moderator_client.get("/admin/").status_code == 200
    for model in admin.site._registry:
        if model._meta.app_label in ("accounts", "games", "ratings", "axes"):
            assert moderator_client.get(changelist(model)).status_code == 200, model
    assert moderator_client.get(change(finished_match)).status_code == 200


def test_accounts_are_closed_on_the_moderation_pages_not_in_the_admin(moderator_client, finished_match, make_user):
    """Closing an account needs a reason and ends the person's game (games.moderation), so
    the admin shows "active" with a link to the moderation page and changes nothing."""
    from accounts.models import User

    masha = User.objects.get(username="masha")
    page = moderator_client.get(change(masha)).content.decode()
    assert 'name="is_active"' not in page and 'name="is_superuser"' not in page
    assert reverse("moderation:player", args=["masha"]) in page
    assert moderator_client.post(change(masha), {"is_superuser": "on", "username": "x"}).status_code == 403
    masha.refresh_from_db()
    assert masha.is_active and not masha.is_superuser and masha.username == "masha"

    password_url = reverse("admin:auth_user_password_change", args=[masha.pk])
    assert moderator_client.get(password_url).status_code == 403
    # Not even a superuser unticks "active" here.
    from django.test import Client

    admin_client = Client()
    admin_client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    page = admin_client.get(change(masha)).content.decode()
    assert 'name="is_active"' not in page and 'name="email"' in page
    assert reverse("moderation:player", args=["masha"]) in page


def test_players_stats_are_read_only_in_the_admin(admin_client, finished_match):
    from accounts.models import Player

    player = Player.objects.get(user__username="masha")
    page = admin_client.get(change(player)).content.decode()
    assert 'name="rating"' not in page


# -- a running game's hidden tiles ---------------------------------------------------

ALL_TILES = [f"{low}-{high}" for low in range(7) for high in range(low, 7)]  # 28 names


@pytest.fixture(params=["superuser", "moderator"])
def seated_staff(request, make_user):
    """A staff member (a superuser or a moderator) sitting at a two-seat game that has
    just been dealt, against olya: who could read olya's 7 tiles and the bazaar?"""
    from accounts.models import User
    from games.lobby import service as requests

    staff = make_user("boss", is_staff=True, is_superuser=request.param == "superuser")
    if request.param == "moderator":
        staff.groups.add(Group.objects.get(name=GROUP_NAME))
    staff = User.objects.get(pk=staff.pk)  # its permissions read anew
    match = requests.create_request(staff, players=2)
    requests.join_request(make_user("olya"), match.pk)
    match.refresh_from_db()
    assert match.status == "playing"
    return staff, match


def tiles_shown(page: str) -> set[str]:
    """The tile names the page shows as JSON strings ("3-5" in a state or a payload).

    Bare "3-5" is not counted: dates such as 2026-11-15 hold "1-1" and "1-5"."""
    import html

    text = html.unescape(page)
    return {tile for tile in ALL_TILES if f'"{tile}"' in text}


def staff_pages(client, match, tile):
    deal = match.moves.get(kind=MoveKind.DEAL)
    return {
        "match": client.get(change(match)),
        "matches": client.get(changelist(Match)),
        "moves of the match": client.get(changelist(Move), {"q": str(match.pk)}),
        "move search": client.get(changelist(Move), {"q": tile}),
        "the deal": client.get(change(deal)),
    }


def test_a_running_game_shows_no_tile_to_staff_seated_at_it(client, seated_staff):
    staff, match = seated_staff
    client.force_login(staff)
    olya_tile = match.state["hands"][1][0]
    bazaar_tile = match.state["bazaar"][0]
    for tile in (olya_tile, bazaar_tile):
        for name, response in staff_pages(client, match, tile).items():
            assert response.status_code == 200, name
            # The search box shows what was searched for; that tells nothing.
            page = response.content.decode().replace(f'name="q" value="{tile}"', "")
            assert tiles_shown(page) == set(), name
            assert "bazaar" not in page and "hands" not in page, name
        found = client.get(changelist(Move), {"q": tile}).context["cl"].result_list
        assert list(found) == [], tile
    # The room is where a running game is watched from.
    page = client.get(change(match)).content.decode()
    assert reverse("games:room", args=[match.pk]) in page and "смотрите её в игровой комнате" in page


def test_the_changelist_address_cannot_filter_by_hidden_tiles(client, seated_staff):
    """Counting the rows that ?payload__contains=... finds would tell the deal."""
    staff, match = seated_staff
    client.force_login(staff)
    tile = match.state["hands"][1][0]
    probes = [
        (changelist(Move), {"match__id__exact": match.pk, "payload__icontains": tile}),
        (changelist(Move), {"payload__hands__1__contains": f'["{tile}"]'}),
        (changelist(Match), {"state__icontains": tile}),
        (changelist(Match), {"state__bazaar__0": tile}),
        # Through a relation: refused by Django itself (not a list filter).
        (changelist(Move), {"match__state__icontains": tile}),
        (changelist(RoundScore), {"match__state__icontains": tile}),
    ]
    for url, query in probes:
        assert client.get(url, query).status_code == 400, query


def test_a_game_that_is_over_shows_its_tiles(client, seated_staff):
    from games.play import service as services

    staff, match = seated_staff
    client.force_login(staff)
    dealt = match.moves.get(kind=MoveKind.DEAL).payload
    bazaar_tile = dealt["bazaar"][0]
    services.leave_game(match.pk, match.seats.get(number=1).user)
    match.refresh_from_db()
    assert match.status == "aborted"  # left in the first round (RULES.md 9)

    pages = staff_pages(client, match, bazaar_tile)
    # The state and the deal's payload: every one of the 14 dealt tiles and the bazaar.
    assert tiles_shown(pages["match"].content.decode()) == set(ALL_TILES)
    assert tiles_shown(pages["the deal"].content.decode()) == set(ALL_TILES)
    assert list(pages["move search"].context["cl"].result_list) == [match.moves.get(kind=MoveKind.DEAL)]


def test_a_running_games_seed_is_not_in_the_admin_and_shows_once_it_is_over(client, seated_staff):
    """RECORD.md, kozel-fair/1: the server seed tells every deal, so the admin shows it as
    the record does (hex) only once the game is over, and never filters by it."""
    from games.play import service as services

    staff, match = seated_staff
    client.force_login(staff)
    seed = bytes(match.server_seed).hex()
    page = client.get(change(match)).content.decode()
    assert match.commitment in page and seed not in page and "server_seed" not in page
    assert client.get(changelist(Match), {"server_seed__isnull": "False"}).status_code == 400
    services.leave_game(match.pk, match.seats.get(number=1).user)
    assert seed in client.get(change(match)).content.decode()


@pytest.mark.filterwarnings("error::django.core.paginator.UnorderedObjectListWarning")
def test_the_admins_other_views_of_a_running_game_show_no_tile_or_seed(client, seated_staff):
    """What else the admin answers about a match: the autocomplete's JSON (which searches
    through the match's admin for any foreign key to it), the change history, and "view
    on site" (the content-type shortcut)."""
    from django.contrib.contenttypes.models import ContentType

    staff, match = seated_staff
    client.force_login(staff)
    seed = bytes(match.server_seed).hex()
    tiles = [match.state["hands"][1][0], match.state["bazaar"][0]]
    autocomplete = reverse("admin:autocomplete")
    for source in ("seat", "move", "roundscore"):
        for term in [*tiles, seed[:8], staff.username, str(match.pk)]:
            response = client.get(autocomplete, {"app_label": "games", "model_name": source,
                                                 "field_name": "match", "term": term})
            assert response.status_code == 200, (source, term)
            found = response.json()["results"]
            text = response.content.decode()
            assert tiles_shown(text) == set() and seed[:8] not in text, (source, term)
            # Found by a player's name or the game's number, never by what the state holds.
            expected = [str(match.pk)] if term in (staff.username, str(match.pk)) else []
            assert [row["id"] for row in found] == expected, (source, term)
    deal = match.moves.get(kind=MoveKind.DEAL)
    for obj in (match, deal):
        history = reverse(f"admin:games_{obj._meta.model_name}_history", args=[obj.pk])
        response = client.get(history)
        assert response.status_code == 200
        page = response.content.decode()
        assert tiles_shown(page) == set() and seed not in page, history
    shortcut = reverse("admin:view_on_site", args=[ContentType.objects.get_for_model(Match).pk, match.pk])
    assert client.get(shortcut).status_code == 404  # no page outside the room shows a match


def test_the_match_search_takes_a_number_and_refuses_other_digits(moderator_client,
                                                                  finished_match):
    found = moderator_client.get(changelist(Match), {"q": f"#{finished_match.pk}"})
    assert found.status_code == 200 and list(found.context["cl"].result_list) == [finished_match]
    for typed in ("²", "１２", "9" * 30):  # no server error, no number read from them
        answer = moderator_client.get(changelist(Match), {"q": typed})
        assert answer.status_code == 200, typed
        assert finished_match not in answer.context["cl"].result_list
