"""The game room over real WebSockets: whole games, hidden tiles, races, hostile clients."""

import asyncio
import json
import random
import re
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import close_old_connections
from django.utils import timezone

from games import rules
from games.play import clock, service as services
from games.play.errors import PlayError
from games.lobby import service as requests
from games.models import ClockBeat, Match, MatchStatus
from games.records.log import replay_states, state_after
from games.rules.tiles import tile

from ..conftest import the_winner, wait_until
from ..wsclient import Seat, logged_in, next_frame

pytestmark = pytest.mark.django_db(transaction=True)
TILE_NAME = re.compile(r"\b([0-6])-([0-6])\b")


async def make_users(*names):
    from accounts.models import User
    return [await database_sync_to_async(User.objects.create_user)(n, password="x-Kozel-42")
            for n in names]


async def start_table(users, fish="all", bots=False):
    if bots:
        match = await database_sync_to_async(requests.play_with_bots)(users[0], 4, fish)
        return match.pk
    match = await database_sync_to_async(requests.create_request)(
        users[0], players=len(users), fish=fish)
    for user in users[1:]:
        await database_sync_to_async(requests.join_request)(user, match.pk)
    return match.pk


async def connected_table(*names) -> tuple[int, list[Seat]]:
    """A table of people with these names, each at their seat's room."""
    users = await make_users(*names)
    match_id = await start_table(users)
    seats = [Seat(match_id, u) for u in users]
    for seat in seats:
        await seat.connect()
    return match_id, seats


async def play_to_the_end(seats, match_id, limit=20000):
    """Every seat reacts to its frames; the clock deals rounds and plays bots.  When no
    seat may act, the next frame to any of them is waited for (a bot moved, a round was
    dealt)."""
    stop = asyncio.Event()
    ticking = asyncio.ensure_future(clock.run(interval=0.01, stop=stop))
    try:
        for _ in range(limit):
            for seat in seats:
                await seat.take_arrived()
            if any(seat.status in ("finished", "interrupted") for seat in seats):
                break
            mover = next((seat for seat in seats if seat.may_act()), None)
            if mover is None:
                await next_frame(seats)
                continue
            await mover.move()
            await mover.receive()

        async def every_seat_saw_the_end():
            for seat in seats:
                await seat.drain()
            return all(seat.status in ("finished", "interrupted") for seat in seats)

        await wait_until(every_seat_saw_the_end, seconds=10)  # the test says if it did not
    finally:
        stop.set()
        await ticking
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    return match


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
async def test_a_whole_game_over_websockets(players):
    users = await make_users(*[f"p{n}" for n in range(players)])
    match_id = await start_table(users, fish="one")
    seats = [Seat(match_id, u, random.Random(n)) for n, u in enumerate(users)]
    for seat in seats:
        await seat.connect()
    match = await play_to_the_end(seats, match_id)
    assert match.status == MatchStatus.FINISHED
    assert all(seat.status == "finished" for seat in seats)
    assert all(seat.version == match.version for seat in seats)
    # The move log is the record: replaying it gives the snapshot.
    replayed = await database_sync_to_async(state_after)(match)
    assert replayed.to_json() == match.state
    for seat in seats:
        await seat.ws.disconnect()


@pytest.mark.slow
async def test_the_score_table_comes_on_connecting_and_when_a_round_ends_not_with_every_move():
    users = await make_users("table0", "table1")
    match_id = await start_table(users)
    seats = [Seat(match_id, u, random.Random(n)) for n, u in enumerate(users)]
    for seat in seats:
        await seat.connect()
        assert 'id="round-table"' in seat.frames[0]  # empty before the first round ends
    match = await play_to_the_end(seats, match_id)
    rounds = await database_sync_to_async(lambda: match.round_scores.values("round_number").distinct().count())()
    for seat in seats:
        tables = [f for f in seat.frames[1:] if 'id="round-table"' in f]
        rooms = [f for f in seat.frames[1:] if 'id="room"' in f]
        # Once unfolded as each round ends, once folded as the next is dealt.
        assert rounds <= len(tables) <= 2 * rounds + 1, (len(tables), rounds)
        assert len(rooms) > 4 * len(tables)
        # (The offer of one more game, after the last one, has a disclosure of its own.)
        tables = [f.split('<div id="rematch" class="rematch" hx-swap-oob')[0] for f in tables]
        assert all(f.count("<details") <= 1 and "score-table" in f for f in tables)
        assert '<details class="round-table" open>' in tables[-1]  # the game is over
        await seat.ws.disconnect()


