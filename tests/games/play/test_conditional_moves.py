"""A move written on condition that the match is still at the version the room showed.

games.play.service.act takes ``known``, the match as this process last saw it; a move on
that version that does not end the game -- with the knocks made for the players who can
only knock after it, and the round's scores if it ends a round -- is written on that
condition (games/play/store.py, ``save_moves_if_at``: one statement on PostgreSQL, an update
and the inserts in one transaction on SQLite) instead of locking and reading the match
first.  These tests hold it to the locked path's results: the same rows, the same
refusals, and nothing written when the match has moved on meanwhile.
"""

import copy
import dataclasses
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone, translation

from games import rules
from games.records import log as records
from games.room import cache as snapshots
from games.play import notify, service as services, store as movesql
from games.models import Match, MatchStatus, Move, RoundScore
from games.play.service import PlayError

from ..conftest import a_game, human_move, state_of

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and NOWAIT are PostgreSQL's")


def two_player_game(make_user):
    masha, alex = make_user("masha"), make_user("alex")
    match = services.create_request(masha, players=2, turn_seconds=30)
    services.join_request(alex, match.pk)
    match.refresh_from_db()
    return match, {0: masha, 1: alex}


def a_game_as_shown(make_user):
    """A started two-player game, its players by seat, what its room shows, whose turn."""
    match, users = two_player_game(make_user)
    shown = known(match)
    return match, users, shown, shown.state.turn


def known(match):
    """What a game room of this process holds after loading the match (games/room/cache.py)."""
    return snapshots.load(match.pk)


def settle(match):
    """Deal the next round if one ended (as the clock would)."""
    while state_of(match).phase == rules.DEAL:
        services.run_due(match.pk, now=timezone.now() + timedelta(days=1))


@pytest.mark.django_db
def test_the_setting_turns_conditional_moves_off(settings, make_user):
    assert movesql.conditional_moves()
    settings.KOZEL_CONDITIONAL_MOVES = False
    assert not movesql.conditional_moves()
    match, users, shown, seat = a_game_as_shown(make_user)  # every move goes the locked way
    assert services.act(match.pk, users[seat], human_move(match, seat), match.version,
                        known=shown) == shown.version + 1


@pytest.mark.django_db
def test_a_move_on_the_version_shown_is_written_without_reading_the_match(
        make_user, django_capture_on_commit_callbacks):
    match, users, shown, seat = a_game_as_shown(make_user)
    message = human_move(match, seat)
    before = timezone.now()
    with notify.collected() as notices, django_capture_on_commit_callbacks(execute=True):
        version = services.act_on_known(shown.match, shown.state, users[seat], message,
                                         match.version)
    assert version == shown.version + 1
    match.refresh_from_db()
    expected, _events = rules.apply(shown.state, rules.action_from_json(dict(message, seat=seat)))
    assert match.version == version and match.state == expected.to_json()
    assert match.deadline >= before + timedelta(seconds=30)
    move = Move.objects.get(match=match, number=version)
    assert (move.seat, move.kind, move.payload) == (seat, "play", dict(message, seat=seat))
    # Told after it committed, with what the room shows it from (nothing read back).
    [notice] = notices
    assert notice.message["version"] == version
    committed_match, committed_state, rounds = notice.committed
    assert committed_match.version == version and committed_state == expected and rounds == []
    assert shown.match.version == version - 1  # the room's own snapshot is left as it was
    assert records.state_after(match) == rules.GameState.from_json(match.state)


@pytest.mark.django_db
def test_a_version_that_moved_on_meanwhile_writes_nothing(make_user):
    match, users, shown, seat = a_game_as_shown(make_user)
    message = human_move(match, seat)
    services.act(match.pk, users[seat], message, match.version)  # the locked path, first
    match.refresh_from_db()
    after = (match.version, match.state, Move.objects.filter(match=match).count())
    assert services.act_on_known(shown.match, shown.state, users[seat], message,
                                  shown.version) is None
    with translation.override("en"), pytest.raises(PlayError, match="moved on"):
        services.act(match.pk, users[seat], message, shown.version, known=shown)
    match.refresh_from_db()
    assert (match.version, match.state, Move.objects.filter(match=match).count()) == after


@pytest.mark.django_db
def test_an_aborted_game_at_the_same_version_is_not_written(make_user):
    """The condition is the version and the status: a match stopped without a new
    version (not something the site does, but the row is what counts) takes no move."""
    match, users, shown, seat = a_game_as_shown(make_user)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.ABORTED)
    assert services.act_on_known(shown.match, shown.state, users[seat],
                                  human_move(match, seat), shown.version) is None
    assert Move.objects.filter(match=match).count() == shown.version


