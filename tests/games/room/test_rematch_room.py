"""One more game in the ended game's room, over real WebSockets: everyone at the room sees
the offer and who accepted or declined, each person's page goes to the new room, and
answers that are not the sender's to give are refused, changing nothing.  (The rooms
speak the site's default language, Russian.)"""

import html
import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.lobby import rematch
from games.models import Match, Rematch, Seat
from games.play import service as services

from ..conftest import times_out, wait_until
from ..wsclient import Seat as Tab
from .test_consumer import make_users, start_table

pytestmark = pytest.mark.django_db(transaction=True)
FRAGMENT = 'id="rematch" class="rematch" hx-swap-oob="true"'
PERSON = re.compile(r'data-accepted="(true|false)"><span class="name">([^<]+)</span>')


class Room(Tab):
    """A connected tab that reads the offer of one more game it was sent."""

    async def send(self, message: dict):
        await self.ws.send_to(text_data=json.dumps(message))

    async def offer(self) -> str:
        """The last #rematch fragment this tab was sent ("" before any)."""
        await self.drain()
        frames = "".join(self.frames)
        at = frames.rfind(FRAGMENT)
        return "" if at < 0 else frames[at:].split("</div>\n", 1)[0]

    async def accepted(self) -> dict:
        return {name: flag == "true" for flag, name in PERSON.findall(await self.offer())}

    async def status(self) -> str:
        found = re.search(r'data-rematch="(\w+)"', await self.offer())
        return found.group(1) if found else ""

    async def notices(self) -> str:
        await self.drain()
        return html.unescape("".join(f for f in self.frames if "room-notice" in f))


async def connected(match_id, *users) -> list[Room]:
    rooms = [Room(match_id, user) for user in users]
    for room in rooms:
        await room.connect()
    return rooms


async def game_ended_by(users, leaver: int, *, spectator=None):
    """A started game of ``users`` whose seat ``leaver`` leaves it, with every person's
    tab (and a spectator's) connected before it ends."""
    match_id = await start_table(users)
    rooms = await connected(match_id, *users, *([spectator] if spectator else []))
    await database_sync_to_async(times_out)(match_id)  # (one who left is waited for by nobody)
    return match_id, rooms


async def all_see(rooms, predicate) -> bool:
    async def seen():
        for room in rooms:
            if not predicate(await room.offer()):
                return False
        return True
    return await wait_until(seen, seconds=10)


async def unchanged_state(game_id):
    def read():
        offer = Rematch.objects.get(game_id=game_id)
        return (offer.status, offer.accepted, offer.table_id, Match.objects.count(),
                Seat.objects.count())
    return await database_sync_to_async(read)()


async def test_a_person_who_leaves_is_not_waited_for_and_everyone_sees_why():
    a, b, watcher = await make_users("rl_a", "rl_b", "rl_w")
    match_id = await start_table([a, b])
    rooms = await connected(match_id, a, b, watcher)
    await database_sync_to_async(services.leave_game)(match_id, b)
    assert await all_see(rooms, lambda offer: 'data-rematch="withdrawn"' in offer)
    for room in rooms:
        assert "Выход из игры: rl_b." in await room.offer()
        assert "rematch-accept" not in await room.offer()


async def test_everyone_at_the_room_sees_the_offer_who_accepted_and_who_declined():
    a, b, c, watcher = await make_users("rm_a", "rm_b", "rm_c", "rm_w")
    match_id, rooms = await game_ended_by([a, b, c], leaver=0, spectator=watcher)
    persons, spectator = rooms[:3], rooms[3]
    assert await all_see(rooms, lambda offer: 'data-rematch="open"' in offer)
    table = await database_sync_to_async(lambda: Rematch.objects.get(game_id=match_id).table)()
    for room in rooms:  # its commitment, from the first moment: before anyone's seed
        assert table.commitment in await room.offer()
        # The new order, everyone one seat on: seat 2's person first.
        assert list(await room.accepted()) == ["rm_c", "rm_a", "rm_b"]
    for room in persons:
        assert 'data-action="rematch-accept"' in await room.offer()
        assert 'name="client_seed"' in await room.offer()
    assert "rematch-accept" not in await spectator.offer()  # watching: nothing to answer

    await persons[1].send({"rematch": "accept", "client_seed": "b-seed"})
    assert await all_see(rooms, lambda offer: re.search(
        r'data-accepted="true"><span class="name">rm_b<', offer))
    assert await persons[0].accepted() == {"rm_c": False, "rm_a": False, "rm_b": True}
    assert "rematch-accept" not in await persons[1].offer()  # answered: the others wait
    assert "rematch-decline" in await persons[1].offer()

    await persons[2].send({"rematch": "decline"})
    assert await all_see(rooms, lambda offer: 'data-rematch="withdrawn"' in offer)
    for room in rooms:
        assert "Отказ: rm_c." in await room.offer()
        assert table.commitment not in await room.offer()


