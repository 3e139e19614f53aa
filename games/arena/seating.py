"""Seating an arena's waiting players (RULES.md 12), with the clock's sweep
(games/play/clock.py ``every_sweep``, registered in games/apps.py), so that it runs with
nobody connected, across restarts, and in any number of clock processes at once.

Each sweep, for every running arena:
- a table is seated as soon as ``2k`` wait, or ``k`` have for KOZEL_ARENA_GATHER seconds
  (well within RULES.md 12's 10 seconds): tables cut from the waiting players in rank
  order, apart from last game's companions when enough wait (games/arena/grouping.py);
- a seated table starts (``games.play.service.start`` through the lobby's
  ``start_table``) once every seat's browser gave its client seed after seeing the
  commitment, or when KOZEL_ARENA_SEED_SECONDS have passed (the empty seed for the rest).

A player is taken with a compare-and-swap on their ArenaPlayer row (still waiting, not
paused, at no table) inside the transaction that creates the table, with their Player
rows locked first (by user id, the order every context locks people in): of two clocks
seating at once, one takes them and the other's transaction finds fewer than ``k`` and is
rolled back.  Nobody is ever seated twice.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from games.arena import grouping, groups, limits
from games.arena.results import arena_standings
from games.arena.scoring import close_if_over, release
from games.lobby.tables import seat_person, seatless_table, start_table
from games.models import (OVER, RUNNING, Arena, ArenaGame, ArenaPlayer, Match, MatchStatus,
                          Seat)

log = logging.getLogger(__name__)


class Taken(Exception):
    """Someone of the table was seated (or paused) meanwhile: nothing is written."""


def sweep(now=None) -> int:
    """One sweep: start the tables whose seeds are in, seat the waiting, end the arenas
    whose time is up; how many tables were seated."""
    now = now or timezone.now()
    for game_id in ArenaGame.objects.filter(match__status=MatchStatus.WAITING) \
            .values_list("pk", flat=True):
        start_if_ready(game_id, now)
    _release_stopped(now)
    seated = 0
    for arena in Arena.objects.filter(cancelled_at=None, over_at=None, starts_at__lte=now,
                                      ends_at__gt=now):
        seated += seat_arena(arena, now)
    for arena in Arena.objects.filter(cancelled_at=None, over_at=None, ends_at__lte=now):
        close_if_over(arena, now)
    return seated


def _waiting(arena: Arena) -> list[ArenaPlayer]:
    return list(ArenaPlayer.objects.filter(arena=arena, table=None, paused=False,
                                           waiting_since__isnull=False)
                .order_by("waiting_since", "id"))


def ready_to_seat(waiting: list[ArenaPlayer], k: int, now) -> bool:
    if len(waiting) < k:
        return False
    gather = timedelta(seconds=settings.KOZEL_ARENA_GATHER)
    return len(waiting) >= 2 * k or waiting[0].waiting_since <= now - gather


def seat_arena(arena: Arena, now=None) -> int:
    """Seat the tables its waiting players make now; how many."""
    now = now or timezone.now()
    began = time.perf_counter()
    k = arena.table_size
    waiting = _waiting(arena)
    if not ready_to_seat(waiting, k, now):
        return 0
    # Someone at a table elsewhere (the lobby, another arena) waits here until free.
    busy = set(Seat.objects.filter(match__status__in=RUNNING,
                                   user_id__in=[p.user_id for p in waiting])
               .values_list("user_id", flat=True))
    waiting = [p for p in waiting if p.user_id not in busy]
    if len(waiting) < k:
        return 0
    rank = {s.player: s.rank for s in arena_standings(arena)}
    waiting.sort(key=lambda p: (rank.get(p.user_id, 0), p.id))
    met = last_companions(arena, [p.user_id for p in waiting])
    by_user = {p.user_id: p for p in waiting}
    seated = 0
    rng = random.SystemRandom()
    for table in grouping.tables([p.user_id for p in waiting], k, met):
        try:
            seat_table(arena, [by_user[u] for u in table], now, rng)
            seated += 1
        except Taken:
            continue
    if seated:  # what a seating costs the server (bench/load.py --arena reads it)
        log.info("arena %s: %d table(s) seated from %d waiting in %.1f ms", arena.pk, seated,
                 len(waiting), (time.perf_counter() - began) * 1000)
    return seated


def last_companions(arena: Arena, user_ids: list[int]) -> dict[int, frozenset]:
    """Whom each of ``user_ids`` sat with in their previous game of ``arena``."""
    wanted, met = set(user_ids), {}
    seats = (Seat.objects.filter(match__arena_game__arena=arena)
             .order_by("-match__arena_game__seated_at", "-match_id")
             .values_list("match_id", "user_id"))
    tables: dict[int, list[int]] = {}
    order: list[int] = []
    for match_id, user_id in seats.iterator():
        if match_id not in tables:
            tables[match_id] = []
            order.append(match_id)
        tables[match_id].append(user_id)
    for match_id in order:  # the latest first
        people = tables[match_id]
        for user_id in people:
            if user_id in wanted and user_id not in met:
                met[user_id] = frozenset(p for p in people if p != user_id)
        if len(met) == len(wanted):
            break
    return met


@transaction.atomic
def seat_table(arena: Arena, players: list[ArenaPlayer], now, rng: random.Random) -> Match:
    """A table of ``players`` (in rank order): its commitment drawn now, its players
    taken by compare-and-swap, its seats in a random order (RULES.md 12).  Taken (and
    nothing written) if one of them is no longer waiting."""
    users = [p.user_id for p in players]
    list(Player.objects.select_for_update().filter(user_id__in=users).order_by("user_id")
         .values_list("pk", flat=True))
    if Seat.objects.filter(match__status__in=RUNNING, user_id__in=users).exists():
        raise Taken
    # Private while its seeds are collected, so that no lobby lists it as a request.
    match = seatless_table(created_by_id=arena.created_by_id, seats_count=arena.seats_count,
                           fish=arena.fish, pairs=arena.pairs, turn_seconds=arena.turn_seconds,
                           rated=limits.table_is_rated(arena, users), private=True)
    taken = ArenaPlayer.objects.filter(pk__in=[p.pk for p in players], table=None,
                                       paused=False, waiting_since__isnull=False) \
        .update(table=match, waiting_since=None)
    if taken != len(players):
        raise Taken  # rolls the table back with the transaction
    by_user = {p.user_id: p for p in players}
    for number, user_id in enumerate(grouping.seat_order(users, arena.pairs, rng)):
        seat_person(match, number, by_user[user_id].user, None, "")
    ArenaGame.objects.create(
        arena=arena, match=match, seated_at=now,
        seeds_due=now + timedelta(seconds=settings.KOZEL_ARENA_SEED_SECONDS))
    groups.seated(arena.pk, users, match.pk, groups.arena_changed(arena.pk))
    return match


@transaction.atomic
def start_if_ready(game_id: int, now=None) -> bool:
    """Start the seated table once every seat gave its client seed, or its time for them
    is up (the empty seed for the others, RULES.md 12); whether it started now."""
    now = now or timezone.now()
    match_id = ArenaGame.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    # The match's row before its arena game's: a game's end takes them in that order
    # (store.commit, then scoring.release), and the other order deadlocks with it.
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.WAITING:
        return False
    game = ArenaGame.objects.select_for_update().get(pk=game_id)
    seats = list(match.seats.order_by("number"))
    if len(game.seeds) < len(seats) and now < game.seeds_due:
        return False
    for seat in seats:
        seat.client_seed = game.seeds.get(str(seat.number), "")
        seat.save(update_fields=["client_seed"])
    arena = Arena.objects.get(pk=game.arena_id)
    match.private = arena.private
    Match.objects.filter(pk=match.pk).update(private=arena.private)
    start_table(match)
    groups.arena_changed(arena.pk)
    return True


def _release_stopped(now) -> None:
    """Tables a moderator stopped (no result, so no end event): their players wait again."""
    for game in ArenaGame.objects.filter(ended=False, match__status__in=OVER,
                                         match__result__isnull=True):
        with transaction.atomic():
            if ArenaGame.objects.select_for_update().filter(pk=game.pk, ended=False).exists():
                release(game, now)
