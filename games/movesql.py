"""The statements of every move, as SQL prepared once per process.

A move locks its match row, appends to the move log and saves the match, and every game
room then reads the match again: the ORM spent
about four times as long building each of these statements as the database spent running
it, hundreds of times a second under load (docs/performance.md).  Here each statement's
text is built once; values still go through each field's own conversion for the
database (``get_db_prep_save``) and back (the converters the ORM's compiler would apply),
so JSON, times and choices are stored and read exactly as the ORM does.  Everything else
keeps to the ORM.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection

from games.models import Match, Move


@lru_cache(maxsize=None)
def _select(vendor: str, lock: bool) -> tuple[str, list[str]]:
    """The statement, and the attribute names in its column order."""
    quote = connection.ops.quote_name
    fields = Match._meta.concrete_fields
    lock = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    sql = (f"SELECT {', '.join(quote(f.column) for f in fields)} "
           f"FROM {quote(Match._meta.db_table)} WHERE {quote('id')} = %s{lock}")
    return sql, [f.attname for f in fields]


def _converters() -> list[tuple]:
    """Per column, the converters the ORM's compiler would apply, with their column.

    They are methods of this thread's connection, so each connection keeps its own (a
    process-wide cache would hold the first thread's connection for every thread)."""
    found = getattr(connection, "_kozel_match_converters", None)
    if found is None:
        found = []
        for field in Match._meta.concrete_fields:
            column = field.get_col(Match._meta.db_table)
            found.append((connection.ops.get_db_converters(column)
                          + column.get_db_converters(connection), column))
        connection._kozel_match_converters = found
    return found


def _read_match(lock: bool, match_id: int) -> Match | None:
    sql, names = _select(connection.vendor, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = []
    for value, (found, column) in zip(row, _converters()):
        for convert in found:
            value = convert(value, column, connection)
        values.append(value)
    return Match.from_db(connection.alias, names, values)


def locked_match(match_id: int) -> Match | None:
    """The match row, locked until the transaction ends (SQLite: the whole database is,
    by the IMMEDIATE transaction)."""
    return _read_match(True, match_id)


def match_row(match_id: int) -> Match | None:
    """The match row as it is now (a game room's load after every change)."""
    return _read_match(False, match_id)


@lru_cache(maxsize=None)
def _insert(vendor: str, model, fields: tuple[str, ...]) -> tuple[str, tuple]:
    meta, quote = model._meta, connection.ops.quote_name
    columns = tuple(meta.get_field(name) for name in fields)
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c.column) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    return sql, columns


def insert_moves(moves: list[Move]) -> None:
    """Append ``moves`` (unsaved Move instances) to the log in one statement each."""
    sql, columns = _insert(connection.vendor, Move,
                           ("match", "number", "seat", "kind", "payload", "created_at"))
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[c.get_db_prep_save(getattr(m, c.attname), connection)
                                  for c in columns] for m in moves])


@lru_cache(maxsize=None)
def _update(vendor: str, fields: tuple[str, ...]) -> tuple[str, tuple]:
    meta, quote = Match._meta, connection.ops.quote_name
    columns = tuple(meta.get_field(name) for name in fields)
    sets = ", ".join(f"{quote(c.column)} = %s" for c in columns)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote('id')} = %s", columns


def save_match(match: Match, fields: tuple[str, ...]) -> None:
    """Save these fields of ``match`` (as ``match.save(update_fields=fields)`` would)."""
    sql, columns = _update(connection.vendor, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, [c.get_db_prep_save(getattr(match, c.attname), connection)
                             for c in columns] + [match.pk])