def hidden_tiles_named(frame: str, state: rules.GameState, seat: int) -> set:
    own = set(state.hand(seat))
    table = {t for t in rules.TILES if state.table & t.bit}
    revealed = set()
    if state.phase != rules.PLAYING and state.last_round:
        revealed = {tile(n) for h in state.last_round["hands"] for n in h}
    named = {tile(f"{a}-{b}") for a, b in TILE_NAME.findall(frame)}
    return named - own - table - revealed


@pytest.mark.slow
async def test_no_frame_ever_shows_a_tile_of_another_hand_or_of_the_bazaar():
    """Many whole games; every frame every seat receives is checked against the state the
    move log gives at that frame's version."""
    checked = 0
    for game, (players, fish) in enumerate([(2, "one"), (3, "all"), (4, "one"), (2, "all"),
                                            (3, "one")]):
        users = await make_users(*[f"g{game}p{n}" for n in range(players)])
        match_id = await start_table(users, fish)
        seats = [Seat(match_id, u, random.Random(game * 10 + n)) for n, u in enumerate(users)]
        watcher = Seat(match_id, None)
        for seat in seats + [watcher]:
            await seat.connect()
        match = await play_to_the_end(seats + [watcher], match_id)
        assert match.status == MatchStatus.FINISHED

        checked += await database_sync_to_async(no_hidden_tile_named)(match, seats, watcher)
    assert checked > 500


def no_hidden_tile_named(match, seats, watcher) -> int:
    """Every frame each seat and the watcher received, checked against the state the move
    log gives at that frame's version: it names no tile of another hand or of the bazaar
    (and a frame of no version, a notice, names no tile at all).  Returns how many."""
    states = dict(replay_states(match))
    count = 0
    for number, seat in enumerate(seats + [watcher]):
        for frame in seat.frames:
            version = re.search(r'data-version="(\d+)"', frame)
            if version is None:
                assert not TILE_NAME.search(frame), frame  # a notice names no tile
                continue
            v = int(version.group(1))
            own = number if number < len(seats) else None
            if own is None:
                leaked = hidden_tiles_named(frame, states[v], 0) - set(states[v].hand(0))
            else:
                leaked = hidden_tiles_named(frame, states[v], own)
            assert not leaked, f"seat {own} saw {leaked} at version {v}"
            count += 1
    return count


@pytest.mark.slow
async def test_a_table_of_bots_plays_itself_with_one_person():
    (me,) = await make_users("alone")
    match_id = await start_table([me], bots=True)
    seat = Seat(match_id, me)
    await seat.connect()
    match = await play_to_the_end([seat], match_id)
    assert match.status == MatchStatus.FINISHED and not match.rated


def count_loads(monkeypatch) -> list[int]:
    """The matches of the room cache's loads from now on, one entry a load."""
    from games.room import cache

    loads = []
    real_load = cache.load

    def counted_load(match_id, previous=None):
        loads.append(match_id)
        return real_load(match_id, previous)

    monkeypatch.setattr(cache, "load", counted_load)
    return loads


@pytest.mark.slow
async def test_the_clocks_deals_and_bot_moves_are_shown_without_reading_them_back(monkeypatch):
    """The clock runs in the server (the embedded setup): what it commits -- a deal, a bot's
    move -- reaches the rooms here as a player's move does, kept from what was written
    (games.live.fanout.publish_committed), not loaded again for every change."""
    loads = count_loads(monkeypatch)
    (me,) = await make_users("watched_clock")
    match_id = await start_table([me], bots=True)
    seat = Seat(match_id, me)
    await seat.connect()
    match = await play_to_the_end([seat], match_id)
    clock_changes = await database_sync_to_async(
        lambda: sum(1 for _ in Match.objects.get(pk=match_id).moves.exclude(seat=0)))()
    assert match.status == MatchStatus.FINISHED and clock_changes > 20
    # The room's first view, the game's end (always read afresh), and a few changes whose
    # score rows another change wrote in between -- never one load per change.
    assert len(loads) <= 5, (len(loads), clock_changes)


async def test_pages_that_beat_behind_a_lost_notice_share_one_load_of_the_new_version(
        monkeypatch):
    """A change committed whose notice was lost (its process gone between the commit and
    the notice): each page's beat shows it behind, and it gets its view -- the pages of
    the match here from one shared load, as a notice's rooms share one, not a load each
    (beats behind come most when a server is slow to send views)."""
    from games.live import notices as notify

    match_id, seats = await connected_table("lost_a", "lost_b", "lost_c")
    mover = next(s for s in seats if s.turn_mine)
    before = mover.version

    def move_quietly():
        with notify.collected():  # collected, never sent: the notice is lost
            services.act(match_id, mover.user, mover.choices()[0], before)
        close_old_connections()

    await database_sync_to_async(move_quietly)()
    loads = count_loads(monkeypatch)
    for seat in seats:
        assert await seat.ws.receive_nothing(timeout=0.01)  # no notice came
        await seat.ws.send_to(text_data=json.dumps({"beat": seat.version}))
    for seat in seats:
        await seat.receive()
        assert seat.version == before + 1
    assert len(loads) == 1


