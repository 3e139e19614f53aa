"""The lobby's list: the open game requests ("заявки"), the viewer's own table, and the
public games being played now (to watch: a click opens the spectator's room).

One template partial, templates/games/_requests.html, renders it twice over: inside the
lobby page on its first load (so the page works without a WebSocket), and as the
fragment the LobbyConsumer pushes whenever the lobby changes (``requests_fragment``).
Everything here is synchronous and reads the database; the consumer calls it through
``database_sync_to_async`` inside ``translation.override`` for the viewer's language.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Prefetch, prefetch_related_objects
from django.db.models.fields.json import KT
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.lobby import challenges as direct
from games.lobby.tables import current_match
from games.models import Match, MatchStatus, Seat
from ratings import limits
from ratings.beside import rating_of, with_ratings

# A lobby longer than this is not read by anyone; the count says how many more wait.
MAX_LISTED = 50
# A table that filled this recently takes its players in from the lobby by itself: it
# covers a lobby page whose WebSocket was still connecting when the start was announced.
# Later, the lobby only links to the game (a player may look at the lobby meanwhile).
JUST_STARTED = timedelta(seconds=10)


@dataclass
class TableRow:
    """One table as the lobby shows it: who sits where, and the viewer's relation to it."""

    match: Match
    names: list[str | None]  # by seat number; None is a free seat
    mine: bool
    # The people's ratings by seat number (None: a bot, or a free seat).
    ratings: list[int | None] = field(default_factory=list)
    # A rated table whose game would be played unrated if the viewer sat down (the same
    # people again, RULES.md 10): said in the row, before anyone joins.
    unrated_again: bool = False

    @property
    def people(self) -> list[tuple[str | None, int | None]]:
        """(name, rating) by seat: what the seats' list shows."""
        return list(zip(self.names, self.ratings or [None] * len(self.names)))

    @property
    def taken(self) -> int:
        return sum(name is not None for name in self.names)

    @property
    def free(self) -> int:
        return len(self.names) - self.taken


def seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=with_ratings(Seat.objects.order_by("number")))


def table_row(match: Match, user) -> TableRow:
    names: list[str | None] = [None] * match.seats_count
    ratings: list[int | None] = [None] * match.seats_count
    mine = False
    for seat in match.seats.all():
        names[seat.number] = seat.name
        ratings[seat.number] = rating_of(seat)
        mine = mine or (user.is_authenticated and seat.user_id == user.pk)
    return TableRow(match=match, names=names, mine=mine, ratings=ratings)


def mark_unrated_again(rows: list[TableRow], user) -> list[TableRow]:
    """Mark the rated rows whose game would be unrated with the viewer at it."""
    rated = {row.match.pk: [s.user_id for s in row.match.seats.all()]
             for row in rows if row.match.rated}
    viewer = user.pk if user.is_authenticated else None
    again = limits.tables_unrated_again(rated, viewer) if rated else set()
    for row in rows:
        row.unrated_again = row.match.pk in again
    return rows


def open_requests():
    """Waiting, public requests, the longest-waiting first so that they fill first."""
    return (Match.objects.filter(status=MatchStatus.WAITING, private=False)
            .select_related("created_by").prefetch_related(seats_prefetch())
            .order_by("created_at", "pk"))


@dataclass
class PlayingRow:
    """A game being played, as the lobby lists it for watching."""

    match: Match
    names: list[str]
    round: int | None
    # The people's ratings by seat (None: a bot).
    ratings: list[int | None] = field(default_factory=list)

    @property
    def people(self) -> list[tuple[str, int | None]]:
        """(name, rating) by seat."""
        return list(zip(self.names, self.ratings or [None] * len(self.names)))


def playing_now():
    """Public games being played, the latest started first; the round is read from the
    state's public "round" field in the query (the rest of the state stays in the
    database: it holds the hands)."""
    return (Match.objects.filter(status=MatchStatus.PLAYING, private=False)
            .annotate(round_now=KT("state__round")).defer("state")
            .prefetch_related(seats_prefetch()).order_by("-started_at", "-pk"))


