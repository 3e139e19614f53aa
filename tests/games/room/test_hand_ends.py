"""The hidden buttons of a tile that fits both ends (static/js/kozel.js clicks the one of
the lit end chosen on the board) name the end by its open value, as the round's log and
the board's marks do -- never "left" or "right", which the snake's turns may belie
(issue 42, defect 6's leftover)."""

import re

import pytest
from django.utils import translation

from games.models import MatchStatus
from games.room import html as room_html
from games.room.present import seat_context, table_context
from tests.rules.positions import position

from .scenes import match_at, seats_of


def own_html(state, seat, language):
    people = seats_of(state.seats)
    match = match_at(state, 9, state.seats, status=MatchStatus.PLAYING, rated=False,
                     pairs=state.pairs)
    with translation.override(language):
        table = table_context(match, state, people)
        return room_html.seat(seat_context(table, seat))


@pytest.mark.parametrize("language, words", [
    ("ru", ("1-3 к 1", "1-3 к 3", "слева", "справа")),
    ("en", ("1-3 on the 1", "1-3 on the 3", "left", "right")),
])
def test_the_ends_of_a_tile_that_fits_both_are_named_by_their_values(language, words):
    # The chain 1-2 2-3 shows 1 and 3: Masha's 1-3 fits either end.
    state = position("1-3 5-6 0-0", "0-4 4-4 4-5", chain="1-2 2-3", turn=0)
    html = own_html(state, 0, language)
    sends = re.search(r'<span class="end-sends" hidden>(.*?)</span>', html, re.S).group(1)
    labels = re.findall(r'data-end="(\w+)" data-for="1-3"[^>]*>([^<]+)</button>', sends)
    on_one, on_three, left, right = words
    assert labels == [("left", on_one), ("right", on_three)]
    texts = " ".join(text for _end, text in labels)
    assert left not in texts and right not in texts