async def test_a_stale_action_is_refused_to_its_sender_only():
    match_id, seats = await connected_table("a1", "a2")
    mover = next(s for s in seats if s.turn_mine)
    other = next(s for s in seats if not s.turn_mine)
    message = dict(mover.choices()[0], version=mover.version - 1)
    await mover.ws.send_to(text_data=json.dumps(message))
    refusal = await mover.receive()
    assert "room-notice" in refusal and "error" in refusal
    # The other seat sends what is not JSON: the answer to that is the first thing it gets,
    # not the mover's refusal.
    await other.ws.send_to(text_data="not json")
    answer = await other.receive()
    assert "room-notice" in answer and "JSON" in answer


async def test_a_double_click_applies_once():
    match_id, seats = await connected_table("d1", "d2")
    mover = next(s for s in seats if s.turn_mine)
    version = mover.version
    message = mover.choices()[0]
    await mover.ws.send_to(text_data=json.dumps(message))
    await mover.ws.send_to(text_data=json.dumps(message))
    # A room handles its messages one after the other: once the second click is refused,
    # the first has been applied, and nothing more is coming.
    async def second_click_refused():
        await mover.drain()
        return any("room-notice" in f and "error" in f for f in mover.frames)

    assert await wait_until(second_click_refused, seconds=10), "the second click was not refused"
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    moves = await database_sync_to_async(lambda: list(
        match.moves.filter(number__gt=version).values_list("kind", flat=True)))()
    assert moves[0] in ("play", "draw") and moves[1:] == ["knock"] * (len(moves) - 1)


def test_two_actions_at_once_on_one_match_exactly_one_applies(make_user):
    """A real race: two threads, two database connections, the same version."""
    from django.db import connection
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("an in-memory SQLite database fails concurrent writers at once; "
                    "this race runs on PostgreSQL and on a file database")
    masha, alex = make_user("r1"), make_user("r2")
    match = requests.create_request(masha, players=2)
    requests.join_request(alex, match.pk)
    match.refresh_from_db()
    state = rules.GameState.from_json(match.state)
    user = masha if state.turn == 0 else alex
    legal = rules.legal_actions(state)
    chosen = legal[:2] if len(legal) > 1 else legal * 2  # two different moves when there are
    messages = [{k: v for k, v in a.to_json().items() if k != "seat"} for a in chosen]
    version = match.version
    results, barrier = [], threading.Barrier(2)

    def go(message):
        barrier.wait()
        try:
            results.append(services.act(match.pk, user, message, version))
        except PlayError as refusal:
            results.append(refusal.code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=go, args=(m,)) for m in messages]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results))[-1] == "stale"
    assert sum(isinstance(r, int) for r in results) == 1
    match.refresh_from_db()
    assert match.moves.filter(number=version + 1).count() == 1


async def test_a_timeout_is_enforced_with_no_client_connected(settings):
    users = await make_users("t1", "t2")
    match_id = await start_table(users)
    await database_sync_to_async(Match.objects.filter(pk=match_id).update)(
        deadline=timezone.now() - timedelta(seconds=1))
    # A clock was keeping time until now (else the first clock ever would give the turn
    # its time again: RULES.md 9, the site's own downtime; tests/games/play/test_clock.py).
    await database_sync_to_async(ClockBeat.objects.update_or_create)(
        pk=1, defaults={"beat_at": timezone.now()})
    stop = asyncio.Event()
    ticking = asyncio.ensure_future(clock.run(interval=0.01, stop=stop))

    async def ended():
        match = await database_sync_to_async(Match.objects.get)(pk=match_id)
        return match.status != MatchStatus.PLAYING

    await wait_until(ended, seconds=10)
    stop.set()
    await ticking
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    assert match.status == MatchStatus.ABORTED and match.result["reason"] == "timeout"
    watcher = Seat(match_id, None)
    await watcher.connect()
    assert watcher.status == "aborted"  # round 1 (RULES.md 9)


