"""The database unavailable for a moment: a move fails with a clear message, changes
nothing, and the same move goes through once the database is back.

The server reaches PostgreSQL through a TCP relay this test controls: cutting the relay
drops every open database connection and refuses new ones, as a database restart or a
network fault would.  PostgreSQL only (CI's first pass); the embedded pass skips it.
"""

import asyncio
import random
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import pytest

from games.models import MatchStatus

from .conftest import QUICK_PLAYERS, needs_postgresql_and_redis
from .players import Player, Table, session_cookie
from .test_crash import check_log_holds, seat_tables

pytestmark = pytest.mark.django_db(transaction=True)
OUTAGE = "The game cannot reach its database just now: try again in a moment."


def outage_texts() -> set[str]:
    """The refusal as the player reads it, in either language of the site."""
    from django.utils import translation

    texts = set()
    for language in ("ru", "en"):
        with translation.override(language):
            texts.add(translation.gettext(OUTAGE))
    return texts


class Relay:
    """127.0.0.1:<port> -> upstream, byte for byte, until cut."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut_off = threading.Event()
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                self._close(sock)

    def _close(self, sock):
        with self.lock:
            self.open.discard(sock)
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

    def cut(self):
        self.cut_off.set()
        with self.lock:
            socks = list(self.open)
        for sock in socks:
            self._close(sock)

    def restore(self):
        self.cut_off.clear()

    def close(self):
        self.cut()
        self.listener.close()


@pytest.fixture
def relayed_server(transactional_db, tmp_path):
    needs_postgresql_and_redis()
    from tests.daphne_server import DaphneServer, database_env, live_server_env

    url = urlsplit(database_env()["DATABASE_URL"])
    relay = Relay((url.hostname or "127.0.0.1", url.port or 5432))
    relayed = urlunsplit(url._replace(netloc=f"{url.username}@127.0.0.1:{relay.port}"
                                      if url.username else f"127.0.0.1:{relay.port}"))
    server = DaphneServer(env=live_server_env(DATABASE_URL=relayed, **QUICK_PLAYERS),
                          log_dir=tmp_path)
    server.start()
    yield server, relay
    relay.restore()
    server.stop()
    relay.close()
    print(f"--- daphne log ---\n{server.log_tail()}")


def test_a_move_during_a_database_outage_fails_clearly_and_works_after(relayed_server,
                                                                       make_user):
    server, relay = relayed_server
    ((match, users),) = seat_tables(make_user, [2])
    cookies = [session_cookie(u) for u in users]
    outcomes = {}

    async def main():
        players = [Player(match.pk, cookies[n], lambda: server.port, n, random.Random(n))
                   for n in range(2)]
        table = Table(players)
        for player in players:
            await player.connect()
        mover = table.mover()
        outcomes["before"] = await mover.move()
        # The next mover's view arrives through its reader: wait for it (bounded).
        for _ in range(500):
            mover = table.mover()
            if mover is not None:
                break
            await asyncio.sleep(0.02)
        message = dict(mover.rng.choice(mover.choices()))
        relay.cut()
        outcomes["during"] = await mover.send(message)
        outcomes["said"] = mover.refusals[-1] if mover.refusals else None
        outcomes["connected during"] = mover.connected
        relay.restore()
        outcomes["after"] = await mover.send(message)
        await table.play(until=time.monotonic() + 120)  # and on to the end
        for player in players:
            await player.close()
        return players

    players = asyncio.run(main())
    assert outcomes["before"] == "acknowledged"
    assert outcomes["during"] == "refused" and outcomes["said"] in outage_texts(), outcomes
    assert outcomes["connected during"]  # the socket stays open: only the move failed
    assert outcomes["after"] == "acknowledged", outcomes
    check_log_holds(match, players)
    assert match.status == MatchStatus.FINISHED
