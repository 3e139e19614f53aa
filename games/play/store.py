"""The only code that writes a running game: its Match row, its move log, its score rows.

A change of a game is computed from the match as it stood at some version
(games.play.service).  ``commit`` writes it in one transaction that succeeds only if the
match is still at that version -- a compare-and-swap on ``Match.version`` -- so a late
move and a timeout can never both win, and nothing holds a row lock while Python thinks:
the transaction is the writes alone.  The game's end is told to its subscribers
(games.play.events: ratings, one more game) inside the same transaction.  The match's
group hears of the new version only after commit (games.play.notify).

``Match.version`` is the number of moves in the log, so the state on the match row is
always the log replayed up to that version (DESIGN.md, a change end to end).

A move is written with two plain SQL statements (the update and the moves' insert),
built once per set of columns from the models' own fields, which also convert each value
for the database in use: building the query through the ORM on every move would cost
more than the move's rules.  On PostgreSQL the two are one statement when nothing else
is written with them (``_in_one_statement``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone

from games import rules
from games.rules import seagoat
from games.models import Match, Move, RoundScore
from games.play import notify
from games.play.events import GameEnded, game_ended


class Committed(NamedTuple):
    """A change as written: the match row after it, its rules state, the score rows."""

    match: Match
    state: rules.GameState | None
    round_scores: list


class Stale(Exception):
    """The match moved on since the change was computed: nothing was written."""


@dataclass
class Change:
    """One change of a game: what it appends to the log and sets on the match row."""

    match: Match                   # the match as the change was computed from
    state: rules.GameState | None  # the rules state after it (None: a request never dealt)
    moves: list[tuple[str, int | None, dict]]  # (kind, seat, payload), appended in order
    events: list[dict] = field(default_factory=list)  # what the rules say happened
    fields: dict = field(default_factory=dict)  # other columns: deadline, status, result...
    ending: GameEnded | None = None  # the game's end, told to its subscribers

    @property
    def version(self) -> int:
        """The match's version once the change is written."""
        return self.match.version + len(self.moves)


def commit(change: Change) -> int:
    """Write ``change`` if the match is still at the version it was computed from; the
    new version.  Raises Stale, having written nothing, if it is not."""
    match = change.match
    columns = dict(change.fields, version=change.version)
    if change.state is not None:
        columns["state"] = change.state.to_json()
    names = tuple(sorted(columns))
    changed = [_prepared(Match, name, columns[name]) for name in names] + [match.pk, match.version]
    now = timezone.now()
    moves = [value for n, (kind, seat, payload) in enumerate(change.moves, 1)
             for value in (match.pk, match.version + n, seat, kind,
                           _prepared(Move, "payload", payload), _prepared(Move, "created_at", now))]
    scores = round_scores(match, change.events)
    written = copy.copy(match)  # the caller's match (a room's cached one) is left alone
    written.__dict__.update(columns)
    committed = Committed(written, change.state, scores)
    if _in_one_statement(change, scores):
        with connection.cursor() as cursor:
            cursor.execute(_update_and_insert_sql(names, len(change.moves)), changed + moves)
            if cursor.rowcount != len(change.moves):
                raise Stale(f"match {match.pk} is no longer at version {match.version}")
        notify.match_changed(match.pk, change.version, change.events, committed)
        return change.version
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_update_sql(names), changed)
        if cursor.rowcount != 1:
            raise Stale(f"match {match.pk} is no longer at version {match.version}")
        cursor.execute(_insert_moves_sql(len(change.moves)), moves)
        if scores:  # a round ended
            RoundScore.objects.bulk_create(scores)
        if change.ending is not None:
            game_ended(change.ending)
            notify.lobby_changed()  # the table is free again
        notify.match_changed(match.pk, change.version, change.events, committed)
    return change.version


