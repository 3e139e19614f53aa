"""daphne's TCP connections write a frame to their socket when it is sent, as asyncio's
own transports do, instead of on the event loop's next turn.

Twisted 26.10 buffers every write (``FileDescriptor.write``) and registers the socket with
the loop's selector; the data goes out on a later turn, when the selector says the socket
is writable, and the socket is unregistered again.  Per WebSocket frame that is a turn of
the loop, two ``epoll_ctl`` calls and a callback through Twisted's logging context -- four
or five frames per move, each waiting behind whatever is queued on the loop meanwhile.

The order of the bytes is kept: the direct send is tried only when nothing is waiting in
the buffer.  Whatever the socket does not take (its buffer full, the connection lost)
goes Twisted's own way, so its writer sends the rest or reports the loss as before.
The patch touches Twisted's private buffer fields: it is checked against the version it
was written for.
"""

from __future__ import annotations

import twisted

from kozel_site.runtime import require_version

WRITTEN_FOR = "26."
_INSTALLED = "_kozel_writes_at_once"


def install() -> None:
    """Patch Twisted's TCP connections (in a daphne process; once)."""
    from twisted.internet import tcp

    require_version("twisted_write", "Twisted", twisted.__version__, WRITTEN_FOR,
                    "FileDescriptor.write and tcp.Connection's buffers")
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