async def test_a_move_sent_as_the_clock_times_its_turn_out_either_wins_alone():
    """The room's way: on SQLite the move and the clock's sweep take turns on channels' one
    database thread (games/play/dbcall.py); the clock ticks, the turn having run out, as the
    move comes: started just before the move is sent, or just after."""
    winners = []
    for game in range(4):
        users = await make_users(f"race{game}-0", f"race{game}-1")
        match_id = await start_table(users)
        seats = [Seat(match_id, u) for u in users]
        for seat in seats:
            await seat.connect()
        mover = next(s for s in seats if s.turn_mine)
        version = mover.version
        await database_sync_to_async(Match.objects.filter(pk=match_id).update)(
            deadline=timezone.now() - timedelta(seconds=1))
        await database_sync_to_async(ClockBeat.objects.update_or_create)(
            pk=1, defaults={"beat_at": timezone.now()})  # a clock kept time: no outage
        stop = asyncio.Event()
        if game % 2:
            await mover.move()
        ticking = asyncio.ensure_future(clock.run(interval=0.001, stop=stop))
        if not game % 2:
            await mover.move()

        async def the_mover_saw_the_outcome():
            await mover.drain()
            match = await database_sync_to_async(Match.objects.get)(pk=match_id)
            refused = any("room-notice" in f and "error" in f for f in mover.frames)
            return mover.version == match.version > version and (
                match.status == MatchStatus.PLAYING or refused)

        try:
            assert await wait_until(the_mover_saw_the_outcome, seconds=10)
        finally:
            stop.set()
            await ticking
        match = await database_sync_to_async(Match.objects.get)(pk=match_id)
        winner = await database_sync_to_async(the_winner)(match, version, seats.index(mover))
        assert mover.status == ("playing" if winner == "move" else "aborted")
        winners.append(winner)
        for seat in seats:
            await seat.ws.disconnect()
    assert len(winners) == 4


# -- hostile clients ---------------------------------------------------------------------

async def hostile_setup():
    users = await make_users("h1", "h2", "h3")
    match_id = await start_table(users[:2])
    seats = [Seat(match_id, u) for u in users[:2]]
    for seat in seats:
        await seat.connect()
    return users, match_id, seats


async def snapshot(match_id):
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    return match.version, match.state


@pytest.mark.parametrize("message", [
    "not json", "[1, 2]", '{"play": "9-9", "version": 1}', '{"fly": true, "version": 1}',
    '{"play": "1-1", "seat": 3, "version": 1}', '{"knock": true, "version": "x"}',
    '{"draw": "yes", "version": 1}', json.dumps({"play": "1-1", "version": 10**30}),
])
async def test_a_bad_message_gets_an_error_and_changes_nothing(message):
    users, match_id, seats = await hostile_setup()
    before = await snapshot(match_id)
    for seat in seats:
        await seat.ws.send_to(text_data=message)
        frame = await seat.receive()
        assert "error" in frame
    assert await snapshot(match_id) == before


async def test_a_message_for_another_seat_cannot_move_it():
    users, match_id, seats = await hostile_setup()
    waiting = next(s for s in seats if not s.turn_mine)
    mover = next(s for s in seats if s.turn_mine)
    before = await snapshot(match_id)
    message = dict(mover.choices()[0], seat=0 if seats.index(mover) == 0 else 1)
    await waiting.ws.send_to(text_data=json.dumps(message))
    assert "error" in await waiting.receive()
    assert await snapshot(match_id) == before


async def test_a_too_large_message_or_a_flood_disconnects(settings):
    settings.KOZEL_WS_FLOOD = (8.0, 16)
    users, match_id, seats = await hostile_setup()
    before = await snapshot(match_id)
    await seats[0].ws.send_to(text_data="x" * 5000)
    assert "error" in await seats[0].receive()
    assert (await seats[0].ws.receive_output(timeout=1))["type"] == "websocket.close"
    for _ in range(40):
        await seats[1].ws.send_to(text_data="{}")
    closed = False
    for _ in range(60):
        output = await seats[1].ws.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            closed = True
            break
    assert closed
    assert await snapshot(match_id) == before


async def test_only_the_sites_own_origin_may_connect():
    users, match_id, _ = await hostile_setup()
    ws = await logged_in(f"/ws/games/{match_id}/", users[0], origin=(b"origin", b"http://evil.example"))
    connected, _ = await ws.connect()
    assert not connected


