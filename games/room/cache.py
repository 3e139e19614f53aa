"""A match's state per version, shared by the game rooms of one process.

A change of a match reaches every room consumer of it in this process (four seats and
any spectators): they share one load of the new version -- the match row, and the seats
and score rows when they can have changed -- and one rendering of its table per language
(games/room/html.py: the same markup for every viewer), and each adds its own small part
(its hand) on the event loop, without touching the database.  The same snapshot is what a
player's next move is checked against (games.play.service.act), so a move costs no read.

Nothing here decides anything: a snapshot answers a notice only while it is at least as
new as the notice (what changes without a new version, a turn's new deadline, has a
notice that asks for a load after it); a client that connects always gets a fresh load.
The one reading that is not the snapshot's is the server's clock in the table
(``data-now``, which the page sets its countdown by): it is read as the frame leaves, so a
frame that waited on a busy server does not set the page's clock back.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import rules
from games.models import Arena, Match, MatchStatus
from games.live.dbcall import database_call
from games.room import html
from games.live.perloop import PerLoop
from games.live.now import now_ms
from games.room.present import (round_row, round_rows, round_table, seat_context, seat_names,
                                table_context)
from ratings.beside import table_ratings, with_ratings

@dataclass
class Snapshot:
    match: Match
    seats: list
    rounds: list
    state: rules.GameState | None
    loaded: float = field(default_factory=time.monotonic)
    # The score table, the same for every seat: rendered once per language and change
    # (snapshots of one match share it while its rows stay the same).
    round_tables: dict = field(default_factory=dict)
    # The table every viewer of this version sees alike: what it shows (worked out once,
    # games.room.present.table_context) and its markup per language; and a spectator's
    # own part, the same for every spectator, per (language, None).
    shared: dict | None = None
    tables: dict = field(default_factory=dict)
    # Seat number -> the rating its player brought to the game (None: a bot), read with
    # the seats (ratings.beside): the same for every viewer, so part of the shared table.
    ratings: dict = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.match.version


def load(match_id: int, previous: Snapshot | None = None) -> Snapshot | None:
    """The match with everything the room shows, or None if it is gone (off the loop).

    Given the ``previous`` snapshot of the match, what cannot have changed is not read
    again: the seats of a started game are fixed, and its score rows are only ever added
    to, one row per seat when a round ends -- so as many rows as the rounds ended so far
    call for are the rows there are.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    state = rules.GameState.from_json(match.state) if match.state is not None else None
    if match.is_over:  # an arena's game leads back to its arena (games/arena)
        match.arena_url = arena_url_of(match.pk)
    if previous is None or previous.match.status == MatchStatus.WAITING or state is None:
        seats = list(with_ratings(match.seats.order_by("number")))
        match.seat_users = {s.number: s.user_id for s in seats}
        return Snapshot(match, seats, round_rows(match), state, ratings=table_ratings(match, seats))
    match.seat_users = previous.match.seat_users
    rounds = previous.rounds
    if match.status != MatchStatus.PLAYING \
            or len(rounds) != rounds_ended(state) * match.seats_count:
        rounds = round_rows(match)  # (a game that ended is read afresh: once)
    return Snapshot(match, previous.seats, rounds, state, round_tables=previous.round_tables,
                    ratings=previous.ratings)


def arena_url_of(match_id: int) -> str:
    """The page of the arena this game was played in, or ""."""
    arena = (Arena.objects.filter(games__match_id=match_id)
             .values_list("pk", "private", "invite_token").first())
    if arena is None:
        return ""
    pk, private, token = arena
    return reverse("arenas:private", args=[token]) if private else reverse("arenas:arena", args=[pk])


def rounds_ended(state: rules.GameState) -> int:
    """How many rounds of a game being played have ended (and been scored)."""
    return state.round - 1 if state.phase == rules.PLAYING else state.round


def render(snapshot: Snapshot, seat: int | None, language: str) -> str:
    """The frame of ``seat`` (None: a spectator): its own part first, then the table every
    viewer shares; no database access."""
    return seat_part(snapshot, seat, language) + table(snapshot, language)


def table(snapshot: Snapshot, language: str) -> str:
    """The ``#table`` fragment of this version, rendered once per language, with the
    server's clock read now."""
    rendered = snapshot.tables.get(language)
    if rendered is None:
        with _language(language):
            rendered = snapshot.tables[language] = html.table(_shared(snapshot))
    # The table's own tag comes first, so its data-now is the first in the fragment.
    return rendered.replace(f'data-now="{_shared(snapshot)["now_ms"]}"',
                            f'data-now="{now_ms()}"', 1)


def seat_part(snapshot: Snapshot, seat: int | None, language: str) -> str:
    """The ``#room`` fragment of one viewer: their hand and what they may do (a
    spectator's, the same for them all, is rendered once)."""
    if seat is None and (language, None) in snapshot.tables:
        return snapshot.tables[language, None]
    with _language(language):
        rendered = html.seat(seat_context(_shared(snapshot), seat))
    if seat is None:
        snapshot.tables[language, None] = rendered
    return rendered


def _language(language: str):
    """The language to render in (the frames of the site's own language need no switch)."""
    if translation.get_language() == language:
        return nullcontext()
    return translation.override(language)


