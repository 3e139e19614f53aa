"""One more game deals like every game (RECORD.md, kozel-fair/1): its server seed is drawn
with the offer and its commitment shown from then on, before anyone gives a client seed;
every deal follows from that seed and the seeds given with the accepts (a bot's, its new
seat); and the seed leaves the server only once the new game is over."""

import random
import re

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.lobby import rematch, service as requests
from games.models import Match, MatchStatus, Move, Rematch
from games.play import service as services
from games.rules import fair

from ..conftest import times_out, wait_until
from ..records.test_fair_secret import SeedWatch, _clients, _people, play_watching
from ..wsclient import Seat

pytestmark = pytest.mark.django_db


def first_deal(table: Match) -> dict:
    return Move.objects.get(match=table, number=1).payload


@pytest.mark.parametrize("bots", [False, True])
def test_the_seed_is_committed_with_the_offer_and_the_deal_follows_from_the_accepts(
        make_user, bots):
    if bots:
        seats = {0: make_user("fb")}  # and bots in seats 1 to 3
        game = requests.play_with_bots(seats[0], 4)
        times_out(game.pk)
    else:
        seats = {n: make_user(f"f{n}") for n in range(3)}
        game = requests.create_request(seats[0], players=3)
        for n in (1, 2):
            requests.join_request(seats[n], game.pk)
        times_out(game.pk)
    offer = Rematch.objects.get(game=game)
    table = offer.table
    seed, commitment = bytes(table.server_seed), table.commitment
    # Public from the offer on, before any client seed: the room shows it.
    assert commitment == fair.commitment(seed)
    view = rematch.view_of(game.pk)
    assert view["commitment"] == commitment and not any(
        p["accepted"] for p in view["people"] if p["user"])
    given = {}
    for old_seat, person in seats.items():
        given[(old_seat + 1) % table.seats_count] = f"seed {person.username} {old_seat}!"
        rematch.accept(game.pk, person, given[(old_seat + 1) % table.seats_count])
    table.refresh_from_db()
    assert (bytes(table.server_seed), table.commitment) == (seed, commitment)  # unchanged
    expected = [given.get(n, str(n)) for n in range(table.seats_count)]  # bots: their seat
    assert table.client_seeds == expected
    deal, _attempt = fair.fair_deal(seed, 1, expected)
    assert first_deal(table) == deal.to_json()


def test_a_withdrawn_offers_table_and_seed_are_gone(make_user):
    people = [make_user("w0"), make_user("w1")]
    game = requests.create_request(people[0], players=2)
    requests.join_request(people[1], game.pk)
    times_out(game.pk)
    table_id = Rematch.objects.get(game=game).table_id
    rematch.decline(game.pk, people[1])
    assert not Match.objects.filter(pk=table_id).exists()  # never dealt: nothing to reveal


def offer_pages(game: Match, table: Match, clients) -> list[tuple[str, str]]:
    """Every page anyone may open while the offer is open: the lobby, the ended game's
    room and page, the new table's room, and the moderators' pages and the admin's."""
    urls = [reverse("games:lobby"), reverse("games:room", args=[game.pk]),
            reverse("records:game", args=[game.pk]), reverse("games:room", args=[table.pk]),
            reverse("games:invite", args=[table.invite_token])]
    staff = [reverse("moderation:index"), reverse("moderation:game", args=[table.pk]),
             reverse("admin:games_match_change", args=[table.pk]),
             reverse("admin:games_match_changelist")]
    out = []
    for who, client in clients.items():
        for url in urls + (staff if who == "boss" else []):
            response = client.get(url)
            out.append((f"{url} for {who} ({response.status_code})",
                        response.content.decode("utf-8", "replace")))
    return out


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_the_new_games_seed_is_in_no_frame_or_page_until_it_is_over():
    people, staff = await _people("fa", "fb")
    watcher = staff
    clients = await database_sync_to_async(_clients)(people, staff)
    game = await database_sync_to_async(requests.create_request)(people[0], players=2)
    await database_sync_to_async(requests.join_request)(people[1], game.pk)
    old_rooms = [Seat(game.pk, u) for u in (*people, watcher)]
    for room in old_rooms:
        await room.connect()
    await database_sync_to_async(times_out)(game.pk)
    offer = await database_sync_to_async(
        lambda: Rematch.objects.select_related("table").get(game=game))()
    table = offer.table
    watch = SeedWatch(bytes(table.server_seed))

    async def offer_shown(room):
        await room.drain()
        return table.commitment in "".join(room.frames)
    for room in old_rooms:  # the commitment, before anyone's seed
        assert await wait_until(lambda: offer_shown(room))
    for where, text in await database_sync_to_async(offer_pages)(game, table, clients):
        watch.check(text, where)

    for n, room in enumerate(old_rooms[:2]):
        await room.ws.send_to(text_data=f'{{"rematch": "accept", "client_seed": "fair-{n}"}}')

    async def started(room):
        await room.drain()
        return re.search(r'data-redirect="/games/(\d+)/"', "".join(room.frames))
    for room in old_rooms[:2]:
        assert await wait_until(lambda: started(room))
    for n, room in enumerate(old_rooms):
        for frame in room.frames:
            watch.check(frame, f"a frame to the ended game's room {n}")

    seats = [Seat(table.pk, u, random.Random(n)) for n, u in enumerate((people[1], people[0]))]
    seats.append(Seat(table.pk, None))  # a visitor watching
    for seat in seats:
        await seat.connect()
    ended, frames, _moments = await play_watching(seats, table.pk, watch, clients)
    assert ended.status == MatchStatus.FINISHED and frames > 50
    page = await database_sync_to_async(clients["fa"].get)(reverse("records:game", args=[table.pk]))
    assert bytes(table.server_seed).hex() in page.content.decode()  # over: revealed
    assert ["fair-1", "fair-0"] == await database_sync_to_async(lambda: ended.client_seeds)()
    for room in old_rooms + seats:
        await room.ws.disconnect()
