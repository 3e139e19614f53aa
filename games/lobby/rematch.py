"""One more game ("Ещё партию") with the same people, after a game ends.

When a game ends -- finished, interrupted, or aborted by a leave or a timeout; not when a
moderator stops it -- its people are offered a new game with the same settings: ``offer``,
in the transaction that ends the game (``offer_after``, subscribed to games.play.events).
The offer is a Rematch and its table, a waiting Match without seats whose server seed is
drawn now, so that its commitment (kozel-fair/1) is shown in the room before anyone gives
a client seed.  The table stays private while it waits, so that no lobby lists it.

Each person accepts with a client seed of their own (``accept``); bots accept at once.
When the last person accepts, everyone sits down one seat on -- seat n at n + 1, modulo
the seats, so that partners stay partners -- and the first deal is made the lobby's way
(``tables.start_table``: games.play.service.start, the one path).

A game one of its people left (the room's "leave" button, RULES.md 9) is offered
withdrawn at once, naming them: the same table needs every one of its people, and the
one who left has said they do not want to play on (nobody waits for them).

The offer is withdrawn when one of its people declines (``decline``), sits down at
another table (``withdraw_for``, from the lobby), or has no socket open to the game's
room for KOZEL_REMATCH_AWAY seconds, and when KOZEL_REMATCH_SECONDS pass unanswered: the
clock's sweep (``sweep``) sees to the last two, so they hold with nobody connected.  A
withdrawn offer's table was never dealt from and is deleted.

Every change of an offer is told to the ended game's group after commit, as its ``view``
(who accepted, never a seed), and its rooms show it (games/room/rematch.py).

Locks are taken in one order everywhere, so that no two transactions wait for each
other: the people (their Player rows, by user id), then the offer, then its table.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from games.lobby.tables import (check_free, current_match, seat_bot, seat_person,
                                seatless_table, start_table)
from games.models import (ArenaGame, Match, MatchStatus, Rematch, RematchStatus,
                          RematchWithdrawal, Seat)
from games import rules
from games.play import notify, seeds
from games.play.errors import PlayError
from games.play.events import GameEnded
from games.live import caps
from ratings import limits

# How long the sweep remembers when it first found a person away from the room (seconds).
AWAY_MARK_KEPT = 15 * 60


def _seats_of(game_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=game_id).select_related("user").order_by("number"))


def _told(rematch: Rematch, seats: list[Seat]) -> None:
    """The ended game's rooms hear of the offer as it is now, once this commits."""
    notify.after_commit(notify.match_group(rematch.game_id),
                        {"type": "rematch.changed", "match": rematch.game_id,
                         "offer": view(rematch, seats)})


def view(rematch: Rematch, seats: list[Seat] | None = None) -> dict:
    """The offer as everyone at the room may see it (the rooms' notices carry this):
    where each person sits in the new game and whether they accepted, its commitment, the
    time to answer in; never a seed."""
    seats = _seats_of(rematch.game_id) if seats is None else seats
    table = rematch.table
    names = {s.user_id: s.kept_name for s in seats if s.user_id}
    people = [{"seat": (s.number + 1) % len(seats), "name": s.kept_name, "user": s.user_id,
               "accepted": s.is_bot or str(s.user_id) in rematch.accepted} for s in seats]
    return {
        # Every change accepts for one more person or ends the offer: a room shown this
        # view keeps it unless it was shown a later one (notices may cross).
        "step": len(rematch.accepted) + (rematch.status != RematchStatus.OPEN),
        "game": rematch.game_id, "status": rematch.status, "reason": rematch.reason,
        "by": names.get(rematch.withdrawn_by_id, ""),
        "table": rematch.table_id, "commitment": table.commitment if table else "",
        # Said before it starts: a rated game of people who have played together too
        # often is played unrated (RULES.md 10, the same people again).
        "rated": bool(table and table.rated),
        "unrated_again": bool(table and table.rated and rematch.status == RematchStatus.OPEN
                              and limits.same_people_again([s.user_id for s in seats])),
        "playing": table is not None and table.status == MatchStatus.PLAYING,
        "expires_ms": int(rematch.expires_at.timestamp() * 1000),
        "people": sorted(people, key=lambda p: p["seat"]),
    }


def view_of(game_id: int) -> dict | None:
    """The offer after this game as its room shows it, if there is one."""
    rematch = Rematch.objects.select_related("table").filter(game_id=game_id).first()
    return view(rematch) if rematch is not None else None


# -- the offer ---------------------------------------------------------------------------

