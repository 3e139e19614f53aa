"""Arenas for the tests: made, joined and played through the arena's and the game's
services, the clock's sweeps driven by the test (settings: tests/games/conftest.py)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import rules
from games.arena import seating, service
from games.models import Arena, ArenaGame, ArenaPlayer, Match, MatchStatus
from games.play import clock, service as services


def an_arena(creator=None, *, seats=3, pairs=False, minutes=30, starts_in=-1, **fields) -> Arena:
    """A running arena (started ``starts_in`` minutes from now: negative is past)."""
    start = timezone.now() + timedelta(minutes=starts_in)
    defaults = dict(name="Тестовая арена", starts_at=start,
                    ends_at=start + timedelta(minutes=minutes), seats_count=seats, pairs=pairs,
                    fish="all", turn_seconds=30, rated=True, private=False)
    defaults.update(fields)
    return Arena.objects.create(created_by=creator, **defaults)


def join_all(arena, people) -> None:
    for person in people:
        service.join(arena, person)


def seat_now(arena) -> list[Match]:
    """Sweep as if everyone had waited long enough; the tables seated now."""
    before = set(ArenaGame.objects.filter(arena=arena).values_list("match_id", flat=True))
    seating.seat_arena(arena, timezone.now() + timedelta(seconds=10))
    return list(Match.objects.filter(arena_game__arena=arena).exclude(pk__in=before)
                .order_by("pk"))


def give_seeds(match, people_by_user) -> None:
    """Every seat's browser gives its client seed: the game starts."""
    for seat in match.seats.all():
        service.give_seed(match.pk, people_by_user[seat.user_id], f"seed-of-{seat.user_id}")
    game = ArenaGame.objects.get(match=match)
    seating.start_if_ready(game.pk)
    match.refresh_from_db()


def state_of(match):
    match.refresh_from_db()
    return rules.GameState.from_json(match.state)


def play_to_end(match, people_by_user, seed: int = 0) -> None:
    """Play the game through the services, each move chosen from the seat's own view;
    the clock deals the rounds."""
    users = {s.number: people_by_user[s.user_id] for s in match.seats.all()}
    player = rules.RandomPlayer(seed)
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return
        state = rules.GameState.from_json(match.state)
        if state.phase == rules.DEAL:
            clock.sweep_once(timezone.now() + timedelta(seconds=1))
            continue
        action = player.choose(rules.view_for(state, state.turn)).to_json()
        del action["seat"]
        services.act(match.pk, users[state.turn], action, match.version)


def entry(arena, person) -> ArenaPlayer:
    return ArenaPlayer.objects.get(arena=arena, user=person)
