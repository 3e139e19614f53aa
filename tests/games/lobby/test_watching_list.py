"""The lobby's list of games being played: public ones only, with their players and
round, each opening the spectator's room; live over the lobby's WebSocket."""

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games.lobby import service as requests
from games.models import Match, MatchStatus
from games.play import service as services
from tests.games.conftest import play_first_round, wait_until
from tests.games.wsclient import logged_in

PLAYING = re.compile(r'data-playing="(\d+)">(.*?)</li>', re.S)


def playing_rows(page: str) -> dict[int, str]:
    return {int(pk): html for pk, html in PLAYING.findall(page)}


def started(make_user, *names, private=False):
    people = [make_user(n) for n in names]
    match = requests.create_request(people[0], players=len(people))
    for person in people[1:]:
        requests.join_request(person, match.pk)
    if private:  # as if it had filled through its invitation link
        Match.objects.filter(pk=match.pk).update(private=True)
    match.refresh_from_db()
    return match, dict(enumerate(people))


@pytest.mark.django_db
def test_the_lobby_lists_public_games_being_played_with_players_and_round(client, make_user):
    public, people = started(make_user, "masha", "alex")
    private, _ = started(make_user, "olya", "serg", private=True)
    requests.create_request(make_user("vera"), players=2)  # waiting: a request, not a game
    Match.objects.create(seats_count=2, status=MatchStatus.FINISHED)
    rows = playing_rows(client.get("/").content.decode())
    assert list(rows) == [public.pk]
    row = rows[public.pk]
    assert "masha рейтинг 0, alex рейтинг 0" in " ".join(re.sub(r"<[^>]+>", " ", row).split()).replace(" ,", ",")
    assert "Раунд 1" in row
    assert f'href="/games/{public.pk}/"' in row and "Смотреть" in row
    play_first_round(public, people)
    public.refresh_from_db()
    assert services.run_due(public.pk, now=public.deadline + timedelta(seconds=1))  # round 2 dealt
    assert "Раунд 2" in playing_rows(client.get("/").content.decode())[public.pk]


@pytest.mark.django_db(transaction=True)
async def test_a_game_that_starts_appears_in_an_open_lobby_at_once(make_user):
    watcher = await database_sync_to_async(make_user)("lobbywatcher")
    ws = await logged_in("/ws/lobby/", watcher)
    connected, _ = await ws.connect()
    assert connected
    assert playing_rows(await ws.receive_from()) == {}
    match, _people = await database_sync_to_async(started)(make_user, "p_one", "p_two")
    frames = []

    async def listed():
        while not await ws.receive_nothing(timeout=0.01):
            frames.append(await ws.receive_from())
        return any(match.pk in playing_rows(f) for f in frames)

    assert await wait_until(listed)
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_open_lobby_shows_the_next_round_when_it_is_dealt(make_user):
    match, people = await database_sync_to_async(started)(make_user, "r_one", "r_two")
    await database_sync_to_async(play_first_round)(match, people)
    watcher = await database_sync_to_async(make_user)("roundwatcher")
    ws = await logged_in("/ws/lobby/", watcher)
    assert (await ws.connect())[0]
    assert "Раунд 1" in playing_rows(await ws.receive_from())[match.pk]

    def deal_round_two():
        match.refresh_from_db()
        return services.run_due(match.pk, now=match.deadline + timedelta(seconds=1))

    assert await database_sync_to_async(deal_round_two)()
    frames = []

    async def round_two_listed():
        while not await ws.receive_nothing(timeout=0.01):
            frames.append(await ws.receive_from())
        return any("Раунд 2" in playing_rows(f).get(match.pk, "") for f in frames)

    assert await wait_until(round_two_listed)
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_game_that_ends_leaves_an_open_lobby_at_once(make_user):
    match, people = await database_sync_to_async(started)(make_user, "e_one", "e_two")
    watcher = await database_sync_to_async(make_user)("endwatcher")
    ws = await logged_in("/ws/lobby/", watcher)
    assert (await ws.connect())[0]
    assert match.pk in playing_rows(await ws.receive_from())
    await database_sync_to_async(services.leave_game)(match.pk, people[1])  # aborted: round 1
    frames = []

    async def unlisted():
        while not await ws.receive_nothing(timeout=0.01):
            frames.append(await ws.receive_from())
        return any(match.pk not in playing_rows(f) for f in frames if 'id="lobby-requests"' in f)

    assert await wait_until(unlisted)
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_private_game_that_starts_never_appears_in_an_open_lobby(make_user):
    watcher = await database_sync_to_async(make_user)("privatewatcher")
    ws = await logged_in("/ws/lobby/", watcher)
    assert (await ws.connect())[0]
    assert playing_rows(await ws.receive_from()) == {}

    def start_both():
        people = [make_user(n) for n in ("s_one", "s_two", "q_one", "q_two")]
        secret = requests.create_request(people[0], players=2, private=True)
        requests.join_request(people[1], secret.pk, invite_token=secret.invite_token)
        public = requests.create_request(people[2], players=2)  # started after it
        requests.join_request(people[3], public.pk)
        return secret.pk, public.pk

    secret, public = await database_sync_to_async(start_both)()
    frames = []

    async def public_listed():
        while not await ws.receive_nothing(timeout=0.01):
            frames.append(await ws.receive_from())
        return any(public in playing_rows(f) for f in frames)

    assert await wait_until(public_listed)
    assert not any(secret in playing_rows(f) for f in frames)
    assert not any(f'/games/{secret}/' in f for f in frames)
    await ws.disconnect()
