"""A server process killed (SIGKILL) in the middle of games played over real sockets, and
started again: every game resumes and ends, every move a player saw acknowledged is in
the move log exactly once, and a move repeated after the crash is refused, not applied
again.  Runs in both setups (the server's database is the test's own)."""

import asyncio
import random
import time

import pytest

from games.lobby import service as requests
from games.models import Match, MatchStatus, MoveKind
from games.records.log import state_after

from .players import Player, Table, session_cookie, until_acknowledged

pytestmark = pytest.mark.django_db(transaction=True)


def seat_tables(make_user, sizes):
    """Tables of people only, full and dealt: [(match, [user per seat])]."""
    tables = []
    for number, size in enumerate(sizes):
        users = [make_user(f"crash{number}p{n}") for n in range(size)]
        match = requests.create_request(users[0], players=size, turn_seconds=60, rated=True)
        for user in users[1:]:
            requests.join_request(user, match.pk)
        seats = dict(match.seats.values_list("user_id", "number"))
        tables.append((match, sorted(users, key=lambda u: seats[u.pk])))
    return tables


def check_log_holds(match: Match, players: list[Player]) -> int:
    """The move log is whole and holds every acknowledged move once, where it was made."""
    match.refresh_from_db()
    numbers = list(match.moves.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, match.version + 1))
    assert state_after(match).to_json() == match.state  # each logged move applied once
    moves = {m.number: m for m in match.moves.all()}
    checked = 0
    for player in players:
        for version, message in player.acknowledged:
            move = moves[version + 1]
            assert move.seat == player.seat, (version, message)
            if "play" in message:
                assert move.kind == MoveKind.PLAY and move.payload["play"] == message["play"]
                if "end" in message:
                    assert move.payload.get("end") == message["end"]
            else:
                assert move.kind == MoveKind.DRAW
            checked += 1
    return checked


def test_a_server_killed_in_the_middle_of_games_loses_and_repeats_no_acknowledged_move(
        server, make_user):
    tables = seat_tables(make_user, [4, 3, 2])
    cookies = {u.pk: session_cookie(u) for _m, users in tables for u in users}
    rng = random.Random(6)
    kills = []
    repeated = []

    async def main():
        games = [Table([Player(match.pk, cookies[u.pk], lambda: server.port, seat,
                               random.Random(rng.random())) for seat, u in enumerate(users)])
                 for match, users in tables]
        for game in games:
            for player in game.players:
                await player.connect()
        until = time.monotonic() + 180
        playing = [asyncio.ensure_future(game.play(until)) for game in games]

        for threshold in (15, 70):  # twice, while moves of three games are on their way
            await until_acknowledged(games, threshold, playing)
            server.kill()
            kills.append(threshold)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(server.start)
            if threshold == 15:
                # Once back, someone repeats a move the server acknowledged before the crash
                # (as a client that never saw the answer would): it must not happen twice.
                sender = next(p for g in games for p in g.players if p.acknowledged)
                for _ in range(600):  # its table's task reconnects it
                    if sender.connected:
                        break
                    await asyncio.sleep(0.05)
                version, message = sender.acknowledged[-1]
                # Its table may be moving it meanwhile: sends take turns, and a move on an
                # old view counts as refused only on the server's refusal (Player.send).
                repeated.append(await sender.send(dict(message, version=version)))
        await asyncio.gather(*playing)
        await asyncio.gather(*(g.settle() for g in games))
        for game in games:
            for player in game.players:
                await player.close()
        return games

    games = asyncio.run(main())
    assert len(kills) == 2 and repeated == ["refused"]
    checked = 0
    for (match, _users), game in zip(tables, games):
        checked += check_log_holds(match, game.players)
        assert match.status == MatchStatus.FINISHED, server.log_tail()
        assert all(p.connections >= 3 for p in game.players)  # reconnected after each crash
        assert all(p.status == "finished" and p.version == match.version for p in game.players)
    assert checked >= 70
