"""Fuzzing (hypothesis): whatever a client sends over the game room's WebSocket, and
whatever text is handed to the record reader, the answer is a clear refusal or a correct
result -- never a crash, never a changed game that the rules did not allow."""

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games import rules
from games.lobby import service as requests
from games.models import Match
from games.records.log import state_after
from games.rules.errors import InvalidRecord
from games.rules.simulate import play_game
from tests.games.wsclient import logged_in
from tests import fresh_loop

# -- the record reader ------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=6),
    max_leaves=30)
VALID = play_game(3, "one", seed=11)[0].to_json()


def mutate(record: dict, path: list, value):
    """The record with the value at ``path`` (keys and indexes, taken modulo) replaced."""
    record = json.loads(json.dumps(record))
    node = record
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            child = sorted(node)[step % len(node)]
        elif isinstance(node, list) and node:
            child = step % len(node)
        else:
            break
        if not isinstance(node[child], (dict, list)):
            break
        node = node[child]
    if isinstance(node, dict) and node:
        node[sorted(node)[path[-1] % len(node)]] = value
    elif isinstance(node, list) and node:
        node[path[-1] % len(node)] = value
    return record


def read_or_refuse(text):
    try:
        return rules.replay_text(text)
    except Exception as error:  # pragma: no cover - this is the failure being looked for
        pytest.fail(f"replay_text raised {error!r} on {text[:200]!r}")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_text_is_read_or_refused(text):
    answer = read_or_refuse(text)
    assert isinstance(answer, dict) and ("error" in answer or "status" in answer)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_is_read_or_refused(value):
    answer = read_or_refuse(json.dumps(value))
    assert "error" in answer or "status" in answer
    try:
        assert isinstance(rules.read_record(value), rules.Record)
    except InvalidRecord:
        pass


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 10 ** 4), min_size=1, max_size=6), json_values)
def test_a_valid_record_with_one_value_changed_is_read_or_refused(path, value):
    answer = read_or_refuse(json.dumps(mutate(VALID, path, value)))
    if "error" not in answer:  # accepted: then it must replay like any valid record
        assert answer["status"] in ("finished", "playing", "interrupted")


# -- the game room's WebSocket ------------------------------------------------------------

moves = st.fixed_dictionaries({}, optional={
    "play": st.sampled_from([t.name for t in rules.TILES]) | st.text(max_size=6) | json_values,
    "end": st.sampled_from(["left", "right", "middle", ""]) | json_values,
    "draw": st.booleans() | json_values, "knock": st.booleans() | json_values,
    "seat": st.integers(-2, 5) | json_values, "resync": st.booleans(),
    "version": st.integers(-2, 400) | st.text(max_size=5) | json_values,
})
messages = (moves.map(json.dumps) | json_values.map(json.dumps)
            | st.text(min_size=1, max_size=100) | st.sampled_from(["{", "null", "[]", "{}", "\x00"]))


@pytest.fixture
def table(transactional_db, make_user, settings):
    settings.KOZEL_WS_FLOOD = (10 ** 6, 10 ** 6)  # hypothesis sends far faster than people
    settings.KOZEL_WS_ACCOUNT_RATE = "1000000/s"   # over all of one account's sockets too
    users = [make_user(f"fuzz{n}") for n in range(2)]
    match = requests.create_request(users[0], players=2, turn_seconds=120)
    requests.join_request(users[1], match.pk)
    match.refresh_from_db()
    return match, users


async def send_all(match_id, user, texts):
    """Send each text on one connection; return every frame received and the close code."""
    ws = await logged_in(f"/ws/games/{match_id}/", user)
    connected, _ = await ws.connect()
    assert connected
    frames = [await ws.receive_from(timeout=5)]
    closed = None
    for text in texts:
        await ws.send_to(text_data=text)
        output = await ws.receive_output(timeout=5)  # every message gets an answer
        if output["type"] == "websocket.close":
            closed = output.get("code")
            break
        frames.append(output["text"])
    # Anything still on its way (a stale refusal is followed by the full view, say).
    while closed is None and not await ws.receive_nothing(timeout=0.05):
        output = await ws.receive_output()
        if output["type"] == "websocket.close":
            closed = output.get("code")
        else:
            frames.append(output["text"])
    if closed is None:
        await ws.disconnect()
    return frames, closed


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(messages, min_size=1, max_size=8), st.integers(0, 1))
@example(['{"chat": null}'], 0)  # a chat key: refused beside the chat
@pytest.mark.django_db(transaction=True)
def test_any_message_on_the_game_socket_is_answered_or_refused(table, texts, who):
    match, users = table
    frames, closed = fresh_loop.run(send_all(match.pk, users[who], texts))
    # Every frame is the room or a notice (the room's, or the chat's beside it for a
    # message with a chat key); a closing is one of the room's own reasons.
    assert all(f.lstrip().startswith(('<div id="room"', '<div id="room-notice"',
                                      '<p id="chat-notice"'))
               for f in frames), frames
    assert closed in (None, 4413, 4429), closed
    # Whatever got through was a legal move: the snapshot is still the log replayed.
    match.refresh_from_db()
    assert state_after(match).to_json() == match.state
    assert list(match.moves.values_list("number", flat=True)) == list(range(1, match.version + 1))


@pytest.mark.django_db(transaction=True)
def test_the_fuzzer_reaches_real_moves(table):
    """The strategy above is not only noise: the move a button sends gets through it."""
    match, users = table
    state = rules.GameState.from_json(match.state)
    action = rules.legal_actions(state)[0].to_json()
    seat = action.pop("seat")
    text = json.dumps(dict(action, version=match.version))
    fresh_loop.run(send_all(match.pk, users[seat], [text]))
    assert Match.objects.get(pk=match.pk).version > match.version

