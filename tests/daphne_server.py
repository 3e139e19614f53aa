"""A real server for tests: the site served by daphne in a subprocess, on the test database.

The browser tests (tests/e2e) drive it, and tests that need a server process they can
kill and start again (restarts, reconnection) use it directly. Usually through the
``daphne_server`` fixture (tests/conftest.py); by hand::

    server = DaphneServer(env=live_server_env())   # inside a transactional test
    server.start()            # returns once the site answers; server.url is its address
    server.kill()             # SIGKILL: a crash, nothing is tidied up
    server.start()            # the same port again, so open pages can reconnect
    server.stop()             # SIGTERM, then SIGKILL if it lingers

The subprocess sees the test's own database: pytest-django's test database, made a file
for SQLite (see ``django_db_modify_db_settings`` in tests/conftest.py) and named
``test_<name>`` on PostgreSQL. The test must commit what the server is to see, so it
needs ``@pytest.mark.django_db(transaction=True)``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Self
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
# daphne, started through tests/seeded_server.py: it deals from the test's seed
# (KOZEL_TEST_SEED, passed on with the rest of the environment; tests/seeding.py).
DAPHNE = [sys.executable, "-m", "tests.seeded_server", "daphne"]

# What the server's play settings become for tests: quick bots and short pauses, and the
# turn clock inside the server (it deals rounds and moves bots; DESIGN.md, Time).
FAST_PLAY = {
    "KOZEL_ROUND_PAUSE": "0.3",
    "KOZEL_BOT_DELAY": "0.05,0.1",
    "KOZEL_CLOCK_IN_SERVER": "1",
    "KOZEL_CLOCK_INTERVAL": "0.02",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_env() -> dict[str, str]:
    """DATABASE_URL or SQLITE_PATH naming the database this test process is using now
    (so, inside a test, pytest-django's test database)."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(db["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            raise RuntimeError("A server process cannot share an in-memory SQLite database; "
                               "the test database should be a file (tests/conftest.py).")
        return {"SQLITE_PATH": name}
    if connection.vendor == "postgresql":
        user = quote(db.get("USER") or "", safe="")
        password = quote(db.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = db.get("HOST") or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return {"DATABASE_URL": f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}"}
    raise RuntimeError(f"No server environment for a {connection.vendor} database.")


def live_server_env(**extra: str) -> dict[str, str]:
    """The environment for a server on the test database, with FAST_PLAY and ``extra``.

    REDIS_URL (when set, as in CI's first pass) is passed on as it is: the server and
    this process then share a channel layer.  So is KOZEL_TEST_SEED, the test's seed
    (tests/seeding.py), which the server deals from."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "SQLITE_PATH", "SECRET_KEY", "DEBUG")}
    env.update(database_env())
    env.update(FAST_PLAY, PYTHONUNBUFFERED="1", DJANGO_SETTINGS_MODULE="kozel_site.settings")
    env.update(extra)
    return env


class DaphneServer:
    """One daphne process serving kozel_site.asgi on 127.0.0.1:<port>."""

    def __init__(self, env: dict[str, str] | None = None, port: int | None = None,
                 log_dir: str | os.PathLike | None = None, ready_timeout: float = 30.0):
        self.env = env if env is not None else live_server_env()
        self.port = port or free_port()
        self.ready_timeout = ready_timeout
        self.log_path = Path(log_dir or tempfile.mkdtemp(prefix="daphne-")) / f"daphne-{self.port}.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> Self:
        """Start the server and wait until it answers HTTP (raises, with its log, if not)."""
        if self.running:
            raise RuntimeError("The server is already running.")
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [*DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "kozel_site.asgi:application"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C in the terminal is pytest's, not the server's
            )
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if not self.running:
                raise RuntimeError(f"daphne exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/rules/", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"daphne did not answer within {self.ready_timeout} s:\n{self.log_tail()}")

    def stop(self, timeout: float = 10.0) -> None:
        """A clean shutdown (SIGTERM); SIGKILL if it takes longer than ``timeout``."""
        if not self.running:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """A crash: SIGKILL, no shutdown code runs."""
        if not self.running:
            return
        self.process.kill()
        self.process.wait(10)

    def restart(self) -> Self:
        self.stop()
        return self.start()

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
