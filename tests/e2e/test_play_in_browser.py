"""Whole games in a real browser: two people meet in the lobby and play to the end, and
one person plays a table of bots to the end.

The server is a daphne subprocess with quick bots and short pauses between rounds
(tests/daphne_server.py, FAST_PLAY). The pages act only through what a person can see
and do -- on a phone by taps, on a desktop with the mouse (clicks and drags onto the
chain's ends): Person.play and Person.draw (tests/e2e/conftest.py).
"""

from __future__ import annotations

import re
import time

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A whole game: 2 players usually need 5-20 rounds; a generous bound that still fails fast
# enough to keep CI's time when something hangs.
GAME_TIME_LIMIT = 240
# An action the server did not answer (its reply lost, say) may be tried again after this.
RESEND_AFTER = 3.0
ROOM_URL = re.compile(r".*/games/(\d+)/$")

# Noted by the page itself: whether the htmx WebSocket is open, so the test knows the
# lobby is listening before someone else fills the table.
SOCKET_WATCH = """
document.addEventListener("htmx:wsOpen", () => { window.kozelSocketOpen = true; });
document.addEventListener("htmx:wsClose", () => { window.kozelSocketOpen = false; });
"""

LOOK = """() => {
  const game = document.querySelector("[data-game]");
  if (!game) return null;
  return {status: game.dataset.status, mine: game.dataset.turnMine === "true",
          version: game.dataset.version || ""};
}"""


class Seat:
    """A person playing in their room page like a quick, simple-minded human."""

    def __init__(self, person, gestures=(None,)):
        self.person = person
        self.gestures = gestures  # Person.play's "how", in turn (None: the device's own)
        self.moves = 0
        self.page = person.page
        self.acted_on: str | None = None
        self.acted_at = 0.0
        self.actions = 0
        self.status = "?"

    def step(self) -> str:
        """Look at the room once; act if it is this seat's turn. Returns the status."""
        from playwright.sync_api import Error

        try:
            seen = self.page.evaluate(LOOK)
        except Error:  # the page is between two documents
            return self.status
        if seen is None:
            return self.status
        self.status = seen["status"]
        if self.status != "playing" or not seen["mine"]:
            return self.status
        # One action per version of the view: the next view (or a refusal) answers it.
        if seen["version"] == self.acted_on and time.monotonic() - self.acted_at < RESEND_AFTER:
            return self.status
        if self.act():
            self.acted_on, self.acted_at = seen["version"], time.monotonic()
            self.actions += 1
        return self.status

    def act(self) -> bool:
        """Play the first playable tile (on the first end it fits), else draw from the
        bazaar, by this seat's gestures (Person.play). Knocks are the server's. False if
        nothing was done."""
        from playwright.sync_api import Error

        try:
            self.moves += 1
            return self.person.play(how=self.gestures[self.moves % len(self.gestures)]) \
                or self.person.draw()
        except Error:  # the view was replaced under the gesture: look again
            return False


