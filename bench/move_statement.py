"""Benchmark: a move's one PostgreSQL statement as the site sends it, side by side with the
same statement through Django's own cursor (the baseline), in one run.

The statement is the one most moves are (games.play.store.save_moves_if_at: the conditional
update of the match and the insert into the log, one transaction).  The site sends its
values apart from the statement (server-side binding); Django's cursor writes them into
the statement's text (client-side binding), so the match's rules state, about a
kilobyte of JSON, is escaped here and parsed there as SQL.  Both write the same rows of
one four-player match of a fresh database, in alternating slices of equal time, so a
noisy machine slows both alike.  Prints, for each, the statements per second, the round
trip's p50 and p95, and this process's CPU per statement.

    .venv/bin/python bench/move_statement.py [--seconds 10]
        [--database-url postgres://postgres@127.0.0.1:5432/kozel_bench_sql]
"""

from __future__ import annotations

import argparse
import copy
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

SLICE = 0.5  # seconds of one side before the other's turn


def fresh_database(url: str) -> None:
    import psycopg
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def started_match(names: str = "bench"):
    """A four-player match, dealt and being played, of four new accounts whose names
    begin with ``names``."""
    from accounts.models import User
    from games.play import service as services
    from games.models import Match

    users = [User.objects.create_user(f"{names}{n}", password=None) for n in range(4)]
    match = services.create_request(users[0], players=4, rated=False)
    for user in users[1:]:
        services.join_request(user, match.pk)
    return Match.objects.get(pk=match.pk)


class Side:
    """One way of sending the statement, and what it measured."""

    def __init__(self, name: str, send) -> None:
        self.name, self.send = name, send
        self.round_trips: list[float] = []
        self.cpu = 0.0

    def run_for(self, seconds: float, next_move) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            move = next_move()
            cpu, began = time.process_time(), time.perf_counter()
            assert self.send(*move), "the condition held"
            self.round_trips.append(time.perf_counter() - began)
            self.cpu += time.process_time() - cpu

    def report(self) -> dict:
        times = sorted(self.round_trips)
        count = len(times)
        return {"side": self.name, "statements": count,
                "p50_ms": 1000 * times[count // 2], "p95_ms": 1000 * times[int(count * 0.95)],
                "cpu_us": 1e6 * self.cpu / count}


def alternate(sides: list[Side], seconds: float, next_move) -> list[dict]:
    """Warm every side up, then run them in turn, a slice each, for ``seconds`` each;
    their reports."""
    for side in sides:  # the connection, the statement's text, the caches
        side.run_for(0.5, next_move)
        side.round_trips.clear()
        side.cpu = 0.0
    spent = 0.0
    while spent < seconds:
        for side in sides:
            side.run_for(SLICE, next_move)
        spent += SLICE
    return [side.report() for side in sides]


def arguments(doc: str):
    """``--seconds`` and ``--database-url``, the options of this bench and of those that
    share its setup (bench/meanwhile.py)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="per side")
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/kozel_bench_sql")
    return parser.parse_args()


def django_on_a_fresh_database(url: str) -> None:
    """The site's settings on ``url``'s database, made afresh and migrated."""
    fresh_database(url)
    os.environ.update(DJANGO_SETTINGS_MODULE="kozel_site.settings",
                      DATABASE_URL=url, DB_CONN_MAX_AGE="600")
    os.environ.pop("REDIS_URL", None)
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", "--noinput", verbosity=0)


def main() -> None:
    args = arguments(__doc__)
    django_on_a_fresh_database(args.database_url)
    from django.db import connection

    from games.play import store as movesql
    from games.models import Move, MoveKind

    match = started_match()
    fields = ("version", "state", "deadline")
    at = {"version": match.version}

    def next_move():
        """The match one version on, and its log's next entry (the same rules state each
        time: the statement's cost does not depend on which move it is)."""
        moved = copy.copy(match)
        version = at["version"]
        moved.version = at["version"] = version + 1
        move = Move(match=moved, number=moved.version, seat=1, kind=MoveKind.PLAY,
                    payload={"play": "3-5", "end": "left", "seat": 1})
        return moved, version, move

    def site(moved, version, move) -> bool:
        return movesql.save_moves_if_at(moved, fields, version, [move], nowait=True)

    def djangos_cursor(moved, version, move) -> bool:
        sql, values = movesql.moves_if_at_statement(moved, fields, version, [move], nowait=True)
        with connection.wrap_database_errors:
            cursor = connection.create_cursor()  # psycopg's ClientCursor: values in the text
            try:
                cursor.execute(sql, values)
                return cursor.rowcount == 1
            finally:
                cursor.close()

    reports = alternate([Side("site (server-side binding)", site),
                         Side("Django's cursor (client-side binding)", djangos_cursor)],
                        args.seconds, next_move)
    print(f"a move's statement on PostgreSQL, {args.seconds:g} s each, alternating")
    for r in reports:
        print(f"  {r['side']:40s} {r['statements']:6d} statements  round trip p50 "
              f"{r['p50_ms']:.3f} ms, p95 {r['p95_ms']:.3f} ms;  CPU here {r['cpu_us']:.0f} us")
    ours, baseline = reports
    print(f"  site / baseline: p50 {ours['p50_ms'] / baseline['p50_ms']:.2f}x, "
          f"CPU {ours['cpu_us'] / baseline['cpu_us']:.2f}x")
    connection.close()


if __name__ == "__main__":
    main()
