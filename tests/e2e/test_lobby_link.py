""""Lobby" clicked in a game's first seconds goes to the lobby and stays there: the lobby
takes a player to a table that has just started only until they have been in its room."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from .test_play_in_browser import start_bot_table, wait_for_script

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Counted by the page: the lobby's WebSocket messages, so that the test knows the live
# list (which would carry a redirect) has arrived.
COUNT_MESSAGES = """
window.kozelMessages = 0;
document.addEventListener("htmx:wsAfterMessage", () => { window.kozelMessages += 1; });
"""


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_lobby_link_in_a_new_game_goes_to_the_lobby(people, daphne_server, make_user, phone,
                                                       tmp_path):
    from games.models import Match

    lena = people("lena", phone=phone)
    lena.log_in_as(make_user("lena"), daphne_server)
    lena.page.add_init_script(COUNT_MESSAGES)
    match_id = start_bot_table(lena, 2)
    page = lena.page
    page.locator('.site-header nav a[href="/"]').click()
    page.wait_for_url(lambda url: urlsplit(url).path == "/")
    wait_for_script(page, "window.kozelMessages >= 1")
    # The game is still in its first seconds, and the page stays in the lobby.
    started = Match.objects.get(pk=match_id).started_at
    from django.utils import timezone

    from games.lobby.listing import JUST_STARTED
    assert timezone.now() - started < JUST_STARTED
    page.locator(f'[data-my-table="{match_id}"]').wait_for()
    assert urlsplit(page.url).path == "/"
    # The bots form remembers the table just asked for (games.lobby.remembered).
    bots = page.locator('form[data-testid="play-bots"]')
    assert bots.locator('input[name="players"][value="2"]').is_checked()
    page.screenshot(path=str(tmp_path / "lobby.png"), full_page=True)
    assert lena.errors == []
