"""The lobby's request form offers pairs (2 against 2, RULES.md 11) for four seats only."""

import re

import pytest
from django.db import IntegrityError, transaction

from games.lobby import service as requests
from games.models import Match, MatchStatus
from games.play.errors import PlayError

from .test_lobby import BOTS, CREATE, LOBBY, form_data, page_of, request_rows
from tests.formseeds import post_form

pytestmark = pytest.mark.django_db


def test_the_create_form_offers_pairs_in_russian(logged_in_client):
    page = page_of(logged_in_client)
    form = re.search(r'<form[^>]*data-testid="create-request".*?</form>', page, re.DOTALL).group(0)
    assert re.search(r'<input type="checkbox" name="pairs"', form)
    assert not re.search(r'<input type="checkbox" name="pairs"[^>]*checked', form)
    assert "Пары (2 на 2)" in form


def test_a_pair_request_of_four_is_made_and_its_row_says_pairs(client, make_user):
    client.force_login(make_user("masha"))
    response = post_form(client, CREATE, form_data(players="4", pairs="on"), follow=True)
    assert response.redirect_chain == [(LOBBY, 302)]
    match = Match.objects.get()
    assert match.pairs and match.seats_count == 4
    assert "пары (2 на 2)" in request_rows(response.content.decode())[match.pk]


def test_pairs_for_fewer_than_four_are_ignored_by_the_form_and_refused_by_the_service(
        client, make_user):
    masha = make_user("masha")
    client.force_login(masha)
    # A tick left from a game of four (the form hides it at a smaller table): a table of
    # three alone, not a refusal (issue 42).
    post_form(client, CREATE, form_data(players="3", pairs="on"))
    match = Match.objects.get()
    assert match.seats_count == 3 and not match.pairs
    match.delete()
    with pytest.raises(PlayError):
        requests.create_request(masha, players=2, pairs=True)
    assert not Match.objects.exists()


def test_the_database_refuses_a_pair_match_of_three(make_user):
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(seats_count=3, pairs=True)


def test_a_pair_table_with_bots_starts_as_a_pair_game(client, make_user):
    client.force_login(make_user("masha"))
    post_form(client, BOTS, {"players": "4", "fish": "one", "turn_seconds": "30", "pairs": "on"})
    match = Match.objects.get()
    assert match.status == MatchStatus.PLAYING and match.pairs
    assert match.state["pairs"] is True


def test_a_request_without_the_box_is_a_game_alone(client, make_user):
    client.force_login(make_user("masha"))
    post_form(client, CREATE, form_data(players="4"))
    assert Match.objects.get().pairs is False
