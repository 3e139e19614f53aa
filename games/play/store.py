"""The statements of every move, as SQL prepared once per process.

A move locks its match row, appends to the move log and saves the match, and every game
room then reads the match again: the ORM spent
about four times as long building each of these statements as the database spent running
it, hundreds of times a second under load (docs/performance.md).  Here each statement's
text is built once; values still go through each field's own conversion for the
database (``get_db_prep_save``) and back (the converters the ORM's compiler would apply),
so JSON, times and choices are stored and read exactly as the ORM does.  Everything else
keeps to the ORM.

The statements run on the database driver's own cursor, inside Django's error wrapper
(so a failure is still a ``django.db.DatabaseError`` and marks the connection as
Django's cursor would), with the driver's own placeholders: Django's cursor wrappers
rewrote the SQLite statement's placeholders and looked the connection up again on every
call (docs/performance.md, fifth round).
"""

from __future__ import annotations

from functools import lru_cache

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from games.play import pgmeanwhile
from games.models import Match, MatchStatus, Move, RoundScore


def _db():
    """This thread's connection itself.  (``django.db.connection`` is a proxy that looks
    the connection up again, in a context-local store, on every attribute used.)"""
    return connections[DEFAULT_DB_ALIAS]


def _driver_sql(vendor: str, sql: str) -> str:
    """``sql`` with the driver's placeholders: sqlite3 takes ``?``, psycopg ``%s``."""
    return sql.replace("%s", "?") if vendor == "sqlite" else sql


def _cursor(db, read: bool):
    """A cursor of the driver, on ``db``'s connection, opened if need be (the checks of
    ``db.cursor()`` and of its wrapper's ``execute``, without the wrappers).  On SQLite,
    sqlite3's own cursor.  On PostgreSQL, for a read the backend's (it sets the time zone
    of the values read); for a write one that sends the values apart from the statement
    (server-side binding): Django's cursor writes them into the statement's text, so the
    match's rules state, a kilobyte of JSON, was escaped here and parsed back there as
    SQL (bench/move_statement.py: a tenth less of this process's CPU per statement)."""
    _ready(db)
    if db.vendor == "sqlite":
        return db.connection.cursor()
    return db.create_cursor() if read else psycopg.Cursor(db.connection)


def _ready(db) -> None:
    """``db``'s connection opened if need be, with the checks of ``db.cursor()``."""
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()


def _execute(db, sql: str, params, fetch_one: bool = False, meanwhile=None):
    """Run one statement; its one row if ``fetch_one`` (a read), else the number of rows
    it changed.  A failure raises Django's error.  ``meanwhile()``, if given, is called
    while PostgreSQL answers a write in a transaction of its own (games/play/pgmeanwhile.py),
    else before the statement is sent."""
    with db.wrap_database_errors:
        if meanwhile is not None:
            _ready(db)
            if db.vendor == "postgresql" and not fetch_one \
                    and pgmeanwhile.can_overlap(db.connection):
                return pgmeanwhile.rowcount_meanwhile(db.connection, sql, params, meanwhile)
            pgmeanwhile.aside(meanwhile)
        cursor = _cursor(db, read=fetch_one)
        try:
            cursor.execute(sql, params)
            return cursor.fetchone() if fetch_one else cursor.rowcount
        finally:
            cursor.close()


@lru_cache(maxsize=None)
def _select(vendor: str, lock: bool) -> tuple[str, list[str]]:
    """The statement, and the attribute names in its column order."""
    db = _db()
    quote = db.ops.quote_name
    fields = Match._meta.concrete_fields
    lock = " FOR UPDATE" if lock and db.features.has_select_for_update else ""
    sql = (f"SELECT {', '.join(quote(f.column) for f in fields)} "
           f"FROM {quote(Match._meta.db_table)} WHERE {quote('id')} = %s{lock}")
    return _driver_sql(vendor, sql), [f.attname for f in fields]


def _converters(db) -> list[tuple]:
    """Per column, the converters the ORM's compiler would apply, with their column.

    They are methods of this thread's connection, so each connection keeps its own (a
    process-wide cache would hold the first thread's connection for every thread)."""
    found = getattr(db, "_kozel_match_converters", None)
    if found is None:
        found = []
        for field in Match._meta.concrete_fields:
            column = field.get_col(Match._meta.db_table)
            found.append((db.ops.get_db_converters(column)
                          + column.get_db_converters(db), column))
        db._kozel_match_converters = found
    return found


