"""games/room/closing.py: once a socket is closing, nothing more is sent on it -- whichever
side closed it.  (The server's own closes, over a real daphne: test_refusals.py.)"""

from autobahn.exception import Disconnected

from games.room.closing import ClosingOnce


async def test_a_frame_for_a_socket_its_client_has_closed_is_dropped_quietly():
    """The client's close frame came, its disconnect has not reached the consumer yet:
    daphne's send raises what autobahn raises then.  The frame is dropped, no error
    reaches the hub or the lobby that sent it, and nothing more is tried."""
    tried = []

    async def daphne_send(message):  # daphne's Server.handle_reply on that socket
        tried.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = ClosingOnce()
    consumer.base_send = daphne_send
    await consumer.send(text_data="<p>the room</p>")
    await consumer.send(text_data="<p>the next change</p>")
    assert consumer.closing
    assert [message["text"] for message in tried] == ["<p>the room</p>"]


async def test_an_open_socket_is_sent_every_frame():
    sent = []

    async def daphne_send(message):
        sent.append(message)

    consumer = ClosingOnce()
    consumer.base_send = daphne_send
    await consumer.send(text_data="one")
    await consumer.send(text_data="two")
    assert not consumer.closing and [m["text"] for m in sent] == ["one", "two"]
