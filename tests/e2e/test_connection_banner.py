"""While the game's socket is down the room says so ("No connection — reconnecting…"),
and the words go away once the page is connected again."""

from __future__ import annotations

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
