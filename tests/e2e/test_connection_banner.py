"""While the game's socket is down the room says so ("No connection — reconnecting…"),
and the words go away once the page is connected again; the heartbeat finds a connection
lost without a close, and a restarted server has its pages back at once."""

from __future__ import annotations

import signal
import time

import pytest

from .test_play_in_browser import start_bot_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BANNER = "[data-connection-lost]"


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_room_shows_a_banner_while_its_socket_is_down(people, daphne_server, make_user,
                                                          phone, tmp_path):
    nina = people("nina", phone=phone)
    nina.log_in_as(make_user("nina"), daphne_server)
    start_bot_table(nina, 2)
    page = nina.page
    banner = page.locator(BANNER)
    banner.wait_for(state="hidden")

    daphne_server.kill()
    banner.wait_for(state="visible")
    assert banner.inner_text() == "Нет связи — переподключаемся…"
    # It fits the screen: no sideways scroll because of it.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(tmp_path / "banner.png"))

    daphne_server.start()
    banner.wait_for(state="hidden", timeout=30_000)
    assert nina.errors == []


# The heartbeat (games/live/base.py, static/js/kozel.js): what a player sees when the
# connection is lost without the socket being closed, and how soon it is back.
LOST_WITHIN = 5.0      # seconds: "no connection" shown after the connection is lost
BACK_WITHIN = 2.0      # seconds: the room live again after the server answers again


def seconds_until(page, selector: str, state: str, limit: float) -> float:
    started = time.monotonic()
    page.locator(selector).wait_for(state=state, timeout=limit * 1000 + 5_000)
    return time.monotonic() - started


def live_room(page, limit: float) -> float:
    """Seconds until the room shows its view from a socket again."""
    started = time.monotonic()
    page.locator("[data-room][data-live]").wait_for(timeout=limit * 1000 + 10_000)
    return time.monotonic() - started


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_network_lost_shows_no_connection_within_seconds_and_comes_back(
        people, daphne_server, make_user, phone):
    olga = people("olga", phone=phone)
    olga.log_in_as(make_user("olga"), daphne_server)
    start_bot_table(olga, 2)
    page = olga.page
    page.locator(BANNER).wait_for(state="hidden")

    page.context.set_offline(True)
    assert seconds_until(page, BANNER, "visible", LOST_WITHIN) < LOST_WITHIN
    page.wait_for_timeout(3_000)  # a few reconnections fail meanwhile
    page.context.set_offline(False)
    assert live_room(page, BACK_WITHIN) < BACK_WITHIN + 1.0
    page.locator(BANNER).wait_for(state="hidden")


def test_a_server_gone_without_a_close_shows_no_connection_and_the_page_comes_back(
        people, daphne_server, make_user):
    """The server stops answering but no socket is closed (its process frozen: a half-open
    connection, as when a machine or its network dies): only the heartbeat can tell."""
    petr = people("petr", phone=True)
    petr.log_in_as(make_user("petr"), daphne_server)
    start_bot_table(petr, 2)
    page = petr.page
    page.locator(BANNER).wait_for(state="hidden")

    daphne_server.process.send_signal(signal.SIGSTOP)
    try:
        assert seconds_until(page, BANNER, "visible", LOST_WITHIN) < LOST_WITHIN
    finally:
        daphne_server.process.send_signal(signal.SIGCONT)
    assert live_room(page, BACK_WITHIN) < BACK_WITHIN + 1.0


def test_after_a_restart_the_page_is_live_within_two_seconds_of_the_server_answering(
        people, daphne_server, make_user):
    ivan = people("ivan", phone=False)
    ivan.log_in_as(make_user("ivan"), daphne_server)
    start_bot_table(ivan, 3)
    page = ivan.page
    daphne_server.kill()
    page.locator(BANNER).wait_for(state="visible")
    page.wait_for_timeout(4_000)  # the page has been trying for a while: its backoff is at its cap
    daphne_server.start()  # returns once the server answers
    assert live_room(page, BACK_WITHIN) < BACK_WITHIN
    page.locator(BANNER).wait_for(state="hidden")
    assert ivan.errors == []