def _in_one_statement(change: Change, scores) -> bool:
    """Whether ``change`` is written as one statement: on PostgreSQL, a change that only
    sets the match row and appends moves (most of them: a play, a draw, a knock).  A
    statement is a transaction of its own, so this costs one round trip to the server
    where the transaction costs four (BEGIN, the update, the insert, COMMIT), each of
    them a wait of the thread for the server and then for the interpreter lock."""
    return (connection.vendor == "postgresql" and change.moves and not scores
            and change.ending is None and not connection.in_atomic_block)


@lru_cache(maxsize=64)
def _update_sql(names: tuple[str, ...]) -> str:
    """UPDATE of these Match fields on the match at a version (the compare-and-swap)."""
    quote = connection.ops.quote_name
    fields = [Match._meta.get_field(name) for name in names]
    version = Match._meta.get_field("version")
    return (f"UPDATE {quote(Match._meta.db_table)} SET "
            + ", ".join(f"{quote(f.column)} = %s" for f in fields)
            + f" WHERE {quote(Match._meta.pk.column)} = %s AND {quote(version.column)} = %s")


MOVE_COLUMNS = ("match", "number", "seat", "kind", "payload", "created_at")


@lru_cache(maxsize=16)
def _insert_moves_sql(count: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Move._meta.get_field(name).column) for name in MOVE_COLUMNS)
    row = "(" + ", ".join(["%s"] * len(MOVE_COLUMNS)) + ")"
    return (f"INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES "
            + ", ".join([row] * count))


@lru_cache(maxsize=64)
def _update_and_insert_sql(names: tuple[str, ...], count: int) -> str:
    """PostgreSQL: the compare-and-swap update and the moves' insert in one statement; the
    moves are inserted only if the update found the match at its version."""
    quote = connection.ops.quote_name
    fields = [Move._meta.get_field(name) for name in MOVE_COLUMNS]
    columns = ", ".join(quote(f.column) for f in fields)
    row = "(" + ", ".join(f"CAST(%s AS {f.cast_db_type(connection)})" for f in fields) + ")"
    return (f"WITH changed AS ({_update_sql(names)} RETURNING 1) "
            f"INSERT INTO {quote(Move._meta.db_table)} ({columns}) "
            f"SELECT * FROM (VALUES {', '.join([row] * count)}) AS moves ({columns}) "
            f"WHERE EXISTS (SELECT FROM changed)")


def _prepared(model, name: str, value):
    """``value`` of the field ``name`` as the database in use takes it (JSON, times)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def move_deadline(match: Match, deadline) -> bool:
    """Set the deadline of ``match`` to ``deadline`` if it is still at the version and
    deadline it was read with; whether it was.  Only the clock's time: no move is made, so
    the version stays (it counts the moves) -- a move or a timeout that got there first
    wins, and this writes nothing.  The match's group hears of the new deadline."""
    moved = Match.objects.filter(pk=match.pk, version=match.version,
                                 deadline=match.deadline).update(deadline=deadline) == 1
    if moved:
        notify.match_retimed(match.pk, match.version)
    return moved


def round_scores(match: Match, events: list[dict]) -> list[RoundScore]:
    """The score table's rows of a round these events ended (unsaved), one per seat.  A
    game of writing (sea goat, RULES.md 13) keeps no remembered points or bank: a row's
    credit is what the round wrote to the seat's score."""
    rows = []
    for ended in events:
        if ended["type"] != "round_ended":
            continue
        writing = "writing" in ended
        credited = seagoat.written(ended) if writing else ended["credited"]
        for seat in range(match.seats_count):
            rows.append(RoundScore(
                match_id=match.pk, round_number=ended["round"], seat=seat,
                points=ended["points"][seat], credited=credited[seat],
                score_after=ended["scores"][seat],
                remembered_after=0 if writing else ended["remembered"][seat],
                opened=bool(ended["scores"][seat]) if writing else ended["opened"][seat],
                result=ended["result"], result_seat=ended["seat"],
                bank_after=0 if writing else ended["bank"]))
    return rows
