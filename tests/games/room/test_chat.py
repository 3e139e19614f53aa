"""The table's chat over real WebSockets: who hears whom, what is refused, and that a
line never changes the game.  (The rooms speak the site's default language, Russian.)"""

import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import ChatMessage, ChatMute, ChatReport, ChatSilence, Match

from ..conftest import wait_until
from ..wsclient import Seat
from .test_consumer import make_users, start_table

pytestmark = pytest.mark.django_db(transaction=True)
LINE = re.compile(r'<li id="chat-(\d+)"')


class Reader(Seat):
    """A connected tab that also keeps the chat lines and notices it was sent."""

    async def say(self, text):
        await self.ws.send_to(text_data=json.dumps({"chat": text}))

    async def send(self, message: dict):
        await self.ws.send_to(text_data=json.dumps(message))

    def chat(self) -> str:
        return "".join(f for f in self.frames if "chat-line" in f)

    def notices(self) -> str:
        return "".join(f for f in self.frames if "chat-notice" in f)  # beside the chat


async def connected(match_id, *users):
    readers = [Reader(match_id, u) for u in users]
    for reader in readers:
        await reader.connect()  # the room and the chat's history, in one frame
    return readers


async def seen(reader, text) -> bool:
    await reader.drain()
    return text in reader.chat()


async def refused(reader, words) -> bool:
    await reader.drain()
    return words in reader.notices()


async def quiet(readers):
    for reader in readers:
        await reader.drain()


async def version_of(match_id):
    return (await database_sync_to_async(Match.objects.get)(pk=match_id)).version


@pytest.fixture(autouse=True)
def _chat_rate(settings):
    settings.KOZEL_CHAT_RATE = "100/m"


async def test_a_players_line_reaches_the_players_and_not_the_spectators():
    a, b, watcher = await make_users("chat_a", "chat_b", "chat_w")
    match_id = await start_table([a, b])
    before = await version_of(match_id)
    pa, pb, w = await connected(match_id, a, b, watcher)
    await pa.say("Good luck, everyone")
    assert await wait_until(lambda: seen(pb, "Good luck, everyone"))
    assert await wait_until(lambda: seen(pa, "Good luck, everyone"))
    # Then a spectator's line: the watcher gets that one, so the player's would be there by now.
    await w.say("watching you")
    assert await wait_until(lambda: seen(w, "watching you"))
    assert "Good luck, everyone" not in w.chat()
    await quiet([pa, pb])
    assert "watching you" not in pa.chat() + pb.chat()
    assert await version_of(match_id) == before  # a line is never a move
    rooms = {m.room for m in await database_sync_to_async(list)(ChatMessage.objects.all())}
    assert rooms == {"players", "spectators"}
    for r in (pa, pb, w):
        await r.ws.disconnect()


async def test_a_reconnecting_room_gets_its_own_chat_only():
    a, b, watcher = await make_users("hist_a", "hist_b", "hist_w")
    match_id = await start_table([a, b])
    pa, w = await connected(match_id, a, watcher)
    await pa.say("for players")
    await w.say("for spectators")
    assert await wait_until(lambda: seen(w, "for spectators"))
    assert await wait_until(lambda: seen(pa, "for players"))
    pb, w2 = await connected(match_id, b, watcher)
    assert "for players" in pb.chat() and "for spectators" not in pb.chat()
    assert "for spectators" in w2.chat() and "for players" not in w2.chat()
    for r in (pa, pb, w, w2):
        await r.ws.disconnect()


