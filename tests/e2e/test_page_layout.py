"""The pages fit a phone (390×844) and a desktop (1366×900): nothing scrolls sideways, no
element is wider than the viewport, and no icon is drawn larger than 64 px."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
ICON_LIMIT = 64

# Measured in the page: its width against the viewport's, the elements that stick out,
# and the icons with their rendered size (every svg or img but a domino tile and the
# rating chart, which are meant to be large).
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 1 && e.getClientRects().length)
    .filter(e => !e.closest('.visually-hidden'))
    .map(e => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined
         ? '.' + String(e.className).split(' ').join('.') : ''));
  const icons = [...document.querySelectorAll('svg:not(.tile-svg):not(.rating-chart svg), img')]
    .map(e => [e.getAttribute('class') || e.tagName, e.getBoundingClientRect()])
    .filter(([, r]) => r.width > %d || r.height > %d)
    .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  return {scroll: document.scrollingElement.scrollWidth, width, wide: wide.slice(0, 5), icons};
}""" % (ICON_LIMIT, ICON_LIMIT)


def layout_of(page, path: str) -> dict:
    page.goto(path)
    page.wait_for_load_state("load")
    return page.evaluate(MEASURE)


def assert_fits(page, path: str, size: str) -> None:
    found = layout_of(page, path)
    assert found["scroll"] <= found["width"], f"{path} at {size} scrolls sideways: {found}"
    assert found["wide"] == [], f"{path} at {size}: wider than the viewport: {found['wide']}"
    assert found["icons"] == [], f"{path} at {size}: icons over {ICON_LIMIT} px: {found['icons']}"


@pytest.fixture
def finished_game(make_user):
    """A game with fish rounds played to its end."""
    from tests.ratings import played

    players = [make_user("Masha"), make_user("Alex"), make_user("Olya")]
    record = played.load("finished_rules8")
    return played.play(played.seat_table(players, record), players, record), players


@pytest.mark.parametrize("size", SIZES)
def test_the_pages_fit_the_screen(size, finished_game, browser, daphne_server):
    from tests.e2e.conftest import Person

    match, players = finished_game
    person = Person(browser, daphne_server, "masha", SIZES[size])
    try:
        for path in ["/rules/", "/rules/fair/", "/ratings/", "/accounts/login/"]:
            assert_fits(person.page, path, size)
        person.log_in_as(players[0], daphne_server)
        for path in ["/", f"/games/{match.pk}/", f"/games/{match.pk}/replay/?step=5",
                     "/players/Masha/"]:
            assert_fits(person.page, path, size)
        assert person.errors == []
    finally:
        person.context.close()


@pytest.fixture
def pair_game(make_user):
    """A pair game (RULES.md 11) after its first round, fish for all: it goes on."""
    from tests.ratings import played

    players = [make_user(name) for name in ("Masha", "Alex", "Olya", "Serg")]
    record = played.load("pairs_fish")
    record.fish = "all"
    match = played.seat_table(players, record)
    match.pairs = True
    match.save(update_fields=["pairs"])
    return played.play(match, players, record), players


@pytest.mark.parametrize("size", SIZES)
def test_a_pair_games_room_fits_the_screen(size, pair_game, browser, daphne_server):
    from tests.e2e.conftest import Person

    match, players = pair_game
    person = Person(browser, daphne_server, "masha", SIZES[size])
    try:
        person.log_in_as(players[0], daphne_server)
        person.page.goto(f"/games/{match.pk}/")
        person.page.wait_for_selector(".pair-scores .pair-mark.pair-2")
        assert_fits(person.page, f"/games/{match.pk}/", size)
        assert person.errors == []
    finally:
        person.context.close()
