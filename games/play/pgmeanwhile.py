"""A statement sent to PostgreSQL, and other work done while the server answers it.

A move's statement (games/play/store.py, ``save_moves_if_at``) takes about a millisecond
to come back: PostgreSQL runs it and waits for its commit to reach the disk.  psycopg's
``execute`` sends it and then waits, and a server process whose move runs on its event
loop (games/play/loopdb.py) does nothing else meanwhile -- although the frames it will send
once the move is committed could already be rendered (docs/performance.md, thirteenth
round).  ``rowcount_meanwhile`` sends the statement with libpq's asynchronous call (as
psycopg itself does, with the same dumping of the values), calls ``meanwhile()``, and
only then waits for the answer.  Whatever ``meanwhile`` makes must not be shown before
that answer says the statement committed: the answer is still what the move waits for.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Callable

import psycopg
from psycopg import errors, generators, pq
from psycopg.adapt import PyFormat, Transformer

log = logging.getLogger(__name__)

PLACEHOLDER = re.compile(r"%s")


def aside(meanwhile: Callable[[], None]) -> None:
    """``meanwhile()``, whose failure must not change the statement's outcome: logged,
    and what it was making is simply not used."""
    try:
        meanwhile()
    except Exception:
        log.exception("work done while a statement was answered failed")


@lru_cache(maxsize=256)  # the moves' statements are a handful of texts (games/play/store.py)
def numbered(sql: str) -> str:
    """``sql`` with psycopg's ``%s`` placeholders as libpq's ``$1, $2, ...``.  Only for
    statements of our own making, which have no other ``%``."""
    if "%" in PLACEHOLDER.sub("", sql):
        raise ValueError("a statement with a % that is not a placeholder")
    counter = iter(range(1, sql.count("%s") + 1))
    return PLACEHOLDER.sub(lambda _m: f"${next(counter)}", sql)


def can_overlap(conn: psycopg.Connection) -> bool:
    """Whether a statement sent now runs in a transaction of its own: the connection is in
    autocommit mode and idle (psycopg would otherwise begin a transaction first)."""
    return conn.autocommit and conn.pgconn.transaction_status == pq.TransactionStatus.IDLE


def rowcount_meanwhile(conn: psycopg.Connection, sql: str, params: list,
                       meanwhile: Callable[[], None]) -> int:
    """Run ``sql`` (``%s`` placeholders) with ``params`` on ``conn``, calling
    ``meanwhile()`` once the statement has been sent and before its answer is read (see
    ``aside``); the number of rows it changed.  Raises psycopg's error for a failed
    statement, after ``meanwhile`` has run (its work is then not to be used).  ``conn``
    must be able to ``can_overlap``."""
    transformer = Transformer(conn)
    values = transformer.dump_sequence(params, [PyFormat.AUTO] * len(params))
    pgconn = conn.pgconn
    with conn.lock:
        pgconn.send_query_params(numbered(sql).encode(), values,
                                 param_types=transformer.types,
                                 param_formats=transformer.formats)
        conn.wait(generators.send(pgconn))
        aside(meanwhile)
        results = conn.wait(generators.fetch_many(pgconn))
    rowcount = 0
    for result in results:
        if result.status == pq.ExecStatus.FATAL_ERROR:
            raise errors.error_from_result(result, encoding=conn.info.encoding)
        if result.status == pq.ExecStatus.COMMAND_OK:
            rowcount = result.command_tuples or 0
    return rowcount
