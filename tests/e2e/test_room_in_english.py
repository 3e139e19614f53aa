"""An English page says everything in English, at phone and desktop sizes: the count of
watchers in the room (over the game's socket, in each viewer's own language), the bots'
names (with no "bot" mark beside a name that says so), and the brand in the header, the
title and the footer alike."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import WIDE
from .staging import a_moment, running_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]


def in_english(person, server) -> None:
    person.context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_an_english_room_counts_watchers_and_names_bots_in_english(
        people, daphne_server, make_user, make_match, tmp_path, phone):
    state = a_moment(lambda s: s.turn == 0)
    masha_user = make_user("masha")
    match = running_match(make_match, [masha_user, None], state)
    match.seats.filter(number=1).update(bot_name="Бот Петрович")
    masha, vera = people("masha", phone=phone, viewport=None if phone else WIDE), people("vera", phone=phone, viewport=None if phone else WIDE)
    in_english(masha, daphne_server)
    masha.enter_room(masha_user, daphne_server, match.pk)
    in_english(vera, daphne_server)  # a spectator
    vera.enter_room(make_user("vera"), daphne_server, match.pk)
    for person in (masha, vera):
        page = person.page
        expect(page.locator('#room-watching[data-watching="1"]')).to_have_text("Watching: 1")
        bot = page.locator('#table .seat[data-seat="1"] .name')
        expect(bot).to_contain_text("Bot Petrovich")
        assert "Бот" not in bot.inner_text() and bot.inner_text().lower().count("bot") == 1
        assert page.locator(".brand").inner_text().strip() == "Kozel"
        assert page.title().endswith("· Kozel")
        assert "Kozel:" in page.locator("footer").inner_text()
    masha.page.screenshot(path=str(tmp_path / f"english-room-{'phone' if phone else 'desktop'}.png"),
                          full_page=True)
    assert masha.errors + vera.errors == []


def test_a_russian_page_keeps_the_russian_brand_and_bot_names(
        people, daphne_server, make_user, make_match):
    state = a_moment(lambda s: s.turn == 0)
    masha_user = make_user("masha")
    match = running_match(make_match, [masha_user, None], state)
    match.seats.filter(number=1).update(bot_name="Бот Петрович")
    masha = people("masha", phone=True)
    masha.enter_room(masha_user, daphne_server, match.pk)
    page = masha.page
    bot = page.locator('#table .seat[data-seat="1"] .name')
    expect(bot).to_contain_text("Бот Петрович")
    assert bot.inner_text().lower().count("бот") == 1
    assert page.locator(".brand").inner_text().strip() == "Козёл"
    assert page.title().endswith("· Козёл")
    assert "Козёл:" in page.locator("footer").inner_text()
    assert masha.errors == []
