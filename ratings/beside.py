"""The rating shown beside a name: in the lobby's lists and at a game's table.

A person's rating is ``Player.rating`` (RULES.md 10: the sum of their rating records); a
bot has none.  The lists read it with the seats they already read, in the same query
(``with_ratings``), never one query per name.

At a table, a seat shows the rating its player brought to the game, so that every viewer
of the game sees the same number whenever their page was loaded: while the game runs
their rating cannot change (a person sits at one table at a time), and once a rated game
is over its own rating records say what the rating was before it (the rating after,
less the game's points) -- even after later games have raised it.
"""

from __future__ import annotations

from django.db.models import F

from ratings.models import RatingRecord


def with_ratings(seats):
    """A query of seats, with their users and their users' current ratings.

    The rating comes as a value, not as a ``Player`` selected with the user: a user and
    a player selected together point at each other (Django keeps a one-to-one relation
    cached on both sides), a cycle that only the garbage collector frees, and a server
    collects rarely (kozel_site/runtime/interpreter.py): every room's load of its seats
    would stay in memory for minutes.
    """
    return seats.select_related("user").annotate(user_rating=F("user__player__rating"))


def rating_of(seat) -> int | None:
    """The current rating of the person in ``seat`` (read ``with_ratings``); None for a
    bot (or a person without a player row, which the sign-up always makes)."""
    return seat.user_rating if seat.user_id is not None else None


def table_ratings(match, seats) -> dict[int, int | None]:
    """Seat number -> the rating its player brought to ``match`` (None: a bot).

    ``seats`` come with their users' ratings (``with_ratings``); a rated game
    that is over reads its rating records once (one query, whatever the table's size).
    """
    ratings = {s.number: rating_of(s) for s in seats}
    if match.rated and match.is_over:
        before = {user: after - points for user, after, points in
                  RatingRecord.objects.filter(match=match, annuls=None)
                  .values_list("player__user_id", "rating_after", "points")}
        for seat in seats:
            if seat.user_id in before:
                ratings[seat.number] = before[seat.user_id]
    return ratings
