"""An arena through faults (issue 40, point 6): a server killed (SIGKILL) during an arena
and started again loses no game, no point and no player's place, and seating resumes;
two clock processes seating at once never seat one player twice (scaled out)."""

from __future__ import annotations

import sys
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules
from games.arena import service
from games.arena.results import arena_standings
from games.models import RUNNING, Arena, ArenaGame, ArenaPlayer, Match, MatchStatus, Seat
from games.play import service as services
from tests.daphne_server import DaphneServer, live_server_env

from .conftest import QUICK_PLAYERS, ManagedProcess

pytestmark = pytest.mark.django_db(transaction=True)

ARENA_QUICK = {"KOZEL_ARENA_SCHEDULE": "[]", "KOZEL_ARENA_GATHER": "0.3",
               "KOZEL_ARENA_SEED_SECONDS": "0.5"}


def until(condition, within: float = 30.0, what: str = ""):
    end = time.monotonic() + within
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {within} s: {what}")


def an_arena(people, seats: int) -> Arena:
    start = timezone.now() - timedelta(seconds=1)
    arena = Arena.objects.create(name="Арена", starts_at=start,
                                 ends_at=start + timedelta(minutes=30), seats_count=seats,
                                 fish="all", turn_seconds=120, rated=True)
    for person in people:
        service.join(arena, person)
    return arena


def playing_tables(arena) -> list[Match]:
    return list(Match.objects.filter(arena_game__arena=arena, status=MatchStatus.PLAYING))


def a_round_then_leave(match: Match) -> None:
    users = {s.number: s.user for s in match.seats.select_related("user")}
    player = rules.RandomPlayer(match.pk)
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.DEAL:  # the server's clock deals the next round
            if state.round >= 1:
                break
            time.sleep(0.05)
            continue
        action = player.choose(rules.view_for(state, state.turn)).to_json()
        del action["seat"]
        services.act(match.pk, users[state.turn], action, match.version)
    services.leave_game(match.pk, users[0])


def places(arena) -> dict:
    return {p.user_id: (p.joined_at, p.paused) for p in ArenaPlayer.objects.filter(arena=arena)}


def test_a_server_killed_during_an_arena_loses_nothing_and_seating_resumes(make_user, tmp_path):
    server = DaphneServer(env=live_server_env(**QUICK_PLAYERS, **ARENA_QUICK), log_dir=tmp_path)
    server.start()
    try:
        people = [make_user(f"arena{n}") for n in range(4)]
        arena = an_arena(people, seats=2)
        first, second = until(lambda: len(playing_tables(arena)) == 2 and playing_tables(arena),
                              what="two tables seated and started by the server's clock")
        a_round_then_leave(first)
        before = [s.as_json() for s in arena_standings(arena)]
        assert sum(s["points"] for s in before) > 0
        kept = places(arena)

        server.kill()  # while `second` is being played and first's players wait
        after_kill = [s.as_json() for s in arena_standings(arena)]
        server.start()

        assert after_kill == before and places(arena) == kept
        freed = {s.user_id for s in first.seats.all()}
        # Seating resumes: first's players are seated again by the restarted server.
        new = until(lambda: Match.objects.filter(arena_game__arena=arena, status="playing",
                                                 seats__user_id__in=freed)
                    .exclude(pk__in=[first.pk, second.pk]).first(),
                    what="first's players seated again after the restart")
        assert new.status == MatchStatus.PLAYING
        # The game played across the kill still ends and counts.
        a_round_then_leave(second)
        assert ArenaGame.objects.get(match=second).ended
        assert sum(s.games for s in arena_standings(arena)) == 2 * 2
        assert [s.as_json() for s in arena_standings(arena)][0]["points"] >= max(
            s["points"] for s in before)
    finally:
        server.stop()
        print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def test_two_clock_processes_never_seat_one_player_twice(scaled_out, make_user, tmp_path):
    _daphnes, clock = scaled_out(servers=1, **ARENA_QUICK)
    second_clock = ManagedProcess([sys.executable, "-m", "tests.seeded_server", "manage.py",
                                   "clock"], clock.env, tmp_path / "clock2.log").start()
    try:
        people = [make_user(f"many{n}") for n in range(12)]
        arena = an_arena(people, seats=3)
        for _round in range(3):
            until(lambda: len(playing_tables(arena)) == 4, what="four tables seated")
            seats = list(Seat.objects.filter(match__arena_game__arena=arena,
                                             match__status__in=RUNNING)
                         .values_list("user_id", flat=True))
            assert sorted(seats) == sorted(p.pk for p in people)  # everyone once
            for match in playing_tables(arena):
                services.leave_game(match.pk, match.seats.get(number=0).user)
            until(lambda: not playing_tables(arena) or len(playing_tables(arena)) == 4,
                  what="the tables ended")
        per_player = {}
        for game in ArenaGame.objects.filter(arena=arena).select_related("match"):
            for user_id in game.match.seats.values_list("user_id", flat=True):
                per_player.setdefault(user_id, []).append(
                    (game.match.created_at, game.match.ended_at or timezone.now()))
        for spans in per_player.values():  # a player's games never overlap
            spans.sort()
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    finally:
        second_clock.stop()
        print(f"--- clock2 ---\n{second_clock.log_tail()}")
