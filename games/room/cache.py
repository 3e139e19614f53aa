"""What the game room consumers of one process render from: one load per match version.

When a match changes, its group's notice reaches every consumer of that match: four seats
and any spectators, often in the same server process.  Each used to read the match, its
seats and its round rows from the database and render on channels' one database thread
(DESIGN.md, known traps), so one action cost four loads and four renders queued on that
thread (docs/performance.md has the measurements).  Now the consumers of a process share
one load per version, and render on the event loop from the loaded rows, touching no
database: the database thread only runs moves and these loads.

Nothing here decides anything or outlives a moment: a snapshot is used only while it is
at least as new as the notice being answered, and at most ``MAX_AGE`` seconds after it
was loaded; a connecting or resyncing client always gets a fresh load.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils import translation

from games import rules
from games.room import html as room_html
from games.play import store as movesql
from games.play.dbcall import database_call
from games.models import Match, MatchStatus
from games.room.perloop import PerLoop
from games.room.present import room_context, round_row, round_rows, round_table, seat_names

MAX_AGE = 2.0  # seconds a loaded snapshot may answer later notices (the clock's now_ms is rendered fresh)


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
    # What every seat's room context of this version shows alike, per language
    # (games.room.present.room_context).
    parts: dict = field(default_factory=dict)
    # Frames rendered before they were asked for (``prepare_frame``), each taken once:
    # (seat, language) -> (events, frame).
    frames: dict = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.match.version


def load(match_id: int, previous: Snapshot | None = None) -> Snapshot | None:
    """The match with everything the room shows, or None if it is gone (database thread).

    Given the ``previous`` snapshot of the match, what cannot have changed is not read
    again: the seats of a started game are fixed, and its round rows are only ever added
    to, one row per seat when a round ends -- so as many rows as the rounds ended so far
    call for are the rows there are.  A change made by another process (the clock's next
    deal, say) then costs the match row alone.
    """
    match = movesql.match_row(match_id)
    if match is None:
        return None
    state = rules.GameState.from_json(match.state) if match.state is not None else None
    if previous is None or previous.match.status == MatchStatus.WAITING or state is None:
        seats = list(match.seats.select_related("user").order_by("number"))
        return Snapshot(match, seats, round_rows(match), state)
    rounds = previous.rounds
    if match.status != MatchStatus.PLAYING \
            or len(rounds) != rounds_ended(state) * match.seats_count:
        rounds = round_rows(match)  # (a game that ended is read afresh: once)
    # The score tables are kept by their number of rows (score_table): shared safely.
    return Snapshot(match, previous.seats, rounds, state, round_tables=previous.round_tables)


def rounds_ended(state: rules.GameState) -> int:
    """How many rounds of a game being played have ended (and been scored)."""
    return state.round - 1 if state.phase == rules.PLAYING else state.round


def _primed(previous: Snapshot | None, match: Match, state: rules.GameState | None,
            round_scores: list) -> Snapshot | None:
    """The snapshot after a change this process committed, from ``previous`` and what the
    change wrote; None when that cannot be known without reading (then it is loaded).

    The seats are those of ``previous`` while the game runs; the round rows are the
    previous ones and the rows just written, if together they are as many as the rounds
    ended so far call for -- else ``previous`` is older than the version before this
    change, and a change in between may have written rows too.
    """
    if previous is None or previous.state is None or state is None \
            or previous.match.status != MatchStatus.PLAYING or match.status != MatchStatus.PLAYING:
        return None  # a game starting or ending: its seats and result are read afresh
    rounds = previous.rounds + [round_row(score) for score in round_scores]
    if len(rounds) != rounds_ended(state) * match.seats_count:
        return None
    # The score tables are kept by their number of rows (score_table): shared safely.
    return Snapshot(match, previous.seats, rounds, state, round_tables=previous.round_tables)


def render(snapshot: Snapshot, seat: int | None, language: str, announce, events=()) -> str:
    """The room frame of ``seat`` (None: a spectator); no database access.  A frame
    prepared for the same seat, language and events is taken instead of rendered."""
    prepared = snapshot.frames.pop((seat, language), None)
    if prepared is not None and prepared[0] == events:
        return prepared[1]
    return _rendered(snapshot, seat, language, announce, events)


def prepare_frame(snapshot: Snapshot, seat: int | None, language: str, announce,
                  events) -> None:
    """Render the frame ``render`` will be asked for, ahead of time: while the change it
    shows is being committed (games/play/pgmeanwhile.py).  The snapshot is not kept, and so
    its frames are not sent, unless the change commits (``Snapshots.prime``)."""
    if (seat, language) not in snapshot.frames:
        snapshot.frames[(seat, language)] = (
            events, _rendered(snapshot, seat, language, announce, events))
    score_table(snapshot, language)


def _rendered(snapshot: Snapshot, seat: int | None, language: str, announce, events) -> str:
    shared = snapshot.parts.setdefault(language, {})
    with translation.override(language):
        context = room_context(snapshot.match, seat, state=snapshot.state, seats=snapshot.seats,
                               shared=shared)
        return room_html.room(context, announce(events, context["names"]))


def score_table(snapshot: Snapshot, language: str) -> tuple[tuple, str]:
    """The score table's fragment (room_html.score_table), rendered once per language
    and change of the table, and the key that changes with it."""
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
            snapshot.round_tables[key] = room_html.score_table(rendered, open_=not key[1])
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
        """A load that starts now: for a client that connects or asks to resync (all of
        it read again), or for a notice (``reuse``: what cannot have changed is kept)."""
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
                    and time.monotonic() - snapshot.loaded < MAX_AGE \
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

    def prime(self, notices, prepared: Snapshot | None = None) -> None:
        """Keep the snapshots of changes this process has just committed (the notices'
        match, state and round scores, as saved), so that answering their notices reads
        nothing back.  ``prepared`` is the snapshot of one of them made while it was
        being committed (by the method below), with the frames made then: kept as it is."""
        for notice in notices:
            if notice.committed is not None:
                match = notice.committed[0]
                primed = prepared if prepared is not None and prepared.match is match \
                    else _primed(self.latest.get(match.pk), *notice.committed)
                if primed is not None:
                    self._keep(primed.match.pk, primed)

    def prepared(self, match: Match, state: rules.GameState, round_scores: list
                 ) -> Snapshot | None:
        """The snapshot a change about to be committed will have (as ``prime`` makes
        it), not kept: for rendering its frames while it commits (``prepare_frame``)."""
        return _primed(self.latest.get(match.pk), match, state, round_scores)

    def _keep(self, match_id: int, snapshot: Snapshot | None) -> None:
        if snapshot is None or match_id not in self.watchers:
            return
        kept = self.latest.get(match_id)
        if kept is None or snapshot.version >= kept.version:
            self.latest[match_id] = snapshot


_per_loop: PerLoop[Snapshots] = PerLoop(Snapshots)


def snapshots() -> Snapshots:
    """The snapshots of the running event loop: one per server process (games/room/perloop.py)."""
    return _per_loop.get()
