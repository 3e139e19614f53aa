"""A player's history for their page: the rating chart and their games, a page at a time.

A page costs the same few queries whatever its size: the count, the page of seats with
their games, everybody's seats at those games, and this player's rating records of them.

A private game is shown only to its players and to moderators: to anybody else the
page shows neither the game nor its rating record on the chart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.db.models import FloatField, Func
from django.utils import timezone

from accounts.moderators import is_moderator
from games.models import RUNNING, Match, MatchStatus, Seat
from ratings.chart import rating_chart
from ratings.models import RatingRecord

GAMES_PER_PAGE = 20


class Epoch(Func):
    """A datetime column as seconds since 1970: thousands of numbers load several times
    faster than as many time-zone-aware datetimes (a keen player's chart)."""

    output_field = FloatField()

    def as_postgresql(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection,
                           template="EXTRACT(EPOCH FROM %(expressions)s)::float8", **extra)

    def as_sqlite(self, compiler, connection, **extra):
        # SQLite keeps UTC datetimes as text; julianday() reads them.
        return self.as_sql(compiler, connection,
                           template="((julianday(%(expressions)s) - 2440587.5) * 86400.0)", **extra)


def private_games_hidden(person, viewer):
    """The ids of ``person``'s private games that ``viewer`` may not see (a subquery),
    or None when the viewer may see them all: the person, or a moderator."""
    seen_by_all = viewer is not None and viewer.is_authenticated and (
        viewer.pk == person.pk or is_moderator(viewer))
    if seen_by_all:
        return None
    hidden = Match.objects.filter(private=True, seats__user=person)
    if viewer is not None and viewer.is_authenticated:
        hidden = hidden.exclude(seats__user=viewer)   # the games the viewer sat at too
    return hidden.values("pk")


def chart_for(player, joined=None, viewer=None):
    """The rating chart, its steps from games in pairs marked."""
    records = RatingRecord.objects.filter(player=player)
    hidden = private_games_hidden(player.user, viewer)
    if hidden is not None:
        records = records.exclude(match_id__in=hidden)
    points = list(records.order_by("created_at", "id")
                  .values_list(Epoch("created_at"), "rating_after"))
    if not points:
        return None
    # Picked through the player's seats at pair games: the records alone do not say.
    in_pairs = Seat.objects.filter(user_id=player.user_id, match__pairs=True).values("match_id")
    marked = list(records.filter(annuls=None, match_id__in=in_pairs)
                  .values_list(Epoch("created_at"), "rating_after"))
    return rating_chart(points, start=joined, now=timezone.now(), marked=marked)


@dataclass
class GameRow:
    match: Match
    seat: int
    players: list = field(default_factory=list)   # (name, login or None for a bot, is_me)
    outcome: str = ""       # goat, safe, timeout, left, interrupted, cancelled, aborted
    score: int | None = None
    record: RatingRecord | None = None
    annulled: bool = False
    visible: bool = True    # whether the viewer may open the game's page


def _outcome(match: Match, seat: int) -> str:
    result = match.result or {}
    if match.status == MatchStatus.ABORTED:
        # With a result it was interrupted in the first round (RULES.md 9); without one
        # a moderator stopped it.
        return "cancelled" if result.get("interrupted_by") is not None else "aborted"
    if match.status == MatchStatus.INTERRUPTED:
        if result.get("interrupted_by") == seat:
            return "timeout" if result.get("reason") == "timeout" else "left"
        return "interrupted"
    return "goat" if seat in (result.get("goats") or []) else "safe"


# The games list's filter: every game, games alone (each for themselves), games in pairs.
ALONE, PAIRS = "alone", "pairs"
KINDS = (ALONE, PAIRS)


def _seats_over(person, viewer):
    """The seats of the games ``person`` sat at that are over and ``viewer`` may see.

    A person sits at one table at a time, so their games follow one another: newest
    first is highest match id first, and "over" is every game but the one (at most)
    they sit at now.  So neither the count nor the order needs each game's row: both
    read the person's seats alone (a join to the games for their status and end time
    costs a look-up per game, thousands for a keen player).
    """
    running = Match.objects.filter(status__in=RUNNING, seats__user=person).values("pk")
    seats = Seat.objects.filter(user=person).exclude(match_id__in=running).order_by("-match_id")
    hidden = private_games_hidden(person, viewer)
    if hidden is not None:
        seats = seats.exclude(match_id__in=hidden)
    return seats


def _of_kind(seats, kind):
    # Only a filtered list joins the games (for their pairs flag).
    if kind == PAIRS:
        return seats.filter(match__pairs=True)
    if kind == ALONE:
        return seats.filter(match__pairs=False)
    return seats


def game_counts(person, viewer=None) -> dict:
    """How many games over ``viewer`` may see ``person`` played: all, and in pairs."""
    seats = _seats_over(person, viewer)
    return {"all": seats.count(), PAIRS: _of_kind(seats, PAIRS).count()}


def games_page(person, number, viewer=None, per_page: int = GAMES_PER_PAGE, kind=None):
    """A page of the games ``person`` sat at that are over and ``viewer`` may see, newest
    first, as GameRows; ``kind`` (ALONE, PAIRS) keeps those played alone or in pairs."""
    seats = _of_kind(_seats_over(person, viewer), kind)
    page = Paginator(_SeatPages(seats), per_page).get_page(number)
    matches = {s.match_id: s.match for s in page.object_list}
    everyone: dict[int, list[Seat]] = {}
    for seat in (Seat.objects.filter(match_id__in=list(matches)).select_related("user")
                 .order_by("match_id", "number")):
        everyone.setdefault(seat.match_id, []).append(seat)
    records, annulled = {}, set()
    for record in RatingRecord.objects.filter(player=person.player, match_id__in=list(matches)):
        if record.annuls_id:
            annulled.add(record.match_id)
        else:
            records[record.match_id] = record
    moderator = is_moderator(viewer)
    rows = []
    for seat in page.object_list:
        match = seat.match
        at_table = everyone.get(match.pk, [])
        seated = viewer is not None and viewer.is_authenticated and any(
            s.user_id == viewer.pk for s in at_table)
        scores = (match.result or {}).get("scores")
        rows.append(GameRow(
            match=match, seat=seat.number,
            players=[(s.name, s.user.username if s.user_id else None, s.user_id == person.pk)
                     for s in at_table],
            outcome=_outcome(match, seat.number),
            score=scores[seat.number] if scores else None,
            record=records.get(match.pk), annulled=match.pk in annulled,
            visible=not match.private or seated or moderator,
        ))
    page.object_list = rows
    return page


class _SeatPages:
    """The seats as the Paginator wants them: a count, and slices whose games are joined
    for the slice's rows only (picked by id first), however deep the page."""

    def __init__(self, seats):
        self.seats = seats

    def count(self):
        return self.seats.count()

    def __getitem__(self, window: slice):
        ids = self.seats.values("pk")[window]
        return list(Seat.objects.filter(pk__in=ids).select_related("match")
                    .defer("match__state").order_by("-match_id"))
