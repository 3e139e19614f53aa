"""Clean refusals over real WebSockets: a message nested too deep, a path
the site does not serve, a flood.  Each is refused with its own close code or HTTP status,
and the server's log gets no traceback and at most one line about it.  The server is
daphne in a subprocess (tests/daphne_server.py), so its log is the one a site's operator
reads."""

import asyncio
import html
import json
import random
import re
import urllib.request

import pytest
from django.utils import translation
from django.utils.translation import gettext
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.lobby import service as requests
from tests.faults.players import Player, session_cookie
from tests.unanswering import Unanswering
from tests.waiting import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # a daphne each

NESTED = "[" * 1000 + "]" * 1000  # 2,000 bytes, deeper than Python's json can recurse


def log_of(server) -> str:
    return server.log_path.read_text(errors="replace")


# The server's own lines: the clock's, and its worker pools' (bots' masters, analyses).
SERVER_LINES = ("clock: ", "bots: ", "analysis: ")

# daphne's access log: one line per request and per WebSocket step, whatever the answer.
ACCESS_LINE = re.compile(r'^\S+:\d+ - - \[[^\]]*\] "')


def no_traceback(server):
    """No traceback, and at most one line about the refusal: what is left of the log once
    daphne's start and access lines and the clock's and pools' own lines are taken out."""
    log = log_of(server)
    assert "Traceback" not in log and "closed protocol" not in log, log[-3000:]
    lines = log.splitlines()
    started = next(n for n, line in enumerate(lines) if line.startswith("Listening on"))
    said = [line for line in lines[started + 1:]
            if not ACCESS_LINE.match(line) and not line.startswith(SERVER_LINES)]
    assert len(said) <= 1, said


def no_traceback_after_a_check(server):
    """daphne logs the error that ended a consumer from a check it makes once a second
    (``Server.application_checker``), not when the error happens, and nothing that could
    be waited for comes after that check: so the test gives it two turns."""
    wait_for(lambda: "Traceback" in log_of(server), seconds=2.5)
    no_traceback(server)


async def socket(server, path, cookie=""):
    return await connect(f"{server.ws_url}{path}", origin=server.url,
                         additional_headers={"Cookie": cookie} if cookie else {},
                         open_timeout=5, ping_interval=None)


async def flood(client) -> int:
    """Sends messages one by one, reading each one's answer, until the server refuses one
    as a flood (the socket's burst is 16) and closes the socket: nothing is sent after
    the refusal, so nothing is queued behind the close.  The close code."""
    with translation.override("ru"):  # the session has no language of its own
        too_many = gettext("Too many messages: slow down.")
    for _ in range(100):
        await client.send("[]")  # "not a move": one notice in answer
        answer = ""
        while "room-notice" not in answer:
            answer = await client.recv()
        if too_many in html.unescape(answer):
            return await client.until_closed()
    raise AssertionError("no flood refusal after 100 messages")


def post(server, path, cookie):
    """A form post to the server, as a logged-in page makes it (CSRF token and all)."""
    with urllib.request.urlopen(urllib.request.Request(
            server.url + "/", headers={"Cookie": cookie})) as page:
        token = page.headers.get_all("Set-Cookie")[0].split(";")[0].split("=", 1)[1]
    urllib.request.urlopen(urllib.request.Request(
        server.url + path, data=b"", method="POST",
        headers={"Cookie": f"{cookie}; csrftoken={token}", "X-CSRFToken": token}))


def seated(match):
    return [seat.user for seat in match.seats.order_by("number").select_related("user")]


def a_game(make_user):
    masha, alex = make_user("rf1"), make_user("rf2")
    match = requests.create_request(masha, players=2, turn_seconds=60)
    requests.join_request(alex, match.pk)
    return match, session_cookie(masha)


def test_a_message_nested_too_deep_is_refused_as_not_json_on_the_game_socket(
        daphne_server, make_user):
    match, cookie = a_game(make_user)

    async def main():
        ws = await socket(daphne_server, f"/ws/games/{match.pk}/", cookie)
        await ws.recv()  # the full view
        await ws.send(NESTED)
        answer = await asyncio.wait_for(ws.recv(), 10)
        await ws.close()
        return answer

    answer = asyncio.run(main())
    assert "не в формате JSON" in answer, answer  # Russian first: the session has no choice
    no_traceback(daphne_server)


