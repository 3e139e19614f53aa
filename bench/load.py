"""Load benchmark: simulated players over real WebSockets against real daphne processes.

Starts the site itself (so a run is reproducible from one command), in either setup:

- ``--setup embedded``: one daphne process, SQLite (a fresh file), the in-memory channel
  layer, the turn clock inside the server;
- ``--setup scaled``: ``--servers`` daphne processes and ``--clocks`` ``manage.py clock``
  processes sharing PostgreSQL (a fresh ``kozel_bench`` database) and Redis (database
  ``--redis-db``, so the test suite's database 0 is left alone).  ``--database-url
  postgres://postgres@%2Fvar%2Frun%2Fpostgresql/kozel_bench`` reaches PostgreSQL through
  its Unix socket, as docs/operations.md advises for a database on the same host.

It creates ``4 * --games`` accounts, logs each in by writing a session straight into the
session store (the log-in form is throttled by django-axes), seats them at four-player
tables through ``games.play.service`` and connects every player to its game room, the seats
of one table spread over the servers (``--placement by-game`` puts them on one, as a proxy
routing by game would).  Each game then acts at ``--pace`` seconds per
action: the player whose turn it is picks one of the moves its own last frame offers
(exactly the buttons' ``hx-vals``, what htmx would send) and the round trip is the time
from sending it to receiving that player's updated view.  A finished game is replaced by
a new table for the same four players.  One table in every ``--pairs-every`` (4) plays
pairs (RULES.md 11); every table also writes a chat line every ``--chat-every`` seconds
(10) over the game socket, ``{"chat": "..."}``, from each of its players in turn, timed
apart from the moves: from sending the line until it comes back to its writer.

The baseline runs on the same servers: the same number of connections to the bare echo
consumer (``/ws/echo/``, served by bench/echo.py), at the same pace, timed
the same way.  Phases, in order:

  echo      the echo baseline at --pace           (--seconds)
  games     the games at --pace                   (--seconds, after --warmup)
  games+analyses  the same while the analyses of --analyses K finished games are made
  peak      every game acts as soon as it can     (--peak-seconds; 0 skips)
  echo-peak the echo connections as fast as they can (--peak-seconds)
  soak      the games at --pace, memory sampled   (--soak seconds; 0 skips)

Reports first two figures of the machine itself (a fixed piece of Python, the disk's
flush), then, per phase: actions, actions per second, round trip p50/p95/p99/max, errors by
kind, each server process's resident memory (start, end, peak) and CPU use; for the
games, also the round trips of plain actions apart from those whose answer announced what
the server did after them (knocks made for the next players, a round's end), and the
time from sending an action until every seat at its table has its view of it, and the
chat's lines, round trips and errors (counted apart from the actions').  An action
unanswered within --ack-timeout is an error ("timeout"); its table then waits, without
acting, up to --late-wait for the answer: one that comes is listed among the late
answers (seconds after sending); one that never does, or whose game was interrupted
meanwhile (the next player never saw the move and ran out of time), is also counted as
"lost".

    .venv/bin/python bench/load.py --setup embedded
    .venv/bin/python bench/load.py --setup scaled --servers 2 --clocks 1
    .venv/bin/python bench/load.py --setup embedded --soak 600 --seconds 0 --peak-seconds 0

Only ever talks to 127.0.0.1.  Never run by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DAPHNE = Path(sys.executable).with_name("daphne")
BENCH_SECRET = "bench-only-secret-key-" + "k" * 40  # DEBUG off, as a real deployment runs

ROOM = re.compile(r'<div id="room"[^>]*data-status="(\w+)"[^>]*data-turn-mine="(\w+)"'
                  r'[^>]*data-version="(\d+)"')
BUTTON = re.compile(r"<button[^>]*?(data-playable|data-end=\"\w+\"|data-action=\"draw\")"
                    r"[^>]*?hx-vals='([^']*)'")
NOTICE_ERROR = re.compile(r'<div id="room-notice" class="room-notice error"[^>]*>([^<]*)<')
# Why a chat line was refused, said beside the chat (templates/games/chat/_notice.html).
CHAT_NOTICE_ERROR = re.compile(r'<p id="chat-notice" class="chat-notice error"[^>]*>([^<]*)<')
# A chat line coming into a room (games/room/chat.py, templates/games/chat/new_line.html).
CHAT_LINE = re.compile(r'beforeend:#chat-lines.*?<span class="chat-text">([^<]*)<', re.S)
# The table of the frame that answers an action (games/room/html.py): a round no longer
# played, or the round's last move a knock (the server's: a player never sends one).
TABLE = re.compile(r'<div id="table"[^>]*>')


def followed(frame: str) -> bool:
    """Whether the answer to an action shows more than the action: knocks the server
    made for the next players, or the round's end."""
    table = TABLE.search(frame)
    return table is not None and ('data-phase="play"' not in table.group(0)
                                  or 'data-last="knock"' in table.group(0))


# -- the site under test ----------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def site_env(args, workdir: Path) -> dict[str, str]:
    """The environment of this process's Django and of every server process."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DEBUG")}
    env.update(SECRET_KEY=BENCH_SECRET, DJANGO_SETTINGS_MODULE="kozel_site.settings",
               KOZEL_ROUND_PAUSE=str(args.round_pause),
               LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
    if args.arena or args.bots:  # the seatings' cost, the masters' figures: INFO lines
        env["LOG_LEVEL"] = "INFO"
    if args.setup == "scaled":
        # Kept connections, as docs/operations.md advises for this setup (--env may override).
        env.update(DATABASE_URL=args.database_url, REDIS_URL=f"{args.redis_url}/{args.redis_db}",
                   KOZEL_CLOCK_IN_SERVER="0", DB_CONN_MAX_AGE="600")
    else:
        env.update(SQLITE_PATH=str(workdir / "bench.sqlite3"))
    if args.without:  # bench/tuning.py leaves these out of the servers' changes
        env["KOZEL_BENCH_WITHOUT"] = args.without
    for item in args.env:  # --env KEY=VALUE: what the servers should run with
        key, _, value = item.partition("=")
        env[key] = value
    return env


VACUUM_EVERY = 30.0  # seconds


def vacuum_if_autovacuum_is_off(url: str) -> None:
    """Every move rewrites its match's row: without vacuuming, the table of matches fills
    with dead rows, and in a few minutes the clock's sweep for due turns reads 20 MB for
    the 500 rows that are live (17 ms instead of 0.07).  PostgreSQL's autovacuum, on by
    default, keeps it small; where this machine has it off, the benchmark vacuums the
    matches itself as often as autovacuum would, so that a long run measures the site and
    not the build-up."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SHOW autovacuum").fetchone()[0] == "on":
            return

    def vacuum_now_and_then():
        with psycopg.connect(url, autocommit=True) as conn:
            while True:
                time.sleep(VACUUM_EVERY)
                conn.execute("VACUUM games_match")

    print(f"PostgreSQL's autovacuum is off here: the benchmark vacuums the matches every "
          f"{VACUUM_EVERY:.0f} s", flush=True)
    threading.Thread(target=vacuum_now_and_then, daemon=True).start()


def fresh_database(args, env: dict[str, str]) -> None:
    if args.setup == "scaled":
        import psycopg
        name = args.database_url.rsplit("/", 1)[1]
        admin = args.database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        import redis
        redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    if args.setup == "scaled":
        vacuum_if_autovacuum_is_off(args.database_url)
    subprocess.run(manage + ["collectstatic", "--noinput", "-v", "0"], env=env, cwd=ROOT,
                   check=True)


class Process:
    """A server or clock process, its log, and what /proc says about it."""

    def __init__(self, name: str, argv: list[str], env: dict, log: Path, port: int | None):
        self.name, self.port, self.log = name, port, log
        with open(log, "ab") as out:
            self.popen = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out,
                                          stderr=subprocess.STDOUT, start_new_session=True)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.popen.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


