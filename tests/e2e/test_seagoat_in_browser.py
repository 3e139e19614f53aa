"""Sea goat (RULES.md 13) in a real browser: a game against bots chosen in the lobby's
form and played to its end by clicking (on a phone and on a desktop), and a pair game of
four people in which one of them plays two doubles at once by tapping both.

The pages act only through what a person can see and do (Person.play, Person.draw,
Person.play_two_doubles in tests/e2e/conftest.py); the server is the daphne subprocess
with quick bots and short pauses (tests/daphne_server.py).  Screenshots of what was seen
are left in the folder KOZEL_SCREENSHOTS names, if it is set.
"""

from __future__ import annotations

import os

import pytest

from games import rules
from games.models import Match, MatchStatus, Rematch
from tests.waiting import wait_for

from .staging import seagoat_move, seagoat_pair_game_with_two_doubles
from .test_play_in_browser import ROOM_URL, Seat, play_to_the_end, wait_for_room

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Sea goat is played to 125 by one player at a time writing: longer than a game of Kozel.
SEA_GOAT_TIME_LIMIT = 480


def screenshot(page, name: str) -> None:
    """A look at the page, if asked for: a desktop's at 1280x800 (a phone's as it is)."""
    folder = os.environ.get("KOZEL_SCREENSHOTS")
    if not folder:
        return
    size = page.viewport_size
    if size["width"] > 1000:
        page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)
    page.set_viewport_size(size)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_sea_goat_game_against_bots_is_played_to_its_end_by_clicking(
        people, daphne_server, make_user, phone):
    user = make_user("masha")
    masha = people("masha", phone=phone)
    masha.log_in_as(user, daphne_server)
    page = masha.page
    page.goto("/")
    form = page.locator('form[data-testid="play-bots"]')
    # Choosing sea goat hides the fish rule, which is Kozel's alone.
    assert form.locator(".fish-choice").is_visible()
    form.locator('input[name="game"][value="sea-goat"] + label').click()
    assert not form.locator(".fish-choice").is_visible()
    form.locator('input[name="players"][value="2"] + label').click()
    screenshot(page, f"seagoat-lobby-{'phone' if phone else 'desktop'}")
    form.locator('button[type="submit"]').click()
    wait_for_room(page)
    masha.wait_until_live()
    match_id = int(ROOM_URL.match(page.url).group(1))
    # The room says which game it is and who is writing (nobody, at first).
    assert "Морской козёл" in page.locator("#table .room-bar .variant").inner_text()
    assert page.locator("#table [data-writing-now]").inner_text() == "Никто не пишет"

    seat = Seat(masha)
    play_to_the_end([seat], daphne_server, limit=SEA_GOAT_TIME_LIMIT)

    match = Match.objects.get(pk=match_id)
    state = rules.GameState.from_json(match.state)
    assert match.game == rules.SEA_GOAT and not match.rated
    assert match.status == MatchStatus.FINISHED and state.winners
    assert match.result["winners"] == list(state.winners) and match.result["how"] == state.how
    assert match.result["rating_points"] is None and not match.rating_records.exists()
    game = page.locator("[data-game]")
    assert game.get_attribute("data-status") == "finished"
    end = page.locator(".game-end")
    assert end.is_visible()
    assert end.locator("[data-winners]").is_visible()
    assert "Партии в морского козла не идут в рейтинг" in end.inner_text()
    # One more game keeps the game.
    assert Rematch.objects.get(game_id=match_id).table.game == rules.SEA_GOAT
    screenshot(page, f"seagoat-end-{'phone' if phone else 'desktop'}")
    assert masha.errors == []


def moved_on(match_id: int, version: int) -> bool:
    return Match.objects.filter(pk=match_id, version__gt=version).exists()


def test_four_people_play_sea_goat_in_pairs_and_one_plays_two_doubles_at_once(
        people, daphne_server, make_user, make_match):
    users = [make_user(name) for name in ("masha", "alex", "olya", "serg")]
    match, before_doubles = seagoat_pair_game_with_two_doubles(make_match, users,
                                                               turn_seconds=120)
    seats = [people(user.username, phone=n % 2 == 0) for n, user in enumerate(users)]
    for person, user in zip(seats, users):
        person.enter_room(user, daphne_server, match.pk)

    doubles = None
    while True:
        match.refresh_from_db()
        state = rules.GameState.from_json(match.state)
        if match.status != MatchStatus.PLAYING or state.phase != rules.PLAYING:
            break
        move = seagoat_move(state)
        person = seats[state.turn]
        person.page.locator(f'[data-game][data-version="{match.version}"]').wait_for()
        if move.kind == rules.DOUBLES:
            doubles = (state.turn, move.tile.name, move.second.name)
            # Both offered: each double of the two, and the one button for both.
            hand = person.page.locator("#room [data-hand]")
            for name in doubles[1:]:
                assert hand.locator(f'[data-tile="{name}"][data-with]').count() == 1
            assert person.page.locator("#room [data-doubles]").is_visible()
            screenshot(person.page, f"seagoat-two-doubles-{'phone' if person.touch else 'desktop'}")
            assert person.play_two_doubles()
        else:
            tile = move.to_json().get("play")
            person.move(tile, move.to_json().get("end"))
        assert wait_for(lambda: moved_on(match.pk, match.version)), daphne_server.log_tail()
        if doubles is not None:
            break

    assert doubles is not None
    match.refresh_from_db()
    last = match.moves.order_by("-number").filter(kind="play").first()
    assert last.seat == doubles[0] and sorted(last.payload["play"]) == sorted(doubles[1:])
    # Every room shows both doubles on the chain, one at each end, and says so in the log.
    name = users[doubles[0]].username
    for person in seats:
        page = person.page
        page.locator(f'[data-game][data-version="{match.version}"]').wait_for(state="attached")
        chain = page.locator("#table .chain-tile")
        ends = {chain.first.get_attribute("data-tile"), chain.last.get_attribute("data-tile")}
        assert ends == set(doubles[1:])
        log = page.locator("#table .round-log").inner_text()
        assert f"{name}: {doubles[1]} и {doubles[2]} сразу" in log, log
        assert page.locator("#table .pair-scores [data-pair]").count() == 2
    screenshot(seats[1].page, "seagoat-pairs-after-doubles-desktop")
    screenshot(seats[0].page, "seagoat-pairs-after-doubles-phone")
    assert [error for person in seats for error in person.errors] == []
