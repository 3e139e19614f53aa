"""A WebSocket client that never answers the server's close frame.

A server that closes a socket sends a close frame and waits for the client's; daphne
(autobahn) waits a second for it before it drops the connection.  Until then its side of
the socket is "closing": anything the site still sends on it (a frame the room's hub had
queued, the answer to a message that arrived before the close) reaches autobahn's closed
protocol.  An ordinary client answers at once and hides that second; this one keeps it
open, as a frozen tab or a hostile client would, so that a test can send or cause things
inside it.

It speaks the protocol through websockets' sans-I/O ``ClientProtocol`` to parse what the
server sends, and writes its own (masked) frames, so that it can still send after the
close frame arrived -- which ``ClientProtocol`` itself refuses to do.
"""

from __future__ import annotations

import asyncio

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.typing import Origin
from websockets.uri import parse_uri


class Closed(Exception):
    def __init__(self, code: int | None):
        super().__init__(f"the server closed the socket with {code}")
        self.code = code


class Unanswering:
    def __init__(self, server, path: str, cookie: str = "") -> None:
        self.server, self.path, self.cookie = server, path, cookie
        self.protocol = ClientProtocol(parse_uri(f"{server.ws_url}{path}"),
                                       origin=Origin(server.url), max_size=2 ** 22)
        self.messages: list[str] = []
        self.close_code: int | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.server.port)
        request = self.protocol.connect()
        if self.cookie:
            request.headers["Cookie"] = self.cookie
        self.protocol.send_request(request)
        self.writer.write(b"".join(self.protocol.data_to_send()))
        while True:
            events = await self._events()
            if events and isinstance(events[0], Response):
                if events[0].status_code != 101:
                    raise AssertionError(f"handshake refused: {events[0].status_code}")
                self._keep(events[1:])  # the first frame may come in the same read
                return

    async def _events(self, timeout: float = 10.0) -> list:
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        if not data:
            raise ConnectionResetError("the server dropped the connection")
        self.protocol.receive_data(data)
        self.protocol.data_to_send()  # never written: the close is not answered
        return self.protocol.events_received()

    async def recv(self, timeout: float = 10.0) -> str:
        """The next text message; raises Closed when the server's close frame comes."""
        while not self.messages:
            if self.close_code is not None:
                raise Closed(self.close_code)
            self._keep(await self._events(timeout))
        return self.messages.pop(0)

    def _keep(self, frames) -> None:
        for frame in frames:
            if frame.opcode is Opcode.TEXT:
                self.messages.append(frame.data.decode())
            elif frame.opcode is Opcode.CLOSE:
                self.close_code = self.protocol.close_rcvd.code

    async def send(self, text: str) -> None:
        """A text frame, sent even after the server's close frame came."""
        self.writer.write(Frame(Opcode.TEXT, text.encode()).serialize(mask=True))
        await self.writer.drain()

    async def until_closed(self, timeout: float = 10.0) -> int | None:
        """Reads (and forgets) messages until the server's close frame; its code."""
        try:
            while True:
                await self.recv(timeout)
        except Closed as closed:
            return closed.code

    async def dropped(self, timeout: float = 10.0) -> bool:
        """Whether the server dropped the connection (it does a second after its close
        frame, unanswered) within ``timeout``."""
        try:
            while await asyncio.wait_for(self.reader.read(65536), timeout):
                pass
        except asyncio.TimeoutError:
            return False
        except ConnectionResetError:  # autobahn aborts the connection: a reset
            pass
        return True

    def still_connected(self) -> bool:
        return not self.reader.at_eof() and self.reader.exception() is None

    def abort(self) -> None:
        self.writer.transport.abort()