def playing_rows() -> tuple[list[PlayingRow], int]:
    games = playing_now()
    rows = [PlayingRow(match=m, names=[s.name for s in m.seats.all()],
                       round=int(m.round_now) if m.round_now is not None else None,
                       ratings=[rating_of(s) for s in m.seats.all()])
            for m in games[:MAX_LISTED]]
    more = max(0, games.count() - MAX_LISTED) if len(rows) == MAX_LISTED else 0
    return rows, more


def public_version() -> int:
    """A number that changes whenever the public part of the list does: the open requests
    and their seats taken, the games being played and their rounds (what a lobby page's
    heartbeat compares its list with, games/lobby/consumer.py)."""
    waiting = list(Match.objects.filter(status=MatchStatus.WAITING, private=False)
                   .annotate(taken=Count("seats")).order_by("pk").values_list("pk", "taken"))
    playing = list(Match.objects.filter(status=MatchStatus.PLAYING, private=False)
                   .annotate(round_now=KT("state__round")).order_by("pk")
                   .values_list("pk", "round_now"))
    digest = hashlib.blake2b(repr((waiting, playing)).encode(), digest_size=5).digest()
    return int.from_bytes(digest, "big")


def invite_path(match: Match) -> str:
    return reverse("games:invite", args=[match.invite_token])


def lobby_context(user, started_since=None, entered_room=None) -> dict:
    """What _requests.html needs.  The viewer's table that started in the last moments
    (``JUST_STARTED``), or at or after ``started_since``, takes the page to it -- unless
    the viewer has been in its room already (``entered_room``, games.lobby.visits): then
    they came to the lobby on purpose."""
    requests = open_requests()
    rows = mark_unrated_again([table_row(match, user) for match in requests[:MAX_LISTED]], user)
    more = max(0, requests.count() - MAX_LISTED) if len(rows) == MAX_LISTED else 0
    current = None
    just_started = False
    if user.is_authenticated:
        match = current_match(user)
        if match is not None:
            match = (Match.objects.select_related("created_by")
                     .prefetch_related(seats_prefetch()).get(pk=match.pk))
            current = mark_unrated_again([table_row(match, user)], user)[0]
            started = match.started_at if match.status == MatchStatus.PLAYING else None
            just_started = started is not None and match.pk != entered_room and (
                timezone.now() - started < JUST_STARTED
                or (started_since is not None and started >= started_since))
    playing, more_playing = playing_rows()
    return {**challenges_context(user), "requests": rows, "more": more, "current": current, "just_started": just_started,
            "bar": limits.bar_of(user),
            "playing": playing, "more_playing": more_playing,
            "viewer": user, "login_url": reverse("accounts:login") + "?next=/"}


def challenges_context(user) -> dict:
    """The viewer's open challenges, to them (``challenges_in``, each with its table's
    ``row``) and from them (``challenges_out``): templates/games/_challenges.html."""
    if not user.is_authenticated:
        return {"challenges_in": [], "challenges_out": []}
    incoming, outgoing = direct.open_of(user)
    if incoming:
        prefetch_related_objects([made.match for made in incoming], seats_prefetch())
    for made in incoming:
        made.row = table_row(made.match, user)
    return {"challenges_in": incoming, "challenges_out": outgoing}


def challenges_fragment(user) -> str:
    """The viewer's challenges as an out-of-band swap (the friends page's socket)."""
    return render_to_string("games/_challenges.html",
                            {**challenges_context(user), "viewer": user, "oob": True})


def requests_fragment(user, started_since=None, entered_room=None,
                      version: int | None = None) -> str:
    """The list as an out-of-band swap: ``<div id="lobby-requests" hx-swap-oob="true">``
    (``started_since``: see ``lobby_context``; ``version``: the list's ``public_version``,
    which the page's heartbeat sends back).

    Rendered without a request, so its forms carry no CSRF field: they post through htmx
    (hx-post), which sends the token from the page's ``hx-headers``.
    """
    return render_to_string("games/_requests.html",
                            {**lobby_context(user, started_since, entered_room), "oob": True,
                             "version": version})
