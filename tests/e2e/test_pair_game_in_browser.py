"""A pair game (RULES.md 11) played to its end by four people clicking in their own
browsers, two of them on phones.

Its deals are staged through its kozel-fair/1 seeds (staging.quick_pair_game), so that
it ends by the rules in two rounds or so rather than in five or six.  Each move is the
first of the rules' legal moves of the player to move, made by clicking in that
player's room once it shows the game's latest version; the server deals the second
round itself after the pause, and ends the game when a pair reaches 101.
"""

from __future__ import annotations

import pytest

from games import rules
from games.models import Match, MatchStatus
from tests.waiting import wait_for

from .staging import first_move, quick_pair_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def moved_on(match_id: int, version: int) -> bool:
    return Match.objects.filter(pk=match_id, version__gt=version).exists()


def test_four_people_play_a_pair_game_to_its_end(people, daphne_server, make_user, make_match):
    users = [make_user(name) for name in ("masha", "alex", "olya", "serg")]
    match, plays = quick_pair_game(make_match, users, rated=True, turn_seconds=120)
    seats = [people(user.username, phone=n % 2 == 0) for n, user in enumerate(users)]
    for person, user in zip(seats, users):
        person.log_in_as(user, daphne_server)
        person.page.goto(f"/games/{match.pk}/")
        person.page.locator("[data-game]").wait_for()

    made, rounds_seen = 0, set()
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = rules.GameState.from_json(match.state)
        if state.phase != rules.PLAYING:  # between rounds: the server's clock deals
            assert wait_for(lambda: moved_on(match.pk, match.version)), daphne_server.log_tail()
            continue
        rounds_seen.add(state.round)
        move = first_move(state).to_json()
        person = seats[state.turn]
        # The mover's room has the latest version: what it offers is what the rules do.
        person.page.locator(f'[data-game][data-version="{match.version}"]').wait_for()
        assert move["play"] in person.offered_moves()
        person.move(move["play"], move.get("end"))
        assert wait_for(lambda: moved_on(match.pk, match.version)), daphne_server.log_tail()
        made += 1

    # Ended by the rules: a pair at 101 or more, both its players goats.
    assert match.status == MatchStatus.FINISHED, match.result
    state = rules.GameState.from_json(match.state)
    goats = sorted(match.result["goats"])
    assert goats in ([0, 2], [1, 3]) and state.scores[goats[0]] >= 101
    assert made == plays and rounds_seen == set(range(1, state.round + 1)) and state.round > 1
    points = match.result["rating_points"]
    winners = [n for n in range(4) if n not in goats]
    assert points[winners[0]] == points[winners[1]] >= 1 and points[goats[0]] == 0
    for person in seats:
        page = person.page
        # Attached, not visible: the seat that went out has an empty hand part at the end.
        page.locator(f'[data-game][data-status="finished"][data-version="{match.version}"]') \
            .wait_for(state="attached")
        assert page.locator(".game-end").is_visible()
        assert person.offered_moves() == []
        assert page.locator(".pair-scores [data-pair]").count() == 2  # each pair's score, once
    assert [error for person in seats for error in person.errors] == []
