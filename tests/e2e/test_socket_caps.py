"""A page whose socket the server refuses for a cap says so, and does not reconnect."""

from __future__ import annotations

import pytest

from tests.daphne_server import DaphneServer, live_server_env
from tests.waiting import wait_for

from .conftest import DESKTOP, PHONE, Person
from .test_play_in_browser import start_bot_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def one_socket_server(transactional_db, tmp_path):
    """A server that lets one account hold one socket per game."""
    server = DaphneServer(env=live_server_env(KOZEL_WS_SOCKETS_PER_GAME="1"), log_dir=tmp_path)
    server.start()
    yield server
    server.stop()
    print(f"--- daphne log ({server.log_path}) ---\n{server.log_tail()}")


def test_a_second_tab_over_the_cap_shows_why_and_stops(browser, one_socket_server, make_user):
    vera = Person(browser, one_socket_server, "vera", DESKTOP)
    vera.log_in_as(make_user("vera"), one_socket_server)
    try:
        match_id = start_bot_table(vera, 2)  # the first tab's socket holds the one place
        second = vera.context.new_page()
        second.set_viewport_size(PHONE)
        sockets = []
        second.on("websocket", lambda socket: sockets.append(socket.url))
        second.goto(f"/games/{match_id}/")
        note = second.locator("[data-socket-refused]")
        note.wait_for(state="visible")
        assert "слишком многих вкладках" in note.inner_text()
        # The place is free again once the first tab is gone: a page that kept
        # reconnecting would now get in; this one stays as it was.
        vera.page.close()
        # (Playwright hears the page's events only while it waits on the page itself.)
        assert not wait_for(lambda: second.wait_for_timeout(100)
                            or len([u for u in sockets if "/ws/games/" in u]) > 1, seconds=4)
        assert note.is_visible()
        assert second.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not vera.errors and not vera.refused
    finally:
        vera.context.close()
