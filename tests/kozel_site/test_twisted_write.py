"""kozel_site/runtime/twisted_write.py: a daphne process writes a frame to its socket when it is sent.

Real Twisted TCP connections over a real socket pair, on a reactor that is never run: what
the peer can read at once was written at once; what waits is registered with the reactor
for its next turn, as Twisted does on its own."""

import socket

import pytest
from twisted.internet import protocol, selectreactor, tcp

from kozel_site.runtime import twisted_write


@pytest.fixture
def connection():
    """(a Twisted connection over one end of a socket pair, the other end, the reactor)"""
    twisted_write.install()
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.setblocking(False)
    reactor = selectreactor.SelectReactor()
    conn = tcp.Connection(ours, protocol.Protocol(), reactor)
    conn.connected = True
    yield conn, peer, reactor
    for end in (ours, peer):
        end.close()
    reactor._internalReaders.clear()
    reactor.waker.connectionLost(None)


def read_all(peer) -> bytes:
    chunks = []
    while True:
        try:
            chunk = peer.recv(1 << 16)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_frame_is_on_the_socket_as_soon_as_it_is_written(connection):
    conn, peer, reactor = connection
    conn.write(b"frame one")
    conn.write(b"frame two")
    assert read_all(peer) == b"frame oneframe two"
    assert conn not in reactor.getWriters()  # no turn of the loop needed, none asked for


def test_what_the_socket_cannot_take_waits_and_keeps_its_order(connection):
    conn, peer, reactor = connection
    big = bytes(range(256)) * 8192  # 2 MB: more than the socket pair's buffers hold
    conn.write(big)
    conn.write(b"and then this")  # must not overtake what is waiting
    assert conn in reactor.getWriters()
    received = read_all(peer)
    assert 0 < len(received) < len(big)
    while conn.dataBuffer[conn.offset:] or conn._tempDataBuffer:
        conn.doWrite()  # the reactor's turns
        received += read_all(peer)
    received += read_all(peer)
    assert received == big + b"and then this"


def test_a_lost_connection_is_left_to_twisted_to_report(connection):
    conn, peer, reactor = connection
    peer.close()
    conn.write(b"to nobody")  # no exception here: the writer's turn reports the loss
    assert conn in reactor.getWriters()
    assert isinstance(conn.doWrite(), Exception)
