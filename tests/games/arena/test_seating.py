"""Seating within RULES.md 12's bounds, the commitment before the seeds, the game's end
freeing (or pausing) its players, the end of the arena, and two clocks seating at once."""

import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import rules
from games.arena import grouping, scoring, seating, service
from games.arena.results import arena_standings
from games.models import (Arena, ArenaGame, ArenaPlayer, Match, MatchStatus, Move, Rematch,
                          Seat)
from games.play import service as services
from games.play.errors import PlayError
from games.rules import fair
from tests.games.conftest import at_once

from .helpers import an_arena, entry, give_seeds, join_all, play_to_end, seat_now, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(make_user):
    return [make_user(f"игрок{n}") for n in range(6)]


def by_user(people):
    return {p.pk: p for p in people}


def test_k_waiting_are_seated_once_they_have_gathered_and_2k_at_once(six, settings):
    settings.KOZEL_ARENA_GATHER = 2
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    now = timezone.now()
    assert seating.seat_arena(arena, now) == 0           # 3 waiting, just now: gathering
    assert seating.seat_arena(arena, now + timedelta(seconds=2.5)) == 1  # within 10 s


def test_two_tables_seat_at_once_when_2k_wait(six):
    arena = an_arena(seats=3)
    join_all(arena, six)
    assert seating.seat_arena(arena, timezone.now()) == 2
    assert ArenaPlayer.objects.filter(arena=arena, table=None).count() == 0


def test_no_table_before_the_start_or_after_the_end(six):
    soon = an_arena(seats=3, starts_in=5)
    join_all(soon, six[:3])
    assert seating.sweep(timezone.now() + timedelta(seconds=30)) == 0
    past = an_arena(seats=3, starts_in=-40, minutes=30)
    with pytest.raises(PlayError):
        service.join(past, six[3])


