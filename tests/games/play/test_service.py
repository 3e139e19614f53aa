"""games.play.service: the lobby, the move path under lock and version, time, bots."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import rules
from games.play import service as services
from games.lobby import service as requests
from games.models import MatchStatus, Move, RoundScore
from games.play.errors import PlayError
from ratings.models import RatingRecord

from ..conftest import human_move, state_of

pytestmark = pytest.mark.django_db


def sweep_until_human_or_end(match):
    """Run the clock (as if every deadline had passed) until a person is to move."""
    for _ in range(10_000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return
        state = rules.GameState.from_json(match.state)
        seat = match.seats.get(number=state.turn)
        if state.phase == rules.PLAYING and seat.user_id:
            return
        assert services.run_due(match.pk, now=timezone.now() + timedelta(days=1))
    raise AssertionError("the game did not move on")


def play_out(match, users):
    """Play a whole game: people choose random legal moves, the clock plays bots."""
    seats = {s.number: s.user for s in match.seats.all()}
    for _ in range(20_000):
        sweep_until_human_or_end(match)
        if match.status != MatchStatus.PLAYING:
            return
        state = state_of(match)
        services.act(match.pk, seats[state.turn], human_move(match, state.turn), match.version)
    raise AssertionError("the game did not end")


def test_a_full_request_starts_by_itself_and_plays_to_the_end(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2, fish="one", turn_seconds=30, rated=True)
    assert match.status == MatchStatus.WAITING
    match = requests.join_request(alex, match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.version == 1
    assert Move.objects.get(match=match, number=1).kind == "deal"
    play_out(match, [masha, alex])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["goats"]
    records = RatingRecord.objects.filter(match=match)
    assert records.count() == 2
    assert sorted(r.points for r in records) == sorted(match.result["rating_points"])
    rounds = RoundScore.objects.filter(match=match).values_list("round_number", flat=True)
    assert set(rounds) == set(range(1, max(rounds) + 1))
    assert match.version == Move.objects.filter(match=match).count()


def test_a_table_of_bots_plays_to_the_end_unrated(make_user):
    me = make_user("me")
    match = requests.play_with_bots(me, 4)
    play_out(match, [me])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and not match.rated
    assert not RatingRecord.objects.filter(match=match).exists()


def first_deal(match):
    return Move.objects.get(match=match, kind="deal", number=1).payload


@pytest.mark.system_random
def test_a_games_deal_follows_its_server_seed_drawn_from_the_system(make_user, os_random_draws):
    """kozel-fair/1: the deal follows from a 32-byte seed drawn from the system's generator
    (secrets.token_bytes) and the seats' client seeds."""
    import hashlib

    from games.rules import fair

    match = requests.play_with_bots(make_user("me"), 4)
    match.refresh_from_db()
    seed = bytes(match.server_seed)
    assert len(seed) == 32 and "randbytes" in os_random_draws
    assert match.commitment == hashlib.sha256(seed).hexdigest()
    assert first_deal(match) == fair.fair_deal(seed, 1, match.client_seeds)[0].to_json()


@pytest.mark.system_random
def test_two_games_deal_differently_after_the_same_seed_of_pythons_generator(make_user):
    # Seeding Python's shared generator the same way before each game would repeat a deal
    # drawn from it; two deals agree by chance once in 28! / (7!)^4, about 4.7e14.
    random.seed(2024)
    one = requests.play_with_bots(make_user("one"), 4)
    random.seed(2024)
    other = requests.play_with_bots(make_user("other"), 4)
    assert first_deal(one)["hands"] != first_deal(other)["hands"]


def test_a_person_sits_at_one_table_at_a_time(make_user):
    masha = make_user("masha")
    requests.create_request(masha, players=3)
    with pytest.raises(PlayError):
        requests.create_request(masha, players=2)
    with pytest.raises(PlayError):
        requests.play_with_bots(masha, 2)


@pytest.fixture
def english():
    # The refusals below are matched by their English text; the site's default is Russian.
    with translation.override("en"):
        yield


def test_a_stale_version_and_another_seat_are_refused_and_change_nothing(make_user, english):
    masha, alex, olya = make_user("masha"), make_user("alex"), make_user("olya")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    state = state_of(match)
    mover = {0: masha, 1: alex}[state.turn]
    other = {0: alex, 1: masha}[state.turn]
    move = human_move(match, state.turn)
    before = (match.version, match.state)
    with pytest.raises(PlayError, match="moved on"):
        services.act(match.pk, mover, move, match.version - 1)
    with pytest.raises(PlayError, match="not your turn"):
        services.act(match.pk, other, move, match.version)
    with pytest.raises(PlayError, match="do not sit"):
        services.act(match.pk, olya, move, match.version)
    with pytest.raises(PlayError, match="not a valid move"):
        services.act(match.pk, mover, {"play": "9-9"}, match.version)
    match.refresh_from_db()
    assert (match.version, match.state) == before
    version = services.act(match.pk, mover, move, match.version)
    assert version == before[0] + 1
    with pytest.raises(PlayError, match="moved on"):  # the same click twice
        services.act(match.pk, mover, move, before[0])