def _shared(snapshot: Snapshot) -> dict:
    if snapshot.shared is None:
        snapshot.shared = table_context(snapshot.match, snapshot.state, snapshot.seats,
                                        snapshot.ratings)
    return snapshot.shared


def score_table(snapshot: Snapshot, language: str) -> tuple[tuple, str]:
    """The score table's fragment, rendered once per language and change of the table,
    and the key that changes with it."""
    phase = snapshot.state.phase if snapshot.state is not None else None
    key = (len(snapshot.rounds), phase == rules.PLAYING, language)
    if key not in snapshot.round_tables:
        # Only the current table is worth keeping: a running game's snapshots share this
        # dict, and every round would otherwise leave two tables behind in memory.
        for stale in [k for k in snapshot.round_tables if k[0] != key[0]]:
            del snapshot.round_tables[stale]
        with translation.override(language):
            table = round_table(snapshot.match, seat_names(snapshot.seats),
                                snapshot.match.seats_count, snapshot.rounds)
            rendered = render_to_string("games/_round_table.html", {"table": table}) \
                if table["rounds"] else ""
            snapshot.round_tables[key] = html.score_table(rendered, open_=not key[1])
    return key, snapshot.round_tables[key]


class Snapshots:
    """The latest snapshot of each match that has a room consumer in this process."""

    def __init__(self) -> None:
        self.latest: dict[int, Snapshot] = {}
        self.loading: dict[int, asyncio.Future] = {}
        self.watchers: Counter = Counter()

    def watch(self, match_id: int) -> None:
        self.watchers[match_id] += 1

    def unwatch(self, match_id: int) -> None:
        """The last consumer of a match here has gone: forget its snapshot (memory stays flat)."""
        self.watchers[match_id] -= 1
        if self.watchers[match_id] <= 0:
            del self.watchers[match_id]
            self.latest.pop(match_id, None)

    async def fresh(self, match_id: int, reuse: bool = False) -> Snapshot | None:
        """A load that starts now: for a client that connects (all of it read again), or
        for a notice (``reuse``: what cannot have changed is kept)."""
        previous = self.latest.get(match_id) if reuse else None
        snapshot = await database_call(load)(match_id, previous)
        self._keep(match_id, snapshot)
        return snapshot

    async def at_least(self, match_id: int, version: int,
                       loaded_after: float | None = None) -> Snapshot | None:
        """A snapshot of ``version`` or newer (and loaded after ``loaded_after``, a
        ``time.monotonic()``), shared by every consumer here that asks for it at about
        the same time (one load, however many seats are waiting)."""
        for _attempt in range(3):
            snapshot = self.latest.get(match_id)
            if snapshot is not None and snapshot.version >= version \
                    and (loaded_after is None or snapshot.loaded >= loaded_after):
                return snapshot
            pending = self.loading.get(match_id)
            if pending is None:
                pending = asyncio.ensure_future(self.fresh(match_id, reuse=True))
                self.loading[match_id] = pending
                pending.add_done_callback(
                    lambda done: self.loading.pop(match_id)
                    if self.loading.get(match_id) is done else None)
            # shield: a consumer that goes away must not cancel the load others wait for
            snapshot = await asyncio.shield(pending)
            if snapshot is None or (snapshot.version >= version and (
                    loaded_after is None or snapshot.loaded >= loaded_after)):
                return snapshot
            # That load began before the change committed: load again.
        return await self.fresh(match_id)

    def prime(self, notices) -> None:
        """Keep the snapshots of changes this process has just committed (the notices'
        ``committed``), so that showing them to the rooms here reads nothing back: the
        match row and state as written, the seats of the running game, and its score rows
        -- the previous ones and those just written, when together they are as many as
        the rounds ended so far call for (else a change in between wrote some too, and
        the snapshot is loaded).  A game starting or ending is always loaded."""
        for notice in notices:
            committed = getattr(notice, "committed", None)
            if committed is None:
                continue
            match = committed.match
            previous = self.latest.get(match.pk)
            if previous is None or previous.state is None or committed.state is None \
                    or previous.match.status != MatchStatus.PLAYING \
                    or match.status != MatchStatus.PLAYING:
                continue
            rounds = previous.rounds + [round_row(score) for score in committed.round_scores]
            if len(rounds) == rounds_ended(committed.state) * match.seats_count:
                self._keep(match.pk, Snapshot(match, previous.seats, rounds, committed.state,
                                              round_tables=previous.round_tables,
                                              ratings=previous.ratings))

    def known(self, match_id: int) -> tuple[Match, rules.GameState] | None:
        """The match and state a move may be checked against (games.play.service.act)."""
        snapshot = self.latest.get(match_id)
        if snapshot is None or snapshot.state is None:
            return None
        return snapshot.match, snapshot.state

    def _keep(self, match_id: int, snapshot: Snapshot | None) -> None:
        if snapshot is None or match_id not in self.watchers:
            return
        kept = self.latest.get(match_id)
        if kept is None or snapshot.version >= kept.version:
            self.latest[match_id] = snapshot


_per_loop: PerLoop[Snapshots] = PerLoop(Snapshots)


def snapshots() -> Snapshots:
    """The snapshots of the running event loop: one per server process."""
    return _per_loop.get()


def prime_here(notices) -> None:
    """The changes this process has just committed, kept (``Snapshots.prime``)."""
    snapshots().prime(notices)