def test_a_seated_table_shows_its_commitment_and_starts_from_the_seeds_given_after(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    assert match.status == MatchStatus.WAITING and match.private  # no lobby lists it
    assert match.commitment == fair.commitment(bytes(match.server_seed))
    assert match.state is None  # nothing dealt before the seeds
    give_seeds(match, by_user(six))
    assert match.status == MatchStatus.PLAYING and not match.private
    seeds = list(match.seats.order_by("number").values_list("client_seed", "user_id"))
    assert [s for s, _u in seeds] == [f"seed-of-{u}" for _s, u in seeds]
    # The first deal follows from the server seed and those seeds (kozel-fair/1).
    deal, _attempt = fair.fair_deal(bytes(match.server_seed), 1, [s for s, _u in seeds])
    assert Move.objects.get(match=match, number=1).payload == deal.to_json()


def test_a_seat_whose_browser_gives_no_seed_plays_with_the_empty_one(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    service.give_seed(match.pk, six[0], "mine")
    game = ArenaGame.objects.get(match=match)
    assert not seating.start_if_ready(game.pk, timezone.now())
    assert seating.start_if_ready(game.pk, game.seeds_due)
    seeds = dict(match.seats.values_list("user_id", "client_seed"))
    assert seeds == {six[0].pk: "mine", six[1].pk: "", six[2].pk: ""}


def test_hostile_seeds_are_refused_and_change_nothing(six, make_user):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    with pytest.raises(PlayError) as refusal:
        service.give_seed(match.pk, make_user("чужой"), "x")
    assert refusal.value.code == "not-seated"
    with pytest.raises(PlayError):
        service.give_seed(match.pk, six[0], "é" * 3)
    service.give_seed(match.pk, six[0], "ok")
    with pytest.raises(PlayError) as refusal:
        service.give_seed(match.pk, six[0], "again")
    assert refusal.value.code == "answered"
    assert ArenaGame.objects.get(match=match).seeds == {
        str(match.seats.get(user=six[0]).number): "ok"}


def test_a_game_that_ends_frees_its_players_no_rematch_and_a_leaver_is_not_paused(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    give_seeds(match, by_user(six))
    services.leave_game(match.pk, six[0])
    assert all(entry(arena, p).table_id is None and entry(arena, p).waiting_since
               for p in six[:3])
    assert not entry(arena, six[0]).paused
    assert ArenaGame.objects.get(match=match).ended
    assert not Rematch.objects.filter(game=match).exists()  # the arena seats them again


def test_a_player_who_timed_out_is_paused(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    give_seeds(match, by_user(six))
    turn = state_of(match).turn
    late = match.deadline + timedelta(seconds=1)
    assert services.run_due(match.pk, late)
    timed_out = match.seats.get(number=turn).user
    assert entry(arena, timed_out).paused and entry(arena, timed_out).waiting_since is None
    others = [p for p in six[:3] if p != timed_out]
    assert all(not entry(arena, p).paused and entry(arena, p).waiting_since for p in others)
    service.join(arena, timed_out)  # comes back
    assert not entry(arena, timed_out).paused


def test_a_paused_player_is_not_seated_and_finishes_the_game_first(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:4])
    service.pause(arena, six[3])
    [match] = seat_now(arena)
    assert set(match.seats.values_list("user_id", flat=True)) == {p.pk for p in six[:3]}
    service.pause(arena, six[0])  # at the table: paused once its game ends
    give_seeds(match, by_user(six))
    services.leave_game(match.pk, six[1])
    assert entry(arena, six[0]).paused and entry(arena, six[0]).waiting_since is None


def test_a_game_running_at_the_end_counts_and_the_arena_is_over_when_it_ends(six):
    arena = an_arena(seats=2, minutes=30, starts_in=-29)
    join_all(arena, six[:2])
    [match] = seat_now(arena)
    give_seeds(match, by_user(six))
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    arena.refresh_from_db()
    assert arena.phase() == "ending"
    assert seating.sweep() == 0
    arena.refresh_from_db()
    assert arena.over_at is None  # its last game is still being played
    services.leave_game(match.pk, six[0])  # after the first round? aborted either way
    arena.refresh_from_db()
    assert arena.over_at is not None and arena.phase() == "over"
    assert sum(s.games for s in arena_standings(arena)) == 2  # it counted


def test_close_in_rank_and_apart_from_last_games_companions(make_user):
    people = [make_user(f"r{n}") for n in range(4)]
    arena = an_arena(seats=2)
    join_all(arena, people)
    first = seat_now(arena)
    for match in first:
        give_seeds(match, by_user(people))
        play_to_end(match, by_user(people), seed=match.pk)
    met = {frozenset(m.seats.values_list("user_id", flat=True)) for m in first}
    ranked = [s.player for s in arena_standings(arena)]
    tables = seat_now(arena)
    together = {frozenset(m.seats.values_list("user_id", flat=True)) for m in tables}
    assert len(together) == 2 and not together & met  # 2k wait: nobody meets again
    # The leader sits with the best-ranked player they did not just meet.
    partner = next(p for p in ranked[1:] if frozenset((ranked[0], p)) not in met)
    assert frozenset((ranked[0], partner)) in together


def test_grouping_avoids_last_games_companions_when_2k_wait():
    ranked = ["a", "b", "c", "d"]
    met = {"a": frozenset("b"), "b": frozenset("a"), "c": frozenset("d"), "d": frozenset("c")}
    assert grouping.tables(ranked, 2, met) == [["a", "c"], ["b", "d"]]
    # Fewer than 2k wait: close in rank, even if they just met.
    assert grouping.tables(["a", "b"], 2, met) == [["a", "b"]]
    # No grouping avoids it (two previous tables of three, six waiting): rank order.
    met3 = {p: frozenset(set("abc") - {p}) for p in "abc"}
    met3.update({p: frozenset(set("def") - {p}) for p in "def"})
    assert grouping.tables(list("abcdef"), 3, met3) == [list("abc"), list("def")]
    # One waits over: the grouping may leave out whoever makes the others fit.
    met5 = {"a": frozenset("b"), "b": frozenset("a")}
    assert grouping.tables(list("abcde"), 2, met5) == [["a", "c"], ["b", "d"]]


def test_pairs_are_best_with_worst_and_sit_opposite():
    for seed in range(20):
        a, b, c, d = "abcd"
        order = grouping.seat_order([a, b, c, d], True, random.Random(seed))
        pairs = {frozenset((order[0], order[2])), frozenset((order[1], order[3]))}
        assert pairs == {frozenset("ad"), frozenset("bc")}


@pytest.mark.django_db(transaction=True)
def test_two_clocks_never_seat_one_player_twice(six):
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    players = list(ArenaPlayer.objects.filter(arena=arena))
    now = timezone.now()
    results = at_once(*[lambda: _seat_or_taken(arena, players, now, random.Random(1))
                        for _ in range(3)])
    assert sorted(results, key=str).count("taken") == 2, results
    assert Match.objects.filter(arena_game__arena=arena).count() == 1
    assert Seat.objects.filter(user__in=six[:3], match__status__in=("waiting", "playing")).count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_seat_each_waiting_player_once(six):
    arena = an_arena(seats=3)
    join_all(arena, six)
    later = timezone.now() + timedelta(seconds=5)
    at_once(lambda: seating.sweep(later), lambda: seating.sweep(later))
    seats = list(Seat.objects.filter(match__arena_game__arena=arena).values_list("user_id", flat=True))
    assert sorted(seats) == sorted(p.pk for p in six)  # everyone once


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_a_late_start_and_the_games_end_take_their_rows_in_one_order(six):
    """A sweep that listed a table while it waited for its seeds may look at it again
    after another clock started it, while the game is ending: the end holds the match's
    row, then frees the table's players (its arena game's row).  Taking the two the other
    way round, the look would deadlock with the end."""
    arena = an_arena(seats=3)
    join_all(arena, six[:3])
    [match] = seat_now(arena)
    give_seeds(match, by_user(six))
    game = ArenaGame.objects.get(match=match)
    match_held = threading.Event()

    def the_end():
        with transaction.atomic():
            Match.objects.select_for_update().get(pk=match.pk)  # as store.commit holds it
            match_held.set()
            time.sleep(0.5)  # the late look is waiting by now
            scoring.release(game, timezone.now())
        return "ended"

    def the_late_look():
        match_held.wait(10)
        return seating.start_if_ready(game.pk)

    assert at_once(the_end, the_late_look) == ["ended", False]
    assert ArenaGame.objects.get(pk=game.pk).ended


def _seat_or_taken(arena, players, now, rng):
    try:
        return seating.seat_table(arena, players, now, rng).pk
    except seating.Taken:
        return "taken"
