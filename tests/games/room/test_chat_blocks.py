"""A block in the table's chat (issue 42, point 6): the blocker does not see the blocked
person's lines, and the blocked person does not see the blocker's -- neither the history a
room gets nor the new lines; a third player sees both; the game's page after the game
leaves them out too."""

import pytest
from channels.db import database_sync_to_async

from accounts import friends
from games.models import Match, MatchStatus
from games.room import chat

from ..conftest import wait_until
from .test_chat import LINE, connected, seen
from .test_consumer import make_users, start_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _chat_rate(settings):
    settings.KOZEL_CHAT_RATE = "100/m"


async def test_blocked_lines_reach_neither_side_but_the_others_see_both():
    a, b, c = await make_users("blk_a", "blk_b", "blk_c")
    match_id = await start_table([a, b, c])
    await database_sync_to_async(friends.block)(a, b)  # a blocks b
    pa, pb, pc = await connected(match_id, a, b, c)
    await pb.say("from the blocked one")
    await pa.say("from the blocker")
    await pc.say("from the third")
    assert await wait_until(lambda: seen(pc, "from the third"))
    assert await wait_until(lambda: seen(pa, "from the third"))
    assert await wait_until(lambda: seen(pb, "from the third"))
    assert "from the blocker" in pc.chat() and "from the blocked one" in pc.chat()
    assert "from the blocked one" not in pa.chat()   # the blocker's room hides the blocked
    assert "from the blocker" not in pb.chat()       # and the blocked cannot read the blocker
    # The history of a room that connects later: the same.
    again_a, again_b = await connected(match_id, a, b)
    assert "from the blocked one" not in again_a.chat() and "from the third" in again_a.chat()
    assert "from the blocker" not in again_b.chat() and "from the third" in again_b.chat()
    for r in (pa, pb, pc, again_a, again_b):
        await r.ws.disconnect()


def test_the_game_page_after_the_game_leaves_blocked_lines_out(make_user, make_match):
    a, b = make_user("a_after"), make_user("b_after")
    match = make_match([a, b], status=MatchStatus.FINISHED)
    chat.post(match.pk, a, 0, "line of a")
    chat.post(match.pk, b, 1, "line of b")
    friends.block(b, a)
    texts = lambda reader: [m.text for c in chat.both_chats(Match.objects.get(pk=match.pk),
                                                            reader=reader)
                            for m in c["messages"]]
    assert texts(a) == ["line of a"] and texts(b) == ["line of b"]
    assert chat.muted_by(a) == frozenset({b.pk})


def shown_chat(reader) -> str:
    """The chat the room shows now: the last whole chat it was sent and the lines after it."""
    frames = [f for f in reader.frames if "chat-line" in f or 'id="chat-lines"' in f]
    whole = [n for n, f in enumerate(frames) if 'id="chat-lines"' in f]
    return "".join(frames[whole[-1]:] if whole else frames)


async def test_a_block_made_while_the_room_is_open_hides_both_sides_lines_at_once():
    a, b = await make_users("live_a", "live_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pb.say("before the block")
    await pa.say("the blocker before")
    assert await wait_until(lambda: seen(pa, "before the block"))
    assert await wait_until(lambda: seen(pb, "the blocker before"))
    await database_sync_to_async(friends.block)(a, b)
    # Both rooms are told, and show their chat again without the other's lines -- those
    # already on the screen too -- with no new line needed to find out.
    assert await wait_until(lambda: _gone(pa, "before the block")), pa.frames[-3:]
    assert await wait_until(lambda: _gone(pb, "the blocker before")), pb.frames[-3:]
    assert "the blocker before" in shown_chat(pa)  # one's own lines stay
    await pb.say("after the block")
    await pa.say("the line of the blocker")
    assert await wait_until(lambda: seen(pa, "the line of the blocker")), pa.frames[-3:]
    assert await wait_until(lambda: seen(pb, "after the block"))
    assert "after the block" not in shown_chat(pa)
    assert "the line of the blocker" not in shown_chat(pb)
    # Lifted: both see each other's lines again, the earlier ones too.
    await database_sync_to_async(friends.unblock)(a, b)
    assert await wait_until(lambda: _shown(pa, "after the block")), pa.frames[-3:]
    assert await wait_until(lambda: _shown(pb, "the line of the blocker")), pb.frames[-3:]
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_a_mute_in_one_tab_hides_the_lines_in_the_others():
    a, b = await make_users("tabs_a", "tabs_b")
    match_id = await start_table([a, b])
    pa, pb, pb_other_tab = await connected(match_id, a, b, b)
    await pa.say("rude words")
    assert await wait_until(lambda: seen(pb, "rude words"))
    assert await wait_until(lambda: seen(pb_other_tab, "rude words"))
    message_id = int(LINE.search(pb.chat()).group(1))
    await pb.send({"chat_mute": message_id})
    assert await wait_until(lambda: _gone(pb, "rude words"))
    assert await wait_until(lambda: _gone(pb_other_tab, "rude words")), pb_other_tab.frames[-3:]
    for r in (pa, pb, pb_other_tab):
        await r.ws.disconnect()


async def _gone(reader, text) -> bool:
    await reader.drain()
    return text not in shown_chat(reader)


async def _shown(reader, text) -> bool:
    await reader.drain()
    return text in shown_chat(reader)