def test_a_message_nested_too_deep_closes_the_lobby_socket_as_not_a_message(
        daphne_server, make_user):
    """The lobby takes no messages (its actions are form posts), so it never decodes one:
    any message closes it, however it is nested, and there is nothing for a nesting to
    break.  This guards that: a lobby that began decoding its messages would have to
    refuse this one cleanly too."""
    cookie = session_cookie(make_user("rf3"))

    async def main():
        ws = await socket(daphne_server, "/ws/lobby/", cookie)
        await ws.recv()
        await ws.send(NESTED)
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code

    assert asyncio.run(main()) == 4400
    no_traceback(daphne_server)


@pytest.mark.parametrize("path", ["/ws/", "/ws/games/abc/", "/ws/lobby/extra/", "/nothing/"])
def test_a_path_the_site_does_not_serve_is_refused_at_the_handshake(daphne_server, path):
    async def main():
        with pytest.raises(InvalidStatus) as refused:
            await socket(daphne_server, path)
        return refused.value.response.status_code

    assert asyncio.run(main()) == 403
    no_traceback(daphne_server)


def test_messages_that_come_after_a_flood_close_are_dropped_quietly(daphne_server, make_user):
    """The messages a flooding client sends on, after the server's close frame and before
    the connection is gone, each still reach the room: its answer to them must not go out
    on the closing socket (daphne would log "Attempt to send on a closed protocol" and a
    traceback for the consumer that raised it)."""
    match, cookie = a_game(make_user)

    async def main():
        flooder = Unanswering(daphne_server, f"/ws/games/{match.pk}/", cookie)
        await flooder.open()
        await flooder.recv()  # the full view
        code = await flood(flooder)
        for _ in range(5):  # after the close frame: queued for the room all the same
            await flooder.send("[]")
        assert await flooder.dropped(), "the server never dropped the closed socket"
        return code

    assert asyncio.run(main()) == 4429
    no_traceback_after_a_check(daphne_server)


def test_a_move_shown_to_a_socket_closed_for_a_flood_is_dropped_quietly(
        daphne_server, make_user):
    """The room's hub shows a move to every socket of the game, a flooder's that is closing
    too (the socket leaves the room only when its connection is gone)."""
    match, cookie = a_game(make_user)
    watcher = session_cookie(make_user("rf-watch"))
    players = [Player(match.pk, session_cookie(user), lambda: daphne_server.port, seat,
                      random.Random(seat))
               for seat, user in enumerate(seated(match))]

    async def main():
        for player in players:
            await player.connect()
        mover = next(player for player in players if player.turn_mine)
        flooder = Unanswering(daphne_server, f"/ws/games/{match.pk}/", watcher)
        await flooder.open()
        await flooder.recv()
        code = await flood(flooder)
        assert await mover.move() == "acknowledged"  # shown to every room, the flooder's too
        # The hub tried the flooder's socket before the mover's answer left the server.
        assert flooder.still_connected(), "too slow: the closed socket was gone before the move"
        for player in players:
            await player.close()
        flooder.abort()
        return code

    assert asyncio.run(main()) == 4429
    no_traceback(daphne_server)


def test_a_lobby_change_for_a_closed_lobby_socket_is_dropped_quietly(daphne_server, make_user):
    """A lobby socket closed for sending a message still gets the lobby's changes until its
    connection is gone."""
    cookie = session_cookie(make_user("rf4"))
    match = requests.create_request(make_user("rf5"), players=2, turn_seconds=60)
    joiner = session_cookie(make_user("rf6"))

    async def main():
        closed = Unanswering(daphne_server, "/ws/lobby/", cookie)
        await closed.open()
        await closed.recv()  # the list of requests
        await closed.send("{}")
        code = await closed.until_closed()
        # A change of the lobby made in the server's process: a table is joined.
        await asyncio.to_thread(post, daphne_server, f"/games/{match.pk}/join/", joiner)
        assert await closed.dropped(), "the server never dropped the closed socket"
        return code

    assert asyncio.run(main()) == 4400
    no_traceback_after_a_check(daphne_server)
