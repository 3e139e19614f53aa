"""Benchmark: the ladder and the player (history) pages on 100,000 players and 1,000,000
rating records, next to the bare indexed queries they are built on, in one run.

    .venv/bin/python bench/ladder.py [--db kozel_bench] [--players 100000]
                                     [--records 1000000] [--rebuild] [--runs 15]

The data lives in its own PostgreSQL database (``kozel_bench`` on 127.0.0.1:5432, user
postgres; created and migrated if missing, override with --url).  It is built once with
COPY -- users, players, four-player games over the last year with their seats and rating
records, then the period totals summed from the records in SQL -- and reused by later
runs while its size matches (``--rebuild`` builds it again).

Every page is fetched through Django's test client, so the figures include URL routing,
middleware, the ORM and template rendering; each line shows the median milliseconds of
``--runs`` fetches after two warm-up ones, and the number of queries the page made.
"Bare" lines time the one indexed SQL query a page rests on, run by itself.  Goal: under
50 ms a page, with the same number of queries whatever the page size.

Connections are kept between requests here (DB_CONN_MAX_AGE=600), as a production site
keeps them; a fresh connection per request would add its own few milliseconds to every
line alike.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="kozel_bench")
    parser.add_argument("--url", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--rebuild", action="store_true", help="build the data again")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=5)
    return parser.parse_args()


ARGS = parse_args()
os.environ["DATABASE_URL"] = ARGS.url.rstrip("/") + "/" + ARGS.db
os.environ.setdefault("DB_CONN_MAX_AGE", "600")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings")


def ensure_database():
    import psycopg

    with psycopg.connect(ARGS.url.rstrip("/") + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [ARGS.db]).fetchone():
            conn.execute(f'CREATE DATABASE "{ARGS.db}"')
            print(f"created database {ARGS.db}")


ensure_database()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from accounts.logins import login_key  # noqa: E402
from accounts.models import Player  # noqa: E402
from ratings.models import RatingRecord  # noqa: E402
from ratings.services import period_starts  # noqa: E402

SEATS = 4
HEAVY = 1            # user id of one very active player (thousands of games)
CLOSED_SHARE = 0.01  # closed accounts: on the data, off the ladder
TABLES = ["ratings_ratingtotal", "ratings_ratingrecord", "games_seat", "games_match",
          "accounts_player", "accounts_user"]


# -- building the data ---------------------------------------------------------------

def copy(cursor, table: str, columns: list[str], rows) -> int:
    count = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
        for row in rows:
            out.write_row(row)
            count += 1
    return count


def build(players: int, records: int, seed: int) -> None:
    rng = random.Random(seed)
    now = datetime.now(timezone.utc)
    year_ago = now - timedelta(days=365)
    games = records // SEATS
    started = time.perf_counter()
    print(f"building {players:,} players and {games * SEATS:,} rating records in {ARGS.db} ...")

    # Who plays how much: a long tail (most play a little, a few a lot), one heavy player.
    weights = [rng.paretovariate(1.2) for _ in range(players)]
    weights[HEAVY - 1] = sum(weights) * 0.004
    cumulative, total = [], 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    population = range(1, players + 1)

    rating = [0] * (players + 1)
    played = [0] * (players + 1)
    goats = [0] * (players + 1)
    last = [None] * (players + 1)
    matches, seats, rows = [], [], []
    step = (now - year_ago) / games
    for match_id in range(1, games + 1):
        ended = year_ago + step * match_id
        people = set()
        while len(people) < SEATS:
            people.update(rng.choices(population, cum_weights=cumulative, k=SEATS - len(people)))
        people = list(people)
        goat = rng.randrange(SEATS)
        points = [0 if s == goat else max(1, min(10, int(rng.gauss(5, 3)))) for s in range(SEATS)]
        matches.append((match_id, SEATS, "all", 30, True, False, f"bench{match_id}", "finished",
                        SEATS * 60, people[0], ended - timedelta(minutes=20),
                        ended - timedelta(minutes=20), ended,
                        '{"goats": [%d], "interrupted_by": null, "reason": null, '
                        '"scores": [0, 0, 0, 0], "rating_points": %s}' % (goat, points)))
        for number, person in enumerate(people):
            seats.append((match_id * SEATS + number, match_id, number, person, "", ended))
            rating[person] += points[number]
            played[person] += 1
            goats[person] += number == goat
            last[person] = ended
            rows.append((match_id * SEATS + number, match_id, person, points[number],
                         rating[person], number == goat, ended))
    print(f"  generated in {time.perf_counter() - started:.0f} s")

    closed = set(rng.sample(range(2, players + 1), int(players * CLOSED_SHARE)))
    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor
        cursor.execute(f"TRUNCATE {', '.join(TABLES)} CASCADE")
        names = {i: "heavy" if i == HEAVY else f"player{i}" for i in population}
        copy(cursor, "accounts_user",
             ["id", "password", "is_superuser", "username", "login_key", "first_name", "last_name",
              "email", "is_staff", "is_active", "date_joined"],
             ((i, "!", False, names[i], login_key(names[i]), "", "", "", False,
               i not in closed, year_ago - timedelta(days=1)) for i in population))
        copy(cursor, "accounts_player",
             ["id", "user_id", "rating", "games_played", "times_goat", "last_game_at", "active"],
             ((i, i, rating[i], played[i], goats[i], last[i], i not in closed) for i in population))
        copy(cursor, "games_match",
             ["id", "seats_count", "fish", "turn_seconds", "rated", "private", "invite_token",
              "status", "version", "created_by_id", "created_at", "started_at", "ended_at", "result"],
             matches)
        copy(cursor, "games_seat", ["id", "match_id", "number", "user_id", "bot_name", "joined_at"], seats)
        copy(cursor, "ratings_ratingrecord",
             ["id", "match_id", "player_id", "points", "rating_after", "goat", "created_at"], rows)
        # The period totals, summed from the records as ratings.services keeps them.
        for period in ("week", "month"):
            cursor.execute(f"""
                INSERT INTO ratings_ratingtotal (player_id, period, start, points, games, goats, active)
                SELECT r.player_id, '{period}',
                       date_trunc('{period}', r.created_at AT TIME ZONE %s)::date,
                       sum(r.points), count(*), sum(r.goat::int), p.active
                FROM ratings_ratingrecord r JOIN accounts_player p ON p.id = r.player_id
                GROUP BY r.player_id, 3, p.active""", [os.environ.get("TIME_ZONE", "Europe/Moscow")])
        for table in TABLES:
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT coalesce(max(id), 1) FROM {table}))")
    # Index-only scans need the visibility map; the statistics guide the planner.
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"  loaded in {time.perf_counter() - started:.0f} s")


def ensure_data() -> None:
    call_command("migrate", verbosity=0)
    if not ARGS.rebuild and Player.objects.count() == ARGS.players \
            and RatingRecord.objects.count() == ARGS.records // SEATS * SEATS:
        print(f"reusing the data in {ARGS.db} (--rebuild to build it again)")
        return
    build(ARGS.players, ARGS.records, ARGS.seed)


# -- measuring -------------------------------------------------------------------------

def timed(fetch, runs: int) -> tuple[float, int]:
    for _ in range(2):
        fetch()
    times, queries = [], 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            begin = time.perf_counter()
            fetch()
            times.append((time.perf_counter() - begin) * 1000)
        queries = len(captured)
    return statistics.median(times), queries


def page(client, url: str):
    def fetch():
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response
    return fetch


def bare(sql: str, params=()):
    def fetch():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()
    return fetch


def plan(sql: str, params=()) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        lines = [row[0].strip() for row in cursor.fetchall()]
    scans = [line.split("  (")[0].lstrip("-> ") for line in lines if " using " in line or "Scan" in line]
    return scans[0] if scans else lines[0]


def main() -> None:
    ensure_data()
    setup_test_environment()
    connection.force_debug_cursor = False
    client = Client()
    listed = Player.objects.filter(active=True, games_played__gt=0).count()
    (_, _week), (_, month) = period_starts(datetime.now(timezone.utc))
    in_month = Player.objects.filter(rating_totals__period="month", rating_totals__start=month,
                                     rating_totals__games__gt=0, active=True).count()
    typical = (Player.objects.filter(active=True, games_played__gt=0).order_by("-rating", "id")
               .values_list("user__username", "games_played")[listed // 2])
    heavy = Player.objects.filter(user_id=HEAVY).values_list("user__username", "games_played").get()
    heavy_id = HEAVY
    print(f"{listed:,} players on the ladder, {in_month:,} with games this month; "
          f"{RatingRecord.objects.count():,} rating records")
    print(f"typical player: {typical[0]} ({typical[1]} games); heavy player: {heavy[0]} ({heavy[1]} games)\n")

    last_page = (listed + 49) // 50
    month_last = (in_month + 49) // 50
    ladder_sql = ("SELECT id, rating FROM accounts_player WHERE active AND games_played > 0 "
                  "ORDER BY rating DESC, id LIMIT %s OFFSET %s")
    period_sql = ("SELECT player_id, points FROM ratings_ratingtotal WHERE period = %s AND start = %s "
                  "AND active AND games > 0 ORDER BY points DESC, player_id LIMIT %s OFFSET %s")
    history_sql = ("SELECT EXTRACT(EPOCH FROM created_at)::float8, rating_after FROM ratings_ratingrecord "
                   "WHERE player_id = %s ORDER BY created_at, id")
    naive_month = ("SELECT player_id, sum(points) s FROM ratings_ratingrecord WHERE created_at >= %s "
                   "GROUP BY player_id ORDER BY s DESC, player_id LIMIT 50")
    month_start = datetime.combine(month, datetime.min.time(), tzinfo=timezone.utc)

    lines = [
        ("ladder, all time, page 1 (50)", page(client, "/ratings/")),
        ("ladder, all time, page 1 (25)", page(client, "/ratings/?size=25")),
        ("ladder, all time, page 1 (100)", page(client, "/ratings/?size=100")),
        (f"ladder, all time, middle page {last_page // 2}", page(client, f"/ratings/?page={last_page // 2}")),
        (f"ladder, all time, last page {last_page} (50)", page(client, f"/ratings/?page={last_page}")),
        ("ladder, all time, last page (100)", page(client, f"/ratings/?page={(listed + 99) // 100}&size=100")),
        ("  bare: page 1 by the ladder index", bare(ladder_sql, [50, 0])),
        ("  bare: last page by the ladder index", bare(ladder_sql, [50, (last_page - 1) * 50])),
        ("  bare: count of the ladder", bare("SELECT count(*) FROM accounts_player WHERE active AND games_played > 0")),
        ("ladder, this month, page 1", page(client, "/ratings/?period=month")),
        (f"ladder, this month, last page {month_last}", page(client, f"/ratings/?period=month&page={month_last}")),
        ("ladder, this week, page 1", page(client, "/ratings/?period=week")),
        ("  bare: month page 1 by the totals index", bare(period_sql, ["month", month, 50, 0])),
        ("  bare: month last page by the totals index", bare(period_sql, ["month", month, 50, (month_last - 1) * 50])),
        ("  (for comparison: month summed from the records)", bare(naive_month, [month_start])),
        (f"ladder, find {typical[0]}", page(client, f"/ratings/?q={typical[0]}")),
        (f"player page, {typical[0]}", page(client, f"/players/{typical[0]}/")),
        (f"player page, {heavy[0]} (chart of {heavy[1]} records)", page(client, f"/players/{heavy[0]}/")),
        (f"player page, {heavy[0]}, last games page", page(client, f"/players/{heavy[0]}/?page={(heavy[1] + 19) // 20}")),
        ("  bare: heavy player's history by its index", bare(history_sql, [heavy_id])),
    ]
    print(f"{'page':58} {'ms':>8} {'queries':>8}")
    for label, fetch in lines:
        ms, queries = timed(fetch, ARGS.runs)
        shown = str(queries) if not label.startswith("  ") else ""
        print(f"{label:58} {ms:8.1f} {shown:>8}", flush=True)

    print("\nplans:")
    print("  ladder page:", plan(ladder_sql, [50, 0]))
    print("  month page: ", plan(period_sql, ["month", month, 50, 0]))
    print("  history:    ", plan(history_sql, [heavy_id]))


if __name__ == "__main__":
    main()