async def test_when_all_accept_each_persons_page_goes_to_the_new_room_seats_turned():
    a, b, watcher = await make_users("go_a", "go_b", "go_w")
    match_id, rooms = await game_ended_by([a, b], leaver=1, spectator=watcher)
    assert await all_see(rooms, lambda offer: 'data-rematch="open"' in offer)
    await rooms[0].send({"rematch": "accept"})
    await rooms[1].send({"rematch": "accept", "client_seed": "  spaced  "})
    assert await all_see(rooms, lambda offer: 'data-rematch="started"' in offer)
    new = await database_sync_to_async(lambda: Rematch.objects.get(game_id=match_id).table)()
    go = f'data-redirect="/games/{new.pk}/"'
    for room in rooms[:2]:
        assert go in await room.offer()
    assert go not in await rooms[2].offer()
    assert f'href="/games/{new.pk}/"' in await rooms[2].offer()  # a link for the watcher
    seats = await database_sync_to_async(lambda: dict(new.seats.values_list("number", "user_id")))()
    assert seats == {1: a.pk, 0: b.pk}
    assert (await database_sync_to_async(lambda: new.client_seeds)())[0] == "spaced"
    # A person who opens the old room while the new game runs is taken there too.
    again = await connected(match_id, a)
    first = again[0].frames[0]
    assert go in first and first.index('<div id="room"') < first.index(FRAGMENT)
    # And the new room is theirs: seats turned.
    new_rooms = await connected(new.pk, a, b)
    assert all(room.status == "playing" for room in new_rooms)


async def test_a_room_frame_sent_after_the_end_carries_the_offer_into_its_slot():
    a, b = await make_users("slot_a", "slot_b")
    match_id, rooms = await game_ended_by([a, b], leaver=0)
    assert await all_see(rooms, lambda offer: 'data-rematch="open"' in offer)
    late = (await connected(match_id, b))[0]
    first = late.frames[0]
    assert first.index('id="rematch" class="rematch rematch-top" aria-live') < first.index(FRAGMENT)


async def test_answers_not_the_senders_to_give_are_refused_and_change_nothing():
    a, b, watcher, p, q = await make_users("hx_a", "hx_b", "hx_w", "hx_p", "hx_q")
    match_id, rooms = await game_ended_by([a, b], leaver=0, spectator=watcher)
    running = await start_table([p, q])
    assert await all_see(rooms, lambda offer: 'data-rematch="open"' in offer)
    await rooms[0].send({"rematch": "accept"})
    assert await all_see(rooms, lambda offer: 'data-accepted="true"><span class="name">hx_a'
                         in offer)
    before = await unchanged_state(match_id)
    spectator = rooms[2]
    await spectator.send({"rematch": "accept"})
    assert await wait_until(lambda: _has(spectator, "Ответить на предложение могут только"))
    await spectator.send({"rematch": "decline", "game": match_id})
    assert await wait_until(lambda: _has(spectator, "Ответить на предложение могут только",
                                         times=2))
    await rooms[0].send({"rematch": "accept"})  # twice
    assert await wait_until(lambda: _has(rooms[0], "Вы уже согласились"))
    await rooms[1].send({"rematch": "maybe"})
    assert await wait_until(lambda: _has(rooms[1], "Это не ответ на предложение"))
    await rooms[1].send({"rematch": "accept", "client_seed": ["not", "a", "seed"]})
    assert await wait_until(lambda: _has(rooms[1], "Зерно раздачи — от 1 до 64"))
    # In a running game's room, naming the ended game: an answer is about the room's own
    # game, which has no offer, whoever sends it.
    player, watching = await connected(running, p, b)
    await player.send({"rematch": "accept", "game": match_id})
    assert await wait_until(lambda: _has(player, "Здесь нет предложения"))
    await watching.send({"rematch": "accept", "game": match_id})
    assert await wait_until(lambda: _has(watching, "Ответить на предложение могут только"))
    assert await unchanged_state(match_id) == before
    assert (await unchanged_state(match_id))[0] == "open"


async def _has(room, words, times=1) -> bool:
    return (await room.notices()).count(words) >= times


async def test_leaving_the_room_for_long_withdraws_the_offer(settings):
    settings.KOZEL_REMATCH_AWAY = 30
    settings.KOZEL_REMATCH_SECONDS = 1000
    a, b = await make_users("away_a", "away_b")
    match_id, rooms = await game_ended_by([a, b], leaver=0)
    assert await all_see(rooms, lambda offer: 'data-rematch="open"' in offer)
    await rooms[1].ws.disconnect()
    sweep = database_sync_to_async(rematch.sweep)
    now = timezone.now()
    assert await sweep(now) == 0
    assert await sweep(now + timedelta(seconds=30)) == 1
    assert await all_see(rooms[:1], lambda offer: 'data-rematch="withdrawn"' in offer)
    assert "Нет на странице игры: away_b." in await rooms[0].offer()
