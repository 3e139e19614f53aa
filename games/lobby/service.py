"""Game requests ("заявки"): opening one, taking a seat, getting up, a table of bots.
(One more game with the same people after a game: games/lobby/rematch.py.)

A request is a waiting match; when its last seat is taken the game starts
(games.play.service.start deals the first round in the same transaction).  A person
sits at one table at a time.
"""

from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Player
from games import rules
from games.lobby import rematch
from games.lobby.tables import (check_free, current_match, seat_bot, seat_person,  # noqa: F401
                                seatless_table, start_table)
from games.models import (MAX_SEATS, BotLevel, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS, Match,
                          MatchStatus, Seat)
from games.play import notify, seeds
from games.play.errors import PlayError
from ratings import limits

BOT_NAMES = ("Бот Гоша", "Бот Петрович", "Бот Люба", "Бот Семёныч")


def _lock_person(user) -> None:
    """Serialize one person's lobby actions, so two tabs cannot seat them twice."""
    Player.objects.select_for_update().filter(user=user).first()


def _check_options(players, fish, turn_seconds, pairs=False, game=rules.KOZEL) -> rules.Variant:
    """The table's variant, once its options are checked (the fish rule only where the
    game has one)."""
    if game not in rules.GAMES:
        raise PlayError(_("There is no such game."), "invalid")
    if players not in range(MIN_SEATS, MAX_SEATS + 1):
        raise PlayError(_("A table has 2, 3 or 4 players."), "invalid")
    if fish not in (rules.FISH_ALL, rules.FISH_ONE):
        raise PlayError(_("Choose fish for all or fish for one."), "invalid")
    if turn_seconds not in range(MIN_TURN_SECONDS, MAX_TURN_SECONDS + 1):
        raise PlayError(_("The turn time is 10 to 120 seconds."), "invalid")
    try:
        return rules.Variant(players, fish if rules.GAMES[game].fish_rule else None, pairs, game)
    except rules.InvalidState:
        raise PlayError(_("Pairs (2 against 2) need a table of four."), "invalid") from None


def _sitting_down(user) -> None:
    """``user``, locked, takes a seat somewhere: first checked to be free, and their
    offer of one more game after their last game (if still open) is withdrawn."""
    check_free(user)
    rematch.withdraw_for(user)


def _new_table(user, players, fish, turn_seconds, *, pairs=False, game=rules.KOZEL,
               address=None, client_seed=None, server_seed=None, **fields) -> Match:
    """A new table with ``user`` in seat 0, once the options and the person are checked.
    A game that cannot be rated (sea goat) is never rated, whatever was asked."""
    variant = _check_options(players, fish, turn_seconds, pairs, game)
    if not variant.can_be_rated:
        fields["rated"] = False
    client_seed = seeds.client_seed(client_seed)
    _lock_person(user)
    limits.check_not_barred(user, fields.get("rated", False))
    _sitting_down(user)
    match = seatless_table(server_seed, created_by=user, game=game, seats_count=players,
                           fish=fish, turn_seconds=turn_seconds, pairs=pairs, **fields)
    seat_person(match, 0, user, address, client_seed)
    return match


@transaction.atomic
def create_request(user, *, players: int, fish: str = "all", turn_seconds: int = 30,
                   rated: bool = True, private: bool = False, pairs: bool = False,
                   game: str = rules.KOZEL, address: str | None = None,
                   client_seed: str | None = None, server_seed: bytes | None = None) -> Match:
    """Open a game request with its creator in seat 0; ``game`` is Kozel or sea goat
    (``fish`` is Kozel's alone), ``pairs`` for four as two pairs; ``address`` is the
    client's, ``client_seed`` theirs (one is made for them if they gave none);
    ``server_seed`` the one drawn for the form they sent (games/lobby/formseeds.py), else
    one is drawn now."""
    match = _new_table(user, players, fish, turn_seconds, pairs=pairs, game=game,
                       address=address, client_seed=client_seed, server_seed=server_seed,
                       rated=rated, private=private)
    if not private:
        notify.lobby_changed()
    return match


@transaction.atomic
def join_request(user, match_id: int, invite_token: str | None = None,
                 address: str | None = None, client_seed: str | None = None) -> Match:
    """Take the next free seat of a waiting request, with the person's ``client_seed`` (one
    is made for them if they gave none); the game starts when the table is full
    (``address``: the client's)."""
    client_seed = seeds.client_seed(client_seed)
    # The match first, then the person: two joins of one request queue here, and a
    # request is not yet a running game (its one path starts at the first deal).  The
    # table of one more game is no request: its people sit down when they all accept
    # (games/lobby/rematch.py), and it is never locked here before them.
    match = (Match.objects.select_for_update(of=("self",))
             .filter(pk=match_id, rematch_of__isnull=True).first())
    _lock_person(user)
    if match is None or match.status != MatchStatus.WAITING:
        raise PlayError(_("This request is no longer open."), "gone")
    if match.private and not (invite_token and secrets.compare_digest(invite_token,
                                                                       match.invite_token)):
        raise PlayError(_("This table is private: you need its invitation link."), "private")
    limits.check_not_barred(user, match.rated)
    _sitting_down(user)
    taken = set(match.seats.values_list("number", flat=True))
    number = min(set(range(match.seats_count)) - taken)
    seat_person(match, number, user, address, client_seed)
    if len(taken) + 1 == match.seats_count:
        start_table(match)
    if not match.private:
        notify.lobby_changed()
    return match


@transaction.atomic
def leave_request(user, match_id: int) -> None:
    """Get up from a request that has not started; an empty request disappears."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.WAITING:
        raise PlayError(_("This request is no longer open."), "gone")
    deleted, _rows = Seat.objects.filter(match=match, user=user).delete()
    if not deleted:
        raise PlayError(_("You do not sit at this table."), "not-seated")
    if not match.seats.exists():
        match.delete()
    if not match.private:
        notify.lobby_changed()


@transaction.atomic
def play_with_bots(user, players: int, fish: str = "all", turn_seconds: int = 30,
                   pairs: bool = False, game: str = rules.KOZEL, address: str | None = None,
                   client_seed: str | None = None, server_seed: bytes | None = None,
                   level: str = BotLevel.HEURISTIC) -> Match:
    """A table of ``players`` seats, the person in seat 0 and bots of ``level`` in the
    rest; never rated.  ``server_seed``: as for ``create_request``."""
    if level not in BotLevel.values:
        raise PlayError(_("There is no such level of bots."), "invalid")
    # Not private: anyone may watch it (it starts at once, so it never shows as a request).
    match = _new_table(user, players, fish, turn_seconds, pairs=pairs, game=game,
                       address=address, client_seed=client_seed, server_seed=server_seed,
                       rated=False, private=False)
    for number, name in enumerate(random.sample(BOT_NAMES, players - 1), 1):
        seat_bot(match, number, name, level)
    start_table(match)
    return match


