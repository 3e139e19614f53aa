"""The clock against the players, on the database the suite runs on (SQLite by default).

A late move and the timeout of the same turn: exactly one of them wins, and the move
log holds it once (DESIGN.md, Time).  Both orders, the timeout landing between a move's
check and its write, and the two at once on two threads.  And RULES.md 9: the clock
does not run in the pause between rounds, and bots never time out.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules
from games.play import service as services
from games.lobby import service as requests
from games.room import cache as snapshots
from games.models import Match, MatchStatus, Move
from games.play.errors import PlayError

from ..conftest import at_once, human_move, state_of, the_winner

TURN_SECONDS = 10


def a_turn_that_ran_out(make_user, game=0):
    """A started two-player game whose player to move has run out of time, the clock not
    having looked yet: the match, its players by seat, what a game room shows, the seat
    to move, and a legal move of that seat."""
    users = {n: make_user(f"game{game}-{n}") for n in range(2)}
    match = requests.create_request(users[0], players=2, turn_seconds=TURN_SECONDS)
    requests.join_request(users[1], match.pk)
    shown = snapshots.load(match.pk)
    seat = shown.state.turn
    message = human_move(match, seat)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return match, users, shown, seat, message


def late_move(match, users, shown, seat, message, path):
    """The move as the room sends it (``known``: checked on its snapshot, not read) or
    checked on the match read afresh (``read``)."""
    return services.act(match.pk, users[seat], message, shown.version,
                        known=(shown.match, shown.state) if path == "known" else None)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["known", "read"])
def test_a_move_after_the_timeout_of_its_turn_is_refused(make_user, path):
    match, users, shown, seat, message = a_turn_that_ran_out(make_user)
    assert services.run_due(match.pk)
    with pytest.raises(PlayError) as refusal:
        late_move(match, users, shown, seat, message, path)
    assert refusal.value.code == "not-playing"
    assert the_winner(match, shown.version, seat) == "timeout"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["known", "read"])
def test_the_clock_that_saw_a_turn_run_out_leaves_it_once_the_move_came(make_user, path):
    match, users, shown, seat, message = a_turn_that_ran_out(make_user)
    assert match.pk in services.due_match_ids()  # the sweep has seen it due...
    assert late_move(match, users, shown, seat, message, path) > shown.version
    assert not services.run_due(match.pk)  # ...but the move came first: the next turn's
    assert the_winner(match, shown.version, seat) == "move"


@pytest.mark.django_db
def test_a_timeout_between_a_moves_check_and_its_write_wins(make_user):
    """The room's move is checked on the version it showed, which the rules accept; the
    clock's timeout has committed since: the compare-and-swap writes nothing, and the
    move, decided again on the match as it is now, is refused: the game is over."""
    match, users, shown, seat, message = a_turn_that_ran_out(make_user)
    assert services.run_due(match.pk)
    action = rules.action_from_json(dict(message, seat=seat))
    rules.apply_turn(shown.state, action)  # the check on what the room showed passes
    with pytest.raises(PlayError) as refused:
        late_move(match, users, shown, seat, message, "known")
    assert refused.value.code == "not-playing"
    assert the_winner(match, shown.version, seat) == "timeout"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["known", "read"])
def test_a_move_and_the_timeout_at_once_exactly_one_wins(make_user, path):
    """Two threads, two connections: the player's move and the clock, released together."""
    for game in range(4):
        match, users, shown, seat, message = a_turn_that_ran_out(make_user, game)
        results = dict(zip(("move", "clock"), at_once(
            lambda: late_move(match, users, shown, seat, message, path),
            lambda: services.run_due(match.pk))))
        if the_winner(match, shown.version, seat) == "move":
            assert results == {"move": match.version, "clock": False}
        else:
            assert results == {"move": "not-playing", "clock": True}


# -- RULES.md 9: when the clock runs -----------------------------------------------------

def play_until_the_round_ends(match, users):
    for _ in range(500):
        state = state_of(match)
        if state.phase != rules.PLAYING:
            return
        services.act(match.pk, users[state.turn], human_move(match, state.turn), match.version)
    raise AssertionError("the round did not end")


@pytest.mark.django_db
def test_a_pause_between_rounds_longer_than_a_turn_times_nobody_out(make_user, settings):
    settings.KOZEL_ROUND_PAUSE = 3 * TURN_SECONDS
    people = [make_user(f"player{n}") for n in range(2)]
    match = requests.create_request(people[0], players=2, turn_seconds=TURN_SECONDS)
    requests.join_request(people[1], match.pk)
    play_until_the_round_ends(match, dict(enumerate(people)))
    ended = timezone.now()  # the round ended a moment ago
    match.refresh_from_db()
    assert state_of(match).phase == rules.DEAL and match.status == MatchStatus.PLAYING
    version = match.version

    # A whole turn's time, and more, passes in the pause: the clock leaves the table be.
    assert not services.run_due(match.pk, now=ended + timedelta(seconds=TURN_SECONDS + 1))
    match.refresh_from_db()
    assert match.version == version and state_of(match).phase == rules.DEAL

    # When the pause is over the next round is dealt, and its first turn has its full time.
    before = timezone.now()
    assert services.run_due(match.pk, now=ended + timedelta(seconds=3 * TURN_SECONDS))
    after = timezone.now()
    match.refresh_from_db()
    assert [m.kind for m in match.moves.filter(number__gt=version)][:1] == ["deal"]
    assert not match.moves.filter(kind="timeout").exists()
    assert state_of(match).phase == rules.PLAYING and match.status == MatchStatus.PLAYING
    turn = timedelta(seconds=TURN_SECONDS)
    assert before + turn <= match.deadline <= after + turn


@pytest.mark.django_db
def test_a_bot_whose_deadline_passed_long_ago_moves_and_never_times_out(make_user):
    me = make_user("me")
    match = requests.play_with_bots(me, 3)  # two bots, and a bazaar: they draw too
    bot_moves = 0
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = state_of(match)
        if state.phase == rules.DEAL:
            assert services.run_due(match.pk, now=timezone.now() + timedelta(days=1))
        elif state.turn == 0:
            services.act(match.pk, me, human_move(match, 0), match.version)
        else:  # a bot's turn, as if the clock had not looked for a year
            Match.objects.filter(pk=match.pk).update(
                deadline=timezone.now() - timedelta(days=365))
            assert services.run_due(match.pk)
            move = Move.objects.get(match=match, number=match.version + 1)
            assert (move.kind, move.seat) in {("play", state.turn), ("draw", state.turn)}
            bot_moves += 1
    else:
        pytest.fail("the game did not end")
    assert match.status == MatchStatus.FINISHED and bot_moves > 10
    assert not match.moves.filter(kind="timeout").exists()
