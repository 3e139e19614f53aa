"""What the moderators' "suspicious" page lists: signs of rating boosting.

Three lists, over the games started within the last KOZEL_SUSPICIOUS_DAYS days:

- **One address**: rated games at which two or more of the seated accounts took their
  seats from the same client address (games.models.SeatAddress).
- **Pairs that keep meeting**: two accounts that sat together at KOZEL_SUSPICIOUS_MIN_GAMES
  or more rated games, where one of the two ended a game of theirs by leaving or timing
  out (at any round: an exit in round 1 aborts a rated game, RULES.md 9; any later exit
  hands the others rating points) -- the count of each one's exits says whether it is
  always the same one.
- **Pairs at the limit again and again**: two accounts whose game was played unrated
  KOZEL_SUSPICIOUS_LIMIT_HITS or more times because they had already played 3 rated
  games together that day (RULES.md 10, ratings.limits): people who keep trying to
  play on together for points.
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
from games.models import Match, MatchStatus, Move, MoveKind, Seat, SeatAddress, UnratedWhy
from ratings import limits

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
    exits: dict[int, int] = field(default_factory=dict)   # user id -> games they ended
    exit_games: list[int] = field(default_factory=list)   # match ids, newest first

    @property
    def first_exits(self) -> int:
        return self.exits.get(self.first.pk, 0)

    @property
    def second_exits(self) -> int:
        return self.exits.get(self.second.pk, 0)


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


def exits(match_ids) -> dict[int, int]:
    """Match id -> the seat that ended it by leaving or timing out (at any round)."""
    found = Move.objects.filter(match__in=match_ids, kind__in=(MoveKind.LEAVE, MoveKind.TIMEOUT))
    return dict(found.values_list("match", "seat"))


def meeting_pairs(min_games: int | None = None) -> list[MeetingPair]:
    """Pairs of accounts with ``min_games`` (KOZEL_SUSPICIOUS_MIN_GAMES) or more rated games
    together, one of whom ended one of them by leaving or timing out; the busiest first."""
    min_games = min_games or settings.KOZEL_SUSPICIOUS_MIN_GAMES
    started = _rated_recent().filter(status__in=STARTED)
    seats = (Seat.objects.filter(match__in=started, user__isnull=False)
             .values_list("match_id", "number", "user_id").order_by("-match_id", "number"))
    people_at: dict[int, dict[int, int]] = defaultdict(dict)   # match -> seat -> user
    for match_id, number, user_id in seats:
        people_at[match_id][number] = user_id
    ended_by = exits(list(people_at))
    together: dict[tuple[int, int], MeetingPair] = {}
    for match_id, by_seat in people_at.items():  # newest first
        exited = by_seat.get(ended_by.get(match_id))
        for first, second in itertools.combinations(sorted(by_seat.values()), 2):
            pair = together.setdefault((first, second), MeetingPair(first, second))
            pair.games += 1
            if exited in (first, second):
                pair.exits[exited] = pair.exits.get(exited, 0) + 1
                pair.exit_games.append(match_id)
    found = [pair for pair in together.values() if pair.games >= min_games and pair.exits]
    found.sort(key=lambda pair: (-pair.games, -len(pair.exit_games)))
    found = found[:MAX_ROWS]
    users = User.objects.in_bulk({pair.first for pair in found} | {pair.second for pair in found})
    for pair in found:
        pair.first, pair.second = users[pair.first], users[pair.second]
    return found


@dataclass
class LimitPair:
    first: User
    second: User
    games: list[int] = field(default_factory=list)  # the unrated games, newest first

    @property
    def hits(self) -> int:
        return len(self.games)


def limit_pairs(min_hits: int | None = None) -> list[LimitPair]:
    """Pairs of accounts whose games were played unrated ``min_hits``
    (KOZEL_SUSPICIOUS_LIMIT_HITS) or more times because the two had played 3 rated games
    together in the day before (RULES.md 10); the most frequent first."""
    min_hits = min_hits or settings.KOZEL_SUSPICIOUS_LIMIT_HITS
    unrated = (Match.objects.filter(unrated_why=UnratedWhy.SAME_PEOPLE, started_at__gte=_since())
               .order_by("-started_at", "-pk").values_list("pk", "started_at")[:MAX_ROWS * 5])
    people_at: dict[int, list[int]] = defaultdict(list)
    for match_id, user_id in (Seat.objects.filter(match__in=[pk for pk, _at in unrated],
                                                  user__isnull=False)
                              .values_list("match_id", "user_id")):
        people_at[match_id].append(user_id)
    hit: dict[tuple[int, int], LimitPair] = {}
    for match_id, started in unrated:
        # Which two of its people had reached the limit when it started.
        for first, second in limits.pairs_at_limit(people_at[match_id], started):
            hit.setdefault((first, second), LimitPair(first, second)).games.append(match_id)
    found = sorted((pair for pair in hit.values() if pair.hits >= min_hits),
                   key=lambda pair: -pair.hits)[:MAX_ROWS]
    users = User.objects.in_bulk({p.first for p in found} | {p.second for p in found})
    for pair in found:
        pair.first, pair.second = users[pair.first], users[pair.second]
    return found