def _read_match(lock: bool, match_id: int) -> Match | None:
    db = _db()
    sql, names = _select(db.vendor, lock)
    row = _execute(db, sql, (match_id,), fetch_one=True)
    if row is None:
        return None
    values = []
    for value, (found, column) in zip(row, _converters(db)):
        for convert in found:
            value = convert(value, column, db)
        values.append(value)
    return Match.from_db(db.alias, names, values)


def locked_match(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (SQLite: the whole database is,
    by the IMMEDIATE transaction)."""
    return _read_match(True, match_id)


def match_row(match_id: int) -> Match | None:
    """The match row as it is now (a game room's load after every change)."""
    return _read_match(False, match_id)


MOVE_COLUMNS = ("match", "number", "seat", "kind", "payload", "created_at")


@lru_cache(maxsize=None)
def _insert(vendor: str) -> tuple[str, tuple]:
    meta, quote = Move._meta, _db().ops.quote_name
    columns = tuple(meta.get_field(name) for name in MOVE_COLUMNS)
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c.column) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    return _driver_sql(vendor, sql), columns


def insert_move(move: Move) -> None:
    """Append ``move`` (an unsaved Move) to the log.  (With ``execute``: psycopg runs
    ``executemany`` as a pipeline, which cost more than the insert itself.)"""
    db = _db()
    sql, columns = _insert(db.vendor)
    _execute(db, sql, [c.get_db_prep_save(getattr(move, c.attname), db) for c in columns])


@lru_cache(maxsize=None)
def _update(vendor: str, fields: tuple[str, ...]) -> tuple[str, tuple]:
    meta, quote = Match._meta, _db().ops.quote_name
    columns = tuple(meta.get_field(name) for name in fields)
    sets = ", ".join(f"{quote(c.column)} = %s" for c in columns)
    return _driver_sql(vendor, f"UPDATE {quote(meta.db_table)} SET {sets} "
                               f"WHERE {quote('id')} = %s"), columns


def save_match(match: Match, fields: tuple[str, ...]) -> None:
    """Save these fields of ``match`` (as ``match.save(update_fields=fields)`` would)."""
    db = _db()
    sql, columns = _update(db.vendor, fields)
    values = [c.get_db_prep_save(getattr(match, c.attname), db) for c in columns]
    values.append(match.pk)
    _execute(db, sql, values)


def conditional_moves() -> bool:
    """Whether a move may be written on condition that the match is still at the version
    it was checked on, without reading the match first (``save_moves_if_at``)."""
    return settings.KOZEL_CONDITIONAL_MOVES


def _typed_rows(db, columns, count: int) -> str:
    """``count`` rows of placeholders for ``columns``, each cast to its column's type (a
    parameter in a VALUES list or a SELECT list has no type of its own)."""
    row = "(" + ", ".join(f"%s::{c.db_type(db)}" for c in columns) + ")"
    return ", ".join([row] * count)


def _appended_columns(model, names) -> tuple:
    return tuple(model._meta.get_field(name) for name in names)


# What a conditional move appends besides its own entry in the log: the knocks made for
# the players who could only knock after it, and the round's scores if it ended a round.
ROUND_SCORE_COLUMNS = ("round_number", "seat", "points", "credited", "score_after",
                       "remembered_after", "opened", "result", "result_seat", "bank_after",
                       "created_at")


@lru_cache(maxsize=None)
def _update_then_insert(fields: tuple[str, ...], nowait: bool, moves: int,
                        round_scores: int) -> tuple[str, tuple, tuple, tuple]:
    db = _db()
    quote = db.ops.quote_name
    match_meta = Match._meta
    table, pk, version, status = (quote(match_meta.db_table), quote("id"), quote("version"),
                                  quote("status"))
    changed = tuple(match_meta.get_field(name) for name in fields)
    move_columns = _appended_columns(Move, MOVE_COLUMNS[1:])
    score_columns = _appended_columns(RoundScore, ROUND_SCORE_COLUMNS) if round_scores else ()
    sets = ", ".join(f"{quote(c.column)} = %s" for c in changed)

    def appended(model, columns, count) -> str:
        """An INSERT of ``count`` rows for the match the update changed (none if it
        changed none)."""
        names = ", ".join(quote(c.column) for c in (model._meta.get_field("match"), *columns))
        return (f"INSERT INTO {quote(model._meta.db_table)} ({names}) "
                f"SELECT moved.{pk}, appended.* FROM moved, "
                f"(VALUES {_typed_rows(db, columns, count)}) AS appended")

    condition = f"{pk} = %s AND {version} = %s AND {status} = %s"
    if nowait:  # the row locked first, or an error at once if another transaction has it
        held = (f"WITH held AS (SELECT {pk} FROM {table} WHERE {condition} FOR UPDATE NOWAIT), "
                f"moved AS (UPDATE {table} SET {sets} WHERE {pk} IN (SELECT {pk} FROM held) ")
    else:
        held = f"WITH moved AS (UPDATE {table} SET {sets} WHERE {condition} "
    # A data-modifying WITH runs once and to the end whether or not the rest reads it.
    scored = f", scored AS ({appended(RoundScore, score_columns, round_scores)}) " \
        if round_scores else " "
    sql = f"{held}RETURNING {pk}){scored}{appended(Move, move_columns, moves)}"
    return sql, changed, move_columns, score_columns


def save_moves_if_at(match: Match, fields: tuple[str, ...], version: int, moves: list[Move],
                     round_scores: list[RoundScore] = (), nowait: bool = False,
                     meanwhile=None) -> bool:
    """Save these fields of ``match``, append ``moves`` to its log and ``round_scores`` to
    its score table, in one transaction of their own -- if the match row is still at
    ``version`` and being played; returns whether it was (nothing is written otherwise).
    Committed when it returns, as an acknowledged move must be.

    On PostgreSQL that is one statement (a data-modifying WITH), so one round trip to the
    server.  A transaction holding the row (a move on the locked path, the clock) is
    waited for, and the condition then looked at on the row it left (READ COMMITTED);
    with ``nowait`` the statement fails at once instead (``is_lock_refused``), having
    written nothing.  On SQLite (which has no such statement, and no round trips) it is an
    update on that condition and the inserts, in a transaction that takes the write lock
    as it begins.

    ``meanwhile()``, if given, is called while PostgreSQL answers (before the writes, on
    SQLite): what it prepares must be used only if this returns True."""
    db = _db()
    if db.vendor != "postgresql":
        if meanwhile is not None:
            pgmeanwhile.aside(meanwhile)
        return _save_moves_if_at_in_steps(db, match, fields, version, moves, round_scores)
    statement = moves_if_at_statement(match, fields, version, moves, round_scores, nowait)
    return _execute(db, *statement, meanwhile=meanwhile) == len(moves)


def moves_if_at_statement(match: Match, fields: tuple[str, ...], version: int,
                          moves: list[Move], round_scores: list[RoundScore] = (),
                          nowait: bool = False) -> tuple[str, list]:
    """PostgreSQL's one statement of ``save_moves_if_at``, and its values."""
    db = _db()
    sql, changed, move_columns, score_columns = _update_then_insert(
        fields, nowait, len(moves), len(round_scores))
    sets = [c.get_db_prep_save(getattr(match, c.attname), db) for c in changed]
    condition = [match.pk, version, MatchStatus.PLAYING.value]
    # In the statement's order: the lock's condition comes first when it has one.
    values = condition + sets if nowait else sets + condition
    for row in round_scores:
        values += [c.get_db_prep_save(getattr(row, c.attname), db) for c in score_columns]
    for move in moves:
        values += [c.get_db_prep_save(getattr(move, c.attname), db) for c in move_columns]
    return sql, values


@lru_cache(maxsize=None)
def _update_if_at(vendor: str, fields: tuple[str, ...]) -> tuple[str, tuple]:
    sql, columns = _update(vendor, fields)
    quote = _db().ops.quote_name
    condition = f" AND {quote('version')} = %s AND {quote('status')} = %s"
    return sql + _driver_sql(vendor, condition), columns


def _save_moves_if_at_in_steps(db, match: Match, fields, version: int, moves: list[Move],
                               round_scores: list[RoundScore]) -> bool:
    sql, columns = _update_if_at(db.vendor, fields)
    values = [c.get_db_prep_save(getattr(match, c.attname), db) for c in columns]
    values += [match.pk, version, MatchStatus.PLAYING.value]
    with transaction.atomic(using=db.alias):
        if _execute(db, sql, values) != 1:
            return False  # nothing was changed: the empty transaction ends
        for move in moves:
            insert_move(move)
        if round_scores:  # once a round: the ORM's insert is good enough
            RoundScore.objects.using(db.alias).bulk_create(round_scores)
    return True


def is_lock_refused(error: Exception) -> bool:
    """Whether ``error`` is PostgreSQL's "could not obtain lock" (a NOWAIT lock refused)."""
    return getattr(error.__cause__, "sqlstate", None) == "55P03"
