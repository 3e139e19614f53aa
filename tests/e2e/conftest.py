"""Browser tests: Chromium driven by Playwright against a daphne subprocess.

Debian's Chromium (/usr/bin/chromium) when it is installed, else Playwright's own
download; `make test` sees to one of them first (bin/ensure-browser). A module's tests
share one browser; each person gets a context of their own, so cookies (sessions) never
leak between the people at a table or from one test to the next.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest

# Debian's Chromium; bin/ensure-browser reads the same variable.
CHROMIUM = os.environ.get("KOZEL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
WIDE = {"width": 1440, "height": 900}  # the desktop of issue 42's walkthrough


def pytest_itemcollected(item):
    # (Called for the tests of this folder only.)  Slow: started first (tests/conftest.py).
    # A module's tests run on one worker of the parallel run (tests/parallel.py), one
    # after the other: they share the module's browser.
    item.add_marker(pytest.mark.e2e)
    item.add_marker(pytest.mark.slow)


def launch_chromium(playwright):
    """Debian's Chromium if it is there, else Playwright's own (as bin/ensure-browser
    decided); a test fails with what to install when neither launches."""
    from playwright.sync_api import Error

    if os.access(CHROMIUM, os.X_OK):
        return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        return playwright.chromium.launch(args=CHROMIUM_ARGS)
    except Error as error:
        reason = str(error).strip().splitlines()[0]
    # Outside the except clause, so that the report is this one line and not the chain.
    pytest.fail(f"no Chromium for the browser tests ({CHROMIUM} is missing and Playwright's "
                f"own did not launch: {reason}): apt-get install -y chromium (as root), or "
                ".venv/bin/python -m playwright install chromium; make test tries both.",
                pytrace=False)


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for a module's tests; each person gets a context of their own.

    Playwright's sync API runs its event loop on this thread (in a greenlet), so Django
    sees "a running loop" and refuses database calls from the tests (and the flush of
    the database after each) as if they were made from async code. They are not: the
    code is plain sync code on one thread, so the check is switched off while the
    browser lives.
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()
            # For the same reason Django keeps the connections opened meanwhile apart
            # from the thread's own (as a task's); closed here, or PostgreSQL's test
            # database could not be dropped at the end for "other sessions".
            connections.close_all()


@pytest.fixture(autouse=True)
def _notices_kept_in_the_test_process():
    """What the test process changes (a game played in a fixture, a move made by a test)
    is not announced from it: while the module's browser lives, Playwright marks its
    event loop as running on this thread, where async_to_sync cannot send.  Nothing is
    lost: the server is another process, which hears the test process only over Redis,
    so every browser test passes without these notices (in the embedded run)."""
    from games.play import notify

    with notify.collected():
        yield


# Noted by the page itself: the lobby's list came in a frame of its socket, which
# replaces the list the page was served with (an element found before it is detached).
LOBBY_WATCH = """
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.target.id === "lobby-requests") document.documentElement.dataset.lobbyLive = "";
});
"""


class Person:
    """One person at a browser: their own context (cookies) and page, and what went wrong
    in the page (JavaScript errors) for the test to check. Whatever the page's
    Content-Security-Policy refused (Chromium says so on the console) fails the test
    anyway, when the people fixture ends."""

    def __init__(self, browser, server, name: str, viewport: dict, touch: bool = False,
                 **options):
        """``touch``: a phone, played by taps; ``options``: more of the context's (e.g.
        ``is_mobile``)."""
        self.name = name
        options.setdefault("has_touch", touch)
        self.touch = options["has_touch"]  # a phone: taps, not a mouse
        self.context = browser.new_context(base_url=server.url, viewport=viewport,
                                           locale="ru-RU", **options)
        self.context.set_default_timeout(15_000)
        self.context.add_init_script(LOBBY_WATCH)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"{self.name}: {error}"))
        self.refused: list[str] = []
        self.page.on("console", self._note_refusal)

    def _note_refusal(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.refused.append(f"{self.name} at {self.page.url}: {message.text}")

    def log_in_as(self, user, server) -> None:
        """Log in by session cookie: the server's password hasher differs from the test
        process's quick one, so a password typed into the log-in form would not match."""
        from django.test import Client

        client = Client()
        client.force_login(user)
        self.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                   "url": server.url}])

    def enter_room(self, user, server, match_id: int) -> None:
        """Log in as ``user`` and open the room of game ``match_id``, until it shows its
        view from the game's socket (data-live)."""
        self.log_in_as(user, server)
        self.page.goto(f"/games/{match_id}/")
        self.wait_until_live()

    def wait_until_live(self) -> None:
        """Until the room shows its view from the game's socket (data-live, set by
        static/js/kozel.js), not the page's own view that the first frame replaces."""
        self.page.locator("[data-room][data-live]").wait_for()

    def open_lobby(self) -> None:
        """Open the lobby, until it shows its list from the lobby's socket."""
        self.page.goto("/")
        self.page.locator("html[data-lobby-live]").wait_for(state="attached")

    # -- playing in the game room: the one place the tests make the gestures of play ----
    def play(self, tile: str | None = None, end: str | None = None, how: str | None = None) -> bool:
        """Play ``tile`` (else the hand's first playable tile) on ``end`` (else the first end
        it fits), as a person does: ``how`` is "tap" (a phone: the tile, then a lit end of
        the chain if it fits both), "click" (the same with a mouse) or "drag" (the tile
        dragged onto its end of the chain with a mouse; the lead onto the table).  The
        default is a tap on a phone and a click elsewhere.  False if there is no such tile
        to play now."""
        how = how or ("tap" if self.touch else "click")
        page = self.page
        self.wait_until_live()
        playable = "[data-tile][data-playable]" if tile is None \
            else f'[data-tile="{tile}"][data-playable]'
        button = page.locator(f"#room [data-hand] {playable}").first
        if not button.count():
            return False
        ends = (button.get_attribute("data-ends") or "").split()
        end = end or (ends[0] if ends else None)
        if how == "drag":
            target = page.locator(f'#table .open-end[data-end="{end}"]') if end \
                else page.locator("#table .felt")
            button.drag_to(target, timeout=2_000)
            return True
        # It fits both ends, or it is one of two doubles that may go at once (sea goat):
        # it is chosen, then its end on the table.  (Read first: a tap that sends the
        # move replaces the hand.)
        chosen_first = len(ends) == 2 or button.get_attribute("data-with") is not None
        self._press(button, how)
        if chosen_first:
            self._press(page.locator(f'#table .open-end.lit[data-end="{end}"]'), how)
        return True

    def play_two_doubles(self, how: str | None = None) -> bool:
        """Sea goat's two doubles at once, as a person does: tap (or click) one double,
        then the other; False if the room offers no such play now."""
        how = how or ("tap" if self.touch else "click")
        self.wait_until_live()
        first = self.page.locator("#room [data-hand] [data-tile][data-with]").first
        if not first.count():
            return False
        other = first.get_attribute("data-with")
        self._press(first, how)
        self._press(self.page.locator(f'#room [data-hand] [data-tile="{other}"]'), how)
        return True

    def draw(self, how: str | None = None) -> bool:
        """Draw from the bazaar, if the room offers it now."""
        button = self.page.locator('#room [data-action="draw"]')
        if not button.count():
            return False
        self._press(button.first, how or ("tap" if self.touch else "click"))
        return True

    @staticmethod
    def _press(locator, how: str) -> None:
        if how == "tap":
            locator.tap(timeout=2_000)
        else:
            locator.click(timeout=2_000)

    def offered_moves(self) -> list[str | None]:
        """What the room offers this person to do now: the tiles they may play ("3-5"),
        and None for drawing from the bazaar."""
        page = self.page
        tiles = page.locator("#room [data-hand] [data-tile][data-playable]")
        offered = [tiles.nth(n).get_attribute("data-tile") for n in range(tiles.count())]
        return offered + [None] * min(1, page.locator('#room [data-action="draw"]').count())

    def move(self, tile: str | None = None, end: str | None = None, timeout: float = 15_000) -> None:
        """One move, as a person does (``play``, ``draw``): play ``tile`` ("3-5") on ``end``
        ("left" or "right"; if not told, the first end it fits), or, with no tile, draw
        from the bazaar -- once the room offers it, within ``timeout`` ms."""
        offered = f'#room [data-hand] [data-tile="{tile}"][data-playable]' if tile is not None \
            else '#room [data-action="draw"]'
        self.page.locator(offered).first.wait_for(timeout=timeout)
        assert (self.play(tile, end) if tile is not None else self.draw()), (tile, end)

    def sign_up(self, username: str, password: str = "Kozel-e2e-pass-42") -> None:
        page = self.page
        page.goto("/accounts/signup/")
        page.fill('input[name="username"]', username)
        page.fill('input[name="password1"]', password)
        page.fill('input[name="password2"]', password)
        page.locator("main form.form").locator('button[type="submit"]').click()
        page.wait_for_url(lambda url: urlsplit(url).path == "/")  # signed up: the lobby


@pytest.fixture
def people(daphne_server, browser):
    """people("masha", phone=True) -> a Person with a fresh context on the live server
    (a phone: 390x844, touch; else a desktop: 1366x900, a mouse).

    Their contexts close at the end of the test, before its server stops."""
    made: list[Person] = []

    def make(name: str, phone: bool = False, viewport: dict | None = None, **options) -> Person:
        """``viewport``: another size than the phone's or the desktop's (e.g. ``WIDE``);
        ``options``: more of the context's (e.g. ``timezone_id="UTC"``)."""
        person = Person(browser, daphne_server, name, viewport or (PHONE if phone else DESKTOP),
                        touch=phone, **options)
        made.append(person)
        return person

    yield make
    for person in made:
        person.context.close()
    refused = [line for person in made for line in person.refused]
    assert not refused, "The Content-Security-Policy refused:\n" + "\n".join(refused)
