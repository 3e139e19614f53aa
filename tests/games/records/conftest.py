"""A finished game of three people (the record finished_rules8 played through the site),
for the tests of what the site keeps and shows of games that are over."""

import pytest

from tests.ratings import played


@pytest.fixture
def people(make_user):
    return [make_user("Masha"), make_user("Alex"), make_user("Olya")]


@pytest.fixture
def finished(people):
    record = played.load("finished_rules8")
    return played.play(played.seat_table(people, record), people, record)
