"""A frame goes to its socket when it is sent, not on the event loop's next turn.

Twisted buffers every write to a TCP connection (``FileDescriptor.write``) and registers
the socket with the event loop's selector; the data goes out on a later turn of the
loop, when the selector says the socket is writable, and the socket is unregistered
again.  Per WebSocket frame that is a turn of the loop, two ``epoll_ctl`` calls and a
callback, and the frame waits behind everything already queued on the loop -- a
player's own move behind the other seats' frames, or behind another game's move
(docs/performance.md, points 52 and 56).  asyncio's own transports try to send at once
and buffer only what the socket would not take; daphne's connections now do the same.

The order of the bytes is kept: the direct send is tried only when nothing is waiting
in the buffer.  Whatever it could not send (the socket's buffer full, the connection
lost) goes the usual way, so Twisted's writer sends the rest, or reports the lost
connection, as before.
"""

from __future__ import annotations

_INSTALLED = "_kozel_sends_now"


def install() -> None:
    """Patch Twisted's TCP connections (in a daphne process; once)."""
    from twisted.internet import tcp

    if getattr(tcp.Connection, _INSTALLED, False):
        return
    buffered_write = tcp.Connection.write

    def write(self, data) -> None:
        if (data and self.connected and not self._writeDisconnected
                and not self._tempDataBuffer and self.offset == len(self.dataBuffer)):
            sent = self.writeSomeData(data)  # a number of bytes, or the connection's loss
            if isinstance(sent, int) and sent > 0:
                if sent == len(data):
                    return
                data = bytes(memoryview(data)[sent:])
        buffered_write(self, data)

    tcp.Connection.write = write
    setattr(tcp.Connection, _INSTALLED, True)