def start_site(args, env: dict, workdir: Path) -> tuple[list[Process], list[Process]]:
    servers, clocks = [], []
    count = args.servers if args.setup == "scaled" else 1
    for number in range(count):
        port = free_port()
        servers.append(Process(f"daphne-{number + 1}",
                               [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port),
                                "bench.tuning:application" if args.without
                                else "bench.echo:application"],  # the site and /ws/echo/
                               env, workdir / f"daphne-{port}.log", port))
    if args.setup == "scaled":
        for number in range(args.clocks):
            clocks.append(Process(f"clock-{number + 1}",
                                  [sys.executable, "manage.py", "clock"], env,
                                  workdir / f"clock-{number + 1}.log", None))
    for server in servers:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/rules/", timeout=2):
                    break
            except OSError:
                if server.popen.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"{server.name} did not start; see {workdir}")
                time.sleep(0.1)
    for process in servers + clocks:
        print(f"{process.name}: pid {process.popen.pid}"
              + (f", port {process.port}" if process.port else ""), flush=True)
    return servers, clocks


# -- how fast this machine is today ------------------------------------------------------

def machine_figures(workdir: Path) -> dict:
    """Two figures of the machine itself, taken before the site starts, so that runs of
    different sittings can be told apart from changes of the code (the same code's
    figures move by half and more between sittings on a shared machine): the time of
    a fixed piece of Python (JSON and strings, as the servers' work is; best of five), and
    the disk's flush (200 writes of the same 8 KB block of a file each followed by
    ``fdatasync``, as PostgreSQL's commit writes its log, and as ``pg_test_fsync``
    measures it), on the file system of ``workdir``."""
    def python_work() -> float:
        began = time.perf_counter()
        for i in range(20_000):
            text = json.dumps({"seat": i % 4, "tile": f"{i % 7}-{i % 6}", "version": i})
            json.loads(text)
        return time.perf_counter() - began

    python_ms = min(python_work() for _ in range(5)) * 1000
    flushes = []
    block = os.urandom(8192)
    probe = workdir / "flush-probe"
    with open(probe, "wb", buffering=0) as out:
        out.write(block)
        os.fsync(out.fileno())
        for _ in range(200):
            began = time.perf_counter()
            os.pwrite(out.fileno(), block, 0)
            os.fdatasync(out.fileno())
            flushes.append(time.perf_counter() - began)
    probe.unlink()
    flushes.sort()
    return {"python_ms": round(python_ms, 1),
            "flush_p50_ms": round(flushes[len(flushes) // 2] * 1000, 3),
            "flush_p95_ms": round(flushes[int(len(flushes) * 0.95)] * 1000, 3)}


# -- accounts, sessions and tables (this process's Django, the same database) ----------

def make_players(count: int) -> list[tuple[object, str]]:
    """``count`` accounts, each with a session of its own: (user, session cookie)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction

    from accounts.models import User

    players = []
    with transaction.atomic():
        for number in range(count):
            user = User(username=f"bench{number:05d}")
            user.set_unusable_password()  # nobody logs in with a password: see the session
            user.save()
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            players.append((user, f"sessionid={session.session_key}"))
    return players


def open_table(users, turn_seconds: int, pairs: bool = False) -> int:
    from games.lobby import service as requests
    match = requests.create_request(users[0], players=len(users), turn_seconds=turn_seconds,
                                    rated=False, pairs=pairs)
    for user in users[1:]:
        requests.join_request(user, match.pk)
    return match.pk


def open_bots_table(user, turn_seconds: int) -> int:
    """The bots' mode's table: one person and three masters (bots at the master level)."""
    from games.lobby import service as requests
    return requests.play_with_bots(user, 4, turn_seconds=turn_seconds, level="master").pk


def finished_games(count: int) -> list[int]:
    """--analyses: ``count`` whole 4-player games of seeded random players, played through
    the site's services as a browser would play them (each round dealt from its record),
    by four accounts of their own, before the servers (and their clock) start."""
    from django.utils import timezone

    from accounts.models import User
    from games import rules
    from games.models import Match, MatchStatus, Seat
    from games.play import service as services
    from games.rules.simulate import play_game

    users = [User.objects.create(username=f"analysed{n}") for n in range(4)]
    made = []
    for seed in range(count):
        record, _final = play_game(4, seed=seed)
        match = Match.objects.create(seats_count=4, fish=record.fish, rated=False,
                                     status=MatchStatus.PLAYING, started_at=timezone.now(),
                                     created_by=users[0])
        for number, user in enumerate(users[:4]):
            Seat.objects.create(match=match, number=number, user=user)
        for rnd in record.rounds:
            services.deal_round(match.pk, rnd.deal)
            for action in rnd.moves:
                if action.kind == rules.KNOCK:  # the services knock for a seat by themselves
                    continue
                match.refresh_from_db()
                services.act(match.pk, users[action.seat],
                             {k: v for k, v in action.to_json().items() if k != "seat"},
                             match.version)
        made.append(match.pk)
    return made


def ask_for_analyses(match_ids: list[int]) -> None:
    from games.models import Match
    from games.records import analysis
    for match in Match.objects.filter(pk__in=match_ids):
        analysis.request(match)


def analyses_figures(match_ids: list[int]) -> dict:
    """The analyses asked for in --analyses: how many were made, and how long each took."""
    from games.models import Analysis, AnalysisStatus
    made = Analysis.objects.filter(match_id__in=match_ids)
    took = sorted((a.finished_at - a.started_at).total_seconds() for a in made
                  if a.status == AnalysisStatus.DONE)
    return {"asked": len(match_ids), "made": len(took),
            "running": made.filter(status=AnalysisStatus.RUNNING).count(),
            "seconds_each": [round(t, 1) for t in took],
            "decisions": sum(a.total for a in made)}


# The servers' and clocks' INFO line on what their masters thought (games/play/thinking.py).
MASTERS_LOG = re.compile(r"bots: master moves=(\d+) playouts_per_move=([\d.]+) "
                         r"search_s_per_move=([\d.]+) waited_max_s=([\d.]+)")


def masters_figures(lines: list[str]) -> dict:
    """The masters' moves, playouts and search per move, and the longest a move waited
    for the pool, from the log lines of a phase."""
    moves = playouts = 0
    search = waited = 0.0
    for line in lines:
        found = MASTERS_LOG.search(line)
        if found:
            n = int(found[1])
            moves += n
            playouts += n * float(found[2])
            search += n * float(found[3])
            waited = max(waited, float(found[4]))
    return {"moves": moves, "playouts_per_move": round(playouts / moves) if moves else None,
            "search_s_per_move": round(search / moves, 3) if moves else None,
            "waited_max_s": round(waited, 3)}


# -- the players ------------------------------------------------------------------------

class Stats:
    def __init__(self, name: str) -> None:
        self.name = name
        self.rtts: list[float] = []
        # The round trips of actions whose answer also announced what the server did
        # after them: knocks made for the next players, a round's end.
        self.followed: list[float] = []
        # From sending an action until every seat at its table has the new version: what
        # the other players wait for (the mover's own round trip is ``rtts``).
        self.seen_by_all: list[float] = []
        self.errors: Counter = Counter()
        self.started = self.ended = 0.0
        self.finished_games = 0
        self.late: list[float] = []  # seconds until a timed-out action's answer came after all
        # The chat, apart: from sending a line until it comes back to its writer.
        self.chat_rtts: list[float] = []
        self.chat_errors: Counter = Counter()

    def summary(self) -> dict:
        rtts = sorted(self.rtts)
        seconds = max(self.ended - self.started, 1e-9)

        def pct(p, rtts=rtts):
            return round(rtts[min(len(rtts) - 1, int(p * len(rtts)))] * 1000, 2) if rtts else None

        followed = sorted(self.followed)
        seen = sorted(self.seen_by_all)
        plain = sorted(Counter(self.rtts) - Counter(self.followed))
        chat = sorted(self.chat_rtts)

        return {"phase": self.name, "seconds": round(seconds, 1), "actions": len(rtts),
                "actions_per_s": round(len(rtts) / seconds, 1),
                "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
                "max_ms": round(rtts[-1] * 1000, 2) if rtts else None,
                "mean_ms": round(statistics.fmean(rtts) * 1000, 2) if rtts else None,
                "followed": {"actions": len(followed), "p50_ms": pct(0.50, followed),
                             "p95_ms": pct(0.95, followed)},
                "plain": {"actions": len(plain), "p50_ms": pct(0.50, plain),
                          "p95_ms": pct(0.95, plain)},
                "seen_by_all": {"actions": len(seen), "p50_ms": pct(0.50, seen),
                                "p95_ms": pct(0.95, seen)},
                "errors": sum(self.errors.values()), "error_kinds": dict(self.errors),
                "late_answers_s": [round(x, 1) for x in sorted(self.late)],
                "games_finished": self.finished_games,
                "chat": {"lines": len(chat), "p50_ms": pct(0.50, chat), "p95_ms": pct(0.95, chat),
                         "max_ms": round(chat[-1] * 1000, 2) if chat else None,
                         "errors": sum(self.chat_errors.values()),
                         "error_kinds": dict(self.chat_errors)}}


class Connection:
    """One player's socket: reads every frame, keeps what its last room frame said."""

    # A game page beats once no view has come for this long (games/live/base.py), as
    # static/js/kozel.js does; 0: never (set from --beat-seconds).
    beat_seconds = 2.25
    beats_sent = 0  # by all the bench's pages
    connects_retried = 0  # handshakes the server closed, tried again

    def __init__(self, url: str, cookie: str, origin: str, game: "Table | None" = None):
        self.url, self.cookie, self.origin, self.game = url, cookie, origin, game
        self.ws = None
        self.reader = None
        self.beating = None
        self.last_view = time.perf_counter()  # when the last view (or beat's answer) came
        self.beat_waiting = False
        self.status, self.turn_mine, self.version = None, False, -1
        self.last_room = ""
        self.waiting: asyncio.Future | None = None
        self.wait_version = -1
        self.answer_followed = False  # the last answer announced what followed the action
        self.chat_waiting: dict[str, asyncio.Future] = {}  # a chat line's text -> its return
        self.closed_here = False  # the bench closed it (a game's end), not the server

    async def open(self):
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidMessage
        for attempt in range(3):
            try:
                self.ws = await connect(self.url, origin=self.origin, compression=None,
                                        additional_headers={"Cookie": self.cookie},
                                        max_size=2 ** 22, open_timeout=60, ping_interval=None)
                break
            except InvalidMessage:
                # daphne closed the handshake that the site did not accept within its
                # websocket_connect_timeout (5 s; 2,000 pages opening on a slow machine):
                # the page tries again, as static/js/kozel.js does.
                Connection.connects_retried += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(1 + random.random())
        self.reader = asyncio.ensure_future(self.read())
        if self.game is not None and self.beat_seconds:
            self.beating = asyncio.ensure_future(self.beat())

    async def beat(self):
        """The page's heartbeat, as static/js/kozel.js beats: the version it shows, once no
        view has come for ``beat_seconds`` and no beat awaits its answer (the answer, an
        empty frame, is passed by in ``on_frame``)."""
        tick = min(0.25, self.beat_seconds)
        await asyncio.sleep(random.uniform(0, tick))  # pages do not beat in step
        try:
            while True:
                quiet_for = time.perf_counter() - self.last_view
                if self.beat_waiting:
                    # No beat before its answer, and none until beat_seconds after it: a
                    # page's ticker finds nothing to do until then.
                    await asyncio.sleep(self.beat_seconds)
                elif quiet_for >= self.beat_seconds:
                    self.beat_waiting = True
                    Connection.beats_sent += 1
                    await self.ws.send(json.dumps({"beat": self.version if self.version >= 0 else None}))
                else:
                    # Asleep until the first of its ticks that finds it quiet: the page's
                    # ticker would wake 4 times a second for nothing, and 2,000 pages'
                    # wakeups take CPU the server under test needs on a two-core machine.
                    await asyncio.sleep(tick * math.ceil((self.beat_seconds - quiet_for) / tick))
        except Exception:
            pass

    async def close(self):
        self.closed_here = True
        if self.beating is not None:
            self.beating.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()

    async def read(self):
        try:
            async for frame in self.ws:
                self.on_frame(frame)
        except Exception:
            pass
        for waiting in [self.waiting, *self.chat_waiting.values()]:
            if waiting is not None and not waiting.done():
                waiting.set_result("closed")

    def on_frame(self, frame: str) -> None:
        now = time.perf_counter()
        self.beat_waiting = False  # any frame says the socket is alive
        if not frame:  # a heartbeat's answer
            self.last_view = now
            return
        if self.game is None:  # an echo connection
            if self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(now)
            return
        found = ROOM.search(frame, 0, 600)
        if found:
            self.last_view = now
            status, mine, version = found.groups()
            version = int(version)
            if version >= self.version:
                self.status, self.turn_mine, self.version = status, mine == "true", version
                self.last_room = frame
            self.game.seen(self, version, now)
            if self.waiting is not None and not self.waiting.done() \
                    and version > self.wait_version:
                self.answer_followed = followed(frame)
                self.waiting.set_result(now)
            self.game.changed.set()
            return
        line = CHAT_LINE.search(frame, 0, 2000)
        if line:
            waiting = self.chat_waiting.get(html.unescape(line.group(1)))
            if waiting is not None and not waiting.done():
                waiting.set_result(now)
            return
        chat_refused = CHAT_NOTICE_ERROR.search(frame)
        if chat_refused:
            reason = "refused: " + html.unescape(chat_refused.group(1))[:60]
            for waiting in self.chat_waiting.values():
                if not waiting.done():
                    waiting.set_result(reason)
            return
        refused = NOTICE_ERROR.search(frame)
        if not refused:
            return
        reason = "refused: " + html.unescape(refused.group(1))[:60]
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(reason)
        else:  # no move waits on this socket: the refusal is of its chat line
            for waiting in self.chat_waiting.values():
                if not waiting.done():
                    waiting.set_result(reason)

    def choices(self) -> list[dict]:
        """What the clickable buttons of the last room frame would send (tests/games/wsclient.py)."""
        out = []
        for kind, vals in BUTTON.findall(self.last_room):
            data = json.loads(html.unescape(vals))
            if kind == "data-playable" and "end" not in data and "play" in data \
                    and f'data-tile="{data["play"]}" data-playable data-choose-end' in self.last_room:
                continue  # this tile asks for an end: its data-end buttons carry the move
            out.append(data)
        return out

    async def round_trip(self, text: str, version: int, timeout: float):
        """Send ``text``; the seconds until a frame newer than ``version`` (or a refusal)."""
        self.waiting = asyncio.get_running_loop().create_future()
        self.wait_version = version
        sent = time.perf_counter()
        try:
            await self.ws.send(text)
            outcome = await asyncio.wait_for(self.waiting, timeout)
        except asyncio.TimeoutError:
            return "timeout"
        except Exception:
            return "closed"
        finally:
            self.waiting = None
        return outcome - sent if isinstance(outcome, float) else outcome


    async def chat_round_trip(self, text: str, timeout: float):
        """Send ``text`` as a chat line; the seconds until it comes back to this socket
        (or why not)."""
        waiting = self.chat_waiting[text] = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        try:
            await self.ws.send(json.dumps({"chat": text}))
            outcome = await asyncio.wait_for(waiting, timeout)
        except asyncio.TimeoutError:
            return "timeout"
        except Exception:
            return "closed"
        finally:
            self.chat_waiting.pop(text, None)
        return outcome - sent if isinstance(outcome, float) else outcome


class Table:
    """Four players at one game, acting at a pace; a finished game is followed by a new one.
    Every ``--pairs-every``-th table plays pairs; every table chats (``chat``)."""

    def __init__(self, bench: "Bench", players: list[tuple[object, str]], index: int):
        self.bench, self.players, self.index = bench, players, index
        self.changed = asyncio.Event()
        self.seats: list[Connection] = []
        self.match_id = None
        self.rng = random.Random(index)
        self.spreading = None  # (version acted on, time sent, seats yet to see it, stats)
        every = bench.args.pairs_every
        self.pairs = bool(every) and (index // 4) % every == 0
        self.lines = 0  # chat lines written

    async def sit_down(self, match_id: int | None = None):
        from asgiref.sync import sync_to_async
        if match_id is None:
            match_id = await sync_to_async(open_table)([u for u, _c in self.players],
                                                       self.bench.args.turn_seconds, self.pairs)
        self.match_id = match_id
        self.seats = [Connection(self.bench.url(n + self.index, f"/ws/games/{match_id}/"), cookie,
                                 self.bench.origin(n + self.index), self)
                      for n, (_user, cookie) in enumerate(self.players)]
        for seat in self.seats:
            async with self.bench.connecting:
                await seat.open()

    def mover(self) -> Connection | None:
        latest = max(s.version for s in self.seats)
        for seat in self.seats:
            if seat.turn_mine and seat.version == latest and seat.status == "playing":
                return seat
        return None

    def over(self) -> bool:
        return any(s.status in ("finished", "interrupted") for s in self.seats)

    def seen(self, seat: Connection, version: int, now: float) -> None:
        """``seat`` has a frame of ``version``: once every seat has one newer than the
        version the last action was sent on, the time since it was sent is kept."""
        if self.spreading is None:
            return
        before, sent, waiting, stats = self.spreading
        if version > before:
            waiting.discard(seat)
            if not waiting:
                self.spreading = None
                if stats.started <= asyncio.get_running_loop().time():
                    stats.seen_by_all.append(now - sent)

    async def play(self, stats_of, stop_at: float, pace: float):
        """Act once per ``pace`` seconds (0: as soon as the view allows) until ``stop_at``."""
        loop = asyncio.get_running_loop()
        next_tick = loop.time() + self.rng.uniform(0, pace)
        while loop.time() < stop_at:
            if pace:
                await asyncio.sleep(max(0.0, next_tick - loop.time()))
                next_tick = max(next_tick + pace, loop.time() - pace)
            while loop.time() < stop_at:
                if self.over():
                    stats = stats_of()
                    if any(s.status == "interrupted" for s in self.seats):
                        stats.errors["game interrupted"] += 1
                    stats.finished_games += 1
                    for seat in self.seats:
                        await seat.close()
                    if not await self.next_game():
                        return
                    continue
                mover = self.mover()
                if mover is not None and mover.choices():
                    break
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
            else:
                return
            message = dict(self.rng.choice(mover.choices()))
            self.spreading = (mover.version, time.perf_counter(), set(self.seats), stats_of())
            outcome = await mover.round_trip(json.dumps(message), mover.version,
                                             self.bench.args.ack_timeout)
            stats = stats_of()
            if isinstance(outcome, float):
                if stats.started <= loop.time():
                    stats.rtts.append(outcome)
                    if mover.answer_followed:
                        stats.followed.append(outcome)
            else:
                stats.errors[outcome] += 1
                if outcome == "timeout":
                    await self.lost_or_late(mover, stats)
                if outcome == "closed":
                    await asyncio.sleep(1)
                    for seat in self.seats:
                        await seat.close()
                    await self.sit_down(self.match_id)

    async def next_game(self) -> bool:
        """After a finished game: the same four sit down at a new table."""
        await self.sit_down()
        return True

    async def chat(self, stats_of, stop_at: float, every: float):
        """A chat line every ``every`` seconds, from each player in turn (one with no move
        in flight, so that a refusal on its socket is the line's): its round trip, or
        its error, counted apart from the moves'."""
        loop = asyncio.get_running_loop()
        next_at = loop.time() + self.rng.uniform(0, every)
        while True:
            await asyncio.sleep(max(0.0, min(next_at, stop_at) - loop.time()))
            if loop.time() >= stop_at:
                return
            next_at += every
            idle = [seat for seat in self.seats if seat.waiting is None and seat.ws is not None]
            if not idle:
                continue
            writer = idle[self.lines % len(idle)]
            self.lines += 1
            text = f"bench {self.index // 4}.{self.lines} хорошая игра"
            outcome = await writer.chat_round_trip(text, self.bench.args.ack_timeout)
            stats = stats_of()
            if isinstance(outcome, float):
                if stats.started <= loop.time():
                    stats.chat_rtts.append(outcome)
            elif not (outcome == "closed" and writer.closed_here):  # not the game's end
                stats.chat_errors[outcome] += 1

    async def lost_or_late(self, mover: Connection, stats: Stats) -> None:
        """After an action went unanswered for --ack-timeout: wait (up to --late-wait) for
        any seat to see a newer version without acting again, so that a late answer (kept
        in ``stats.late``) is told from a lost one (the error "lost"); then sit down again,
        as the page does by reconnecting (a connection gets its full view at once)."""
        loop = asyncio.get_running_loop()
        waited_from, before = loop.time(), mover.wait_version
        give_up = waited_from + self.bench.args.late_wait
        while max(s.version for s in self.seats) <= before and loop.time() < give_up:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
        # A game interrupted meanwhile is one whose next player never saw the move and ran
        # out of time: its answer was lost, and the newer version is the interruption's.
        interrupted = any(s.status == "interrupted" for s in self.seats)
        if max(s.version for s in self.seats) > before and not interrupted:
            stats.late.append(self.bench.args.ack_timeout + loop.time() - waited_from)
            return
        stats.errors["lost"] += 1
        for seat in self.seats:
            await seat.close()
        await self.sit_down(self.match_id)


class BotsTable(Table):
    """--bots: one person and three masters; the person acts at the pace when its turn
    comes, the masters when the clock plays them (their human-like delay, then a search
    in the clock's pool of worker processes)."""

    def __init__(self, bench: "Bench", player: tuple[object, str], index: int):
        super().__init__(bench, [player], index)
        self.pairs = False

    async def sit_down(self, match_id: int | None = None):
        from asgiref.sync import sync_to_async
        if match_id is None:
            match_id = await sync_to_async(open_bots_table)(self.players[0][0],
                                                            self.bench.args.turn_seconds)
        await super().sit_down(match_id)


class EchoGroup:
    """Four echo connections standing in for a table: one message per ``pace``, in turn."""

    def __init__(self, bench: "Bench", players, index: int):
        self.bench, self.players, self.index = bench, players, index
        self.conns: list[Connection] = []
        self.rng = random.Random(index)

    async def open(self):
        for n, (_user, cookie) in enumerate(self.players):
            conn = Connection(self.bench.url(n + self.index, "/ws/echo/"), cookie,
                              self.bench.origin(n + self.index))
            async with self.bench.connecting:
                await conn.open()
            self.conns.append(conn)

    async def play(self, stats_of, stop_at: float, pace: float):
        loop = asyncio.get_running_loop()
        next_tick = loop.time() + self.rng.uniform(0, pace)
        turn = 0
        # About the size of a move message ({"play": "1-2", "end": "left", "version": 7}).
        while loop.time() < stop_at:
            if pace:
                await asyncio.sleep(max(0.0, next_tick - loop.time()))
                next_tick = max(next_tick + pace, loop.time() - pace)
            conn = self.conns[turn % len(self.conns)]
            turn += 1
            text = json.dumps({"play": "1-2", "end": "left", "version": turn})
            outcome = await conn.round_trip(text, 0, self.bench.args.ack_timeout)
            stats = stats_of()
            if isinstance(outcome, float):
                stats.rtts.append(outcome)
            else:
                stats.errors[outcome] += 1
                if outcome == "closed":
                    await asyncio.sleep(1)
                    await conn.close()
                    async with self.bench.connecting:
                        await conn.open()

    async def close(self):
        for conn in self.conns:
            await conn.close()


# -- arena mode (--arena): players joining one arena, seated by the server ---------------

ARENA_VERSION = re.compile(r'data-shown-version="(\d+)"')
ARENA_SEATED = re.compile(r'data-arena-seat="(\d+)" data-state="seated"')
ARENA_REDIRECT = re.compile(r'data-redirect="/games/(\d+)/"')


def open_arena(user, players: int, table: int, turn_seconds: int, minutes: int) -> int:
    """A running, unrated, open arena of ``table``-seat tables (games/arena/service.py)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.arena import service
    now = timezone.now()
    arena = service.create(user, name=f"bench arena of {players}", starts_at=now,
                           ends_at=now + timedelta(minutes=minutes), seats_count=table,
                           pairs=False, fish="all", turn_seconds=turn_seconds, rated=False,
                           private=False)
    return arena.pk


def join_arena(arena_id: int, user) -> None:
    from games.arena import service
    from games.models import Arena
    service.join(Arena.objects.get(pk=arena_id), user)


class ArenaSocket(Connection):
    """An arena page's socket (games/arena/consumer.py): the versions of the arena it was
    shown and when; an entrant's page also gives its client seed once seated and hears
    where its game is."""

    def __init__(self, url: str, cookie: str, origin: str):
        super().__init__(url, cookie, origin)
        self.shown: list[tuple[float, int]] = []  # (when, arena version) of every view
        self.seeded: set[int] = set()
        self.seated_at: float | None = None
        self.redirect: asyncio.Future = asyncio.get_running_loop().create_future()

    async def open(self):
        await super().open()
        if self.beat_seconds:  # an arena page beats as a game page does
            self.beating = asyncio.ensure_future(self.beat())

    def on_frame(self, frame: str) -> None:
        now = time.perf_counter()
        self.beat_waiting = False
        if not frame:
            self.last_view = now
            return
        found = ARENA_VERSION.search(frame)
        if found:
            self.last_view = now
            self.version = max(self.version, int(found.group(1)))
            self.shown.append((now, int(found.group(1))))
        seated = ARENA_SEATED.search(frame)
        if seated and int(seated.group(1)) not in self.seeded:
            table = int(seated.group(1))
            self.seeded.add(table)
            self.seated_at = self.seated_at or now
            asyncio.ensure_future(self.ws.send(json.dumps(
                {"seed": f"bench-{random.getrandbits(64):016x}", "table": table})))
        going = ARENA_REDIRECT.search(frame)
        if going and not self.redirect.done():
            self.redirect.set_result(int(going.group(1)))


class ArenaTable(Table):
    """A table the arena seated: the entrants the server put at ``match_id`` play its
    game at the pace, and go back to the arena when it ends."""

    def __init__(self, bench: "Bench", match_id: int, size: int):
        super().__init__(bench, [], match_id)
        self.pairs = False
        self.match_id, self.size = match_id, size
        self.entrants: list["ArenaEntrant"] = []
        self.ended = asyncio.Event()
        self.ended_at = 0.0

    def arrive(self, entrant: "ArenaEntrant", stats_of, stop_at: float, pace: float) -> None:
        self.entrants.append(entrant)
        if len(self.entrants) == self.size:
            self.players = [e.player for e in self.entrants]
            asyncio.ensure_future(self.run(stats_of, stop_at, pace))

    async def run(self, stats_of, stop_at: float, pace: float) -> None:
        try:
            await self.sit_down(self.match_id)
            await self.play(stats_of, stop_at, pace)
        finally:
            for seat in self.seats:
                await seat.close()
            self.ended_at = time.perf_counter()
            self.bench.arena_game_ends.append(self.ended_at)
            self.ended.set()

    async def next_game(self) -> bool:
        return False  # the arena seats its players again


class ArenaEntrant:
    """One player of the arena: joins, waits on the arena's page until seated (giving its
    client seed when shown the table's commitment), goes to the game when it starts, plays
    it, and comes back to the arena's page."""

    def __init__(self, bench: "Bench", player, n: int, arena_id: int):
        self.bench, self.player, self.n, self.arena_id = bench, player, n, arena_id

    async def play(self, stats_of, stop_at: float, pace: float):
        from asgiref.sync import sync_to_async
        loop = asyncio.get_running_loop()
        user, cookie = self.player
        await sync_to_async(join_arena)(self.arena_id, user)
        waiting_since = time.perf_counter()
        figures = self.bench.arena
        while loop.time() < stop_at:
            page = ArenaSocket(self.bench.url(self.n, f"/ws/arenas/{self.arena_id}/"), cookie,
                               self.bench.origin(self.n))
            async with self.bench.connecting:
                await page.open()
            try:
                match_id = await asyncio.wait_for(asyncio.shield(page.redirect),
                                                  max(0.0, stop_at - loop.time()))
            except asyncio.TimeoutError:
                match_id = None
            finally:
                await page.close()
            if match_id is None:
                return
            now = time.perf_counter()
            if page.seated_at is not None:
                figures["seated_s"].append(page.seated_at - waiting_since)
            figures["started_s"].append(now - waiting_since)
            table = self.bench.arena_table(match_id)
            table.arrive(self, stats_of, stop_at, pace)
            try:  # a table whose seats did not all come is the benchmark's error
                await asyncio.wait_for(table.ended.wait(), max(1.0, stop_at - loop.time()) + 60)
            except asyncio.TimeoutError:
                stats_of().errors["arena table never filled"] += 1
                return
            waiting_since = table.ended_at


def arena_figures(bench: "Bench") -> dict:
    """What the arena mode measured: waiting to seated and to the game's start (per
    entrant and game), the server's seatings (from its log), and how fast a change of the
    arena reached every watching page."""
    def pct(values: list[float], p: float, scale: float = 1000.0):
        values = sorted(values)
        return round(values[min(len(values) - 1, int(p * len(values)))] * scale, 1) \
            if values else None

    figures = bench.arena
    # Seatings, as the servers logged them (games/arena/seating.py).
    seatings = []
    for process in bench.servers + bench.clocks:
        for line in process.log.read_text(errors="replace").splitlines():
            found = SEATING_LOG.search(line)
            if found:
                seatings.append((int(found.group(1)), int(found.group(2)), float(found.group(3))))
    per_table = [ms / tables for tables, _waiting, ms in seatings]
    # A version of the arena reached every watching page: from its first page to its last.
    watchers = bench.watchers
    spread, end_to_all = [], []
    if watchers:
        top = min(max((v for _t, v in w.shown), default=0) for w in watchers)
        first_at: dict[int, list[float]] = {}
        for w in watchers:
            reached = -1
            for when, version in w.shown:
                while reached < version:
                    reached += 1
                    first_at.setdefault(reached, []).append(when)
        for version, times in first_at.items():
            if version <= top and len(times) == len(watchers) and version > 0:
                spread.append(max(times) - min(times))
        # A game's end to a newer arena version on every watching page.
        for ended in bench.arena_game_ends:
            latest = []
            for w in watchers:
                before = max((v for t, v in w.shown if t <= ended), default=-1)
                after = next((t for t, v in w.shown if t > ended and v > before), None)
                latest.append(after)
            if all(t is not None for t in latest):
                end_to_all.append(max(latest) - ended)
    return {
        "seated_s": {"count": len(figures["seated_s"]), "p50": pct(figures["seated_s"], .5, 1),
                     "p95": pct(figures["seated_s"], .95, 1),
                     "max": round(max(figures["seated_s"]), 1) if figures["seated_s"] else None},
        "started_s": {"count": len(figures["started_s"]), "p50": pct(figures["started_s"], .5, 1),
                      "p95": pct(figures["started_s"], .95, 1),
                      "max": round(max(figures["started_s"]), 1) if figures["started_s"] else None},
        "seatings": {"count": len(seatings), "tables": sum(t for t, _w, _m in seatings),
                     "ms_per_table_p50": pct(per_table, .5, 1),
                     "ms_per_table_max": round(max(per_table), 1) if per_table else None,
                     "ms_per_seating_max": round(max(m for _t, _w, m in seatings), 1)
                     if seatings else None,
                     "largest": max(((t, m) for t, _w, m in seatings), default=None)},
        "watchers": len(watchers),
        "version_to_every_watcher_ms": {"versions": len(spread), "p50": pct(spread, .5),
                                        "p95": pct(spread, .95)},
        "game_end_to_every_watcher_ms": {"games": len(end_to_all), "p50": pct(end_to_all, .5),
                                         "p95": pct(end_to_all, .95)},
    }


SEATING_LOG = re.compile(r"arena \d+: (\d+) table\(s\) seated from (\d+) waiting in ([\d.]+) ms")


class Bench:
    def __init__(self, args, servers: list[Process], clocks: list[Process], players):
        self.args, self.servers, self.clocks, self.players = args, servers, clocks, players
        self.connecting = asyncio.Semaphore(args.connect_concurrency)
        self.report: list[dict] = []
        # The arena mode's: its figures, watching pages, tables and games' ends.
        self.arena: dict[str, list[float]] = {"seated_s": [], "started_s": []}
        self.watchers: list[ArenaSocket] = []
        self.arena_tables: dict[int, ArenaTable] = {}
        self.arena_game_ends: list[float] = []

    def server(self, n: int) -> Process:
        """The server of connection ``n`` (player ``n % 4`` of table ``n // 4``): with
        ``--placement spread`` a table's seats go to different servers, with ``by-game``
        (what a proxy hashing the game's URL does, docs/operations.md) all to one."""
        index = n // 4 if self.args.placement == "by-game" else n
        return self.servers[index % len(self.servers)]

    def url(self, n: int, path: str) -> str:
        return f"ws://127.0.0.1:{self.server(n).port}{path}"

    def origin(self, n: int) -> str:
        return f"http://127.0.0.1:{self.server(n).port}"

    def groups(self):
        return [self.players[i:i + 4] for i in range(0, len(self.players), 4)]

    async def phase(self, name: str, actors, seconds: float, pace: float,
                    warmup: float = 0.0, sample_every: float = 0.0) -> dict:
        loop = asyncio.get_running_loop()
        stats = Stats(name)
        processes = self.servers + self.clocks
        start_at = loop.time() + warmup
        stats.started = start_at
        stop_at = start_at + seconds
        jobs = [asyncio.ensure_future(a.play(lambda: stats, stop_at, pace)) for a in actors]
        if self.args.chat_every:  # the tables' chat, beside their moves
            jobs += [asyncio.ensure_future(a.chat(lambda: stats, stop_at, self.args.chat_every))
                     for a in actors if isinstance(a, Table)]
        if warmup:
            await asyncio.sleep(warmup)
        stats.rtts.clear()
        stats.followed.clear()
        stats.seen_by_all.clear()
        stats.errors.clear()
        stats.late.clear()
        stats.chat_rtts.clear()
        stats.chat_errors.clear()
        stats.finished_games = 0
        rss_start = {p.name: p.rss_mb() for p in processes}
        cpu_start = {p.name: p.cpu_seconds() for p in processes}
        client_cpu = sum(os.times()[:2])
        beats_before = Connection.beats_sent
        rss_peak = dict(rss_start)
        samples = []
        while loop.time() < stop_at:
            await asyncio.sleep(min(sample_every or 2.0, max(0.0, stop_at - loop.time())))
            now = {p.name: p.rss_mb() for p in processes}
            rss_peak = {k: max(rss_peak[k], now[k]) for k in now}
            if sample_every:
                # The round trips since the last sample: whether the site slows with time.
                since = sorted(stats.rtts[samples[-1]["actions"] if samples else 0:])
                p95 = since[int(len(since) * 0.95)] * 1000 if since else None
                samples.append({"t": round(loop.time() - start_at), "rss_mb": {
                    k: round(v, 1) for k, v in now.items()}, "actions": len(stats.rtts),
                    "p95_ms": round(p95, 2) if p95 is not None else None})
                print(f"  {name} t={samples[-1]['t']:>4}s actions={len(stats.rtts)} "
                      f"p95={samples[-1]['p95_ms']} ms rss={samples[-1]['rss_mb']}", flush=True)
        stats.ended = loop.time()
        summary = stats.summary()
        for job in jobs:  # an action in flight at the end is let finish, then the job ends
            await job
        after = stats.summary()  # answers waited for after the end are known only now
        summary.update({k: after[k] for k in ("errors", "error_kinds", "late_answers_s")})
        summary["chat"].update({k: after["chat"][k] for k in ("errors", "error_kinds")})
        summary["rss_mb"] = {p.name: {"start": round(rss_start[p.name], 1),
                                      "end": round(p.rss_mb(), 1),
                                      "peak": round(rss_peak[p.name], 1)} for p in processes}
        summary["cpu_percent"] = {p.name: round(100 * (p.cpu_seconds() - cpu_start[p.name])
                                                / summary["seconds"]) for p in processes}
        summary["cpu_percent"]["bench client"] = round(
            100 * (sum(os.times()[:2]) - client_cpu) / summary["seconds"])
        summary["beats_per_s"] = round((Connection.beats_sent - beats_before) / summary["seconds"], 1)
        if samples:
            summary["samples"] = samples
        self.report.append(summary)
        print(format_phase(summary), flush=True)
        return summary

    def arena_table(self, match_id: int) -> ArenaTable:
        if match_id not in self.arena_tables:
            self.arena_tables[match_id] = ArenaTable(self, match_id, self.args.arena_table)
        return self.arena_tables[match_id]

    async def run_arena(self):
        """--arena: its entrants join one arena and play the games it seats them at, at
        the pace, while --arena-watchers pages watch it."""
        from asgiref.sync import sync_to_async
        args = self.args
        entrants, watching = self.players[:args.arena], self.players[args.arena:]
        minutes = max(20, int(args.seconds // 60) + 10)
        arena_id = await sync_to_async(open_arena)(entrants[0][0], args.arena, args.arena_table,
                                                   args.turn_seconds, minutes)
        path = f"/ws/arenas/{arena_id}/"
        began = time.perf_counter()
        for n, (_user, cookie) in enumerate(watching):
            page = ArenaSocket(self.url(n, path), cookie, self.origin(n))
            async with self.connecting:
                await page.open()
            self.watchers.append(page)
        print(f"{len(self.watchers)} pages watching arena {arena_id}, open in "
              f"{time.perf_counter() - began:.1f} s; {len(entrants)} players join it now",
              flush=True)
        summary = await self.phase("arena", [ArenaEntrant(self, player, n, arena_id)
                                             for n, player in enumerate(entrants)],
                                   args.seconds, args.pace)
        summary["arena"] = arena_figures(self)
        print("    arena: " + json.dumps(summary["arena"]), flush=True)
        for page in self.watchers:
            await page.close()

    def log_sizes(self) -> dict:
        return {p.log: p.log.stat().st_size for p in self.servers + self.clocks}

    def log_lines_since(self, sizes: dict) -> list[str]:
        lines = []
        for log, size in sizes.items():
            with open(log, "rb") as text:
                text.seek(size)
                lines += text.read().decode("utf-8", "replace").splitlines()
        return lines

    async def run_bots(self):
        """--bots N,M,...: phases of N, then M, ... tables of one person and three masters
        (tables are added, none closed), each --seconds long at --pace: the people's round
        trips, and what the masters thought (their playouts per move fall as tables are
        added; the pool's answer never waits long)."""
        args = self.args
        args.chat_every = 0  # the people's moves alone
        tables: list[BotsTable] = []
        for count in sorted(int(n) for n in args.bots.split(",")):
            new = [BotsTable(self, self.players[i], i) for i in range(len(tables), count)]
            began = time.perf_counter()
            await asyncio.gather(*(t.sit_down() for t in new))
            tables += new
            print(f"{len(tables)} bots' tables (one person and three masters each), "
                  f"{len(new)} new ones seated in {time.perf_counter() - began:.1f} s", flush=True)
            sizes = self.log_sizes()
            summary = await self.phase(f"bots-{count}", tables, args.seconds, args.pace,
                                       warmup=args.warmup)
            summary["tables"] = count
            summary["masters"] = masters_figures(self.log_lines_since(sizes))
            print("    masters: " + json.dumps(summary["masters"]), flush=True)
        for table in tables:
            for seat in table.seats:
                await seat.close()

    async def run_analyses(self, tables):
        """--analyses K: the paced games again while the clock's workers make the
        analyses of K finished games, asked for as the phase starts (side by side with
        the "games" phase before it)."""
        from asgiref.sync import sync_to_async
        args, games = self.args, self.analysed
        await sync_to_async(ask_for_analyses)(games)
        summary = await self.phase("games+analyses", tables, args.seconds, args.pace)
        summary["analyses"] = await sync_to_async(analyses_figures)(games)
        print("    analyses: " + json.dumps(summary["analyses"]), flush=True)

    async def run(self):
        args = self.args
        if args.arena:
            await self.run_arena()
            return
        if args.bots:
            await self.run_bots()
            return
        if (args.seconds or args.peak_seconds) and not args.no_echo:
            echo = [EchoGroup(self, group, i * 4) for i, group in enumerate(self.groups())]
            began = time.perf_counter()
            await asyncio.gather(*(g.open() for g in echo))
            print(f"{len(echo) * 4} echo connections open in {time.perf_counter() - began:.1f} s",
                  flush=True)
            if args.seconds:
                await self.phase("echo", echo, args.seconds, args.pace)
            if args.peak_seconds:
                await self.phase("echo-peak", echo, args.peak_seconds, 0.0)
            await asyncio.gather(*(g.close() for g in echo))

        tables = [Table(self, group, i * 4) for i, group in enumerate(self.groups())]
        began = time.perf_counter()
        await asyncio.gather(*(t.sit_down() for t in tables))
        print(f"{len(tables)} tables ({sum(t.pairs for t in tables)} playing pairs), "
              f"{len(tables) * 4} players connected in {time.perf_counter() - began:.1f} s"
              + (f" ({Connection.connects_retried} handshakes tried again)"
                 if Connection.connects_retried else ""),
              flush=True)
        if args.seconds:
            await self.phase("games", tables, args.seconds, args.pace, warmup=args.warmup)
        if args.analyses:
            await self.run_analyses(tables)
        if args.peak_seconds:
            await self.phase("peak", tables, args.peak_seconds, 0.0, warmup=2.0)
        if args.soak:
            await self.phase("soak", tables, args.soak, args.pace, warmup=args.warmup,
                             sample_every=args.sample_every)
        for table in tables:
            for seat in table.seats:
                await seat.close()


# The goals of the load (docs/performance.md, "The goals").
GOAL_GAMES = 250          # four-player games at once, paced at one action per 2 s each
GOAL_P95_MS = 50.0
GOAL_PEAK_PER_S = 500.0
GOAL_ECHO_TIMES = 5.0     # the paced games' p95 against the echo baseline's
GOAL_FLAT_MB_PER_MIN = 0.5
GOAL_ARENA_SEATED_S = 10.0   # RULES.md 12: a table within 10 s of enough players waiting
GOAL_ARENA_SEATING_MS = 100.0
GOAL_BOT_LATE_S = 1.0        # a master's move within its human-like delay plus this


def goal_lines(phases: list[dict], games_at_once: int, pace: float) -> list[str]:
    """What this run says of each goal it measured (the paced goal counts only with at
    least GOAL_GAMES games at a pace of 2 s or faster)."""
    by_name = {p["phase"]: p for p in phases}
    games, peak, echo = by_name.get("games"), by_name.get("peak"), by_name.get("echo")
    soak = by_name.get("soak")
    lines = []

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    full_load = games_at_once >= GOAL_GAMES and pace <= 2.0
    for phase in (p for p in (games, soak) if p and p["p95_ms"] is not None):
        # The chat's errors are errors too; its round trips are told apart, not judged.
        chat = phase["chat"]
        ok = phase["p95_ms"] < GOAL_P95_MS and not phase["errors"] and not chat["errors"]
        lines.append(f"{phase['phase']} ({games_at_once} games, one action per {pace:g} s "
                     f"each, and the chat): p95 {phase['p95_ms']} ms (goal < {GOAL_P95_MS:g}), "
                     f"errors {phase['errors']}, chat errors {chat['errors']} of {chat['lines']} "
                     f"lines: " + (verdict(ok) if full_load else
                                   f"not judged (the goal is {GOAL_GAMES} games)"))
    if peak:
        lines.append(f"peak: {peak['actions_per_s']} actions/s (goal >= {GOAL_PEAK_PER_S:g}): "
                     f"{verdict(peak['actions_per_s'] >= GOAL_PEAK_PER_S)}")
    if games and echo and games["p95_ms"] and echo["p95_ms"]:
        times = games["p95_ms"] / echo["p95_ms"]
        lines.append(f"games p95 {games['p95_ms']} ms = {times:.1f}x the echo's "
                     f"{echo['p95_ms']} ms (goal <= {GOAL_ECHO_TIMES:g}x): "
                     f"{verdict(times <= GOAL_ECHO_TIMES)}")
    arena = by_name.get("arena")
    if arena and arena.get("arena"):
        a = arena["arena"]
        ok = arena["p95_ms"] is not None and arena["p95_ms"] < GOAL_P95_MS and not arena["errors"]
        lines.append(f"arena games (one action per {pace:g} s per table, {a['watchers']} pages "
                     f"watching): p95 {arena['p95_ms']} ms (goal < {GOAL_P95_MS:g}), errors "
                     f"{arena['errors']}: {verdict(ok)}")
        seated = a["seated_s"]
        lines.append(f"arena: waiting to seated, {seated['count']} times: p95 {seated['p95']} s, "
                     f"max {seated['max']} s (goal <= {GOAL_ARENA_SEATED_S:g} s): "
                     f"{verdict(seated['max'] is not None and seated['max'] <= GOAL_ARENA_SEATED_S)}")
        cost = a["seatings"]
        lines.append(f"arena: a table's seating costs the server {cost['ms_per_table_p50']} ms "
                     f"(p50), {cost['ms_per_table_max']} ms at most, over {cost['tables']} tables "
                     f"in {cost['count']} seatings (goal < {GOAL_ARENA_SEATING_MS:g} ms): "
                     f"{verdict(cost['ms_per_table_max'] is not None and cost['ms_per_table_max'] < GOAL_ARENA_SEATING_MS)}")
    samples = (soak or {}).get("samples", [])
    if len(samples) >= 4:  # the second half of the soak, after the games' first minutes
        first, last = samples[len(samples) // 2], samples[-1]
        minutes = max((last["t"] - first["t"]) / 60, 1e-9)
        for name, mb in last["rss_mb"].items():
            rate = (mb - first["rss_mb"][name]) / minutes
            lines.append(f"soak memory, {name}: {rate:+.2f} MB/min over the second half "
                         f"(goal within ±{GOAL_FLAT_MB_PER_MIN:g}): "
                         f"{verdict(abs(rate) <= GOAL_FLAT_MB_PER_MIN)}")
    return lines


def bots_goal_lines(phases: list[dict]) -> list[str]:
    """The bots' mode (issue 41): the people's p95 under GOAL_P95_MS with masters thinking
    at every table, and every master's move within its delay plus GOAL_BOT_LATE_S (the
    longest wait for the pool's answer, plus the clock's sweep, stands for that)."""
    lines = []
    for phase in (p for p in phases if "masters" in p):
        m = phase["masters"]
        ok = phase["p95_ms"] is not None and phase["p95_ms"] < GOAL_P95_MS and not phase["errors"]
        lines.append(f"{phase['phase']} ({phase['tables']} tables of one person and three "
                     f"masters): people's p95 {phase['p95_ms']} ms (goal < {GOAL_P95_MS:g}), "
                     f"errors {phase['errors']}: {'met' if ok else 'NOT met'}; masters "
                     f"{m['moves']} moves, {m['playouts_per_move']} playouts and "
                     f"{m['search_s_per_move']} s per move, longest wait for the pool "
                     f"{m['waited_max_s']} s (goal < {GOAL_BOT_LATE_S:g} s): "
                     f"{'met' if m['waited_max_s'] < GOAL_BOT_LATE_S else 'NOT met'}")
    return lines


def format_phase(s: dict) -> str:
    rss = ", ".join(f"{k} {v['start']:.0f}→{v['end']:.0f} (peak {v['peak']:.0f}) MB"
                    for k, v in s["rss_mb"].items())
    cpu = ", ".join(f"{k} {v}%" for k, v in s["cpu_percent"].items())
    return (f"[{s['phase']}] {s['actions']} actions in {s['seconds']} s = {s['actions_per_s']}/s; "
            f"round trip p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, p99 {s['p99_ms']} ms, "
            f"max {s['max_ms']} ms; errors {s['errors']} {s['error_kinds'] or ''}; "
            f"{'late answers (s) ' + str(s['late_answers_s']) + '; ' if s['late_answers_s'] else ''}"
            f"games finished {s['games_finished']}{_split(s)}\n    memory: {rss}\n    cpu: {cpu}; "
            f"the pages' beats {s.get('beats_per_s', 0)}/s")


def _split(s: dict) -> str:
    """The game actions' round trips, plain and with what followed them (knocks made
    for the next players, a round's end: a few in a hundred), and how long the whole
    table took to see them."""
    followed, plain = s.get("followed") or {}, s.get("plain") or {}
    seen, chat = s.get("seen_by_all") or {}, s.get("chat") or {}
    if not seen.get("actions"):  # an echo phase: no tables
        return ""
    return (f"\n    plain {plain['actions']}: p50 {plain['p50_ms']} ms, p95 {plain['p95_ms']} ms; "
            f"followed by knocks made or a round's end {followed['actions']}: "
            f"p50 {followed['p50_ms']} ms, p95 {followed['p95_ms']} ms"
            f"\n    seen by every seat at the table: p50 {seen['p50_ms']} ms, "
            f"p95 {seen['p95_ms']} ms"
            f"\n    chat: {chat['lines']} lines back to their writers, p50 {chat['p50_ms']} ms, "
            f"p95 {chat['p95_ms']} ms, max {chat['max_ms']} ms; errors {chat['errors']} "
            f"{chat['error_kinds'] or ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("embedded", "scaled"), default="embedded")
    parser.add_argument("--games", type=int, default=250, help="four-player tables at once")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a game's actions")
    parser.add_argument("--seconds", type=float, default=60, help="length of the paced phases")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--peak-seconds", type=float, default=30)
    parser.add_argument("--soak", type=float, default=0, help="a long paced phase (seconds)")
    parser.add_argument("--sample-every", type=float, default=30)
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (scaled)")
    parser.add_argument("--placement", choices=("spread", "by-game"), default="spread",
                        help="a table's seats over the servers, or all on one (scaled)")
    parser.add_argument("--clocks", type=int, default=1, help="manage.py clock processes (scaled)")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/kozel_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=3)
    parser.add_argument("--round-pause", type=float, default=1.0,
                        help="KOZEL_ROUND_PAUSE of the servers (seconds)")
    parser.add_argument("--turn-seconds", type=int, default=60)
    parser.add_argument("--pairs-every", type=int, default=4,
                        help="one table in this many plays pairs (0: none)")
    parser.add_argument("--chat-every", type=float, default=10.0,
                        help="seconds between a table's chat lines (0: no chat)")
    parser.add_argument("--ack-timeout", type=float, default=10.0)
    parser.add_argument("--late-wait", type=float, default=60.0,
                        help="after a timeout, how long to wait for a late answer before "
                             "counting the action's answer as lost")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for the servers and clocks (repeatable)")
    parser.add_argument("--no-echo", action="store_true",
                        help="leave out the echo phases (to profile the games alone)")
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--without", default="", metavar="PART,...",
                        help="serve the site without these of the server process's changes "
                             "(kozel_site/runtime/serving.py PARTS: gc, switch, write, cycles)")
    parser.add_argument("--arena", type=int, default=0, metavar="PLAYERS",
                        help="arena mode: this many players join one arena and play the games "
                             "it seats them at (--seconds long, at --pace), instead of --games")
    parser.add_argument("--arena-table", type=int, default=4, help="seats of the arena's tables")
    parser.add_argument("--arena-watchers", type=int, default=200,
                        help="further accounts with the arena's page open (arena mode)")
    parser.add_argument("--bots", default="", metavar="N,M,...",
                        help="bots' mode: phases of N, M, ... tables of one person and three "
                             "masters (tables added from one phase to the next), instead of --games")
    parser.add_argument("--analyses", type=int, default=0, metavar="K",
                        help="after the paced games, the same again while the clock's workers "
                             "make the analyses of K finished games")
    parser.add_argument("--beat-seconds", type=float, default=Connection.beat_seconds,
                        help="seconds without a view after which a game page beats (0: never, as a site "
                             "without a heartbeat)")
    args = parser.parse_args()
    Connection.beat_seconds = args.beat_seconds
    for url in (args.database_url, args.redis_url):
        host = urllib.parse.unquote(urllib.parse.urlsplit(url).hostname or "")
        if host not in ("127.0.0.1", "localhost") and not host.startswith("/"):  # "/": a socket
            raise SystemExit("bench/load.py only runs against this machine (127.0.0.1 or a "
                             "Unix socket).")

    workdir = Path(tempfile.mkdtemp(prefix="kozel-load-"))
    machine = machine_figures(workdir)
    print(f"machine: fixed Python work {machine['python_ms']} ms (best of 5), disk flush "
          f"p50 {machine['flush_p50_ms']} ms, p95 {machine['flush_p95_ms']} ms", flush=True)
    env = site_env(args, workdir)
    os.environ.update(env)
    for key in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
        if key not in env:
            os.environ.pop(key, None)
    fresh_database(args, env)
    import django
    django.setup()
    began = time.perf_counter()
    players = make_players(args.arena + args.arena_watchers if args.arena else
                           max(int(n) for n in args.bots.split(",")) if args.bots
                           else 4 * args.games)
    print(f"{len(players)} accounts with sessions in {time.perf_counter() - began:.1f} s; "
          f"logs in {workdir}", flush=True)
    analysed = finished_games(args.analyses) if args.analyses else []
    servers, clocks = start_site(args, env, workdir)
    try:
        from django.db import connection
        connection.close()  # the tables are opened from another thread
        bench = Bench(args, servers, clocks, players)
        bench.analysed = analysed
        asyncio.run(bench.run())
    finally:
        for process in servers + clocks:
            process.stop()
    setup = (f"{args.setup}: {len(servers)} daphne" +
             (f" + {len(clocks)} clock, PostgreSQL + Redis" if args.setup == "scaled"
              else ", SQLite + in-memory layer"))
    if len(servers) > 1:
        setup += f", seats placed {args.placement}"
    bots_tables = max(int(n) for n in args.bots.split(",")) if args.bots else 0
    report = {"setup": setup, "games": bots_tables or args.games, "bots": args.bots,
              "players": args.arena or bots_tables or 4 * args.games,
              "arena_watchers": args.arena_watchers
              if args.arena else 0, "pace_s": args.pace,
              "env": args.env, "load": os.getloadavg(), "machine": machine,
              "phases": bench.report}
    report["goals"] = goal_lines(bench.report, args.games, args.pace) + bots_goal_lines(
        bench.report)
    print("goals:\n  " + "\n  ".join(report["goals"]))
    print(json.dumps({k: v for k, v in report.items() if k not in ("phases", "goals")}))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