@pytest.mark.django_db
def test_refusals_on_a_known_version_are_the_locked_paths(make_user):
    match, users, shown, seat = a_game_as_shown(make_user)
    move = human_move(match, seat)
    with translation.override("en"):
        with pytest.raises(PlayError, match="not your turn"):
            services.act(match.pk, users[1 - seat], move, match.version, known=shown)
        with pytest.raises(PlayError, match="not a valid move"):
            services.act(match.pk, users[seat], {"play": "9-9"}, match.version, known=shown)
        with pytest.raises(PlayError, match="own seat"):
            services.act(match.pk, users[seat], dict(move, seat=1 - seat), match.version,
                         known=shown)
    match.refresh_from_db()
    assert match.version == shown.version and match.state == shown.match.state


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_on_known_versions_keeps_the_log_and_the_state_as_one(
        make_user, django_capture_on_commit_callbacks, players):
    """Every move made as a game room makes it: one statement for every move but the
    one that ends the game (the locked way's: its result and rating points), the knocks
    made for players and the round ends included; the log replays to the stored state
    at every step, and the score table holds every ended round as it was announced."""
    match, users = a_game(make_user, players)
    one_statement, locked, knocks_made, rounds_ended = 0, 0, 0, []
    shown = known(match)
    for _ in range(5000):
        settle(match)
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        if shown is None or shown.version != match.version:
            shown = snapshots.load(match.pk, shown)
        seat = shown.state.turn
        message = human_move(match, seat)
        before = match.version
        with notify.collected() as notices, django_capture_on_commit_callbacks(execute=True):
            moved = services.act_on_known(shown.match, shown.state, users[seat], message,
                                          match.version)
            if moved is None:
                services.act(match.pk, users[seat], message, match.version)
                locked += 1
        if moved is not None:
            one_statement += 1
            events = notices[-1].message["events"]
            knocks = [e for e in events if e["type"] == "knocked" and e.get("auto")]
            knocks_made += len(knocks)
            rounds_ended += [e for e in events if e["type"] == "round_ended"]
            logged = Move.objects.filter(match=match, number__gt=before).order_by("number")
            assert [(m.kind, m.seat, m.payload.get("auto")) for m in logged] == \
                [(rules.action_from_json(dict(message, seat=seat)).kind, seat, None)] \
                + [("knock", e["seat"], True) for e in knocks]
        match.refresh_from_db()
        assert records.state_after(match) == rules.GameState.from_json(match.state)
        assert Move.objects.filter(match=match).count() == match.version
        primed = snapshots._primed(shown, *notices[-1].committed)
        shown = primed if primed is not None else known(match)
        assert shown is None or shown.state == rules.GameState.from_json(match.state) \
            or shown.match.status != MatchStatus.PLAYING
    else:
        pytest.fail("the game did not end")
    assert match.status == MatchStatus.FINISHED
    assert locked == 1 and one_statement > 1 and rounds_ended
    if players == 4:  # no bazaar: a player with nothing to play is knocked for
        assert knocks_made > 0
    stored = {(r.round_number, r.seat): r for r in RoundScore.objects.filter(match=match)}
    for ended in rounds_ended:
        for seat in range(players):
            row = stored[ended["round"], seat]
            assert (row.points, row.credited, row.score_after, row.remembered_after,
                    row.opened, row.result, row.result_seat, row.bank_after) == (
                ended["points"][seat], ended["credited"][seat], ended["scores"][seat],
                ended["remembered"][seat], ended["opened"][seat], ended["result"],
                ended["seat"], ended["bank"])
    # The last round's rows are the locked way's (it ended the game): all rounds are there.
    assert len(stored) == (len(rounds_ended) + 1) * players


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_move_waits_for_the_transaction_holding_the_match_and_sees_its_change(make_user):
    """The clock (or a move on the locked path) holds the row: the statement waits for
    it, then finds the version changed and writes nothing."""
    match, users, shown, seat = a_game_as_shown(make_user)
    message = human_move(match, seat)
    holding, release = threading.Event(), threading.Event()

    def the_clock():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                holding.set()
                release.wait(10)
                services.leave_game(match.pk, users[1 - seat])  # the same lock, a new version
        finally:
            connections.close_all()

    clock = threading.Thread(target=the_clock)
    clock.start()
    assert holding.wait(10)
    # On the event loop (nowait), the held row is not waited for: the locked way instead.
    refused = []
    on_loop = threading.Thread(target=lambda: (refused.append(services.act_on_known(
        shown.match, shown.state, users[seat], message, shown.version, nowait=True)),
        connections.close_all()))
    on_loop.start()
    on_loop.join(5)
    assert refused == [None]
    outcome = []
    mover = threading.Thread(target=lambda: (outcome.append(services.act_on_known(
        shown.match, shown.state, users[seat], message, shown.version)),
        connections.close_all()))
    mover.start()
    mover.join(0.5)
    assert mover.is_alive()  # waiting for the row
    release.set()
    clock.join(10)
    mover.join(10)
    assert outcome == [None]
    match.refresh_from_db()
    assert match.status == MatchStatus.INTERRUPTED
    assert not Move.objects.filter(match=match, kind="play").exists()


@pytest.mark.django_db
def test_a_snapshot_of_another_match_is_not_used(make_user):
    """``known`` only ever shortens a move on its own match: a snapshot naming another
    match (here this game's, relabelled) is ignored, not written to that match's row."""
    match, users, shown, seat = a_game_as_shown(make_user)
    other = services.play_with_bots(make_user("olya"), 2)
    other.refresh_from_db()
    assert other.version == shown.version  # so the condition alone would not stop it
    assert shown.match.seat_users  # remembered with the match: the relabelled one keeps them
    relabelled = copy.copy(shown.match)
    relabelled.pk = other.pk
    message = human_move(match, seat)
    assert services.act(match.pk, users[seat], message, match.version,
                        known=dataclasses.replace(shown, match=relabelled)) == shown.version + 1
    before = other.state
    other.refresh_from_db()
    assert other.version == shown.version and other.state == before
    assert Move.objects.get(match=match, number=shown.version + 1).payload == dict(message,
                                                                                  seat=seat)