def offer_after(event: GameEnded) -> None:
    """A game ended (games.play.events, inside the transaction that ends it): one more
    game is offered to its people -- unless it was an arena's, whose players the arena
    seats again (games/arena)."""
    if ArenaGame.objects.filter(match_id=event.match.pk).exists():
        return
    board = event.state.board
    left = board.interrupted_by if board.interrupt_reason == rules.LEFT_GAME else None
    offer(event.match, left)


def offer(game: Match, left: int | None = None) -> Rematch:
    """Offer one more game to the people of ``game``, inside the transaction that ends it;
    ``left``, the seat of a person who left it: then the offer is withdrawn at once, in
    their name, and no table is drawn for it."""
    seats = _seats_of(game.pk)
    leaver = next((s.user_id for s in seats if s.number == left and s.user_id), None)
    if leaver is not None:
        rematch = Rematch.objects.create(
            game_id=game.pk, table=None, status=RematchStatus.WITHDRAWN,
            reason=RematchWithdrawal.LEFT, withdrawn_by_id=leaver, expires_at=timezone.now())
        _told(rematch, seats)
        return rematch
    table = seatless_table(created_by_id=game.created_by_id, game=game.game,
                           seats_count=game.seats_count,
                           fish=game.fish, pairs=game.pairs, turn_seconds=game.turn_seconds,
                           rated=game.rated, private=True)
    rematch = Rematch.objects.create(
        game_id=game.pk, table=table,
        expires_at=timezone.now() + timedelta(seconds=settings.KOZEL_REMATCH_SECONDS))
    _told(rematch, seats)
    return rematch


def answer(game_id: int, user, message: dict, address: str | None = None) -> Rematch:
    """A person's answer from the game's room: ``{"rematch": "accept", "client_seed":
    "..."}`` or ``{"rematch": "decline"}``; ``address``, the client's."""
    kind = message.get("rematch")
    if kind == "accept":
        seed = message.get("client_seed")
        seed = (seed.strip() or None) if isinstance(seed, str) else seed
        return accept(game_id, user, seed, address)
    if kind == "decline":
        return decline(game_id, user)
    raise PlayError(_("That is not an answer to the offer of one more game."), "invalid")


def _locked(game_id: int, user) -> tuple[Rematch, list[Seat]]:
    """The open offer after the game ``game_id``, locked (its people first), and the
    game's seats; PlayError unless ``user`` is one of its people and may answer it now."""
    seats = _seats_of(game_id) if type(game_id) is int else []
    if not seats:
        raise PlayError(_("There is no offer of one more game here."), "gone")
    people = sorted(s.user_id for s in seats if s.user_id)
    if not user.is_authenticated or user.pk not in people:
        raise PlayError(_("Only this game's players can answer its offer."), "not-seated")
    list(Player.objects.select_for_update().filter(user_id__in=people).order_by("user_id")
         .values_list("pk", flat=True))
    rematch = Rematch.objects.select_for_update().filter(game_id=game_id).first()
    if rematch is None:
        raise PlayError(_("There is no offer of one more game here."), "gone")
    if rematch.status != RematchStatus.OPEN or rematch.expires_at <= timezone.now():
        raise PlayError(_("This offer is no longer open."), "gone")
    return rematch, seats


@transaction.atomic
def accept(game_id: int, user, client_seed: str | None = None,
           address: str | None = None) -> Rematch:
    """``user`` accepts with their ``client_seed`` (one is made for them if they gave
    none); the new game starts if everyone now has."""
    client_seed = seeds.client_seed(client_seed)
    rematch, seats = _locked(game_id, user)
    if str(user.pk) in rematch.accepted:
        raise PlayError(_("You have accepted already."), "answered")
    check_free(user)
    limits.check_not_barred(user, rematch.table is not None and rematch.table.rated)
    rematch.accepted[str(user.pk)] = {"client_seed": client_seed, "address": address}
    if all(s.is_bot or str(s.user_id) in rematch.accepted for s in seats):
        _sit_down(rematch, seats)
    else:
        rematch.save(update_fields=["accepted"])
        _told(rematch, seats)
    return rematch


