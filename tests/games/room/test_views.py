"""The game room page and its form posts (the fallback when there is no WebSocket)."""

import re

import pytest
from django.db.models import F

from accounts.models import Player
from games.lobby import service as requests
from games.models import MatchStatus

from ..conftest import state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    masha, alex = make_user("masha2"), make_user("alex2")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    match.refresh_from_db()
    return match, {0: masha, 1: alex}


def test_a_player_sees_their_own_hand_and_the_hooks(client, table):
    match, users = table
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "data-game" in page and 'data-status="playing"' in page and "data-hand" in page
    own = {t.name for t in state_of(match).hand(0)}
    other = {t.name for t in state_of(match).hand(1)}
    shown = set(re.findall(r'data-tile="([0-6]-[0-6])"', page))
    assert shown == own and not shown & other
    assert 'data-action="leave"' in page


def test_every_tile_draws_its_pips_from_the_pages_one_set_of_definitions(client, table):
    match, users = table
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert page.count('class="pip-defs"') == 1
    defined = re.findall(r'<g id="pips-(\d)">((?:<circle [^>]*/>)+)</g>', page)
    assert [(v, body.count("<circle")) for v, body in defined] == [
        (str(n), n) for n in range(1, 7)]  # as many pips as the value
    hand = re.search(r"<[^>]*data-hand.*?</div>", page, re.S).group(0)
    for a, b in ((t.low, t.high) for t in state_of(match).hand(0)):
        drawn = re.search(rf'data-tile="{a}-{b}".*?</svg>', hand, re.S).group(0)
        assert re.findall(r'<use href="#pips-(\d)"', drawn) == [str(v) for v in (a, b) if v]
    assert "<circle" not in hand


def test_a_spectator_sees_no_hand(client, table, make_user):
    match, _ = table
    client.force_login(make_user("watcher"))
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "data-hand" not in page and 'data-action="leave"' not in page
    assert not re.findall(r'data-tile="', page)  # nothing is on the table yet


def test_a_private_table_is_not_found_by_strangers(client, make_user):
    owner = make_user("owner")
    match = requests.create_request(owner, players=2, private=True)
    client.force_login(make_user("stranger"))
    assert client.get(f"/games/{match.pk}/").status_code == 404
    client.force_login(make_user("clerk", is_staff=True))  # staff, but no moderator
    assert client.get(f"/games/{match.pk}/").status_code == 404


def test_a_private_table_shows_itself_to_moderators(client, make_user):
    from django.contrib.auth.models import Group

    from accounts.moderators import GROUP_NAME

    match = requests.create_request(make_user("owner"), players=2, private=True)
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    client.force_login(moderator)
    assert client.get(f"/games/{match.pk}/").status_code == 200


def test_leaving_by_form_interrupts_the_game(client, table):
    match, users = table
    client.force_login(users[1])
    response = client.post(f"/games/{match.pk}/leave/")
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "left"


def test_an_aborted_game_says_so_in_its_room(client, table, make_user):
    from django.contrib.auth.models import Permission

    from games.moderation.service import abort_game

    match, users = table
    moderator = make_user("moderator", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="moderate"))
    abort_game(match.pk, moderator, "a test of the room")
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'data-status="aborted"' in page and "game-end" in page


def test_a_knock_the_server_makes_is_told_in_the_rooms_log_without_guessing_a_gender(
        client, make_user, make_match):
    """RULES.md 5, rule 3: a seat that can only knock is knocked for by the server, and
    the room's log tells it as that seat's knock, a name before a colon."""
    from games import rules
    from games.models import Move
    from games.play import service as services
    from tests.rules.positions import position

    ones_and_sixes = " ".join(t.name for t in rules.TILES if {1, 6} & {t.low, t.high}
                              and t.name != "1-1")
    rest = " ".join(t.name for t in rules.TILES if not {1, 6} & {t.low, t.high} and t.name != "5-5")
    # Masha plays 1-6: the ends show 1 and 6, which nothing of the bot's fits, and there
    # is no bazaar: the server knocks for it, and it is Masha's turn again.
    state = position(ones_and_sixes + " 5-5", rest, chain="1-1", bazaar="")
    masha = make_user("masha")
    match = make_match([masha, None], status=MatchStatus.PLAYING, state=state.to_json(),
                       version=3)
    match.seats.filter(number=1).update(bot_name="Бот Люба")
    services.act(match.pk, masha, {"play": "1-6", "end": "right"}, 3)
    assert list(Move.objects.filter(match=match).values_list("kind", "seat")) == [
        ("play", 0), ("knock", 1)]
    assert state_of(match).turn == 0
    client.force_login(masha)
    page = client.get(f"/games/{match.pk}/").content.decode()
    log = re.search(r'<ol class="round-log".*?</ol>', page, re.S).group(0)
    lines = [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li.*?</li>", log, re.S)]
    assert lines == ["masha: 1-6 к 1", "Бот Люба: стук"]
    client.cookies["django_language"] = "en"
    page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bot Lyuba: knocks" in page


def test_the_rooms_game_end_names_the_goat_and_each_players_rating_points(client, make_user):
    """RULES.md 8 (the game of tests/ratings/test_game_end.py): Alex at 110 is the goat;
    Masha (25) gets 8, Olya (0) 10; the room's end says so, and its last round's why."""
    from tests.ratings import played

    users = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    for user, rating in zip(users, (40, 12, 5)):
        Player.objects.filter(user=user).update(rating=rating)
    record = played.load("finished_rules8")
    match = played.play(played.seat_table(users, record), users, record)
    assert match.result["rating_points"] == [8, 0, 10]
    # Later games raise their ratings: this game's page still shows what they brought.
    Player.objects.filter(user__in=users).update(rating=F("rating") + 100)
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/").content.decode()
    end = re.search(r'<section class="game-end">.*?</section>', page, re.S).group(0)
    assert re.findall(r'<b class="goat-badge">([^<]+)</b>', end) == ["Alex"]
    lines = {seat: " ".join(re.sub(r"<[^>]+>", "", text).split()) for seat, text in
             re.findall(r'data-end-seat="(\d)"[^>]*>(.*?)</li>', end, re.S)}
    assert lines == {"0": "Masha рейтинг 40: счёт 25, рейтинг +8 → 48",
                     "1": "Alex рейтинг 12: счёт 110, без очков рейтинга",
                     "2": "Olya рейтинг 5: счёт 0, рейтинг +10 → 15"}
    assert re.findall(r'data-end-seat="(\d)" data-end-points="(\d+)"', end) == [
        ("0", "8"), ("1", "0"), ("2", "10")]
    seats = re.search(r'<div class="seats".*?</section>|data-seat="0".*', page, re.S).group(0)
    assert re.findall(r'data-seat="(\d)".*?data-rating="(\d+)"', page, re.S)[:3] == [
        ("0", "40"), ("1", "12"), ("2", "5")]
    assert page.count('class="why"') >= 1  # the last round's summary is explained too
