"""The room's clock: a person's turn counts down (the seconds are filled in by
static/js/kozel.js); a bot's turn says "thinking…" and has no countdown, since a bot moves
in its own short pause and not at its deadline."""

import pytest
from django.utils import translation

from games import rules
from games.room import html as room_html
from games.room.present import table_context

from .scenes import match_at, seats_of, whole_game

pytestmark = pytest.mark.django_db


def first_turns(seats: int, bots: int):
    """(match, people, state) at the first turn of a person and of a bot."""
    people = seats_of(seats, bots)
    bot_seats = {n for n in range(seats) if n >= seats - bots}
    found = {}
    for version, state in enumerate(whole_game(seats, rules.FISH_ALL, 13)):
        if state.phase == rules.PLAYING:
            found.setdefault(state.turn in bot_seats, (match_at(state, version, seats), people, state))
    return found[False], found[True]


@pytest.mark.parametrize("language, thinking", [("ru", "думает…"), ("en", "thinking…")])
def test_a_bots_turn_says_thinking_and_a_persons_counts_down(language, thinking):
    person_turn, bot_turn = first_turns(3, bots=1)
    with translation.override(language):
        for match, people, state in (person_turn, bot_turn):
            frame = str(room_html.table(table_context(match, state, people)))
            if match is bot_turn[0]:
                assert thinking in frame and "data-bot-thinking" in frame
                assert "data-deadline" not in frame
            else:
                assert "data-deadline" in frame and thinking not in frame
