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
from .test_chat import connected, seen
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


async def test_a_block_made_while_the_room_is_open_hides_the_next_lines(monkeypatch):
    from games.room import consumer

    monkeypatch.setattr(consumer, "MUTED_FRESH", 0.0)
    a, b = await make_users("live_a", "live_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pb.say("before the block")
    assert await wait_until(lambda: seen(pa, "before the block"))
    await database_sync_to_async(friends.block)(a, b)
    await pb.say("after the block")
    await pa.say("the line of the blocker")
    assert await wait_until(lambda: seen(pa, "the line of the blocker")), pa.frames[-3:]
    assert await wait_until(lambda: seen(pb, "after the block"))
    assert "after the block" not in pa.chat()
    assert "the line of the blocker" not in pb.chat()
    for r in (pa, pb):
        await r.ws.disconnect()