async def test_html_is_escaped_and_a_link_stays_text():
    a, b = await make_users("esc_a", "esc_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pa.say('<script>alert(1)</script> <a href="https://x.example">x</a> https://y.example')
    assert await wait_until(lambda: seen(pb, "alert(1)"))
    chat = pb.chat()
    assert "<script>" not in chat and "<a href" not in chat
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in chat
    assert "https://y.example" in chat and 'href="https://y.example"' not in chat
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_an_over_long_line_is_refused_and_written_nowhere():
    a, b = await make_users("long_a", "long_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pa.say("ы" * 201)
    assert await wait_until(lambda: refused(pa, "не больше 200 символов"))
    await pa.say("ы" * 200)  # the longest allowed
    assert await wait_until(lambda: seen(pb, "ы" * 200))
    assert await database_sync_to_async(ChatMessage.objects.count)() == 1
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_writing_too_fast_is_refused(settings):
    settings.KOZEL_CHAT_RATE = "3/m"
    a, b = await make_users("fast_a", "fast_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    for n in range(4):
        await pa.say(f"line {n}")
    assert await wait_until(lambda: refused(pa, "Слишком много сообщений подряд"))
    assert await wait_until(lambda: seen(pb, "line 2"))
    assert "line 3" not in pb.chat()
    assert await database_sync_to_async(ChatMessage.objects.count)() == 3
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_a_moderators_mute_refuses_the_next_line_with_a_clear_message():
    a, b = await make_users("mute_a", "mute_b")
    match_id = await start_table([a, b])
    await database_sync_to_async(ChatSilence.objects.create)(
        person=a, until=timezone.now() + timedelta(hours=1))
    pa, pb = await connected(match_id, a, b)
    await pa.say("can you hear me")
    assert await wait_until(lambda: refused(pa, "Модератор запретил вам писать в чат до"))
    await pb.say("yes")
    assert await wait_until(lambda: seen(pa, "yes"))
    assert "can you hear me" not in pb.chat() + pa.chat()
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_a_person_can_mute_another_for_themselves_and_report_a_line():
    a, b, c = await make_users("own_a", "own_b", "own_c")
    match_id = await start_table([a, b, c])
    pa, pb, pc = await connected(match_id, a, b, c)
    await pa.say("rude words")
    assert await wait_until(lambda: seen(pb, "rude words"))
    message_id = int(LINE.search(pb.chat()).group(1))
    await pb.send({"chat_report": message_id})
    assert await wait_until(lambda: refused(pb, "Сообщение отправлено модераторам"))
    await pb.send({"chat_mute": message_id})
    assert await wait_until(lambda: database_sync_to_async(
        ChatMute.objects.filter(owner=b, muted=a).exists)())
    pb.frames.clear()
    await pa.say("more rude words")
    assert await wait_until(lambda: seen(pc, "more rude words"))  # the others still hear it
    await quiet([pb])
    assert "rude words" not in pb.chat()  # neither the old line (the log was sent again) nor the new
    assert await database_sync_to_async(ChatReport.objects.filter(
        message_id=message_id, reporter=b).exists)()
    for r in (pa, pb, pc):
        await r.ws.disconnect()


async def test_an_anonymous_watcher_cannot_write():
    a, b = await make_users("anon_a", "anon_b")
    match_id = await start_table([a, b])
    w = Reader(match_id, None)
    await w.connect()
    await w.say("hello")
    assert await wait_until(lambda: refused(w, "Чтобы писать в чат, войдите"))
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await w.ws.disconnect()


async def test_a_line_a_moderator_deletes_leaves_the_rooms_showing_it():
    from django.contrib.auth.models import Group

    from accounts.moderators import GROUP_NAME
    from accounts.models import ModeratorAction, User
    from games.moderation import service as moderation

    a, b, mod = await make_users("del_a", "del_b", "del_mod")

    def make_moderator():
        User.objects.filter(pk=mod.pk).update(is_staff=True)
        mod_ = User.objects.get(pk=mod.pk)
        mod_.groups.add(Group.objects.get(name=GROUP_NAME))
        return User.objects.get(pk=mod.pk)

    moderator = await database_sync_to_async(make_moderator)()
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pa.say("delete me")
    assert await wait_until(lambda: seen(pb, "delete me"))
    message_id = int(LINE.search(pb.chat()).group(1))
    await database_sync_to_async(moderation.delete_chat_message)(message_id, moderator, "insult")
    assert await wait_until(lambda: a_frame_with(pb, f'<li id="chat-{message_id}" hx-swap-oob="delete">'))
    assert await database_sync_to_async(ModeratorAction.objects.filter(
        action="chat_delete", match_id=match_id, person=a, reason="insult").exists)()
    for r in (pa, pb):
        await r.ws.disconnect()


async def a_frame_with(reader, markup) -> bool:
    await reader.drain()
    return any(markup in f for f in reader.frames)


async def test_the_rate_is_the_accounts_over_all_its_sockets(settings):
    settings.KOZEL_CHAT_RATE = "3/m"
    a, b = await make_users("tabs_a", "tabs_b")
    match_id = await start_table([a, b])
    first_tab, second_tab, pb = await connected(match_id, a, a, b)
    for n in range(3):
        await first_tab.say(f"tab line {n}")
    assert await wait_until(lambda: seen(pb, "tab line 2"))
    await second_tab.say("from the other tab")  # the same account: its fourth line
    assert await wait_until(lambda: refused(second_tab, "Слишком много сообщений подряд"))
    await pb.say("the other player may still write")
    assert await wait_until(lambda: seen(first_tab, "the other player may still write"))
    assert "from the other tab" not in pb.chat()
    for r in (first_tab, second_tab, pb):
        await r.ws.disconnect()


async def test_a_chat_message_carrying_a_move_is_only_a_chat_line():
    a, b = await make_users("carry_a", "carry_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    mover = pa if pa.turn_mine else pb
    move = mover.choices()[0]
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    await mover.send({**move, "chat": "a line with a move in it"})
    await mover.send({**move, "chat_report": 10**9})
    await mover.send({**move, "chat_mute": 10**9})
    assert await wait_until(lambda: seen(pa, "a line with a move in it"))
    assert await wait_until(lambda: refused(mover, "Такого сообщения нет"))
    after = await database_sync_to_async(Match.objects.get)(pk=match_id)
    assert (after.version, after.state, after.deadline) == (match.version, match.state,
                                                            match.deadline)
    assert mover.turn_mine  # still the mover's turn: no frame of a new version came
    for r in (pa, pb):
        await r.ws.disconnect()


async def test_a_person_muted_for_oneself_stays_muted_in_a_new_room():
    a, b = await make_users("keep_a", "keep_b")
    match_id = await start_table([a, b])
    pa, pb = await connected(match_id, a, b)
    await pa.say("before the mute")
    assert await wait_until(lambda: seen(pb, "before the mute"))
    await pb.send({"chat_mute": int(LINE.search(pb.chat()).group(1))})
    assert await wait_until(lambda: database_sync_to_async(
        ChatMute.objects.filter(owner=b, muted=a).exists)())
    (again,) = await connected(match_id, b)  # another tab, or the page loaded again
    assert "before the mute" not in again.chat()
    await pa.say("after the mute")
    await pb.say("a later line")  # the other's comes first, had it been sent
    assert await wait_until(lambda: seen(again, "a later line"))
    assert "after the mute" not in again.chat()
    for r in (pa, pb, again):
        await r.ws.disconnect()


async def test_the_chat_offers_the_quick_phrases():
    a, b = await make_users("quick_a", "quick_b")
    match_id = await start_table([a, b])

    def page():
        from django.test import Client
        client = Client()
        client.force_login(a)
        return client.get(f"/games/{match_id}/").content.decode()

    html = await database_sync_to_async(page)()
    phrases = re.findall(r"data-chat-quick ws-send hx-vals='([^']*)'>([^<]*)<", html)
    assert [(json.loads(vals)["chat"], label) for vals, label in phrases] == [
        ("Хорошая игра!", "Хорошая игра!"), ("Спасибо", "Спасибо"), ("Удачи", "Удачи")]


async def test_a_new_line_offers_mute_and_report_to_its_other_readers_only():
    """The rooms share a line's markup by what it offers (games.room.chat.line_html): its
    author gets none of the buttons, every other player both."""
    a, b, c = await make_users("acts_a", "acts_b", "acts_c")
    match_id = await start_table([a, b, c])
    pa, pb, pc = await connected(match_id, a, b, c)
    await pa.say("whose buttons")
    for reader in (pa, pb, pc):
        assert await wait_until(lambda: seen(reader, "whose buttons"))
    line_of = lambda reader: next(f for f in reader.frames if "whose buttons" in f)
    assert "data-chat-mute" not in line_of(pa) and "data-chat-report" not in line_of(pa)
    for other in (pb, pc):
        assert "data-chat-mute" in line_of(other) and "data-chat-report" in line_of(other)
    await pb.say("a second line")
    assert await wait_until(lambda: seen(pa, "a second line"))
    assert "data-chat-mute" in next(f for f in pa.frames if "a second line" in f)
    for r in (pa, pb, pc):
        await r.ws.disconnect()
