"""Scaled out (DESIGN.md, two ways to run): two daphne processes and a ``manage.py clock``
process sharing PostgreSQL and Redis.  A game whose players sit on different processes
plays normally; when one process dies its players carry on from the other; and Redis
restarted under running games: the players reconnect, resync and finish.

These need PostgreSQL and Redis (CI's first pass); the embedded pass skips them.
"""

import asyncio
import random
import time

import pytest

from games.lobby import service as requests
from games.models import MatchStatus

from .players import Player, Table, session_cookie, until_acknowledged
from .test_crash import check_log_holds, seat_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_players_on_different_server_processes_play_a_game_to_its_end(scaled_out, make_user):
    (first, second), clock = scaled_out()
    ((match, users),) = seat_tables(make_user, [4])
    me = make_user("with-bots")
    bots_match = requests.play_with_bots(me, 4)  # bots are moved by the clock process
    servers = [first, second]
    cookies = {u.pk: session_cookie(u) for u in users + [me]}

    async def main():
        # Seats 0 and 2 on the first process, 1 and 3 on the second; once the first dies
        # (as behind a proxy) its players connect to the second.
        people = Table([Player(match.pk, cookies[u.pk],
                               (lambda n=n: servers[n % 2].port if servers[n % 2].running
                                else second.port), n, random.Random(n))
                        for n, u in enumerate(users)])
        with_bots = Table([Player(bots_match.pk, cookies[me.pk], lambda: second.port, 0,
                                  random.Random(9))])
        for player in people.players + with_bots.players:
            await player.connect()
        until = time.monotonic() + 180
        playing = [asyncio.ensure_future(t.play(until)) for t in (people, with_bots)]
        await until_acknowledged([people], 40, playing)
        first.kill()
        await asyncio.gather(*playing)
        await asyncio.gather(*(g.settle() for g in (people, with_bots)))
        for player in people.players + with_bots.players:
            await player.close()
        return people, with_bots

    people, with_bots = asyncio.run(main())
    check_log_holds(match, people.players)
    assert match.status == MatchStatus.FINISHED, (match.result, people.describe(),
                                                   second.log_tail(), clock.log_tail())
    assert all(p.status == "finished" and p.version == match.version for p in people.players)
    assert people.players[0].connections >= 2 and people.players[1].connections == 1
    bots_match.refresh_from_db()
    assert bots_match.status == MatchStatus.FINISHED
    assert bots_match.moves.filter(seat__in=[1, 2, 3]).exists()


def test_games_go_on_after_redis_restarts(scaled_out, own_redis, make_user):
    (first, second), clock = scaled_out(redis_url=f"redis://127.0.0.1:{own_redis.port}/0")
    tables = seat_tables(make_user, [4, 2])
    servers = [first, second]
    cookies = {u.pk: session_cookie(u) for _m, users in tables for u in users}

    async def main():
        games = [Table([Player(match.pk, cookies[u.pk], lambda n=n: servers[n % 2].port, n,
                               random.Random(n)) for n, u in enumerate(users)])
                 for match, users in tables]
        for game in games:
            for player in game.players:
                await player.connect()
        until = time.monotonic() + 180
        playing = [asyncio.ensure_future(g.play(until)) for g in games]
        await until_acknowledged(games, 30, playing)
        own_redis.kill()  # every group membership and queued message is gone with it
        await asyncio.sleep(1.0)
        own_redis.start()
        await asyncio.to_thread(own_redis.ready)
        await asyncio.gather(*playing)
        await asyncio.gather(*(g.settle() for g in games))
        for game in games:
            for player in game.players:
                await player.close()
        return games

    games = asyncio.run(main())
    for (match, _users), game in zip(tables, games):
        check_log_holds(match, game.players)
        assert match.status == MatchStatus.FINISHED, (first.log_tail(), clock.log_tail())
        assert all(p.status == "finished" and p.version == match.version for p in game.players)

