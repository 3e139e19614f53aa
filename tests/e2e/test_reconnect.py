"""Nobody is put out by a server restart or a closed tab: the page reconnects by itself
and shows the game where it stands, then the game goes on to its end."""

from __future__ import annotations

import time

import pytest

from games import rules
from games.play import notify, service as services
from tests.waiting import wait_for

from .test_play_in_browser import Seat, assert_game_over_shown, play_to_the_end, start_bot_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shown_version(page) -> int:
    return int(page.locator("[data-game]").get_attribute("data-version"))


def wait_until_shown(page, version: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if shown_version(page) >= version:
                return
        except Exception:  # the room is being swapped
            pass
        page.wait_for_timeout(50)
    raise AssertionError(f"the page still shows version {shown_version(page)}, not {version}")


def test_the_page_reconnects_after_a_server_crash_and_the_game_goes_on(people, daphne_server,
                                                                       make_user):
    from games.models import Match, MatchStatus

    vera = people("vera", phone=True)
    vera.log_in_as(make_user("vera"), daphne_server)
    page = vera.page
    match_id = start_bot_table(vera, 2)
    seat = Seat(vera)
    for _ in range(400):  # play a few moves first
        seat.step()
        if seat.actions >= 3:
            break
        page.wait_for_timeout(25)
    assert seat.actions >= 3

    daphne_server.kill()  # a crash: connections drop without a goodbye
    before = shown_version(page)
    match = Match.objects.get(pk=match_id)
    state = rules.GameState.from_json(match.state)
    if state.phase == rules.PLAYING and state.turn == 0:
        # Vera moves from another tab while the server is down: only a reconnected page
        # can show it.  (Otherwise a bot moves as soon as the server is back.)  Its notice
        # is collected and dropped: no server is there to hear it, and this thread runs
        # Playwright's event loop, where the notice could not be sent synchronously.
        with notify.collected():
            services.act(match_id, match.seats.get(number=0).user,
                         {k: v for k, v in rules.legal_actions(state)[0].to_json().items()
                          if k != "seat"}, match.version)
    daphne_server.start()
    assert wait_for(lambda: Match.objects.get(pk=match_id).version > before)
    # The page reconnects by itself and shows the game as the server has it now.
    wait_until_shown(page, Match.objects.get(pk=match_id).version)

    # Closing the tab puts nobody out either: a new tab shows the game where it stands.
    page.close()
    vera.page = vera.context.new_page()
    vera.page.goto(f"/games/{match_id}/")
    wait_until_shown(vera.page, Match.objects.get(pk=match_id).version)

    seat = Seat(vera)
    play_to_the_end([seat], daphne_server)
    assert_game_over_shown(seat)
    assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED
    assert vera.errors == []
