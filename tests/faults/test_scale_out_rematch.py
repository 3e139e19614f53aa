"""One more game scaled out: two daphne processes and a clock process sharing PostgreSQL
and Redis.  The clock ends the game (a turn runs out), the offer reaches the rooms on both
processes, an accept on one is seen on the other, and when both have accepted both pages
are taken to the new game.  (These need PostgreSQL and Redis, like the rest of
tests/faults/test_scale_out.py.)"""

import asyncio
import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from games.models import Match, Rematch

from .players import session_cookie
from .test_crash import seat_tables
from .test_scale_out_chat import Tab, until

pytestmark = pytest.mark.django_db(transaction=True)


def accepted(tab, name) -> bool:
    offers = tab.text().split('<div id="rematch" class="rematch" hx-swap-oob')
    return len(offers) > 1 and re.search(
        rf'data-accepted="true"><span class="name">{re.escape(name)}<', offers[-1]) is not None


def run_out(match_id):
    """The turn's time is up (on a thread of its own: its connection closed after)."""
    try:
        Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
    finally:
        connection.close()


def test_one_more_game_across_server_processes(scaled_out, make_user):
    (first, second), _clock = scaled_out()
    ((match, users),) = seat_tables(make_user, [2])
    cookies = {u.pk: session_cookie(u) for u in users}

    async def main():
        a, b = Tab(first, match.pk, cookies[users[0].pk]), Tab(second, match.pk, cookies[users[1].pk])
        for tab in (a, b):
            await tab.open()
        # The turn runs out: the clock process ends the game and makes the offer.
        await sync_to_async(run_out, thread_sensitive=False)(match.pk)
        assert await until(lambda: all('data-rematch="open"' in t.text() for t in (a, b)))
        await a.ws.send(json.dumps({"rematch": "accept", "client_seed": "first"}))
        assert await until(lambda: accepted(b, users[0].username))
        await b.ws.send(json.dumps({"rematch": "accept", "client_seed": "second"}))
        new = await until(lambda: all("data-redirect" in t.text() for t in (a, b)))
        for tab in (a, b):
            await tab.ws.close()
        return new

    assert asyncio.run(main())
    table = Rematch.objects.get(game=match).table
    assert table.client_seeds == ["second", "first"]  # seat 1's person now at seat 0