def _sit_down(rematch: Rematch, seats: list[Seat]) -> None:
    """Everyone accepted: each sits down one seat on, and the first deal is made."""
    for seat in seats:  # (each locked: whoever sat down elsewhere has withdrawn it)
        if seat.user_id and not seat.user.is_active:  # closed by a moderator meanwhile
            _withdraw(rematch, RematchWithdrawal.AWAY, seat.user_id, seats)
            return
        if seat.user_id and current_match(seat.user) is not None:  # one table at a time
            _withdraw(rematch, RematchWithdrawal.ELSEWHERE, seat.user_id, seats)
            return
    table = Match.objects.select_for_update().filter(pk=rematch.table_id).first()
    if table is None or table.status != MatchStatus.WAITING:  # a moderator stopped it
        raise PlayError(_("This offer is no longer open."), "gone")
    table.private = Match.objects.values_list("private", flat=True).get(pk=rematch.game_id)
    Match.objects.filter(pk=table.pk).update(private=table.private)
    for seat in seats:
        number = (seat.number + 1) % len(seats)
        if seat.is_bot:
            seat_bot(table, number, seat.bot_name, seat.bot_level)
        else:
            given = rematch.accepted[str(seat.user_id)]
            seat_person(table, number, seat.user, given["address"], given["client_seed"])
    rematch.status = RematchStatus.STARTED
    rematch.save(update_fields=["accepted", "status"])
    start_table(table)
    rematch.table = table
    _told(rematch, seats)


# -- withdrawing it --------------------------------------------------------------------

def _withdraw(rematch: Rematch, reason: str, by_id: int | None,
              seats: list[Seat] | None = None) -> None:
    table_id = rematch.table_id
    rematch.status, rematch.reason, rematch.withdrawn_by_id = (
        RematchStatus.WITHDRAWN, reason, by_id)
    rematch.table = None
    rematch.save(update_fields=["status", "reason", "withdrawn_by", "table", "accepted"])
    Match.objects.filter(pk=table_id, status=MatchStatus.WAITING).delete()  # never dealt
    _told(rematch, _seats_of(rematch.game_id) if seats is None else seats)


@transaction.atomic
def decline(game_id: int, user) -> Rematch:
    rematch, seats = _locked(game_id, user)
    _withdraw(rematch, RematchWithdrawal.DECLINED, user.pk, seats)
    return rematch


def withdraw_for(user) -> None:
    """``user`` sits down at another table (the lobby, inside its transaction, the
    person locked): their open offer is withdrawn."""
    for rematch in (Rematch.objects.select_for_update(of=("self",))
                    .filter(status=RematchStatus.OPEN, game__seats__user=user)):
        _withdraw(rematch, RematchWithdrawal.ELSEWHERE, user.pk)


def sweep(now=None) -> int:
    """Withdraw the open offers whose time is up, and those one of whose people has been
    away from the game's room for KOZEL_REMATCH_AWAY seconds (the clock, every sweep);
    how many."""
    now = now or timezone.now()
    offers = dict(Rematch.objects.filter(status=RematchStatus.OPEN)
                  .values_list("game_id", "expires_at"))
    if not offers:
        return 0
    due = {game_id: (RematchWithdrawal.EXPIRED, None)
           for game_id, expires_at in offers.items() if expires_at <= now}
    people = list(Seat.objects.filter(match_id__in=offers.keys() - due.keys(),
                                      user__isnull=False).values_list("match_id", "user_id"))
    for game_id, user_id in _away(people, now):
        due.setdefault(game_id, (RematchWithdrawal.AWAY, user_id))
    return sum(_withdraw_if_open(game_id, reason, by_id, now)
               for game_id, (reason, by_id) in due.items())


def _away(people: list[tuple[int, int]], now) -> list[tuple[int, int]]:
    """Of these (game, person), those who have had no socket open to the game's room for
    KOZEL_REMATCH_AWAY seconds.  When the sweep first finds one away, it notes the time
    in the cache (shared by every clock) until they are back.  Nobody counts as away
    while the cache cannot be reached."""
    here = caps.at_game_rooms(people)
    if here is None:
        return []
    marks = {pair: f"kozel:rematch-away:{pair[0]}:{pair[1]}" for pair in people}
    try:
        since = cache.get_many(list(marks.values()))
        back = [key for pair, key in marks.items() if pair in here and key in since]
        if back:
            cache.delete_many(back)
        new = {key: now.timestamp() for pair, key in marks.items()
               if pair not in here and key not in since}
        if new:
            cache.set_many(new, AWAY_MARK_KEPT)
    except Exception:  # the cache went away meanwhile: the next sweep looks again
        return []
    return [pair for pair, key in marks.items() if pair not in here
            and now.timestamp() - since.get(key, now.timestamp()) >= settings.KOZEL_REMATCH_AWAY]


@transaction.atomic
def _withdraw_if_open(game_id: int, reason: str, by_id: int | None, now) -> bool:
    rematch = (Rematch.objects.select_for_update()
               .filter(game_id=game_id, status=RematchStatus.OPEN).first())
    if rematch is None or (reason == RematchWithdrawal.EXPIRED and rematch.expires_at > now):
        return False  # answered meanwhile
    _withdraw(rematch, reason, by_id)
    return True
