"""The lobby's request form in a real browser, at phone and desktop sizes: a "pairs" tick
left from the last game of four neither shows nor refuses a smaller table, and a form
sent back with an error shows that error on the screen, not a screen or two below it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import WIDE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

LAST_GAME_OF_FOUR = {"request": {"game": "kozel", "players": 4, "fish": "all", "pairs": True,
                                 "turn_seconds": 60, "rated": True, "private": False}}


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_pairs_tick_from_a_game_of_four_does_not_refuse_a_table_of_two(
        people, daphne_server, make_user, tmp_path, phone):
    from games.models import Match

    user = make_user("masha")
    user.player.table_terms = LAST_GAME_OF_FOUR
    user.player.save(update_fields=["table_terms"])
    person = people("masha", phone=phone, viewport=None if phone else WIDE)
    person.log_in_as(user, daphne_server)
    page = person.page
    page.goto("/")
    form = page.locator('form[data-testid="create-request"]')
    pairs = form.locator('input[name="pairs"]')
    expect(pairs).to_be_checked()  # remembered from the game of four
    form.locator('input[name="players"][value="2"] + label').click()
    expect(form.locator(".pairs-choice")).to_be_hidden()  # not a choice at a table of two
    page.screenshot(path=str(tmp_path / f"lobby-two-{'phone' if phone else 'desktop'}.png"))
    form.locator('button[type="submit"]').click()
    page.locator("[data-my-table]").wait_for()
    match = Match.objects.get()
    assert match.seats_count == 2 and not match.pairs
    # Back to four: the choice is there again.
    form.locator('input[name="players"][value="4"] + label').click()
    expect(form.locator(".pairs-choice")).to_be_visible()
    assert person.errors == []


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_form_sent_back_with_an_error_shows_it_on_the_screen(
        people, daphne_server, make_user, tmp_path, phone):
    user = make_user("masha")
    person = people("masha", phone=phone, viewport=None if phone else WIDE)
    person.log_in_as(user, daphne_server)
    page = person.page
    page.goto("/")
    form = page.locator('form[data-testid="create-request"]')
    form.locator('input[name="turn_seconds"]').fill("1")
    form.locator('button[type="submit"]').click()
    error = page.locator('form[data-testid="create-request"] .seconds .errorlist')
    error.wait_for()
    expect(page.locator('form[data-testid="create-request"] input[name="turn_seconds"]')).to_be_focused()
    box = error.bounding_box()
    height = page.viewport_size["height"]
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, (box, height)
    page.screenshot(path=str(tmp_path / f"lobby-error-{'phone' if phone else 'desktop'}.png"))
    assert person.errors == []
