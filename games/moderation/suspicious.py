"""What the moderators' "suspicious" page lists: signs of rating boosting.

Two lists, over the rated games started within the last KOZEL_SUSPICIOUS_DAYS days:

- **One address**: rated games at which two or more of the seated accounts took their
  seats from the same client address (games.models.SeatAddress).
- **Pairs that keep meeting**: two accounts that sat together at KOZEL_SUSPICIOUS_MIN_GAMES
  or more rated games, where one of the two made an *early exit* at least once.

An early exit is a game that ended by a seat's leave or timeout before its second round
was scored (at most one round scored): a round-1 exit aborts a rated game (RULES.md 9),
and an exit right after round 1 hands the others rating points for one round's play --
both cheap ways to feed one account from another.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchStatus, Move, MoveKind, RoundScore, Seat, SeatAddress

# An exit before this many rounds were scored is early.
EARLY_EXIT_ROUNDS = 2
STARTED = (MatchStatus.PLAYING, MatchStatus.FINISHED, MatchStatus.INTERRUPTED,
           MatchStatus.ABORTED)
MAX_ROWS = 200  # each list shows the newest or busiest this many


@dataclass
class SharedAddressGame:
    match: Match
    address: str
    accounts: list[User]  # the accounts that share it, by login


@dataclass
class MeetingPair:
    first: User
    second: User
    games: int = 0
    early_exits: dict[int, int] = field(default_factory=dict)   # user id -> count
    early_games: list[int] = field(default_factory=list)         # match ids, newest first

    @property
    def first_exits(self) -> int:
        return self.early_exits.get(self.first.pk, 0)

    @property
    def second_exits(self) -> int:
        return self.early_exits.get(self.second.pk, 0)


def _since():
    return timezone.now() - timedelta(days=settings.KOZEL_SUSPICIOUS_DAYS)


def _rated_recent():
    return Match.objects.filter(rated=True, created_at__gte=_since())


def shared_address_games() -> list[SharedAddressGame]:
    """Rated games whose seated accounts include two or more from one client address."""
    shared = (SeatAddress.objects.filter(seat__match__in=_rated_recent())
              .values("seat__match", "address")
              .annotate(people=Count("seat__user", distinct=True))
              .filter(people__gte=2))
    pairs = {(row["seat__match"], row["address"]) for row in shared}
    if not pairs:
        return []
    match_ids = {match_id for match_id, _address in pairs}
    accounts: dict[tuple[int, str], list[User]] = defaultdict(list)
    for row in (SeatAddress.objects.filter(seat__match__in=match_ids)
                .select_related("seat__user").order_by("seat__user__username")):
        if (row.seat.match_id, row.address) in pairs:
            accounts[row.seat.match_id, row.address].append(row.seat.user)
    matches = Match.objects.in_bulk(match_ids)
    rows = [SharedAddressGame(matches[match_id], address, people)
            for (match_id, address), people in accounts.items()]
    rows.sort(key=lambda row: (row.match.created_at, row.match.pk), reverse=True)
    return rows[:MAX_ROWS]


def early_exits(match_ids) -> dict[int, int]:
    """Match id -> the seat that left or timed out early there (module docstring)."""
    rounds = dict(RoundScore.objects.filter(match__in=match_ids).values("match")
                  .annotate(rounds=Count("round_number", distinct=True))
                  .values_list("match", "rounds"))
    exits = Move.objects.filter(match__in=match_ids, kind__in=(MoveKind.LEAVE, MoveKind.TIMEOUT))
    return {match_id: seat for match_id, seat in exits.values_list("match", "seat")
            if rounds.get(match_id, 0) < EARLY_EXIT_ROUNDS}


def meeting_pairs(min_games: int | None = None) -> list[MeetingPair]:
    """Pairs of accounts with ``min_games`` (KOZEL_SUSPICIOUS_MIN_GAMES) or more rated games
    together, one of whom exited early at least once; the busiest first."""
    min_games = min_games or settings.KOZEL_SUSPICIOUS_MIN_GAMES
    started = _rated_recent().filter(status__in=STARTED)
    seats = (Seat.objects.filter(match__in=started, user__isnull=False)
             .values_list("match_id", "number", "user_id").order_by("-match_id", "number"))
    people_at: dict[int, dict[int, int]] = defaultdict(dict)   # match -> seat -> user
    for match_id, number, user_id in seats:
        people_at[match_id][number] = user_id
    exits = early_exits(list(people_at))
    together: dict[tuple[int, int], MeetingPair] = {}
    for match_id, by_seat in people_at.items():  # newest first
        exited = by_seat.get(exits.get(match_id))
        for first, second in itertools.combinations(sorted(by_seat.values()), 2):
            pair = together.setdefault((first, second), MeetingPair(first, second))
            pair.games += 1
            if exited in (first, second):
                pair.early_exits[exited] = pair.early_exits.get(exited, 0) + 1
                pair.early_games.append(match_id)
    found = [pair for pair in together.values() if pair.games >= min_games and pair.early_exits]
    found.sort(key=lambda pair: (-pair.games, -len(pair.early_games)))
    found = found[:MAX_ROWS]
    users = User.objects.in_bulk({pair.first for pair in found} | {pair.second for pair in found})
    for pair in found:
        pair.first, pair.second = users[pair.first], users[pair.second]
    return found
