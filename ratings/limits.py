"""What keeps the ladder from being farmed (RULES.md 10): the same people again, and leavers.

- **The same people again**: a game is rated only if no two of its players have already
  played 3 rated games together in the 24 hours before it starts.  Decided as it starts
  (``unrated_why``, subscribed to games.play.events' start), inside the starting
  transaction, with every seated person's Player row locked first -- so that two starts
  with the same people on two processes queue, and the second counts the first.  The
  lobby, the invitation and the offer of one more game ask ``same_people_again`` before
  the game starts, to say that it will be unrated.
- **Leavers**: a person who timed out of or left 3 rated games (aborted ones included)
  within 24 hours is barred from rated tables for 1 hour; each further time within 24
  hours of the end of their last bar doubles it (at most 7 days).  The departure is
  written with the game's end (``departure_after``); the lobby and the rematch refuse a
  barred person's seat at a rated table (``check_not_barred``); the clock's sweep ends the
  bars whose time is up (``sweep``); a moderator may lift one (games.moderation).

A game counts "together" here if it was rated, started within the window and was not
aborted: an aborted game gives nobody anything (RULES.md 9).  Each bar needs three fresh
departures: those before a bar began do not count towards the next.  A bar a moderator
lifted does not double the next one.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from games.models import Match, MatchStatus, Seat, UnratedWhy
from games.play import notify
from games.play.errors import PlayError
from games.play.events import GameEnded, GameStarting
from ratings.models import Bar, Departure

WINDOW = timedelta(hours=24)
SAME_PEOPLE_GAMES = 3          # rated games together in WINDOW; the next is unrated
DEPARTURES_FOR_A_BAR = 3       # timeouts or leaves of rated games in WINDOW
FIRST_BAR = timedelta(hours=1)
LONGEST_BAR = timedelta(days=7)


# -- the same people again ----------------------------------------------------------------

def pairs_at_limit(user_ids, before: datetime) -> list[tuple[int, int]]:
    """The pairs of these people who have played SAME_PEOPLE_GAMES or more rated games
    together that started in the WINDOW before ``before``."""
    people = sorted({u for u in user_ids if u is not None})
    if len(people) < 2:
        return []
    return sorted(pair for pair, count in _games_together(people, before).items()
                  if count >= SAME_PEOPLE_GAMES)


def _games_together(people: list[int], before: datetime) -> dict[tuple[int, int], int]:
    """(a, b) with a < b, both of ``people`` -> their rated games together in the WINDOW
    before ``before``: one query, however many people."""
    games = Match.objects.filter(rated=True, started_at__gte=before - WINDOW,
                                 started_at__lt=before).exclude(status=MatchStatus.ABORTED)
    at: dict[int, set[int]] = defaultdict(set)
    for match_id, user_id in (Seat.objects.filter(match__in=games, user_id__in=people)
                              .values_list("match_id", "user_id")):
        at[match_id].add(user_id)
    together: dict[tuple[int, int], int] = defaultdict(int)
    for users in at.values():
        for pair in itertools.combinations(sorted(users), 2):
            together[pair] += 1
    return together


def tables_unrated_again(tables: dict[int, list[int]], viewer_id: int | None,
                         now: datetime | None = None) -> set[int]:
    """Of these rated tables (match id -> the people seated), those whose game would be
    played unrated if ``viewer_id`` sat down and it started now (the lobby's rows: one
    query for the whole list)."""
    now = now or timezone.now()
    people = sorted({u for users in tables.values() for u in users if u}
                    | ({viewer_id} if viewer_id else set()))
    if len(people) < 2:
        return set()
    together = _games_together(people, now)
    found = set()
    for match_id, users in tables.items():
        at = sorted({u for u in users if u} | ({viewer_id} if viewer_id else set()))
        if any(together.get(pair, 0) >= SAME_PEOPLE_GAMES
               for pair in itertools.combinations(at, 2)):
            found.add(match_id)
    return found


def same_people_again(user_ids, now: datetime | None = None) -> bool:
    """Whether a rated game of these people starting ``now`` would be played unrated."""
    return bool(pairs_at_limit(user_ids, now or timezone.now()))


def unrated_why(event: GameStarting) -> str | None:
    """A rated table starts (games.play.events, in its transaction): unrated if two of its
    people have played together too often.  Their Player rows are locked first (in the
    order of their user ids, as everywhere), so that a start with the same people in
    another process waits for this one to commit, then counts it."""
    people = sorted(u for u in event.match.seats.values_list("user_id", flat=True) if u)
    list(Player.objects.select_for_update().filter(user_id__in=people).order_by("user_id")
         .values_list("pk", flat=True))
    if pairs_at_limit(people, event.at):
        return UnratedWhy.SAME_PEOPLE
    return None


def unrated_message() -> str:
    return _("unrated: you have already played 3 rated games together in the last 24 hours")


# -- leavers ----------------------------------------------------------------------------

def departure_after(event: GameEnded) -> None:
    """A game ended (games.play.events, in its transaction): a person's timeout or leave
    of a rated game is counted, and may bar them."""
    seat = event.state.interrupted_by
    if not event.match.rated or seat is None:
        return
    user_id = event.match.seat_users.get(seat)
    if user_id is None:  # bots never time out; a bot's table is never rated anyway
        return
    player = Player.objects.select_for_update().get(user_id=user_id)
    Departure.objects.create(player=player, match_id=event.match.pk,
                             reason=event.state.interrupt_reason or "", at=event.at)
    bar_if_due(player, event.at)


def bar_if_due(player: Player, now: datetime) -> Bar | None:
    """Bar ``player`` if they have DEPARTURES_FOR_A_BAR departures in the WINDOW before
    ``now`` since their last bar began; the new bar, or None."""
    last = Bar.objects.filter(player=player).order_by("-since", "-pk").first()
    counted = Departure.objects.filter(player=player, at__gt=now - WINDOW, at__lte=now)
    if last is not None:
        counted = counted.filter(at__gt=last.since)
    if counted.count() < DEPARTURES_FOR_A_BAR:
        return None
    length = FIRST_BAR
    previous = (Bar.objects.filter(player=player, lifted_by__isnull=True)
                .order_by("-since", "-pk").first())
    if previous is not None and _end_of(previous) > now - WINDOW:
        length = min(previous.length * 2, LONGEST_BAR)
    return Bar.objects.create(player=player, since=now, until=now + length)


def _end_of(bar: Bar) -> datetime:
    return bar.ended_at or bar.until


def _holding(now: datetime) -> Q:
    return Q(ended_at__isnull=True, until__gt=now, since__lte=now)


def bar_of(user, now: datetime | None = None) -> Bar | None:
    """The bar that keeps ``user`` from rated tables now, if any (the longest)."""
    if user is None or not user.is_authenticated:
        return None
    now = now or timezone.now()
    return (Bar.objects.filter(_holding(now), player__user=user).order_by("-until").first())


def until_words(bar: Bar) -> str:
    """When a bar ends, in the site's time, its zone named (the pages show it in the
    viewer's own time zone: static/js/localtime.js rewrites every <time data-local>)."""
    local = timezone.localtime(bar.until)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} {dateformat.format(local, 'T')}".strip()


