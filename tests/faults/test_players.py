"""The socket players of the fault tests (tests/faults/players.py), against a stand-in room:
no server process, so they can be held to what a crash test only meets now and then."""

import asyncio
import random
import time

from websockets.asyncio.server import serve

from .players import Player, Table


def room(mine: bool, version: int) -> str:
    """The least of a room frame that the players read: status, turn, version, one button."""
    return (f'<div id="room" data-status="playing" data-turn-mine="{str(mine).lower()}" '
            f'data-version="{version}"><button data-playable hx-vals=\'{{"play": "1-2", '
            f'"end": "left", "version": {version}}}\'>1-2</button></div>')


def test_a_table_whose_mover_loses_its_socket_goes_on_to_reconnect():
    """A killed server's sockets are lost all at once, and the loss may reach the loop after
    the table's task was woken but before the mover's reader has run.  websockets then
    refuses a send at once, without suspending, and the reader still looks alive: the
    table sent for that seat again and again without ever letting the loop run, starving
    every task (all reconnects too) until its deadline: how test_crash failed under load."""

    async def turn_then_crash(ws):
        await ws.send(room(False, 5))
        await asyncio.sleep(0.2)
        await ws.send(room(True, 6))
        await ws.wait_closed()

    async def main():
        async with serve(turn_then_crash, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            player = Player(1, "sessionid=x", lambda: port, 0, random.Random(1))
            await player.connect()
            seen = player._on_frame

            def seen_then_lost(frame):  # the socket is lost in the loop's next round
                seen(frame)
                if 'data-turn-mine="true"' in frame:
                    asyncio.get_running_loop().call_soon(player.ws.transport.abort)

            player._on_frame = seen_then_lost
            reconnecting = []

            async def reconnect(within=60.0):  # the table got that far: enough here
                reconnecting.append(player.connected)
                player.status = "finished"

            player.connect = reconnect
            table = Table([player])
            await table.play(until=time.monotonic() + 5)
            return table.outcomes, reconnecting

    outcomes, reconnecting = asyncio.run(main())
    assert outcomes == ["closed"] and reconnecting == [False]