def test_a_passed_deadline_interrupts_the_game_with_nobody_connected(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2, turn_seconds=10)
    requests.join_request(alex, match.pk)
    match.refresh_from_db()
    assert not services.run_due(match.pk)  # not due yet
    assert services.due_match_ids(timezone.now() + timedelta(seconds=11)) == [match.pk]
    assert services.run_due(match.pk, now=timezone.now() + timedelta(seconds=11))
    match.refresh_from_db()
    # Timed out in the first round: aborted (RULES.md 9), nobody gets a point.
    assert match.status == MatchStatus.ABORTED
    assert match.result["reason"] == "timeout"
    assert match.result["rating_points"] == [0, 0]
    assert not RatingRecord.objects.filter(match=match).exists()
    assert Move.objects.filter(match=match, kind="timeout").count() == 1


def test_leaving_in_the_first_round_aborts_the_game(make_user):
    """RULES.md 9, the decision against rating farming: before the first round ends a
    leave gives nobody anything (it would have given masha max(1, 0/10) = 1)."""
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    services.leave_game(match.pk, alex)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert match.result == {**match.result, "interrupted_by": 1, "reason": "left"}
    assert match.result["rating_points"] == [0, 0]
    assert not RatingRecord.objects.filter(match=match).exists()


def test_drawing_does_not_restart_the_turn_clock(make_user):
    """RULES.md 5 and 9: the clock runs over the whole turn, draws included."""
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2, turn_seconds=30)
    requests.join_request(alex, match.pk)
    users = {0: masha, 1: alex}
    for _ in range(500):  # play until somebody must draw
        state = state_of(match)
        if state.phase != rules.PLAYING:
            services.run_due(match.pk, now=timezone.now() + timedelta(days=1))
            continue
        legal = rules.legal_actions(state)
        if legal[0].kind == rules.DRAW:
            break
        services.act(match.pk, users[state.turn], human_move(match, state.turn), match.version)
    else:
        pytest.fail("nobody had to draw")
    match.refresh_from_db()
    deadline = match.deadline
    services.act(match.pk, users[state.turn], {"draw": True}, match.version)
    match.refresh_from_db()
    after = state_of(match)
    if after.phase == rules.PLAYING and after.turn == state.turn:
        assert match.deadline == deadline
    else:  # the bazaar ran out and the seat knocked: the next seat's clock starts afresh
        assert match.deadline > deadline


def test_a_refusal_speaks_the_players_language(make_user):
    from django.utils import translation
    masha, alex = make_user("masha"), make_user("alex")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    state = state_of(match)
    waiting = {0: alex, 1: masha}[state.turn]
    with translation.override("ru"), pytest.raises(PlayError, match="Сейчас не ваш ход"):
        services.act(match.pk, waiting, {"draw": True}, match.version)
    mover = {0: masha, 1: alex}[state.turn]
    lead = rules.legal_actions(state)[0].tile.name
    other = next(t.name for t in state.hand(state.turn) if t.name != lead)
    with translation.override("ru"), pytest.raises(PlayError, match=f"с {lead}"):
        services.act(match.pk, mover, {"play": other}, match.version)


def test_the_tests_deal_from_the_seed_they_show(make_user):
    """tests/seeding.py: so that a failing test's games can be dealt again -- the seeds a
    game deals from (kozel-fair/1) come from the test's seed."""
    import os

    from games.rules import fair
    from tests import seeding

    seed = int(os.environ[seeding.SEED_VARIABLE])  # this test's (tests/conftest.py)
    match = requests.create_request(make_user("masha"), players=3)
    for name in ("alex", "olya"):
        requests.join_request(make_user(name), match.pk)
    made = seeding.seed_generator(seed, "tests")
    masha_seed = made.randbytes(16).hex()  # the creator's seed is made before the table
    server_seed = made.randbytes(32)
    client_seeds = [masha_seed] + [made.randbytes(16).hex() for _ in range(2)]
    first = Move.objects.get(match=match, number=1)
    assert first.kind == "deal"
    assert first.payload == fair.fair_deal(server_seed, 1, client_seeds)[0].to_json()


def test_a_match_without_seeds_deals_from_the_seed_the_test_shows(make_user, make_match):
    """A match made before seeds existed deals as it did: from ``deal_random``."""
    import os

    from tests import seeding

    seed = int(os.environ[seeding.SEED_VARIABLE])
    match = make_match([make_user("masha"), None, None], server_seed=None)
    services.start(match)
    first = Move.objects.get(match=match, number=1)
    assert first.payload == rules.random_deal(3, seeding.deal_generator(seed, "tests")).to_json()