async def test_a_spectator_sees_no_hand_and_cannot_play():
    users, match_id, seats = await hostile_setup()
    watcher = Seat(match_id, users[2])
    await watcher.connect()
    assert "data-hand" not in watcher.last_room
    before = await snapshot(match_id)
    mover = next(s for s in seats if s.turn_mine)
    await watcher.ws.send_to(text_data=json.dumps(mover.choices()[0]))
    refusal = await watcher.receive()
    while 'id="room-watching"' in refusal and "room-notice" not in refusal:
        refusal = await watcher.receive()  # its own arrival's count may come after the room
    assert "room-notice error" in refusal and "зрители не ходят" in refusal
    assert await snapshot(match_id) == before


async def test_a_private_table_refuses_strangers():
    users = await make_users("v1", "v2", "v3")
    match = await database_sync_to_async(requests.create_request)(users[0], players=2, private=True)
    ws = await logged_in(f"/ws/games/{match.pk}/", users[2])
    connected, code = await ws.connect()
    assert not connected and code == 4403


def staff(name, moderator):
    from django.contrib.auth.models import Group

    from accounts.models import User
    from accounts.moderators import GROUP_NAME

    person = User.objects.create_user(name, password="x-Kozel-42", is_staff=True)
    if moderator:
        person.groups.add(Group.objects.get(name=GROUP_NAME))
    return User.objects.get(pk=person.pk)


@pytest.mark.parametrize("moderator", [False, True])
async def test_a_private_table_lets_in_moderators_but_not_other_staff(moderator):
    users = await make_users("v4", "v5")
    match = await database_sync_to_async(requests.create_request)(users[0], players=2, private=True)
    viewer = await database_sync_to_async(staff)("clerk", moderator)
    ws = await logged_in(f"/ws/games/{match.pk}/", viewer)
    connected, code = await ws.connect()
    if moderator:
        assert connected and 'id="room"' in await ws.receive_from()
        await ws.disconnect()
    else:
        assert not connected and code == 4403


@pytest.mark.parametrize("language, not_json, not_your_turn", [
    ("en", "That message is not JSON.", "It is not your turn."),
    ("ru", "Это сообщение не в формате JSON.", "Сейчас не ваш ход."),
])
async def test_refusals_come_in_the_players_language(language, not_json, not_your_turn):
    from ..wsclient import communicator, session_cookie

    users = await make_users(f"lang-{language}1", f"lang-{language}2")
    match_id = await start_table(users)
    rooms = []
    for user in users:
        cookie = await database_sync_to_async(session_cookie)(user)
        room = communicator(f"/ws/games/{match_id}/", cookie + f"; django_language={language}".encode())
        assert (await room.connect())[0]
        rooms.append((room, await room.receive_from()))
    waiting, frame = next((r, f) for r, f in rooms if 'data-turn-mine="false"' in f)
    version = int(re.search(r'data-version="(\d+)"', frame).group(1))
    await waiting.send_to(text_data="not json")
    assert not_json in await waiting.receive_from()
    await waiting.send_to(text_data=json.dumps({"draw": True, "version": version}))
    assert not_your_turn in await waiting.receive_from()
    for room, _frame in rooms:
        await room.disconnect()


@pytest.mark.slow
async def test_every_viewer_of_a_version_is_sent_the_same_table():
    """Three players and a spectator in one process, a whole game: whatever version they
    are shown (after their first frame, each connection's own load), the table fragment
    is the same bytes for all of them, the server's clock reading in it included."""
    users = await make_users("once0", "once1", "once2", "once3")
    match_id = await start_table(users[:3], fish="one")
    seats = [Seat(match_id, u, random.Random(n)) for n, u in enumerate(users[:3])]
    watcher = Seat(match_id, users[3])
    for seat in seats + [watcher]:
        await seat.connect()
    match = await play_to_the_end(seats + [watcher], match_id)
    assert match.status == MatchStatus.FINISHED
    tables: dict[int, set] = {}
    for seat in seats + [watcher]:
        for frame in seat.frames[1:]:
            table = re.search(r'<div id="table".*', frame, re.DOTALL)
            if table is None:
                continue
            version = int(re.search(r'data-version="(\d+)"', frame).group(1))
            fragment = table.group(0).split('<div id="round-table"')[0]
            # A clock that starts gives the running turn its time again at the same
            # version (RULES.md 9, a restart): the table is drawn again then, and only its
            # deadline and clock reading differ.
            fragment = re.sub(r'data-(deadline|now)="\d*"', "", fragment)
            tables.setdefault(version, set()).add(fragment)
    shared = [v for v, fragments in tables.items() if len(fragments) == 1]
    assert len(tables) > 20 and set(shared) == set(tables), \
        [v for v, fragments in tables.items() if len(fragments) > 1]
    for seat in seats + [watcher]:
        await seat.ws.disconnect()
