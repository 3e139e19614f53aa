"""Ratings beside names (issue 42, point 3), seen in a real browser on a phone (390x844,
touch) and a desktop (1440x900): the lobby's open requests and games being played, the
room's seat cards (even on a phone, long names and four-digit ratings included) and the
game's end with the points it brought.  A bot shows no rating.  Screenshots are kept in
test-artifacts/screenshots/ratings-*.png to be looked at."""

from __future__ import annotations

import re

import pytest

from accounts.models import Player
from games import rules

from .page_checks import problems_of
from .test_board_on_screen import SIZES, check_board, person_at, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

RATED = (("Konstantin", 1234), ("Aleksandra", 987), ("Vladislav", 2026), ("Ekaterina", 0))


def with_ratings(make_user, named=RATED):
    users = []
    for name, rating in named:
        user = make_user(name)
        Player.objects.filter(user=user).update(rating=rating)
        users.append(user)
    return users


# What a sighted person reads: the text without what is there for screen readers only.
SHOWN = """nodes => nodes.map(n => { const c = n.cloneNode(true);
  c.querySelectorAll(".visually-hidden").forEach(h => h.remove()); return c.textContent; })"""


def texts(locator) -> list[str]:
    return [" ".join(t.split()) for t in locator.evaluate_all(SHOWN)]


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_ratings_beside_names(browser, daphne_server, make_user, size):
    from games.lobby import service as requests

    konstantin, aleksandra, vladislav, ekaterina = with_ratings(make_user)
    viewer, vera = with_ratings(make_user, (("viewer", 3), ("Vera", 45)))
    waiting = requests.create_request(konstantin, players=3)
    requests.join_request(aleksandra, waiting.pk)
    playing = requests.create_request(vladislav, players=2)
    requests.join_request(ekaterina, playing.pk)
    bots = requests.play_with_bots(vera, players=3)
    person = person_at(browser, daphne_server, size, "ratings-lobby")
    try:
        person.log_in_as(viewer, daphne_server)
        page = person.page
        person.open_lobby()
        request = page.locator(f'[data-request="{waiting.pk}"] .seats')
        assert texts(request.locator(".seat.taken")) == ["Konstantin 1234", "Aleksandra 987"]
        # The word is there for a screen reader, not shown.
        assert request.locator(".rating .visually-hidden").first.text_content().strip() == "рейтинг"
        game = page.locator(f'[data-playing="{playing.pk}"] .players')
        assert texts(game) == ["Vladislav 2026, Ekaterina 0"]
        with_bots = page.locator(f'[data-playing="{bots.pk}"] .players')
        assert with_bots.locator(".rating").count() == 1
        assert texts(with_bots)[0].startswith("Vera 45, ")
        page.locator(f'[data-request="{waiting.pk}"]').scroll_into_view_if_needed()
        shot(page, f"ratings-lobby-{size}")
        assert problems_of(page, "ratings-lobby-page", size) == []
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_rooms_seat_cards_show_ratings_and_stay_even(browser, daphne_server, make_user,
                                                         make_match, size):
    from .staging import a_moment, staged_match

    users = with_ratings(make_user)
    person = person_at(browser, daphne_server, size, "ratings-room")
    page = person.page
    try:
        for seats, fish, with_bot in ((4, rules.FISH_ONE, False), (3, rules.FISH_ONE, True)):
            players = users[:seats]
            if with_bot:
                players = [players[0], None, players[2]]
            state = a_moment(lambda s: len(s.chain) >= 16, seats, fish)
            match = staged_match(make_match, players, state)
            person.enter_room(players[0], daphne_server, match.pk)
            page.locator("#table .chain.laid-out").wait_for()
            page.wait_for_timeout(400)
            name = f"ratings-room-{seats}{'-bot' if with_bot else ''}-{size}"
            shot(page, name)
            check_board(page, size)  # the boxes even, all of the board in sight
            cards = {}
            for number in range(seats):
                card = page.locator(f'#table .seat[data-seat="{number}"]')
                rating = card.locator(".name .rating")
                cards[number] = texts(rating)[0] if rating.count() else None
                # The rating is in full beside the name, inside the card.
                if rating.count():
                    inner, outer = rating.bounding_box(), card.bounding_box()
                    assert inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5, (number, inner, outer)
            expected = {n: (None if p is None else str(dict(RATED)[p.username]))
                        for n, p in enumerate(players)}
            assert cards == expected
            assert problems_of(page, name + "-page", size) == []
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_games_end_shows_the_points_it_brought(browser, daphne_server, make_user, size):
    """tests/ratings/records/finished_rules8.json: Masha (25) gets 8, Alex the goat none,
    Olya (0) gets 10."""
    from tests.ratings import played

    players = with_ratings(make_user, (("Masha", 40), ("Alex", 12), ("Olya", 5)))
    record = played.load("finished_rules8")
    match = played.play(played.seat_table(players, record), players, record)
    person = person_at(browser, daphne_server, size, "ratings-end")
    try:
        person.enter_room(players[0], daphne_server, match.pk)
        page = person.page
        end = page.locator(".game-end .rating-list")
        end.scroll_into_view_if_needed()
        lines = texts(end.locator("li"))
        assert lines == ["Masha 40: счёт 25, рейтинг +8 → 48",
                         "Alex 12: счёт 110, без очков рейтинга",
                         "Olya 5: счёт 0, рейтинг +10 → 15"], lines
        assert [re.sub(r"\D", "", t) for t in texts(page.locator("#table .seat .name .rating"))] == [
            "40", "12", "5"]
        shot(page, f"ratings-end-{size}")
        assert problems_of(page, "ratings-end-page", size) == []
        assert person.errors == [] and person.refused == []
    finally:
        person.context.close()
