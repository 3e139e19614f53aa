"""Issue 42, point 3, in the room: each person's seat card shows the rating they brought to
the game, a bot's none, and the game's end the points it brought each player.  The
rating is part of the table every viewer shares (read with the seats, off the event loop,
once per snapshot), the same for every viewer and every process, whenever loaded."""

import gc
import re

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from accounts.models import Player
from games.lobby import service as requests
from games.room import cache as snapshots
from games.room.present import table_context
from tests.ratings import played

pytestmark = pytest.mark.django_db

BOX = re.compile(r'<div class="seat[^"]*" data-seat="(\d)".*?</div>', re.S)
RATING = re.compile(r'data-rating="(\d+)"')


def with_rating(make_user, name, rating):
    user = make_user(name)
    Player.objects.filter(user=user).update(rating=rating)
    return user


def box_ratings(table_html: str) -> dict[str, list[str]]:
    return {seat: RATING.findall(box) for seat, box in
            ((m.group(1), m.group(0)) for m in BOX.finditer(table_html))}


def split(frame: str) -> tuple[str, str]:
    at = frame.index('id="table"')
    return frame[:at], frame[at:]


def test_a_persons_card_shows_their_rating_and_a_bots_none(make_user):
    vera = with_rating(make_user, "vera", 42)
    match = requests.play_with_bots(vera, players=3)
    snapshot = snapshots.load(match.pk)
    assert snapshot.ratings == {0: 42, 1: None, 2: None}
    players = table_context(snapshot.match, snapshot.state, snapshot.seats,
                            snapshot.ratings)["players"]
    assert [(p["number"], p["bot"], p["rating"]) for p in players] == [
        (0, False, 42), (1, True, None), (2, True, None)]
    own, table = split(snapshots.render(snapshot, 0, "ru"))
    assert box_ratings(table) == {"0": ["42"], "1": [], "2": []}
    assert "data-rating" not in own  # not the viewer's own part: the table's
    # A spectator's frame shares the very same table.
    assert split(snapshots.render(snapshot, None, "ru"))[1] == table


def test_a_bot_never_shows_a_rating_whatever_it_is_given(make_user):
    match = requests.play_with_bots(make_user("olya"), players=2)
    snapshot = snapshots.load(match.pk)
    players = table_context(snapshot.match, snapshot.state, snapshot.seats,
                            {0: 3, 1: 99})["players"]
    assert [p["rating"] for p in players] == [3, None]


def test_the_seats_and_their_ratings_are_one_query_however_many_seats(make_user):
    def queries_of_load(players):
        people = [with_rating(make_user, f"q{players}_{n}", n) for n in range(players)]
        match = requests.create_request(people[0], players=players)
        for person in people[1:]:
            requests.join_request(person, match.pk)
        with CaptureQueriesContext(connection) as queries:
            snapshot = snapshots.load(match.pk)
        assert snapshot.ratings == {n: n for n in range(players)}
        return len(queries)

    assert queries_of_load(2) == queries_of_load(4)


def test_an_ended_rated_game_shows_the_ratings_brought_and_the_points_it_brought(make_user):
    """RULES.md 8 (tests/ratings/test_game_end.py's game): Masha 25 gets 8, Alex 110 the
    goat none, Olya 0 gets 10.  Loaded again after later games raised their ratings, the
    table still shows the ratings they brought to it."""
    users = [with_rating(make_user, name, rating)
             for name, rating in (("Masha", 40), ("Alex", 12), ("Olya", 5))]
    record = played.load("finished_rules8")
    match = played.play(played.seat_table(users, record), users, record)
    assert match.result["rating_points"] == [8, 0, 10]
    Player.objects.filter(user__in=users).update(rating=F("rating") + 100)
    snapshot = snapshots.load(match.pk)
    assert snapshot.ratings == {0: 40, 1: 12, 2: 5}
    players = table_context(snapshot.match, snapshot.state, snapshot.seats,
                            snapshot.ratings)["players"]
    assert [(p["rating"], p["rating_points"]) for p in players] == [(40, 8), (12, 0), (5, 10)]
    _own, table = split(snapshots.render(snapshot, None, "ru"))
    assert {seat: found[:1] for seat, found in box_ratings(table).items()} == {
        "0": ["40"], "1": ["12"], "2": ["5"]}
    end = re.search(r'<section class="game-end">.*?</section>', table, re.S).group(0)
    assert re.findall(r'data-end-seat="(\d)" data-end-points="(\d+)"', end) == [
        ("0", "8"), ("1", "0"), ("2", "10")]
    assert "→ 48" in end and "→ 15" in end and "+8" in end and "+10" in end
    _own, english = split(snapshots.render(snapshot, None, "en"))
    assert "rating +8" in english and "no rating points" in english


def test_an_unrated_games_end_shows_no_points(make_user):
    users = [with_rating(make_user, name, rating)
             for name, rating in (("Masha", 40), ("Alex", 12), ("Olya", 5))]
    record = played.load("finished_rules8")
    match = played.play(played.seat_table(users, record, rated=False), users, record)
    snapshot = snapshots.load(match.pk)
    assert snapshot.ratings == {0: 40, 1: 12, 2: 5}  # nothing was recorded: as they are
    _own, table = split(snapshots.render(snapshot, None, "ru"))
    end = re.search(r'<section class="game-end">.*?</section>', table, re.S).group(0)
    assert "data-end-points" not in end and "→" not in end
    assert end.count("игра без рейтинга") == 3 and "+" not in end


def test_a_load_of_the_seats_leaves_nothing_for_the_garbage_collector(make_user):
    """A server collects cycles rarely (kozel_site/runtime/interpreter.py): whatever a
    room's load leaves in a cycle stays in memory for minutes, and every connection loads
    its game's seats.  The ratings come as values, not as players that point back at
    their users."""
    people = [with_rating(make_user, f"p{n}", 10 * n) for n in range(2)]
    match = requests.create_request(people[0], players=2)
    requests.join_request(people[1], match.pk)
    snapshots.load(match.pk)  # the queries compiled and cached once
    gc.collect()
    gc.disable()
    try:
        gc.set_debug(gc.DEBUG_SAVEALL)
        snapshot = snapshots.load(match.pk)
        assert snapshot.ratings == {0: 0, 1: 10}
        del snapshot
        gc.collect()
        left = {type(thing).__name__ for thing in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert not left & {"User", "Player", "Seat", "Match", "ModelState"}
