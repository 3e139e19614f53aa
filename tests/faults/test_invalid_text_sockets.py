"""Issue 39, point 6, on the sockets (hypothesis): text that is not valid Unicode -- lone
surrogates (which JSON's escapes can carry), NUL -- anywhere in a message to the game
room (a move, the chat, an answer to one more game, a key) gets a refusal and the socket
is kept; the lobby, which takes no messages, closes with its own code.  Never 1011, and
nothing is written."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.lobby import service as requests
from games.models import ChatMessage
from games.records.log import state_after
from tests.games.wsclient import logged_in
from tests import fresh_loop

# A string with at least one lone surrogate or NUL in it.
bad_text = st.builds(lambda head, bad, tail: head + bad + tail,
                     st.text(max_size=5),
                     st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.just("\x00"),
                     st.text(max_size=5))
bad_messages = st.one_of(
    st.builds(lambda t: {"chat": t}, bad_text),
    st.builds(lambda t: {"chat_report": t}, bad_text),
    st.builds(lambda t: {"chat_mute": t}, bad_text),
    st.builds(lambda t, v: {"play": t, "end": "left", "version": v}, bad_text, st.integers(0, 5)),
    st.builds(lambda t: {"rematch": "accept", "client_seed": t}, bad_text),
    st.builds(lambda t: {t: True}, bad_text),
    st.builds(lambda t: {"beat": t}, bad_text),
).map(lambda message: json.dumps(message, ensure_ascii=True))


@pytest.fixture
def table(transactional_db, make_user, settings):
    settings.KOZEL_WS_FLOOD = (10 ** 6, 10 ** 6)
    settings.KOZEL_WS_ACCOUNT_RATE = "1000000/s"
    users = [make_user(f"badtext{n}") for n in range(3)]
    match = requests.create_request(users[0], players=2, turn_seconds=120)
    requests.join_request(users[1], match.pk)
    match.refresh_from_db()
    return match, users


async def send_all(path, user, texts):
    ws = await logged_in(path, user)
    connected, _ = await ws.connect()
    assert connected
    frames = [await ws.receive_from(timeout=5)]
    closed = None
    for text in texts:
        await ws.send_to(text_data=text)
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            closed = output.get("code")
            break
        frames.append(output["text"])
    if closed is None:
        # The socket is kept: a beat is still answered.
        await ws.send_to(text_data=json.dumps({"beat": 0}))
        output = await ws.receive_output(timeout=5)
        assert output["type"] == "websocket.send"
        await ws.disconnect()
    return frames, closed


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(bad_messages, min_size=1, max_size=5), st.integers(0, 2))
@pytest.mark.django_db(transaction=True)
def test_invalid_text_on_the_game_and_chat_socket_is_refused_and_the_socket_kept(
        table, texts, who):
    match, users = table
    frames, closed = fresh_loop.run(send_all(f"/ws/games/{match.pk}/", users[who], texts))
    assert closed is None, closed
    # Each message got the refusal notice (the first frame is the room).
    assert all('id="room-notice"' in f for f in frames[1:]), frames
    match.refresh_from_db()
    assert match.version == 1 and state_after(match).to_json() == match.state
    assert not ChatMessage.objects.exists()


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(bad_messages)
@pytest.mark.django_db(transaction=True)
def test_invalid_text_on_the_lobby_socket_closes_it_as_not_a_message(table, text):
    _match, users = table
    frames, closed = fresh_loop.run(send_all("/ws/lobby/", users[2], [text]))
    assert closed == 4400
