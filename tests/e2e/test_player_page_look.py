"""A player's page on a phone and a desktop: the games table fits the screen whole (on a
phone its rows stack, each cell named), with no column hidden or cut off and no sideways
scroll of the page or of the table's own box; "games played" counts the games listed."""

from __future__ import annotations

import pytest

from .page_checks import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

CELLS = """() => {
  const width = document.documentElement.clientWidth;
  const box = document.querySelector('#games .table-scroll');
  const cells = [...document.querySelectorAll('.games-table tbody td')];
  return {
    width, page: document.scrollingElement.scrollWidth,
    box: box ? [box.scrollWidth, box.clientWidth] : null,
    cells: cells.length,
    hidden: cells.filter(c => !c.getClientRects().length).length,
    out: cells.filter(c => c.getBoundingClientRect().right > width + 1).map(c => c.textContent.trim()),
  };
}"""


@pytest.fixture
def long_named_game(make_user):
    """A finished four-player game whose players have long names, and one with bots."""
    from django.utils import timezone

    from games.models import Match, MatchStatus, Seat
    from tests.ratings import played

    players = [make_user(name) for name in ("Konstantin_Vasilyevich", "Alexandra_Petrovna",
                                             "Olga_Sergeyevna_Long")]
    record = played.load("finished_rules8")
    played.play(played.seat_table(players, record), players, record)
    bots = Match.objects.create(seats_count=2, status=MatchStatus.FINISHED, rated=False,
                                ended_at=timezone.now(),
                                result={"goats": [1], "interrupted_by": None, "reason": None,
                                        "scores": [12, 104], "rating_points": None})
    Seat.objects.create(match=bots, number=0, user=players[0])
    Seat.objects.create(match=bots, number=1, bot_name="Бот Люба")
    return players


@pytest.mark.parametrize("size", SIZES)
def test_the_games_table_fits_the_screen(size, long_named_game, browser, daphne_server, tmp_path):
    from tests.e2e.conftest import Person

    person = Person(browser, daphne_server, "viewer", SIZES[size])
    try:
        page = person.page
        page.goto(f"/players/{long_named_game[0].username}/")
        page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
        seen = page.evaluate(CELLS)
        assert seen["cells"] == 2 * 5 and seen["hidden"] == 0, seen
        assert seen["out"] == [] and seen["page"] <= seen["width"], seen
        assert seen["box"][0] <= seen["box"][1], seen  # nothing to scroll to inside its box
        games = page.locator('[data-stat="games"] dd').first.inner_text()
        assert games == "2"  # the bot game and the rated one, as listed
        assert person.errors == []
    finally:
        person.context.close()
