"""A table of the lobby: who sits at it, seating a person or a bot, and its start.

The pieces the lobby's requests (games.lobby.service) and one more game
(games.lobby.rematch) both build tables with.  A full table starts through
``games.play.service.start``, the one way a game begins.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import RUNNING, Match, Seat, SeatAddress
from games.play import notify, seeds
from games.play.errors import PlayError
from games.play.service import start


def current_match(user) -> Match | None:
    """The waiting or running table this person sits at, if any (one at a time)."""
    return (Match.objects.filter(seats__user=user, status__in=RUNNING)
            .order_by("-created_at").first())


def check_free(user) -> None:
    """PlayError unless ``user`` sits at no waiting or running table."""
    if current_match(user) is not None:
        raise PlayError(_("You already sit at a table: finish or leave it first."), "busy")


def seat_person(match: Match, number: int, user, address: str | None,
                client_seed: str) -> Seat:
    """``user`` in seat ``number`` with their client seed, and the client address they
    took it from (if known), which only the moderation pages read."""
    seat = Seat.objects.create(match=match, number=number, user=user, client_seed=client_seed)
    if address:
        SeatAddress.objects.create(seat=seat, address=address)
    return seat


def seat_bot(match: Match, number: int, name: str, level: str = "") -> Seat:
    """A bot called ``name`` of ``level`` (games/bots/levels.py; empty: a club player) in
    seat ``number``; its client seed is its seat number (RECORD.md, kozel-fair/1)."""
    return Seat.objects.create(match=match, number=number, bot_name=name, bot_level=level,
                               client_seed=seeds.bot_client_seed(number))


def seatless_table(server_seed: bytes | None = None, **fields) -> Match:
    """A new table without seats, with ``server_seed`` (drawn when its form was shown,
    games/lobby/formseeds.py) or else one drawn now, so that its commitment is public
    from the first moment."""
    return Match.objects.create(**seeds.seed_fields(server_seed), **fields)


def start_table(match: Match) -> None:
    """The table is full: the first deal, and its people's lobby pages to the room."""
    start(match)
    match.refresh_from_db()
    notify.go_to_match(match.seats.exclude(user=None).values_list("user_id", flat=True),
                       match.pk)
