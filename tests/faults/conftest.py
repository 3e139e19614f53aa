"""Fixtures for the fault tests: real server processes whose players may be quick."""

import shutil
import socket
import time

import pytest

# Test players move as fast as the server answers; people (and the flood limit) do not.
QUICK_PLAYERS = {"KOZEL_WS_FLOOD": "1000,1000", "KOZEL_WS_ACCOUNT_RATE": "100000/s"}


@pytest.fixture
def server(transactional_db, tmp_path):
    """A started DaphneServer (tests/daphne_server.py) on this test's database, in the
    embedded way of running (the turn clock inside it), stopped afterwards."""
    from tests.daphne_server import DaphneServer, live_server_env

    server = DaphneServer(env=live_server_env(**QUICK_PLAYERS), log_dir=tmp_path)
    server.start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def needs_postgresql_and_redis():
    """Skip, saying why, unless this run is the scaled-out one (CI's first pass)."""
    import os

    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        pytest.skip("the scaled-out setup needs PostgreSQL and Redis: set DATABASE_URL and "
                    "REDIS_URL (CI's first pass does)")


class ManagedProcess:
    """A process of the site other than daphne (``manage.py clock``, a redis-server)."""

    def __init__(self, argv, env=None, log_path=None):
        import subprocess

        from tests.daphne_server import ROOT

        self.argv, self.env, self.log_path = argv, env, log_path
        self.root = ROOT
        self.subprocess = subprocess
        self.process = None

    def start(self):
        with open(self.log_path, "ab") as log:
            self.process = self.subprocess.Popen(self.argv, cwd=self.root, env=self.env,
                                                 stdout=log, stderr=self.subprocess.STDOUT,
                                                 start_new_session=True)
        return self

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except self.subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, lines=40):
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"


@pytest.fixture
def scaled_out(transactional_db, tmp_path):
    """start(redis_url=None, **settings) -> two daphne processes and one ``manage.py clock``
    process sharing the test's PostgreSQL database and Redis, as docs/operations.md runs
    them; ``settings`` are environment variables over the quick players'."""
    import sys

    from tests.daphne_server import DaphneServer, live_server_env

    needs_postgresql_and_redis()
    started = []

    def start(redis_url=None, servers=2, **settings):
        extra = dict(QUICK_PLAYERS, KOZEL_CLOCK_IN_SERVER="0", KOZEL_CLOCK_INTERVAL="0.05",
                     **settings)
        if redis_url:
            extra["REDIS_URL"] = redis_url
        env = live_server_env(**extra)
        daphnes = [DaphneServer(env=env, log_dir=tmp_path) for _ in range(servers)]
        clock = ManagedProcess([sys.executable, "-m", "tests.seeded_server", "manage.py",
                                "clock"], env, tmp_path / "clock.log")
        started.extend(daphnes + [clock])
        clock.start()
        for daphne in daphnes:
            daphne.start()
        return daphnes, clock

    yield start
    for process in reversed(started):
        process.stop()
        print(f"--- {process.log_path} ---\n{process.log_tail()}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own on a free port, that the test may kill and start
    again without disturbing the one every other test uses."""
    needs_postgresql_and_redis()
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    redis = ManagedProcess([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                            "--appendonly", "no", "--dir", str(tmp_path)],
                           None, tmp_path / "redis.log")
    redis.port = port

    def ready():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not start:\n{redis.log_tail()}")

    redis.ready = ready
    redis.start()
    ready()
    yield redis
    redis.stop()
