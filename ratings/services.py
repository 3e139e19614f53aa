"""Crediting a rated game's rating points (RULES.md 8-10), and taking them back.

Both run inside the transaction that changes the game (its end, or a moderator's
annulment), so a game's points, its players' numbers and the period totals always change
together or not at all.  Players' rows are taken in the order of their accounts' ids
in both, so the two never wait on each other in a circle.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from accounts.models import Player
from games.models import Match
from games.play.events import GameEnded
from ratings.models import Period, RatingRecord, RatingTotal


class AnnulError(Exception):
    """The game cannot be annulled (nothing to take back, or taken back already)."""


def period_starts(when: datetime | date) -> list[tuple[str, date]]:
    """The week (from Monday) and the month a moment falls in, by the site's local time."""
    day = timezone.localdate(when) if isinstance(when, datetime) else when
    return [(Period.WEEK, day - timedelta(days=day.weekday())), (Period.MONTH, day.replace(day=1))]


def _lock_match(match) -> None:
    # An annulment queues behind any other change of the same game (and it behind us).
    list(Match.objects.select_for_update().filter(pk=match.pk).values_list("pk", flat=True))


def _add_to_totals(player: Player, when, points: int, games: int, goats: int,
                   pair_games: int) -> None:
    """Add to (or, with negative numbers, take from) the player's week and month totals."""
    for period, start in period_starts(when):
        changed = RatingTotal.objects.filter(player=player, period=period, start=start).update(
            points=F("points") + points, games=F("games") + games, goats=F("goats") + goats,
            pair_games=F("pair_games") + pair_games)
        if not changed:  # the player's row is held (updated or locked), so nobody creates this one meanwhile
            RatingTotal.objects.create(player=player, period=period, start=start, points=points,
                                       games=games, goats=goats, pair_games=pair_games,
                                       active=player.active)


def record_ended_game(event: GameEnded) -> None:
    """A game ended (games.play.events): its rating records, unless it was aborted
    (RULES.md 9: an aborted game counts for nobody) or is unrated."""
    if not event.aborted:
        record_game(event.match, event.points, event.goats, ended_at=event.at)


def record_game(match, points: list[int], goats=(), ended_at: datetime | None = None) -> bool:
    """Give every person at a finished or interrupted rated game their points, once.

    Called at the game's end (``record_ended_game``) in the transaction that ends it,
    which succeeds only once per game (a compare-and-swap on the match's version, games/play/store.py),
    so nothing here locks the match.  Every player gets a record and a raised rating (by
    0 for a goat or whoever timed out or left), a game more, and a goat more if they were
    one; each player's row is updated before it is read back, and that update holds the
    row until commit, so a moderator's annulment of another of their games waits.
    Returns whether it recorded.  Unrated games (bots, unrated requests) leave no records.
    """
    if not match.rated:
        return False
    with transaction.atomic():
        if RatingRecord.objects.filter(match=match, annuls=None).exists():
            return False
        seats = list(match.seats.exclude(user=None).order_by("user_id"))
        if len(points) != match.seats_count or len(seats) != match.seats_count:
            raise ValueError(f"match {match.pk}: {len(points)} points for {len(seats)} people")
        ended = ended_at or match.ended_at or timezone.now()
        pairs = int(match.variant.pairs)
        for seat in seats:
            gained, goat = points[seat.number], seat.number in goats
            Player.objects.filter(user_id=seat.user_id).update(
                rating=F("rating") + gained, games_played=F("games_played") + 1,
                times_goat=F("times_goat") + int(goat), pair_games=F("pair_games") + pairs,
                last_game_at=ended)
            player = Player.objects.only("pk", "rating", "active").get(user_id=seat.user_id)
            RatingRecord.objects.create(match=match, player=player, points=gained, goat=goat,
                                        rating_after=player.rating, created_at=ended)
            _add_to_totals(player, ended, gained, 1, int(goat), pairs)
        return True


def annul_game(match, when: datetime | None = None) -> list[RatingRecord]:
    """Take back every rating record of a game: each player's rating, games and goats
    return to what they would be without it, and its points leave the period totals of
    the week and month it was played in.

    Nothing is deleted: each record gets a compensating record (minus its points, dated
    now, naming the record it cancels), so a rating stays the sum of its records and the
    history shows the game and its annulment.  Returns the compensating records.
    """
    when = when or timezone.now()
    with transaction.atomic():
        _lock_match(match)
        originals = list(RatingRecord.objects.filter(match=match, annuls=None).order_by("player_id"))
        if not originals:
            raise AnnulError("the game has no rating records")
        if RatingRecord.objects.filter(match=match, annuls__isnull=False).exists():
            raise AnnulError("the game is annulled already")
        players = {p.pk: p for p in Player.objects.select_for_update()
                   .filter(pk__in=[r.player_id for r in originals]).order_by("user_id")}
        made = []
        pairs = int(match.variant.pairs)
        for original in originals:
            player = players[original.player_id]
            Player.objects.filter(pk=player.pk).update(
                rating=F("rating") - original.points, games_played=F("games_played") - 1,
                times_goat=F("times_goat") - int(original.goat),
                pair_games=F("pair_games") - pairs)
            player.refresh_from_db(fields=["rating", "active"])
            made.append(RatingRecord.objects.create(
                match=match, player=player, points=-original.points, rating_after=player.rating,
                annuls=original, created_at=when))
            _add_to_totals(player, original.created_at, -original.points, -1, -int(original.goat),
                           -pairs)
        for player in players.values():
            # The last game is the last one that still counts.
            last = (RatingRecord.objects.filter(player=player, annuls=None, annulment__isnull=True)
                    .aggregate(last=Max("created_at"))["last"])
            Player.objects.filter(pk=player.pk).update(last_game_at=last)
        return made


def set_listed(player: Player, active: bool) -> None:
    """Copy an account's open or closed state to where the ladders read it."""
    Player.objects.filter(pk=player.pk).update(active=active)
    RatingTotal.objects.filter(player=player).update(active=active)


def rebuild_totals() -> int:
    """Recompute every period total from the rating records (after a bulk import, or to
    check the totals kept incrementally).  Returns how many totals there are."""
    sums: dict[tuple, list[int]] = {}
    active = dict(Player.objects.values_list("pk", "active"))
    records = (RatingRecord.objects.select_related("annuls").annotate(pairs=F("match__pairs"))
               .order_by("pk"))
    for record in records.iterator():
        # An annulment belongs to the period of the game it takes back.
        game = record.annuls or record
        sign = -1 if record.annuls_id else 1
        for period, start in period_starts(game.created_at):
            total = sums.setdefault((record.player_id, period, start), [0, 0, 0, 0])
            total[0] += record.points
            total[1] += sign
            total[2] += sign * int(game.goat)
            total[3] += sign * int(record.pairs)
    with transaction.atomic():
        RatingTotal.objects.all().delete()
        RatingTotal.objects.bulk_create(
            RatingTotal(player_id=player, period=period, start=start, points=points, games=games,
                        goats=goats, pair_games=pair_games, active=active[player])
            for (player, period, start), (points, games, goats, pair_games) in sums.items())
    return len(sums)
