"""A direct challenge (issue 42, point 6): a private table with the challenger's settings,
shown live to the challenged person (lobby and friends sockets), accepted or declined
with one click; accepting starts the game through games.play.service.start.  A blocked
person cannot challenge."""

import pytest
from channels.db import database_sync_to_async

from accounts import friends
from accounts.models import Challenge
from games.lobby import challenges, remembered
from games.lobby.forms import RequestForm
from games.models import Match, MatchStatus
from games.play import service as play
from games.play.errors import PlayError
from tests.games.conftest import wait_until
from tests.games.wsclient import logged_in


@pytest.fixture
def masha(make_user):
    return make_user("masha")


@pytest.fixture
def petya(make_user):
    return make_user("petya")


def remember_terms(user, **data):
    form = RequestForm({"players": 2, "fish": "all", "turn_seconds": 30, "game": "kozel",
                        "rated": True, **data})
    assert form.is_valid(), form.errors
    remembered.remember(user, "request", form)


def test_a_challenge_is_a_private_table_with_the_challengers_settings(masha, petya):
    remember_terms(masha, turn_seconds=45, fish="one", rated=False)
    made = challenges.challenge(masha, petya)
    match = made.match
    assert match.private and match.status == MatchStatus.WAITING
    assert (match.seats_count, match.turn_seconds, match.fish, match.rated) == (2, 45, "one", False)
    assert list(match.seats.values_list("user", flat=True)) == [masha.pk]
    assert list(challenges.open_for(petya)) == [made]
    assert list(challenges.made_by(masha)) == [made]
    assert list(challenges.open_for(masha)) == []


def test_settings_the_form_refuses_now_fall_back_to_its_defaults(masha, petya):
    # A time per turn the form no longer offers (a pairs tick at a table of two it ignores).
    masha.player.table_terms = {"request": {"players": 2, "pairs": True, "turn_seconds": 7}}
    masha.player.save()
    match = challenges.challenge(masha, petya).match
    assert (match.seats_count, match.pairs, match.turn_seconds) == (2, False, 30)


def test_accepting_starts_the_game_through_play_start(masha, petya, monkeypatch):
    started = []
    real_start = play.start
    monkeypatch.setattr("games.lobby.tables.start", lambda m: started.append(m.pk) or real_start(m))
    made = challenges.challenge(masha, petya)
    match = challenges.accept(petya, made.pk)
    assert match.status == MatchStatus.PLAYING and started == [match.pk]
    assert set(match.seats.values_list("user", flat=True)) == {masha.pk, petya.pk}
    assert not Challenge.objects.exists()
    with pytest.raises(PlayError):
        challenges.accept(petya, made.pk)


def test_only_the_challenged_person_accepts(masha, petya, make_user):
    made = challenges.challenge(masha, petya)
    with pytest.raises(PlayError):
        challenges.accept(make_user("olya"), made.pk)
    assert Match.objects.get(pk=made.match_id).status == MatchStatus.WAITING


def test_declining_closes_the_challengers_table(masha, petya):
    made = challenges.challenge(masha, petya)
    challenges.decline(petya, made.pk)
    assert not Match.objects.filter(pk=made.match_id).exists()
    assert not Challenge.objects.exists()
    # The challenger is free to sit down again.
    challenges.challenge(masha, petya)


def test_a_blocked_person_cannot_challenge(masha, petya):
    friends.block(petya, masha)
    with pytest.raises(PlayError) as refused:
        challenges.challenge(masha, petya)
    assert refused.value.code == "blocked"
    # Nor the blocker the blocked one (the block is the blocker's wish to be left alone).
    with pytest.raises(PlayError):
        challenges.challenge(petya, masha)
    with pytest.raises(PlayError):
        challenges.challenge(masha, masha)
    assert not Match.objects.exists()


def test_a_block_withdraws_an_open_challenge(masha, petya):
    made = challenges.challenge(masha, petya)
    friends.block(petya, masha)
    assert list(challenges.open_for(petya)) == []
    with pytest.raises(PlayError):
        challenges.accept(petya, made.pk)


def test_the_posts(client, masha, petya):
    client.force_login(masha)
    answer = client.post("/players/petya/challenge/")
    assert answer.status_code == 302 and answer["Location"] == "/"
    made = Challenge.objects.get()
    client.force_login(petya)
    page = client.get("/").content.decode()
    assert f'data-challenge="{made.pk}"' in page and "masha вызывает вас на игру" in page
    answer = client.post(f"/challenges/{made.pk}/accept/")
    assert answer["Location"] == f"/games/{made.match_id}/"
    assert Match.objects.get(pk=made.match_id).status == MatchStatus.PLAYING
    assert client.get(f"/challenges/{made.pk}/accept/").status_code == 405


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/friends/"])
async def test_the_invitation_appears_live_and_accepting_takes_both_to_the_game(make_user, path):
    masha = await database_sync_to_async(make_user)("masha")
    petya = await database_sync_to_async(make_user)("petya")
    theirs = await logged_in(path, petya)
    mine = await logged_in(path, masha)
    for ws in (theirs, mine):
        connected, _ = await ws.connect(timeout=10)
        assert connected
        await ws.receive_from(timeout=10)
    made = await database_sync_to_async(challenges.challenge)(masha, petya)

    async def frames_until(ws, text):
        seen = []

        async def found():
            while not await ws.receive_nothing(timeout=0.01):
                seen.append(await ws.receive_from())
            return any(text in frame for frame in seen)
        return await wait_until(found, seconds=10)

    assert await frames_until(theirs, f'data-challenge="{made.pk}"')
    assert await frames_until(mine, f'data-challenge-out="{made.pk}"')
    await database_sync_to_async(challenges.accept)(petya, made.pk)
    for ws in (theirs, mine):
        assert await frames_until(ws, f'data-redirect="/games/{made.match_id}/"')
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_friends_socket_is_for_people_logged_in():
    ws = await logged_in("/ws/friends/", None)
    connected, _ = await ws.connect(timeout=10)
    assert connected
    closed = await ws.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4403


def test_the_lobby_reads_a_viewers_challenges_in_one_query(masha, petya, django_assert_num_queries):
    from games.lobby.listing import challenges_context

    with django_assert_num_queries(1):
        assert challenges_context(petya) == {"challenges_in": [], "challenges_out": []}
    made = challenges.challenge(masha, petya)
    with django_assert_num_queries(2):  # and the seats of the tables offered
        seen = challenges_context(petya)
    assert seen["challenges_in"] == [made] and seen["challenges_in"][0].row.names == ["masha", None]
    assert challenges_context(masha)["challenges_out"] == [made]
