"""A whole pair game (RULES.md 11) over four real WebSockets, from the lobby's request to
its end: partners marked and each pair's score shown once in every frame, the goats a
whole pair, no frame naming a tile of another hand (a partner's neither) or a notice
naming any, and the move log replaying to the snapshot."""

import random
import re

import pytest
from channels.db import database_sync_to_async

from games.lobby import service as requests
from games.models import MatchStatus
from games.records.log import state_after

from ..wsclient import Seat
from .test_consumer import make_users, no_hidden_tile_named, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


def tally_text(html: str) -> str:
    return re.sub(r"<[^>]+>|\s", "", html)


@pytest.mark.slow
async def test_a_whole_pair_game_over_four_websockets():
    users = await make_users("Masha", "Alex", "Olya", "Serg")
    match = await database_sync_to_async(requests.create_request)(
        users[0], players=4, fish="one", pairs=True)
    for user in users[1:]:
        await database_sync_to_async(requests.join_request)(user, match.pk)
    seats = [Seat(match.pk, u, random.Random(n)) for n, u in enumerate(users)]
    watcher = Seat(match.pk, None)
    for seat in seats + [watcher]:
        await seat.connect()
    match = await play_to_the_end(seats + [watcher], match.pk)
    assert match.status == MatchStatus.FINISHED and match.pairs
    goats = match.result["goats"]
    assert goats in ([0, 2], [1, 3], [0, 1, 2, 3])
    scores = match.result["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3]
    points = match.result["rating_points"]
    assert points[0] == points[2] and points[1] == points[3]
    state = match.state
    expected = [(str(state["scores"][p]) if state["opened"][p] or state["scores"][p] else "")
                + (f"+{state['remembered'][p]}" if state["remembered"][p] else "") or "0"
                for p in (0, 1)]
    for seat in seats:
        frame = seat.last_room
        assert seat.status == "finished" and seat.version == match.version
        pairs = re.search(r'<ul class="pair-scores".*?</ul>', frame, re.DOTALL).group(0)
        assert [tally_text(html) for html in re.findall(
            r'<span class="scores">(.*?)</span>\s*</li>', pairs, re.DOTALL)] == expected
        players = re.search(r'<div class="table-grid">.*?<div class="felt">', frame, re.DOTALL).group(0)
        assert 'class="score"' not in players and 'class="zero"' not in players
        marks = dict(re.findall(r'data-seat="(\d)".*?class="pair-mark pair-(\d)"', frame,
                                re.DOTALL))
        assert marks == {"0": "1", "1": "2", "2": "1", "3": "2"}
    replayed = await database_sync_to_async(state_after)(match)
    assert replayed.to_json() == match.state and replayed.pairs
    assert await database_sync_to_async(no_hidden_tile_named)(match, seats, watcher) > 50
    for seat in seats + [watcher]:
        await seat.ws.disconnect()
