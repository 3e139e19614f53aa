"""The rating chart on a player's page: its axis labels come out at the size of small
text on a phone and on a desktop (the SVG scales with its box), and its y ticks are few
whole numbers."""

from __future__ import annotations

import pytest

from .page_checks import SIZES
from .test_page_layout import finished_game  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

TICKS = """() => [...document.querySelectorAll('.rating-chart .tick')].map(t => ({
  text: t.textContent.trim(), height: t.getBoundingClientRect().height}))"""


@pytest.mark.parametrize("size", SIZES)
def test_the_charts_labels_are_small_text_and_its_ticks_few_whole_numbers(
        size, finished_game, browser, daphne_server, tmp_path):
    from ratings.models import RatingRecord
    from tests.e2e.conftest import Person

    _match, players = finished_game
    person = Person(browser, daphne_server, "masha", SIZES[size])
    try:
        for player in players:
            rating = RatingRecord.objects.filter(player__user=player).latest("id").rating_after
            person.page.goto(f"/players/{player.username}/")
            ticks = person.page.evaluate(TICKS)
            person.page.screenshot(path=str(tmp_path / f"{player.username}.png"), full_page=True)
            values = [int(t["text"]) for t in ticks[:-2]]  # the last two are the dates
            assert values[0] == 0 and values[-1] >= rating and len(values) <= 5, values
            assert len({b - a for a, b in zip(values, values[1:])}) <= 1, values
            for tick in ticks:
                # The page's small text is 14-16 px; a label is no bigger than body text
                # and still readable.
                assert 9 <= tick["height"] <= 20, (player.username, tick)
        assert person.errors == []
    finally:
        person.context.close()
