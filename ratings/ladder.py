"""The ladder's queries: all time from the players' ratings, a week or a month from the
period totals.  Both are read through one partial index each, and a page costs the same
few queries whatever its size:

1. count the listed rows (an index-only count),
2. the page: its ids picked from the index in a subquery, then joined to the names for
   those rows only (a join over the whole offset would cost a look-up per skipped row),
3. the rank of the page's first row (how many are strictly ahead of it).

Ranks are competition ranks: equal points share a rank, and the next rank skips ahead
(1, 2, 2, 4).  Among equals, older accounts come first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.utils import timezone

from accounts.models import Player, User
from ratings.models import Period, RatingTotal
from ratings.services import period_starts

ALL_TIME = "all"
PERIODS = (ALL_TIME, Period.MONTH, Period.WEEK)
PAGE_SIZES = (25, 50, 100)
DEFAULT_PAGE_SIZE = 50


@dataclass
class Row:
    rank: int
    player: Player
    points: int           # the rating (all time), or the points earned in the period
    games: int
    goats: int
    pair_games: int       # of the games, those played in pairs (RULES.md 11)

    @property
    def login(self):
        return self.player.user.username


class Ladder:
    """One period's ladder: ``listed`` in ladder order, ``points_field`` to rank by."""

    def __init__(self, period: str = ALL_TIME, today=None):
        self.period = period if period in PERIODS else ALL_TIME
        if self.period == ALL_TIME:
            self.start = None
            self.listed = Player.objects.filter(active=True, games_played__gt=0)
            self.points_field, self.tiebreak = "rating", "id"
        else:
            today = today or timezone.localdate()
            self.start = dict(period_starts(today))[self.period]
            self.listed = RatingTotal.objects.filter(period=self.period, start=self.start,
                                                     active=True, games__gt=0)
            self.points_field, self.tiebreak = "points", "player_id"
        self.listed = self.listed.order_by(f"-{self.points_field}", self.tiebreak)

    def paginator(self, per_page: int = DEFAULT_PAGE_SIZE) -> Paginator:
        return Paginator(_Rows(self), per_page)

    def rank_of_points(self, points: int) -> int:
        return self.listed.filter(**{f"{self.points_field}__gt": points}).count() + 1

    def position_of(self, player: Player) -> int | None:
        """Where a player stands in ladder order (0 first), or None if not listed."""
        mine = self.listed.filter(**{self.tiebreak: player.pk}).values_list(
            self.points_field, flat=True).first()
        if mine is None:
            return None
        # Two range counts, each a stretch of the index (an OR of the two would not be).
        higher = self.listed.filter(**{f"{self.points_field}__gt": mine}).count()
        level = self.listed.filter(**{self.points_field: mine, f"{self.tiebreak}__lt": player.pk}).count()
        return higher + level

    def rows(self, window: slice) -> list[Row]:
        ids = self.listed.values("pk")[window]
        if self.period == ALL_TIME:
            found = list(Player.objects.filter(pk__in=ids).select_related("user")
                         .order_by("-rating", "id"))
            rows = [(p, p.rating, p.games_played, p.times_goat, p.pair_games) for p in found]
        else:
            found = list(RatingTotal.objects.filter(pk__in=ids).select_related("player__user")
                         .order_by("-points", "player_id"))
            rows = [(t.player, t.points, t.games, t.goats, t.pair_games) for t in found]
        if not rows:
            return []
        # Competition ranks: the first row's from a count, the others from the rows before.
        result, rank = [], self.rank_of_points(rows[0][1])
        offset = window.start or 0
        for index, (player, points, *counts) in enumerate(rows):
            if index and points != result[-1].points:
                rank = offset + index + 1
            result.append(Row(rank, player, points, *counts))
        return result


class _Rows:
    """The ladder as Django's Paginator wants it: a count, and slices (see the module's
    doc for why a slice is not simply the ordered queryset's)."""

    def __init__(self, ladder: Ladder):
        self.ladder = ladder

    def count(self):
        return self.ladder.listed.count()

    def __getitem__(self, window: slice):
        return self.ladder.rows(window)


def find_login(text: str) -> User | None:
    """The account with this exact login name, in any case."""
    text = text.strip()
    return User.objects.by_login(text).select_related("player").first() if text else None


def logins_starting(text: str, limit: int = 10) -> list[str]:
    """Login names that start with ``text`` (any case): suggestions when none is exact."""
    from django.db.models.functions import Lower

    text = text.strip().lower()
    if not text:
        return []
    return list(User.objects.alias(low=Lower("username")).filter(low__startswith=text)
                .order_by("username").values_list("username", flat=True)[:limit])