def wait_for_script(page, expression: str, seconds: float = 30.0) -> None:
    """Wait until ``expression`` is true in the page.  Asked with ``page.evaluate``, which
    the page's Content-Security-Policy does not govern; Playwright's ``wait_for_function``
    polls with eval inside the page after its first try, which the policy refuses."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} did not come true in {seconds} s"
        page.wait_for_timeout(50)

def play_to_the_end(seats: list[Seat], server, limit: float = GAME_TIME_LIMIT) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        statuses = [seat.step() for seat in seats]
        if "interrupted" in statuses:
            raise AssertionError(f"the game was interrupted: {statuses}\n{server.log_tail()}")
        if all(status == "finished" for status in statuses):
            return
        seats[0].page.wait_for_timeout(25)
    raise AssertionError(
        f"the game did not end within {limit} s: {[s.status for s in seats]}, "
        f"actions {[s.actions for s in seats]}\n{server.log_tail()}")


def assert_game_over_shown(seat: Seat) -> None:
    page = seat.page
    game = page.locator("[data-game]")
    assert game.get_attribute("data-status") == "finished"
    assert game.get_attribute("data-turn-mine") == "false"
    assert seat.person.offered_moves() == []
    assert page.locator(".game-end").is_visible()


def test_two_people_meet_in_the_lobby_and_play_a_game_to_its_end(people, daphne_server):
    from games.models import Match, MatchStatus

    masha, alex = people("masha", phone=True), people("alex")
    for person in (masha, alex):
        person.context.add_init_script(SOCKET_WATCH)
        person.sign_up(person.name)

    # Masha opens a request for two; her lobby listens on its WebSocket.
    form = masha.page.locator('form[data-testid="create-request"]')
    form.locator('input[name="players"][value="2"] + label').click()
    form.locator('input[name="turn_seconds"]').fill("120")  # slow machines must not time out
    form.locator('button[type="submit"]').click()
    my_table = masha.page.locator("[data-my-table]")
    my_table.wait_for()
    match_id = int(my_table.get_attribute("data-my-table"))
    wait_for_script(masha.page, "window.kozelSocketOpen === true")

    # Alex sees it appear in his lobby and joins it: the table is full, both go in.
    join = alex.page.locator(f'[data-request="{match_id}"] [data-action="join"]')
    join.click()
    wait_for_room(alex.page)
    wait_for_room(masha.page)  # without a click: the lobby's WebSocket took her
    for person in (masha, alex):
        assert ROOM_URL.match(person.page.url).group(1) == str(match_id)
        person.page.locator("[data-game]").wait_for()
    # The turn clock counts in the page's language: Russian seconds are "с".
    from playwright.sync_api import expect
    expect(masha.page.locator(".clock .seconds")).to_have_text(re.compile(r"^\d+\u00a0с$"))

    # Masha taps on her phone; Alex drags his tiles onto the chain, or clicks them.
    seats = [Seat(masha), Seat(alex, gestures=("drag", "click"))]
    play_to_the_end(seats, daphne_server)

    for seat in seats:
        assert_game_over_shown(seat)
    assert all(seat.actions > 0 for seat in seats)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED and match.result["goats"]
    assert match.rated and len(match.result["rating_points"]) == 2
    assert masha.errors + alex.errors == []


def wait_for_room(page) -> None:
    """Until the page shows a game room's URL, however it got there: a form's redirect,
    or the lobby's WebSocket taking it to its table (games.lobby.service.start_table
    tells the lobby pages of every seated person) -- the later of the two navigations
    cuts the earlier one short, which is no failure while the page ends up in the room."""
    from playwright.sync_api import Error

    try:
        page.wait_for_url(ROOM_URL)
    except Error as error:
        if "ERR_ABORTED" not in str(error):
            raise
        page.wait_for_url(ROOM_URL)  # at once if the other navigation has arrived


def start_bot_table(person, players: int) -> int:
    """From the lobby, "Play with bots" for ``players`` seats; returns the game's id once
    its room is shown from its socket."""
    page = person.page
    page.goto("/")
    form = page.locator('form[data-testid="play-bots"]')
    form.locator(f'input[name="players"][value="{players}"] + label').click()
    form.locator('button[type="submit"]').click()
    wait_for_room(page)
    person.wait_until_live()
    return int(ROOM_URL.match(page.url).group(1))


# Every pip of the hand's tiles is a <use> of the page's pip drawings (templates/base.html):
# the browser must find each one and draw it where the tile's half is.
PIPS_DRAWN = """() => [...document.querySelectorAll("[data-hand] [data-tile]")].map(tile => {
  const [a, b] = tile.dataset.tile.split("-").map(Number);
  const uses = [...tile.querySelectorAll("use")];
  const drawn = uses.map(u => document.querySelector(u.getAttribute("href")))
    .every(g => g && g.querySelectorAll("circle").length > 0 && g.getBBox().width > 0);
  return {pips: a + b, halves: uses.length, wanted: (a > 0) + (b > 0), drawn,
          sized: uses.every(u => u.getBBox().width > 0)};
})"""


def assert_pips_drawn(page):
    tiles = page.evaluate(PIPS_DRAWN)
    assert tiles, "no tile in the hand"
    for tile in tiles:
        assert tile["halves"] == tile["wanted"] and tile["drawn"] and tile["sized"], tile


def test_one_person_plays_a_table_of_bots_to_its_end(people, daphne_server, make_user):
    from games.models import Match, MatchStatus

    olya = people("olya", phone=True)
    olya.log_in_as(make_user("olya"), daphne_server)
    match_id = start_bot_table(olya, 4)
    assert_pips_drawn(olya.page)

    seat = Seat(olya)
    play_to_the_end([seat], daphne_server)

    assert_game_over_shown(seat)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED and not match.rated
    assert match.seats.filter(user__isnull=True).count() == 3
    assert olya.errors == []
