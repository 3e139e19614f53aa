"""Crediting a rated game's rating points (RULES.md 8-10), inside the game's own transaction."""

from django.db import transaction
from django.db.models import F

from accounts.models import Player
from ratings.models import RatingRecord


def record_game(match, points: list[int], goats=()) -> bool:
    """Give every person at a finished or interrupted rated game their points, once.

    Called by games.services in the transaction that ends the game; a second call for the
    same game (an end processed twice) changes nothing.  Returns whether it recorded.
    Unrated games (bots, unrated requests) leave no records.
    """
    if not match.rated:
        return False
    with transaction.atomic():
        if RatingRecord.objects.filter(match=match).exists():
            return False
        seats = list(match.seats.exclude(user=None).order_by("number"))
        players = {p.user_id: p for p in Player.objects.select_for_update()
                   .filter(user_id__in=[s.user_id for s in seats]).order_by("pk")}
        for seat in seats:
            player = players[seat.user_id]
            player.rating = F("rating") + points[seat.number]
            player.games_played = F("games_played") + 1
            player.times_goat = F("times_goat") + (1 if seat.number in goats else 0)
            player.last_game_at = match.ended_at
            player.save(update_fields=["rating", "games_played", "times_goat", "last_game_at"])
            player.refresh_from_db(fields=["rating"])
            RatingRecord.objects.create(match=match, player=player, points=points[seat.number],
                                        rating_after=player.rating, created_at=match.ended_at)
        return True
