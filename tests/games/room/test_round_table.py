"""The score table (templates/games/_round_table.html): a cell's middle line is what the
round credited the player (in a fish for one the whole fish to one player, nothing to
the others), not the player's own round points; a legend under the table says what the
three lines of a cell are."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.models import Match
from games.room.present import RoundRow, round_table

ROWS = [
    # round, seat, points, credited, score after, remembered after, opened, result, by, bank
    RoundRow(1, 0, 40, 40, 40, 0, True, "out", 1, 0),
    RoundRow(1, 1, 0, 0, 0, 0, False, "out", 1, 0),
    # A fish for one: seat 0 holds 10, seat 1 holds 8; seat 0 is credited all 18.
    RoundRow(2, 0, 10, 18, 58, 0, True, "fish", 1, 0),
    RoundRow(2, 1, 8, 0, 0, 0, False, "fish", 1, 0),
]


def middles(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", "", cell)
            for cell in re.findall(r'<span class="this-round".*?</span>\s*(?=<span class="after")',
                                   html, re.S)]


@pytest.mark.parametrize("language, out, legend", [
    ("ru", "выход", "В каждой клетке: счёт до раунда; что раунд записал игроку"),
    ("en", "out", "Each cell: the score before the round; what the round credited"),
])
def test_a_cell_shows_what_was_credited_and_a_legend_explains_the_cells(language, out, legend):
    table = round_table(Match(seats_count=2), {0: "Маша", 1: "Петя"}, 2, rows=ROWS)
    with translation.override(language):
        html = render_to_string("games/_round_table.html", {"table": table})
    assert middles(html) == ["40", out, "18", "0"]
    assert 'data-credited="18"' in html and 'data-credited="0"' in html
    assert legend in html