def barred_message(bar: Bar) -> str:
    return _("You may not sit down at rated tables until %(until)s: you have timed out of "
             "or left 3 rated games within 24 hours.") % {"until": until_words(bar)}


def check_not_barred(user, rated: bool) -> None:
    """PlayError if ``user`` is barred and the table is rated (RULES.md 10, leavers)."""
    if not rated:
        return
    bar = bar_of(user)
    if bar is not None:
        raise PlayError(barred_message(bar), "barred")


def sweep(now: datetime | None = None) -> int:
    """End the bars whose time is up (the clock, every sweep), and tell the lobby, so that
    a barred person's page shows the rated tables open to them again; how many."""
    now = now or timezone.now()
    ended = Bar.objects.filter(ended_at__isnull=True, until__lte=now).update(ended_at=now)
    if ended:
        notify.lobby_changed()
    return ended


def lift(bar: Bar, moderator, now: datetime | None = None) -> bool:
    """A moderator lifts ``bar`` (games.moderation logs why); whether it still held."""
    now = now or timezone.now()
    lifted = Bar.objects.filter(_holding(now), pk=bar.pk).update(ended_at=now,
                                                                  lifted_by=moderator)
    if lifted:
        notify.lobby_changed()
    return bool(lifted)


def bars_holding(now: datetime | None = None):
    """Every bar holding now, the latest first (the moderators' page)."""
    now = now or timezone.now()
    return Bar.objects.filter(_holding(now)).select_related("player__user").order_by("-since")
